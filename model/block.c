/* Block (CTA) launch and retirement: the front of the SM.  A block takes a free block
 * slot and the warp slots [slot * warps_per_block, ...); when its last warp has
 * written its last result the slot frees and the next block of this SM's share
 * launches at the end of the same cycle, as "blocks launch as resources free up". */
#include <string.h>

#include "sm_internal.h"

/* Register-vector occupancy changes only at launch and retirement, so it is
 * integrated piecewise here instead of being summed every cycle. */
void sm__occupancy_flush(sm_sim *s)
{
    int64_t dt = s->now - s->occ_t;
    if (dt <= 0)
        return;
    for (int b = 0; b < s->k.n_banks; b++)
        s->occ[b] += (uint64_t)s->live_vec[b] * (uint64_t)dt;
    s->occ_t = s->now;
}

static void launch_warp(sm_sim *s, sm__block *blk, int w, int j)
{
    const sm__kernel *k = &s->k;
    sm__warp *wp = &s->warps[w];
    wp->block = (int16_t)(blk - s->blocks);
    wp->n_left = k->uneven ? k->warp_len[j] : k->insts_per_warp; /* gen.c warp_lengths */
    wp->n_issued = 0;
    wp->n_inflight = 0;
    wp->wait_reg = SM__NOT_WAITING;
    wp->wait_kind = 0;
    wp->passed = 0;
    wp->pdst = 0; /* a trace's predicates (trace.c); a drawn stream has none */
    memset(wp->psrc, 0, sizeof wp->psrc);
    wp->age = s->age++;
    sm__gen_warp(k, wp, blk->ordinal, j);
    sm__banks_warp(s, w, blk);
    wp->sched = (uint8_t)(w % s->c->n_schedulers);
    sm__sched *q = &s->sched[wp->sched];
    q->warps |= 1ULL << w;
    q->ready |= 1ULL << w;
    q->by_age[q->n_age++] = (uint8_t)w;
    /* designs see the warp placed and scheduled (they may park it) but its stream not
     * yet started: copies of the warp draw the same instructions the warp will */
    sm__designs_warp(s, w);
    wp->next.redirect = 0; /* only a trace or micro-kernel sets it: none from a prior run */
    sm__gen_next(k, wp);
    q->unit_mask[wp->next.unit] |= 1ULL << w;
    s->sched_dirty |= 1u << wp->sched;
    if (k->frontend)
        sm__fe_warp(s, w);
}

static void launch_block(sm_sim *s, int slot)
{
    const sm__kernel *k = &s->k;
    sm__block *blk = &s->blocks[slot];
    blk->ordinal = s->next_block;
    blk->warps_left = k->warps_per_block;
    blk->at_barrier = 0;
    blk->live = true;
    s->next_block++;
    sm__blocks_flush(s, s->now + 1);
    s->live_blocks++;
    sm__occupancy_flush(s);
    int first = slot * k->warps_per_block;
    for (int b = 0; b < SM_MAX_BANKS; b++) /* no renaming unless a design renames */
        blk->rename[b] = (uint8_t)b;
    sm__designs_block(s, blk, first);
    for (int j = 0; j < k->warps_per_block; j++)
        launch_warp(s, blk, first + j, j);
}

void sm__launch(sm_sim *s)
{
    if (!s->slot_freed)
        return;
    s->slot_freed = false;
    const sm__kernel *k = &s->k;
    for (int slot = 0; slot < k->resident && sm__launch_may(s); slot++)
        if (!s->blocks[slot].live)
            launch_block(s, slot);
}

void sm__retire_warp(sm_sim *s, int w)
{
    sm__warp *wp = &s->warps[w];
    sm__sched *q = &s->sched[wp->sched];
    q->warps &= ~(1ULL << w);
    q->ready &= ~(1ULL << w);
    s->sched_dirty = s->sched_all; /* and a barrier may be released below */
    for (int u = 0; u < SM__N_UNITS; u++)
        q->unit_mask[u] &= ~(1ULL << w);
    int j = 0;
    for (int i = 0; i < q->n_age; i++)
        if (q->by_age[i] != w)
            q->by_age[j++] = q->by_age[i];
    q->n_age = (uint8_t)j;
    if (q->last == w)
        q->last = -1;
    sm__occupancy_flush(s);
    for (int r = 0; r < s->k.regs; r++)
        s->live_vec[wp->home[r]]--;
    sm__block *blk = &s->blocks[wp->block];
    if (--blk->warps_left && blk->at_barrier == blk->warps_left) {
        /* the warps left all wait at a barrier this warp ended without meeting (a
         * trace's warp that exits early: barriers count the warps still running) */
        int wpb = s->k.warps_per_block, first = wp->block * wpb;
        for (int v = first; v < first + wpb; v++)
            s->sched[s->warps[v].sched].barrier &= ~(1ULL << v);
        blk->at_barrier = 0;
    }
    if (blk->warps_left == 0) {
        blk->live = false;
        sm__blocks_flush(s, s->now + 1);
        s->live_blocks--;
        if (++s->blocks_done == s->k.n_blocks)
            s->limit = 0; /* the kernel's end: the cycle loop ends after this cycle */
        if (s->mem.on)
            sm__memsys_blocks(s);
        s->slot_freed = true;
        s->st->blocks++;
    }
}

