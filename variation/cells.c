/* Per-cell Vth and Leff consistent with the register delays, and the aging hook.
 *
 * generate draws each piece's maximum log-delay y* directly.  Here we complete the piece
 * to n cells with the right joint law: n iid cells are, in law, (a) the maximum y*,
 * (b) an argmax position uniform over the n cells, (c) the argmax cell's (Vth, Leff)
 * drawn from their law given delay = y*, and (d) the other n - 1 cells iid from the cell
 * law truncated to delay <= y*.  (d) is rejection sampling, (c) inverts the conditional
 * density along the curve delay = y* numerically on a grid.  So the cell maps are chip k
 * itself, not another sample, and the register maxima match the Monte Carlo path. */
#include <math.h>
#include <stdlib.h>

#include "var_internal.h"

#define COND_POINTS 241   /* grid of the conditional density of the argmax cell    */
#define COND_LIM 9.0      /* in standard deviations of the Vth deviate              */
#define MAX_TRIES 1000000 /* rejection attempts before giving up on one cell        */

typedef struct cell_pv {
    double zv, zl;
} cell_pv;

/* Leff deviate that gives log-delay y at Vth deviate zv, and d(zl)/dy; NAN if none. */
static double zl_on_curve(const var__dist *d, double g, double zv, double y, double *dzdy)
{
    const var_timing *t = &d->t;
    double ov = t->vdd - t->vth0 * (1.0 + d->vs_sys * g + d->vs_rand * zv);
    if (ov <= 0.0)
        return NAN;
    double leff = exp(y) * pow(ov / (t->vdd - t->vth0), t->alpha);
    *dzdy = leff / d->ls_rand;
    return (leff - 1.0 - d->ls_sys * g) / d->ls_rand;
}

/* (c): the argmax cell given its log-delay y. */
static cell_pv argmax_cell(const var__dist *d, double g, double y, double u)
{
    if (d->ls_rand == 0.0) {
        /* one deviate left: solve the delay for Vth exactly */
        const var_timing *t = &d->t;
        double leff = 1.0 + d->ls_sys * g;
        double ovmin = (t->vdd - t->vth0) * pow(leff * exp(-y), 1.0 / t->alpha);
        double zv = d->vs_rand > 0.0
                        ? ((t->vdd - ovmin) / t->vth0 - 1.0 - d->vs_sys * g) / d->vs_rand
                        : 0.0;
        return (cell_pv){ zv, 0.0 };
    }
    double lp[COND_POINTS], cum[COND_POINTS], top = -INFINITY, step = 2 * COND_LIM / (COND_POINTS - 1);
    for (int i = 0; i < COND_POINTS; i++) {
        double zv = -COND_LIM + i * step, dz, zl = zl_on_curve(d, g, zv, y, &dz);
        lp[i] = isnan(zl) ? -INFINITY : -0.5 * (zv * zv + zl * zl) + log(dz);
        top = fmax(top, lp[i]);
    }
    cum[0] = 0.0;
    for (int i = 1; i < COND_POINTS; i++)
        cum[i] = cum[i - 1] + 0.5 * (exp(lp[i - 1] - top) + exp(lp[i] - top));
    double target = u * cum[COND_POINTS - 1];
    int i = 1;
    while (i < COND_POINTS - 1 && cum[i] < target)
        i++;
    double f = cum[i] > cum[i - 1] ? (target - cum[i - 1]) / (cum[i] - cum[i - 1]) : 0.5;
    double zv = -COND_LIM + (i - 1 + f) * step, dz;
    return (cell_pv){ zv, zl_on_curve(d, g, zv, y, &dz) };
}

/* (d): a cell of the piece other than the argmax, by rejection below y. */
static cell_pv below_cell(const var__dist *d, double g, double y, var__stream s, uint32_t ci)
{
    for (uint32_t a = 0; a < MAX_TRIES; a++) {
        double z[2];
        var__normal2(s, 1 + a, ci, z);
        if (var__log_delay(d, g, z[0], z[1]) <= y)
            return (cell_pv){ z[0], z[1] };
    }
    return (cell_pv){ -INFINITY, -INFINITY }; /* unreachable in practice: see docs */
}

