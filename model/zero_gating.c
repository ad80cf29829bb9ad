/* Zero and inactive-lane gating (Radaideh's dissertation, ch. 4; docs/model.md,
 * "Energy"): a lane outside the warp's active mask is never read or written, and a lane
 * whose value is zero is not written and is read as zero from a per-register zero mask
 * instead of the array.  Accounting only: nothing here changes timing.  A register-file
 * design (sm_designs.h): its state is the zero masks and the gated lane counts.
 *
 * Which lanes of a result are zero is drawn per written value from a hash of the warp's
 * stream state and the instruction's index, so it is reproducible and leaves the
 * instruction stream (gen.c) untouched; each lane is zero with the profile's zero_lanes
 * probability (resolution 1/256). */
#include <string.h>

#include "sm_internal.h"

typedef struct zero_state {
    uint32_t thresh; /* profile's zero_lanes * 256: a lane is zero if its byte < it */
    /* lanes actually read and written per bank and sub-bank part */
    uint64_t rd[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK];
    uint64_t wr[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK];
    uint32_t zmask[][SM__MAX_REGS]; /* per warp slot and register: lanes holding zero */
} zero_state;

static size_t state_size(const sm_config *cap)
{
    return sizeof(zero_state) + (size_t)cap->max_warps * sizeof(uint32_t[SM__MAX_REGS]);
}

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    (void)s;
    zero_state *z = st;
    z->thresh = (uint32_t)(p->zero_lanes * 256.0 + 0.5);
    memset(z->rd, 0, sizeof z->rd);
    memset(z->wr, 0, sizeof z->wr);
    return SM_OK;
}

/* A new warp's registers hold no known zeros. */
static void warp(sm_sim *s, void *st, int w)
{
    (void)s;
    zero_state *z = st;
    memset(z->zmask[w], 0, sizeof z->zmask[w]);
}

static uint32_t active_mask(int lanes) { return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1; }

static uint32_t zero_lanes(const zero_state *z, const sm__warp *wp)
{
    uint32_t zero = 0;
    uint64_t key = wp->rng ^ ((uint64_t)wp->n_issued * 0x9e3779b97f4a7c15ull);
    for (int q = 0; q < 4; q++) {
        uint64_t bytes = sm__mix64(key + (uint64_t)q);
        for (int i = 0; i < 8; i++)
            zero |= (uint32_t)((bytes >> (8 * i) & 0xff) < z->thresh) << (8 * q + i);
    }
    return zero;
}

/* Lanes of `mask` in each sub-bank part of bank b, added to acc[b][part]. */
static void add_parts(const sm__kernel *k, uint64_t acc[][SM_MAX_SUBS_PER_BANK], int b,
                      uint32_t mask)
{
    int per_part = 32 / k->subs;
    uint32_t part_mask = per_part >= 32 ? 0xffffffffu : (1u << per_part) - 1;
    for (int p = 0; p < k->subs; p++)
        acc[b][p] += (uint64_t)__builtin_popcount(mask >> (p * per_part) & part_mask);
}

/* One issued instruction of warp w: its reads first (they see the old value), then its
 * write, which draws the result's zero lanes. */
static void issue(sm_sim *s, void *st, int w, uint16_t slot, const sm__inst *in)
{
    (void)slot;
    zero_state *z = st;
    const sm__warp *wp = &s->warps[w];
    uint32_t *zmask = z->zmask[w], active = active_mask(wp->tlanes[in->div]);
    for (int i = 0; i < in->n_src; i++)
        add_parts(&s->k, z->rd, wp->bank[in->src[i]], active & ~zmask[in->src[i]]);
    if (in->dst == SM__NO_REG)
        return;
    uint32_t zero = zero_lanes(z, wp) & active;
    zmask[in->dst] = (zmask[in->dst] & ~active) | zero;
    add_parts(&s->k, z->wr, wp->bank[in->dst], active & ~zero);
}

/* The lane statistics come from the gated counts instead of the active lanes. */
static void stats(const sm_sim *s, const void *st, sm_stats *out)
{
    const zero_state *z = st;
    out->read_lanes = out->write_lanes = 0;
    for (uint64_t i = 0; i < out->n_sub_banks; i++)
        out->sub_read_lanes[i] = out->sub_write_lanes[i] = 0;
    for (int b = 0; b < s->k.n_banks; b++)
        for (int p = 0; p < s->k.subs; p++) {
            int id = s->k.sub_id[b][p];
            out->sub_read_lanes[id] += z->rd[b][p];
            out->sub_write_lanes[id] += z->wr[b][p];
            out->read_lanes += z->rd[b][p];
            out->write_lanes += z->wr[b][p];
        }
}

const sm__rf_design sm__design_zero_gating = {
    .info = { .doc = "zero lanes neither written nor read: a per-register zero mask "
                     "(energy only)" },
    .state_size = state_size, .kernel = kernel, .warp = warp,
    .issue = issue, .stats = stats,
};
