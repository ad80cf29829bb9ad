/* What the register-file cache designs share (ltrf.c, rfc_demand.c; docs/model.md,
 * "Register-file caches"): where a cached register's accesses go, and the main-RF
 * traffic that fills and drains the cache.
 *
 * The cache has as many banks as the main register file; they take the bank-port
 * indices after the main RF's (n_banks .. 2 n_banks - 1), so operand collectors
 * arbitrate for them exactly as for main banks, and the per-bank statistics, which
 * cover [0, n_banks), stay those of the main RF (NBTI duty, energy).  A warp's
 * partition slot i lives in cache bank (warp + i) mod n_banks, as registers do in the
 * main RF.  The cache is fast storage: one cycle. */
#include "sm_internal.h"

/* The caches' one knob, shared by ltrf and rfc_demand (one key, rfc_regs). */
const sm_knob sm__rfc_knob_rows[SM__RFC_N_KNOBS] = {
    SM_KNOB_INT(sm__rfc_knobs, rfc_regs, 4, 255, 16, /* LTRF's partition (Sadrosadati 2018) */
                "register-file cache: registers per warp partition (ltrf: interval bound)"),
};
_Static_assert(sizeof(sm__rfc_knobs) <= SM_DESIGN_KNOB_BYTES, "knob block too small");

/* A cache of a scheduling group's partitions: group_size warps x rfc_regs registers. */
int sm__rfc_entries(const sm_config *c, const void *knobs)
{
    return c->group_size * ((const sm__rfc_knobs *)knobs)->rfc_regs;
}

/* The caches' statistics in sm.h's lists (older than the design's own statistics). */
const char *const sm__rfc_stats[] = { "rfc_*", NULL };

int sm__rfc_check(const sm_sim *s)
{
    return 2 * s->k.n_banks <= SM_MAX_BANKS ? SM_OK : SM_E_INVALID;
}

void sm__rfc_to_cache(sm_sim *s, int w, int reg, int slot)
{
    sm__warp *wp = &s->warps[w];
    wp->bank[reg] = (uint8_t)(s->k.n_banks + (w + slot) % s->k.n_banks);
    wp->slow[0][reg] = wp->slow[1][reg] = 0;
}

void sm__rfc_to_main(sm_sim *s, int w, int reg, const uint8_t main_slow[2][SM__MAX_REGS])
{
    sm__warp *wp = &s->warps[w];
    wp->bank[reg] = wp->home[reg];
    wp->slow[0][reg] = main_slow[0][reg];
    wp->slow[1][reg] = main_slow[1][reg];
}

/* A full-width read of the register from its main bank into partition slot `slot`;
 * returns the cycle the value is there.  The fill's write into the cache bank is
 * counted (rfc_bank_accesses, the cache's NBTI duty) but takes no port cycle: it
 * arrives through the cache's fill path, not an operand collector's. */
int64_t sm__rfc_fill(sm_sim *s, int w, int reg, int slot, const uint8_t main_slow[2][SM__MAX_REGS])
{
    const sm__warp *wp = &s->warps[w];
    int slow = main_slow[0][reg];
    s->st->rfc_fills++;
    int64_t at = sm__port_read(s, wp->home[reg], slow, wp->lanes) + 1 + slow;
    sm__rfc_to_cache(s, w, reg, slot);
    s->wr_lanes[wp->lanes][wp->bank[reg]]++;
    return at;
}

/* A dirty register written back to its main bank. */
void sm__rfc_writeback(sm_sim *s, int w, int reg, const uint8_t main_slow[2][SM__MAX_REGS])
{
    const sm__warp *wp = &s->warps[w];
    s->st->rfc_writebacks++;
    sm__port_write(s, wp->home[reg], main_slow[0][reg], wp->lanes);
}
