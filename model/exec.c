/* Execution: dispatch from operand collectors into the SP, SFU and LD/ST pipelines,
 * and completion of results to the bank write ports (writeback.c).
 *
 * A dispatched instruction waits in a timing wheel for the cycle its result leaves
 * the pipeline (dispatch + the latency of its class), and once its write is granted,
 * for the cycle its register is released.  Pipelines accept
 * one warp instruction per `interval` cycles: Fermi's 16-wide SP groups and LD/ST
 * units run on a doubled hot clock (one warp per core cycle), its 4 SFUs need 4 core
 * cycles per warp, and divides are not fully pipelined (GPGPU-Sim GTX480 initiation
 * intervals: int div 8, fp div 4). */
#include "sm_internal.h"

const sm__op_info sm__ops[SM__OP_END] = {
    [SM__OP_INT] = { SM__UNIT_SP, SM__LAT_INT, 1, 0 },
    [SM__OP_INT_MAD] = { SM__UNIT_SP, SM__LAT_INT_MAD, 1, 0 },
    [SM__OP_INT_DIV] = { SM__UNIT_SP, SM__LAT_INT_DIV, 8, 0 },
    [SM__OP_FP] = { SM__UNIT_SP, SM__LAT_FP, 1, 0 },
    [SM__OP_FP_MAD] = { SM__UNIT_SP, SM__LAT_FP_MAD, 1, 0 },
    [SM__OP_FP_DIV] = { SM__UNIT_SP, SM__LAT_FP_DIV, 4, 0 },
    [SM__OP_SFU] = { SM__UNIT_SFU, SM__LAT_SFU, 4, 0 },
    [SM__OP_LD_GLOBAL] = { SM__UNIT_MEM, SM__LAT_L1_HIT, 1, 0 },
    [SM__OP_ST_GLOBAL] = { SM__UNIT_MEM, SM__LAT_L1_HIT, 1, 1 },
    [SM__OP_LD_SHARED] = { SM__UNIT_MEM, SM__LAT_SHARED, 1, 0 },
    [SM__OP_ST_SHARED] = { SM__UNIT_MEM, SM__LAT_SHARED, 1, 1 },
    /* GPGPU-Sim SM2_GTX480: -ptx_opcode_initiation_dp 8,16,8,8,130 (add, max, mul, mad, div) */
    [SM__OP_DP] = { SM__UNIT_SP, SM__LAT_DP, 8, 0 },
    [SM__OP_LAT1] = { SM__UNIT_SP, SM__LAT_ONE, 1, 0 },
    [SM__OP_FLAG] = { SM__UNIT_SP, SM__LAT_INT, 1, 1 }, /* no result, like a store */
    [SM__OP_BAR] = { SM__UNIT_SP, SM__LAT_INT, 1, 1 },  /* never dispatched (sched.c) */
    [SM__OP_NORES] = { SM__UNIT_SP, SM__LAT_ONE, 1, 1 }, /* a trace's: no result */
    /* GPGPU-Sim 4.0, SM2_GTX480 (sm_trace.h, sm_trace_gsim): initiation intervals of
     * gpgpusim.config:51,53,55 (int, fp, dp: add, max, mul, mad, div) and the SFU's
     * default (cuda-sim.cc:104-107); DP_OP and SFU_OP on the SFU (shader.cc:1327) */
    [SM__OP_G_IMUL] = { SM__UNIT_SP, SM__LAT_INT, 2, 0 },
    [SM__OP_G_MAX] = { SM__UNIT_SP, SM__LAT_G_MAX, 2, 0 },
    [SM__OP_G_DP] = { SM__UNIT_SFU, SM__LAT_DP, 8, 0 },
    [SM__OP_G_DP_MAX] = { SM__UNIT_SFU, SM__LAT_G_DP_MAX, 16, 0 },
    [SM__OP_G_DIV] = { SM__UNIT_SFU, SM__LAT_FP_DIV, 4, 0 },
    [SM__OP_G_IDIV] = { SM__UNIT_SFU, SM__LAT_INT_DIV, 8, 0 },
    [SM__OP_G_DDIV] = { SM__UNIT_SFU, SM__LAT_G_DDIV, 130, 0 },
    [SM__OP_G_SFU] = { SM__UNIT_SFU, SM__LAT_G_SFU, 8, 0 },
    [SM__OP_G_SHFL] = { SM__UNIT_SP, SM__LAT_G_SHFL, 4, 0 },
};

