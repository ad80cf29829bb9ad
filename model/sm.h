/* sm.h - the cycle-level SM model (model.md sections 5-6): one streaming multiprocessor
 * running its share of a kernel's blocks on a banked register file whose storage is
 * fast (1-cycle) or slow (2-cycle) according to an sm_rf_map.
 *
 * Usage: allocate one sm_sim per thread with the largest sm_config it will run, then
 * call sm_sim_run() as often as needed; a run allocates nothing.  A run is a pure
 * function of its arguments: the same inputs give bit-identical statistics.
 * Design and simplifications: docs/model.md.
 */
#ifndef RFDSE_SM_H
#define RFDSE_SM_H

#include <stddef.h>
#include <stdint.h>

#include "sm_params.h"
#include "sm_rf_map.h"

/* ---- statistics -------------------------------------------------------------------- */

#define SM_STATS_MAX_BANKS SM_MAX_BANKS
#define SM_STATS_MAX_SUBS (SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK)
#define SM_STATS_MAX_ROW_GROUPS (SM_MAX_BANKS * 16) /* reg_release: 16 per bank at most */

/* Scalar statistics: X(name, unit, description).  All counters are integers so that
 * runs compare bit for bit; derived metrics are the functions further down. */
#define SM_STATS_SCALARS(X)                                                                 \
    X(cycles, "cycles", "simulated SM cycles from the first launch to the last retirement") \
    X(warp_insts, "warp instructions", "warp instructions issued (and completed)")          \
    X(thread_insts, "thread instructions", "warp instructions x active lanes")              \
    X(blocks, "blocks", "blocks (CTAs) run to completion on this SM")                       \
    X(resident_blocks, "blocks", "blocks resident at once (occupancy limit of the kernel)") \
    X(block_cycles, "block x cycles", "sum over cycles of resident blocks")                 \
    X(n_banks, "banks", "virtual banks: valid length of the per-bank arrays")               \
    X(n_sub_banks, "sub-banks", "physical sub-banks: valid length of the per-sub-bank arrays") \
    X(hybrid_banks, "banks", "hybrid (fast+slow sub-bank) virtual banks built at launch")   \
    X(reads, "accesses", "register-vector reads granted")                                   \
    X(writes, "accesses", "register-vector writes granted")                                 \
    X(slow_reads, "cycles", "read cycles beyond one: slow storage (and main_rf_latency > 1)") \
    X(slow_writes, "cycles", "write cycles beyond one: slow storage (and main_rf_latency > 1)") \
    X(bank_read_conflicts, "requests x cycles", "read requests waiting for a busy bank")    \
    X(bank_write_conflicts, "requests x cycles", "write requests waiting for a busy bank")  \
    X(fast_insts, "warp instructions", "issued instructions whose operands are all fast")   \
    X(stall_idle, "scheduler x cycles", "no issue: no warp with an instruction left")       \
    X(stall_memory, "scheduler x cycles", "no issue: warps wait for global loads")          \
    X(stall_dependency, "scheduler x cycles", "no issue: warps wait for ALU/SFU/shared results") \
    X(stall_collector, "scheduler x cycles", "no issue: ready warp but no free operand collector") \
    X(stall_inflight, "scheduler x cycles", "no issue: ready warp at its in-flight limit")  \
    X(stall_barrier, "scheduler x cycles", "no issue: warps wait at their block's barrier") \
    X(barriers, "warp instructions", "barrier instructions issued (frac_barrier)")        \
    X(dispatch_stalls, "collector x cycles", "operands ready but the execution unit busy")  \
    X(mshr_stalls, "cycles", "LD/ST unit blocked: all miss registers (MSHRs) in use")       \
    X(l1_misses, "loads", "global loads that missed in L1")                                \
    X(read_lanes, "lane accesses", "register reads x active lanes (energy accounting)")    \
    X(write_lanes, "lane accesses", "register writes x active lanes (energy accounting)")    \
    X(rfc_hits, "accesses", "operand reads served by a register-file cache (ltrf, rfc_demand)") \
    X(rfc_misses, "accesses", "operand reads that missed it and read the main register file") \
    X(rfc_fills, "accesses", "main-RF reads that filled the cache (ltrf prefetch)")         \
    X(rfc_writebacks, "accesses", "dirty registers written back to the main register file")  \
    X(rfc_intervals, "intervals", "register intervals begun (ltrf: one prefetch each)")     \
    X(rfc_wait, "warp x cycles", "warps held back while their interval's prefetch is in flight") \
    X(rfc_lanes, "lane accesses", "register-file cache: reads and writes (fills included) x active lanes (energy)") \
    X(rf_vectors, "register vectors", "reg_release: register vectors per SM (0: design off)") \
    X(n_row_groups, "row groups", "reg_release: row groups per SM: valid length of group_*") \
    X(rr_alloc_cycles, "register vectors x cycles", "registers the kernel allocates, summed over cycles") \
    X(rr_held_cycles, "register vectors x cycles", "physical registers allocated, summed over cycles") \
    X(rr_live_cycles, "register vectors x cycles", "physical registers holding a value, summed over cycles") \
    X(rr_powered_cycles, "register vectors x cycles", "register vectors powered (not gated), summed over cycles") \
    X(rr_peak_regs, "register vectors", "most physical registers allocated at once")         \
    X(rr_wakeups, "wake-ups", "gated registers or row groups powered up for a write")       \
    X(rr_releases, "registers", "registers freed at a read carrying the last-use flag")     \
    X(rr_flag_insts, "warp instructions", "release-flag instructions issued")              \
    X(rr_fast_allocs, "registers", "allocations in storage fast for the writing warp")     \
    X(rr_slow_allocs, "registers", "allocations in storage slow for the writing warp") \
    /* memory hazards and replay (docs/replay.md): all zero with the default knobs */      \
    X(mem_requests, "requests", "memory requests of global loads (several if divergent)") \
    X(mem_stall_queue, "cycles", "memory stage held: miss request queue full (miss_interval)") \
    X(mem_stall_divergence, "cycles", "memory stage held by extra requests of a divergent load or a trace's store") \
    X(replays_mshr, "replays", "global loads squashed for lack of an MSHR")                 \
    X(replays_queue, "replays", "global loads squashed: miss request queue full")           \
    X(replays_divergence, "replays", "divergent loads squashed after one request")          \
    X(replays_mshr_repeat, "replays", "MSHR replays of a load already replayed for an MSHR") \
    X(replay_issues, "scheduler x cycles", "replays re-issued from a warp's replay buffer")  \
    X(replay_reads, "accesses", "register reads of replays' address operands (in reads)")  \
    X(replay_buffer_full, "cycles", "hazard met with the warp's replay buffer full: stalled") \
    X(tracker_holds, "scheduler x cycles", "a load predicted to miss held by the MSHR tracker") \
    X(predictions, "loads", "hit/miss predictions checked at the memory stage")             \
    X(predictions_correct, "loads", "hit/miss predictions that were right")                 \
    X(mem_l2_requests, "requests", "sm.memory = partitions: line requests to L2 (loads and stores)") \
    X(mem_dram_requests, "requests", "sm.memory = partitions: of them, L2 misses sent to DRAM") \
    X(mem_queue_cycles, "cycles", "sm.memory = partitions: loads' waits at L2 ports and DRAM channels") \
    X(mem_l2_wait_cycles, "cycles", "sm.memory = partitions: of them, at this SM's injection port and the L2 ports") \
    X(mem_eject_cycles, "cycles", "sm.memory = partitions: of them, at this SM's ejection port") \
    X(mem_miss_cycles, "cycles", "sm.memory = partitions: latency of missing loads' requests, summed") \
    X(mem_load_requests, "requests", "sm.memory = partitions: missing loads' line requests sent to L2") \
    X(smem_conflict_cycles, "cycles", "LD/ST pipeline cycles shared-memory bank conflicts and atomics add") \
    X(icache_accesses, "fetches", "sm.frontend = gpgpusim_icache: L1I lookups (hits and misses)") \
    X(icache_misses, "fetches", "sm.frontend = gpgpusim_icache: of them, misses (merged ones too)") \
    X(pending_hits, "loads", "sm.pending_hits, const_cache: hitting loads that waited for their line's fill") \
    X(pending_cycles, "cycles", "of them, the cycles waited beyond an L1 hit, summed")

