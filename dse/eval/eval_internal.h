/* eval_internal.h - internal to dse/eval/: the chip evaluator's state (time zero: maps,
 * IPC, duties; the aging loop's workspace, dse/aging/, whose clocks give every
 * technique's maps, frequencies and the IPC side of its SM runs). */
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
    double *cache_duty;    /* [n_w][n_sms][n_banks]: a cache's banks' duties, t = 0 */
    sm_technique *ipc;     /* [n_sms]: the IPC side of every SM's runs (its clock's) */
    dse_aging *aging;      /* the aging loop's workspace (and the techniques' clocks) */
    var_table_cache tables;/* where the variation tables come from (the run store's) */
    var_chip_keep keep;    /* where chips are kept (the run store's)                */
    bool has_keep;         /* a run store: chips through keep                       */
    dse_sm_result *run;    /* one run's result                                     */
    sm_stats *stats;       /* one run's statistics (reuse off)                     */
    dse_poll_fn poll;
    void *poll_arg;
    bool abandoned;        /* poll asked to abandon the chip in flight             */
    bool reuse;            /* false: simulate every run (to verify the cache)       */
    long direct_runs;      /* runs simulated with reuse off                        */
};

/* The ideal chip's maps and IPC side into e->maps and e->ipc: every SM all fast, the
 * default technique (ensure_ideal; the start-up walk, prefetch.c). */
void dse__eval_ideal_maps(dse_eval *e);

/* What dse__eval_runs returns: the chip's IPC (mean over SMs) and the register files'
 * energy over the whole kernel (sum over SMs, docs/model.md "Energy"). */
typedef struct dse__runs {
    double ipc;
    double dynamic_j, leakage_j;   /* the main register file's                        */
    double rfc_lanes;              /* a register-file cache's lane accesses, all SMs   */
    double seconds;                /* run time summed over the SMs (cache leakage)     */
} dse__runs;

/* Runs workload w on every SM's map in e->maps with its IPC side e->ipc[sm]; adds
 * weight x duty into duty_acc[sm][sub] (if not NULL) and the cache banks' duties into
 * cache_acc[sm][bank] (if not NULL).  sm_freq [n_sms]: the SMs' normalised frequencies,
 * for the leakage time (NULL: 1.0).  0, or -1 with err set. */
int dse__eval_runs(dse_eval *e, int w, double weight, double *duty_acc, double *cache_acc,
                   const double *sm_freq, dse__runs *out, char *err, size_t n);

/* The duty of one run under the sweep's duty model, by physical sub-bank. */
const double *dse__eval_duty_of(const dse_eval *e, const dse_sm_result *r);

#endif
