/* A chip: allocation once, then var_chip_generate for every chip of the population. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "var_internal.h"

static int check_params(const var_params *p)
{
    char key[64], msg[256];
    return var_params_check(p, key, sizeof key, msg, sizeof msg) ? VAR_EINVAL : VAR_OK;
}

int var__row_ws_alloc(var__row_ws *w, int lanes, int max_pieces)
{
    size_t n = (size_t)max_pieces;
    w->lane_end = malloc(sizeof(int32_t) * (size_t)lanes);
    w->blk_lane = malloc(sizeof(uint32_t) * n);
    w->blk_slot = malloc(sizeof(uint32_t) * n);
    w->ctr = malloc(sizeof(uint32_t) * n);
    w->out = malloc(sizeof(uint32_t) * 4 * n);
    w->word = malloc(sizeof(int32_t) * n);
    w->tab = malloc(sizeof(const double *) * n);
    w->bits = malloc(sizeof(uint64_t) * 2 * n);
    w->node = malloc(sizeof(int32_t) * 2 * n);
    w->wa = malloc(sizeof(double) * 2 * n);
    if (!w->lane_end || !w->blk_lane || !w->blk_slot || !w->ctr || !w->out || !w->word ||
        !w->tab || !w->bits || !w->node || !w->wa)
        return VAR_ENOMEM;
    return VAR_OK;
}

void var__row_ws_free(var__row_ws *w)
{
    free(w->lane_end);
    free(w->blk_lane);
    free(w->blk_slot);
    free(w->ctr);
    free(w->out);
    free(w->word);
    free(w->tab);
    free(w->bits);
    free(w->node);
    free(w->wa);
}

static int alloc_arrays(var_chip *c)
{
    size_t np = (size_t)c->plan.grid_rows * c->plan.grid_cols, S = (size_t)c->n_sms;
    c->g = malloc(sizeof(double) * np * c->plan.n_fields);
    c->g_spare = malloc(sizeof(double) * np);
    c->gcol = malloc(sizeof(var__gcol) * np * c->plan.n_fields);
    c->reg = malloc(sizeof(double) * S * c->n_regs);
    c->entry = malloc(sizeof(double) * S * c->n_entries);
    c->sub = malloc(sizeof(double) * S * c->n_subs);
    c->bank = malloc(sizeof(double) * S * c->n_banks);
    c->sm_freq = malloc(sizeof(double) * S);
    c->sm_ratio = malloc(sizeof(double) * S);
    c->age_ready = calloc(S, 1);
    c->reg0 = malloc(sizeof(double) * S * c->n_regs);
    c->vth_eff = malloc(sizeof(double) * S * c->n_regs);
    c->sub_leff = malloc(sizeof(double) * S * c->n_subs);
    if (!c->g || !c->g_spare || !c->gcol || !c->reg || !c->entry || !c->sub || !c->bank ||
        !c->sm_freq || !c->sm_ratio || !c->age_ready || !c->reg0 || !c->vth_eff ||
        !c->sub_leff)
        return VAR_ENOMEM;
    return var__row_ws_alloc(&c->row, c->plan.lanes, c->plan.lanes * c->plan.max_pieces);
}

/* The knobs the tables, plans and fields were built from (field by field: padding):
 * the field's, the sigmas and the timing model's. */
int var__chip_same_params(const var_params *a, const var_params *b)
{
    const var_variation *v = &a->variation, *w = &b->variation;
    const var_timing *t = &a->timing, *u = &b->timing;
    return var_params_same_field(a, b) && v->vth_sigma == w->vth_sigma &&
           v->leff_sigma == w->leff_sigma && v->sigma_ratio == w->sigma_ratio &&
           t->vdd == u->vdd && t->vth0 == u->vth0 && t->alpha == u->alpha && t->cell == u->cell;
}

var_chip *var_chip_alloc_err(const var_params *p, int *err)
{
    return var_chip_alloc_tables(p, NULL, err);
}

var_chip *var_chip_alloc_tables(const var_params *p, const var_table_cache *tc, int *err)
{
    var_chip *c = calloc(1, sizeof *c);
    int rc = VAR_ENOMEM;
    if (!c)
        goto fail;
    c->p = *p;
    if ((rc = check_params(p)))
        goto fail;
    const var_floorplan *f = &p->floorplan;
    c->n_sms = f->n_sms;
    c->n_banks = f->n_banks;
    c->n_entries = f->n_banks * f->entries_per_bank;
    c->n_regs = c->n_entries * (f->bits_per_entry / 32);
    c->n_subs = f->n_banks * f->sub_banks;
    if ((rc = var__dist_init(&c->dist, p)) || (rc = var__plan_build(&c->plan, p)))
        goto fail;
    if ((rc = alloc_arrays(c)))
        goto fail;
    c->field = var__field_alloc(c->plan.grid_rows, c->plan.grid_cols, c->plan.h,
                                p->variation.phi, p->variation.method, 4, &rc);
    if (!c->field)
        goto fail;
    rc = VAR_ENOMEM;
    if (!(c->tab = var__maxtab_alloc(&c->dist, c->plan.need_k, tc)))
        goto fail;
    if (err)
        *err = VAR_OK;
    return c;
fail:
    var_chip_free(c);
    if (err)
        *err = rc;
    return NULL;
}

