/* Loose round-robin (the base policy): the first ready warp after the one that issued
 * last, in warp-slot order. */
#include "sm_internal.h"

/* Tries the warps of `mask` in slot order starting after `after`; shared with the
 * two-level scheduler, which runs it inside its active group. */
int sm__sched_lrr_in(sm_sim *s, sm__sched *q, uint64_t mask, int after, bool fast_only)
{
    int start = after + 1;
    uint64_t hi = start >= 64 ? 0 : mask & (~0ULL << start);
    uint64_t parts[2] = { hi, mask & ~hi };
    for (int h = 0; h < 2; h++)
        for (uint64_t m = parts[h]; m; m &= m - 1) {
            int w = __builtin_ctzll(m);
            if (sm__sched_try(s, q, w, fast_only))
                return w;
        }
    return -1;
}

static int pick(sm_sim *s, sm__sched *q, uint64_t cand, bool fast_only)
{
    return sm__sched_lrr_in(s, q, cand, q->last, fast_only);
}

const sm__sched_policy sm__sched_lrr = { "lrr", pick };
