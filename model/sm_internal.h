/* sm_internal.h - state shared by the hardware units of the SM model.  Not part of the
 * public API (sm.h); tests include it for hand-built micro-kernels.
 *
 * Every pool is sized at sm_sim_alloc() from the sm_config and indexed by small
 * integers; queues are intrusive singly linked lists threaded through the pools, so a
 * run never allocates.
 */
#ifndef RFDSE_SM_INTERNAL_H
#define RFDSE_SM_INTERNAL_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm.h"
#include "sm_design.h"
#include "sm_trace.h"

#define SM__MAX_WARPS 64       /* warp masks are uint64_t                              */
#define SM__MAX_REGS 256       /* register IDs fit uint8_t; 0xFF is "no register"      */
#define SM__MAX_PREDS 256      /* a trace's predicates 1..255 (0: none; sm_sim.ppend) */
#define SM__MAX_PSRC 3         /* predicates an instruction reads (SM_TRACE_MAX_PSRC)  */
#define SM__NIL 0xFFFF         /* end of an intrusive list                             */
#define SM__NOT_WAITING 0x100  /* sm__warp.wait_reg of a warp not scoreboard-blocked:  *
                                * this bit set (a wake sets it on the register number) */
#define SM__WARP_INFLIGHT 16   /* in-flight instructions per warp (instruction buffer) */
#define SM__MAX_PIPES 16
/* GPGPU-Sim SM2_GTX480's L1I, -gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:2:32,4
 * (gpgpusim.config line 83): 4 sets of 4 ways of 128-byte lines (2 KB), LRU, 2 MSHRs
 * of up to 32 merged requests (docs/model.md, "GPGPU-Sim's instruction cache") */
#define SM__IC_SETS 4
#define SM__IC_WAYS 4
#define SM__IC_LINE 128
#define SM__IC_MSHRS 2
#define SM__IC_MERGE 32
#define SM__IC_L2_LINES 8192 /* code lines tracked for L2 (1 MB of code; aliased above) */
#define SM__RESULT_RING 64     /* result cycles remembered per pipeline (result_slots) */
#define SM__MAX_BUSES 4        /* result buses (result_buses)                           */
#define SM__MAX_SCHED 4
#define SM__MAX_MATES 8        /* bank mates remembered per register (same_bank_share) */
#define SM__RING 16            /* recent destinations remembered for dependencies      */
#define SM__LU_SLOTS 8         /* loads awaiting their placed first use (gen.c)          */
#define SM__PROG_ROUNDS 4      /* rounds of the program permutation (gen.c prog_perm)   */
#define SM__DIV_LANES 16       /* lanes active under a thread-ID branch (tid < 16)     */
#define SM__FWAS_PATIENCE 1     /* FWAS starvation limit (sched_fwas.c)             */
#define SM__WHEEL 1024         /* completion wheel buckets (power of two)              */
#define SM__WHEEL_DONE 0       /* wheel list of results leaving their pipeline          */
#define SM__WHEEL_RELEASE 1    /* wheel list of written registers to release            */
#define SM__REPLAY_ENTRIES 8   /* per-warp replay buffer (Turner)                       */
#define SM__LOAD_SITES 256     /* per-PC predictor counters (load-site IDs are uint8_t) */
#define SM__MSHR_RING 4096     /* MSHRs of a divergent load's early requests (max_misses) */
#define SM__FILLS 4096         /* line fills remembered for pending hits (pending.c) */

/* Operation classes.  Each has one unit and one constant latency, so each completion
 * queue is FIFO in issue order (no heap needed). */
typedef enum {
    SM__OP_INT, SM__OP_INT_MAD, SM__OP_INT_DIV,
    SM__OP_FP, SM__OP_FP_MAD, SM__OP_FP_DIV,
    SM__OP_SFU,
    SM__OP_LD_GLOBAL, SM__OP_ST_GLOBAL, SM__OP_LD_SHARED, SM__OP_ST_SHARED,
    SM__OP_DP,      /* double precision on the SP pipelines (frac_fp64)              */
    SM__OP_LAT1,    /* an ALU op GPGPU-Sim 4.0 runs at latency 1 (latency_table)     */
    SM__N_OPS,
    /* not drawn by the mix (past SM__N_OPS, so the stream tables are unchanged): an
     * instruction that only carries register-release flags (reg_release.c); it takes
     * an issue slot and an SP dispatch, reads and writes nothing */
    SM__OP_FLAG = SM__N_OPS,
    /* a block barrier (frac_barrier), placed by position, not drawn: it takes an issue
     * slot and holds the warp until every warp of its block has issued it (sched.c) */
    SM__OP_BAR,
    /* a trace's instruction without a register result (branches, exits, compares that
     * set only a predicate; trace.c): an SP slot, nothing to write back */
    SM__OP_NORES,
    /* a PTX trace's GPGPU-Sim 4.0 timing classes without an rfdse class of their own,
     * only with sm.latency_table = "gpgpusim" (trace.c; sm_trace_gsim) */
    SM__OP_G_IMUL, SM__OP_G_MAX, SM__OP_G_DP, SM__OP_G_DP_MAX, SM__OP_G_DIV,
    SM__OP_G_IDIV, SM__OP_G_DDIV, SM__OP_G_SFU, SM__OP_G_SHFL,
    SM__OP_END
} sm__op;
/* In the op table alone (gen.c op_table, past the drawn ops): a profile's constant load,
 * which synth() turns into an SM__OP_LD_GLOBAL whose miss byte is SM__MISS_CONST | its
 * line until issue decides it (pending.c sm__pend_const) */
#define SM__OP_CONST_DRAWN SM__N_OPS
#define SM__MISS_CONST 0x80

typedef enum { SM__UNIT_SP, SM__UNIT_SFU, SM__UNIT_MEM, SM__N_UNITS } sm__unit;

/* Latency classes: one per operation latency, global-load misses separate from hits. */
typedef enum {
    SM__LAT_INT, SM__LAT_INT_MAD, SM__LAT_INT_DIV, SM__LAT_FP, SM__LAT_FP_MAD, SM__LAT_FP_DIV,
    SM__LAT_SFU, SM__LAT_L1_HIT, SM__LAT_SHARED, SM__LAT_MISS, SM__LAT_DP, SM__LAT_ONE,
    /* GPGPU-Sim 4.0's latencies of the SM__OP_G_* classes (SM2_GTX480) */
    SM__LAT_G_MAX, SM__LAT_G_DP_MAX, SM__LAT_G_DDIV, SM__LAT_G_SFU, SM__LAT_G_SHFL,
    /* a pending hit's (pending.c): set per load, as the miss's is under the memory
     * system, just before its completion is booked */
    SM__LAT_PENDING,
    SM__N_LAT
} sm__lat;

typedef enum {
    SM__STALL_IDLE, SM__STALL_MEMORY, SM__STALL_DEP, SM__STALL_COLLECTOR, SM__STALL_INFLIGHT,
    SM__STALL_BARRIER,
    SM__N_STALL, SM__STALL_NONE = SM__N_STALL
} sm__stall;

/* sm__inst, one decoded warp instruction: sm_design.h. */

/* Operation traits, indexed by sm__op (exec.c). */
typedef struct sm__op_info {
    uint8_t unit;
    uint8_t lat;       /* sm__lat; a global load's miss goes to SM__LAT_MISS */
    uint8_t interval;  /* cycles the pipeline stays busy (initiation interval) */
    uint8_t is_store;
} sm__op_info;
extern const sm__op_info sm__ops[SM__OP_END]; /* and FLAG, BAR, NORES, G_* */

/* An in-flight instruction, from issue to its register write. */
typedef struct sm__slot {
    int64_t done_at;   /* cycle the result leaves its pipeline, then its release */
    uint16_t next;     /* intrusive list: completion wheel */
    uint8_t warp;
    uint8_t miss;
    uint8_t lat;       /* sm__lat */
    /* the destination's write, resolved at issue so that writeback does not go back
     * to the warp's tables: bank, latency - 1 and sub-bank parts touched */
    uint8_t wbank, wslow, wlanes;
    /* bytes 0-7 of the instruction as issued, in sm__inst's order: one 8-byte copy at
     * issue instead of a store per field (and 32-byte slots index by a shift) */
    uint8_t op, unit, dst, n_src, src[SM__MAX_SRC], div;
    uint8_t xbusy;     /* cycles past the first the LD/ST pipeline is held and the  *
                        * result is late: smem_ways - 1 of a shared access, else 0   */
    uint8_t pdst;      /* predicate written (sm__warp.pdst), released with the slot */
    uint8_t pend;      /* a profile's hitting load drawn as a pending hit (1), or its *
                        * constant load: SM__MISS_CONST | its line (pending.c)      */
} sm__slot;
_Static_assert(offsetof(sm__slot, div) - offsetof(sm__slot, op) == offsetof(sm__inst, div) &&
                   offsetof(sm__slot, dst) - offsetof(sm__slot, op) == offsetof(sm__inst, dst),
               "a slot copies bytes 0-7 of an sm__inst");

