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

typedef enum {
    SM_HYBRID_AUTO = 0,  /* choose the hybrid-bank count per kernel at launch */
    SM_HYBRID_FIXED = 1  /* use sm_technique.hybrid_banks                      */
} sm_hybrid_policy;

/* Which registers order the block-level renaming of nbti_opt (docs/nbti.md section 5). */
typedef enum {
    SM_RENAME_LAST_WARP = 0, /* the paper's text: the block's last warp, R0 first    */
    SM_RENAME_ALL_WARPS = 1  /* the default (model.md section 7, the paper's intent):
                                R0 of every warp of the block, then R1, ...          */
} sm_rename_order;

/* reg_release (docs/model.md, "Register release and power gating"): where a newly
 * written value is placed, and what is power-gated. */
typedef enum {
    SM_RR_CONSOLIDATE = 0, /* the row group with the most live registers (gate the rest) */
    SM_RR_WEAR_LEVEL = 1,  /* the row group with the fewest allocations so far        */
    SM_RR_FAST_FIRST = 2,  /* fast storage first, consolidating within it              */
    SM_RR_FAST_SPREAD = 3  /* fast storage first, spread over all fast banks by their  *
                            * allocations so far (balances their NBTI stress)          */
} sm_rr_policy;

typedef enum {
    SM_RR_GATE_NONE = 0,     /* everything powered (renaming only)                      */
    SM_RR_GATE_REGISTER = 1, /* each register vector powered while allocated            */
    SM_RR_GATE_ROW = 2       /* each row group powered while it holds an allocated one  */
} sm_rr_gating;

/* Register bank ports (docs/model.md, "Checked against GPGPU-Sim"). */
typedef enum {
    SM_PORTS_SEPARATE = 0, /* one read port and one write port per bank           */
    SM_PORTS_SHARED = 1    /* one port per bank for reads and writes, writes first *
                            * (GPGPU-Sim's operand collector)                      */
} sm_bank_ports;

/* What a slow (PV, 2-cycle) register access costs (docs/model.md, "The cost of a slow
 * access"; issue 34).  Only the cycle process variation adds is concerned, not
 * main_rf_latency's. */
typedef enum {
    SM_SLOW_HOLD_PORT = 0,      /* the bank port is busy 2 cycles, the operand arrives and *
                                 * the destination is released a cycle late               */
    SM_SLOW_PIPELINED = 1,      /* a 2-stage bank: a cycle late, but the port takes a new *
                                 * access every cycle                                     */
    SM_SLOW_REPLAY = 2,         /* speed found at the access: the 1-cycle attempt fails   *
                                 * and is redone as a 2-cycle one (port 3 cycles, 2 late)  */
    SM_SLOW_STALL_COLLECTOR = 3 /* as hold_port, and the slow read's second cycle freezes *
                                 * the read arbiter of every bank                         */
} sm_slow_access;

/* With rf_bro (virtual banks of sub-banks of two physical banks): whose ports an access
 * holds (docs/model.md, "The cost of a slow access"). */
typedef enum {
    SM_BRO_PORTS_VIRTUAL = 0,  /* each virtual bank has its own ports                  */
    SM_BRO_PORTS_PHYSICAL = 1  /* the ports stay with the physical banks: an access     *
                                * holds those of every sub-bank it touches              */
} sm_bro_ports;

/* Operand collectors (docs/replay.md). */
typedef enum {
    SM_COLLECTORS_PER_UNIT = 0, /* oc_sp / oc_sfu / oc_mem, one pool per unit kind     */
    SM_COLLECTORS_UNIFIED = 1   /* one pool of oc_unified generic collectors (Turner) */
} sm_collectors;

/* What a global load that meets a memory hazard does (docs/replay.md). */
typedef enum {
    SM_HAZARD_STALL = 0,  /* holds the memory stage until the hazard clears        */
    SM_HAZARD_REPLAY = 1  /* squashed into its warp's replay buffer, replayed later */
} sm_mem_hazard;

/* MSHR tracking in the issue stage for loads predicted to miss (Turner). */
typedef enum {
    SM_TRACKER_NONE = 0,   /* no gating                                            */
    SM_TRACKER_NAIVE = 1,  /* issue a predicted miss only if an MSHR is free now   */
    SM_TRACKER_CREDIT = 2  /* a predicted miss takes a credit (credits = MSHRs)    */
} sm_mshr_tracker;

/* Hit/miss predictor of global loads at issue (Turner). */
typedef enum {
    SM_PREDICT_HIT_UNLESS_REPLAYED = 0, /* hit, miss once the load has been replayed */
    SM_PREDICT_ALWAYS_MISS = 1,
    SM_PREDICT_PC = 2,                  /* 2-bit saturating counter per load site   */
    SM_PREDICT_ORACLE = 3               /* knows the stream's misses                */
} sm_hit_predictor;

/* Latencies: rfdse's classes, or GPGPU-Sim 4.0's table in which every ALU opcode its
 * latency table does not name runs at latency 1 (docs/workloads.md). */
typedef enum { SM_LATENCY_RFDSE, SM_LATENCY_GPGPUSIM } sm_latency_table;

