/* A search's generations: objectives from the results file, the next generation from
 * NSGA-II over genomes in [0, 1] (a knob's value <-> its genome: dse_axes_to_unit and
 * dse_axes_from_unit, the Sobol mapping of generation 0). */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_pareto.h"
#include "dse_nsga2.h"

static const char *const metric_axis[] = {
#define SEARCH_AXIS(name, axis, ...) #axis,
    RFDSE_UNIT_METRICS(SEARCH_AXIS)
#undef SEARCH_AXIS
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A statistic of x[0..n) (NaN left out): mean, or a quantile as GSL computes it. */
static double statistic(double *x, int n, dse_stat st)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(x[i]))
            x[k++] = x[i];
    if (!k)
        return NAN;
    if (st == DSE_STAT_MEAN) {
        double s = 0;
        for (int i = 0; i < k; i++)
            s += x[i];
        return s / k;
    }
    qsort(x, (size_t)k, sizeof *x, cmp_double);
    double q = st == DSE_STAT_P5 ? 0.05 : st == DSE_STAT_P50 ? 0.5 : 0.95;
    double pos = (k - 1) * q, lo = floor(pos);
    int i = (int)lo;
    return i + 1 < k ? x[i] + (pos - lo) * (x[i + 1] - x[i]) : x[i];
}

int dse__search_objectives(dse_results *r, const dse_sweep *s, const dse_dims *d, int first,
                           int n, double *f)
{
    const dse_axes *ax = &s->axes;
    int C = d->n_chips, T = d->n_techniques, t = ax->technique;
    double *chip = malloc(sizeof(double) * (size_t)C);
    int rc = chip ? 0 : -1;
    for (int o = 0; !rc && o < ax->n_objectives; o++) {
        const dse_objective *obj = &ax->objectives[o];
        bool by_year = !strcmp(metric_axis[obj->metric], "year");
        int inner = by_year ? d->n_years : d->n_benchmarks;
        double *v = malloc(sizeof(double) * (size_t)n * (size_t)C * (size_t)T * (size_t)inner);
        rc = !v || dse_results_read_metric(r, obj->metric, first, n, v);
        for (int p = 0; !rc && p < n; p++) {
            for (int c = 0; c < C; c++) {
                const double *u = v + (((size_t)p * (size_t)C + (size_t)c) * (size_t)T +
                                       (size_t)t) * (size_t)inner;
                double sum = 0;
                for (int i = 0; i < inner; i++)
                    sum += u[i];
                chip[c] = by_year ? u[inner - 1] : sum / inner;
            }
            double val = statistic(chip, C, obj->stat);
            f[(size_t)p * (size_t)ax->n_objectives + (size_t)o] = obj->maximise ? -val : val;
        }
        free(v);
    }
    free(chip);
    return rc;
}

int dse__search_next(const dse_sweep *s, int g, const double *values, const double *f,
                     double *next)
{
    const dse_axes *ax = &s->axes;
    int N = ax->population, K = ax->n_knobs;
    size_t all = (size_t)(g + 1) * (size_t)N;
    double *x = malloc(sizeof(double) * all * (size_t)K);
    double *y = malloc(sizeof(double) * (size_t)N * (size_t)K);
    int rc = x && y ? 0 : -1;
    for (size_t i = 0; !rc && i < all; i++)
        for (int j = 0; j < K; j++)
            x[i * (size_t)K + (size_t)j] = dse_axes_to_unit(&ax->knobs[j], values[i * (size_t)K + (size_t)j]);
    dse_nsga2 c = dse_nsga2_default(K, ax->n_objectives, N, s->chips.seed);
    rc = rc || dse_nsga2_next(&c, g, x, f, y);
    for (int i = 0; !rc && i < N * K; i++)
        next[i] = dse_axes_from_unit(&ax->knobs[i % K], y[i]);
    free(x);
    free(y);
    return rc;
}

double dse__search_hypervolume(const dse_sweep *s, int g, const double *f)
{
    const dse_axes *ax = &s->axes;
    if (ax->n_objectives != 2)
        return NAN;
    int N = ax->population;
    double ref[2];
    for (int o = 0; o < 2; o++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < N; i++) {
            double v = f[2 * i + o];
            if (!isnan(v))
                lo = fmin(lo, v), hi = fmax(hi, v);
        }
        ref[o] = hi + 0.1 * (hi > lo ? hi - lo : fabs(hi) + 1e-12);
    }
    return ana_pareto_hypervolume2(f, (g + 1) * N, ref);
}