/* An operand collector holding an instruction.  Collectors of a unit are alike, so a
 * full one is just its record in the unit's fill-order ring (s->coll[u]): its
 * position there is both its identity and its age. */
typedef struct sm__collector {
    int64_t ready_at;  /* cycle all its operands have arrived (collector.c) */
    uint16_t slot;
} sm__collector;

typedef struct sm__warp {
    sm__inst next;       /* the instruction the warp would issue next */
    const uint64_t *stream; /* its stored stream (streams.c), or NULL: drawn */
    uint16_t micro_row;  /* tests with k.micro_rows: the row of the micro-kernel it runs; *
                          * a trace: its warp's index in sm_trace.first (trace.c)       */
    /* a trace's predicates of `next`, written and read, numbered from 1 (0: none;
     * sm_trace_inst): the scoreboard's only (sm__sched_try).  Beside sm__inst, not in
     * it, so that drawn streams, which never set them (0 from launch), copy no more */
    uint8_t pdst;
    uint8_t psrc[SM__MAX_PSRC];
    uint64_t rng;        /* stream state, seeded from (profile seed, block, warp) */
    uint64_t age;        /* launch order, for GTO's "oldest" */
    int32_t n_left;      /* instructions not yet issued */
    int32_t n_issued;
    uint32_t tinst;      /* a trace: `next`'s index in sm_trace.insts (trace.c) */
    int16_t block;       /* block slot */
    uint8_t sched;       /* its scheduler: w mod n_schedulers, kept to avoid a division */
    uint8_t passed;      /* FWAS: times its slow instruction was passed over */
    uint8_t lanes;       /* active lanes (32, or fewer for a partial warp) */
    uint8_t tlanes[2];   /* lanes an instruction counts, by lane mode (0 warp, 1 div) */
    uint8_t parts[2];    /* sub-bank parts an access touches, by lane mode (0 warp, 1 div) */
    uint8_t n_inflight;
    uint8_t tables_lanes; /* lanes its bank and latency tables were filled for (banks.c), *
                           * 0: none this run                                           */
    uint8_t wib;         /* its warp in block (uneven warps' barriers, gen.c) */
    uint16_t wait_reg;   /* register (or a trace's predicate) a scoreboard-blocked    *
                          * warp waits for, or SM__NOT_WAITING, which none equals      */
    uint8_t wait_kind;   /* while it waits: SM__STALL_MEMORY or SM__STALL_DEP */
    uint8_t ring[2][SM__RING]; /* recent destinations per lane mode */
    uint8_t ring_pos[2];       /* next ring position (wraps)            */
    uint8_t ring_fill[2];      /* valid ring entries, at most SM__RING  */
    /* load_use_distance (gen.c): loads whose first reader is placed, by register and
     * the warp instruction index that reads it */
    uint8_t lu_n;
    uint8_t lu_reg[SM__LU_SLOTS];
    int32_t lu_due[SM__LU_SLOTS];
    /* Per register; the entries of SM__NO_REG stay 0 (never pending, never slow), so
     * unused operand slots can be looked up without a test. */
    uint8_t pend[SM__MAX_REGS];    /* scoreboard: 0, SM__STALL_DEP or SM__STALL_MEMORY */
    uint8_t bank[SM__MAX_REGS];    /* bank an access goes to: the home bank, or a design's *
                                    * (a register-file cache's banks follow the main RF's) */
    uint8_t home[SM__MAX_REGS];    /* virtual bank holding the register vector (occupancy) */
    uint8_t slow[2][SM__MAX_REGS]; /* access latency - 1, by lane mode */
    /* sm.frontend = "gpgpusim" (frontend.c): decoded entries of its instruction
     * buffer; whether they are stale (a control hazard: flushed after ib_at); whether
     * its next fetch is from the wrong path (the hazard was the buffer's last entry) */
    uint8_t ib_n, ib_stale, ib_wrong;
    int64_t ib_at;
} sm__warp;

typedef struct sm__block {
    int ordinal;         /* k-th block of this SM's share: keys its warps' streams */
    int warps_left;      /* warps not yet finished */
    int at_barrier;      /* warps that issued the barrier the block waits at */
    bool live;
    uint8_t rename[SM_MAX_BANKS]; /* per-block renaming table, logical -> virtual bank */
} sm__block;

typedef struct sm__sched {
    uint64_t warps;      /* resident warps of this scheduler */
    uint64_t ready;      /* warps worth trying: not scoreboard-blocked, instructions left */
    uint64_t barrier;    /* warps waiting at their block's barrier: no candidates */
    uint64_t ib_empty;   /* sm.frontend: warps with no decoded instruction: no       *
                          * candidates (frontend.c); always 0 without a front end    */
    uint64_t unit_mask[SM__N_UNITS]; /* warps whose next instruction needs that unit */
    int last;            /* last warp issued (LRR, GTO) or -1 */
    int resume;          /* FWAS: >= 0 to make the base order resume at this warp */
    int group;           /* two-level: active group */
    int n_wait[SM__N_STALL]; /* blocked warps by kind (memory, dependency) */
    uint8_t why;         /* structural reasons seen this cycle, bit per sm__stall */
    uint8_t cls;         /* the stall it charged in its last cycle without an issue *
                          * (sm__stall): repeated while it stays settled (sched.c)  */
    unsigned full_seen;  /* units_full in that cycle                                 */
    uint8_t n_age;
    uint8_t by_age[SM__MAX_WARPS]; /* resident warps, oldest first */
    int n_groups;        /* two-level scheduling groups */
    uint64_t group_mask[SM__MAX_WARPS];
} sm__sched;

