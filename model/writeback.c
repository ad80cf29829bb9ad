/* Writeback: results queue at their destination register's bank; each bank's write
 * port grants them in arrival order, one at a time, from the cycle after the result
 * leaves its pipeline; the port stays busy 1 cycle (fast) or 2 (slow).  The
 * scoreboard releases the register when the write has finished: in the grant's
 * cycle for a fast write (a dependent instruction may issue in the same cycle and
 * reads the register next cycle), a cycle later for a slow one.
 *
 * As for reads (collector.c), a write's grant cycle is fixed when its result arrives
 * (sm__port_write in sm_internal.h): the waiting cycles are charged as bank conflicts,
 * and the release is an event in the completion wheel (exec.c) instead of a queue
 * scanned every cycle. */
#include "sm_internal.h"

/* Grants the write of a result that leaves its pipeline this cycle; returns the
 * cycle its register is released.  writes and bank_writes are summed from wr_lanes
 * at the end of the run (sim.c). */
static inline int64_t write(sm_sim *s, uint16_t slot, bool rules, bool plain)
{
    const sm__slot *sl = &s->slots[slot];
    int slow = sl->wslow;
    if (rules && s->k.coalesce)
        s->port_tag = sm__coalesce_write_tag(s, slot);
    int64_t grant = plain ? sm__port_write_plain(s, sl->wbank, slow, sl->wlanes)
                          : sm__port_write_as(s, sl->wbank, slow, sl->wlanes, rules);
    s->st->bank_write_conflicts += (uint64_t)(grant - (s->now + 1));
    s->st->slow_writes += (uint64_t)slow;
    s->n_wq++;
    return grant + slow;
}

/* sm.slow_access / sm.bro_ports (slow_access.c), out of line: a test and a call of five
 * arguments inside the hot write cost +1.3 % host instructions per warp instruction. */
static int64_t __attribute__((cold, noinline)) write_rules(sm_sim *s, uint16_t slot)
{
    return write(s, slot, true, false);
}

int64_t sm__write(sm_sim *s, uint16_t slot)
{
    if (__builtin_expect(s->k.port_rules, 0))
        return write_rules(s, slot);
    return write(s, slot, false, false);
}

int64_t sm__write_plain(sm_sim *s, uint16_t slot) { return write(s, slot, false, true); }

/* sm__sched_wake's steps for predicate p (a warp waiting for register p wakes too:
 * sm__pred_pending), here so that the hot wake keeps its callers. */
static void __attribute__((cold, noinline)) release_pred(sm_sim *s, int w, int p)
{
    s->ppend[w][p] = 0;
    sm__warp *wp = &s->warps[w];
    if (wp->wait_reg == p) { /* SM__NOT_WAITING equals no predicate */
        s->sched[wp->sched].n_wait[wp->wait_kind]--;
        wp->wait_reg = SM__NOT_WAITING;
        s->sched[wp->sched].ready |= 1ULL << w;
        s->sched_dirty |= 1u << wp->sched;
    }
}

/* plain: k.plain, so no design has a write hook */
static inline void release(sm_sim *s, uint16_t slot, bool plain)
{
    /* designs see register writes only: their hooks pass a slot without one (a
     * predicate's) by */
    if (!plain && (s->k.hooks & SM__HOOK_WRITE))
        sm__designs_write(s, slot);
    const sm__slot *sl = &s->slots[slot];
    int w = sl->warp, dst = sl->dst;
    s->n_wq--;
    s->warps[w].pend[dst] = 0;
    sm__sched_wake(s, w, dst);
    if (!plain && sl->pdst != 0) /* a trace's predicate (plain: a drawn stream) */
        release_pred(s, w, sl->pdst);
    sm__slot_free(s, slot);
    sm__inst_done(s, w);
}

void sm__release(sm_sim *s, uint16_t slot) { release(s, slot, false); }
void sm__release_plain(sm_sim *s, uint16_t slot) { release(s, slot, true); }
