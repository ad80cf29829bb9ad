/* Histogram counts through GSL. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_histogram.h>

#include "ana.h"

int ana_hist_fill(const double *x, size_t n, size_t stride, const double *edges, int n_bins,
                  uint64_t *counts)
{
    for (int b = 0; b < n_bins; b++)
        counts[b] = 0;
    if (isnan(edges[0]))
        return ANA_EOK; /* no finite data: an empty histogram */
    gsl_histogram *h = gsl_histogram_alloc((size_t)n_bins);
    if (!h)
        return ANA_ENOMEM;
    gsl_histogram_set_ranges(h, edges, (size_t)n_bins + 1);
    for (size_t i = 0; i < n; i++) {
        double v = x[i * stride];
        /* Edges cover the finite range by construction (bins.c), so only NaN (and
         * infinities, which the statistics count as values) miss. */
        if (isfinite(v))
            gsl_histogram_increment(h, v);
    }
    for (int b = 0; b < n_bins; b++)
        counts[b] = (uint64_t)gsl_histogram_get(h, (size_t)b);
    gsl_histogram_free(h);
    return ANA_EOK;
}