var_chip *var_chip_alloc(const var_params *p) { return var_chip_alloc_err(p, NULL); }

int var_params_check_field(const var_params *p)
{
    var__plan pl = { 0 };
    int rc = check_params(p);
    if (!rc)
        rc = var__plan_build(&pl, p);
    if (!rc) {
        var__field *f = var__field_alloc(pl.grid_rows, pl.grid_cols, pl.h, p->variation.phi,
                                         p->variation.method, 4, &rc);
        var__field_free(f);
    }
    var__plan_free(&pl);
    return rc;
}

int var_params_same_field(const var_params *a, const var_params *b)
{
    const var_floorplan *f = &a->floorplan, *g = &b->floorplan;
    const var_variation *v = &a->variation, *w = &b->variation;
    return f->n_sms == g->n_sms && f->sm_cols == g->sm_cols && f->sm_rows == g->sm_rows &&
           f->n_banks == g->n_banks && f->bank_cols == g->bank_cols &&
           f->entries_per_bank == g->entries_per_bank && f->bits_per_entry == g->bits_per_entry &&
           f->sub_banks == g->sub_banks && f->die_width_mm == g->die_width_mm &&
           f->rf_fraction == g->rf_fraction && f->cell_aspect == g->cell_aspect &&
           f->lane_interleave == g->lane_interleave && v->domain == w->domain &&
           v->phi == w->phi && v->grid_cols == w->grid_cols && v->method == w->method;
}

void var_chip_free(var_chip *c)
{
    if (!c)
        return;
    var__maxtab_free(c->tab);
    var__field_free(c->field);
    var__plan_free(&c->plan);
    free(c->g);
    free(c->g_spare);
    free(c->gcol);
    free(c->reg);
    free(c->entry);
    free(c->sub);
    free(c->bank);
    free(c->sm_freq);
    free(c->sm_ratio);
    free(c->age_ready);
    free(c->reg0);
    free(c->vth_eff);
    free(c->sub_leff);
    var__row_ws_free(&c->row);
    free(c->keep_id);
    free(c);
}

static size_t field_points(const var_chip *c)
{
    return (size_t)c->plan.grid_rows * c->plan.grid_cols;
}

/* Fields come in pairs from one FFT: field 2j and 2j+1 share stream j. */
static void sample_fields(var_chip *c, uint64_t seed, int64_t chip)
{
    size_t np = field_points(c);
    int nf = c->plan.n_fields;
    uint32_t base = c->p.variation.domain == VAR_DOMAIN_CHIP ? VAR__SM_CHIP : 0;
    for (int j = 0; 2 * j < nf; j++) {
        var__stream s = var__stream_make(seed, chip, VAR__P_FIELD, base + (uint32_t)j);
        double *b = 2 * j + 1 < nf ? c->g + (2 * j + 1) * np : c->g_spare;
        var__field_sample(c->field, s, c->g + 2 * j * np, b);
    }
    for (size_t i = 0; i < np * nf; i++)
        c->gcol[i] = var__maxtab_gcol(c->tab, c->g[i]);
}

const var__piece *var__chip_pieces(const var_chip *c, int sm, int reg, int *n)
{
    const var_floorplan *f = &c->p.floorplan;
    int L = c->plan.lanes, lane = reg % L, row = reg / L;
    int bc = (row / f->entries_per_bank) % f->bank_cols;
    size_t i = ((size_t)sm * f->bank_cols + bc) * L + lane;
    *n = c->plan.piece_start[i + 1] - c->plan.piece_start[i];
    return c->plan.pieces + c->plan.piece_start[i];
}

static size_t piece_point(const var_chip *c, int sm, int reg, const var__piece *pc)
{
    int row = reg / c->plan.lanes;
    size_t field = c->p.variation.domain == VAR_DOMAIN_SM ? (size_t)sm : 0;
    size_t gr = (size_t)c->plan.row_grid[(size_t)sm * c->plan.rows + row];
    return field * field_points(c) + gr * c->plan.grid_cols + (size_t)pc->grid_col;
}

double var__chip_piece_g(const var_chip *c, int sm, int reg, const var__piece *pc)
{
    return c->g[piece_point(c, sm, reg, pc)];
}

void var__row_plan(var__row_ws *w, const var__plan *pl, const var__maxtab *tab, int bank_cols,
                   int sm, int bc)
{
    int L = pl->lanes;
    const int32_t *start = pl->piece_start + ((size_t)sm * bank_cols + bc) * L;
    w->pieces = pl->pieces + start[0];
    w->n_pieces = start[L] - start[0];
    w->n_blocks = 0;
    for (int l = 0; l < L; l++) {
        int n = start[l + 1] - start[l];
        w->lane_end[l] = start[l + 1] - start[0];
        for (int q = 0; q < n; q++) {
            if (!(q & 1)) {
                w->blk_lane[w->n_blocks] = (uint32_t)l;
                w->blk_slot[w->n_blocks++] = (uint32_t)(q >> 1);
            }
            int i = start[l] - start[0] + q;
            w->word[i] = 2 * (w->n_blocks - 1) + (q & 1);
            w->tab[i] = tab->qd[w->pieces[i].k];
        }
    }
}