/* The collector at position j of unit u's fill order (oldest first). */
static inline sm__collector *coll_at(sm_sim *s, int u, int j)
{
    return &s->coll[u][(s->coll_head[u] + j) & 63];
}
static inline const sm__collector *coll_at_c(const sm_sim *s, int u, int j)
{
    return &s->coll[u][(s->coll_head[u] + j) & 63];
}

/* Positions in unit u's fill order of the collectors whose operands have all arrived,
 * as a mask; *n their count (counted here: without -mpopcnt a popcount is a library
 * call). */
static uint64_t arrived(const sm_sim *s, int u, int *n)
{
    uint64_t ready = 0;
    int k = 0;
    for (int j = 0; j < s->n_full[u]; j++) {
        int ok = coll_at_c(s, u, j)->ready_at <= s->now; /* no branch: unpredictable */
        ready |= (uint64_t)ok << j;
        k += ok;
    }
    *n = k;
    return ready;
}

static void wheel_push(sm_sim *s, uint16_t slot, int list)
{
    int i = (int)(s->slots[slot].done_at & (SM__WHEEL - 1));
    s->slots[slot].next = SM__NIL;
    /* through the bucket's link: no branch on whether the bucket is empty */
    *s->wheel_link[list][i] = slot;
    s->wheel_link[list][i] = &s->slots[slot].next;
    /* only results leaving their pipeline: the idle skip, the one reader, runs with
     * no register awaiting release (sm__next_completion) */
    if (list == SM__WHEEL_DONE)
        s->wheel_busy[i >> 6] |= 1ULL << (i & 63);
}

/* Dispatch at issue (plain kernels).  An SP instruction issued at cycle f into a unit
 * with no full collector, whose operands all arrive at f + 2 (the earliest: reads are
 * granted from f + 1), leaves its collector at f + 2 for the first pipeline free then,
 * whatever happens in between, so the issue stage books that now and the collector is
 * never filled:
 * - no collector can take an SP pipeline before it: none older waits, and a younger
 *   one's operands arrive at f + 3 at the earliest, or at f + 2 for one issued after it
 *   in cycle f, which is younger (the oldest ready goes first), provided every SP
 *   operation reads a register (src_base >= 1; with none, operands arrive at once);
 *   earlier bookings are for earlier cycles or older instructions, so they are made in
 *   dispatch order and pipe_free holds them as the dispatches would have;
 * - the unit's count of full collectors decides units_full, which the issue stage
 *   filters by: with none waiting at f, at most 4 collectors issued at f - 1 and f are
 *   full in any issue stage that counted this one, below a pool of 5 or more, so
 *   units_full is as if it were counted;
 * - its result joins the wheel at issue instead of at f + 2: ahead of any result
 *   pushed at f + 1 that leaves its pipeline in the same cycle, whose write would then
 *   be granted after it instead of before.  Only an SFU or LD/ST result can be pushed
 *   at f + 1 (no SP collector is ready then), with its latency one more than this one's:
 *   the operations for which no SFU or LD/ST latency is one more qualify (early_ops).
 * Its dispatch stall is 0 and it counts nothing else at dispatch; the idle skip sees
 * the booked pipeline in pipe_min, as any dispatch's. */
void sm__early_setup(sm_sim *s)
{
    sm__kernel *k = &s->k;
    k->early_ops = 0;
    _Static_assert(SM__PLAIN_SP == 2, "sm__dispatch_early books one of two SP pipelines");
    if (!k->plain || s->coll_cap[SM__UNIT_SP] < 5)
        return;
    for (int op = 0; op < SM__N_OPS; op++)
        if (k->ops[op].unit == SM__UNIT_SP && !k->ops[op].is_store && k->src_base[op] < 1)
            return; /* an SP operation without sources: ready the cycle after issue */
    /* latencies (leaving the pipeline - dispatch) of SFU and LD/ST results: a drawn
     * stream's operations' and a miss's, and its DP operations' as GPGPU-Sim's DP_OP,
     * which runs on the SFU under its latency table (sim.c dp_gsim); a drawn
     * stream's conflict cycles are shared accesses' (any degree when drawn) */
    int other[SM__N_OPS + 2], n = 0;
    for (int op = 0; op < SM__N_OPS; op++)
        if (k->ops[op].unit != SM__UNIT_SP)
            other[n++] = k->lat[k->ops[op].lat];
    other[n++] = k->lat[SM__LAT_MISS];
    if (k->dp_gsim)
        other[n++] = k->lat[k->ops[SM__OP_G_DP].lat];
    for (int op = 0; op < SM__N_OPS; op++) {
        const sm__op_info *oi = &k->ops[op];
        if (oi->unit != SM__UNIT_SP || oi->is_store)
            continue;
        int next = k->lat[oi->lat] + 1;
        bool clash = false;
        for (int j = 0; j < n; j++)
            clash |= next == other[j];
        clash |= k->smem_on && next >= k->lat[SM__LAT_SHARED]; /* shared + its conflicts */
        k->early_ops |= (uint32_t)!clash << op;
    }
}

