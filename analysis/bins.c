/* Reproducible histogram bins: a count from the sample size, a width rounded to a nice
 * number, edges on multiples of the width.  The same data always give the same edges,
 * and the edges read well on a figure's axis. */
#include <math.h>

#include "ana.h"

int ana_bins_count(size_t n)
{
    int b = (int)ceil(2.0 * cbrt((double)n));
    return b < ANA_BINS_MIN ? ANA_BINS_MIN : b > ANA_BINS_MAX ? ANA_BINS_MAX : b;
}

double ana_bins_nice(double raw)
{
    static const double mant[] = { 1.0, 2.0, 2.5, 5.0, 10.0 };
    double p = pow(10.0, floor(log10(raw)));
    for (size_t i = 0; i < sizeof mant / sizeof mant[0]; i++)
        /* The tolerance keeps raw = 0.02 from rounding up to 0.025 through log10 noise. */
        if (mant[i] * p >= raw * (1.0 - 1e-12))
            return mant[i] * p;
    return 10.0 * p;
}

void ana_bins_edges(double min, double max, int n_bins, double *edges)
{
    if (!isfinite(min) || !isfinite(max) || max < min) {
        for (int i = 0; i <= n_bins; i++)
            edges[i] = NAN;
        return;
    }
    double w;
    if (max > min)
        w = ana_bins_nice((max - min) / (n_bins - 1));
    else
        w = ana_bins_nice(min != 0.0 ? 1e-3 * fabs(min) : 1e-3);
    /* Integer multiples of w keep edges such as 0.85 exact to the last digit printed. */
    double k0 = floor(min / w);
    for (int i = 0; i <= n_bins; i++)
        edges[i] = (k0 + i) * w;
    /* floor() of a quotient that should be exact may land one bin high. */
    if (edges[0] > min)
        for (int i = 0; i <= n_bins; i++)
            edges[i] -= w;
}
