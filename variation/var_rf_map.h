/* var_rf_map.h - the register-storage map a technique produces for one SM: which storage is
 * fast (1-cycle) and which is slow (2-cycle), and how virtual banks are built from
 * physical sub-banks.  A small, plain struct; the SM model consumes the same
 * layout (sm_rf_map in model/sm_rf_map.h) and dse/ copies one into the other, so
 * neither module depends on the other.
 *
 * Logical bank L (after `(warp + reg) mod n_banks` and the block's renaming table) is
 * virtual bank L of the bank organisation table below.  With rf_bro the table is sorted
 * fastest to slowest, so the fast virtual banks come first.  Without it, virtual bank
 * b is physical bank b (its own sub-banks).
 */
#ifndef RFDSE_VAR_RF_MAP_H
#define RFDSE_VAR_RF_MAP_H

#include <stdint.h>

#define VAR_MAX_BANKS 64
#define VAR_MAX_SUBS_PER_BANK 8
#define VAR_MAX_ENTRIES 256

typedef struct var_rf_map {
    int n_banks;      /* virtual (= logical) banks per SM                        16 */
    int n_entries;    /* register vectors per bank                               64 */
    int subs_per_bank;/* sub-banks per virtual bank, each holding an equal share  2
                         of the 32 lanes: sub-bank s holds lanes
                         [s*32/subs_per_bank, (s+1)*32/subs_per_bank)             */
    /* Physical sub-bank id (physical bank * subs_per_bank + s) of each part of each
     * virtual bank, in bank-organisation-table order; for NBTI duty bookkeeping. */
    int16_t sub_id[VAR_MAX_BANKS][VAR_MAX_SUBS_PER_BANK];
    /* 1 if that sub-bank is classified slow (vl_sb and everything built on it). */
    uint8_t sub_slow[VAR_MAX_BANKS][VAR_MAX_SUBS_PER_BANK];
    /* 1 if register vector (entry) e of virtual bank b is slow by a per-register or
     * per-array classification (vl_rf, vl_rv); all zero for the other techniques. */
    uint8_t entry_slow[VAR_MAX_BANKS][VAR_MAX_ENTRIES];
} var_rf_map;

/* An access to entry e of virtual bank b touching lanes [lo, hi) is slow if any sub-bank
 * holding one of those lanes is slow, or the entry itself is slow.  Full-width accesses
 * use lanes [0, 32); this is what makes hybrid banks (fast half + slow half) fast for
 * fixed-lane register vectors. */

#endif
