/* Greedy-then-oldest: keep issuing from the warp that issued last while it can, else
 * the oldest (earliest launched) warp that can. */
#include "sm_internal.h"

static int pick(sm_sim *s, sm__sched *q, uint64_t cand, bool fast_only)
{
    if (q->last >= 0 && (cand >> q->last & 1) && sm__sched_try(s, q, q->last, fast_only))
        return q->last;
    for (int i = 0; i < q->n_age; i++) {
        int w = q->by_age[i];
        if (w != q->last && (cand >> w & 1) && sm__sched_try(s, q, w, fast_only))
            return w;
    }
    return -1;
}

const sm__sched_policy sm__sched_gto = { "gto", pick };
