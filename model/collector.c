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
    int u = in->unit, n_src = in->n_src;
    uint64_t free = s->coll_free[u];
    int bit = __builtin_ctzll(free);
    free &= free - 1;
    s->coll_free[u] = free;
    s->units_full |= (unsigned)(free == 0) << u;
    int ci = s->coll_base[u] + bit;
    /* field by field: a compound literal also stores the padding */
    sm__collector *co = &s->coll[ci];
    co->ready_at = s->now + 1; /* reads start next cycle */
    co->seq = s->seq++;
    co->slot = slot;
    co->pending = (uint8_t)n_src;
    co->unit = (uint8_t)u;
    co->bit = (uint8_t)bit;
    s->coll_busy++;
    s->coll_full[u] |= (uint64_t)(n_src == 0) << bit;
    const sm__warp *wp = &s->warps[w];
    const uint8_t *slow = wp->slow[in->div];
    uint8_t parts = wp->parts[in->div];
    uint64_t banks = 0;
    for (int i = 0; i < n_src; i++) {
        int reg = in->src[i], b = wp->bank[reg];
        uint16_t r = (uint16_t)(ci * SM__MAX_SRC + i);
        sm__req *rq = &s->req[r];
        rq->next = SM__NIL;
        rq->coll = (uint8_t)ci;
        rq->slow = slow[reg];
        rq->parts = parts;
        if (s->rq_len[b]++)
            s->req[s->rq_tail[b]].next = r;
        else
            s->rq_head[b] = r;
        s->rq_tail[b] = r;
        banks |= 1ULL << b;
    }
    s->rq_banks |= banks;
}

/* Per bank with a free read port, grant the oldest request.  Counters are kept in
 * locals and stored once: stores through the uint8_t/uint16_t fields may alias them. */
void sm__read_operands(sm_sim *s)
{
    if (!s->rq_banks)
        return; /* most cycles of a memory-bound kernel */
    const int64_t now = s->now;
    uint64_t banks = s->rq_banks, conflicts = 0, slow_reads = 0;
    for (uint64_t m = banks; m; m &= m - 1) {
        int b = __builtin_ctzll(m);
        unsigned len = s->rq_len[b];
        if (s->read_free[b] > now) {
            conflicts += len;
            continue;
        }
        sm__req rq = s->req[s->rq_head[b]];
        s->rq_head[b] = rq.next;
        s->rq_len[b] = (uint16_t)--len;
        banks &= ~((uint64_t)(len == 0) << b); /* selects, not branches: unpredictable */
        conflicts += len;
        int64_t at = now + 1 + rq.slow;
        s->read_free[b] = at;
        slow_reads += rq.slow;
        s->rd_parts[b][rq.parts]++; /* reads and bank_reads are summed from it (sim.c) */
        sm__collector *co = &s->coll[rq.coll];
        co->ready_at = co->ready_at < at ? at : co->ready_at;
        s->coll_full[co->unit] |= (uint64_t)(--co->pending == 0) << co->bit;
    }
    s->rq_banks = banks;
    s->st->bank_read_conflicts += conflicts;
    s->st->slow_reads += slow_reads;
}