/* Everything derived from (config, profile, technique, map) at kernel launch. */
typedef struct sm__kernel {
    int regs;            /* registers per thread */
    int reg_span;        /* register r has number r * reg_span / regs for its bank */
    int insts_per_warp;  /* the longest warp's instructions (all warps' without weights) */
    bool uneven;         /* warp_weights: warp j of a block runs warp_len[j] (gen.c) */
    int len_min;         /* the shortest warp_len: barriers are placed on its positions */
    int32_t warp_len[SM_MAX_WARP_WEIGHTS];
    int64_t block_insts; /* a block's warp instructions (stop.c extrapolates to them) */
    int warps_per_block;
    int tail_lanes;      /* lanes of the last warp of a block (32 if full) */
    int resident;        /* blocks resident at once */
    int n_blocks;        /* blocks this SM runs: sm_sim_share() */
    int first_div;       /* registers [first_div, regs) are touched only under thread-ID branches */
    uint64_t seed;
    uint32_t div_thresh, partial_thresh, alu_src_thresh; /* P * 2^32 */
    double lat1_share;    /* ALU share at latency 1 (sm.latency_table = "gpgpusim")   */
    int dp_gsim;          /* a drawn DP op runs as GPGPU-Sim's DP_OP, on the SFU (same) */
    bool trace_gsim;      /* a trace under sm.latency_table = "gpgpusim": its          *
                           * instructions' GPGPU-Sim classes (sm_trace_inst.gsim)     */
    /* the kernel's program (gen.c prog_setup): position p < prog_len of the shortest
     * warp is a barrier when its slot (a keyed permutation of [0, prog_len)) is below
     * n_bar, else the op table's entry for the slot */
    int prog_len, n_bar, prog_bits;
    uint64_t prog_key[SM__PROG_ROUNDS];
    uint32_t mate_thresh; /* same_bank_share * 2^32 (0: off) */
    int mate_srcs;        /* same_bank_srcs */
    uint8_t n_mates[SM__MAX_REGS];              /* registers in r's (plain) bank, not r */
    uint8_t mates[SM__MAX_REGS][SM__MAX_MATES];
    uint32_t hit_thresh;  /* L1 hit rate * 4096 */
    uint8_t src_base[SM__N_OPS];  /* sources by operation (ALU: the drawn count's floor) */
    uint8_t src_drawn[SM__N_OPS]; /* 1: ALU, one more source with P = alu_src_thresh   */
    int partial_lanes;
    int lat[SM__N_LAT];
    /* sm__ops, copied: addressed from the simulator the hot paths hold, not reloaded
     * from the table's address at each use (exec.c) */
    sm__op_info ops[SM__OP_END];
    uint8_t op_tab[1024];
    uint8_t reg_tab[2][1024];
    uint8_t dep_tab[256];
    /* working bank table: virtual banks as the SM uses them (hybrid banks first when
     * built, see banks.c) */
    int n_banks, subs, n_entries;
    int16_t sub_id[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK];
    uint8_t sub_slow[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK];
    uint8_t origin[SM_MAX_BANKS]; /* map virtual bank whose entry_slow row applies */
    uint8_t cls[SM_MAX_BANKS];    /* 0 fast, 1 slow, 2 hybrid: renaming stays in class */
    int n_hybrid;        /* hybrid banks [0, n_hybrid) */
    int n_fast;          /* fast non-hybrid banks follow the hybrid ones (fba_rm order) */
    int extra_lat;       /* main_rf_latency - 1, added to every access's latency - 1 */
    bool fba_fit;        /* fba_rm: every register fits the fast banks */
    int fba_low;         /* fba_rm otherwise: registers below this go to fast banks */
    const sm_rf_map *map;
    const sm_technique *t;
    const struct sm__sched_policy *policy; /* the technique's scheduler      */
    const struct sm__sched_policy *base;   /* FWAS's tie-breaking base policy */
    /* register-file designs turned on, in registry order, and the union of the hooks
     * they fill (bit per sm__hook): the hot paths test a bit, not the list */
    const struct sm__rf_design *design[SM_N_DESIGNS];
    void *design_st[SM_N_DESIGNS]; /* their state (sm_sim.design_state) */
    int n_designs;
    unsigned hooks;
    /* reg_release: a release-flag instruction leads every flag_every + 1 of a warp's
     * stream (0: none; set by the design's kernel hook, gen.c) */
    int flag_every;
    struct sm__stream_set *streams; /* stored streams of this generator (streams.c) */
    const sm__inst *micro; /* hand-written kernel (tests), or NULL */
    const sm_trace *trace; /* a trace workload's warps (trace.c), or NULL */
    bool frontend;       /* sm.frontend = "gpgpusim" or "gpgpusim_icache" (frontend.c) */
    bool icache;         /* sm.frontend = "gpgpusim_icache": its L1I (frontend.c) */
    bool own_stream;     /* micro or trace: the warps do not draw (gen.c's one test) */
    int n_micro;
    bool micro_rows;     /* tests: warp g of the share runs row g of micro (mem_hazard) */
    /* memory hazards and replay (mem_hazard.c, replay.c): mem_model routes global
     * loads through the hazard model; off with the default knobs, so the default
     * paths pay one predictable branch each */
    bool mem_model;
    bool issue_hooks;    /* a design's issue hook or mem_model: issue_warp's one test */
    /* schedulers that never settle (sched.c): all of them with a design's hooks or the
     * hazard model, whose state changes the issue stage's outcome unannounced; else 0 */
    unsigned sched_always;
    /* none of the cold features (sim.c kernel_plain): the cycle loop runs the stages'
     * plain copies, in which the features' tests are constant-folded away */
    bool plain;
    /* the next instruction's `fast` is read before issue (FWAS) or the tables may change
     * between drawing and issue (designs' hooks): computed as it is drawn; otherwise
     * the issue stage derives it from the latencies the collector reads (sched.c) */
    bool fast_at_next;
    /* a warp's stream state is read past its draws (designs' hooks and port rules:
     * zero_gating, coalesce; the hazard model): a stored stream's read advances it */
    bool rng_read;
    bool result_slots;   /* sm_config.result_slots (exec.c), a kernel constant */
    int result_buses;    /* sm_config.result_buses (exec.c; with result_slots)  */
    int oc_stages;       /* sm_config.oc_stages (exec.c start)                  */
    /* pending hits (pending.c): sm.pending_hits (data lines), sm.const_cache (a
     * trace's constant lines), either (pending); a profile's hit is pending with
     * P = pend_thresh / 2^32 */
    bool pending, pend_data, pend_const;
    uint32_t pend_thresh;
    /* a profile's constant loads (sm.const_cache, frac_const; gen.c, pending.c): their
     * share of the instructions (0: none) and the 64-byte lines they read */
    double cprof_frac;
    int cprof_lines;
    uint64_t max_insts;  /* sm_config.max_insts, UINT64_MAX when 0: the run ends   *
                          * once this many warp instructions have issued (sim.c)   */
    int max_misses;      /* sm_config.max_misses: read per LD/ST dispatch from the    *
                          * kernel the hot paths hold, not through the configuration */
    bool shared_ports;   /* sm_config.bank_ports = shared: one test of the kernel in   *
                          * every write, not two loads through the configuration      */
    bool lrr;            /* the policy is LRR and the stream drawn: the issue stage   *
                          * runs its drawn copy inline (sm__lrr_in_as)                */
    /* SP operations a plain kernel's issue stage may dispatch at once (bit per sm__op;
     * exec.c sm__dispatch_early): 0 when the kernel does not allow it */
    uint32_t early_ops;
    unsigned coll_keep[SM__N_UNITS]; /* units_full bits kept when a collector of unit u
                                      * frees: all but u's, none with a unified pool */
    bool unified;        /* one pool of oc_unified collectors */
    bool replay;         /* mem_hazard replay, or a tracker that gates issue */
    uint32_t req_thresh; /* mem_requests: P(one more request) * 2^32 */
    int req_base;        /* mem_requests: requests at least */
    int n_sites;         /* load_sites */
    bool site_bias;      /* site_bias > 0: a load's miss follows its site's hit rate */
    uint16_t site_hit[SM__LOAD_SITES]; /* site_bias: per-site hit threshold (of 4096) */
    /* sm_config.slow_access and bro_ports (slow_access.c): port_rules routes the port
     * calls through sm__port_*_rules; off with the defaults */
    bool port_rules;
    int slow_cycles;     /* cycles a slow access adds: 1, or 2 with replay            */
    int hold_cap;        /* cycles past the first a port is held at most (pipelined) */
    bool slow_stall;     /* stall_collector                                          */
    bool phys_ports;     /* bro_ports = physical                                      */
    bool coalesce;       /* the coalesce design: requests carry tags (coalesce.c)     */
    /* shared memory (gen.c): a shared access's conflict degree is smem_base, one more
     * with P = smem_thresh / 2^32; an atomic (P = atomic_thresh of shared accesses)
     * takes 2 x atomic_ways (read and write of each serialised lane) */
    bool smem_on;        /* any of them set: gen.c draws degrees */
    int smem_base;
    uint32_t smem_thresh, atomic_thresh;
    int atomic_cycles;
    /* load-use placement (gen.c): a global (0) or shared (1) load's first reader comes
     * lu_base[c] instructions later, one more with P = lu_thresh[c] / 2^32; lu_on: a
     * class is placed (lu_base > 0) */
    bool lu_on;
    uint8_t lu_base[2];
    uint32_t lu_thresh[2];
    /* launches (launch.c): this SM's blocks of launch l are [launch_end[l - 1],
     * launch_end[l]); with launch_dep a launch's blocks wait for the previous launch's
     * last block; launch_sms[l]: SMs that run a block of launch l (share the memory) */
    int n_launches;
    bool launch_dep;
    int launch_end[SM_MAX_LAUNCHES];
    int16_t launch_sms[SM_MAX_LAUNCHES];
} sm__kernel;

/* Per in-flight slot state of the hazard model, beside the hot slot pool. */
typedef struct sm__hz_slot {
    sm__inst in;         /* the load as issued: a replay re-reads its sources */
    uint8_t reqs_left;   /* requests not yet sent */
    uint8_t hits_left;   /* of them, a trace's missing load's lines that hit L1: sent
                          * first, they meet no hazard and take no MSHR */
    uint8_t replays;     /* times squashed */
    uint8_t mshr_replays;/* of them for lack of an MSHR */
    uint8_t pred_miss;   /* the last prediction */
    uint8_t credit;      /* holds a credit (tracker credit) not yet turned into an MSHR */
    uint8_t known_miss;  /* squashed for an MSHR or the request queue: it misses */
    uint8_t checked;     /* the prediction of its last issue has been checked */
    int64_t early_back;  /* the latest cycle an earlier request's data returns: the
                          * load completes no sooner (sm.memory = partitions) */
    uint32_t tinst;      /* a trace's load: its index in sm_trace.insts (pending.c) */
} sm__hz_slot;

