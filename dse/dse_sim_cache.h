/* dse_sim_cache.h - reuse of provably identical SM runs.
 *
 * An SM run is a pure function of (workload, SM index, the IPC side of the technique,
 * the fast/slow pattern of the storage map): the key holds exactly those inputs, byte
 * for byte, and a hit is accepted only when the whole key compares equal, so a cached
 * result is the value recomputing would give, bit for bit.  Physical sub-bank ids are
 * not part of the key: they only label the per-sub-bank statistics, never change
 * timing (tests/dse/test_sim_cache.c checks this against the model).
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