/* Array statistics: X(name, length, extent, unit, description); `extent` names the
 * scalar that gives the valid length.  Bank arrays are indexed by virtual bank (the
 * bank organisation table order, after hybrid banks are built); sub-bank arrays by
 * sm_rf_map.sub_id, i.e. physical sub-bank, for NBTI stress duty. */
#define SM_STATS_ARRAYS(X)                                                                  \
    X(bank_reads, SM_STATS_MAX_BANKS, "n_banks", "accesses", "reads per virtual bank")      \
    X(bank_writes, SM_STATS_MAX_BANKS, "n_banks", "accesses", "writes per virtual bank")    \
    X(sub_reads, SM_STATS_MAX_SUBS, "n_sub_banks", "accesses",                             \
      "reads touching each physical sub-bank")                                             \
    X(sub_writes, SM_STATS_MAX_SUBS, "n_sub_banks", "accesses",                            \
      "writes touching each physical sub-bank")                                            \
    X(sub_occupancy, SM_STATS_MAX_SUBS, "n_sub_banks", "register vectors x cycles",        \
      "live register vectors held in each physical sub-bank, summed over cycles")         \
    X(sub_const, SM_STATS_MAX_SUBS, "n_sub_banks", "register vectors x cycles",            \
      "coalesce: live register vectors x cycles whose bytes in each physical sub-bank "   \
      "hold constant bits (the bytes narrow values leave unwritten; NBTI duty)")          \
    X(sub_read_lanes, SM_STATS_MAX_SUBS, "n_sub_banks", "lane accesses",                   \
      "reads x the active lanes they touch in each physical sub-bank (energy)")           \
    X(sub_write_lanes, SM_STATS_MAX_SUBS, "n_sub_banks", "lane accesses",                  \
      "writes x the active lanes they touch in each physical sub-bank (energy)")           \
    X(rfc_bank_accesses, SM_STATS_MAX_BANKS, "n_banks", "accesses",                        \
      "register-file cache: reads and writes (fills included) of each cache bank")        \
    X(bank_live, SM_STATS_MAX_BANKS, "n_banks", "register vectors x cycles",               \
      "reg_release: physical registers holding a value per virtual bank, over cycles")     \
    X(bank_powered, SM_STATS_MAX_BANKS, "n_banks", "register vectors x cycles",            \
      "reg_release: register vectors powered per virtual bank, over cycles")               \
    X(sub_powered, SM_STATS_MAX_SUBS, "n_sub_banks", "register vectors x cycles",          \
      "reg_release: register vectors powered in each physical sub-bank, over cycles")      \
    X(group_live, SM_STATS_MAX_ROW_GROUPS, "n_row_groups", "register vectors x cycles",    \
      "reg_release: registers holding a value per row group (bank-major), over cycles")    \
    X(group_powered, SM_STATS_MAX_ROW_GROUPS, "n_row_groups", "register vectors x cycles", \
      "reg_release: register vectors powered per row group (bank-major), over cycles")     \
    X(group_allocs, SM_STATS_MAX_ROW_GROUPS, "n_row_groups", "registers",                 \
      "reg_release: allocations per row group (bank-major)")

