/* Operand collectors and the bank read arbiter.
 *
 * At issue an instruction takes a free collector unit of its execution unit's kind
 * and queues one read request per distinct source register at that register's bank.
 * Each cycle the arbiter grants, per bank whose read port is free, the oldest request
 * (FIFO per bank, so no collector starves); the port stays busy 1 cycle for fast
 * storage and 2 for slow.  Requests to one bank therefore serialise: that is the bank
 * conflict.  A collector whose reads are all granted may dispatch once the last
 * operand has arrived (ready_at). */
#include "sm_internal.h"

void sm__collect(sm_sim *s, int w, uint16_t slot, const sm__inst *in)
{
    int u = in->unit;
    int bit = __builtin_ctzll(s->coll_free[u]);
    s->coll_free[u] &= s->coll_free[u] - 1;
    int ci = s->coll_base[u] + bit;
    sm__collector *co = &s->coll[ci];
    co->slot = slot;
    co->unit = (uint8_t)u;
    co->bit = (uint8_t)bit;
    co->pending = in->n_src;
    co->ready_at = s->now + 1; /* reads start next cycle */
    co->seq = s->seq++;
    s->coll_busy++;
    if (!in->n_src)
        s->coll_full[u] |= 1ULL << bit;
    const sm__warp *wp = &s->warps[w];
    for (int i = 0; i < in->n_src; i++) {
        uint16_t r = (uint16_t)(ci * SM__MAX_SRC + i);
        sm__req *rq = &s->req[r];
        rq->next = SM__NIL;
        rq->coll = (uint8_t)ci;
        rq->reg = in->src[i];
        rq->warp = (uint8_t)w;
        rq->div = in->div;
        int b = wp->bank[in->src[i]];
        if (s->rq_len[b]++)
            s->req[s->rq_tail[b]].next = r;
        else
            s->rq_head[b] = r;
        s->rq_tail[b] = r;
        s->rq_banks |= 1ULL << b;
    }
}

static void count_read(sm_sim *s, int b, const sm__warp *wp, int div, int slow)
{
    sm_stats *st = s->st;
    st->reads++;
    st->slow_reads += (uint64_t)slow;
    st->bank_reads[b]++;
    s->rd_parts[b][wp->parts[div]]++;
}

void sm__read_operands(sm_sim *s)
{
    for (uint64_t m = s->rq_banks; m; m &= m - 1) {
        int b = __builtin_ctzll(m);
        if (s->read_free[b] > s->now) {
            s->st->bank_read_conflicts += s->rq_len[b];
            continue;
        }
        const sm__req *rq = &s->req[s->rq_head[b]];
        s->rq_head[b] = rq->next;
        if (--s->rq_len[b] == 0)
            s->rq_banks &= ~(1ULL << b);
        s->st->bank_read_conflicts += s->rq_len[b];
        const sm__warp *wp = &s->warps[rq->warp];
        int slow = wp->slow[rq->div][rq->reg];
        s->read_free[b] = s->now + 1 + slow;
        count_read(s, b, wp, rq->div, slow);
        sm__collector *co = &s->coll[rq->coll];
        if (co->ready_at < s->now + 1 + slow)
            co->ready_at = s->now + 1 + slow;
        if (--co->pending == 0)
            s->coll_full[co->unit] |= 1ULL << co->bit;
    }
}