/* The hazard model's state (mem_hazard.c, replay.c, predict.c). */
typedef struct sm__hz {
    int64_t next_miss;   /* first cycle the request queue takes another miss */
    int reserved;        /* credits taken and not yet turned into MSHRs */
    int n_replay;        /* entries in all replay buffers */
    uint64_t seq;        /* squash order: replays go oldest first */
    /* the MSHRs of requests before a load's last free when their own data returns:
     * a min-heap of those cycles (with the memory system they return out of order) */
    int64_t rel[SM__MSHR_RING];
    int rel_n;
    uint8_t pc_ctr[SM__LOAD_SITES];
    /* per scheduler, the last issue stage: ready warps hidden from the issue loop (a
     * replay took the slot: all of them; else the loads the tracker holds), and the
     * stall the loop charged for a slot a replay took (-1: none); undone by the next
     * issue stage (replay.c).  n_hidden > 0 keeps the SM from idle-skipping (sim.c). */
    uint64_t hidden[SM__MAX_SCHED];
    int8_t charged[SM__MAX_SCHED];
    int n_hidden;
    uint8_t head[SM__MAX_WARPS], count[SM__MAX_WARPS];
    uint16_t buf[SM__MAX_WARPS][SM__REPLAY_ENTRIES];  /* slots, oldest at head */
    uint64_t buf_seq[SM__MAX_WARPS][SM__REPLAY_ENTRIES];
    sm__hz_slot slot[SM__MAX_WARPS * SM__WARP_INFLIGHT];
} sm__hz;

/* The stopping rule's batch means (stop.c). */
#define SM__STOP_RATES (2 + 2 * SM_MAX_BANKS)
typedef struct sm__stop {
    double rel;          /* relative half-width of the 95 % intervals; 0: exact run */
    int64_t next;        /* cycle the current batch closes (INT64_MAX: off)          */
    int64_t last_t;
    int k;               /* batches closed                                           */
    bool stopped;
    bool capped;         /* ended at sm.max_insts, warps unfinished (no extrapolation) */
    double last[SM__STOP_RATES], sum[SM__STOP_RATES], sum2[SM__STOP_RATES];
} sm__stop;
void sm__stop_reset(sm_sim *s);
bool sm__stop_batch(sm_sim *s);
void sm__stop_extrapolate(const sm_sim *s, sm_stats *st);

/* memsys.c: cycles ahead the SM's interconnect ejection port books (a power of 2) */
#define SM__EJECT_RING 8192

struct sm_sim {
    sm_config cap;       /* configuration the pools were sized for */
    const sm_config *c;
    sm__kernel k;
    sm_stats *st;
    int64_t now;
    int64_t last_progress;
    int64_t limit;       /* the cycle loop's next look past its cycle (sim.c limit_set) */
    uint64_t age;

    sm__warp *warps;
    /* a trace's predicates per warp: 1 while written by an instruction in flight (the
     * scoreboard's predicate entries; outside sm__warp, which designs copy) */
    uint8_t (*ppend)[SM__MAX_PREDS];
    sm__slot *slots;
    uint16_t free_slot;
    /* operand collectors: unit u has coll_cap[u], of which n_full[u] hold an
     * instruction: the records coll[u][(coll_head[u] + j) & 63], j < n_full[u], in the
     * order they were filled (oldest first).  Dispatch takes the first whose operands
     * are in, usually the oldest; the ones before it move up one (exec.c). */
    int coll_cap[SM__N_UNITS], n_full[SM__N_UNITS], coll_head[SM__N_UNITS];
    sm__collector coll[SM__N_UNITS][64];
    unsigned units_full; /* bit u: unit u has no free collector (issue filters by it) */

    /* bank ports: the cycle each read and write port can next grant (collector.c,
     * writeback.c) */
    int64_t read_next[SM_MAX_BANKS], write_next[SM_MAX_BANKS];
    int n_wq;            /* results completed whose register is not yet released */

    /* execution */
    int n_pipes[SM__N_UNITS];
    int64_t pipe_free[SM__N_UNITS][SM__MAX_PIPES];
    /* the earliest pipe_free of each unit (set at its dispatches): before it the unit
     * cannot dispatch, so sm__dispatch does not run it (exec.c) */
    int64_t pipe_min[SM__N_UNITS];
    /* sm_config.result_slots: per SP/SFU pipeline, the cycles its results leave it,
     * by cycle mod SM__RESULT_RING (latencies of SM__RESULT_RING or more unchecked) */
    int64_t result_at[2][SM__MAX_PIPES][SM__RESULT_RING];
    /* sm_config.result_buses: per shared result bus, the cycles it carries a result */
    int64_t result_bus[SM__MAX_BUSES][SM__RESULT_RING];
    /* completion timing wheel: results leaving their pipeline at cycle t wait in
     * bucket t mod SM__WHEEL (FIFO); latencies beyond the wheel go round again */
    /* two lists per bucket: results leaving their pipeline (SM__WHEEL_DONE) and
     * registers to release (SM__WHEEL_RELEASE), so neither needs a test of kind */
    uint16_t wheel_head[2][SM__WHEEL];
    uint16_t *wheel_link[2][SM__WHEEL]; /* where a push links: the head, or the last slot's next */
    uint64_t wheel_busy[SM__WHEEL / 64]; /* buckets with results leaving their pipeline,
                                          * for the idle skip's search (exec.c) */
    int misses;          /* outstanding L1 misses (MSHRs in use) */
    /* pending hits (pending.c): per fill ID mod the table's size, its ID + 1 (0:
     * none) and the cycle its data returns (INT64_MAX: sent, not yet left the LD/ST
     * unit); [0] a trace's data lines, [1] its constant lines.  pend_back: the cycle
     * the profile's latest miss returns */
    struct sm__fills {
        uint32_t tag[SM__FILLS];
        int64_t ready[SM__FILLS];
    } fills[2];
    int64_t pend_back;
    /* The LD/ST unit found blocked on MSHRs (exec.c): it stays so, charging the same
     * stalls, before cycle mem_hold_until (an operand arrives) while its full
     * collectors and the misses in flight are unchanged; a dispatch ends it (without
     * one, the full collectors are only added to, so their count tells, and the misses
     * only fall). */
    int64_t mem_hold_until;
    int mem_hold_full;
    int mem_hold_misses;

    sm__sched sched[SM__MAX_SCHED];
    /* sm.frontend = "gpgpusim" (frontend.c): the warp in the fetch buffer (-1: none),
     * the last warp fetched (round robin), warps whose buffer is stale, warps whose
     * buffer is empty with instructions left (to fetch) */
    int fe_buf, fe_last;
    uint64_t fe_stale, fe_want;
    /* sm.frontend = "gpgpusim_icache" (frontend.c): GPGPU-Sim's L1 instruction cache,
     * cold at a run's start and kept across its launches (GPGPU-Sim never invalidates
     * it), and its MSHRs: a line missing, the cycle it is filled, the warps waiting
     * for it in order (the first `head` handed on) */
    struct sm__icache {
        uint32_t tag[SM__IC_SETS][SM__IC_WAYS]; /* line + 1; 0: invalid */
        uint64_t used[SM__IC_SETS][SM__IC_WAYS]; /* LRU: the access that last used it */
        uint64_t n_access;
        struct sm__ic_mshr {
            uint32_t line;
            int64_t ready_at;
            uint64_t filled;  /* 0: not yet; else the fill's order (access_ready's) */
            uint8_t n, head;
            uint8_t warp[SM__IC_MERGE];
        } mshr[SM__IC_MSHRS];
        uint8_t n_mshr;      /* MSHRs in use (mshr[0, n_mshr)) */
        uint64_t n_fill;
        uint64_t waiting;    /* warps with a miss pending (GPGPU-Sim's imiss_pending) */
        int lat_l2, lat_dram; /* a miss's round trip: the line in L2 / first on the chip */
        int code_insts;      /* a drawn stream's code size (sm_profile.code_insts) */
        /* the profile's code_walk: n_walk triples, each's first instruction and
         * length, and the walk's length up to its end (repeats expanded) */
        int n_walk;
        int32_t walk_start[SM_MAX_CODE_WALK / 3], walk_len[SM_MAX_CODE_WALK / 3];
        int64_t walk_end[SM_MAX_CODE_WALK / 3];
        uint8_t walk_at[SM__MAX_WARPS]; /* each warp slot's triple at its last fetch */
        uint8_t in_l2[SM__IC_L2_LINES / 8]; /* lines the chip has fetched (then L2 hits) */
    } ic;
    /* Schedulers whose inputs may have changed since their last cycle without an
     * issue (bit per scheduler; sched.c): the others repeat that cycle's outcome.
     * Whatever changes a scheduler's warps sets its bit (units_full is compared
     * instead: it changes with every full collector pool). */
    unsigned sched_dirty;
    unsigned sched_all;  /* bits of every scheduler */
    /* scheduler-cycles without issue by cause, indexed by sm__stall (a switch over
     * the sm_stats fields mispredicts); added to the statistics at the end */
    uint64_t stall_n[SM__N_STALL];
    sm__block blocks[32];
    int next_block;      /* next block of this SM's share to launch */
    bool slot_freed;     /* a block retired: the launch stage has work */
    int blocks_done;
    int live_blocks;
    int64_t blk_t;       /* block_cycles integrated up to this cycle (sm__blocks_flush) */
    int live_vec[SM_MAX_BANKS];
    /* accesses per bank by active lanes (0-32); the sub-bank parts an access touches
     * and its lanes in each are derived once at the end instead of per access */
    uint64_t rd_lanes[33][SM_MAX_BANKS]; /* [lanes][bank]: an instruction's accesses all */
    uint64_t wr_lanes[33][SM_MAX_BANKS]; /* have its lanes, so they share a row       */
    /* each register-file design's own state (NULL: it has none), by sm_rf_design_id,
     * allocated with the simulator; design_next: the first cycle a design's per-cycle
     * work needs (the idle skip stops there) */
    void *design_state[SM_N_DESIGNS];
    int64_t design_next;
    int64_t port_clock; /* cycle of the last bank-port request (debug order check) */
    bool exact;         /* tests: simulate every cycle, no idle skip or MSHR hold */
    uint64_t occ[SM_MAX_BANKS];
    int64_t occ_t;

