/* The issue stage: each warp scheduler (warps w with w mod n_schedulers == its index)
 * issues at most one instruction per cycle, chosen by the technique's policy from the
 * warps whose next instruction finds a free operand collector and passes the
 * scoreboard.  Policies plug in through sm__sched_policy (sched_*.c).
 *
 * Scoreboard-blocked warps leave the scheduler's `ready` mask and come back when the
 * register they wait for is written (sm__sched_wake), so a cycle costs work only for
 * warps that may issue. */
#include "sm_internal.h"

const sm__sched_policy *sm__sched_policy_of(sm_sched_policy p)
{
    static const sm__sched_policy *const table[] = {
#define ENTRY(name, NAME, needs_bro, doc) [SM_SCHED_##NAME] = &sm__sched_##name,
        SM_SCHEDULERS(ENTRY)
#undef ENTRY
    };
    if ((unsigned)p >= sizeof table / sizeof table[0])
        return &sm__sched_lrr;
    return table[p];
}

/* Branch-free: whether the written register is the one the warp waits for is
 * unpredictable.  A warp that does not wait has SM__NOT_WAITING's bit set in wait_reg,
 * so that it equals no register and one comparison decides (its wait_kind is then
 * stale: unread); a wake sets the bit (one OR, where a select to SM__NOT_WAITING cost
 * three host instructions). */
void sm__sched_wake(sm_sim *s, int w, int reg)
{
    sm__warp *wp = &s->warps[w];
    sm__sched *q = &s->sched[wp->sched];
    int hit = wp->wait_reg == reg;
    q->n_wait[wp->wait_kind] -= hit;
    wp->wait_reg |= (uint16_t)(hit << 8); /* SM__NOT_WAITING's bit: equal to no register */
    q->ready |= (uint64_t)hit << w;
    s->sched_dirty |= (unsigned)hit << wp->sched;
}

bool __attribute__((cold, noinline)) sm__pred_pending(sm_sim *s, int w)
{
    sm__warp *wp = &s->warps[w];
    const uint8_t *pp = s->ppend[w]; /* entry 0 (no predicate) stays 0 */
    int p = pp[wp->pdst]      ? wp->pdst
            : pp[wp->psrc[0]] ? wp->psrc[0]
            : pp[wp->psrc[1]] ? wp->psrc[1]
            : pp[wp->psrc[2]] ? wp->psrc[2]
                              : 0;
    if (p) {
        sm__sched *q = &s->sched[wp->sched];
        wp->wait_reg = (uint16_t)p;
        wp->wait_kind = SM__STALL_DEP;
        q->n_wait[SM__STALL_DEP]++;
        q->ready &= ~(1ULL << w);
    }
    return p != 0;
}

/* Every warp of the block that waited at its barrier becomes a candidate again. */
static void release_barrier(sm_sim *s, sm__block *blk)
{
    int wpb = s->k.warps_per_block, first = (int)(blk - s->blocks) * wpb;
    for (int w = first; w < first + wpb; w++)
        s->sched[s->warps[w].sched].barrier &= ~(1ULL << w);
    blk->at_barrier = 0;
    s->sched_dirty = s->sched_all;
}

/* A barrier takes the issue slot and no collector, pipeline or register: the warp
 * waits (q->barrier) until the last warp of its block issues the same barrier, which
 * releases them all in that cycle.  Register-file designs see it, as every issued
 * instruction (reg_release's look-ahead counts it). */
static void __attribute__((noinline)) issue_barrier(sm_sim *s, sm__sched *q, int w)
{
    sm__warp *wp = &s->warps[w];
    sm_stats *st = s->st;
    st->warp_insts++;
    st->thread_insts += wp->tlanes[0];
    st->barriers++;
    wp->n_issued++;
    wp->passed = 0;
    q->last = q->resume >= 0 ? q->resume : w;
    q->resume = -1;
    s->last_progress = s->now;
    if (s->k.hooks & SM__HOOK_ISSUE)
        sm__designs_issue(s, w, SM__NIL, &wp->next);
    --wp->n_left; /* a barrier is never a warp's last instruction (gen.c) */
    int unit = wp->next.unit;
    sm__gen_next(&s->k, wp);
    q->unit_mask[unit] &= ~(1ULL << w);
    q->unit_mask[wp->next.unit] |= 1ULL << w;
    sm__block *blk = &s->blocks[wp->block];
    q->barrier |= 1ULL << w;
    if (++blk->at_barrier == blk->warps_left)
        release_barrier(s, blk);
}

/* plain: k.plain, a constant in each copy, so the plain one tests none of the cold
 * features per instruction */
