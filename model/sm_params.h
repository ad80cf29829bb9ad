/* sm_params.h - the knobs of the SM model: pipeline configuration, workload profile
 * and the IPC side of a technique, as plain structs with documented defaults.
 *
 * Filled by the sweep loader (dse/); model/ never parses configuration files.
 * Defaults live in sm_config_default(), sm_profile_default() and
 * sm_technique_default() and nowhere else.
 * Reference numbers: GPGPU-Sim's GTX480 configuration (model.md section 6).
 */
#ifndef RFDSE_SM_PARAMS_H
#define RFDSE_SM_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm_designs.h"

#define SM_NAME_MAX 32
#define SM_TRACE_PATH_MAX 256

struct sm_trace; /* sm_trace.h */

/* The registry of warp schedulers: X(name, NAME, needs_bro, doc), one line each.  A
 * scheduler is its file model/sched_NAME.c defining `const sm__sched_policy
 * sm__sched_NAME` (sm_internal.h) and its line here, which gives it the value
 * SM_SCHED_NAME, the sweep-file name (`scheduler = "name"`) and, with needs_bro, the
 * loader's rule that it needs rf_bro's virtual banks.  Values follow the order here. */
#define SM_SCHEDULERS(X)                                                                    \
    X(lrr, LRR, 0, "loose round-robin (base policy)")                                      \
    X(gto, GTO, 0, "greedy-then-oldest")                                                   \
    X(two_level, TWO_LEVEL, 1, "two-level, groups of sm_config.group_size")                \
    X(fwas, FWAS, 1, "fast-warp-aware on top of the base policy")

typedef enum {
#define SM__SCHED_ENUM(name, NAME, needs_bro, doc) SM_SCHED_##NAME,
    SM_SCHEDULERS(SM__SCHED_ENUM)
#undef SM__SCHED_ENUM
    SM_N_SCHEDULERS
} sm_sched_policy;

/* Enumerations: X(VALUE, name, doc), one line each.  The value is the line's position
 * (from 0); `name` is what a sweep file writes (dse/sweep/sweep_schema.c takes the names
 * from the same list with SM_ENUM_NAMES, so they cannot fall out of step). */
#define SM__ENUM_VALUE(VALUE, name, doc) VALUE,
#define SM_ENUM_NAME(VALUE, name, doc) #name,
/* NULL-terminated names of a list, in value order: `SM_ENUM_NAMES(SM_BANK_PORTS)`. */
#define SM_ENUM_NAMES(LIST) { LIST(SM_ENUM_NAME) NULL }

#define SM_HYBRID_POLICIES(X)                                                               \
    X(SM_HYBRID_AUTO, auto, "choose the hybrid-bank count per kernel at launch")           \
    X(SM_HYBRID_FIXED, fixed, "use sm_technique.hybrid_banks")
typedef enum { SM_HYBRID_POLICIES(SM__ENUM_VALUE) } sm_hybrid_policy;

/* Which registers order the block-level renaming of nbti_opt (docs/nbti.md section 5). */
#define SM_RENAME_ORDERS(X)                                                                 \
    X(SM_RENAME_LAST_WARP, last_warp, "the paper's text: the block's last warp, R0 first")  \
    X(SM_RENAME_ALL_WARPS, all_warps, "the default (model.md section 7, the paper's "      \
      "intent): R0 of every warp of the block, then R1, ...")
typedef enum { SM_RENAME_ORDERS(SM__ENUM_VALUE) } sm_rename_order;

/* reg_release (docs/model.md, "Register release and power gating"): where a newly
 * written value is placed, and what is power-gated. */
#define SM_RR_POLICIES(X)                                                                   \
    X(SM_RR_CONSOLIDATE, consolidate, "the row group with the most live registers "        \
      "(gate the rest)")                                                                   \
    X(SM_RR_WEAR_LEVEL, wear_level, "the row group with the fewest allocations so far")    \
    X(SM_RR_FAST_FIRST, fast_first, "fast storage first, consolidating within it")         \
    X(SM_RR_FAST_SPREAD, fast_spread, "fast storage first, spread over all fast banks by " \
      "their allocations so far (balances their NBTI stress)")
typedef enum { SM_RR_POLICIES(SM__ENUM_VALUE) } sm_rr_policy;