/* What an L1 miss costs (docs/model.md, "A memory system with bandwidth"). */
typedef enum {
    SM_MEMORY_FIXED = 0,     /* one latency (the profile's measured mean), no bandwidth */
    SM_MEMORY_PARTITIONS = 1 /* L2 sub-partitions and DRAM channels with bandwidth: the *
                              * latency grows with the request rate (memsys.c)          */
} sm_memory;

#define SM_MAX_LAUNCHES 256 /* launches of one profile (launch_blocks) */

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
    int max_misses;         /* outstanding misses per SM (MSHRs)     32    */
    /* the memory system behind L1 (memsys.c; GPGPU-Sim SM2_GTX480 gpgpusim.config,
     * line numbers in docs/model.md, "A memory system with bandwidth") */
    sm_memory memory;       /* fixed latency or partitions           fixed */
    int mem_channels;       /* DRAM channels (memory partitions)     6     */
    int mem_subparts;       /* L2 sub-partitions per channel         2     */
    int mem_icnt_latency;   /* interconnect, request + reply, cycles 10    */
    int mem_rop_latency;    /* L2 ROP queue latency, cycles          120   */
    int mem_l2_sector;      /* L2 data port: cycles per 32-B sector  1     */
    int mem_dram_latency;   /* DRAM latency queue, DRAM cycles       100   */
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
    double latency1_share;  /* ALU instructions GPGPU-Sim 4.0 runs at latency *
                             * 1 (used with sm.latency_table = "gpgpusim")     */
    double src_operands;    /* mean source register operands per instruction   */
    double reg_skew;        /* register-ID skew: P(r) ~ exp(-reg_skew * r)     */
    double dep_distance;    /* mean distance (instructions) to the producer    */
    double l1_hit_rate;     /* global loads that hit in L1                     */
    int miss_latency;       /* miss latency for this kernel, 0 = sm_config     */
    double partial_warps;   /* share of warps with a fixed partial lane mask   */
    int partial_lanes;      /* active lanes of a partial warp                  */
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
    int long_lived_regs;    /* registers [0, n) live the whole kernel: never      *
                             * released (reg_release; loop counters, pointers)   */
    int release_delay;      /* a release takes effect this many instructions of  *
                             * the warp after its last read (loop exits and      *
                             * reconvergence points, reg_release)                */
    double mem_requests;    /* mean memory requests per global load (memory    *
                             * divergence; 1: coalesced, docs/replay.md)       */
    int load_sites;         /* load-site IDs (static loads) the stream draws    *
                             * from, for per-PC prediction; 0: all site 0      */
    double site_bias;       /* 0: every site hits at l1_hit_rate; 1: a site    *
                             * always hits or always misses (same mean)        */
    /* memory system, shared memory and launches (issue 27 items 2, 4, 5) */
    double l2_hit_rate;     /* L1 misses (and stores) that hit in L2, with     *
                             * sm.memory = "partitions" (not measured: 0)      */
    double smem_ways;       /* mean bank-conflict degree of a shared-memory    *
                             * access, 1..32 (cycles it takes; 1: none)        */
    double frac_atomic;     /* share of shared-memory instructions that are    *
                             * atomics (read-modify-write, serialised)         */
    int atomic_ways;        /* lanes per word of an atomic: its serialisation  */
    int smem_bytes;         /* shared memory per block, bytes (0: none)        */
    int launch_blocks[SM_MAX_LAUNCHES]; /* blocks per launch, in order; none:  *
                             * one launch of grid_blocks                       */
    int n_launches;         /* entries of launch_blocks                        */
    bool launch_dependent;  /* each launch waits for the previous to finish   *
                             * on every SM (true: stream order)                */
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

/* The IPC side of a technique (model.md sections 5 and 7). */
typedef struct sm_technique {
    sm_sched_policy scheduler;  /* lrr, gto, two_level or fwas                  */
    bool fba_rm;                /* fast-bank-aware register mapping             */
    bool hybrid;                /* hybrid banks for fixed-lane register vectors */
    sm_hybrid_policy hybrid_policy;
    int hybrid_banks;           /* with hybrid_policy fixed                     */
    sm_rename_order rename_order; /* nbti_rename: which registers order it      */
    int main_rf_latency;        /* cycles a main-RF bank takes per access (and  *
                                 * is busy) on fast storage; slow storage 1 more *
                                 * (docs/model.md, "Register-file caches")      1 */
    int rfc_regs;               /* register-file cache: registers per warp's   *
                                 * partition, the interval bound k (ltrf)     16 */
    bool design[SM_N_DESIGNS];  /* register-file designs turned on (sm_designs.h) */
    /* reg_release's options (docs/model.md, "Register release and power gating") */
    bool rr_release;            /* release at the last read (false: allocate at the *
                                 * first write, keep to the warp's end) true        */
    sm_rr_policy rr_policy;     /* placement of a new value             consolidate */
    sm_rr_gating rr_gating;     /* power gating                         row         */
    int rr_row_groups;          /* row groups per bank (1 KB: 8 of 64 rows)  8      */
    int rr_table_bytes;         /* renaming table, 2 bytes an entry          1024   */
    int rr_flag_every;          /* a flag instruction per this many (0: free) 18    */
    int rr_horizon;             /* instructions the liveness looks ahead     64     */
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
