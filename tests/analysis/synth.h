/* synth.h - synthetic results and chipmap files in the layout of docs/results-format.md,
 * written with plain serial HDF5 so the analysis tests need no sweep. */
#ifndef RFDSE_TEST_SYNTH_H
#define RFDSE_TEST_SYNTH_H

#include <stdint.h>

#include "ana.h"

typedef struct synth_data {
    int n_chip, n_tech, n_bench, n_year, n_sm;
    const char *const *tech;
    const char *const *bench; /* NULL: no /axes/benchmark    */
    const double *year;       /* NULL: no /axes/year         */
    const double *metric[ANA_N_METRICS]; /* NULL: dataset left out */
    const uint8_t *done;      /* NULL: no /progress/done     */
    const double *sm_frequency; /* [chip][sm]; NULL: no /chips */
    double sigma_ratio;       /* NaN: attribute left out     */
    /* NBTI trace: n_trace 0 leaves /chips/trace out. */
    int n_trace, n_sub_bank;
    const int *trace_chip;
    const double *delay;
    const uint8_t *slow;
    const double *utilisation;
} synth_data;

/* Writes d to path; 0 or -1. */
int synth_write(const char *path, const synth_data *d);

/* A plausible full-size file (13 techniques, 14 workloads, 8 years, one trace) with
 * values drawn from a fixed seed: for figure and end-to-end tests.  The arrays live in
 * *storage (free with synth_free). */
typedef struct synth_storage synth_storage;
synth_storage *synth_realistic(synth_data *d, int n_chip, double sigma_ratio, uint64_t seed);
void synth_free(synth_storage *s);

/* A chipmap file: rows x cols Vth values. */
int synth_chipmap(const char *path, int rows, int cols, uint64_t seed);

/* An HDF5 file with one dataset and no rfdse attributes. */
int synth_foreign(const char *path);

#endif