/* Books the instruction in `slot`, whose operands arrive at `at` (issue + 2), into the
 * first SP pipeline free at `at` (above); false when both are busy then (it waits in a
 * collector as any other). */
bool sm__dispatch_early(sm_sim *s, uint16_t slot, int64_t at)
{
    const int u = SM__UNIT_SP;
    int p = s->pipe_free[u][0] <= at ? 0 : s->pipe_free[u][1] <= at ? 1 : -1;
    if (p < 0)
        return false;
    sm__slot *sl = &s->slots[slot];
    const sm__op_info *oi = &s->k.ops[sl->op];
    s->pipe_free[u][p] = at + oi->interval;
    s->pipe_min[u] = s->pipe_free[u][0] < s->pipe_free[u][1] ? s->pipe_free[u][0]
                                                             : s->pipe_free[u][1];
    sl->lat = oi->lat;
    sl->done_at = at + s->k.lat[oi->lat];
    wheel_push(s, slot, SM__WHEEL_DONE);
    return true;
}

/* A trace's instruction whose only result is a predicate (writeback.c): no register
 * write; it is released as a fast write without a conflict would be, the cycle after
 * its result leaves the pipeline, without a write port.  Out of line, as the
 * predicates' other steps. */
static void __attribute__((cold, noinline)) pred_only(sm_sim *s, uint16_t slot)
{
    s->slots[slot].done_at++;
    s->n_wq++;
    wheel_push(s, slot, SM__WHEEL_RELEASE);
}

/* The instruction in `slot` leaves unit u's collector for its pipeline.  u is a
 * constant where it is inlined (dispatch_unit), so only the LD/ST unit's copy asks the
 * memory side for the latency. */
static inline __attribute__((always_inline)) void start(sm_sim *s, uint16_t slot, int u,
                                                         bool plain)
{
    sm__slot *sl = &s->slots[slot];
    const sm__op_info *oi = &s->k.ops[sl->op];
    /* nothing to write back: done once it leaves the collector (plain: a drawn
     * stream's stores are the LD/ST unit's; no release flags) */
    if ((!plain || u == SM__UNIT_MEM) && oi->is_store) {
        int w = sl->warp;
        sm__slot_free(s, slot);
        sm__inst_done(s, w);
        return;
    }
    int lat = u == SM__UNIT_MEM ? sm__mem_lat(s, sl) : oi->lat;
    /* a load whose line is in flight waits for it (pending.c; off by default) */
    if (!plain && u == SM__UNIT_MEM && s->k.pending && sl->op == SM__OP_LD_GLOBAL)
        lat = sm__pend_lat(s, slot, lat);
    sl->lat = (uint8_t)lat;
    /* a conflicting shared access holds it longer; sm.oc_stages adds the pipeline
     * registers GPGPU-Sim has beyond rfdse's, the same for every unit (plain: none,
     * and a drawn stream's conflicts are shared accesses': the LD/ST unit's) */
    if (plain)
        sl->done_at = s->now + s->k.lat[lat] + (u == SM__UNIT_MEM ? sl->xbusy : 0);
    else
        sl->done_at = s->now + s->k.lat[lat] + sl->xbusy + s->k.oc_stages;
    /* a trace's predicate alone (plain: a drawn stream, whose only instructions
     * without a register result are stores) */
    if (!plain && sl->dst == SM__NO_REG) {
        pred_only(s, slot);
        return;
    }
    wheel_push(s, slot, SM__WHEEL_DONE);
}

