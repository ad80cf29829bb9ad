/* Two-level scheduling (Narasiman et al., MICRO 2011): a scheduler's warps form fixed
 * groups of sm_config.group_size; only the active group issues (round-robin inside),
 * and the scheduler moves on to the next group only when no warp of the active group
 * can issue.  Groups then reach long-latency operations at different times, which
 * hides latency better than round-robin over all warps. */
#include "sm_internal.h"


static int pick(sm_sim *s, sm__sched *q, uint64_t cand, bool fast_only)
{
    for (int i = 0; i < q->n_groups; i++) {
        int g = (q->group + i) % q->n_groups;
        uint64_t m = cand & q->group_mask[g];
        if (!m)
            continue;
        int w = sm__sched_lrr_in(s, q, m, q->last, fast_only);
        if (w >= 0) {
            q->group = g;
            return w;
        }
    }
    return -1;
}

const sm__sched_policy sm__sched_two_level = { "two_level", pick };
