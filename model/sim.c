/* The SM: allocation of the pools, kernel launch, and the cycle loop with its guards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"

/* ---- pools ------------------------------------------------------------------------- */

uint16_t sm__slot_alloc(sm_sim *s)
{
    uint16_t h = s->free_slot; /* cannot be NIL: each warp holds at most SM__WARP_INFLIGHT */
    s->free_slot = s->slots[h].next;
    return h;
}

void sm__slot_free(sm_sim *s, uint16_t slot)
{
    s->slots[slot].next = s->free_slot;
    s->free_slot = slot;
}

static bool config_ok(const sm_config *c)
{
    return c->max_warps >= 1 && c->max_warps <= SM__MAX_WARPS && c->max_blocks >= 1 &&
           c->max_blocks <= 32 && c->n_schedulers >= 1 && c->n_schedulers <= SM__MAX_SCHED &&
           c->oc_sp >= 1 && c->oc_sp <= 64 && c->oc_sfu >= 1 && c->oc_sfu <= 64 &&
           c->oc_mem >= 1 && c->oc_mem <= 64 && c->n_sp >= 1 && c->n_sp <= SM__MAX_PIPES &&
           c->n_sfu >= 1 && c->n_sfu <= SM__MAX_PIPES && c->n_ldst >= 1 &&
           c->n_ldst <= SM__MAX_PIPES && c->group_size >= 1 && c->max_misses >= 1 &&
           c->max_threads >= 1 && c->n_registers >= 1;
}

sm_sim *sm_sim_alloc(const sm_config *c)
{
    if (!config_ok(c))
        return NULL;
    sm_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cap = *c;
    s->warps = calloc((size_t)c->max_warps, sizeof *s->warps);
    s->ppend = calloc((size_t)c->max_warps, sizeof *s->ppend);
    s->slots = calloc((size_t)c->max_warps * SM__WARP_INFLIGHT, sizeof *s->slots);
    if (!s->warps || !s->ppend || !s->slots || sm__designs_alloc(s)) {
        sm_sim_free(s);
        return NULL;
    }
    return s;
}

void sm_sim_free(sm_sim *s)
{
    if (!s)
        return;
    sm__designs_free(s);
    sm__streams_free(s);
    free(s->slots);
    free(s->warps);
    free(s->ppend);
    free(s);
}

const char *sm_sim_diagnostic(const sm_sim *s) { return s->diag; }

void sm__sim_set_exact(sm_sim *s, bool exact) { s->exact = exact; }

/* ---- kernel launch ----------------------------------------------------------------- */

static bool fits_capacity(const sm_config *cap, const sm_config *c)
{
    return config_ok(c) && c->max_warps <= cap->max_warps && c->oc_sp <= cap->oc_sp &&
           c->oc_sfu <= cap->oc_sfu && c->oc_mem <= cap->oc_mem &&
           sm__coll_total(c) <= sm__coll_total(cap);
}

static bool map_ok(const sm_rf_map *m)
{
    return m->n_banks >= 1 && m->n_banks <= SM_MAX_BANKS && m->n_entries >= 1 &&
           m->n_entries <= SM_MAX_ENTRIES && m->subs_per_bank >= 1 &&
           m->subs_per_bank <= SM_MAX_SUBS_PER_BANK && 32 % m->subs_per_bank == 0;
}

static int min_int(int a, int b) { return a < b ? a : b; }

/* Blocks resident at once: the tightest of the block, warp, thread and register
 * limits (threads and registers counted per whole warp, as the hardware allocates). */
static int resident_blocks(const sm_config *c, const sm_profile *w, int wpb)
{
    int r = min_int(c->max_blocks, c->max_warps / wpb);
    r = min_int(r, c->max_threads / (wpb * 32));
    if (c->smem_size > 0 && w->smem_bytes > 0) /* shared memory (issue 27 item 2) */
        r = min_int(r, c->smem_size / w->smem_bytes);
    return min_int(r, (int)((long)c->n_registers / ((long)wpb * 32 * w->regs_per_thread)));
}

static bool launches_ok(const sm_profile *w)
{
    if (w->n_launches < 0 || w->n_launches > SM_MAX_LAUNCHES)
        return false;
    for (int l = 0; l < w->n_launches; l++)
        if (w->launch_blocks[l] < 1)
            return false;
    return true;
}

/* warp_weights: positive and finite, for a block of at most 32 warps (gen.c) */
static bool weights_ok(const sm_profile *w)
{
    if (w->n_warp_weights < 0 || w->n_warp_weights > SM_MAX_WARP_WEIGHTS)
        return false;
    if (w->n_warp_weights && (w->block_threads + 31) / 32 > SM_MAX_WARP_WEIGHTS)
        return false;
    for (int j = 0; j < w->n_warp_weights; j++)
        if (!(w->warp_weights[j] > 0 && w->warp_weights[j] < 1e9))
            return false;
    return true;
}

