/* Fast-warp-aware scheduling (model.md section 5): an instruction whose operands all
 * sit in fast storage has priority over ready instructions that touch a slow bank;
 * among equals the base policy (sm_config.base_policy) decides.  Two passes of the
 * base policy: fast instructions only, then any. */
#include "sm_internal.h"

static int pick(sm_sim *s, sm__sched *q, uint64_t cand, bool fast_only)
{
    const sm__sched_policy *base = s->k.base;
    int w = base->pick(s, q, cand, true);
    if (w < 0 && !fast_only)
        w = base->pick(s, q, cand & q->ready, false);
    return w;
}

const sm__sched_policy sm__sched_fwas = { "fwas", pick };
