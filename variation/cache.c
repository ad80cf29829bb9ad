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
 * changes.  The cache's cells may be larger than the RF's (var_cache_alloc): Pelgrom's
 * law scales their random sigmas by 1 / sqrt(area), with tables of their own. */
#include <math.h>
#include <stdlib.h>

#include "var_internal.h"

struct var_cache {
    var_params p;      /* the chip parameters it was built for (timing, floorplan) */
    double cell_area;  /* relative to the RF's cells                               */
    var__dist dist;    /* the RF's distribution, random sigmas / sqrt(cell_area)   */
    var__maxtab *tab;  /* quantiles of the maximum of the cache's cells            */
};

/* Slowest delay of one cache register (row, lane) and the field value at its slowest
 * piece, from table tab; col[j]: tab's column of the field at grid column j of the row
 * (var__maxtab_gcol, once per row: the chip's own are for its table). */
static double cache_register(const var_chip *c, const var__maxtab *tab, int sm, var__stream s,
                             size_t base, const var__gcol *col, int row, int lane,
                             double *g_slow)
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
        double gq = c->g[base + (size_t)pc[q].grid_col];
        double d = var__maxtab_q_col(tab, pc[q].k, col[pc[q].grid_col], gq, u[q & 1]);
        if (d > dmax)
            dmax = d, g = gq;
    }
    *g_slow = g;
    return dmax;
}

static int draw(const var_chip *c, const var__maxtab *tab, const var__dist *dist, int sm,
                int entries, int banks, double *bank_delay, double *bank_leff)
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
    var__gcol *col = malloc(sizeof *col * (size_t)c->plan.grid_cols);
    if (!col)
        return VAR_ENOMEM;
    for (int j = 0; j < c->plan.grid_cols; j++)
        col[j] = var__maxtab_gcol(tab, c->g[base + (size_t)j]);
    for (int b = 0; b < banks; b++)
        bank_delay[b] = 0.0, bank_leff[b] = 1.0;
    for (int row = 0; row < entries; row++) {
        int b = row / per_bank;
        for (int l = 0; l < L; l++) {
            double g, d = cache_register(c, tab, sm, s, base, col, row, l, &g);
            if (d > bank_delay[b]) {
                bank_delay[b] = d;
                bank_leff[b] = var__split_leff_at(dist, g, d);
            }
        }
    }
    free(col);
    return VAR_OK;
}

int var_chip_cache(const var_chip *c, int sm, int entries, int banks, double *bank_delay,
                   double *bank_leff)
{
    return draw(c, c->tab, &c->dist, sm, entries, banks, bank_delay, bank_leff);
}

/* Pelgrom: the random mismatch of a device falls as 1 / sqrt(its area); the systematic
 * part (the field) does not depend on the cell. */
var_cache *var_cache_alloc(const var_params *p, double cell_area, int *err)
{
    return var_cache_alloc_tables(p, cell_area, NULL, err);
}

var_cache *var_cache_alloc_tables(const var_params *p, double cell_area,
                                  const var_table_cache *tc, int *err)
{
    var_cache *m = calloc(1, sizeof *m);
    var__plan pl = { 0 };
    int rc = !(cell_area > 0.0 && cell_area <= 1e6) ? VAR_EINVAL : m ? VAR_OK : VAR_ENOMEM;
    if (!rc)
        rc = var__dist_init(&m->dist, p);
    if (!rc)
        rc = var__plan_build(&pl, p); /* which run lengths the tables need */
    if (!rc) {
        m->p = *p;
        m->cell_area = cell_area;
        m->dist.vs_rand /= sqrt(cell_area);
        m->dist.ls_rand /= sqrt(cell_area);
        rc = (m->tab = var__maxtab_alloc(&m->dist, pl.need_k, tc)) ? VAR_OK : VAR_ENOMEM;
    }
    var__plan_free(&pl);
    if (err)
        *err = rc;
    if (rc) {
        var_cache_free(m);
        return NULL;
    }
    return m;
}

void var_cache_free(var_cache *m)
{
    if (!m)
        return;
    var__maxtab_free(m->tab);
    free(m);
}

double var_cache_cell_area(const var_cache *m) { return m->cell_area; }

int var_cache_draw(const var_cache *m, const var_chip *c, int sm, int entries, int banks,
                   double *bank_delay, double *bank_leff)
{
    if (!m)
        return var_chip_cache(c, sm, entries, banks, bank_delay, bank_leff);
    if (!var__chip_same_params(&m->p, &c->p))
        return VAR_EINVAL;
    return draw(c, m->tab, &m->dist, sm, entries, banks, bank_delay, bank_leff);
}
