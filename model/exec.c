/* Execution: dispatch from operand collectors into the SP, SFU and LD/ST pipelines,
 * and completion of results into the write queues.
 *
 * Every operation class has one constant latency, so the instructions of a class
 * complete in dispatch order and each completion queue is a FIFO.  Pipelines accept
 * one warp instruction per `interval` cycles: Fermi's 16-wide SP groups and LD/ST
 * units run on a doubled hot clock (one warp per core cycle), its 4 SFUs need 4 core
 * cycles per warp, and divides are not fully pipelined (GPGPU-Sim GTX480 initiation
 * intervals: int div 8, fp div 4). */
#include "sm_internal.h"

const sm__op_info sm__ops[SM__N_OPS] = {
    [SM__OP_INT] = { SM__UNIT_SP, SM__LAT_INT, 1, 0 },
    [SM__OP_INT_MAD] = { SM__UNIT_SP, SM__LAT_INT_MAD, 1, 0 },
    [SM__OP_INT_DIV] = { SM__UNIT_SP, SM__LAT_INT_DIV, 8, 0 },
    [SM__OP_FP] = { SM__UNIT_SP, SM__LAT_FP, 1, 0 },
    [SM__OP_FP_MAD] = { SM__UNIT_SP, SM__LAT_FP_MAD, 1, 0 },
    [SM__OP_FP_DIV] = { SM__UNIT_SP, SM__LAT_FP_DIV, 4, 0 },
    [SM__OP_SFU] = { SM__UNIT_SFU, SM__LAT_SFU, 4, 0 },
    [SM__OP_LD_GLOBAL] = { SM__UNIT_MEM, SM__LAT_L1_HIT, 1, 0 },
    [SM__OP_ST_GLOBAL] = { SM__UNIT_MEM, SM__LAT_L1_HIT, 1, 1 },
    [SM__OP_LD_SHARED] = { SM__UNIT_MEM, SM__LAT_SHARED, 1, 0 },
    [SM__OP_ST_SHARED] = { SM__UNIT_MEM, SM__LAT_SHARED, 1, 1 },
};

/* Oldest collector of unit u whose operands have all arrived, or -1. */
static int oldest_ready(const sm_sim *s, int u, uint64_t full, int *n_ready)
{
    int best = -1;
    uint64_t best_seq = UINT64_MAX;
    *n_ready = 0;
    for (uint64_t m = full; m; m &= m - 1) {
        const sm__collector *co = &s->coll[s->coll_base[u] + __builtin_ctzll(m)];
        if (co->ready_at > s->now)
            continue;
        ++*n_ready;
        if (co->seq < best_seq) {
            best_seq = co->seq;
            best = __builtin_ctzll(m);
        }
    }
    return best;
}

static void start(sm_sim *s, uint16_t slot)
{
    sm__slot *sl = &s->slots[slot];
    const sm__op_info *oi = &sm__ops[sl->op];
    if (oi->is_store) { /* nothing to write back: done once it leaves the collector */
        int w = sl->warp;
        sm__slot_free(s, slot);
        sm__inst_done(s, w);
        return;
    }
    int lat = oi->unit == SM__UNIT_MEM ? sm__mem_lat(s, sl) : oi->lat;
    sl->lat = (uint8_t)lat;
    sl->done_at = s->now + s->k.lat[lat];
    sl->next = SM__NIL;
    if (s->cq_busy & (1u << lat))
        s->slots[s->cq_tail[lat]].next = slot;
    else
        s->cq_head[lat] = slot;
    s->cq_tail[lat] = slot;
    s->cq_busy |= 1u << lat;
}

static void dispatch_unit(sm_sim *s, int u)
{
    int n_ready = 0;
    for (int p = 0; p < s->n_pipes[u] && s->coll_full[u]; p++) {
        if (s->pipe_free[u][p] > s->now)
            continue;
        int bit = oldest_ready(s, u, s->coll_full[u], &n_ready);
        if (bit < 0)
            return;
        sm__collector *co = &s->coll[s->coll_base[u] + bit];
        const sm__slot *sl = &s->slots[co->slot];
        if (u == SM__UNIT_MEM && !sm__mem_accept(s, sl)) {
            s->st->mshr_stalls++;
            break;
        }
        s->pipe_free[u][p] = s->now + sm__ops[sl->op].interval;
        s->coll_full[u] &= ~(1ULL << bit);
        s->coll_free[u] |= 1ULL << bit;
        s->coll_busy--;
        start(s, co->slot);
    }
    if (s->coll_full[u]) {
        oldest_ready(s, u, s->coll_full[u], &n_ready);
        s->st->dispatch_stalls += (uint64_t)n_ready;
    }
}

void sm__dispatch(sm_sim *s)
{
    for (int u = 0; u < SM__N_UNITS; u++)
        if (s->coll_full[u])
            dispatch_unit(s, u);
}

void sm__complete(sm_sim *s)
{
    for (uint32_t m = s->cq_busy; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint16_t h;
        while ((h = s->cq_head[l]) != SM__NIL && s->slots[h].done_at <= s->now) {
            s->cq_head[l] = s->slots[h].next;
            if (s->cq_head[l] == SM__NIL)
                s->cq_busy &= ~(1u << l);
            sm__mem_done(s, l);
            sm__write_enqueue(s, h);
        }
    }
}

int64_t sm__next_completion(const sm_sim *s)
{
    int64_t t = INT64_MAX;
    for (uint32_t m = s->cq_busy; m; m &= m - 1) {
        int64_t d = s->slots[s->cq_head[__builtin_ctz(m)]].done_at;
        t = d < t ? d : t;
    }
    return t;
}