/* code_walk: whole triples of positive lengths and repeats, a walk of at most 1e9 */
static bool walk_ok(const sm_profile *w)
{
    if (w->n_code_walk < 0 || w->n_code_walk > SM_MAX_CODE_WALK || w->n_code_walk % 3)
        return false;
    long long n = 0;
    for (int r = 0; r < w->n_code_walk; r += 3) {
        if (w->code_walk[r] < 0 || w->code_walk[r + 1] < 1 || w->code_walk[r + 2] < 1)
            return false;
        n += (long long)w->code_walk[r + 1] * w->code_walk[r + 2];
    }
    return n <= 1000000000;
}

static bool profile_ok(const sm_profile *w)
{
    return w->regs_per_thread >= 1 && w->regs_per_thread <= SM__MAX_REGS - 1 &&
           w->block_threads >= 1 && w->insts_per_warp >= 1 && w->grid_blocks >= 1 &&
           launches_ok(w) && weights_ok(w) && walk_ok(w);
}

/* The only way sm_index and n_sms reach the simulation (sm.h): blocks b = sm_index,
 * sm_index + n_sms, ... capped at SM_SIM_WAVES waves.  The blocks' instruction streams
 * are keyed by their ordinal in this share, not by b, so SMs with equal shares run
 * identical kernels and the driver can reuse one run for all of them. */
int sm_sim_share(const sm_config *c, const sm_profile *w, int sm_index, int n_sms)
{
    if (!config_ok(c) || !profile_ok(w) || sm_index < 0 || n_sms < 1 || sm_index >= n_sms)
        return SM_E_INVALID;
    int wpb = (w->block_threads + 31) / 32;
    if (wpb > c->max_warps)
        return SM_E_INVALID;
    int resident = resident_blocks(c, w, wpb);
    if (resident < 1)
        return SM_E_INVALID;
    return sm__launch_shares(c, w, sm_index, n_sms, resident, NULL, NULL); /* launch.c */
}

int sm_sim_entries_read(const sm_config *c, const sm_profile *w, const sm_technique *t,
                        const sm_rf_map *map)
{
    int all = map->n_entries;
    for (int i = 0; i < SM_N_DESIGNS; i++)
        if (t->design[i])
            return all;
    if (!config_ok(c) || !profile_ok(w) || map->n_banks < 1 || w->trace_stream)
        return all; /* a trace: not claimed (its registers are the trace's) */
    int wpb = (w->block_threads + 31) / 32;
    if (wpb > c->max_warps)
        return all;
    long slots = (long)resident_blocks(c, w, wpb) * wpb; /* warp slots [0, slots) */
    long vectors = slots * w->regs_per_thread;
    if (slots < 1 || vectors > (long)map->n_banks * all)
        return all; /* entries wrap around (banks.c) */
    return (int)((vectors + map->n_banks - 1) / map->n_banks);
}

/* Does the kernel need none of the cold features (k.plain), so that the cycle loop may
 * run the stages' plain copies?  By stage: the cycle (replays, schedulers that never
 * settle, the front end, designs' cycle hooks, result slots), dispatch (result slots,
 * the hazard model's memory stage, exact mode, pending hits, sm.oc_stages), the write-back (port rules, a shared
 * port, designs' write hooks) and issue (the front end, issue hooks, port rules,
 * release flags, a `fast` bit computed as drawn, a stream state read past its draws).
 * A micro-kernel or trace is never plain: the plain copies assume a drawn stream (no
 * predicates; an instruction without a register result is a store).  Nor is a
 * kernel on an SM of another shape than the default's (SM__PLAIN_SCHED schedulers,
 * SM__PLAIN_SP, _SFU and _LDST pipelines): the plain copy has those counts as
 * constants. */
static bool kernel_plain(const sm_sim *s, const sm__kernel *k)
{
    bool cycle = k->replay || k->sched_always || k->frontend || (k->hooks & SM__HOOK_CYCLE) ||
                 k->result_slots;
    bool dispatch = k->result_slots || k->mem_model || s->exact || k->pending || k->oc_stages;
    bool write = k->port_rules || k->shared_ports || (k->hooks & SM__HOOK_WRITE);
    bool issue = k->frontend || k->issue_hooks || k->port_rules || k->flag_every != 0 ||
                 k->fast_at_next || k->rng_read;
    /* sm.max_insts: the cycle loop's test of the issued count is the general one's */
    return !(cycle || dispatch || write || issue || k->own_stream || k->max_insts != UINT64_MAX ||
             s->c->n_schedulers != SM__PLAIN_SCHED || s->c->n_sp != SM__PLAIN_SP ||
             s->c->n_sfu != SM__PLAIN_SFU || s->c->n_ldst != SM__PLAIN_LDST);
}

