/* The timing of a register-file cache beside an SM's register file (issue 18,
 * docs/variation.md "Register-file cache").
 *
 * Floorplan: the cache is a strip of `entries` register vectors directly below the
 * RF region (below bank column 0 when banks sit side by side), laid out like an RF
 * bank: a row is one register vector, its bit columns those of the RF's rows above it,
 * and its `banks` banks are consecutive groups of rows.  Variation: the same field as
 * the RF's (model.md section 3) at the grid row of the RF's last cell row, the nearest
 * sampled points; the strip is thin (128 rows of the default LTRF cache are an eighth of
 * the RF's height, 0.0625 of the field's unit width against phi = 0.5: correlation at
 * least 0.81 across it), so the field is taken constant across it vertically
 * (docs/variation.md section 7b).  Random: independent per cell, drawn as run maxima
 * exactly as the RF's registers (chip.c) from the stream (seed, chip, cache, sm), so the
 * RF's own draws and every existing result are untouched.  Pure: nothing in the chip
 * changes. */
#include <math.h>

#include "var_internal.h"

/* Slowest delay of one cache register (row, lane) and the field value at its slowest
 * piece. */
static double cache_register(const var_chip *c, int sm, var__stream s, size_t base,
                             int row, int lane, double *g_slow)
{
    int L = c->plan.lanes, bank_cols = c->p.floorplan.bank_cols;
    const int32_t *start = c->plan.piece_start + (size_t)sm * (size_t)bank_cols * (size_t)L;
    const var__piece *pc = c->plan.pieces + start[lane];
    int n = start[lane + 1] - start[lane], r = row * L + lane;
    double dmax = 0.0, g = -INFINITY;
    uint64_t u[2];
    for (int q = 0; q < n; q++) {
        if (!(q & 1))
            var__bits2(s, (uint32_t)(q >> 1), (uint32_t)r, u);
        size_t pt = base + (size_t)pc[q].grid_col;
        double d = var__maxtab_q_col(c->tab, pc[q].k, c->gcol[pt], c->g[pt], u[q & 1]);
        if (d > dmax)
            dmax = d, g = c->g[pt];
    }
    *g_slow = g;
    return dmax;
}

int var_chip_cache(const var_chip *c, int sm, int entries, int banks, double *bank_delay,
                   double *bank_leff)
{
    if (!c->generated)
        return VAR_ENOTGEN;
    if (sm < 0 || sm >= c->n_sms || entries < 1 || banks < 1 || banks > entries)
        return VAR_ERANGE;
    int L = c->plan.lanes, per_bank = (entries + banks - 1) / banks;
    size_t field = c->p.variation.domain == VAR_DOMAIN_SM ? (size_t)sm : 0;
    size_t edge = (size_t)c->plan.row_grid[(size_t)sm * c->plan.rows + c->plan.rows - 1];
    size_t base = (field * c->plan.grid_rows + edge) * (size_t)c->plan.grid_cols;
    var__stream s = var__stream_make(c->seed, c->chip, VAR__P_CACHE, (uint32_t)sm);
    for (int b = 0; b < banks; b++)
        bank_delay[b] = 0.0, bank_leff[b] = 1.0;
    for (int row = 0; row < entries; row++) {
        int b = row / per_bank;
        for (int l = 0; l < L; l++) {
            double g, d = cache_register(c, sm, s, base, row, l, &g);
            if (d > bank_delay[b]) {
                bank_delay[b] = d;
                bank_leff[b] = var__split_leff_at(c, g, d);
            }
        }
    }
    return VAR_OK;
}
