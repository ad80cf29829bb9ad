/* Loose round-robin (the base policy): the first ready warp after the one that issued
 * last, in warp-slot order. */
#include "sm_internal.h"

int sm__sched_lrr_in(sm_sim *s, sm__sched *q, uint64_t mask, int after, bool fast_only)
{
    return sm__lrr_in_as(s, q, mask, after, fast_only, false);
}

static int pick(sm_sim *s, sm__sched *q, uint64_t cand, bool fast_only)
{
    return sm__sched_lrr_in(s, q, cand, q->last, fast_only);
}

const sm__sched_policy sm__sched_lrr = { "lrr", pick };