#define SM_RR_GATINGS(X)                                                                    \
    X(SM_RR_GATE_NONE, none, "everything powered (renaming only)")                         \
    X(SM_RR_GATE_REGISTER, register, "each register vector powered while allocated")       \
    X(SM_RR_GATE_ROW, row, "each row group powered while it holds an allocated one")
typedef enum { SM_RR_GATINGS(SM__ENUM_VALUE) } sm_rr_gating;

/* Register bank ports (docs/model.md, "Checked against GPGPU-Sim"). */
#define SM_BANK_PORTS(X)                                                                    \
    X(SM_PORTS_SEPARATE, separate, "one read port and one write port per bank")            \
    X(SM_PORTS_SHARED, shared, "one port per bank for reads and writes, writes first "     \
      "(GPGPU-Sim's operand collector)")
typedef enum { SM_BANK_PORTS(SM__ENUM_VALUE) } sm_bank_ports;

/* What a slow (PV, 2-cycle) register access costs (docs/model.md, "The cost of a slow
 * access"; issue 34).  Only the cycle process variation adds is concerned, not
 * main_rf_latency's. */
#define SM_SLOW_ACCESSES(X)                                                                 \
    X(SM_SLOW_HOLD_PORT, hold_port, "the bank port is busy 2 cycles, the operand arrives " \
      "and the destination is released a cycle late")                                      \
    X(SM_SLOW_PIPELINED, pipelined, "a 2-stage bank: a cycle late, but the port takes a "  \
      "new access every cycle")                                                            \
    X(SM_SLOW_REPLAY, replay, "speed found at the access: the 1-cycle attempt fails and "  \
      "is redone as a 2-cycle one (port 3 cycles, 2 late)")                                \
    X(SM_SLOW_STALL_COLLECTOR, stall_collector, "as hold_port, and the slow read's second " \
      "cycle freezes the read arbiter of every bank")
typedef enum { SM_SLOW_ACCESSES(SM__ENUM_VALUE) } sm_slow_access;

/* With rf_bro (virtual banks of sub-banks of two physical banks): whose ports an access
 * holds (docs/model.md, "The cost of a slow access"). */
#define SM_BRO_PORTS(X)                                                                     \
    X(SM_BRO_PORTS_VIRTUAL, virtual, "each virtual bank has its own ports")                \
    X(SM_BRO_PORTS_PHYSICAL, physical, "the ports stay with the physical banks: an access " \
      "holds those of every sub-bank it touches")
typedef enum { SM_BRO_PORTS(SM__ENUM_VALUE) } sm_bro_ports;

/* Operand collectors (docs/replay.md). */
#define SM_COLLECTOR_KINDS(X)                                                               \
    X(SM_COLLECTORS_PER_UNIT, per_unit, "oc_sp / oc_sfu / oc_mem, one pool per unit kind") \
    X(SM_COLLECTORS_UNIFIED, unified, "one pool of oc_unified generic collectors (Turner)")
typedef enum { SM_COLLECTOR_KINDS(SM__ENUM_VALUE) } sm_collectors;

/* What a global load that meets a memory hazard does (docs/replay.md). */
#define SM_MEM_HAZARDS(X)                                                                   \
    X(SM_HAZARD_STALL, stall, "holds the memory stage until the hazard clears")            \
    X(SM_HAZARD_REPLAY, replay, "squashed into its warp's replay buffer, replayed later")
typedef enum { SM_MEM_HAZARDS(SM__ENUM_VALUE) } sm_mem_hazard;

/* MSHR tracking in the issue stage for loads predicted to miss (Turner). */
#define SM_MSHR_TRACKERS(X)                                                                 \
    X(SM_TRACKER_NONE, none, "no gating")                                                  \
    X(SM_TRACKER_NAIVE, naive, "issue a predicted miss only if an MSHR is free now")       \
    X(SM_TRACKER_CREDIT, credit, "a predicted miss takes a credit (credits = MSHRs)")
typedef enum { SM_MSHR_TRACKERS(SM__ENUM_VALUE) } sm_mshr_tracker;

/* Hit/miss predictor of global loads at issue (Turner). */
#define SM_HIT_PREDICTORS(X)                                                                \
    X(SM_PREDICT_HIT_UNLESS_REPLAYED, hit_unless_replayed, "hit, miss once the load has "  \
      "been replayed")                                                                     \
    X(SM_PREDICT_ALWAYS_MISS, always_miss, "always a miss")                                \
    X(SM_PREDICT_PC, pc, "2-bit saturating counter per load site")                         \
    X(SM_PREDICT_ORACLE, oracle, "knows the stream's misses")