    struct sm__streams *streams; /* stored instruction streams (streams.c) */
    sm__stop stop;       /* the stopping rule (stop.c), off by default */
    char diag[512];
    sm__hz hz;           /* memory hazards and replay; cold, so last */
    /* slow_access.c (cold too): the physical banks' ports (bro_ports = physical) and
     * the cycles stall_collector froze, bit i = cycle frozen_base + i */
    int64_t phys_read_next[SM_MAX_BANKS], phys_write_next[SM_MAX_BANKS];
    uint64_t frozen;
    int64_t frozen_base;
    uint8_t port_tag;    /* coalesce: the width tag of the next port request (0: none) */
    /* launches and the memory system: cold, so last (sm__mem_lat tests mem.on on a
     * miss only) */
    int launch;          /* launch the next block belongs to (launch.c) */
    /* sm.memory = "partitions" (memsys.c): when each L2 sub-partition's port and each
     * DRAM channel next serves this SM, in cycles (fractional: its share) */
    struct sm__memsys {
        bool on;
        double l2_free[64 * 4], dram_free[64];
        double l2_time, dram_time; /* one 128-B line: port time and channel time */
        double l2_share, dram_share; /* the same x the SMs sharing (this launch's) */
        double l2_lat, dram_lat; /* unloaded: dispatch to data back, L2 hit / DRAM */
        double to_l2;          /* dispatch to arrival at the L2 port */
        double dram_eff;       /* the profile's: the channel's efficiency under load */
        /* this SM's interconnect ports, one flit a cycle each (not shared): the
         * injection port's next free cycle (requests leave in order) and the ejection
         * port's flit slots, slot t % SM__EJECT_RING taken when it holds t (replies
         * arrive out of order) */
        double inj_free;
        /* the chip around this SM (sim.c; NULL prof: sm__memsys_launch's n alone) */
        const sm_profile *prof;
        int chip_sms, sm_index;
        int64_t eject[SM__EJECT_RING];
        int n_sub;             /* sub-partitions */
        uint32_t hit_thresh;   /* l2_hit_rate x 2^32 */
        int st_base;           /* store_sectors: sectors a store writes at least */
        uint32_t st_thresh;    /*   P(one more) x 2^32; st_base 0: one 4-sector line */
        uint32_t st_hit;       /* (1 - store_dram) x 2^32: a stored sector stays in L2 */
        uint64_t n;            /* requests so far: keys the partition and the L2 hit */
        uint64_t seed;
    } mem;
};

/* banks.c: the working bank table, register mapping, renaming */
int sm__banks_setup(sm_sim *s, const sm_rf_map *map, const sm_technique *t,
                    const sm_profile *p);
void sm__banks_warp(sm_sim *s, int w, const sm__block *b);
/* gen.c: instruction streams */
void sm__gen_setup(sm__kernel *k, const sm_profile *p);
void sm__gen_mates(sm__kernel *k, const sm_profile *p);
void sm__gen_warp(const sm__kernel *k, sm__warp *wp, int ordinal, int warp_in_block);
int sm__gen_lanes(const sm__kernel *k, int ordinal, int warp_in_block);
void sm__gen_next_drawn(const sm__kernel *k, sm__warp *wp);
/* A stored instruction is two words (gen.c stream_fill): the first holds bytes 0-7 of
 * the sm__inst as drawn (op to div, unit filled in), the second its miss bit, from bit
 * 8 the draws it took from the warp's stream (the state after it is the state before
 * plus that many increments: mem_hazard.c and zero_gating.c read it) and from bit 16
 * its smem_ways. */
#define SM__STREAM_WORDS 2
_Static_assert(offsetof(sm__inst, div) == 7 && offsetof(sm__inst, miss) == 8,
               "stored streams copy bytes 0-7 of an sm__inst");
/* The warp's next instruction into wp->next (at wp->n_issued).  Inline for the common
 * case, a stored stream (streams.c): the issue stage calls it once per instruction.
 * Without release flags the index is below insts_per_warp (n_left + n_issued is that
 * count), and a stored barrier reads back as bar_inst() draws it (gen.c) but for the
 * hazard model's site and reqs, which only global loads read. */
static inline __attribute__((always_inline)) void sm__gen_next_as(const sm__kernel *k,
                                                                   sm__warp *wp, bool plain)
{
    const uint64_t *x = wp->stream;
    /* plain: k->plain (no release flags, rng_read or fast_at_next) */
    if (!x | (!plain && k->flag_every != 0)) {
        sm__gen_next_drawn(k, wp);
        return;
    }
    assert(wp->n_issued < k->insts_per_warp);
    x += SM__STREAM_WORDS * wp->n_issued;
    sm__inst *in = &wp->next;
    memcpy(in, x, 8);
    in->miss = (uint8_t)x[1];
    in->smem_ways = (uint8_t)(x[1] >> 16);
    if (plain)
        return;
    if (k->rng_read) /* a kernel constant: predictable */
        wp->rng += (x[1] >> 8 & 0xff) * 0x9E3779B97F4A7C15ULL;
    if (k->fast_at_next) {
        const uint8_t *slow = wp->slow[in->div];
        in->fast = !(slow[in->dst] | slow[in->src[0]] | slow[in->src[1]] | slow[in->src[2]]);
    }
}
static inline void sm__gen_next(const sm__kernel *k, sm__warp *wp)
{
    sm__gen_next_as(k, wp, false);
}
/* The instruction at wp->n_issued of a copy of a warp's stream state, which it advances
 * (n_issued too): a design's look-ahead, leaving the warp's own stream untouched. */
void sm__gen_ahead(const sm__kernel *k, sm__warp *copy, sm__inst *in);
/* streams.c: instruction streams kept across runs */
typedef struct sm__stream_set sm__stream_set;
typedef struct sm__streams sm__streams;
void sm__streams_select(sm_sim *s);
uint64_t *sm__streams_slot(sm__stream_set *st, int g, bool *fresh);
int32_t *sm__streams_prog(sm__stream_set *st, int n, bool *fresh);
void sm__streams_free(sm_sim *s);
/* trace.c: a trace workload's instruction source.  setup: SM_OK or SM_E_INVALID (the
 * trace does not fit the kernel); warp: its row and instruction count (n_left); inst:
 * its instruction `index` (release flags left out) into *in, and the lanes it counts
 * into wp->tlanes[in->div]. */
int sm__trace_setup(sm__kernel *k, const sm_trace *tr);
void sm__trace_warp(const sm__kernel *k, sm__warp *wp, int ordinal, int warp_in_block);
void sm__trace_inst(const sm__kernel *k, sm__warp *wp, int index, sm__inst *in);
uint32_t sm__trace_pc(const sm__kernel *k, const sm__warp *wp, int index);
/* block.c: launch and retirement */
void sm__launch(sm_sim *s);
void sm__retire_warp(sm_sim *s, int w);
void sm__occupancy_flush(sm_sim *s);
/* sched.c: issue stage */
void sm__issue(sm_sim *s);
void sm__issue_plain(sm_sim *s); /* k.plain: none of the cold features (sim.c) */
/* sm.frontend = "gpgpusim" (frontend.c): a warp placed, an instruction issued (its
 * buffer entry used; redirect: a control hazard follows), the fetch and decode stage
 * after the issue stage, and whether that stage has work pending (no idle skip). */
void sm__fe_warp(sm_sim *s, int w);
void sm__fe_issued(sm_sim *s, sm__sched *q, int w, bool redirect);
void sm__fe_cycle(sm_sim *s);
/* sm.frontend = "gpgpusim_icache": the instruction cache emptied and its latencies set
 * at a run's start (sim.c) */
