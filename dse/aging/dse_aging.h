/* dse_aging.h - the NBTI aging loop of one chip and technique (docs/architecture.md,
 * "aging loop"; docs/nbti.md).  One unit with an explicit input, the chip's time-zero
 * results (dse_aging_in), and output, its frequency per year and guardbands
 * (dse_aging_out).  With nbti_reorg the loop runs the SM model again on the aged maps
 * through the runner in its input: the chip evaluation (dse/eval/) calls the aging loop,
 * never the reverse.
 */
#ifndef RFDSE_DSE_AGING_H
#define RFDSE_DSE_AGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dse_sweep.h"
#include "sm.h"
#include "var.h"

typedef struct dse_aging dse_aging;

/* Runs workload w with the IPC side t on every SM's map in dse_aging_in.maps and adds
 * weight x duty into duty_acc[sm][sub].  0, or -1 with err set. */
typedef int (*dse_aging_run_fn)(void *arg, int w, const sm_technique *t, double weight,
                                double *duty_acc, char *err, size_t n);

/* A register-file cache that sets the clock (ltrf, rfc_demand; rfc_clock.c): its
 * banks' time-zero timing and duties, for one chip and technique. */
typedef struct dse_rfc_in {
    int banks;             /* cache banks                                              */
    int latency0;          /* main_rf_latency: the main RF's cycles at the nominal clock */
    bool rotation;         /* rfc_rotation: every cache bank ages at the banks' mean duty */
    const double *delay;   /* [n_sms][banks]: slowest register delay, t = 0 (var_chip_cache) */
    const double *leff;    /* [n_sms][banks]: its Leff                                  */
    const double *duty;    /* [n_w][n_sms][banks]: the cache banks' duties               */
    int *latency_end;      /* out [n_sms]: main-RF latency at the end-of-schedule clock   */
} dse_rfc_in;

/* SM `sm`'s clock (normalised) with its cache's banks at duties cache_duty[banks] and
 * the main RF's sub-banks at main_duty[n_subs] for t seconds, and in *latency the main
 * RF's cycles per access at that clock: ceil(latency0 x slowest main delay x clock). */
double dse_rfc_clock(const var_params *p, const var_chip *chip, int sm, const dse_rfc_in *rfc,
                     const double *cache_duty, const double *main_duty, double t, int *latency);

/* One-off (rfdse sm): SM `sm` of chip `chip` under technique t, whose cache sets the
 * clock (dse_technique_cache_entries > 0): its all-fast map, normalised frequency and
 * main-RF latency at time zero.  Returns 0, or -1 with a message in err. */
int dse_rfc_map_of_chip(const dse_sweep *s, const dse_technique *t, int chip, int sm,
                        sm_rf_map *m, double *freq, int *latency, char *err, size_t n);

/* The time-zero results of a chip and technique: what the loop starts from. */
typedef struct dse_aging_in {
    const var_chip *chip;        /* generated: its time-zero sub-bank delays and Leff     */
    int technique;               /* index into the sweep's techniques                      */
    const double *duty;          /* [n_w][n_sms][n_subs]: the technique's t = 0 duties     */
    const double *counted0;      /* [n_sms][n_subs]: slowest counted delay, t = 0 (0: none) */
    double frequency0;           /* time-zero frequency, mean over SMs                     */
    double frequency_min0;       /* and minimum                                            */
    const double *base_raw;      /* [n_w]: the baseline's raw guardbands on this chip      */
    sm_rf_map *maps;             /* [n_sms]: the SMs' maps; nbti_reorg re-pairs them and
                                    runs on them (left as the last year's)                 */
    const dse_rfc_in *rfc;       /* a cache sets the clock, or NULL                        */
    dse_aging_run_fn run;        /* the SM runs (nbti_reorg only)                          */
    void *run_arg;
} dse_aging_in;

/* What the loop fills (arrays of the caller's unit, dse_unit's fields of the same names). */
typedef struct dse_aging_out {
    double *frequency, *frequency_min;   /* [n_years], year 0 included                 */
    double *main_latency;                /* [n_years], mean over SMs (rfc only)         */
    double *guardband_raw, *guardband;   /* [n_workloads]                              */
    int trace;                           /* >= 0: SM 0 is traced into the three below  */
    double *trace_delay;                 /* [n_years][n_subs]                          */
    uint8_t *trace_slow;                 /* [n_years][n_subs]                          */
    double *trace_util;                  /* [n_workloads][n_years][n_subs]             */
} dse_aging_out;

/* Per-rank workspace for sweep s (allocated once, reused for every chip); NULL when out
 * of memory. */
dse_aging *dse_aging_alloc(const dse_sweep *s);
void dse_aging_free(dse_aging *a);

/* The baseline's raw guardband per workload on `chip` (its all-fast map aged under
 * ideal_duty [n_w][n_sms][n_subs], the ideal chip's duties): the normaliser of every
 * technique's guardband, dse_aging_in.base_raw; and in raw_mix [n_years] its guardband
 * by each year under the workload mix, the normaliser of guardband_mix. */
void dse_aging_baseline_guardband(dse_aging *a, const var_chip *chip, const double *ideal_duty,
                                  double *raw, double *raw_mix);

/* The aging loop over the schedule: fills every field of out.  0, or -1 with err set
 * (a failed SM run, or the runner's own error). */
int dse_aging_run(dse_aging *a, const dse_aging_in *in, dse_aging_out *out, char *err, size_t n);

#endif