void var__row_bits(var__row_ws *w, var__stream s, uint32_t r0)
{
    int n = w->n_blocks;
    uint32_t *o0 = w->out, *o1 = o0 + n, *o2 = o1 + n, *o3 = o2 + n;
    for (int b = 0; b < n; b++)
        w->ctr[b] = r0 + w->blk_lane[b];
    philox4x32_key_t key = { { (uint32_t)s.seed, (uint32_t)(s.seed >> 32) } };
    var__philox_batch(n, w->ctr, w->blk_slot, s.purpose_sm, s.chip, key, o0, o1, o2, o3);
    for (int b = 0; b < n; b++) {
        w->bits[2 * b] = ((uint64_t)o0[b] << 21) ^ (o1[b] >> 11);
        w->bits[2 * b + 1] = ((uint64_t)o2[b] << 21) ^ (o3[b] >> 11);
    }
    var__axis_batch(2 * n, w->bits, w->node, w->wa);
}

/* Each register's delay in a row, the maximum of its pieces' maxima, each from its
 * uniform: var__maxtab_q_col's steps, on the nodes of var__row_bits and the pair table, with
 * the row's invariants in locals (the stores to reg cannot alias them).  col and g: the
 * row's grid points; reg: the row's registers. */
static void row_lookup(const var__row_ws *w, const var__maxtab *t, const var__gcol *col,
                       const double *g, int lanes, double *restrict reg)
{
    const var__piece *pc = w->pieces;
    const uint64_t *bits = w->bits;
    const int32_t *word = w->word, *node = w->node, *end = w->lane_end;
    const double *wa = w->wa;
    const double *const *tab = w->tab;
    for (int l = 0, i = 0; l < lanes; l++) {
        double dmax = 0.0;
        for (; i < end[l]; i++) {
            int gc = pc[i].grid_col, x = word[i];
            const var__gcol *cl = col + gc;
            double d;
            if (cl->i < 0 || !tab[i])
                d = var__maxtab_q_slow(t, pc[i].k, g[gc], bits[x]);
            else
                d = var__maxtab_interp2(tab[i] + 2 * ((size_t)cl->i * VAR__NP + node[x]), wa[x],
                                        cl);
            dmax = d > dmax ? d : dmax;
        }
        reg[l] = dmax;
    }
}

/* Register delay = max over its pieces of the piece maximum, each one table lookup.
 * Row by row, in passes over the whole row (Philox blocks, then table nodes, then the
 * lookups and maxima) rather than register by register: each pass is a loop of
 * independent iterations, which the processor overlaps and GCC vectorises (the
 * register-by-register loop waited on each lookup's chain of latencies).  The values and
 * the operations on each are the same as drawing register by register
 * (tests/variation/test_chip_rows.c keeps that loop as the reference). */
static void sm_registers(var_chip *c, int sm, uint64_t seed, int64_t chip)
{
    const var_floorplan *f = &c->p.floorplan;
    var__stream s = var__stream_make(seed, chip, VAR__P_PIECE, (uint32_t)sm);
    var__row_ws *w = &c->row;
    double *reg = c->reg + (size_t)sm * c->n_regs;
    int L = c->plan.lanes, bc_now = -1;
    size_t field = c->p.variation.domain == VAR_DOMAIN_SM ? (size_t)sm : 0;
    for (int row = 0; row < c->n_entries; row++) {
        int bc = (row / f->entries_per_bank) % f->bank_cols;
        if (bc != bc_now)
            var__row_plan(w, &c->plan, c->tab, f->bank_cols, sm, bc), bc_now = bc;
        size_t base = field * field_points(c) +
                      (size_t)c->plan.row_grid[(size_t)sm * c->plan.rows + row] * c->plan.grid_cols;
        var__row_bits(w, s, (uint32_t)(row * L));
        row_lookup(w, c->tab, c->gcol + base, c->g + base, L, reg + (size_t)row * L);
    }
}

int var_chip_generate(var_chip *c, const var_params *p, uint64_t seed, int64_t chip)
{
    if (!var__chip_same_params(p, &c->p))
        return VAR_EINVAL; /* tables and plans were built for other parameters */
    if (chip < 0 || chip > (int64_t)UINT32_MAX)
        return VAR_ERANGE;
    sample_fields(c, seed, chip);
    memset(c->age_ready, 0, (size_t)c->n_sms); /* time-zero state saved lazily (age.c) */
    for (int sm = 0; sm < c->n_sms; sm++) {
        sm_registers(c, sm, seed, chip);
        var__chip_aggregate(c, sm);
        var__chip_split_leff(c, sm);
    }
    c->seed = seed, c->chip = chip, c->generated = 1, c->loaded = 0;
    return VAR_OK;
}