static inline __attribute__((always_inline)) void issue_warp(sm_sim *s, sm__sched *q, int w,
                                                             bool plain)
{
    sm__warp *wp = &s->warps[w];
    const sm__inst *in = &wp->next;
    if (!plain && s->k.frontend) /* a profile's stream has no branches */
        sm__fe_issued(s, q, w, in->redirect);
    if (__builtin_expect(in->op == SM__OP_BAR, 0)) {
        issue_barrier(s, q, w);
        return;
    }
    uint16_t slot = sm__slot_alloc(s);
    sm__slot *sl = &s->slots[slot];
    memcpy(&sl->op, in, 8); /* op to div (sm__slot) */
    sl->warp = (uint8_t)w;
    /* a profile's constant load: hit or miss is the cache's state now (pending.c) */
    uint8_t cst = 0;
    if (!plain && s->k.cprof_lines && in->op == SM__OP_LD_GLOBAL && in->miss >= SM__MISS_CONST)
        cst = sm__pend_const(s, &wp->next);
    sl->miss = in->miss;
    /* a shared access's conflict degree holds the LD/ST pipeline; an instruction
     * source gives every other instruction 1 (gen.c), and 0 counts as 1 */
    sl->xbusy = (uint8_t)(in->smem_ways - (plain || in->smem_ways != 0)); /* plain: drawn, >= 1 */
    /* a trace's predicate result: pending until the slot's release (writeback.c) */
    if (!plain) { /* a plain kernel's stream is drawn: no predicates */
        /* a profile's pending hit (pending.c; pend_thresh 0 unless sm.pending_hits) */
        sl->pend = cst ? cst : (uint8_t)(s->k.pend_thresh && sm__pend_drawn(s, w, in));
        sl->pdst = wp->pdst;
        if (wp->pdst)
            s->ppend[w][wp->pdst] = 1;
    }
    uint8_t wslow = wp->slow[in->div][in->dst]; /* 0 for SM__NO_REG */
    if (in->dst != SM__NO_REG) {
        wp->pend[in->dst] = in->op == SM__OP_LD_GLOBAL ? SM__STALL_MEMORY : SM__STALL_DEP;
        sl->wbank = wp->bank[in->dst];
        sl->wslow = wslow;
        sl->wlanes = wp->tlanes[in->div];
    }
    uint64_t slow_reads =
        plain ? sm__collect_plain(s, w, slot, in) : sm__collect(s, w, slot, in);
    sm_stats *st = s->st;
    st->warp_insts++;
    st->thread_insts += wp->tlanes[in->div];
    /* every operand fast: from the latencies just read, unless kept as drawn */
    st->fast_insts += !plain && s->k.fast_at_next ? in->fast : !(slow_reads | wslow);
    wp->n_inflight++;
    wp->n_issued++;
    if (plain) { /* not FWAS (fast_at_next is clear): no resume point, no passing count */
        q->last = w;
    } else {
        wp->passed = 0;
        q->last = q->resume >= 0 ? q->resume : w;
        q->resume = -1;
    }
    s->last_progress = s->now;
    /* Register-file designs see the instruction before the next one replaces it; here
     * rather than in the operand loop of sm__collect, where even a call never taken
     * cost the loop its registers (+6-7 % host instructions per warp instruction). */
    if (!plain && s->k.issue_hooks) {
        if (s->k.hooks & SM__HOOK_ISSUE)
            sm__designs_issue(s, w, slot, in);
        if (s->k.mem_model) /* memory hazards: replay.c */
            sm__hz_issued(s, slot, in);
    }
    if (--wp->n_left) {
        int unit = in->unit;
        sm__gen_next_as(&s->k, wp, plain);
        /* unconditionally: a test whether the unit changed mispredicts */
        q->unit_mask[unit] &= ~(1ULL << w);
        q->unit_mask[wp->next.unit] |= 1ULL << w;
    } else {
        q->ready &= ~(1ULL << w);
    }
}

/* In order of precedence: a full collector, the in-flight limit, warps waiting for
 * memory, for other results, none.  A table of the five conditions (key bits: 1
 * barrier, 2 dependency, 4 memory, 8 collector, 16 in-flight): as a chain of selects,
 * GCC evaluated it twice, once for q->cls's byte and once for stall_n's index (about
 * 13 host instructions more per scheduler cycle without an issue).  Debug builds
 * check it against the chain. */
#define CL_I SM__STALL_IDLE
#define CL_M SM__STALL_MEMORY
#define CL_D SM__STALL_DEP
#define CL_C SM__STALL_COLLECTOR
#define CL_F SM__STALL_INFLIGHT
#define CL_B SM__STALL_BARRIER
static const uint8_t cls_table[32] = {
    CL_I, CL_B, CL_D, CL_D, CL_M, CL_M, CL_M, CL_M, /* neither structural bit */
    CL_C, CL_C, CL_C, CL_C, CL_C, CL_C, CL_C, CL_C, /* a full collector */
    CL_F, CL_F, CL_F, CL_F, CL_F, CL_F, CL_F, CL_F, /* the in-flight limit */
    CL_C, CL_C, CL_C, CL_C, CL_C, CL_C, CL_C, CL_C, /* both */
};
#undef CL_I
#undef CL_M
#undef CL_D
#undef CL_C
#undef CL_F
#undef CL_B
_Static_assert(1u << SM__STALL_COLLECTOR == 8 && 1u << SM__STALL_INFLIGHT == 16,
               "why's two bits are the key's top two");

