/* The instruction front end of GPGPU-Sim (sm.frontend = "gpgpusim"; docs/model.md,
 * "GPGPU-Sim's front end", names the lines of shader.cc each rule follows).
 *
 * Each warp has a two-entry instruction buffer; the scheduler sees a warp only while
 * its buffer holds a decoded instruction (q->ib_empty).  After the issue stage, in
 * GPGPU-Sim's order: stale buffers are flushed, the fetch buffer is decoded into its
 * warp's buffer (two instructions, or the one left), and one warp whose buffer is empty
 * is fetched, round robin over the warp slots from the last one fetched.  So a fetch
 * at cycle t is issuable at t + 2, one warp is fetched per cycle per SM, and a warp
 * issues at most two instructions per three cycles on its own.
 *
 * A control hazard (an issued instruction whose successor is not at PC + size: a
 * taken branch, a divergent or reconverging one; sm_trace_inst.redirect) makes the
 * rest of the buffer the wrong path: it is flushed in the next cycle, when the
 * scheduler looks at the warp again, and the warp is refetched.  Were the hazard the
 * buffer's last entry, the next fetch (at PC + size) is the wrong path: decoded, then
 * flushed a cycle later.  The I-cache always hits (its misses are not modelled), and
 * a profile has no branches, so there only the fetch bandwidth acts. */
#include "sm_internal.h"

static void set_empty(sm_sim *s, int w, bool empty)
{
    sm__sched *q = &s->sched[s->warps[w].sched];
    q->ib_empty = empty ? q->ib_empty | 1ULL << w : q->ib_empty & ~(1ULL << w);
    s->sched_dirty |= 1u << s->warps[w].sched;
}

void sm__fe_warp(sm_sim *s, int w)
{
    sm__warp *wp = &s->warps[w];
    wp->ib_n = wp->ib_stale = wp->ib_wrong = 0;
    wp->ib_at = 0;
    s->fe_stale &= ~(1ULL << w);
    s->fe_want |= 1ULL << w;
    set_empty(s, w, true);
}

void sm__fe_issued(sm_sim *s, sm__sched *q, int w, bool redirect)
{
    sm__warp *wp = &s->warps[w];
    assert(wp->ib_n > 0 && !wp->ib_stale);
    wp->ib_n--;
    if (redirect && wp->ib_n) { /* the entry left is the wrong path */
        wp->ib_stale = 1;
        wp->ib_at = s->now;
        s->fe_stale |= 1ULL << w;
    } else if (redirect) {
        wp->ib_wrong = 1;
    }
    if (!wp->ib_n || wp->ib_stale)
        q->ib_empty |= 1ULL << w;
    /* n_left still counts this instruction (issue_warp decrements it after) */
    if (!wp->ib_n && wp->n_left > 1)
        s->fe_want |= 1ULL << w;
}

/* The first warp slot after the last one fetched whose buffer is empty and that has
 * instructions left (fe_want), or -1. */
static int next_fetch(const sm_sim *s)
{
    if (!s->fe_want)
        return -1;
    uint64_t after = s->fe_last >= 63 ? 0 : s->fe_want & ~((2ULL << s->fe_last) - 1);
    return __builtin_ctzll(after ? after : s->fe_want);
}

void sm__fe_cycle(sm_sim *s)
{
    for (uint64_t m = s->fe_stale; m; m &= m - 1) { /* flushed when looked at again */
        int w = __builtin_ctzll(m);
        sm__warp *wp = &s->warps[w];
        if (wp->ib_at < s->now) {
            wp->ib_n = wp->ib_stale = 0;
            s->fe_stale &= ~(1ULL << w);
            s->fe_want |= (uint64_t)(wp->n_left > 0) << w;
        }
    }
    if (s->fe_buf >= 0) { /* decode */
        int w = s->fe_buf;
        sm__warp *wp = &s->warps[w];
        s->fe_buf = -1;
        if (s->sched[wp->sched].warps >> w & 1) {
            wp->ib_n = (uint8_t)(wp->n_left < 2 ? wp->n_left : 2);
            if (wp->ib_wrong) {
                wp->ib_wrong = 0;
                wp->ib_stale = 1;
                wp->ib_at = s->now;
                s->fe_stale |= 1ULL << w;
            } else {
                set_empty(s, w, false);
            }
        }
    }
    int w = next_fetch(s); /* fetch */
    if (w >= 0) {
        s->fe_buf = w;
        s->fe_last = w;
        s->fe_want &= ~(1ULL << w);
    }
}
