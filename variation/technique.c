/* The frequency side of the register-file techniques (model.md section 5). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "var_internal.h"

#define MAX_UNITS (VAR_MAX_BANKS * VAR_MAX_SUBS_PER_BANK > VAR_MAX_BANKS * VAR_MAX_ENTRIES / 32 \
                       ? VAR_MAX_BANKS * VAR_MAX_SUBS_PER_BANK                              \
                       : VAR_MAX_BANKS * VAR_MAX_ENTRIES / 32)

static int n_fast_of(double percent, int units)
{
    int n = (int)floor(percent / 100.0 * units + 1e-9);
    return n < 1 ? 1 : n > units ? units : n;
}

static void identity_banks(var_rf_map *m)
{
    for (int b = 0; b < m->n_banks; b++)
        for (int s = 0; s < m->subs_per_bank; s++)
            m->sub_id[b][s] = (int16_t)(b * m->subs_per_bank + s);
}

/* Unit ids in the order (delay, id), by insertion from ids[0, n), a permutation of
 * [0, n) taken as a first guess.  That order is total on numbers, so it
 * is unique and the guess changes only the work, O(n + inversions): the aging loop
 * re-sorts by delays that moved little since the map's last sort.  From the identity the
 * id test never fires (every id placed before v is smaller), which is sort_units below,
 * so a caller with NaN delays (no total order) starts from the identity. */
static void sort_units_from(const double *d, int n, int16_t *ids)
{
    for (int i = 1; i < n; i++) {
        int16_t v = ids[i];
        int j = i;
        while (j > 0 && (d[ids[j - 1]] > d[v] || (d[ids[j - 1]] == d[v] && ids[j - 1] > v))) {
            ids[j] = ids[j - 1];
            j--;
        }
        ids[j] = v;
    }
}

/* Unit ids sorted by (delay, id): at most 512 units, and a stable total order makes
 * ties deterministic. */
static void sort_units(const double *d, int n, int16_t *ids)
{
    for (int i = 0; i < n; i++)
        ids[i] = (int16_t)i;
    sort_units_from(d, n, ids);
}

/* Registers beyond the nf fastest (ties at the threshold go to the lowest indices) make
 * their register vector slow; one pass over the SM's vectors, lane by lane.  A vector
 * holding a tie hands them out in index order; the others need no order (vectorised). */
static double by_register(const var_chip *c, int sm, double percent, var_rf_map *m)
{
    const double *reg = var_chip_register_delays(c, sm);
    int L = c->plan.lanes, nf = n_fast_of(percent, c->n_regs), below;
    double thr = var__kth_smallest_below(reg, c->n_regs, nf - 1, &below);
    int ties = nf - below; /* fast registers still to hand out at the threshold, by index */
    for (int row = 0; row < c->n_entries; row++) {
        const double *r = reg + (size_t)row * (size_t)L;
        int slow = 0, tie = 0;
        for (int l = 0; l < L; l++) {
            slow |= r[l] > thr;
            tie |= r[l] == thr;
        }
        for (int l = 0; tie && l < L; l++)
            if (r[l] == thr)
                slow |= ties-- <= 0;
        m->entry_slow[row / m->n_entries][row % m->n_entries] = (uint8_t)slow;
    }
    return 1.0 / thr;
}

static double by_array(const var_chip *c, int sm, double percent, var_rf_map *m)
{
    const double *entry = var_chip_entry_delays(c, sm);
    int n = (c->n_entries + 31) / 32;
    double d[MAX_UNITS];
    int16_t ids[MAX_UNITS];
    for (int a = 0; a < n; a++) {
        d[a] = 0.0;
        for (int e = 32 * a; e < 32 * a + 32 && e < c->n_entries; e++)
            d[a] = entry[e] > d[a] ? entry[e] : d[a]; /* fmax without its call */
    }
    sort_units(d, n, ids);
    int nf = n_fast_of(percent, n);
    for (int i = nf; i < n; i++)
        for (int e = 32 * ids[i]; e < 32 * ids[i] + 32 && e < c->n_entries; e++)
            m->entry_slow[e / m->n_entries][e % m->n_entries] = 1;
    return 1.0 / d[ids[nf - 1]];
}

/* Classes (and with bro the pairing) of the sub-banks ids[] sorted by delay into sub_id
 * and sub_slow, which hold the identity order and no slow sub-bank on entry. */
static double sub_bank_classes(const double *sub, const int16_t *ids, int n,
                               const var_technique *t, int S,
                               int16_t sub_id[][VAR_MAX_SUBS_PER_BANK],
                               uint8_t sub_slow[][VAR_MAX_SUBS_PER_BANK])
{
    int nf = n_fast_of(t->fast_percent, n);
    if (!t->bro) {
        for (int i = nf; i < n; i++)
            sub_slow[ids[i] / S][ids[i] % S] = 1;
        return 1.0 / sub[ids[nf - 1]];
    }
    /* virtual banks of one speed class: leftover fast sub-banks join the slow class */
    if (nf >= S)
        nf -= nf % S;
    for (int i = 0; i < n; i++) {
        sub_id[i / S][i % S] = ids[i];
        sub_slow[i / S][i % S] = i >= nf;
    }
    return 1.0 / sub[ids[nf - 1]];
}