/* With sm_config.result_slots: would the instruction in `sl` leave SP/SFU pipeline p
 * in a cycle another result already leaves it?  GPGPU-Sim's units keep one `occupied`
 * bit per future cycle and refuse such an instruction, so a shorter-latency one right
 * after a longer-latency one on the same pipeline waits (mul 4 after fma 5).  If not,
 * the pipeline books that cycle.  With result_buses the result also needs one of the
 * buses the SP and SFU pipelines share free in that cycle (GPGPU-Sim 4.0:
 * shader_core_ctx::execute() issues a non-stallable unit's instruction only when
 * test_res_bus() finds one of its EX_WB-width result buses free at its latency,
 * src/gpgpu-sim/shader.cc 1665-1690, 432; SM2_GTX480's -gpgpu_pipeline_widths gives
 * EX_WB 2, gpgpusim.config:43).  Out of line: off by default. */
static bool __attribute__((cold, noinline))
result_taken(sm_sim *s, int u, int p, const sm__slot *sl)
{
    int lat = s->k.lat[sm__ops[sl->op].lat];
    if (u == SM__UNIT_MEM || lat >= SM__RESULT_RING)
        return false; /* not tracked */
    int64_t at = s->now + lat, *booked = &s->result_at[u][p][at % SM__RESULT_RING];
    if (*booked == at)
        return true;
    if (s->k.result_buses > 0) {
        int b = 0;
        while (b < s->k.result_buses && s->result_bus[b][at % SM__RESULT_RING] == at)
            b++;
        if (b == s->k.result_buses)
            return true; /* every bus carries a result then */
        s->result_bus[b][at % SM__RESULT_RING] = at;
    }
    *booked = at;
    return false;
}

/* For the hazard model's memory stage (mem_hazard.c): the same steps, out of line. */
void sm__exec_start(sm_sim *s, uint16_t slot) { start(s, slot, SM__UNIT_MEM, false); }
uint64_t sm__coll_arrived(const sm_sim *s, int u, int *n) { return arrived(s, u, n); }

/* Frees the collector at position j of unit u's fill order: the ones before it move
 * up one (usually none), so the order of the others is kept. */
static inline void coll_remove(sm_sim *s, int u, int j)
{
    sm__collector *c = s->coll[u];
    int h = s->coll_head[u];
    for (; j > 0; j--)
        c[(h + j) & 63] = c[(h + j - 1) & 63];
    s->coll_head[u] = (h + 1) & 63;
    s->n_full[u]--;
    s->units_full &= s->k.coll_keep[u]; /* ~(1 << u); 0 for one unified pool */
}

void sm__coll_free(sm_sim *s, int u, int j) { coll_remove(s, u, j); }

/* Each free pipeline, in order, takes the oldest ready collector; what is left waits. */
/* The first cycle one of unit u's full collectors still waiting for operands gets
 * them (INT64_MAX: none waits). */
static int64_t next_arrival(const sm_sim *s, int u)
{
    int64_t t = INT64_MAX;
    for (int j = 0; j < s->n_full[u]; j++) {
        int64_t r = coll_at_c(s, u, j)->ready_at;
        if (r > s->now && r < t)
            t = r;
    }
    return t;
}

#ifndef NDEBUG
/* Debug builds check the held outcome against the recomputation it stands for: the
 * same collectors have their operands, a pipeline is free, and the oldest is refused. */
static bool hold_exact(const sm_sim *s)
{
    int n, u = SM__UNIT_MEM;
    uint64_t ready = arrived(s, u, &n);
    bool free_pipe = false;
    for (int p = 0; p < s->n_pipes[u]; p++)
        free_pipe |= s->pipe_free[u][p] <= s->now;
    return ready && free_pipe &&
           !sm__mem_accept(s, &s->slots[coll_at_c(s, u, __builtin_ctzll(ready))->slot]);
}
#endif

/* Position in unit u's fill order of the oldest collector whose operands are in, or
 * n_full[u]: usually the first (instructions mostly arrive in issue order). */
static inline int oldest_ready(const sm_sim *s, int u)
{
    const sm__collector *c = s->coll[u];
    int j = 0, n = s->n_full[u], h = s->coll_head[u];
    while (j < n && c[(h + j) & 63].ready_at > s->now)
        j++;
    return j;
}