static int kernel_setup(sm_sim *s, const sm_profile *w, const sm_technique *t,
                        const sm_rf_map *map, int sm_index, int n_sms)
{
    const sm_config *c = s->c;
    sm__kernel *k = &s->k;
    const sm__inst *micro = k->micro;
    int n_micro = k->n_micro;
    bool micro_rows = k->micro_rows;
    memset(k, 0, sizeof *k);
    k->micro = micro;
    k->n_micro = n_micro;
    k->micro_rows = micro_rows;
    int share = sm_sim_share(c, w, sm_index, n_sms);
    if (share < 0 || !map_ok(map))
        return SM_E_INVALID;
    k->regs = w->regs_per_thread;
    k->reg_span = w->reg_span > w->regs_per_thread ? w->reg_span : w->regs_per_thread;
    k->insts_per_warp = w->insts_per_warp;
    k->warps_per_block = (w->block_threads + 31) / 32;
    k->tail_lanes = w->block_threads % 32 ? w->block_threads % 32 : 32;
    k->resident = resident_blocks(c, w, k->warps_per_block);
    k->n_blocks = share;
    k->n_launches = w->n_launches > 0 ? w->n_launches : 1;
    k->launch_dep = w->launch_dependent;
    sm__launch_shares(c, w, sm_index, n_sms, k->resident, k->launch_end, k->launch_sms);
    sm__memsys_setup(s, w, k->launch_sms[0]);
    s->mem.prof = w;
    s->mem.chip_sms = n_sms;
    s->mem.sm_index = sm_index;
    int miss = w->miss_latency ? w->miss_latency : c->lat_miss;
    const int lat[SM__N_LAT] = { c->lat_int, c->lat_int_mad, c->lat_int_div, c->lat_fp,
                                 c->lat_fp_mad, c->lat_fp_div, c->lat_sfu, c->lat_l1_hit,
                                 c->lat_shared, miss, c->lat_dp, 1,
                                 /* GPGPU-Sim SM2_GTX480: max/min int and f32 13
                                  * (gpgpusim.config:50,52), f64 19 and div 330
                                  * (:54), SFU 8 (cuda-sim.cc:77-80, default), shfl 32
                                  * (:50) */
                                 13, 19, 330, 8, 32,
                                 /* a pending hit's: set per load (pending.c) */
                                 c->lat_l1_hit };
    memcpy(k->lat, lat, sizeof lat);
    memcpy(k->ops, sm__ops, sizeof k->ops);
    k->policy = sm__sched_policy_of(t->scheduler);
    k->base = sm__sched_policy_of(c->base_policy == SM_SCHED_FWAS ? SM_SCHED_LRR : c->base_policy);
    if (sm__hz_setup(s, c, w))
        return SM_E_INVALID;
    sm__pend_setup(s, c, w);
    k->lat1_share = c->latency_table == SM_LATENCY_GPGPUSIM ? w->latency1_share : 0.0;
    k->trace_gsim = c->latency_table == SM_LATENCY_GPGPUSIM && w->trace_stream;
    /* GPGPU-Sim's GTX480 has no DP units: its DP_OP runs on the SFU (shader.cc:1327),
     * as a trace's f64 add/mul/mad do under the table (SM__OP_G_DP); the drawn stream
     * is unchanged, only where its DP instructions execute (docs/workloads.md, "Why
     * histogram64's and lavaMD's profiles ran faster than their traces") */
    k->dp_gsim = c->latency_table == SM_LATENCY_GPGPUSIM && !w->trace_stream;
    k->icache = c->frontend == SM_FRONTEND_GPGPUSIM_ICACHE;
    k->frontend = c->frontend == SM_FRONTEND_GPGPUSIM || k->icache;
    if (k->icache) /* cold at the run's start (reset_state emptied its MSHRs) */
        sm__fe_icache_setup(s, w);
    sm_profile traced;
    if (w->trace_stream) {
        /* a trace's lanes and registers are its own: the drawn stream's shape knobs
         * must not reach the launch-time policies (hybrid banks' footprint) either */
        traced = *w;
        traced.partial_warps = traced.tid_divergence = traced.same_bank_share = 0;
        traced.frac_barrier = 0;
        traced.n_warp_weights = 0; /* a trace's warps have their own lengths */
        w = &traced;
    }
    sm__gen_setup(k, w);
    if (sm__trace_setup(k, w->trace_stream))
        return SM_E_INVALID;
    k->own_stream = k->micro || k->trace;
    int rc = sm__banks_setup(s, map, t, w);
    if (rc)
        return rc;
    sm__gen_mates(k, w); /* needs the bank count */
    rc = sm__designs_kernel(s, t, w);
    /* issue_warp's one test for the cold work: designs' issue hooks, memory hazards */
    k->issue_hooks = (k->hooks & SM__HOOK_ISSUE) || k->mem_model;
    /* designs' hooks and the hazard model change what the issue stage reads without
     * marking it (sched.c): their schedulers run every cycle */
    k->sched_always = k->hooks || k->mem_model || s->exact ? s->sched_all : 0;
    k->fast_at_next = k->hooks || k->policy == &sm__sched_fwas || s->exact;
    k->rng_read = k->hooks || k->mem_model || k->port_rules || k->pend_thresh;
    k->result_slots = c->result_slots;
    k->oc_stages = c->oc_stages > 0 ? c->oc_stages : 0;
    k->max_insts = c->max_insts > 0 ? (uint64_t)c->max_insts : UINT64_MAX;
    k->result_buses = c->result_buses < SM__MAX_BUSES ? c->result_buses : SM__MAX_BUSES;
    k->shared_ports = c->bank_ports == SM_PORTS_SHARED;
    k->max_misses = c->max_misses;
    /* LRR's inline pick assumes a drawn stream (no trace predicates to test) */
    k->lrr = k->policy == &sm__sched_lrr && !k->own_stream;
    k->plain = kernel_plain(s, k);
    sm__early_setup(s); /* needs k.plain, the latencies and the source counts */
    sm__streams_select(s);
    return rc;
}

