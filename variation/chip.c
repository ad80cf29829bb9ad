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
    return VAR_OK;
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

/* Register delay = max over its pieces of the piece maximum, each one table lookup.
 * Rows outside, lanes inside, so the grid-row offset and piece lists are looked up once. */
static void sm_registers(var_chip *c, int sm, uint64_t seed, int64_t chip)
{
    const var_floorplan *f = &c->p.floorplan;
    var__stream s = var__stream_make(seed, chip, VAR__P_PIECE, (uint32_t)sm);
    double *reg = c->reg + (size_t)sm * c->n_regs;
    int L = c->plan.lanes;
    size_t field = c->p.variation.domain == VAR_DOMAIN_SM ? (size_t)sm : 0;
    for (int row = 0; row < c->n_entries; row++) {
        size_t base = field * field_points(c) +
                      (size_t)c->plan.row_grid[(size_t)sm * c->plan.rows + row] * c->plan.grid_cols;
        int bc = (row / f->entries_per_bank) % f->bank_cols;
        const int32_t *start = c->plan.piece_start + ((size_t)sm * f->bank_cols + bc) * L;
        for (int l = 0; l < L; l++) {
            const var__piece *pc = c->plan.pieces + start[l];
            int n = start[l + 1] - start[l], r = row * L + l;
            double dmax = 0.0;
            uint64_t u[2];
            for (int q = 0; q < n; q++) {
                if (!(q & 1))
                    var__bits2(s, (uint32_t)(q >> 1), (uint32_t)r, u);
                size_t pt = base + (size_t)pc[q].grid_col;
                double d = var__maxtab_q_col(c->tab, pc[q].k, c->gcol[pt], c->g[pt], u[q & 1]);
                dmax = d > dmax ? d : dmax;
            }
            reg[r] = dmax;
        }
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
    c->seed = seed, c->chip = chip, c->generated = 1;
    return VAR_OK;
}