#ifndef NDEBUG
static unsigned classify_chain(const sm__sched *q)
{
    int k = q->barrier ? SM__STALL_BARRIER : SM__STALL_IDLE;
    k = q->n_wait[SM__STALL_DEP] ? SM__STALL_DEP : k;
    k = q->n_wait[SM__STALL_MEMORY] ? SM__STALL_MEMORY : k;
    k = q->why & (1u << SM__STALL_INFLIGHT) ? SM__STALL_INFLIGHT : k;
    k = q->why & (1u << SM__STALL_COLLECTOR) ? SM__STALL_COLLECTOR : k;
    return (unsigned)k;
}
#endif

static unsigned classify(const sm__sched *q)
{
    unsigned key = (unsigned)(q->barrier != 0) | (unsigned)(q->n_wait[SM__STALL_DEP] != 0) << 1 |
                   (unsigned)(q->n_wait[SM__STALL_MEMORY] != 0) << 2 | (q->why & 0x18u);
    assert(cls_table[key] == classify_chain(q));
    return cls_table[key];
}

/* A scheduler that issued nothing leaves its state at a fixed point: the warps it tried
 * are now blocked on the scoreboard (out of `ready`), and every policy changes its own
 * state only when it issues.  Until something it reads changes (a register written
 * that a warp waits for, a launch, retirement, barrier release or park: each sets its
 * bit in sched_dirty; or units_full), each cycle would repeat that outcome, so it
 * charges the same stall without running the policy.  A warp refused for the
 * in-flight limit may go on at any completion: that scheduler does not settle. */
static inline __attribute__((always_inline)) void issue_sched(sm_sim *s, int i, bool plain)
{
    sm__sched *q = &s->sched[i];
    uint64_t cand = sm__sched_cand_as(s, q, plain);
    /* a warp at its block's barrier is no candidate, but not for want of a
     * collector: only the warps a full unit keeps out make this a collector stall */
    q->why = (uint8_t)((cand != sm__sched_avail(q, plain)) << SM__STALL_COLLECTOR);
    /* the base policy called directly: the common case, inlined (and with no
     * candidate its loop ends at once: no separate test) */
    int w = -1;
    if (cand)
        w = s->k.lrr ? sm__lrr_in_as(s, q, cand, q->last, false, true)
                                          : s->k.policy->pick(s, q, cand, false);
    if (w >= 0) {
        issue_warp(s, q, w, plain);
        s->sched_dirty |= 1u << i; /* its warp's next instruction is untried */
        return;
    }
    unsigned cls = classify(q);
    q->cls = (uint8_t)cls;
    s->stall_n[cls]++;
    q->full_seen = s->units_full;
    s->sched_dirty &= ~((unsigned)!(q->why & 1u << SM__STALL_INFLIGHT) << i);
}

#ifndef NDEBUG
/* Debug builds check a settled scheduler against the run it skips: it has no candidate
 * left (the ones it tried are blocked, none was refused for the in-flight limit), and
 * the stall is the one charged. */
static bool settled_exact(const sm_sim *s, const sm__sched *q)
{
    sm__sched copy = *q;
    copy.why = (uint8_t)((q->ready & ~q->barrier & ~q->ib_empty) != sm__sched_cand(s, q)) << SM__STALL_COLLECTOR;
    return !sm__sched_cand(s, q) && classify(&copy) == q->cls;
}
#endif

/* Scheduler i's cycle: run it, or charge its settled stall. */
static inline __attribute__((always_inline)) void issue_one(sm_sim *s, int i, bool plain)
{
    const sm__sched *q = &s->sched[i];
    if (!sm__sched_settled(s, i))
        issue_sched(s, i, plain);
    else {
        assert(settled_exact(s, q));
        s->stall_n[q->cls]++;
    }
}

/* plain: k.plain, a constant in each copy */
static inline __attribute__((always_inline)) void issue(sm_sim *s, bool plain)
{
    /* Replays first, and the MSHR tracker holds loads predicted to miss (replay.c):
     * one test before the loop, not one per scheduler in it nor one after it (each
     * cost 0.7-1.2 % host instructions on pns, callgrind) */
    if (!plain) { /* a plain kernel has neither */
        if (__builtin_expect(s->k.replay, 0))
            sm__hz_pre_issue(s);
        s->sched_dirty |= s->k.sched_always;
        for (int i = 0; i < s->c->n_schedulers; i++)
            issue_one(s, i, false);
        return;
    }
    /* a plain kernel has SM__PLAIN_SCHED schedulers: one copy of the stage per
     * scheduler, each with its index, bit and record as constants */
    _Static_assert(SM__PLAIN_SCHED == 2, "one call per scheduler");
    issue_one(s, 0, true);
    issue_one(s, 1, true);
}

void sm__issue(sm_sim *s) { issue(s, false); }
void sm__issue_plain(sm_sim *s) { issue(s, true); }