static void reset_sched(sm_sim *s)
{
    const sm_config *c = s->c;
    s->sched_all = (1u << c->n_schedulers) - 1;
    s->sched_dirty = s->sched_all;
    for (int i = 0; i < c->n_schedulers; i++) {
        sm__sched *q = &s->sched[i];
        memset(q, 0, sizeof *q);
        q->last = -1;
        q->resume = -1;
        int n_local = (c->max_warps - i + c->n_schedulers - 1) / c->n_schedulers;
        q->n_groups = (n_local + c->group_size - 1) / c->group_size;
        for (int w = i; w < c->max_warps; w += c->n_schedulers)
            q->group_mask[(w / c->n_schedulers) / c->group_size] |= 1ULL << w;
    }
}

static void reset_state(sm_sim *s)
{
    const sm_config *c = s->c;
    s->now = s->last_progress = s->occ_t = 0;
    s->age = 0;
    int n_slots = c->max_warps * SM__WARP_INFLIGHT;
    for (int i = 0; i < n_slots; i++)
        s->slots[i].next = (uint16_t)(i + 1 < n_slots ? i + 1 : SM__NIL);
    s->free_slot = 0;
    int oc[SM__N_UNITS];
    sm__coll_sizes(c, oc);
    const int pipes[SM__N_UNITS] = { c->n_sp, c->n_sfu, c->n_ldst };
    for (int u = 0; u < SM__N_UNITS; u++) {
        s->coll_cap[u] = oc[u];
        s->n_full[u] = s->coll_head[u] = 0;
        s->n_pipes[u] = pipes[u];
        for (int p = 0; p < SM__MAX_PIPES; p++)
            s->pipe_free[u][p] = 0;
        s->pipe_min[u] = 0;
    }
    if (c->result_slots) {
        memset(s->result_at, 0, sizeof s->result_at);
        memset(s->result_bus, 0, sizeof s->result_bus);
    }
    s->units_full = 0;
    memset(s->read_next, 0, sizeof s->read_next);
    memset(s->write_next, 0, sizeof s->write_next);
    memset(s->phys_read_next, 0, sizeof s->phys_read_next);
    memset(s->phys_write_next, 0, sizeof s->phys_write_next);
    s->frozen = 0;
    s->frozen_base = 0;
    s->n_wq = 0;
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < SM__WHEEL; i++) {
            s->wheel_head[l][i] = SM__NIL;
            s->wheel_link[l][i] = &s->wheel_head[l][i];
        }
    memset(s->wheel_busy, 0, sizeof s->wheel_busy);
    s->misses = 0;
    s->launch = 0;
    s->mem_hold_until = 0;
    memset(s->blocks, 0, sizeof s->blocks);
    s->next_block = s->blocks_done = s->live_blocks = 0;
    if (s->mem.on && s->mem.prof)
        sm__memsys_blocks(s); /* the first launch's sharers, by resident blocks */
    s->blk_t = 0;
    s->slot_freed = true;
    memset(s->live_vec, 0, sizeof s->live_vec);
    memset(s->occ, 0, sizeof s->occ);
    /* rd_lanes and wr_lanes are zero: calloc, then each run's finish() clears what it
     * read (34 KB cleared here cost as much as a 2 000-instruction run's events) */
#ifndef NDEBUG
    for (int n = 0; n <= 32; n++)
        for (int b = 0; b < SM_MAX_BANKS; b++)
            assert(s->rd_lanes[n][b] == 0 && s->wr_lanes[n][b] == 0);
