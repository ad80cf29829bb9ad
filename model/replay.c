/* Replay buffers and the issue stage's MSHR tracking (docs/replay.md, Turner 2012).
 *
 * A squashed load (mem_hazard.c) waits in its warp's replay buffer (8 entries, oldest
 * first) while the warp's younger instructions go on issuing.  Each cycle, before a
 * scheduler picks a new instruction, it re-issues the oldest replay among its warps
 * whose unit has a free collector and that the MSHR tracker lets through; the replay
 * takes that scheduler's issue slot and an LD/ST collector, and re-reads its address
 * operands through the bank read ports (replay_collect), so replays cost bank bandwidth
 * and count in the per-access statistics (reads, sub_reads: NBTI duty and energy).
 *
 * Trackers act on loads predicted to miss (predict.c), first issues and replays alike:
 *  - naive: issue only if an MSHR is free now;
 *  - credit: take one of max_misses credits at issue; the credit reserves an MSHR
 *    (loads without one cannot take a reserved MSHR, mem_hazard.c) and becomes the
 *    MSHR at the memory stage, or returns there if the load hits.  Loads predicted to
 *    hit take no credit, so the tracker is not strict. */
#include "sm_internal.h"

void sm__replay_push(sm_sim *s, int w, uint16_t slot)
{
    sm__hz *hz = &s->hz;
    int e = (hz->head[w] + hz->count[w]) % SM__REPLAY_ENTRIES;
    hz->buf[w][e] = slot;
    hz->buf_seq[w][e] = hz->seq++;
    hz->count[w]++;
    hz->n_replay++;
}

/* `promised`: credits that earlier schedulers of this cycle may still take. */
static bool allows(const sm_sim *s, const sm__hz_slot *h, int promised)
{
    switch (s->c->mshr_tracker) {
    case SM_TRACKER_NAIVE:
        return s->misses < s->c->max_misses;
    case SM_TRACKER_CREDIT:
        return h->credit || s->c->max_misses - s->misses - s->hz.reserved - promised > 0;
    default:
        return true;
    }
}

bool sm__tracker_allows(const sm_sim *s, const sm__hz_slot *h) { return allows(s, h, 0); }

/* A load issues (first time or replay): predict, and with the credit tracker take a
 * credit for a predicted miss (sm__tracker_allows() said one is there). */
static void predict_at_issue(sm_sim *s, sm__hz_slot *h)
{
    h->pred_miss = sm__predict_miss(s, h);
    h->checked = 0;
    if (h->pred_miss && !h->credit && s->c->mshr_tracker == SM_TRACKER_CREDIT) {
        h->credit = 1;
        s->hz.reserved++;
    }
}

/* The load-site ID, request count and (site_bias) hit of a synthetic load; a
 * micro-kernel (tests) or a trace gives its own. */
static void complete_load(const sm_sim *s, int w, sm__inst *in)
{
    if (!s->k.own_stream) /* a micro-kernel's or trace's loads carry their own */
        sm__hz_draw(&s->k, &s->warps[w], in);
}

/* Every instruction issued under the hazard model (sched.c issue_warp, after the
 * operand reads and before the warp's next instruction is drawn). */
void sm__hz_issued(sm_sim *s, uint16_t slot, const sm__inst *in)
{
    sm__hz_slot *h = &s->hz.slot[slot];
    if (s->k.unified)
        sm__pool_take(s);
    h->replays = h->mshr_replays = h->known_miss = h->credit = h->hits_left = 0;
    h->early_back = 0;
    /* a trace's store carries its 128-byte lines too, which the LD/ST unit sends to L1
     * one a cycle as a load's (mem_hazard.c); a drawn store is one request */
    h->reqs_left = (uint8_t)(in->op == SM__OP_ST_GLOBAL && s->k.trace ? in->reqs : 0);
    if (in->op != SM__OP_LD_GLOBAL)
        return;
    h->in = *in;
    complete_load(s, s->slots[slot].warp, &h->in);
    if (s->slots[slot].pend >= SM__MISS_CONST) { /* a profile's constant load: one line */
        h->in.miss = in->miss;
        h->in.reqs = 1;
    }
    if (s->k.pending && s->k.trace) /* its lines: a constant one may miss (pending.c) */
        sm__pend_issued(s, s->slots[slot].warp, h);
    s->slots[slot].miss = h->in.miss;
    h->reqs_left = h->in.reqs ? h->in.reqs : 1;
    /* a drawn load misses with all of its requests (its hit rate is per request) */
    h->hits_left = s->k.trace && h->in.miss && h->in.hit_reqs < h->reqs_left ? h->in.hit_reqs : 0;
    if (s->k.replay)
        predict_at_issue(s, h);
}

/* The oldest replay of scheduler q's warps that may go now, by warp; -1 if none. */
static int oldest_replay(const sm_sim *s, const sm__sched *q)
{
    const sm__hz *hz = &s->hz;
    int best = -1;
    uint64_t best_seq = UINT64_MAX;
    for (uint64_t m = q->warps; m; m &= m - 1) {
        int w = __builtin_ctzll(m), e = hz->head[w];
        if (!hz->count[w] || hz->buf_seq[w][e] >= best_seq)
            continue;
        const sm__hz_slot *h = &hz->slot[hz->buf[w][e]];
        if (sm__predict_miss(s, h) && !sm__tracker_allows(s, h))
            continue;
        best = w;
        best_seq = hz->buf_seq[w][e];
    }
    return best;
}