void sm__fe_icache_setup(sm_sim *s, const sm_profile *w);
static inline bool sm__fe_busy(const sm_sim *s)
{
    return s->fe_buf >= 0 || s->fe_stale || s->fe_want || s->ic.n_mshr;
}
void sm__sched_wake(sm_sim *s, int w, int reg);
typedef struct sm__sched_policy {
    const char *name;
    /* Returns the warp to issue among the candidates, or -1.  With fast_only, only
     * warps whose next instruction is fast qualify (FWAS's first pass).  `cand` are
     * the ready warps whose unit has a free operand collector. */
    int (*pick)(sm_sim *s, sm__sched *q, uint64_t cand, bool fast_only);
} sm__sched_policy;
#define SM__SCHED_DECL(name, NAME, needs_bro, doc) extern const sm__sched_policy sm__sched_##name;
SM_SCHEDULERS(SM__SCHED_DECL)
#undef SM__SCHED_DECL
const sm__sched_policy *sm__sched_policy_of(sm_sched_policy p);
int sm__sched_lrr_in(sm_sim *s, sm__sched *q, uint64_t mask, int after, bool fast_only);
/* collector.c: operand collectors and the bank read arbiter */
/* returns the slow cycles (latency - 1) of its reads, summed */
uint64_t sm__collect(sm_sim *s, int w, uint16_t slot, const sm__inst *in);
/* the same for k.plain: no port rules */
uint64_t sm__collect_plain(sm_sim *s, int w, uint16_t slot, const sm__inst *in);
/* exec.c: dispatch to SP/SFU/LD-ST pipelines and completion */
void sm__early_setup(sm_sim *s);
bool sm__dispatch_early(sm_sim *s, uint16_t slot, int64_t at);
void sm__dispatch(sm_sim *s);
void sm__complete(sm_sim *s);
/* the same for a plain kernel (k.plain: sim.c) */
void sm__dispatch_plain(sm_sim *s);
void sm__complete_plain(sm_sim *s);
bool sm__mem_blocked(const sm_sim *s);
/* memory.c: LD/ST unit */
bool sm__mem_accept(const sm_sim *s, const sm__slot *sl);
int sm__mem_lat(sm_sim *s, const sm__slot *sl);
void sm__mem_done(sm_sim *s, int lat);
/* mem_hazard.c: the memory stage under the hazard model (k.mem_model) */
int sm__hz_setup(sm_sim *s, const sm_config *c, const sm_profile *p) __attribute__((noinline));
void sm__hz_release_due(sm_sim *s);
void sm__hz_hold_until(sm_sim *s, int64_t at); /* an early request's MSHR, freed at `at` */
/* The entry points from the hot units are out of line (noinline): inlined, their
 * bodies grew sm_sim_run past the link-time inliner's limits, which then kept
 * sm__collect out of line (+3.5 % host instructions per warp instruction). */
void sm__hz_dispatch(sm_sim *s) __attribute__((cold, noinline));
void sm__hz_draw(const sm__kernel *k, const sm__warp *wp, sm__inst *in);
int sm__coll_total(const sm_config *c);
void sm__coll_sizes(const sm_config *c, int oc[SM__N_UNITS]);
void sm__pool_take(sm_sim *s) __attribute__((cold));
/* pending.c: pending hits (sm.pending_hits, sm.const_cache; k.pending) */
void sm__pend_setup(sm_sim *s, const sm_config *c, const sm_profile *p);
bool sm__pend_drawn(const sm_sim *s, int w, const sm__inst *in) __attribute__((cold, noinline));
void sm__pend_issued(sm_sim *s, int w, sm__hz_slot *h) __attribute__((cold, noinline));
int sm__pend_lat(sm_sim *s, uint16_t slot, int lat) __attribute__((cold, noinline));
uint8_t sm__pend_const(sm_sim *s, sm__inst *in) __attribute__((cold, noinline));
/* replay.c: replay buffers, issue-stage MSHR tracking */
void sm__hz_pre_issue(sm_sim *s) __attribute__((cold, noinline));
void sm__hz_issued(sm_sim *s, uint16_t slot, const sm__inst *in)
    __attribute__((cold, noinline));
void sm__replay_push(sm_sim *s, int w, uint16_t slot);
bool sm__tracker_allows(const sm_sim *s, const sm__hz_slot *h);
/* predict.c: hit/miss predictors */
bool sm__predict_miss(const sm_sim *s, const sm__hz_slot *h);
void sm__predict_learn(sm_sim *s, const sm__hz_slot *h, bool miss);
/* exec.c, for the hazard model */
void sm__exec_start(sm_sim *s, uint16_t slot);
/* positions j (bit j) in unit u's fill order whose operands have arrived; *n: count */
uint64_t sm__coll_arrived(const sm_sim *s, int u, int *n);
/* frees the collector at position j of unit u's fill order */
void sm__coll_free(sm_sim *s, int u, int j);
/* writeback.c: bank write ports and scoreboard release */
int64_t sm__write(sm_sim *s, uint16_t slot);
void sm__release(sm_sim *s, uint16_t slot);
/* the same for k.plain: no port rules, shared port or write hooks */
int64_t sm__write_plain(sm_sim *s, uint16_t slot);
void sm__release_plain(sm_sim *s, uint16_t slot);

/* ---- register-file designs (design.c; the hook contract: sm_design.h) ------------ */
enum {
    SM__HOOK_ISSUE = 1u << 0,
    SM__HOOK_WRITE = 1u << 1,
    SM__HOOK_CYCLE = 1u << 2,
};

int sm__designs_alloc(sm_sim *s);
void sm__designs_knob_defaults(sm_technique *t);
void sm__designs_free(sm_sim *s);
int sm__designs_kernel(sm_sim *s, const sm_technique *t, const sm_profile *p);
void sm__designs_block(sm_sim *s, sm__block *b, int first_warp);
void sm__designs_warp(sm_sim *s, int w);
void sm__designs_issue(sm_sim *s, int w, uint16_t slot, const sm__inst *in)
    __attribute__((cold));
void sm__designs_write(sm_sim *s, uint16_t slot) __attribute__((cold));
void sm__designs_cycle(sm_sim *s);
void sm__designs_stats(const sm_sim *s, sm_stats *out);

/* banks.c, for designs that map registers: the logical bank of register r of warp w
 * with `lanes` active lanes, before the block's renaming */
int sm__banks_logical(const sm__kernel *k, int w, int r, int lanes);
/* ... and the cycles process variation adds to an access to entry `entry` of virtual
 * bank `bank` touching `lanes` lanes: 0 if fast, else k->slow_cycles (designs that place
 * registers themselves) */
uint8_t sm__banks_slow(const sm__kernel *k, int bank, int entry, int lanes);

/* rfc.c: register-file caches (ltrf.c, rfc_demand.c).  Their shared knob block and
 * rows (one set of keys, owned by ltrf) and their cache_entries trait: */
typedef struct sm__rfc_knobs {
    int rfc_regs; /* registers per warp's partition, the interval bound k (ltrf) */
} sm__rfc_knobs;
extern const sm_knob sm__rfc_knob_rows[];
#define SM__RFC_N_KNOBS 1
int sm__rfc_entries(const sm_config *c, const void *knobs);
extern const char *const sm__rfc_stats[];
/* main_slow: the warp's latency tables as the main RF gives them (saved at warp
 * launch). */
int sm__rfc_check(const sm_sim *s);
void sm__rfc_to_cache(sm_sim *s, int w, int reg, int slot);
void sm__rfc_to_main(sm_sim *s, int w, int reg, const uint8_t main_slow[2][SM__MAX_REGS]);
int64_t sm__rfc_fill(sm_sim *s, int w, int reg, int slot,
                     const uint8_t main_slow[2][SM__MAX_REGS]);
void sm__rfc_writeback(sm_sim *s, int w, int reg, const uint8_t main_slow[2][SM__MAX_REGS]);

/* SplitMix64's finaliser: the per-value draws of designs that leave the instruction
 * stream untouched (zero_gating's zero lanes, coalesce's widths) hash the warp's
 * stream state and the instruction's index with it. */
static inline uint64_t sm__mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* For designs that hold a warp back (a prefetch in flight): a parked warp leaves its
 * scheduler's ready mask and is no candidate until unparked.  Only a warp that is not
 * waiting on the scoreboard and has instructions left may be parked. */
static inline void sm__sched_park(sm_sim *s, int w)
{
    s->sched[s->warps[w].sched].ready &= ~(1ULL << w);
    s->sched_dirty |= 1u << s->warps[w].sched;
}
static inline void sm__sched_unpark(sm_sim *s, int w)
{
    s->sched[s->warps[w].sched].ready |= 1ULL << w;
    s->sched_dirty |= 1u << s->warps[w].sched;
}

/* Recomputes whether the warp's next instruction is all fast (FWAS), after a design
 * changed its latency tables. */