#endif
    s->port_clock = 0;
    for (int w = 0; w < c->max_warps; w++) {
        memset(s->warps[w].pend, 0, sizeof s->warps[w].pend);
        s->warps[w].tables_lanes = 0;
    }
    if (s->k.trace) /* the last run (its kernel, still in s->k) ran a trace: one stopped
                     * early may have left predicates pending */
        memset(s->ppend, 0, (size_t)c->max_warps * sizeof *s->ppend);
    memset(s->stall_n, 0, sizeof s->stall_n);
    s->diag[0] = '\0';
    reset_sched(s);
    s->fe_buf = -1;
    s->fe_last = 0; /* shader.cc: m_last_warp_fetched = 0 */
    s->fe_stale = s->fe_want = 0;
    s->ic.n_mshr = 0;
    s->ic.waiting = 0;
}

/* ---- the cycle --------------------------------------------------------------------- */

/* One SM cycle.  Units run back to front, so an instruction advances at most one
 * stage per cycle without double-buffered state: a result written back this cycle
 * frees its register for the issue stage of the same cycle, an instruction issued
 * this cycle reads its operands next cycle. */
static void __attribute__((noinline)) cycle(sm_sim *s)
{
    sm__complete(s);       /* results leave their pipelines for the bank write ports;     */
                           /* written registers are released (writeback.c), warps and    */
                           /* blocks retire                                               */
    sm__dispatch(s);       /* collectors with all operands enter the pipelines            */
    sm__issue(s);          /* warp schedulers: one instruction each; its operand reads    */
                           /* are arbitrated at once (collector.c)                        */
    if (__builtin_expect(s->k.frontend, 0))
        sm__fe_cycle(s);   /* GPGPU-Sim's decode and fetch (frontend.c)                   */
    sm__launch(s);         /* freed block slots take the next blocks                      */
    if (s->k.hooks & SM__HOOK_CYCLE)
        sm__designs_cycle(s); /* register-file designs' own work (design.c)               */
}

/* The cycle of a plain kernel (k.plain): the same stages without their cold
 * features, so none of them is tested per cycle or per instruction. */
static inline void cycle_plain(sm_sim *s)
{
    sm__complete_plain(s);
    sm__dispatch_plain(s);
    sm__issue_plain(s);
    sm__launch(s);
}

/* The stall cause the issue stage will record for scheduler q when none of its ready
 * warps can be tried (all wait for a unit without a free collector): classify() of
 * sched.c with nothing tried. */
static inline int quiet_stall(const sm__sched *q, uint64_t cand, bool plain)
{
    if (cand != sm__sched_avail(q, plain)) /* a full unit keeps a ready warp out */
        return SM__STALL_COLLECTOR;
    return q->n_wait[SM__STALL_MEMORY] ? SM__STALL_MEMORY
           : q->n_wait[SM__STALL_DEP]  ? SM__STALL_DEP
           : q->barrier                ? SM__STALL_BARRIER
                                       : SM__STALL_IDLE;
}

/* Can unit u (with full collectors) dispatch nothing before a later cycle, short of a
 * completion or an issue?  Each pipeline frees and each collector's operands arrive at
 * a fixed cycle, so before the later of the two minima the unit dispatches nothing and
 * charges nothing (its dispatch stalls are charged as a collector leaves, exec.c).
 * The LD/ST unit may instead be refused on MSHRs, blocked (sm__mem_blocked) or
 * holding that outcome (mem_hold_*): one MSHR stall per cycle until a completion or
 * an arrival (*mshr set).  *until: the first cycle it may dispatch (INT64_MAX: only
 * a completion ends it). */
static inline bool unit_quiet(const sm_sim *s, int u, int64_t *until, bool *mshr, bool plain)
{
    if (u == SM__UNIT_MEM) {
        if (!plain && s->k.mem_model) /* its memory stage is stepped cycle by cycle */
            return false;
        if ((s->now < s->mem_hold_until) & (s->n_full[u] == s->mem_hold_full) &
            (s->misses == s->mem_hold_misses)) {
            *mshr = true;
            *until = s->mem_hold_until < *until ? s->mem_hold_until : *until;
            return true;
        }
        if (sm__mem_blocked(s)) {
            *mshr = true;
            return true;
        }
    }
    int64_t pipe = INT64_MAX, arrive = INT64_MAX;
    for (int p = 0; p < sm__n_pipes(s, u, plain); p++)
        pipe = s->pipe_free[u][p] < pipe ? s->pipe_free[u][p] : pipe;
    for (int j = 0; j < s->n_full[u]; j++) {
        int64_t r = s->coll[u][(s->coll_head[u] + j) & 63].ready_at;
        arrive = r < arrive ? r : arrive;
    }
    int64_t t = pipe > arrive ? pipe : arrive;
    *until = t < *until ? t : *until;
    return t > s->now;
}