typedef enum { SM_HIT_PREDICTORS(SM__ENUM_VALUE) } sm_hit_predictor;

/* Latencies: rfdse's classes, or GPGPU-Sim 4.0's table in which every ALU opcode its
 * latency table does not name runs at latency 1 (docs/workloads.md). */
#define SM_LATENCY_TABLES(X)                                                                \
    X(SM_LATENCY_RFDSE, rfdse, "rfdse's latency classes")                                  \
    X(SM_LATENCY_GPGPUSIM, gpgpusim, "GPGPU-Sim 4.0's table")
typedef enum { SM_LATENCY_TABLES(SM__ENUM_VALUE) } sm_latency_table;

/* The instruction front end (frontend.c; docs/model.md, "GPGPU-Sim's front end"): none
 * (every warp's next instruction is always decoded), or GPGPU-Sim's fetch, decode and
 * two-entry instruction buffer per warp, flushed on a control hazard; gpgpusim_icache
 * adds GPGPU-Sim's L1 instruction cache ("GPGPU-Sim's instruction cache"). */
#define SM_FRONTENDS(X)                                                                     \
    X(SM_FRONTEND_NONE, none, "no front end: the next instruction is always there")         \
    X(SM_FRONTEND_GPGPUSIM, gpgpusim, "GPGPU-Sim's fetch, decode and 2-entry buffer")       \
    X(SM_FRONTEND_GPGPUSIM_ICACHE, gpgpusim_icache,                                         \
      "GPGPU-Sim's front end with its L1 instruction cache (misses to L2)")
typedef enum { SM_FRONTENDS(SM__ENUM_VALUE) } sm_frontend;

/* What an L1 miss costs (docs/model.md, "A memory system with bandwidth"). */
#define SM_MEMORIES(X)                                                                      \
    X(SM_MEMORY_FIXED, fixed, "one latency (the profile's measured mean), no bandwidth")    \
    X(SM_MEMORY_PARTITIONS, partitions,                                                     \
      "L2 sub-partitions and DRAM channels with bandwidth: latency grows with load")
typedef enum { SM_MEMORIES(SM__ENUM_VALUE) } sm_memory;

#define SM_MAX_LAUNCHES 256 /* launches of one profile (launch_blocks) */
#define SM_MAX_WARP_WEIGHTS 32 /* warps of a 1024-thread block (warp_weights) */
#define SM_MAX_CODE_WALK 765 /* code_walk: 255 triples (start, length, repeat) */

