/* Writeback: results queue at their destination register's bank; each bank grants one
 * write per cycle when its write port is free, busy 1 cycle (fast) or 2 (slow).  The
 * scoreboard releases the register when the write has finished: at once for a fast
 * write (a dependent instruction may issue in the same cycle and reads the register
 * next cycle), a cycle later for a slow one. */
#include "sm_internal.h"

void sm__write_enqueue(sm_sim *s, uint16_t slot)
{
    sm__slot *sl = &s->slots[slot];
    int b = sl->wbank;
    sl->next = SM__NIL;
    uint16_t *link = s->wq_len[b]++ ? &s->slots[s->wq_tail[b]].next : &s->wq_head[b];
    *link = slot;
    s->wq_tail[b] = slot;
    s->wq_banks |= 1ULL << b;
    s->n_wq++;
}

static inline __attribute__((always_inline)) void release(sm_sim *s, uint16_t slot)
{
    const sm__slot *sl = &s->slots[slot];
    int w = sl->warp, dst = sl->dst;
    s->warps[w].pend[dst] = 0;
    sm__sched_wake(s, w, dst);
    sm__slot_free(s, slot);
    sm__inst_done(s, w);
}

/* writes and bank_writes are summed from wr_parts at the end of the run (sim.c) */
static void count_write(sm_sim *s, int b, int parts, int slow)
{
    s->st->slow_writes += (uint64_t)slow;
    s->wr_parts[b][parts]++;
}

static void grant(sm_sim *s, int b)
{
    uint16_t h = s->wq_head[b];
    sm__slot *sl = &s->slots[h];
    s->wq_head[b] = sl->next;
    if (--s->wq_len[b] == 0)
        s->wq_banks &= ~(1ULL << b);
    s->n_wq--;
    s->st->bank_write_conflicts += s->wq_len[b];
    int slow = sl->wslow;
    s->write_free[b] = s->now + 1 + slow;
    count_write(s, b, sl->wparts, slow);
    if (!slow) {
        release(s, h);
        return;
    }
    sl->done_at = s->now + slow; /* FIFO: every slow write waits the same */
    sl->next = SM__NIL;
    if (s->rel_head == SM__NIL)
        s->rel_head = h;
    else
        s->slots[s->rel_tail].next = h;
    s->rel_tail = h;
}

void sm__writeback(sm_sim *s)
{
    uint16_t h;
    while ((h = s->rel_head) != SM__NIL && s->slots[h].done_at <= s->now) {
        s->rel_head = s->slots[h].next;
        release(s, h);
    }
    for (uint64_t m = s->wq_banks; m; m &= m - 1) {
        int b = __builtin_ctzll(m);
        if (s->write_free[b] > s->now)
            s->st->bank_write_conflicts += s->wq_len[b];
        else
            grant(s, b);
    }
}