/* Is the SM quiet: would every cycle from now until some later cycle change nothing but
 * the stall counts?  That holds when no register awaits release, no block waits to
 * launch, no scheduler has a warp it could try (every ready warp waits for a unit
 * without a free collector), the SP and SFU collectors are empty or wait for a busy
 * pipeline, and the LD/ST unit cannot dispatch before a later cycle (unit_quiet).
 * *until bounds the stretch; *mshr: the LD/ST unit charges an MSHR stall per cycle.
 * (Bounding full SP and SFU collectors by their operands' arrival too, with a scan of
 * the collectors, skipped too little to pay for the longer test: docs/performance.md;
 * the earliest free pipeline alone is one load.) */
static inline __attribute__((always_inline)) bool quiet(const sm_sim *s, int64_t *until,
                                                         bool *mshr, bool plain)
{
    /* one branch: evaluated every cycle, and its outcome is data-dependent */
    if (s->n_wq | s->slot_freed)
        return false;
    int64_t pipes = INT64_MAX;
    if (s->n_full[SM__UNIT_SP] | s->n_full[SM__UNIT_SFU]) {
        /* full SP or SFU collectors while every pipeline of their unit is busy past
         * now (double precision, divides, the SFU's interval): none dispatches
         * before the unit's earliest free pipeline (pipe_min, exact outside exact
         * mode, where it stays 0) */
        int64_t sp = s->n_full[SM__UNIT_SP] ? s->pipe_min[SM__UNIT_SP] : INT64_MAX;
        int64_t sfu = s->n_full[SM__UNIT_SFU] ? s->pipe_min[SM__UNIT_SFU] : INT64_MAX;
        pipes = sp < sfu ? sp : sfu;
        if ((pipes <= s->now) | (!plain && s->k.result_slots))
            return false;
    }
    /* (a settled scheduler has no candidate: sched.c); a plain kernel's
     * SM__PLAIN_SCHED schedulers unrolled, each index a constant */
    if (plain) {
#pragma GCC unroll 2
        for (int i = 0; i < SM__PLAIN_SCHED; i++)
            if (!sm__sched_settled(s, i) && sm__sched_cand_as(s, &s->sched[i], true))
                return false;
    } else {
        for (int i = 0; i < s->c->n_schedulers; i++)
            if (!sm__sched_settled(s, i) && sm__sched_cand_as(s, &s->sched[i], false))
                return false;
    }
    /* replays wait, or warps are hidden (replay.c); a fetch to decode or a buffer to
     * flush: none in a plain kernel */
    if (!plain && ((s->hz.n_replay | s->hz.n_hidden) || (s->k.frontend && sm__fe_busy(s))))
        return false;
    *until = pipes;
    *mshr = false;
    return !s->n_full[SM__UNIT_MEM] || unit_quiet(s, SM__UNIT_MEM, until, mshr, plain);
}

/* Scheduler i's stall for n quiet cycles: a settled scheduler's is its last one
 * (sched.c). */
static inline __attribute__((always_inline)) void charge_quiet(sm_sim *s, int i, uint64_t n,
                                                                bool plain)
{
    const sm__sched *q = &s->sched[i];
    int cls = sm__sched_settled(s, i) ? q->cls
                                      : quiet_stall(q, sm__sched_cand_as(s, q, plain), plain);
    s->stall_n[cls] += n;
}

/* When the SM is quiet (above), nothing can change before the next result leaves a
 * pipeline or the LD/ST unit may dispatch: jump there, charging the skipped cycles to
 * the stalls each of them would have recorded.  Memory-bound kernels spend most cycles
 * so (all warps waiting on loads, or the LD/ST unit waiting for an MSHR or a busy
 * pipeline).  Returns false on a deadlock (nothing in flight at all). */
static inline __attribute__((always_inline)) bool skip_idle_as(sm_sim *s, bool plain)
{
    int64_t units;
    bool mshr;
    if (!quiet(s, &units, &mshr, plain))
        return true;
    int64_t t = sm__next_completion(s, units); /* at most units */
    /* plain: no design's cycle hook sets design_next, and exact mode is cold */
    if (t == INT64_MAX && (plain || s->design_next == INT64_MAX))
        return mshr; /* waiting LD/ST collectors imply misses in flight */
    if (!plain && s->exact)
        return true;
    if (!plain)
        t = t < s->design_next ? t : s->design_next; /* a design's work ends the quiet */
    if (t <= s->now)
        return true;
    uint64_t n = (uint64_t)(t - s->now);
    if (plain) {
#pragma GCC unroll 2
        for (int i = 0; i < SM__PLAIN_SCHED; i++)
            charge_quiet(s, i, n, true);
    } else {
        for (int i = 0; i < s->c->n_schedulers; i++)
            charge_quiet(s, i, n, false);
    }
    s->st->mshr_stalls += mshr ? n : 0;
    s->now = t;
    return true;
}

static bool skip_idle(sm_sim *s) { return skip_idle_as(s, false); }
static bool skip_idle_plain(sm_sim *s) { return skip_idle_as(s, true); }