/* Pipeline p of unit u takes the oldest collector whose operands are in, if it is
 * free; *sent: one did.  Returns false when no later pipeline can take one either
 * (none is ready, or the LD/ST unit is refused on MSHRs). */
static inline __attribute__((always_inline)) bool pipe_take(sm_sim *s, int u, int p, bool *sent,
                                                            bool plain)
{
    if (s->pipe_free[u][p] > s->now)
        return true;
    int j = oldest_ready(s, u);
    if (j == s->n_full[u])
        return false;
    const sm__collector *co = coll_at(s, u, j);
    const uint16_t slot = co->slot;
    const sm__slot *sl = &s->slots[slot];
    if (u == SM__UNIT_MEM && !sm__mem_accept(s, sl)) {
        s->st->mshr_stalls++;
        if (!*sent && (plain || !s->exact)) { /* nothing changed: the outcome repeats */
            s->mem_hold_until = next_arrival(s, u);
            s->mem_hold_full = s->n_full[u];
            s->mem_hold_misses = s->misses;
        }
        return false;
    }
    if (u == SM__UNIT_MEM) { /* the held state could recur with other collectors */
        s->mem_hold_until = 0;
        s->st->smem_conflict_cycles += sl->xbusy;
    }
    if (!plain && s->k.result_slots && result_taken(s, u, p, sl))
        return true; /* this pipeline refuses it; the next may take it */
    /* u is a constant here (always_inline): only LD/ST reads the conflict cycles */
    s->pipe_free[u][p] = s->now + s->k.ops[sl->op].interval + (u == SM__UNIT_MEM ? sl->xbusy : 0);
    s->st->dispatch_stalls += (uint64_t)(s->now - co->ready_at);
    coll_remove(s, u, j); /* co is another collector's from here */
    *sent = true;
    start(s, slot, u, plain);
    return true;
}

/* Each free pipeline, in order, takes the oldest collector whose operands are in; what
 * is left waits.  A collector's dispatch stalls (one per cycle it waits with its
 * operands in) are charged when it leaves, all at once: now - ready_at, which is what
 * a per-cycle count of the waiting collectors sums to, so the cycles in which the unit
 * dispatches nothing need not run it (sm__dispatch). */
static inline __attribute__((always_inline)) void dispatch_unit(sm_sim *s, int u, bool plain)
{
    /* a memory-bound kernel's LD/ST unit spends most cycles refusing the same missing
     * load: repeat the outcome instead of recomputing it (sm_internal.h) */
    if (u == SM__UNIT_MEM && (s->now < s->mem_hold_until) &
                                 (s->n_full[u] == s->mem_hold_full) &
                                 (s->misses == s->mem_hold_misses)) {
        assert(hold_exact(s));
        s->st->mshr_stalls++;
        return;
    }
    bool sent = false;
    /* the plain copy's pipelines unrolled, each index a constant (SM__PLAIN_SP ...) */
    if (plain) {
#pragma GCC unroll 2
        for (int p = 0; p < sm__n_pipes(s, u, true); p++)
            if (!pipe_take(s, u, p, &sent, true))
                break;
    } else {
        for (int p = 0; p < s->n_pipes[u]; p++)
            if (!pipe_take(s, u, p, &sent, false))
                break;
    }
    if (sent) {
        int64_t m = s->pipe_free[u][0];
        for (int p = 1; p < sm__n_pipes(s, u, plain); p++)
            m = s->pipe_free[u][p] < m ? s->pipe_free[u][p] : m;
        /* exact mode runs the unit every cycle its collectors are full */
        s->pipe_min[u] = !plain && s->exact ? 0 : m;
    }
}

/* Will the LD/ST unit refuse its oldest ready collector in every cycle from now until
 * the next completion?  True when every full LD/ST collector has its operands, the
 * first pipeline is free and the oldest is a missing load while all MSHRs are in use:
 * dispatch_unit() then charges one MSHR stall per cycle and changes nothing else,
 * until a miss returns (sim.c skips those cycles). */