/* Counters a register-file design declares in its own file (sm_design.h): at most this
 * many per design, all zero when it is off. */
#define SM_DESIGN_MAX_STATS 8

typedef struct sm_stats {
#define SM__STAT_SCALAR_FIELD(name, unit, desc) uint64_t name;
#define SM__STAT_ARRAY_FIELD(name, len, extent, unit, desc) uint64_t name[len];
    SM_STATS_SCALARS(SM__STAT_SCALAR_FIELD)
    SM_STATS_ARRAYS(SM__STAT_ARRAY_FIELD)
#undef SM__STAT_SCALAR_FIELD
#undef SM__STAT_ARRAY_FIELD
    uint64_t design[SM_N_DESIGNS][SM_DESIGN_MAX_STATS]; /* by design: its declared stats */
} sm_stats;

/* Description of one statistic, generated from the lists above (printing, HDF5). */
typedef struct sm_stat_info {
    const char *name;
    const char *unit;
    const char *description;
    size_t offset;      /* byte offset of the first uint64_t in sm_stats            */
    int length;         /* 1 for scalars, the array capacity otherwise              */
    const char *extent; /* NULL for scalars, else the scalar holding the valid length */
} sm_stat_info;

/* The statistics of the lists above, scalars first, in declaration order; *n receives
 * the count.  Designs' own statistics (sm_stats.design) are not in it: sm_stats_count
 * and sm_stats_at list both. */
