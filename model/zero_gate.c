/* Zero and inactive-lane gating (Radaideh's dissertation, ch. 4; docs/model.md,
 * "Energy"): a lane outside the warp's active mask is never read or written, and a lane
 * whose value is zero is not written and is read as zero from a per-register zero mask
 * instead of the array.  Accounting only: nothing here changes timing, and nothing runs
 * unless the technique turns it on (sm__kernel.zero_gating).
 *
 * Which lanes of a result are zero is drawn per written value from a hash of the warp's
 * stream state and the instruction's index, so it is reproducible and leaves the
 * instruction stream (gen.c) untouched; each lane is zero with the profile's zero_lanes
 * probability (resolution 1/256). */
#include "sm_internal.h"

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t active_mask(int lanes) { return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1; }

static uint32_t zero_lanes(const sm__kernel *k, const sm__warp *wp)
{
    uint32_t zero = 0;
    uint64_t key = wp->rng ^ ((uint64_t)wp->n_issued * 0x9e3779b97f4a7c15ull);
    for (int q = 0; q < 4; q++) {
        uint64_t bytes = mix(key + (uint64_t)q);
        for (int i = 0; i < 8; i++)
            zero |= (uint32_t)((bytes >> (8 * i) & 0xff) < k->zero_thresh) << (8 * q + i);
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

void sm__zero_write(sm_sim *s, sm__warp *wp, int reg, int bank, int lanes)
{
    uint32_t active = active_mask(lanes), zero = zero_lanes(&s->k, wp) & active;
    wp->zmask[reg] = (wp->zmask[reg] & ~active) | zero;
    add_parts(&s->k, s->wr_gated, bank, active & ~zero);
}

void sm__zero_read(sm_sim *s, const sm__warp *wp, int reg, int bank, int lanes)
{
    add_parts(&s->k, s->rd_gated, bank, active_mask(lanes) & ~wp->zmask[reg]);
}

void sm__zero_access(sm_sim *s, int w, const sm__inst *in)
{
    sm__warp *wp = &s->warps[w];
    int lanes = wp->tlanes[in->div];
    for (int i = 0; i < in->n_src; i++) /* the reads first: they see the old value */
        sm__zero_read(s, wp, in->src[i], wp->bank[in->src[i]], lanes);
    if (in->dst != SM__NO_REG)
        sm__zero_write(s, wp, in->dst, wp->bank[in->dst], lanes);
}

void sm__zero_flush(const sm_sim *s, sm_stats *st)
{
    st->read_lanes = st->write_lanes = 0;
    for (uint64_t i = 0; i < st->n_sub_banks; i++)
        st->sub_read_lanes[i] = st->sub_write_lanes[i] = 0;
    for (int b = 0; b < s->k.n_banks; b++)
        for (int p = 0; p < s->k.subs; p++) {
            int id = s->k.sub_id[b][p];
            st->sub_read_lanes[id] += s->rd_gated[b][p];
            st->sub_write_lanes[id] += s->wr_gated[b][p];
            st->read_lanes += s->rd_gated[b][p];
            st->write_lanes += s->wr_gated[b][p];
        }
}
