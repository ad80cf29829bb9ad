/* LTRF (Sadrosadati et al., ASPLOS 2018): a register-file cache filled by register-
 * interval prefetch, as a register-file design (docs/model.md, "Register-file caches").
 *
 * The compiler splits a kernel into register-intervals that touch at most k registers
 * (the knob rfc_regs, rfc.c).  The synthetic stream has no control flow, so intervals are
 * formed from it by that rule: an interval is the longest run of the warp's next
 * instructions whose registers (sources and destination) number at most k; a kernel
 * of at most k registers is one interval.  The stream is read ahead on a copy of the
 * warp, so it is the same stream every other technique runs.
 *
 * At an interval's start the warp is held back (parked) while its working set not yet
 * in its partition is read from the main RF through the main banks' ports, competing
 * with other warps' prefetches and write-backs; registers of the previous interval
 * that the new one does not use leave the partition, written back if dirty.  Inside an
 * interval every access hits the cache, by construction.  Simplification: a result
 * still in flight when its register leaves is written back at the interval's end, not
 * after it arrives. */
#include <string.h>

#include "sm_internal.h"

typedef struct ltrf_warp {
    uint8_t main_slow[2][SM__MAX_REGS]; /* the main RF's latency tables (launch) */
    uint8_t slot[SM__MAX_REGS];         /* partition slot + 1, 0: not cached      */
    uint8_t dirty[SM__MAX_REGS];
    int32_t left;                       /* instructions left in the interval       */
    int64_t issue_at;                   /* parked: the first cycle it may issue    */
} ltrf_warp;

typedef struct ltrf {
    int k;
    uint64_t parked; /* warps held back for their prefetch */
    ltrf_warp w[];
} ltrf;

static size_t state_size(const sm_config *cap)
{
    return sizeof(ltrf) + (size_t)cap->max_warps * sizeof(ltrf_warp);
}

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    (void)p;
    ltrf *z = st;
    z->k = ((const sm__rfc_knobs *)sm_design_knobs(s, SM_DESIGN_ltrf))->rfc_regs;
    z->parked = 0;
    if (z->k < SM__MAX_SRC + 1) /* an instruction's registers fit one interval */
        return SM_E_INVALID;
    return sm__rfc_check(s);
}

/* Adds the registers of `in` to the set (in[r] = 1), unless that would make it larger
 * than k; returns whether they fit. */
static bool add_regs(const sm__inst *in, uint8_t *in_set, int *n, int k)
{
    uint8_t r[4] = { in->dst, in->src[0], in->src[1], in->src[2] };
    int add = 0;
    for (int i = 0; i < 4; i++)
        add += r[i] != SM__NO_REG && !in_set[r[i]] && (i < 1 || (r[i] != r[0]));
    if (*n + add > k)
        return false;
    for (int i = 0; i < 4; i++)
        if (r[i] != SM__NO_REG && !in_set[r[i]]) {
            in_set[r[i]] = 1;
            (*n)++;
        }
    return true;
}

/* The interval that starts with copy c's next instruction, of at most `avail`
 * instructions: its working set (in_set) and length. */
static int form_interval(const sm_sim *s, sm__warp *c, int avail, int k, uint8_t *in_set)
{
    int n = 0, len = 0;
    memset(in_set, 0, SM__MAX_REGS);
    while (len < avail && (add_regs(&c->next, in_set, &n, k) || len == 0)) {
        if (++len < avail) {
            c->n_issued++; /* as issue_warp does before drawing (hand-written kernels) */
            sm__gen_next(&s->k, c);
        }
    }
    return len;
}

/* Moves warp w's partition to the working set `in_set`: registers leaving are written
 * back if dirty, registers arriving are filled from the main RF, and the warp is held
 * back until the last fill arrives. */
