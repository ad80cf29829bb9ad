/* var_hybrid.h - building a bank organisation table with hybrid virtual banks (model.md
 * section 5, `hybrid`).  The SM model picks the hybrid-bank count per kernel at launch
 * and may re-pair sub-banks itself; this is the reference construction, kept separate
 * from var.h so the rule lives in one place with a test.  Two sub-banks per bank. */
#ifndef RFDSE_VAR_HYBRID_H
#define RFDSE_VAR_HYBRID_H

#include <stdint.h>

#include "var_rf_map.h"

/* sorted: the n_subs physical sub-bank ids, fastest first; the first n_fast are fast.
 * Builds n_subs / 2 virtual banks: (n_fast - H) / 2 pure fast banks from the fastest
 * sub-banks, then H hybrid banks each pairing one of the slowest H fast sub-banks (part 0,
 * lanes 0-15, the half fixed-lane register vectors use) with one of the fastest H slow
 * sub-banks (part 1), then pure slow banks.  Fills sub_id and sub_slow of rows
 * [0, n_subs / 2).  Returns the number of virtual banks, or -1 if n_subs is odd, H is
 * out of [0, min(n_fast, n_subs - n_fast)], or n_fast - H is odd (a pure bank would mix
 * classes). */
int var_hybrid_banks(const int16_t *sorted, int n_subs, int n_fast, int n_hybrid,
                     int16_t sub_id[][VAR_MAX_SUBS_PER_BANK],
                     uint8_t sub_slow[][VAR_MAX_SUBS_PER_BANK]);

#endif