static void describe_stuck(sm_sim *s, const char *why)
{
    int n = snprintf(s->diag, sizeof s->diag,
                     "%s at cycle %lld: %d/%d blocks done, %d live, %d misses outstanding;",
                     why, (long long)s->now, s->blocks_done, s->k.n_blocks, s->live_blocks,
                     s->misses);
    for (int w = 0; w < s->c->max_warps && n < (int)sizeof s->diag - 64; w++) {
        const sm__warp *wp = &s->warps[w];
        if (!(s->sched[w % s->c->n_schedulers].warps >> w & 1))
            continue;
        n += snprintf(s->diag + n, sizeof s->diag - (size_t)n, " w%d:left=%d,inflight=%d%s", w,
                      wp->n_left, wp->n_inflight,
                      wp->wait_reg >= SM__NOT_WAITING ? ""
                      : wp->wait_kind == SM__STALL_MEMORY ? ",wait-mem"
                                                          : ",wait-dep");
    }
}

/* The accesses of bank b with n active lanes: counted per bank, and per physical
 * sub-bank part they touch (lanes fill part 0 first: a part holds 32 / subs lanes),
 * with the lanes they touch there (the energy model's unit, docs/model.md). */
static void spread_accesses(const sm_sim *s, sm_stats *st, int b, int n)
{
    uint64_t rd = s->rd_lanes[n][b], wr = s->wr_lanes[n][b];
    if (!rd && !wr)
        return;
    int per_part = 32 / s->k.subs, parts = sm__parts_for(n, s->k.subs);
    st->bank_reads[b] += rd;
    st->bank_writes[b] += wr;
    st->reads += rd;
    st->writes += wr;
    st->read_lanes += rd * (uint64_t)n;
    st->write_lanes += wr * (uint64_t)n;
    for (int p = 0; p < parts; p++) {
        int id = s->k.sub_id[b][p];
        uint64_t in_part = (uint64_t)(n - p * per_part < per_part ? n - p * per_part : per_part);
        st->sub_reads[id] += rd;
        st->sub_writes[id] += wr;
        st->sub_read_lanes[id] += rd * in_part;
        st->sub_write_lanes[id] += wr * in_part;
    }
}

/* Zeroes the access counts for the next run: the banks a run can access (the
 * working banks and a register-file cache's n..2n-1, sim.c finish), each lane row. */
static void clear_accesses(sm_sim *s)
{
    int banks = 2 * s->k.n_banks < SM_MAX_BANKS ? 2 * s->k.n_banks : SM_MAX_BANKS;
    for (int n = 0; n <= 32; n++) {
        memset(s->rd_lanes[n], 0, (size_t)banks * sizeof s->rd_lanes[n][0]);
        memset(s->wr_lanes[n], 0, (size_t)banks * sizeof s->wr_lanes[n][0]);
    }
}

static int finish(sm_sim *s, int rc)
{
    sm_stats *st = s->st;
#ifndef NDEBUG
    for (int b = 0; rc == SM_OK && !s->stop.stopped && b < SM_MAX_BANKS; b++)
        assert(s->stop.capped || s->live_vec[b] == 0); /* launches and retirements balance */
#endif
    sm__occupancy_flush(s);
    sm__blocks_flush(s, s->now);
    st->cycles = (uint64_t)s->now;
    st->stall_idle = s->stall_n[SM__STALL_IDLE];
    st->stall_memory = s->stall_n[SM__STALL_MEMORY];
    st->stall_dependency = s->stall_n[SM__STALL_DEP];
    st->stall_collector = s->stall_n[SM__STALL_COLLECTOR];
    st->stall_inflight = s->stall_n[SM__STALL_INFLIGHT];
    st->stall_barrier = s->stall_n[SM__STALL_BARRIER];
    for (int b = 0; b < s->k.n_banks; b++) {
        for (int p = 0; p < s->k.subs; p++)
            st->sub_occupancy[s->k.sub_id[b][p]] += s->occ[b];
        for (int n = 0; n <= 32; n++)
            spread_accesses(s, st, b, n);
    }
    for (int b = s->k.n_banks; b < 2 * s->k.n_banks && b < SM_MAX_BANKS; b++)
        for (int n = 0; n <= 32; n++) { /* the cache's banks (model/rfc.c): 0 without one */
            uint64_t acc = s->rd_lanes[n][b] + s->wr_lanes[n][b];
            st->rfc_bank_accesses[b - s->k.n_banks] += acc;
            st->rfc_lanes += acc * (uint64_t)n;
        }
    sm__designs_stats(s, st);
    if (s->stop.stopped)
        sm__stop_extrapolate(s, st); /* reads the access counts (stop.c) */
    clear_accesses(s);
    return rc;
}

/* The first cycle the cycle loop must look past its cycle: a batch of the stopping
 * rule, the cycle limit or the watchdog's deadline (no progress since last_progress:
 * progress moves it later, so it is tested when reached and set again).  The kernel's
 * end sets it to 0 (block.c). */
