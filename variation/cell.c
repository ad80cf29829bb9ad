/* The cell model, its inverse in Vth, and the exact distribution of the maximum of n
 * cell delays.
 *
 * The read path is the access transistor in series with the pull-down; both carry the
 * cell's Vth and Leff, so the stack behaves as one alpha-power transistor of twice the
 * length and the normalised delay is Leff/L0 * ((Vdd - Vth0) / (Vdd - Vth))^alpha.
 * Swapping the model means changing var_cell_delay() and the matching inverses:
 * var_cell_vth_for_delay() (the Vth that gives a delay, used by aging) and lcdf() (the
 * Leff or Vth that gives a delay, used by the tables). */
#include <float.h>
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>

#include "var_internal.h"

#define LEFF_MIN 1e-9 /* a non-positive channel length is clamped: the cell is fastest */

double var_cell_delay(const var_timing *t, double vth, double leff_rel)
{
    double ov = t->vdd - vth;
    if (ov <= 0.0)
        return VAR_DELAY_CAP; /* never switches: capped so sums and logs stay finite */
    if (leff_rel < LEFF_MIN)
        leff_rel = LEFF_MIN;
    double d = leff_rel * pow((t->vdd - t->vth0) / ov, t->alpha);
    return d < VAR_DELAY_CAP ? d : VAR_DELAY_CAP;
}

/* The inverse in Vth at fixed Leff: ((Vdd - Vth0) / (Vdd - Vth))^alpha = delay / Leff. */
double var_cell_vth_for_delay(const var_timing *t, double delay, double leff_rel)
{
    if (delay >= VAR_DELAY_CAP)
        return t->vdd; /* the cap stands for "never switches": overdrive zero */
    if (!(delay > 0.0))
        return -INFINITY;
    if (leff_rel < LEFF_MIN)
        leff_rel = LEFF_MIN;
    return t->vdd - (t->vdd - t->vth0) * pow(leff_rel / delay, 1.0 / t->alpha);
}

int var__dist_init(var__dist *d, const var_params *p)
{
    const var_variation *v = &p->variation;
    double q = v->sigma_ratio;
    d->t = p->timing;
    /* sigma_total^2 = sigma_rand^2 + sigma_sys^2 and sigma_rand = q sigma_sys */
    d->vs_sys = v->vth_sigma / sqrt(1.0 + q * q);
    d->ls_sys = v->leff_sigma / sqrt(1.0 + q * q);
    d->vs_rand = q * d->vs_sys;
    d->ls_rand = q * d->ls_sys;
    gsl_integration_fixed_workspace *w =
        gsl_integration_fixed_alloc(gsl_integration_fixed_hermite, VAR__GH, 0.0, 0.5, 0.0, 0.0);
    if (!w)
        return VAR_ENOMEM;
    const double *x = gsl_integration_fixed_nodes(w), *wt = gsl_integration_fixed_weights(w);
    for (int i = 0; i < VAR__GH; i++) {
        d->gh_x[i] = x[i];
        d->gh_w[i] = wt[i] / sqrt(2.0 * M_PI); /* weight exp(-x^2/2): make it N(0,1) */
    }
    gsl_integration_fixed_free(w);
    return VAR_OK;
}

double var__log_delay(const var__dist *d, double g, double zv, double zl)
{
    double vth = d->t.vth0 * (1.0 + d->vs_sys * g + d->vs_rand * zv);
    double leff = 1.0 + d->ls_sys * g + d->ls_rand * zl;
    return log(var_cell_delay(&d->t, vth, leff));
}


/* Everything about one field value g that does not depend on the delay asked for. */
typedef struct gctx {
    const var__dist *d;
    double g, sv, sl;
    double K[VAR__GH]; /* ((Vdd - Vth) / (Vdd - Vth0))^alpha at each Vth node, 0 if off */
} gctx;

static void gctx_init(gctx *c, const var__dist *d, double g)
{
    const var_timing *t = &d->t;
    c->d = d, c->g = g, c->sv = d->vs_sys * g, c->sl = d->ls_sys * g;
    for (int k = 0; k < VAR__GH; k++) {
        double ov = t->vdd - t->vth0 * (1.0 + c->sv + d->vs_rand * d->gh_x[k]);
        c->K[k] = ov > 0.0 ? pow(ov / (t->vdd - t->vth0), t->alpha) : 0.0;
    }
}

/* P(Z <= z) and P(Z > z) with one erfc, each accurate in its own tail. */
static void phi2(double z, double *P, double *S)
{
    if (z < 0)
        *P = 0.5 * erfc(-z * M_SQRT1_2), *S = 1.0 - *P;
    else
        *S = 0.5 * erfc(z * M_SQRT1_2), *P = 1.0 - *S;
}