static inline void sm__warp_refresh_fast(sm__warp *wp)
{
    const sm__inst *in = &wp->next;
    const uint8_t *slow = wp->slow[in->div];
    wp->next.fast = !(slow[in->dst] | slow[in->src[0]] | slow[in->src[1]] | slow[in->src[2]]);
}

/* ---- bank ports ----------------------------------------------------------------------
 *
 * Each virtual bank has a read port and a write port (one shared port with
 * sm_config.bank_ports = shared).  A port grants requests in arrival order, one at a
 * time, from the cycle after the request; it stays busy 1 cycle for fast storage, 2 for
 * slow.  Nothing revokes a grant, so a grant is fixed when its request arrives: the
 * port keeps only the cycle it next frees.  Every client (operand collectors, the
 * write-back, a design's fill or prefetch traffic) requests through these two calls,
 * in the cycle the request arises, which is what keeps that shortcut exact.  Both
 * count the access, with its active lanes, for energy and NBTI duty. */
static inline void sm__port_order(sm_sim *s)
{
#ifndef NDEBUG
    assert(s->now >= s->port_clock); /* requests come in cycle order */
    s->port_clock = s->now;
#else
    (void)s;
#endif
}

/* slow_access.c: the port rules of sm_config.slow_access and bro_ports, out of line so
 * the default path pays one predictable branch.  `grant` is the plain rule's candidate;
 * they book the port(s) and return the grant cycle. */
int64_t sm__port_read_rules(sm_sim *s, int b, int slow, int lanes, int64_t grant)
    __attribute__((cold, noinline));
int64_t sm__port_write_rules(sm_sim *s, int b, int slow, int lanes, int64_t grant)
    __attribute__((cold, noinline));
/* coalesce.c: the coalescing register file's joins, called by the port rules, and the
 * tags its clients give a request (s->port_tag, consumed by the next port call). */
bool sm__coalesce_join(sm_sim *s, int b, uint8_t tag, int slow, int lanes, bool write,
                       int64_t *grant);
void sm__coalesce_booked(sm_sim *s, int b, uint8_t tag, int slow, bool write, int64_t grant);
uint8_t sm__coalesce_read_tag(const sm_sim *s, int w, int reg);
uint8_t sm__coalesce_write_tag(const sm_sim *s, uint16_t slot);
/* What the last port request of the coalesce design was: an access of its own, one
 * joined to another read's access (one transfer carries both), or none (zero width). */
enum { SM__CO_OWN, SM__CO_SHARED, SM__CO_NONE };
int sm__coalesce_last(const sm_sim *s);
/* The collector write port (coalesce_collector): an instruction's operands, their
 * arrival and physical access; returns the cycle the last is in the collector. */
typedef struct sm__co_operand {
    int64_t at, written, access; /* access: grant x SM_MAX_BANKS + bank; -1 none */
    bool shared;
} sm__co_operand;
int64_t sm__coalesce_collect(sm_sim *s, sm__co_operand *op, int n, int64_t ready_at);
/* Sets the kernel's port-rule fields from the configuration (banks.c at launch). */
void sm__port_rules_setup(sm_sim *s);

/* Fills a free operand collector of unit u (one must be free: issue filters on
 * units_full) for the instruction in `slot`, whose operands have all arrived at
 * ready_at: the youngest in the unit's fill order.  Field by field: a compound
 * literal also stores the padding. */
static inline void sm__coll_fill(sm_sim *s, int u, uint16_t slot, int64_t ready_at)
{
    int n = s->n_full[u]++;
    sm__collector *co = &s->coll[u][(s->coll_head[u] + n) & 63];
    co->ready_at = ready_at;
    co->slot = slot;
    s->units_full |= (unsigned)(n + 1 == s->coll_cap[u]) << u;
}

/* Grants a read of bank b (slow: latency - 1) with `lanes` active lanes; returns the
 * grant cycle: the operand arrives and the port frees at grant + 1 + slow. */
static inline int64_t sm__port_read_as(sm_sim *s, int b, int slow, int lanes, bool rules)
{
    sm__port_order(s);
    const int64_t first = s->now + 1;
    int64_t grant = s->read_next[b] > first ? s->read_next[b] : first;
    if (rules)
        grant = sm__port_read_rules(s, b, slow, lanes, grant);
    else
        s->read_next[b] = grant + 1 + slow;
    s->rd_lanes[lanes][b]++; /* reads and bank_reads are summed from it (sim.c) */
    return grant;
}

/* The same, the rules looked up per call.  The operand collector, the hot client, tests
 * s->k.port_rules once per instruction and calls sm__port_read_as with a constant
 * instead (a test per read cost +1.8 % host instructions per warp instruction). */
static inline int64_t sm__port_read(sm_sim *s, int b, int slow, int lanes)
{
    return sm__port_read_as(s, b, slow, lanes, __builtin_expect(s->k.port_rules, 0));
}

/* Would a read of bank b requested now wait behind another access? */
static inline bool sm__port_read_busy(const sm_sim *s, int b)
{
    return s->read_next[b] > s->now + 1;
}

/* Grants a write of bank b; returns the grant cycle (the write ends at grant + slow).
 * rules: s->k.port_rules, a constant where the caller tested it (sm__write). */
static inline int64_t sm__port_write_as(sm_sim *s, int b, int slow, int lanes, bool rules)
{
    sm__port_order(s);
    const int64_t first = s->now + 1;
    int64_t grant = s->write_next[b] > first ? s->write_next[b] : first;
    if (rules) {
        s->wr_lanes[lanes][b]++;
        return sm__port_write_rules(s, b, slow, lanes, grant);
    }
    s->write_next[b] = grant + 1 + slow;
    if (s->k.shared_ports) {
        /* One port for reads and writes, writes first: the write does not wait for
         * reads, it takes a port cycle from them.  Reads already granted keep their
         * cycles (grants are fixed on arrival), so the reads that arrive from now on
         * start one write later: the port's capacity is shared exactly, only which
         * read absorbs the write's cycle differs from a per-cycle arbiter. */
        int64_t r = s->read_next[b] > first ? s->read_next[b] : first;
        s->read_next[b] = r + 1 + slow;
    }
    s->wr_lanes[lanes][b]++;
    return grant;
}

/* The same without port rules or a shared port (k.plain). */
static inline int64_t sm__port_write_plain(sm_sim *s, int b, int slow, int lanes)
{
    sm__port_order(s);
    const int64_t first = s->now + 1;
    int64_t grant = s->write_next[b] > first ? s->write_next[b] : first;
    s->write_next[b] = grant + 1 + slow;
    s->wr_lanes[lanes][b]++;
    return grant;
}

static inline int64_t sm__port_write(sm_sim *s, int b, int slow, int lanes)
{
    return sm__port_write_as(s, b, slow, lanes, __builtin_expect(s->k.port_rules, 0));
}

/* memsys.c: sm.memory = "partitions".  sm__memsys_load returns the latency of a
 * load's request sent now (128 bytes), sm__memsys_store books a store's bandwidth. */
void sm__memsys_setup(sm_sim *s, const sm_profile *p, int n_sms);
void sm__memsys_launch(sm_sim *s, int sms);
void sm__memsys_fetch_lat(const sm_config *c, int *l2, int *dram);
void sm__memsys_blocks(sm_sim *s) __attribute__((cold, noinline));
int sm__memsys_load(sm_sim *s) __attribute__((cold, noinline));
void sm__memsys_store(sm_sim *s) __attribute__((cold, noinline));

/* launch.c: the launches of a profile and this SM's share of each */
int sm__launch_shares(const sm_config *c, const sm_profile *w, int sm_index, int n_sms,
                      int resident, int *end, int16_t *sms);
bool sm__launch_may(sm_sim *s);

/* sim.c */
uint16_t sm__slot_alloc(sm_sim *s);
void sm__slot_free(sm_sim *s, uint16_t slot);

/* With exact, every cycle is simulated: no idle skip (sim.c), no held MSHR outcome
 * and no skipped dispatch (exec.c), every scheduler runs every cycle (no settled
 * ones, sched.c), instructions are drawn, not read from stored streams (streams.c),
 * their fast bit computed as drawn, and every warp's tables are filled at its launch
 * (banks.c).  Tests compare both ways: the fast paths must not change a statistic. */
void sm__sim_set_exact(sm_sim *s, bool exact);

/* Runs with a hand-written instruction sequence instead of the synthetic stream: every
 * warp executes `insts` in order, `w->insts_per_warp` instructions (wrapping).  The
 * profile still gives the grid, block size and registers.  For tests. */
int sm__sim_run_micro(sm_sim *s, const sm_config *c, const sm_profile *w,
                      const sm_technique *t, const sm_rf_map *map, const sm__inst *insts,
                      int n_insts, sm_stats *out);