bool sm__mem_blocked(const sm_sim *s)
{
    int u = SM__UNIT_MEM;
    if (s->k.mem_model) /* its memory stage is stepped cycle by cycle */
        return false;
    for (int j = 0; j < s->n_full[u]; j++)
        if (coll_at_c(s, u, j)->ready_at > s->now)
            return false;
    if (!s->n_full[u] || s->pipe_free[u][0] > s->now)
        return false;
    const sm__slot *sl = &s->slots[coll_at_c(s, u, 0)->slot];
    return sl->op == SM__OP_LD_GLOBAL && sl->miss && s->misses >= s->k.max_misses;
}

/* A unit runs only in cycles it has a full collector and a free pipeline: in the
 * others dispatch_unit() would dispatch nothing and charge nothing (its dispatch
 * stalls are charged as a collector leaves, its MSHR refusals need a free pipeline).
 * plain: k.plain, a constant in each copy. */
static inline __attribute__((always_inline)) void dispatch(sm_sim *s, bool plain)
{
    const int64_t now = s->now;
    if (s->n_full[SM__UNIT_SP] && now >= s->pipe_min[SM__UNIT_SP])
        dispatch_unit(s, SM__UNIT_SP, plain);
    if (s->n_full[SM__UNIT_SFU] && now >= s->pipe_min[SM__UNIT_SFU])
        dispatch_unit(s, SM__UNIT_SFU, plain);
    if (s->n_full[SM__UNIT_MEM]) {
        if (!plain && s->k.mem_model)
            sm__hz_dispatch(s); /* memory hazards and replay: mem_hazard.c */
        else if (now >= s->pipe_min[SM__UNIT_MEM])
            dispatch_unit(s, SM__UNIT_MEM, plain);
    }
}

void sm__dispatch_plain(sm_sim *s) { dispatch(s, true); }
void sm__dispatch(sm_sim *s) { dispatch(s, false); }

/* Registers due for release this cycle are released (writeback.c); results due
 * leave their pipeline for their bank's write port and come back for their release.
 * (In either order: they touch disjoint state.)  plain: k.plain, a constant in each
 * copy, so the plain one tests no write feature per result. */
static inline __attribute__((always_inline)) void complete(sm_sim *s, int i, uint16_t done,
                                                           uint16_t rel, bool plain)
{
    /* only a list that holds something is emptied (an empty one's head is NIL and its
     * link the head already): most completing cycles have one list empty, and the
     * loops below test their list's head anyway */
    if (rel != SM__NIL) {
        s->wheel_head[SM__WHEEL_RELEASE][i] = SM__NIL;
        s->wheel_link[SM__WHEEL_RELEASE][i] = &s->wheel_head[SM__WHEEL_RELEASE][i];
    }
    if (done != SM__NIL) {
        s->wheel_head[SM__WHEEL_DONE][i] = SM__NIL;
        s->wheel_link[SM__WHEEL_DONE][i] = &s->wheel_head[SM__WHEEL_DONE][i];
        s->wheel_busy[i >> 6] &= ~(1ULL << (i & 63)); /* wheel_push sets it again */
    }
    for (uint16_t h = rel, next; h != SM__NIL; h = next) {
        next = s->slots[h].next;
        if (s->slots[h].done_at != s->now) {
            wheel_push(s, h, SM__WHEEL_RELEASE); /* due a later round of the wheel */
        } else if (plain) {
            sm__release_plain(s, h);
        } else {
            sm__release(s, h);
        }
    }
    for (uint16_t h = done, next; h != SM__NIL; h = next) {
        sm__slot *sl = &s->slots[h];
        next = sl->next;
        if (sl->done_at == s->now) {
            sm__mem_done(s, sl->lat);
            sl->done_at = plain ? sm__write_plain(s, h) : sm__write(s, h);
            wheel_push(s, h, SM__WHEEL_RELEASE);
        } else {
            wheel_push(s, h, SM__WHEEL_DONE);
        }
    }
}

/* plain: k.plain, a constant in each copy */
static inline __attribute__((always_inline)) void complete_now(sm_sim *s, bool plain)
{
    int i = (int)(s->now & (SM__WHEEL - 1));
    uint16_t done = s->wheel_head[SM__WHEEL_DONE][i], rel = s->wheel_head[SM__WHEEL_RELEASE][i];
    if ((done & rel) == SM__NIL) /* both lists empty */
        return;
    complete(s, i, done, rel, plain);
}

void sm__complete(sm_sim *s) { complete_now(s, false); }
void sm__complete_plain(sm_sim *s) { complete_now(s, true); }

