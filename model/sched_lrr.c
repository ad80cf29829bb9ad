/* Loose round-robin (the base policy): the first ready warp after the one that issued
 * last, in warp-slot order. */
#include "sm_internal.h"

/* Tries the warps of `mask` in slot order starting after `after`; shared with the
 * two-level scheduler, which runs it inside its active group.  drawn: the stream is
 * drawn (no trace predicates), a constant in each copy. */
static inline __attribute__((always_inline)) int lrr_in(sm_sim *s, sm__sched *q, uint64_t mask,
                                                        int after, bool fast_only, bool drawn)
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

int sm__sched_lrr_in(sm_sim *s, sm__sched *q, uint64_t mask, int after, bool fast_only)
{
    return lrr_in(s, q, mask, after, fast_only, false);
}

int sm__sched_lrr_plain(sm_sim *s, sm__sched *q, uint64_t mask)
{
    return lrr_in(s, q, mask, q->last, false, true);
}

static int pick(sm_sim *s, sm__sched *q, uint64_t cand, bool fast_only)
{
    return sm__sched_lrr_in(s, q, cand, q->last, fast_only);
}

const sm__sched_policy sm__sched_lrr = { "lrr", pick };
