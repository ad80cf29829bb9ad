/* dse_sim_cache.h - reuse of provably identical SM runs.
 *
 * An SM run is a pure function of (workload, the SM's share of blocks, the IPC side of
 * the technique, the fast/slow pattern of the storage map): the key holds exactly
 * those inputs, byte for byte, and a hit is accepted only when the whole key compares
 * equal, so a cached result is the value recomputing would give, bit for bit.  The SM
 * index and SM count are not part of the key: the model uses them only to size the
 * share (sm_sim_share; SMs with equal shares run identical instruction streams), so
 * SMs with the same share and map reuse one run.  Physical sub-bank ids are not part
 * of the key either: they only label the per-sub-bank statistics, never change timing.
 * Both are contracts of sm.h, tested in tests/model/test_sm.c
 * (test_equal_share_runs_are_identical, test_sub_id_only_labels_statistics).  The SM
 * configuration is not in the key: one cache serves one sweep, whose configuration is
 * fixed.
 */
#ifndef RFDSE_DSE_SIM_CACHE_H
#define RFDSE_DSE_SIM_CACHE_H

#include "sm.h"

typedef struct dse_sim_cache dse_sim_cache;

/* A cache of at most 2^capacity_log2 runs (it starts over when full). */
dse_sim_cache *dse_sim_cache_alloc(int capacity_log2);
void dse_sim_cache_free(dse_sim_cache *c);

/* IPC of SM `sm` of `n_sms` running workload `w` (index w_index in the sweep) with
 * technique `t` on storage map `m`: from the cache, or simulated with `sim` and
 * remembered.  Returns SM_OK or the model's error code. */
int dse_sim_cache_ipc(dse_sim_cache *c, sm_sim *sim, const sm_config *cfg, const sm_profile *w,
                      int w_index, const sm_technique *t, const sm_rf_map *m, int sm, int n_sms,
                      double *ipc);

/* Lookups and simulations so far, for the benchmark report. */
void dse_sim_cache_counts(const dse_sim_cache *c, long *hits, long *misses);

#endif
