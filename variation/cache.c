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
#include <stdbool.h>
#include <stdlib.h>

#include "var_internal.h"

struct var_cache {
    var_params p;      /* the chip parameters it was built for (timing, floorplan) */
    double cell_area;  /* relative to the RF's cells                               */
    var__dist dist;    /* the RF's distribution, random sigmas / sqrt(cell_area)   */
    var__maxtab *tab;  /* quantiles of the maximum of the cache's cells            */
};

/* What a bank's draw needs besides the row's blocks: per piece of the row plan the
 * reach bounds of its lookups (NULL: the exact path, never skipped) and the node below
 * which its lookups cannot exceed the bank's slowest register so far. */
typedef struct bank_ws {
    var__row_ws w;
    var__gcol *col;       /* [grid_cols] the field's row at the cache, for the table */
    const double **reach; /* [pieces]                                                */
    int32_t *thr;         /* [pieces]                                                */
} bank_ws;

/* Whether piece i's lookup at node n is certainly below dmax (the bank's slowest so
 * far): a lookup skipped changes nothing, for only a larger one becomes the maximum.
 * The bound is non-decreasing in the node and dmax only grows in a bank, so a node
 * found below is a threshold for the rest of the bank. */
static bool below(bank_ws *ws, const var__gcol *cl, int i, int n, double dmax)
{
    if (n < ws->thr[i])
        return true;
    if (!ws->reach[i] || !(var__maxtab_reach_at(ws->reach[i], n, cl->scale) < dmax))
        return false;
    ws->thr[i] = n + 1;
    return true;
}

/* One row of the cache into the bank's slowest register *dmax and the field value *g at
 * its slowest piece, register by register and piece by piece in order, from table tab on
 * the row's blocks (var__row_bits): each lookup is var__maxtab_q_col's value (the pair
 * table holds the same values as tab's floats, var__maxtab_interp2), and the first
 * largest wins as before.  g: the field's row of grid points. */
static void bank_row(bank_ws *ws, const var__maxtab *tab, const double *g, int lanes,
                     double *dmax, double *g_slow)
{
    const var__row_ws *w = &ws->w;
    const var__piece *pc = w->pieces;
    for (int l = 0, i = 0; l < lanes; l++) {
        double rmax = 0.0, gs = -INFINITY;
        for (; i < w->lane_end[l]; i++) {
            int gc = pc[i].grid_col, x = w->word[i];
            const var__gcol *cl = ws->col + gc;
            double d;
            if (below(ws, cl, i, w->node[x], *dmax))
                continue;
            if (cl->i < 0 || !w->tab[i])
                d = var__maxtab_q_slow(tab, pc[i].k, g[gc], w->bits[x]);
            else
                d = var__maxtab_interp2(w->tab[i] + 2 * ((size_t)cl->i * VAR__NP + w->node[x]),
                                        w->wa[x], cl);
            if (d > rmax)
                rmax = d, gs = g[gc];
        }
        if (rmax > *dmax)
            *dmax = rmax, *g_slow = gs;
    }
}

/* Each bank's slowest register and, for it, the Leff of the conditional split.  Row by
 * row in passes (Philox blocks, table nodes, lookups) as the chip's rows are drawn
 * (chip.c, sm_registers), and only the lookups that may become the bank's maximum: the
 * same uniforms (stream (seed, chip, cache, sm), register index row x lanes + lane, slot
 * q / 2 of the lane's piece q) and the same operations on them as drawing every register
 * piece by piece (tests/variation/test_cache_draw.c keeps that loop as the reference).
 * The Leff is that of the bank's first slowest register, once per bank rather than at
 * every new maximum. */
static void draw_rows(const var_chip *c, const var__maxtab *tab, const var__dist *dist,
                      bank_ws *ws, int sm, int entries, int banks, double *bank_delay,
                      double *bank_leff)
{
    int L = c->plan.lanes, per_bank = (entries + banks - 1) / banks;
    size_t field = c->p.variation.domain == VAR_DOMAIN_SM ? (size_t)sm : 0;
    size_t edge = (size_t)c->plan.row_grid[(size_t)sm * c->plan.rows + c->plan.rows - 1];
    size_t base = (field * c->plan.grid_rows + edge) * (size_t)c->plan.grid_cols;
    var__stream s = var__stream_make(c->seed, c->chip, VAR__P_CACHE, (uint32_t)sm);
    for (int j = 0; j < c->plan.grid_cols; j++)
        ws->col[j] = var__maxtab_gcol(tab, c->g[base + (size_t)j]);
    var__row_plan(&ws->w, &c->plan, tab, c->p.floorplan.bank_cols, sm, 0); /* column 0's */
    for (int i = 0; i < ws->w.n_pieces; i++) {
        const var__piece *pc = ws->w.pieces + i;
        int ci = ws->col[pc->grid_col].i;
        ws->reach[i] = ci >= 0 && tab->reach[pc->k] ? tab->reach[pc->k] + (size_t)ci * VAR__NP
                                                     : NULL;
    }
    for (int b = 0; b < banks; b++) {
        double dmax = 0.0, g = 0.0;
        for (int i = 0; i < ws->w.n_pieces; i++)
            ws->thr[i] = 0; /* a new maximum from 0 */
        for (int row = b * per_bank; row < entries && row < (b + 1) * per_bank; row++) {
            var__row_bits(&ws->w, s, (uint32_t)(row * L));
            bank_row(ws, tab, c->g + base, L, &dmax, &g);
        }
        bank_delay[b] = dmax;
        bank_leff[b] = dmax > 0.0 ? var__split_leff_at(dist, g, dmax) : 1.0;
    }
}

static int draw(const var_chip *c, const var__maxtab *tab, const var__dist *dist, int sm,
                int entries, int banks, double *bank_delay, double *bank_leff)
{
    if (!c->generated)
        return VAR_ENOTGEN;
    if (sm < 0 || sm >= c->n_sms || entries < 1 || banks < 1 || banks > entries)
        return VAR_ERANGE;
    size_t n = (size_t)c->plan.lanes * (size_t)c->plan.max_pieces;
    bank_ws ws = { .col = malloc(sizeof *ws.col * (size_t)c->plan.grid_cols),
                   .reach = malloc(sizeof *ws.reach * n), .thr = malloc(sizeof *ws.thr * n) };
    int rc = !ws.col || !ws.reach || !ws.thr
                 ? VAR_ENOMEM
                 : var__row_ws_alloc(&ws.w, c->plan.lanes, (int)n);
    if (!rc)
        draw_rows(c, tab, dist, &ws, sm, entries, banks, bank_delay, bank_leff);
    var__row_ws_free(&ws.w);
    free(ws.col);
    free(ws.reach);
    free(ws.thr);
    return rc;
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
