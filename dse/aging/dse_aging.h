/* dse_aging.h - the NBTI aging loop of one chip and technique (docs/architecture.md,
 * "aging loop"; docs/nbti.md).  One unit with an explicit input, the chip's time-zero
 * results (dse_aging_in), and output, its frequency per year and guardbands
 * (dse_aging_out).  The frequency side of a technique is a strategy, its clock
 * (aging_internal.h): time zero, the aging over the schedule, the end state.  With
 * nbti_reorg the loop runs the SM model again on the aged maps through the runner in its
 * input: the chip evaluation (dse/eval/) calls the aging loop, never the reverse.
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

/* Runs workload w on every SM's map in dse_aging_in.maps, each SM with the IPC side its
 * time zero gave it (dse_aging_time_zero), and adds weight x duty into
 * duty_acc[sm][sub].  0, or -1 with err set. */
typedef int (*dse_aging_run_fn)(void *arg, int w, double weight, double *duty_acc, char *err,
                                size_t n);

/* A register-file cache that sets the clock (ltrf, rfc_demand; clock_cache.c): its
 * banks' time-zero timing, for one chip and technique. */
typedef struct dse_rfc_in {
    int banks;             /* cache banks                                              */
    int latency0;          /* main_rf_latency: the main RF's cycles at the nominal clock */
    bool rotation;         /* rfc_rotation: every cache bank ages at the banks' mean duty */
    const double *delay;   /* [n_sms][banks]: slowest register delay, t = 0 (var_chip_cache) */
    const double *leff;    /* [n_sms][banks]: its Leff                                  */
    /* Optional, for callers that age the same chip many times: delay and leff prepared
     * (var_reg_age_prep), [n_sms][banks], and the main RF's sub-banks (the chip's delays
     * and Leff), [n_sms][n_subs]; NULL: prepared at each call.  The same values. */
    const var_reg_age *age, *main_age;
} dse_rfc_in;

/* SM `sm`'s clock (normalised) with its cache's banks at duties cache_duty[banks] and
 * the main RF's sub-banks at main_duty[n_subs] for t seconds, and in *latency the main
 * RF's cycles per access at that clock: ceil(latency0 x slowest main delay x clock). */
double dse_rfc_clock(const var_params *p, const var_chip *chip, int sm, const dse_rfc_in *rfc,
                     const double *cache_duty, const double *main_duty, double t, int *latency);

/* One-off (rfdse sm): SM `sm` of chip `chip` under technique t (one of the sweep's or
 * a preset), by its clock's time zero: its map, normalised frequency and the IPC side of
 * its runs (a cache's clock sets the main-RF latency).  0, or -1 with err set. */
int dse_aging_sm_of_chip(const dse_sweep *s, const dse_technique *t, int chip, int sm,
                         sm_rf_map *map, double *freq, sm_technique *ipc, char *err, size_t n);

/* Per-rank workspace for sweep s (allocated once, reused for every chip); NULL when out
 * of memory. */
dse_aging *dse_aging_alloc(const dse_sweep *s);
void dse_aging_free(dse_aging *a);
/* Where a register-file cache's tables of other cells come from (var_cache_alloc_tables;
 * NULL: built).  tc stays the caller's, alive while a is. */
void dse_aging_set_tables(dse_aging *a, const var_table_cache *tc);

/* The chip every following call is about (generated: its time-zero delays and Leff). */
void dse_aging_set_chip(dse_aging *a, const var_chip *chip);

/* The name of technique t's clock (its frequency side: "ideal", "cache", "nbti_reorg",
 * "fixed"; docs/architecture.md). */
const char *dse_aging_clock_name(const dse_sweep *s, const dse_technique *t);

/* Time zero of technique `technique` on the current chip, by its clock: every SM's map
 * maps[n_sms], normalised frequency sm_freq[n_sms] and the IPC side ipc[n_sms] its SM
 * runs use (the technique's own, or with the main-RF latency a cache's clock sets);
 * the mean and minimum frequency.  0, or -1 with err set. */
int dse_aging_time_zero(dse_aging *a, int technique, sm_rf_map *maps, double *sm_freq,
                        sm_technique *ipc, double *freq, double *freq_min, char *err, size_t n);

/* The time-zero results of the current chip and the technique of the last time zero:
 * what the loop starts from. */
typedef struct dse_aging_in {
    const double *duty;          /* [n_w][n_sms][n_subs]: the technique's t = 0 duties     */
    const double *cache_duty;    /* [n_w][n_sms][n_banks]: its cache banks' (a cache's clock) */
    double frequency0;           /* time-zero frequency, mean over SMs                     */
    double frequency_min0;       /* and minimum                                            */
    const double *base_raw;      /* [n_w]: the baseline's raw guardbands on this chip      */
    sm_rf_map *maps;             /* [n_sms]: the SMs' maps; nbti_reorg re-pairs them and
                                    runs on them (left as the last year's)                 */
    dse_aging_run_fn run;        /* the SM runs (nbti_reorg only)                          */
    void *run_arg;
} dse_aging_in;

/* What the loop fills (arrays of the caller's unit, dse_unit's fields of the same names). */
typedef struct dse_aging_out {
    double *frequency, *frequency_min;   /* [n_years], year 0 included                 */
    double *main_latency;                /* [n_years], mean over SMs                    */
    double *guardband_raw, *guardband;   /* [n_workloads]                              */
    int trace;                           /* >= 0: SM 0 is traced into the three below  */
    double *trace_delay;                 /* [n_years][n_subs]                          */
    uint8_t *trace_slow;                 /* [n_years][n_subs]                          */
    double *trace_util;                  /* [n_workloads][n_years][n_subs]             */
} dse_aging_out;

/* The baseline's raw guardband per workload on the current chip (its all-fast map aged
 * under ideal_duty [n_w][n_sms][n_subs], the ideal chip's duties): the normaliser of
 * every technique's guardband, dse_aging_in.base_raw; and in raw_mix [n_years] its
 * guardband by each year under the workload mix, the normaliser of guardband_mix. */
void dse_aging_baseline_guardband(dse_aging *a, const double *ideal_duty, double *raw,
                                  double *raw_mix);

/* The aging loop over the schedule of the last time zero's technique: fills every field
 * of out.  0, or -1 with err set (a failed SM run, or the runner's own error). */
int dse_aging_run(dse_aging *a, const dse_aging_in *in, dse_aging_out *out, char *err, size_t n);

/* After dse_aging_run: the IPC side of every SM at the end-of-schedule clock into
 * ipc[n_sms], true when it differs from time zero's (the SM runs must be redone for the
 * lifetime IPC: a cache's clock moves the main-RF latency); false leaves ipc alone. */
bool dse_aging_end_state(const dse_aging *a, sm_technique *ipc);

/* SM runs of one unit of technique t (time zero, its aging and end state), summed over
 * the SMs; `traced`: its chip is traced.  Each clock counts its own (its `runs`);
 * tests/check_run_select.sh compares the sum with a real run's count. */
long dse_aging_unit_runs(const dse_sweep *s, const dse_technique *t, bool traced);

#endif