static void limit_set(sm_sim *s, int64_t max_cycles, int64_t stuck)
{
    int64_t t = s->stop.next < max_cycles ? s->stop.next : max_cycles;
    int64_t watch = s->last_progress + stuck + 1;
    s->limit = watch < t ? watch : t;
}

/* The cycle loop, from the first cycle to the kernel's end or an error.  plain:
 * k.plain, a constant in each of its two copies (run). */
static inline __attribute__((always_inline)) int cycles(sm_sim *s, const sm_config *c,
                                                        int64_t stuck, bool plain)
{
    /* locals: stores through s (uint64_t counters) could alias the config */
    const int64_t max_cycles = c->max_cycles;
    /* one test per cycle for all that ends the loop or interrupts it: s->limit */
    limit_set(s, max_cycles, stuck);
    for (;;) {
        if (s->now >= s->limit) {
            if (s->blocks_done == s->k.n_blocks) /* block.c set the limit to 0 */
                return finish(s, SM_OK);
            if (s->now - s->last_progress > stuck) {
                describe_stuck(s, "no progress");
                return finish(s, SM_E_STUCK);
            }
            if (s->now >= max_cycles) {
                describe_stuck(s, "cycle limit");
                return finish(s, SM_E_MAX_CYCLES);
            }
            if (s->now >= s->stop.next && sm__stop_batch(s)) /* stop.c */
                return finish(s, SM_OK);
            limit_set(s, max_cycles, stuck);
            continue;
        }
        if (plain) {
            cycle_plain(s);
        } else {
            cycle(s);
            if (s->st->warp_insts >= s->k.max_insts) { /* sm.max_insts (never plain) */
                s->stop.capped = true;
                s->now++;
                return finish(s, SM_OK);
            }
        }
        s->now++;
        /* A design's cycle hook may let the SM skip cycles after the kernel's end: the
         * general loop tests the end first.  A plain kernel's SM has nothing in
         * flight then, which the idle skip reports as a deadlock: tested there. */
        if (!plain && s->blocks_done == s->k.n_blocks)
            return finish(s, SM_OK);
        if (!(plain ? skip_idle_plain(s) : skip_idle(s))) {
            if (s->blocks_done == s->k.n_blocks)
                return finish(s, SM_OK);
            describe_stuck(s, "no progress"); /* nothing in flight at all */
            return finish(s, SM_E_STUCK);
        }
    }
}

static int run(sm_sim *s, const sm_config *c, const sm_profile *w, const sm_technique *t,
               const sm_rf_map *map, int sm_index, int n_sms, sm_stats *out)
{
    memset(out, 0, sizeof *out);
    s->diag[0] = '\0';
    if (!fits_capacity(&s->cap, c))
        return config_ok(c) ? SM_E_CAPACITY : SM_E_INVALID;
    s->c = c;
    s->st = out;
    reset_state(s);
    int rc = kernel_setup(s, w, t, map, sm_index, n_sms);
    if (rc)
        return rc;
    out->resident_blocks = (uint64_t)s->k.resident;
    out->n_banks = (uint64_t)s->k.n_banks;
    out->n_sub_banks = (uint64_t)(s->k.n_banks * s->k.subs);
    out->hybrid_banks = (uint64_t)s->k.n_hybrid;
    int64_t stuck = 100000 + 4LL * (s->k.lat[SM__LAT_MISS] + c->lat_int_div);
    sm__launch(s);
    s->blk_t = 0; /* the first blocks count from cycle 0, not 1 */
    /* before the first cycle: the cycle loop tests the kernel's end after a cycle */
    if (s->blocks_done == s->k.n_blocks)
        return finish(s, SM_OK);
    sm__stop_reset(s);
    /* two copies of the loop, so that neither tests k.plain per cycle */
    return s->k.plain ? cycles(s, c, stuck, true) : cycles(s, c, stuck, false);
}

int sm_sim_run(sm_sim *s, const sm_config *c, const sm_profile *w, const sm_technique *t,
               const sm_rf_map *map, int sm_index, int n_sms, sm_stats *out)
{
    s->k.micro = NULL;
    s->k.n_micro = 0;
    if (w->trace[0] && !w->trace_stream) /* a trace workload not decoded (dse/trace) */
        return SM_E_INVALID;
    return run(s, c, w, t, map, sm_index, n_sms, out);
}

int sm__sim_run_micro(sm_sim *s, const sm_config *c, const sm_profile *w,
                      const sm_technique *t, const sm_rf_map *map, const sm__inst *insts,
                      int n_insts, sm_stats *out)
{
    if (n_insts < 1)
        return SM_E_INVALID;
    s->k.micro = insts;
    s->k.n_micro = n_insts;
    int rc = run(s, c, w, t, map, 0, 1, out);
    s->k.micro = NULL;
    return rc;
}