/* A replay takes an LD/ST collector and re-reads its address operands: sm__collect()'s
 * steps (sm__port_read, sm__coll_fill, both inline), not a call to it,
 * because a second caller made the link-time inliner keep sm__collect out of line in
 * the issue stage (+3.5 % host instructions per warp instruction, hotspot).  The reads go through the shared bank ports
 * (sm__port_read, inline), as every client's do, in the issue stage, in the place of an
 * issue, so every port still sees its requests in arrival order. */
static void replay_collect(sm_sim *s, int w, uint16_t slot, const sm__inst *in)
{
    const int u = SM__UNIT_MEM;
    const sm__warp *wp = &s->warps[w];
    const uint8_t *slow = wp->slow[in->div];
    int lanes = wp->tlanes[in->div];
    const int64_t first = s->now + 1;
    int64_t ready_at = first;
    for (int i = 0; i < in->n_src; i++) {
        int reg = in->src[i], sl = slow[reg];
        int64_t grant = sm__port_read(s, wp->bank[reg], sl, lanes); /* counts the access */
        int64_t at = grant + 1 + sl;
        ready_at = at > ready_at ? at : ready_at;
        s->st->bank_read_conflicts += (uint64_t)(grant - first);
        s->st->slow_reads += (uint64_t)sl;
    }
    sm__coll_fill(s, u, slot, ready_at);
}

static bool replay_issue(sm_sim *s, sm__sched *q)
{
    if (s->units_full >> SM__UNIT_MEM & 1)
        return false;
    int w = oldest_replay(s, q);
    if (w < 0)
        return false;
    sm__hz *hz = &s->hz;
    uint16_t slot = hz->buf[w][hz->head[w]];
    hz->head[w] = (uint8_t)((hz->head[w] + 1) % SM__REPLAY_ENTRIES);
    hz->count[w]--;
    hz->n_replay--;
    sm__hz_slot *h = &hz->slot[slot];
    predict_at_issue(s, h);
    replay_collect(s, w, slot, &h->in);
    if (s->k.unified)
        sm__pool_take(s);
    s->st->replay_issues++;
    s->st->replay_reads += h->in.n_src;
    return true;
}

/* Loads among the candidates that are predicted to miss and that the tracker holds;
 * *takes: whether a candidate left may take a credit. */
static uint64_t tracker_held(const sm_sim *s, const sm__sched *q, uint64_t cand, int promised,
                             bool *takes)
{
    uint64_t held = 0;
    *takes = false;
    for (uint64_t m = cand & q->unit_mask[SM__UNIT_MEM]; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        const sm__inst *in = &s->warps[w].next;
        if (in->op != SM__OP_LD_GLOBAL)
            continue;
        sm__hz_slot h = { .in = *in };
        complete_load(s, w, &h.in);
        if (!sm__predict_miss(s, &h))
            continue;
        if (allows(s, &h, promised))
            *takes = true;
        else
            held |= 1ULL << w;
    }
    return held;
}

/* The stall the issue loop charges a scheduler with no ready warp: sched.c's
 * classify() with nothing tried (the order memory, dependency, barrier, idle). */
static int empty_stall(const sm__sched *q)
{
    return q->n_wait[SM__STALL_MEMORY] ? SM__STALL_MEMORY
           : q->n_wait[SM__STALL_DEP]  ? SM__STALL_DEP
           : q->barrier                ? SM__STALL_BARRIER
                                       : SM__STALL_IDLE;
}

/* What the last issue stage hid comes back (the loop and the stages since never touch
 * hidden warps: they are not candidates, cannot retire with instructions left, and a
 * wake only sets ready bits), and a slot a replay took is no stall.  Deferred to the
 * next issue stage instead of a test after the loop; quiet() meanwhile sees n_hidden. */
static void unhide(sm_sim *s)
{
    sm__hz *hz = &s->hz;
    for (int i = 0; i < s->c->n_schedulers; i++) {
        s->sched[i].ready |= hz->hidden[i];
        hz->hidden[i] = 0;
        if (hz->charged[i] >= 0)
            s->stall_n[hz->charged[i]]--;
        hz->charged[i] = -1;
    }
    hz->n_hidden = 0;
}

/* Before the issue loop (sched.c): each scheduler first re-issues its oldest replay
 * that may go, which takes its issue slot, so its ready warps are hidden from the
 * loop; otherwise the loads the tracker holds are hidden.  Hiding instead of a test
 * in the loop keeps the default loop as it was. */
void sm__hz_pre_issue(sm_sim *s)
{
    sm__hz *hz = &s->hz;
    unhide(s);
    sm__hz_release_due(s);
    /* the schedulers decide one after the other, so one that may issue a predicted
     * miss keeps a credit for it from the later ones (a credit is never overdrawn) */
    int promised = 0;
    for (int i = 0; i < s->c->n_schedulers; i++) {
        sm__sched *q = &s->sched[i];
        if (hz->n_replay && replay_issue(s, q)) {
            hz->hidden[i] = q->ready;
            q->ready = 0;
            hz->charged[i] = (int8_t)empty_stall(q);
        } else if (s->c->mshr_tracker != SM_TRACKER_NONE) {
            bool takes;
            uint64_t held = tracker_held(s, q, sm__sched_cand(s, q), promised, &takes);
            promised += takes && s->c->mshr_tracker == SM_TRACKER_CREDIT;
            s->st->tracker_holds += held != 0;
            hz->hidden[i] = held;
            q->ready &= ~held;
        }
        hz->n_hidden += hz->hidden[i] != 0 || hz->charged[i] >= 0;
    }
}