static void store(const var__dist *d, double g, cell_pv z, double *vth, double *leff)
{
    *vth = d->t.vth0 * (1.0 + d->vs_sys * g + d->vs_rand * z.zv);
    *leff = 1.0 + d->ls_sys * g + d->ls_rand * z.zl;
}

static void piece_cells(const var_chip *c, int sm, int r, const var__piece *pc, double y,
                        var__stream s, double *vth, double *leff)
{
    const var__dist *d = &c->dist;
    int row = r / c->plan.lanes, n = 1 << pc->k;
    size_t first = (size_t)row * c->plan.cols + 32 * (r % c->plan.lanes) + pc->first;
    double g = var__chip_piece_g(c, sm, r, pc), u[2];
    var__uniform2(s, 0, (uint32_t)first, u);
    int w = (int)(u[0] * n);
    for (int i = 0; i < n; i++) {
        cell_pv z = i == w ? argmax_cell(d, g, y, u[1])
                           : below_cell(d, g, y, s, (uint32_t)(first + i));
        if (isinf(z.zv))
            z = argmax_cell(d, g, y, u[1]);
        store(d, g, z, vth + first + i, leff + first + i);
    }
}

int var_chip_cells(const var_chip *c, const var_params *p, int sm, double *vth, double *leff)
{
    (void)p;
    if (!c->generated)
        return VAR_ENOTGEN;
    if (sm < 0 || sm >= c->n_sms)
        return VAR_ERANGE;
    var__stream sp = var__stream_make(c->seed, c->chip, VAR__P_PIECE, (uint32_t)sm);
    var__stream sc = var__stream_make(c->seed, c->chip, VAR__P_CELL, (uint32_t)sm);
    for (int r = 0; r < c->n_regs; r++) {
        int n;
        const var__piece *pc = var__chip_pieces(c, sm, r, &n);
        uint64_t u[2];
        for (int q = 0; q < n; q++) {
            if (!(q & 1))
                var__bits2(sp, (uint32_t)(q >> 1), (uint32_t)r, u);
            double g = var__chip_piece_g(c, sm, r, &pc[q]);
            double y = log(var__maxtab_q(c->tab, pc[q].k, g, u[q & 1]));
            piece_cells(c, sm, r, &pc[q], y, sc, vth, leff);
        }
    }
    return VAR_OK;
}

int var_chip_age(var_chip *c, const var_params *p, int sm, var_vth_shift_fn shift, void *ctx,
                 double *scratch)
{
    size_t ncell = (size_t)c->plan.rows * c->plan.cols;
    double *own = NULL, *vth = scratch;
    if (!vth && !(vth = own = malloc(2 * ncell * sizeof(double))))
        return VAR_ENOMEM;
    double *leff = vth + ncell;
    int rc = var_chip_cells(c, p, sm, vth, leff);
    if (rc)
        goto done;
    var__chip_age_prepare(c, sm); /* keep time zero for var_chip_age_reset */
    const var_floorplan *f = &p->floorplan;
    int per_sub = c->plan.lanes / f->sub_banks;
    double *reg = c->reg + (size_t)sm * c->n_regs;
    for (int r = 0; r < c->n_regs; r++) {
        int row = r / c->plan.lanes, lane = r % c->plan.lanes;
        int sub = (row / f->entries_per_bank) * f->sub_banks + lane / per_sub;
        size_t first = (size_t)row * c->plan.cols + 32 * lane;
        double m = 0.0;
        for (int b = 0; b < 32; b++) {
            double v = vth[first + b];
            double dly = var_cell_delay(&p->timing, v + shift(v - p->timing.vth0, sub, ctx),
                                        leff[first + b]);
            m = dly > m ? dly : m;
        }
        reg[r] = m;
    }
    var__chip_aggregate(c, sm);
done:
    free(own);
    return rc;
}