/* Classes (and with bro the pairing) of the sub-banks into sub_id and sub_slow, which
 * hold the identity order and no slow sub-bank on entry. */
static double by_sub_bank(const var_chip *c, const double *sub, const var_technique *t, int S,
                          int16_t sub_id[][VAR_MAX_SUBS_PER_BANK],
                          uint8_t sub_slow[][VAR_MAX_SUBS_PER_BANK])
{
    int16_t ids[MAX_UNITS];
    sort_units(sub, c->n_subs, ids);
    return sub_bank_classes(sub, ids, c->n_subs, t, S, sub_id, sub_slow);
}

/* The first guess for sort_units_from: the order a map's positions hold (a bro map's
 * last sort), if they hold a permutation of [0, n) and the delays are numbers; else
 * the identity. */
static void guess_order(const double *d, int n, int S,
                        int16_t sub_id[][VAR_MAX_SUBS_PER_BANK] /* read only */, int16_t *ids)
{
    uint8_t seen[MAX_UNITS] = { 0 };
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        int16_t v = sub_id[i / S][i % S];
        ok = v >= 0 && v < n && !seen[v] && !isnan(d[i]);
        if (ok)
            seen[v] = 1, ids[i] = v;
    }
    for (int i = 0; !ok && i < n; i++)
        ids[i] = (int16_t)i;
}

static int start_map(const var_chip *c, int sm, var_rf_map *map)
{
    if (!c->generated)
        return VAR_ENOTGEN;
    if (sm < 0 || sm >= c->n_sms)
        return VAR_ERANGE;
    memset(map, 0, sizeof *map);
    map->n_banks = c->n_banks;
    map->n_entries = c->p.floorplan.entries_per_bank;
    map->subs_per_bank = c->p.floorplan.sub_banks;
    identity_banks(map);
    return VAR_OK;
}

static bool sub_bank_technique(const var_technique *t)
{
    return t->variation && t->granularity == VAR_GRAN_SUB_BANK &&
           t->fast_percent > 0.0 && t->fast_percent <= 100.0;
}

int var_technique_apply_sub_banks(const var_chip *c, const var_params *p,
                                  const var_technique *t, int sm, const double *sub_delays,
                                  var_rf_map *map, double *freq)
{
    (void)p;
    int rc = start_map(c, sm, map);
    if (rc)
        return rc;
    if (!sub_bank_technique(t))
        return VAR_ETECHNIQUE;
    *freq = by_sub_bank(c, sub_delays, t, map->subs_per_bank, map->sub_id, map->sub_slow);
    return VAR_OK;
}

int var_technique_sort_sub_banks(const var_chip *c, const var_technique *t, int sm,
                                 const double *sub_delays,
                                 int16_t sub_id[][VAR_MAX_SUBS_PER_BANK],
                                 uint8_t sub_slow[][VAR_MAX_SUBS_PER_BANK], double *freq)
{
    if (!c->generated)
        return VAR_ENOTGEN;
    if (sm < 0 || sm >= c->n_sms)
        return VAR_ERANGE;
    if (!sub_bank_technique(t))
        return VAR_ETECHNIQUE;
    int S = c->p.floorplan.sub_banks;
    int16_t ids[MAX_UNITS];
    guess_order(sub_delays, c->n_subs, S, sub_id, ids);
    sort_units_from(sub_delays, c->n_subs, ids);
    for (int b = 0; b < c->n_banks; b++)
        for (int s = 0; s < S; s++) /* as start_map leaves them */
            sub_id[b][s] = (int16_t)(b * S + s), sub_slow[b][s] = 0;
    *freq = sub_bank_classes(sub_delays, ids, c->n_subs, t, S, sub_id, sub_slow);
    return VAR_OK;
}

int var_technique_apply(const var_chip *c, const var_params *p, const var_technique *t,
                        int sm, var_rf_map *map, double *freq)
{
    (void)p; /* the chip holds its own copy; kept for symmetry with generate */
    int rc = start_map(c, sm, map);
    if (rc)
        return rc;
    if (!t->variation) {
        *freq = 1.0;
        return VAR_OK;
    }
    if (!(t->fast_percent > 0.0 && t->fast_percent <= 100.0))
        return VAR_ETECHNIQUE;
    switch (t->granularity) {
    case VAR_GRAN_NONE:
        *freq = c->sm_freq[sm];
        break;
    case VAR_GRAN_REGISTER:
        *freq = by_register(c, sm, t->fast_percent, map);
        break;
    case VAR_GRAN_VECTOR_ARRAY:
        *freq = by_array(c, sm, t->fast_percent, map);
        break;
    case VAR_GRAN_SUB_BANK:
        *freq = by_sub_bank(c, var_chip_sub_bank_delays(c, sm), t, map->subs_per_bank,
                            map->sub_id, map->sub_slow);
        break;
    default:
        return VAR_ETECHNIQUE;
    }
    return VAR_OK;
}