/* Parks warp w until `reg` is written: it leaves its scheduler's ready mask. */
static inline void sm__sched_block(sm_sim *s, int w, int reg)
{
    sm__warp *wp = &s->warps[w];
    sm__sched *q = &s->sched[wp->sched];
    wp->wait_reg = (uint16_t)reg;
    wp->wait_kind = wp->pend[reg];
    q->n_wait[wp->wait_kind]++;
    q->ready &= ~(1ULL << w);
}

/* A plain kernel (sim.c kernel_plain) runs on the default SM's shape: this many
 * schedulers, and SP, SFU and LD/ST pipelines (GTX480's two SP groups, one SFU
 * group, one LD/ST unit).  The stages of its copy of the cycle loop run their
 * per-scheduler and per-pipeline work unrolled, one copy each with its index as a
 * constant (sched.c issue, sim.c quiet, exec.c dispatch_unit). */
#define SM__PLAIN_SCHED 2
#define SM__PLAIN_SP 2
#define SM__PLAIN_SFU 1
#define SM__PLAIN_LDST 1

/* Earliest completion after now, for skipping idle cycles, or `bound` if none comes
 * before it: the first bucket holding an instruction due in this round, else the
 * minimum over all (long latencies).
 * Buckets are visited in time order from now's, found by the non-empty mask: a
 * memory-bound kernel's next completion is often hundreds of empty buckets away.
 * Only for a quiet SM (sim.c), which has no register awaiting release (n_wq == 0):
 * the release lists are empty, so only the results' lists are marked and searched. */
static inline __attribute__((always_inline)) int64_t sm__next_completion(const sm_sim *s,
                                                                          int64_t bound)
{
    int64_t best = bound;
    const int start = (int)(s->now & (SM__WHEEL - 1)), words = SM__WHEEL / 64;
    for (int i = 0; i <= words; i++) { /* start's word twice: bits from start, then below */
        int wi = (start / 64 + i) % words;
        uint64_t m = s->wheel_busy[wi];
        if (i == 0)
            m &= ~0ULL << (start & 63);
        else if (i == words)
            m &= ~(~0ULL << (start & 63));
        for (; m; m &= m - 1) {
            int b = wi * 64 + __builtin_ctzll(m);
            int64_t t = s->now + ((b - start) & (SM__WHEEL - 1));
            if (t >= best) /* buckets in time order: none due before */
                return best;
            for (uint16_t h = s->wheel_head[SM__WHEEL_DONE][b]; h != SM__NIL;
                 h = s->slots[h].next) {
                if (s->slots[h].done_at == t)
                    return t;
                best = s->slots[h].done_at < best ? s->slots[h].done_at : best;
            }
        }
    }
    return best;
}

/* Pipelines of unit u: a constant in a plain kernel's copy (SM__PLAIN_SP ...). */
static inline __attribute__((always_inline)) int sm__n_pipes(const sm_sim *s, int u, bool plain)
{
    if (!plain)
        return s->n_pipes[u];
    return u == SM__UNIT_SP ? SM__PLAIN_SP : u == SM__UNIT_SFU ? SM__PLAIN_SFU : SM__PLAIN_LDST;
}

/* Has scheduler i settled (sched.c): no candidate, and its last outcome repeats? */
static inline bool sm__sched_settled(const sm_sim *s, int i)
{
    return !(s->sched_dirty >> i & 1) & (s->sched[i].full_seen == s->units_full);
}

/* Ready warps of scheduler q whose unit has a free operand collector: the others
 * cannot issue (the common structural stall), so they are filtered by mask instead
 * of being tried.  Branch-free over the three units. */
static inline __attribute__((always_inline)) uint64_t sm__sched_avail(const sm__sched *q,
                                                                       bool plain)
{
    /* plain (k.plain): no front end, so no warp's buffer is empty */
    return q->ready & ~q->barrier & (plain ? ~0ULL : ~q->ib_empty);
}
static inline __attribute__((always_inline)) uint64_t
sm__sched_cand_as(const sm_sim *s, const sm__sched *q, bool plain)
{
    uint64_t cand = sm__sched_avail(q, plain);
    for (unsigned f = s->units_full; f; f &= f - 1)
        cand &= ~q->unit_mask[__builtin_ctz(f)];
    return cand;
}
static inline uint64_t sm__sched_cand(const sm_sim *s, const sm__sched *q)
{
    return sm__sched_cand_as(s, q, false);
}

/* Is a predicate warp w's next instruction writes or reads still to be written?  Then
 * the warp waits for it (RAW on a read, WAW on the write), as for a register: parked
 * until the predicate's release wakes it (writeback.c).  Out of line (sched.c): inlined
 * into every policy's issue loop it cost drawn streams, which have no predicates.  Its
 * wait_reg is the predicate's number, so the release of the register of the same
 * number wakes it too, and a predicate's release a warp waiting for that register: a
 * woken warp is tried again and parks again on what is still pending, so such a wake
 * changes no timing. */
bool sm__pred_pending(sm_sim *s, int w);

/* Can warp w issue its next instruction now?  A scoreboard hit (RAW on a source, WAW
 * on the destination) parks the warp until that register is written; structural
 * hazards are noted in q->why for the stall statistics.  Inline: every policy calls it
 * once per candidate, the hottest call of the issue stage. */
static inline __attribute__((always_inline)) bool
sm__sched_try_as(sm_sim *s, sm__sched *q, int w, bool fast_only, bool drawn)
{
    sm__warp *wp = &s->warps[w];
    const sm__inst *in = &wp->next;
    const uint8_t *pend = wp->pend;
    /* one data-dependent branch instead of one per operand (unused slots hold
     * SM__NO_REG, never pending); the slow path finds the first hit in the order
     * destination, sources */
    /* a trace's predicates join the test (none in a drawn stream: no further branch) */
    /* drawn: a drawn stream, which has none (a constant) */
    if (pend[in->dst] | pend[in->src[0]] | pend[in->src[1]] | pend[in->src[2]] |
        (drawn ? 0 : wp->pdst | wp->psrc[0])) {
        if (pend[in->dst] | pend[in->src[0]] | pend[in->src[1]] | pend[in->src[2]]) {
            int r = pend[in->dst]      ? in->dst
                    : pend[in->src[0]] ? in->src[0]
                    : pend[in->src[1]] ? in->src[1]
                                       : in->src[2];
            sm__sched_block(s, w, r);
            return false;
        }
        if (!drawn && sm__pred_pending(s, w))
            return false;
    }
    if (fast_only && !in->fast)
        return false;
    if (wp->n_inflight >= SM__WARP_INFLIGHT) {
        q->why |= 1u << SM__STALL_INFLIGHT;
        return false;
    }
    return true;
}

static inline bool sm__sched_try(sm_sim *s, sm__sched *q, int w, bool fast_only)
{
    return sm__sched_try_as(s, q, w, fast_only, false);
}

/* Tries the warps of `mask` in slot order starting after `after`; shared with the
 * two-level scheduler, which runs it inside its active group (sched_lrr.c), and
 * inline in the issue stage for a drawn stream (sched.c).  drawn: the stream is
 * drawn (no trace predicates), a constant in each copy. */
static inline __attribute__((always_inline)) int
sm__lrr_in_as(sm_sim *s, sm__sched *q, uint64_t mask, int after, bool fast_only, bool drawn)
{
    /* rotate so that bit 0 is the warp after `after`: one pass in slot order, wrapping */
    int start = (after + 1) & 63;
    uint64_t m = start ? mask >> start | mask << (64 - start) : mask;
    for (; m; m &= m - 1) {
        int w = (__builtin_ctzll(m) + start) & 63;
        if (sm__sched_try_as(s, q, w, fast_only, drawn))
            return w;
    }
    return -1;
}

/* An instruction of warp w has finished (its register written, or no result); the
 * warp retires with its last one (block.c).  Inline: once per instruction. */
static inline void sm__inst_done(sm_sim *s, int w)
{
    sm__warp *wp = &s->warps[w];
    wp->n_inflight--;
    s->last_progress = s->now;
    if (wp->n_left == 0 && wp->n_inflight == 0)
        sm__retire_warp(s, w);
}

/* block_cycles sums live_blocks as it stands at the start of each cycle; it changes
 * only at launch and retirement, so it is integrated piecewise (like occupancy)
 * instead of being added every cycle.  `upto`: the first cycle the new count applies
 * to (now + 1 inside a cycle). */
static inline void sm__blocks_flush(sm_sim *s, int64_t upto)
{
    s->st->block_cycles += (uint64_t)s->live_blocks * (uint64_t)(upto - s->blk_t);
    s->blk_t = upto;
}

/* Lanes [0, lanes) touch this many of `subs` sub-bank parts. */
static inline int sm__parts_for(int lanes, int subs) { return (lanes * subs + 31) / 32; }

#endif
