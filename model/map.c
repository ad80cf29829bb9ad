/* Helpers that build simple storage maps (tests, `rfdse sm` without chip maps). */
#include <string.h>

#include "sm.h"

void sm_rf_map_all_fast(sm_rf_map *m, int n_banks, int n_entries, int subs_per_bank)
{
    memset(m, 0, sizeof *m);
    m->n_banks = n_banks;
    m->n_entries = n_entries;
    m->subs_per_bank = subs_per_bank;
    for (int b = 0; b < n_banks && b < SM_MAX_BANKS; b++)
        for (int p = 0; p < subs_per_bank && p < SM_MAX_SUBS_PER_BANK; p++)
            m->sub_id[b][p] = (int16_t)(b * subs_per_bank + p);
}

/* Walks the table from its last part backwards: with rf_bro the table is sorted
 * fastest first, so the slow sub-banks pair up into whole slow virtual banks. */
void sm_rf_map_mark_last_slow(sm_rf_map *m, int n_slow)
{
    for (int b = m->n_banks - 1; b >= 0 && n_slow > 0; b--)
        for (int p = m->subs_per_bank - 1; p >= 0 && n_slow > 0; p--, n_slow--)
            m->sub_slow[b][p] = 1;
}

/* Marks n_slow sub-banks slow spread evenly over the table (every total/n_slow-th):
 * what a sub-bank classification looks like without rf_bro's sorting. */
void sm_rf_map_mark_spread_slow(sm_rf_map *m, int n_slow)
{
    int total = m->n_banks * m->subs_per_bank;
    for (int i = 0; i < total && n_slow > 0; i++)
        if ((i + 1) * n_slow / total > i * n_slow / total)
            m->sub_slow[i / m->subs_per_bank][i % m->subs_per_bank] = 1;
}

/* Marks the last n register vectors (entries, bank-major) slow: per-register or
 * per-array classifications (vl_rf, vl_rv). */
void sm_rf_map_mark_last_entries_slow(sm_rf_map *m, int n)
{
    for (int b = m->n_banks - 1; b >= 0 && n > 0; b--)
        for (int e = m->n_entries - 1; e >= 0 && n > 0; e--, n--)
            m->entry_slow[b][e] = 1;
}
