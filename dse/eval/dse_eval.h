/* dse_eval.h - evaluation of one chip: its map, then every requested technique over
 * every workload.  This is where variation/ (chip maps, register timing, the frequency
 * side of techniques) meets model/ (SM runs, the IPC side).
 */
#ifndef RFDSE_DSE_EVAL_H
#define RFDSE_DSE_EVAL_H

#include "dse_results.h"
#include "dse_sweep.h"

typedef struct dse_eval dse_eval;

/* Per-rank workspace: chip maps, an SM simulator, the run cache (used when `reuse`;
 * without it every SM run is simulated, to verify the cache). NULL on failure. */
dse_eval *dse_eval_alloc(const dse_sweep *s, bool reuse, char *err, size_t err_len);
/* The same with the run store st set (dse_eval_set_store; NULL: none) from the start, so
 * that the variation model's tables come from it too (dse_run_store_tables): the chip's
 * here, a register-file cache's of other cells when first used; and the chips below the
 * store's cap (dse_run_store_chips). */
typedef struct dse_run_store dse_run_store;
dse_eval *dse_eval_alloc_store(const dse_sweep *s, bool reuse, dse_run_store *st, char *err,
                               size_t err_len);
/* The same with the chip's tables built by the parts of `split` together (var.h,
 * var_table_split; NULL: alone): collective, so every part calls it at once. */
typedef struct var_table_split var_table_split;
dse_eval *dse_eval_alloc_split(const dse_sweep *s, bool reuse, dse_run_store *st,
                               const var_table_split *split, char *err, size_t n);
void dse_eval_free(dse_eval *e);

/* Called between SM runs so rank 0 keeps answering the other ranks.  Nonzero: abandon
 * the chip in flight (a stop request that cannot wait for the chip to finish). */
typedef int (*dse_poll_fn)(void *arg);

/* dse_eval_chip's return when poll asked to abandon the chip: nothing was computed. */
enum { DSE_EVAL_ABANDONED = -2 };

/* Computes chip `chip` for the techniques with want[t] != 0.  units[] receives one
 * filled unit per wanted technique, in technique order (their arrays must be allocated
 * by the caller, sized by dse_dims); info receives the chip's per-SM data.
 * Returns the number of units, DSE_EVAL_ABANDONED, or -1 with err set. */
int dse_eval_chip(dse_eval *e, int chip, const uint8_t *want, dse_unit *units,
                  dse_chip_info *info, dse_poll_fn poll, void *poll_arg, char *err,
                  size_t err_len);

/* The SM runs a sweep asks for (simulated + reused, as the run reports them) when
 * `ranks` ranks share its chips: each rank that gets a chip runs the ideal chip once,
 * then every (chip, technique) its time-zero runs, and nbti_reorg techniques one run
 * per interval of the schedule for the mix and for each workload (dse/aging/).  Exact
 * for one rank; with more, ranks that get no chip make it an upper bound. */
long dse_eval_planned_runs(const dse_sweep *s, int ranks);

/* Hands the run cache and the counts of `from` (an evaluator of another design point)
 * to `to`: the cache key holds every input of an SM run, so runs of equal inputs are
 * reused across points (an aging-only axis re-simulates nothing at time zero). */
void dse_eval_take_cache(dse_eval *to, dse_eval *from);

/* The runs every rank would simulate on its first chip, divided among the ranks: called
 * by all n_parts parts (ranks) at once, before any chip, with the same chip and want[]
 * (the techniques wanted of it).  Part `part` simulates its share of the distinct SM
 * runs of the ideal chip and of every wanted technique at time zero on `chip`, keeping
 * a copy of each (dse_sim_cache_record); take_prefetched hands that copy out (the
 * caller frees it) and add_prefetched stores another part's in this evaluator's cache.
 * Results cannot change: a cached run is the value simulating it gives.  poll (NULL:
 * none) is asked before each run simulated; nonzero ends the walk there (a stop request:
 * the runs not simulated are simulated later, by the ranks that need them).  Without reuse
 * or with one part, nothing.  0, or -1 with err set (add_prefetched: a malformed
 * buffer). */
int dse_eval_prefetch(dse_eval *e, int chip, const uint8_t *want, int part, int n_parts,
                      dse_poll_fn poll, void *poll_arg, char *err, size_t n);
uint8_t *dse_eval_take_prefetched(dse_eval *e, size_t *len);
int dse_eval_add_prefetched(dse_eval *e, const uint8_t *buf, size_t len);

/* Reused and simulated SM runs so far; of the reused, those from the run store. */
void dse_eval_counts(const dse_eval *e, long *reused, long *simulated, long *from_store);

/* SM runs kept on disk for later processes (`rfdse run --run-store`, dse_run_store.h):
 * the run cache looks its misses up there and adds what it simulates.  st stays the
 * caller's, open until the evaluator is freed; it moves with dse_eval_take_cache. */
void dse_eval_set_store(dse_eval *e, dse_run_store *st);

#endif