static void lcdf(const gctx *c, double y, double *lnF, double *lnS)
{
    const var__dist *d = c->d;
    const var_timing *t = &d->t;
    if (y >= log(VAR_DELAY_CAP)) {
        *lnF = 0.0, *lnS = -INFINITY;
        return;
    }
    double F = 0.0, S = 0.0;
    if (d->ls_rand > 0.0) {
        /* outer: Gauss-Hermite over the Vth deviate; inner: the Leff that meets y */
        double ey = exp(y);
        for (int k = 0; k < VAR__GH; k++) {
            double leff_max = ey * c->K[k], P = 0.0, Sk = 1.0;
            if (c->K[k] > 0.0 && leff_max >= LEFF_MIN)
                phi2((leff_max - 1.0 - c->sl) / d->ls_rand, &P, &Sk);
            F += d->gh_w[k] * P;
            S += d->gh_w[k] * Sk;
        }
    } else if (d->vs_rand > 0.0) {
        double leff = fmax(1.0 + c->sl, LEFF_MIN);
        double ovmin = (t->vdd - t->vth0) * pow(leff * exp(-y), 1.0 / t->alpha);
        phi2(((t->vdd - ovmin) / t->vth0 - 1.0 - c->sv) / d->vs_rand, &F, &S);
    } else {
        int below = var__log_delay(d, c->g, 0.0, 0.0) <= y;
        F = below, S = !below;
    }
    *lnF = S < 0.5 ? log1p(-S) : log(F);
    *lnS = F < 0.5 ? log1p(-F) : log(S);
}

void var__cell_lcdf(const var__dist *d, double g, double y, double *lnF, double *lnS)
{
    gctx c;
    gctx_init(&c, d, g);
    lcdf(&c, y, lnF, lnS);
}

/* logit(F(y)^n): increasing in y. */
static double max_logit(const gctx *c, int n, double y)
{
    double lnF, lnS;
    lcdf(c, y, &lnF, &lnS);
    if (lnF == 0.0)
        return INFINITY;
    double lnFn = n * lnF;
    double ln1m = n == 1 ? lnS : log(-expm1(lnFn)); /* ln(1 - F^n), lnS is exact for n 1 */
    return lnFn - ln1m;
}

/* Normal approximation of the quantile: a starting bracket for the root finder. */
static double guess(const var__dist *d, int n, double g, double x, double *scale)
{
    const var_timing *t = &d->t;
    double sv = d->vs_sys * g, sl = d->ls_sys * g;
    double a = t->alpha * t->vth0 * d->vs_rand / fmax(t->vdd - t->vth0 * (1.0 + sv), 1e-3);
    double b = d->ls_rand / fmax(1.0 + sl, 1e-3);
    *scale = fmax(sqrt(a * a + b * b), 1e-3);
    double lnu = x >= 0 ? -log1p(exp(-x)) : x - log1p(exp(x)); /* ln(logistic(x)) */
    double lnFt = lnu / n;
    double z = lnFt > -0.7 ? gsl_cdf_ugaussian_Qinv(-expm1(lnFt)) : gsl_cdf_ugaussian_Pinv(exp(lnFt));
    return var__log_delay(d, g, 0.0, 0.0) + *scale * z;
}

/* The y with logit(F(y)^n) = x: bracket from the normal guess, then Illinois. */
static double solve(const gctx *c, int n, double x, const double *prev)
{
    const var__dist *d = c->d;
    double step;
    double y = guess(d, n, c->g, x, &step);
    if (prev) { /* along a table column: extrapolate the last two solutions */
        y = 2 * prev[-1] - prev[-2];
        step = fmax(0.05 * fabs(prev[-1] - prev[-2]), 1e-9);
    }
    double ycap = log(VAR_DELAY_CAP);
    double lo = fmin(y - step, ycap), hi = fmin(y + step, ycap);
    double flo = max_logit(c, n, lo) - x, fhi = max_logit(c, n, hi) - x;
    for (int i = 0; flo > 0 && i < 200; i++, step *= 2)
        lo -= step, flo = max_logit(c, n, lo) - x;
    for (int i = 0; fhi < 0 && hi < ycap && i < 200; i++, step *= 2)
        hi = fmin(hi + step, ycap), fhi = max_logit(c, n, hi) - x;
    if (fhi < 0)
        return ycap;
    /* Illinois regula falsi: superlinear, never leaves the bracket */
    int side = 0;
    for (int i = 0; i < 100 && hi - lo > 1e-13 * (1.0 + fabs(hi)); i++) {
        double m = (isfinite(flo) && isfinite(fhi)) ? (lo * fhi - hi * flo) / (fhi - flo)
                                                     : 0.5 * (lo + hi);
        if (!(m > lo && m < hi))
            m = 0.5 * (lo + hi);
        double fm = max_logit(c, n, m) - x;
        if (fm == 0)
            return m;
        if (fm < 0) {
            lo = m, flo = fm;
            if (side == -1)
                fhi *= 0.5;
            side = -1;
        } else {
            hi = m, fhi = fm;
            if (side == 1)
                flo *= 0.5;
            side = 1;
        }
    }
    return 0.5 * (lo + hi);
}

double var__maxq_exact(const var__dist *d, int n, double g, double x)
{
    if (d->vs_rand == 0.0 && d->ls_rand == 0.0)
        return var__log_delay(d, g, 0.0, 0.0);
    gctx c;
    gctx_init(&c, d, g);
    return solve(&c, n, x, NULL);
}

void var__maxq_column(const var__dist *d, int n, double g, const double *x, int nx,
                      double *out)
{
    gctx c;
    gctx_init(&c, d, g);
    for (int i = 0; i < nx; i++)
        out[i] = (d->vs_rand == 0.0 && d->ls_rand == 0.0)
                     ? var__log_delay(d, g, 0.0, 0.0)
                     : solve(&c, n, x[i], i >= 2 && out[i - 1] < log(VAR_DELAY_CAP) ? out + i : NULL);
}