static void begin_interval(sm_sim *s, ltrf *z, int w, const uint8_t *in_set, int len)
{
    ltrf_warp *lw = &z->w[w];
    bool used[SM__MAX_REGS] = { false };
    for (int r = 0; r < s->k.regs; r++) {
        if (lw->slot[r] && !in_set[r]) {
            if (lw->dirty[r])
                sm__rfc_writeback(s, w, r, lw->main_slow);
            lw->slot[r] = lw->dirty[r] = 0;
            sm__rfc_to_main(s, w, r, lw->main_slow);
        } else if (lw->slot[r]) {
            used[lw->slot[r] - 1] = true;
        }
    }
    int64_t ready = 0;
    for (int r = 0, free_slot = 0; r < s->k.regs; r++) {
        if (!in_set[r] || lw->slot[r])
            continue;
        while (used[free_slot])
            free_slot++;
        used[free_slot] = true;
        int64_t at = sm__rfc_fill(s, w, r, free_slot, lw->main_slow);
        ready = at > ready ? at : ready;
        lw->slot[r] = (uint8_t)(free_slot + 1);
    }
    lw->left = len;
    s->st->rfc_intervals++;
    if (s->warps[w].n_issued) /* at launch the first instruction is drawn after this */
        sm__warp_refresh_fast(&s->warps[w]);
    /* An instruction issued in cycle i reads its operands from i + 1 on: the warp may
     * issue in cycle ready - 1, the cycle before its last fill arrives.  It waits in
     * the parked set until the end of the cycle before (cycle()). */
    if (ready) {
        lw->issue_at = ready - 1;
        if (lw->issue_at > s->now + 1)
            s->st->rfc_wait += (uint64_t)(lw->issue_at - (s->now + 1));
        z->parked |= 1ULL << w;
        sm__sched_park(s, w);
    }
}

static void warp(sm_sim *s, void *st, int w)
{
    ltrf *z = st;
    ltrf_warp *lw = &z->w[w];
    sm__warp *wp = &s->warps[w];
    memcpy(lw->main_slow, wp->slow, sizeof lw->main_slow);
    memset(lw->slot, 0, sizeof lw->slot);
    memset(lw->dirty, 0, sizeof lw->dirty);
    uint8_t in_set[SM__MAX_REGS];
    sm__warp c = *wp;
    sm__gen_next(&s->k, &c); /* the warp's first instruction, as it will draw it */
    int len = form_interval(s, &c, wp->n_left, z->k, in_set);
    begin_interval(s, z, w, in_set, len);
}

static void issue(sm_sim *s, void *st, int w, uint16_t slot, const sm__inst *in)
{
    (void)slot;
    ltrf *z = st;
    ltrf_warp *lw = &z->w[w];
    const sm__warp *wp = &s->warps[w];
    for (int i = 0; i < in->n_src; i++)
        assert(lw->slot[in->src[i]]); /* an interval's registers are all cached */
    s->st->rfc_hits += in->n_src;
    if (in->dst != SM__NO_REG)
        lw->dirty[in->dst] = 1;
    if (--lw->left > 0 || wp->n_left <= 1)
        return;
    uint8_t in_set[SM__MAX_REGS];
    sm__warp c = *wp;
    sm__gen_next(&s->k, &c); /* the instruction after this one starts the interval */
    int len = form_interval(s, &c, wp->n_left - 1, z->k, in_set);
    begin_interval(s, z, w, in_set, len);
}

/* At the end of the cycle before a parked warp may issue, it becomes a candidate. */
static int64_t cycle(sm_sim *s, void *st)
{
    ltrf *z = st;
    int64_t next = INT64_MAX;
    for (uint64_t m = z->parked; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        int64_t at = z->w[w].issue_at - 1;
        if (at <= s->now) {
            z->parked &= ~(1ULL << w);
            sm__sched_unpark(s, w);
        } else {
            next = at < next ? at : next;
        }
    }
    return next;
}

const sm__rf_design sm__design_ltrf = {
    .info = { .doc = "LTRF: register-file cache filled by register-interval prefetch",
              .places_registers = true, .cache_entries = sm__rfc_entries,
              .knobs = sm__rfc_knob_rows, .n_knobs = SM__RFC_N_KNOBS,
              .core_stats = sm__rfc_stats },
    .state_size = state_size, .kernel = kernel, .warp = warp, .issue = issue,
    .cycle = cycle,
};
