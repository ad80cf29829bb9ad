/* Replay buffers and the issue stage's MSHR tracking (docs/replay.md, Turner 2012).
 *
 * A squashed load (mem_hazard.c) waits in its warp's replay buffer (8 entries, oldest
 * first) while the warp's younger instructions go on issuing.  Each cycle, before a
 * scheduler picks a new instruction, it re-issues the oldest replay among its warps
 * whose unit has a free collector and that the MSHR tracker lets through; the replay
 * takes that scheduler's issue slot and an LD/ST collector, and re-reads its address
 * operands through the bank read ports (sm__collect), so replays cost bank bandwidth
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

bool sm__tracker_allows(const sm_sim *s, const sm__hz_slot *h)
{
    switch (s->c->mshr_tracker) {
    case SM_TRACKER_NAIVE:
        return s->misses < s->c->max_misses;
    case SM_TRACKER_CREDIT:
        return h->credit || s->c->max_misses - s->misses - s->hz.reserved > 0;
    default:
        return true;
    }
}

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

void sm__hz_issued(sm_sim *s, uint16_t slot, const sm__inst *in)
{
    sm__hz_slot *h = &s->hz.slot[slot];
    h->replays = h->mshr_replays = h->known_miss = h->credit = 0;
    if (in->op != SM__OP_LD_GLOBAL)
        return;
    h->in = *in;
    h->reqs_left = in->reqs ? in->reqs : 1;
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
    sm__collect(s, w, slot, &h->in);
    s->st->replay_issues++;
    s->st->replay_reads += h->in.n_src;
    return true;
}

/* Loads among the candidates that are predicted to miss and that the tracker holds. */
static uint64_t tracker_held(const sm_sim *s, const sm__sched *q, uint64_t cand)
{
    uint64_t held = 0;
    for (uint64_t m = cand & q->unit_mask[SM__UNIT_MEM]; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        const sm__inst *in = &s->warps[w].next;
        if (in->op != SM__OP_LD_GLOBAL)
            continue;
        sm__hz_slot h = { .in = *in };
        if (sm__predict_miss(s, &h) && !sm__tracker_allows(s, &h))
            held |= 1ULL << w;
    }
    return held;
}

/* Before scheduler q picks: a replay takes its issue slot (true), or the tracker
 * removes the loads it holds from the candidates. */
bool sm__hz_before_issue(sm_sim *s, sm__sched *q, uint64_t *cand)
{
    sm__hz_release_due(s);
    if (s->hz.n_replay && replay_issue(s, q))
        return true;
    if (s->c->mshr_tracker == SM_TRACKER_NONE)
        return false;
    uint64_t held = tracker_held(s, q, *cand);
    s->st->tracker_holds += held != 0;
    *cand &= ~held;
    return false;
}
