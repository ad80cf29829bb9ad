/* k-th smallest of a const array without a copy: technique_apply works on a const chip
 * and must not allocate, so instead of quickselect on a scratch copy we narrow a value
 * range with histogram passes (4096 bins each: two or three passes for continuous data). */
#include <assert.h>
#include <math.h>

#include "var_internal.h"

#define NBINS 4096

static int bin_of(double v, double lo, double scale)
{
    int b = (int)((v - lo) * scale);
    return b < 0 ? 0 : b >= NBINS ? NBINS - 1 : b;
}

double var__kth_smallest(const double *x, int n, int k)
{
    assert(n > 0 && k >= 0 && k < n);
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++)
        lo = fmin(lo, x[i]), hi = fmax(hi, x[i]);
    int hist[NBINS];
    for (int pass = 0; pass < 64 && lo < hi; pass++) {
        /* invariant: exactly k values of x below the candidates, which are in [lo, hi] */
        double scale = NBINS / (hi - lo);
        if (!isfinite(scale))
            scale = NBINS / (hi / 2 - lo / 2) / 2; /* range near DBL_MAX */
        for (int b = 0; b < NBINS; b++)
            hist[b] = 0;
        for (int i = 0; i < n; i++)
            if (x[i] >= lo && x[i] <= hi)
                hist[bin_of(x[i], lo, scale)]++;
        int b = 0;
        while (k >= hist[b])
            k -= hist[b++];
        /* bin_of is monotone, so bin b's values are exactly those in [nlo, nhi] */
        double nlo = INFINITY, nhi = -INFINITY;
        for (int i = 0; i < n; i++)
            if (x[i] >= lo && x[i] <= hi && bin_of(x[i], lo, scale) == b)
                nlo = fmin(nlo, x[i]), nhi = fmax(nhi, x[i]);
        lo = nlo, hi = nhi;
    }
    assert(lo == hi);
    return lo;
}