const sm_stat_info *sm_stats_info(int *n);

/* Every statistic: the lists above, then each design's declared ones (scalars, in
 * registry order, named as their design declares them).  For printers and JSON. */
int sm_stats_count(void);
sm_stat_info sm_stats_at(int i);
/* The design that declares statistic i (sm_stats_at), or -1 for the lists above. */
int sm_stats_design_of(int i);

/* Value of a scalar statistic (info->length == 1) or element i of an array one. */
uint64_t sm_stats_get(const sm_stats *st, const sm_stat_info *info, int i);

/* Warp instructions per cycle, in floating point; 0 for an empty run. */
double sm_stats_ipc(const sm_stats *st);

/* Average resident blocks over the run (block_cycles / cycles); 0 for an empty run. */
double sm_stats_avg_live_blocks(const sm_stats *st);

/* Share of correct hit/miss predictions (docs/replay.md); 0 without predictions. */
double sm_stats_predictor_accuracy(const sm_stats *st);

/* Upper bound on the speed-up replay can give over the stalling run `stall`: every
 * cycle the memory stage was held by a hazard (mshr_stalls + mem_stall_queue +
 * mem_stall_divergence) removed, cycles / (cycles - held) (docs/replay.md); 1 for an
 * empty run. */
double sm_stats_replay_bound(const sm_stats *stall);

/* ---- errors ------------------------------------------------------------------------ */

#define SM_ERRORS(X)                                                                     \
    X(SM_E_INVALID, -1, "invalid argument (configuration, profile or map out of range)")  \
    X(SM_E_CAPACITY, -2, "configuration larger than the one the simulator was allocated for") \
    X(SM_E_MAX_CYCLES, -3, "cycle limit (sm.max_cycles) reached")                         \
    X(SM_E_STUCK, -4, "no progress for too many cycles (deadlock watchdog)")

enum {
    SM_OK = 0,
#define SM__ERR_ENUM(name, code, msg) name = code,
    SM_ERRORS(SM__ERR_ENUM)
#undef SM__ERR_ENUM
};

/* Message of an error code from sm_sim_run(). */
const char *sm_strerror(int code);

/* ---- simulation -------------------------------------------------------------------- */

typedef struct sm_sim sm_sim;

/* Allocates a simulator whose pools are sized from `c` (warps, collectors, pipelines).
 * Returns NULL on allocation failure or an invalid configuration. */
sm_sim *sm_sim_alloc(const sm_config *c);
void sm_sim_free(sm_sim *s);