/* Pipeline and memory knobs of one SM. */
typedef struct sm_config {
    int max_warps;          /* resident warps                        48    */
    int max_threads;        /* resident threads                      1536  */
    int max_blocks;         /* resident blocks                       8     */
    int n_registers;        /* 32-bit registers per SM               32768 */
    int n_schedulers;       /* warp schedulers (even/odd warps)      2     */
    sm_sched_policy base_policy; /* policy under two-level / fwas    lrr   */
    int group_size;         /* two-level scheduling group            8     */
    int oc_sp;              /* operand collector units for SP        6     */
    int oc_sfu;             /*                          for SFU      8     */
    int oc_mem;             /*                          for LD/ST    2     */
    sm_bank_ports bank_ports; /* bank ports                      separate */
    sm_slow_access slow_access; /* what a slow access costs      hold_port */
    sm_bro_ports bro_ports; /* virtual banks' ports: own or the      virtual *
                             * physical banks' (rf_bro)                       */
    bool result_slots;      /* an SP/SFU pipeline refuses an instruction false *
                             * whose result would leave it in the same cycle   *
                             * as an earlier one's (GPGPU-Sim's per-unit       *
                             * `occupied` bits: mixed latencies collide)       */
    bool pending_hits;      /* a load that hits a line whose fill is  false *
                             * in flight waits for it (GPGPU-Sim's        *
                             * HIT_RESERVED; docs/model.md, "Pending hits") */
    bool const_cache;       /* a trace's constant loads go through    false *
                             * GPGPU-Sim's constant cache, cold at the   *
                             * run's start (misses and pending hits)      */
    int result_buses;       /* with result_slots: result buses the SP   0     *
                             * and SFU pipelines share, a result taking one in *
                             * its cycle (GPGPU-Sim's EX_WB width, 2 on       *
                             * GTX480); 0: none beyond the pipelines' own      */
    int oc_stages;          /* cycles every instruction spends        0     *
                             * between its operand read and its unit     *
                             * beyond rfdse's pipeline: GPGPU-Sim 4.0 has *
                             * 3 (docs/model.md, "GPGPU-Sim's pipeline   *
                             * depth")                                    */
    int n_sp;               /* SP pipelines                          2     */
    int n_sfu;              /* SFU pipelines                         1     */
    int n_ldst;             /* LD/ST pipelines                       1     */
    int lat_int;            /* integer add/mul                       4     */
    int lat_int_mad;        /* integer mad                           5     */
    int lat_fp;             /* float add/mul                         4     */
    int lat_fp_mad;         /* float mad                             5     */
    int lat_fp_div;         /* float div                             39    */
    int lat_int_div;        /* integer div                           145   */
    int lat_sfu;            /* SFU transcendental                    20    */
    int lat_l1_hit;         /* L1 hit                                35    */
    int lat_shared;         /* shared memory                         26    */
    int lat_miss;           /* L1 miss to L2/DRAM, unloaded          450   */
    int lat_dp;             /* double add/mul/mad (GTX480 has no DP   8     *
                             * units: GPGPU-Sim runs them on the SP pipes,  *
                             * one per 8 cycles)                            */
    sm_latency_table latency_table; /* rfdse, or gpgpusim: the       rfdse *
                             * profile's latency1_share of ALU instructions  *
                             * at latency 1, as GPGPU-Sim 4.0 (comparison)   */
    sm_frontend frontend;   /* instruction fetch and buffer          none  */
    int max_misses;         /* outstanding misses per SM (MSHRs)     32    */
    /* the memory system behind L1 (memsys.c; GPGPU-Sim SM2_GTX480 gpgpusim.config,
     * line numbers in docs/model.md, "A memory system with bandwidth") */
    sm_memory memory;       /* fixed latency or partitions           fixed */
    int mem_channels;       /* DRAM channels (memory partitions)     6     */
    int mem_subparts;       /* L2 sub-partitions per channel         2     */
    int mem_icnt_latency;   /* interconnect, request + reply, cycles 14    */
    int mem_rop_latency;    /* L2 ROP queue latency, cycles          120   */
    int mem_l2_sector;      /* L2 data port: cycles per 32-B sector  1     */
    int mem_dram_latency;   /* DRAM latency queue, SM cycles         100   */
    int mem_dram_access;    /* row activate + CAS (tRCD + CL), DRAM  24    */
    int mem_dram_sector;    /* DRAM cycles per 32-B sector request   2     *
                             * (one 64-B burst, tCCD = BL / 4)              */
    int smem_size;          /* shared memory per SM, bytes           49152 */
    double mem_dram_clock;  /* DRAM clock / SM clock (924 / 700)     1.32  */
    /* memory hazards and replay (docs/replay.md; defaults reproduce the model
     * without them bit for bit) */
    sm_collectors collectors; /* operand collectors              per_unit */
    int oc_unified;         /* generic collectors when unified       8     */
    sm_mem_hazard mem_hazard; /* stall or replay                     stall */
    sm_mshr_tracker mshr_tracker; /* issue-stage MSHR tracker        none  */
    sm_hit_predictor hit_predictor; /* hit/miss predictor  hit_unless_replayed */
    int miss_interval;      /* cycles between miss requests to L2    0     *
                             * (request queue bandwidth; 0: unlimited)     */
    int64_t max_cycles;     /* watchdog: give up after this many     50M   */
    int64_t max_insts;      /* end the run, statistics as they stand, 0     *
                             * once this many warp instructions have issued *
                             * (reg_release's flag instructions among them) *
                             * (0: the kernel's end): GPGPU-Sim's           *
                             * -gpgpu_max_insn cap, per SM (comparison)     */
} sm_config;

