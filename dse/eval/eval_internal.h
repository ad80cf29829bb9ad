/* eval_internal.h - internal to dse/eval/: the chip evaluator's state (time zero: maps,
 * IPC, duties; the aging loop's workspace, dse/aging/). */
#ifndef RFDSE_DSE_EVAL_INTERNAL_H
#define RFDSE_DSE_EVAL_INTERNAL_H

#include "dse_aging.h"
#include "dse_eval.h"
#include "dse_sim_cache.h"
#include "sm.h"
#include "var.h"

struct dse_eval {
    const dse_sweep *s;
    int n_sms, n_subs, n_w;
    var_chip *chip;
    sm_sim *sim;
    dse_sim_cache *cache;
    sm_rf_map *maps;       /* [n_sms]: the current map of every SM                 */
    double *sm_freq;       /* [n_sms]                                              */
    double *ideal_ipc;     /* [n_w]: chip IPC without variation (once per rank)    */
    double *ideal_energy;  /* [n_w]: register-file energy of the ideal chip, J     */
    double *ideal_duty;    /* [n_w][n_sms][n_subs]: duties on the all-fast map     */
    double *duty;          /* [n_w][n_sms][n_subs]: the current technique's, t = 0 */
    double *counted0;      /* [n_sms][n_subs]: slowest counted delay, t = 0        */
    dse_aging *aging;      /* the aging loop's workspace                           */
    /* a register-file cache that sets the clock (ltrf, rfc_demand; rfc.c) */
    int *main_lat;         /* [n_sms]: main-RF latency of the SM runs, 0: the technique's */
    int *lat_end;          /* [n_sms]: at the end-of-schedule clock (the aging loop's)   */
    double *rfc_delay;     /* [n_sms][n_banks]: cache banks' slowest delay, t = 0       */
    double *rfc_leff;      /* [n_sms][n_banks]                                          */
    double *rfc_duty;      /* [n_w][n_sms][n_banks]: the cache banks' duties, t = 0      */
    var_cache *rfc_cells[DSE_MAX_TECHNIQUES]; /* caches of other cells (rfc_cell_area),
                                                 built on first use                   */
    /* what rfc_delay/rfc_leff hold: techniques with the same cache share them per chip */
    int rfc_chip, rfc_entries;  /* rfc_chip -1: nothing yet (set for every new chip)   */
    double rfc_area;
    dse_sm_result *run;    /* one run's result                                     */
    sm_stats *stats;       /* one run's statistics (reuse off)                     */
    dse_poll_fn poll;
    void *poll_arg;
    bool abandoned;        /* poll asked to abandon the chip in flight             */
    bool reuse;            /* false: simulate every run (to verify the cache)       */
    int chip_index;        /* the chip being evaluated                               */
    long direct_runs;      /* runs simulated with reuse off                        */
};

/* What dse__eval_runs returns: the chip's IPC (mean over SMs) and the register files'
 * energy over the whole kernel (sum over SMs, docs/model.md "Energy"). */
typedef struct dse__runs {
    double ipc;
    double dynamic_j, leakage_j;   /* the main register file's                        */
    double rfc_lanes;              /* a register-file cache's lane accesses, all SMs   */
    double seconds;                /* run time summed over the SMs (cache leakage)     */
} dse__runs;

/* Runs workload w with technique t on every SM's map in e->maps (and main-RF latency
 * in e->main_lat); adds weight x duty into duty_acc[sm][sub] (if not NULL) and the
 * cache banks' duties into rfc_acc[sm][bank] (if not NULL).  sm_freq [n_sms]: the SMs' normalised
 * frequencies, for the leakage time (NULL: 1.0).  0, or -1 with err set. */
int dse__eval_runs(dse_eval *e, int w, const sm_technique *t, double weight, double *duty_acc,
                   double *rfc_acc, const double *sm_freq, dse__runs *out, char *err, size_t n);

/* rfc.c: the maps, frequencies and main-RF latencies of a technique whose cache of
 * `entries` register vectors sets the clock (docs/model.md, "The cache clock"). */
int dse__rfc_maps(dse_eval *e, const dse_technique *t, int entries, double *freq,
                  double *freq_min, char *err, size_t n);
/* Its input to the aging loop. */
dse_rfc_in dse__rfc_in(const dse_eval *e, const dse_technique *t);

/* The duty of one run under the sweep's duty model, by physical sub-bank. */
const double *dse__eval_duty_of(const dse_eval *e, const dse_sm_result *r);

#endif
