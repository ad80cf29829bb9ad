/* Fast-warp-aware scheduling (model.md section 5): an instruction whose operands all
 * sit in fast storage has priority over ready instructions that touch a slow bank;
 * among equals the base policy (sm_config.base_policy) decides.
 *
 * Three refinements, each measured (docs/model.md, "FWAS"):
 *  - a fast instruction jumps the queue only when the base policy's slow choice would
 *    wait behind another access at one of its slow banks: otherwise reordering only
 *    leaves the slow banks, the busiest ports, idle and then bursts into them;
 *  - only a warp that is not ahead of the passed-over one in its instruction stream
 *    may jump: fast and slow instructions cluster by warp (bank = (warp + reg) mod n),
 *    so an unrestricted priority lets the "fast" warps of a block run ahead, the
 *    block then waits for its slow warps and the SM loses occupancy to block tails;
 *  - a slow instruction is passed over at most SM__FWAS_PATIENCE times in a row,
 *    after which it keeps its place in the base order (starvation limit). */
#include "sm_internal.h"

/* Would the instruction queue behind another access at one of its slow banks? */
static bool busy_slow_bank(const sm_sim *s, const sm__warp *wp)
{
    const sm__inst *in = &wp->next;
    for (int i = 0; i < in->n_src; i++) {
        int r = in->src[i];
        if (wp->slow[in->div][r] && sm__port_read_busy(s, wp->bank[r]))
            return true;
    }
    return false;
}

/* Warps of `mask` that are not further along their instruction stream than `wp`. */
static uint64_t not_ahead(const sm_sim *s, uint64_t mask, const sm__warp *wp)
{
    uint64_t ok = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        int x = __builtin_ctzll(m);
        if (s->warps[x].n_left >= wp->n_left)
            ok |= 1ULL << x;
    }
    return ok;
}

static int pick(sm_sim *s, sm__sched *q, uint64_t cand, bool fast_only)
{
    const sm__sched_policy *base = s->k.base;
    int w = base->pick(s, q, cand, fast_only);
    if (w < 0 || fast_only || s->warps[w].next.fast)
        return w;
    sm__warp *slow = &s->warps[w];
    if (slow->passed >= SM__FWAS_PATIENCE || !busy_slow_bank(s, slow))
        return w;
    int f = base->pick(s, q, not_ahead(s, cand & q->ready & ~(1ULL << w), slow), true);
    if (f < 0)
        return w;
    slow->passed++;
    /* the passed-over warp stays first in the base order (LRR resumes at it; GTO
     * keeps it as its greedy warp) */
    q->resume = s->k.base == &sm__sched_lrr ? w - 1 : w;
    return f;
}

const sm__sched_policy sm__sched_fwas = { "fwas", pick };