/* A synthetic kernel profile (model.md section 6, docs/workloads.md). */
typedef struct sm_profile {
    char name[SM_NAME_MAX];
    int grid_blocks;        /* CTAs in the kernel                              */
    int block_threads;      /* threads per CTA                                 */
    int regs_per_thread;    /* registers per thread                            */
    int insts_per_warp;     /* dynamic warp instructions per warp              */
    double frac_sfu;        /* share of SFU instructions                       */
    double frac_mem;        /* share of global-memory instructions             */
    double frac_shared;     /* share of shared-memory instructions             */
    double frac_fp;         /* share of ALU instructions that are floating point */
    double frac_mad;        /* share of ALU instructions that are mad          */
    double frac_div;        /* share of ALU instructions that are divides      */
    double frac_fp64;       /* share of ALU instructions in double precision   *
                             * (part of frac_fp)                               */
    double frac_barrier;    /* share of instructions that are block barriers   *
                             * (__syncthreads), at the same positions in every *
                             * warp of a block                                 */
    double store_share;     /* share of global-memory instructions that store  */
    double smem_store_share; /* share of shared-memory instructions that store */
    double latency1_share;  /* ALU instructions GPGPU-Sim 4.0 runs at latency *
                             * 1 (used with sm.latency_table = "gpgpusim")     */
    double src_operands;    /* mean source register operands per instruction   */
    double reg_skew;        /* register-ID skew: P(r) ~ exp(-reg_skew * r)     */
    double dep_distance;    /* mean distance (instructions) to the producer    */
    double dep_at1;         /* share of those distances that are 1 (0: plain   *
                             * geometric, the share its mean gives; gen.c)     */
    double load_use_distance; /* mean distance from a global load to the first *
                             * instruction reading its result (0: not placed, *
                             * the drawn dependencies decide; gen.c)           */
    double shared_use_distance; /* the same for shared-memory loads            */
    double l1_hit_rate;     /* global loads that hit in L1                     */
    double l1_pending_rate; /* of them, pending hits: the line's fill still in *
                             * flight (with sm.pending_hits; GPGPU-Sim's       *
                             * HIT_RESERVED share of its L1 accesses)          */
    double frac_const;      /* share of instructions that read the constant    *
                             * cache (ld.param, ld.const; with sm.const_cache, *
                             * taken from the integer ALU share; gen.c)        */
    double const_lines;     /* 64-byte constant lines an SM reads (GPGPU-Sim's *
                             * cold misses per SM; with sm.const_cache)        */
    int miss_latency;       /* miss latency for this kernel, 0 = sm_config     */
    double partial_warps;   /* share of warps with a fixed partial lane mask   */
    int partial_lanes;      /* active lanes of a partial warp                  */
    int code_insts;         /* the kernel's code, instructions (here: it fills *
                             * padding): a drawn instruction i sits at 8 x (i  *
                             * mod code_insts) for the instruction cache       *
                             * (sm.frontend = "gpgpusim_icache"; 0: 8 x i)     */
    double tid_divergence;  /* share of instructions under thread-ID branches  */
    double same_bank_share; /* share of instructions whose register sources   *
                             * are put in one bank (bank mates; 0: none)       */
    int same_bank_srcs;     /* 3: 2nd and 3rd source in the 1st's bank;        *
                             * 2: the 3rd in the 2nd's bank (not the 1st's)    */
    int reg_span;           /* register numbers the registers are spread over  *
                             * for the bank mapping; 0: regs_per_thread (compact,*
                             * as allocated).  GPGPU-Sim's PTX mode numbers a    *
                             * register by its PTX virtual name: a wide span.    */
    double zero_lanes;      /* share of result lanes whose value is zero (zero  *
                             * gating: docs/model.md, "Energy")                   */
    double width_0, width_1, width_2, width_3; /* coalesce: shares of results    *
                             * needing 0-3 bytes per lane (the rest: 4 bytes)     */
    int long_lived_regs;    /* registers [0, n) live the whole kernel: never      *
                             * released (reg_release; loop counters, pointers)   */
    int release_delay;      /* a release takes effect this many instructions of  *
                             * the warp after its last read (loop exits and      *
                             * reconvergence points, reg_release)                */
    double mem_requests;    /* mean memory requests per global load (memory    *
                             * divergence; 1: coalesced, docs/replay.md)       */
    int load_sites;         /* load-site IDs (static loads) the stream draws    *
                             * from, for per-PC prediction; 0: all site 0      */
    int n_warp_weights;     /* entries of warp_weights (below; here, it fills  *
                             * what was padding before the next double)        */
    double site_bias;       /* 0: every site hits at l1_hit_rate; 1: a site    *
                             * always hits or always misses (same mean)        */
    /* memory system, shared memory and launches (issue 27 items 2, 4, 5) */
    double l2_hit_rate;     /* L1 misses (and stores) that hit in L2, with     *
                             * sm.memory = "partitions" (not measured: 0)      */
    /* read only by sm.memory = "partitions" (memsys.c; measured per kernel) */
    double line_requests;   /* L1 line requests per global load (0: mem_requests) */
    double store_sectors;   /* 32-B sectors a global store writes (0: one line) */
    double store_dram;      /* of them, the share L2 writes back to DRAM         */
    double dram_eff;        /* DRAM data-bus efficiency while busy (1: peak)   */
    double smem_ways;       /* mean bank-conflict degree of a shared-memory    *
                             * access, 1..32 (cycles it takes; 1: none)        */
    double frac_atomic;     /* share of shared-memory instructions that are    *
                             * atomics (read-modify-write, serialised)         */
    int atomic_ways;        /* lanes per word of an atomic: its serialisation  */
    int smem_bytes;         /* shared memory per block, bytes (0: none)        */
    int code_walk[SM_MAX_CODE_WALK]; /* the PTX instructions the kernel's mean  *
                             * thread runs, in order, as triples start, length,  *
                             * repeat:                                          *
                             * instructions start .. start + length - 1, the    *
                             * whole `repeat` times; a drawn instruction i sits *
                             * at 8 x walk[i mod the walk's length] for the     *
                             * instruction cache (sm.frontend =                 *
                             * "gpgpusim_icache" only; none: code_insts)        */
    int n_code_walk;        /* entries of code_walk (a multiple of 3)          */
    int launch_blocks[SM_MAX_LAUNCHES]; /* blocks per launch, in order; none:  *
                             * one launch of grid_blocks                       */
    int n_launches;         /* entries of launch_blocks                        */
    bool launch_dependent;  /* each launch waits for the previous to finish   *
                             * on every SM (true: stream order)                */
    double warp_weights[SM_MAX_WARP_WEIGHTS]; /* relative instructions of warp *
                             * j of a block (entry j % n); none: every warp   *
                             * runs insts_per_warp (gen.c, "Uneven warps")     */
    double weight;          /* weight in the sweep's workload mix (aging duty) */
    uint64_t seed;          /* seed of the synthetic instruction stream        */
    /* A trace workload (docs/traces.md, "Running a trace"): the warps of a recorded *
     * kernel instead of drawn ones; "" for a profile.  The loader decodes the file   *
     * into trace_stream (owned by the sweep) and sets the shape above from it.       */
    char trace[SM_TRACE_PATH_MAX]; /* the trace file (.traceg or its .h5 form)   */
    uint64_t trace_hash;    /* hash of the decoded trace (set by the loader):   *
                             * the run-cache key's share of it (the path only    *
                             * names it); 0 for a profile                        */
    const struct sm_trace *trace_stream; /* decoded; NULL for a profile         */
} sm_profile;

