/* dse_sim_cache.h - reuse of provably identical SM runs.
 *
 * An SM run is a pure function of (SM configuration, workload profile, the SM's share
 * of blocks, the IPC side of the technique, the fast/slow pattern of the storage map):
 * the key holds exactly those inputs, the first three serialised from the sweep's key
 * tables (sim_key.c, so a new knob is in the key the moment it is a sweep key), and a
 * hit is accepted only when the whole key compares equal, so a cached result is the value recomputing would give, bit for bit.  The SM
 * index and SM count are not part of the key: the model uses them only to size the
 * share (sm_sim_share; SMs with equal shares run identical instruction streams), so
 * SMs with the same share and map reuse one run.  Physical sub-bank ids are not part
 * of the key either: they only label the per-sub-bank statistics, never change timing.
 * Both are contracts of sm.h, tested in tests/model/test_sm.c
 * (test_equal_share_runs_are_identical, test_sub_id_only_labels_statistics).  The
 * workload's name is not in the key (it labels, never times), nor its index: two
 * workloads with equal profiles share runs.
 */
#ifndef RFDSE_DSE_SIM_CACHE_H
#define RFDSE_DSE_SIM_CACHE_H

#include "dse_run_store.h"
#include "sm.h"

typedef struct dse_sim_cache dse_sim_cache;

#define DSE_MAX_SUBS (SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK)

/* What the driver keeps of one SM run, as X-macro lists so that the run cache
 * (sim_cache.c) stores and hands out every field by looping over them: a field added
 * here is cached the moment it exists, never forgotten on cache hits.
 *
 * Scalars: X(name, doc). */
#define DSE_SM_RESULT_SCALARS(X)                                                          \
    X(ipc, "warp instructions per cycle")                                                 \
    X(cycles, "cycles of the run")                                                        \
    X(lane_accesses, "register reads and writes x the lanes they touch")                  \
    X(powered, "share of storage x time powered (1: no gating)")                          \
    X(rfc_lanes, "a register-file cache's reads and writes x lanes (0: none)")

/* Per physical sub-bank, indexed by sm_rf_map.sub_id (the cache keeps them by map
 * position and hands them out under the asking map's labels): X(name, doc).  Each
 * sub-bank's NBTI stress duty under both duty models (docs/nbti.md). */
#define DSE_SM_RESULT_SUB_ARRAYS(X)                                                        \
    X(access_duty, "accesses (reads + writes) per cycle, at most 1")                       \
    X(occupancy_duty, "share of the sub-bank's rows holding live registers, over the run")

/* Per bank, stored whole: X(name, doc). */
#define DSE_SM_RESULT_BANK_ARRAYS(X)                                                       \
    X(rfc_duty, "a register-file cache's banks (ltrf, rfc_demand; 0 without one): "       \
                "accesses per cycle, at most 1, by cache bank (model/rfc.c)")

typedef struct dse_sm_result {
#define DSE__RESULT_SCALAR(name, doc) double name;
#define DSE__RESULT_SUBS(name, doc) double name[DSE_MAX_SUBS];
#define DSE__RESULT_BANKS(name, doc) double name[SM_MAX_BANKS];
    DSE_SM_RESULT_SCALARS(DSE__RESULT_SCALAR)
    DSE_SM_RESULT_SUB_ARRAYS(DSE__RESULT_SUBS)
    DSE_SM_RESULT_BANK_ARRAYS(DSE__RESULT_BANKS)
#undef DSE__RESULT_SCALAR
#undef DSE__RESULT_SUBS
#undef DSE__RESULT_BANKS
} dse_sm_result;

/* The result of a run from its statistics and the map it ran on. */
void dse_sm_result_of(const sm_stats *st, const sm_rf_map *m, dse_sm_result *r);

/* A cache of at most 2^capacity_log2 runs, whose keys and results take at most
 * DSE_SIM_CACHE_BYTES; when full it keeps only the runs reused since they were stored. */
#define DSE_SIM_CACHE_BYTES ((size_t)32 << 20)
dse_sim_cache *dse_sim_cache_alloc(int capacity_log2);
void dse_sim_cache_free(dse_sim_cache *c);

/* The result of SM `sm` of `n_sms` running workload `w` (index w_index in the sweep)
 * with technique `t` on storage map `m`: from the cache, or simulated with `sim` and
 * remembered.  A cached result is kept per map position (virtual bank, part) and handed
 * out under the asking map's sub_id labels.  Returns SM_OK or the model's error code. */
int dse_sim_cache_run(dse_sim_cache *c, sm_sim *sim, const sm_config *cfg, const sm_profile *w,
                      int w_index, const sm_technique *t, const sm_rf_map *m, int sm, int n_sms,
                      dse_sm_result *out);

/* Upper bound of dse__sim_inputs_key's output: a field serialises at most its own bytes
 * (a list its count and the elements in use, a string up to its NUL), so the structs'
 * sizes bound it; the technique twice, since design knob rows may share a block
 * (tests/dse/test_sim_key.c fills every list and string and checks the bound). */
#define DSE_SIM_INPUTS_KEY_MAX \
    (2 * sizeof(sm_technique) + sizeof(sm_config) + sizeof(sm_profile))

/* The technique's IPC side, the SM configuration and the workload profile serialised
 * from the sweep's key tables into out (at most DSE_SIM_INPUTS_KEY_MAX bytes); returns
 * the length (sim_key.c). */
size_t dse__sim_inputs_key(const sm_config *cfg, const sm_profile *w, const sm_technique *t,
                           uint8_t *out);

/* Runs handed from one process's cache to another's (the ranks of one sweep: dse/run/
 * prefetch.c).  While recording is on, the cache keeps a copy of every run it stores;
 * take_record hands them out as one buffer of *len bytes (the caller frees it; NULL when
 * none) and starts a new one.  add_record stores the runs of such a buffer, from a cache
 * of the same binary, that this one has not: they are then hits, never simulated here.
 * A run's result is a function of its key (the contract above), so results are the same
 * whoever simulated it.  Returns 0, or -1 for a malformed buffer (the runs before the
 * fault are kept). */
void dse_sim_cache_record(dse_sim_cache *c, bool on);
uint8_t *dse_sim_cache_take_record(dse_sim_cache *c, size_t *len);
int dse_sim_cache_add_record(dse_sim_cache *c, const uint8_t *buf, size_t len);

/* The table's hash of the run dse_sim_cache_run would look up for these arguments, in
 * *hash: equal runs have equal hashes in every process of the binary, so ranks can
 * divide runs among them by it.  Returns SM_OK or the model's error code. */
int dse_sim_cache_key_hash(dse_sim_cache *c, const sm_config *cfg, const sm_profile *w,
                           const sm_technique *t, const sm_rf_map *m, int sm, int n_sms,
                           uint64_t *hash);

/* Lookups and simulations so far, for the benchmark report. */
void dse_sim_cache_counts(const dse_sim_cache *c, long *hits, long *misses);

/* Runs on disk (dse_run_store.h): a run the cache misses is looked up in st before it
 * is simulated, and a simulated run is added to it.  st stays the caller's; NULL: none. */
void dse_sim_cache_set_store(dse_sim_cache *c, dse_run_store *st);

/* The chip whose runs come next (the run store keeps runs by chip). */
void dse_sim_cache_chip(dse_sim_cache *c, uint64_t seed, int chip);

/* Of the hits, the runs found in the run store. */
long dse_sim_cache_stored(const dse_sim_cache *c);

#endif