/* Simulates SM `sm_index` of `n_sms` running its share of the kernel described by `w`:
 * block b runs on SM (b mod n_sms), in increasing b, capped at SM_SIM_WAVES waves of
 * resident blocks (steady-state IPC is what matters).  `c` must not need larger pools
 * than the configuration `s` was allocated with.  `map` is the storage map of this SM
 * (all entries fast for ideal/baseline).  Fills *out and returns SM_OK, or a negative
 * SM_E_* code; after SM_E_STUCK or SM_E_MAX_CYCLES, sm_sim_diagnostic() describes the
 * state the SM was stuck in and *out holds the statistics so far.
 *
 * Contract (what the sweep driver's run reuse relies on; tests/model/test_sm.c):
 *  - sm_index and n_sms enter only through the share, sm_sim_share(c, w, sm_index,
 *    n_sms): the k-th block an SM runs executes the instruction streams keyed by k,
 *    whatever its grid index.  Two runs with equal share and otherwise equal inputs
 *    are bit-identical whatever their sm_index.
 *  - map->sub_id only labels the per-sub-bank statistics (sub_reads, sub_writes,
 *    sub_occupancy are indexed by it) and never changes timing: permuting the ids
 *    permutes those three arrays and leaves every other statistic identical. */
int sm_sim_run(sm_sim *s, const sm_config *c, const sm_profile *w, const sm_technique *t,
               const sm_rf_map *map, int sm_index, int n_sms, sm_stats *out);

/* Number of blocks sm_sim_run() simulates for SM `sm_index` of `n_sms`: its share of
 * the grid (blocks sm_index, sm_index + n_sms, ...) capped at SM_SIM_WAVES times the
 * blocks resident at once; 0 for an SM without blocks.  Returns SM_E_INVALID when
 * sm_sim_run() would reject these arguments as such. */
int sm_sim_share(const sm_config *c, const sm_profile *w, int sm_index, int n_sms);

/* The stopping rule (model/stop.c, docs/performance.md): with rel > 0 the simulator's
 * later runs stop once the 95 % batch-means interval of IPC and of every rate the
 * aging and energy models read is within rel of its mean, and extrapolate their
 * statistics to the whole kernel.  0 (the default): every run is exact. */
void sm_sim_set_stopping(sm_sim *s, double rel);

/* Register vectors (entries) per bank whose map->entry_slow bits a run can read: entries
 * [0, n) of every bank.  A run reads entry_slow only for the registers of its resident
 * warp slots (model/banks.c: slot w's registers fill entries contiguously, n_banks per
 * row), so two maps that differ only in entries from n on give bit-identical runs; the
 * driver's run cache keys only these (dse/smrun).  A technique with any register-file
 * design returns map->n_entries (a design may place registers anywhere), as do a
 * trace workload and invalid arguments. */
int sm_sim_entries_read(const sm_config *c, const sm_profile *w, const sm_technique *t,
                        const sm_rf_map *map);

/* Text describing why the last run failed (empty after a successful run). */
const char *sm_sim_diagnostic(const sm_sim *s);

/* Blocks simulated per SM: at most this many waves of the kernel's resident blocks. */
#define SM_SIM_WAVES 3

/* Builds an all-fast identity storage map (ideal / baseline) of the given shape. */
void sm_rf_map_all_fast(sm_rf_map *m, int n_banks, int n_entries, int subs_per_bank);

/* Marks the last `n_slow` sub-banks of the bank organisation table slow (the shape an
 * rf_bro table has: fastest first).  For tests and for `rfdse sm` without chip maps. */
void sm_rf_map_mark_last_slow(sm_rf_map *m, int n_slow);

/* Marks n_slow sub-banks slow spread evenly over the table (no rf_bro sorting). */
void sm_rf_map_mark_spread_slow(sm_rf_map *m, int n_slow);

/* Marks the last n register vectors (entries, bank-major) slow (vl_rf, vl_rv). */
void sm_rf_map_mark_last_entries_slow(sm_rf_map *m, int n);

#endif
