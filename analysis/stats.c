/* Summary statistics of one sample over chips: NaN skipped and counted. */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "ana.h"

static void set_all_nan(ana_stats *s)
{
    s->mean = s->std = s->p5 = s->p50 = s->p95 = NAN;
    s->min = s->max = s->ci_low = s->ci_high = NAN;
}

void ana_stats_compute(const double *x, size_t n, size_t stride, double *work, ana_stats *out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double v = x[i * stride];
        if (isnan(v))
            continue;
        else
            work[m++] = v;
    }
    out->n = m;
    out->n_nan = n - m;
    set_all_nan(out);
    if (m == 0)
        return;
    /* Sorted once: min, max and the quantiles read off the sorted copy. */
    gsl_sort(work, 1, m);
    out->min = work[0];
    out->max = work[m - 1];
    out->mean = gsl_stats_mean(work, 1, m);
    out->p5 = gsl_stats_quantile_from_sorted_data(work, 1, m, 0.05);
    out->p50 = gsl_stats_quantile_from_sorted_data(work, 1, m, 0.50);
    out->p95 = gsl_stats_quantile_from_sorted_data(work, 1, m, 0.95);
    if (m < 2)
        return;
    out->std = gsl_stats_sd_m(work, 1, m, out->mean);
    double half = gsl_cdf_tdist_Pinv(0.975, (double)(m - 1)) * out->std / sqrt((double)m);
    out->ci_low = out->mean - half;
    out->ci_high = out->mean + half;
}