/* The knobs of one register-file design: the struct its knob rows describe
 * (sm_design.h), at most this many bytes. */
#define SM_DESIGN_KNOB_BYTES 32
typedef struct sm_knob_block {
    _Alignas(8) unsigned char bytes[SM_DESIGN_KNOB_BYTES];
} sm_knob_block;

/* The IPC side of a technique (model.md sections 5 and 7). */
typedef struct sm_technique {
    sm_sched_policy scheduler;  /* lrr, gto, two_level or fwas                  */
    bool fba_rm;                /* fast-bank-aware register mapping             */
    bool hybrid;                /* hybrid banks for fixed-lane register vectors */
    sm_hybrid_policy hybrid_policy;
    int hybrid_banks;           /* with hybrid_policy fixed                     */
    int main_rf_latency;        /* cycles a main-RF bank takes per access (and  *
                                 * is busy) on fast storage; slow storage 1 more *
                                 * (docs/model.md, "Register-file caches")      1 */
    bool design[SM_N_DESIGNS];  /* register-file designs turned on (sm_designs.h) */
    /* each design's knobs, as its own file declares them (sm_design.h); defaults from
     * its knob rows */
    sm_knob_block knobs[SM_N_DESIGNS];
} sm_technique;

void sm_config_default(sm_config *c);

/* Checks relations between knobs that single-key ranges cannot express (a block must fit
 * the SM, instruction shares add up to at most 1, ...).  Returns 0, or -1 with the
 * offending field's name in `key` and the reason in `msg`. */
int sm_config_check(const sm_config *c, char *key, size_t key_len, char *msg, size_t msg_len);
int sm_profile_check(const sm_profile *p, const sm_config *c, char *key, size_t key_len,
                     char *msg, size_t msg_len);
void sm_profile_default(sm_profile *p);
void sm_technique_default(sm_technique *t);

#endif
