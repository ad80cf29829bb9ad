/* k-th smallest of a const array without a copy: technique_apply works on a const chip
 * and must not allocate, so instead of quickselect on a scratch copy we narrow a value
 * range with histogram passes (4096 bins each).  For continuous data the k-th value's
 * bin holds a handful of values after the first pass: those are gathered into a small
 * stack buffer and sorted, so a call reads the array three times (range, histogram,
 * gather) instead of once plus two per pass.  A crowded bin (many equal values) takes
 * further passes as before.  Any of these finds the same value: the k-th smallest. */
#include <assert.h>
#include <math.h>

#include "var_internal.h"

#define NBINS 4096
#define NCAND 256 /* a bin with at most this many values is finished by sorting them */

static int bin_of(double v, double lo, double scale)
{
    int b = (int)((v - lo) * scale);
    return b < 0 ? 0 : b >= NBINS ? NBINS - 1 : b;
}

/* NaNs are skipped, as fmin and fmax do; plain comparisons are cheaper than their calls. */
static void value_range(const double *x, int n, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    for (int i = 0; i < n; i++) {
        a = x[i] < a ? x[i] : a;
        b = x[i] > b ? x[i] : b;
    }
    *lo = a, *hi = b;
}

static double bin_scale(double lo, double hi)
{
    double scale = NBINS / (hi - lo);
    if (!isfinite(scale))
        scale = NBINS / (hi / 2 - lo / 2) / 2; /* range near DBL_MAX */
    return scale;
}

/* Insertion sort of the few candidates (values in [lo, hi]: no NaN). */
static void sort_few(double *v, int n)
{
    for (int i = 1; i < n; i++) {
        double x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* The k-th smallest of the m values of bin b of [lo, hi] (m <= NCAND); *below += how
 * many of them are smaller. */
static double kth_of_bin(const double *x, int n, double lo, double hi, double scale, int b,
                         int m, int k, int *below)
{
    double cand[NCAND];
    int c = 0;
    for (int i = 0; i < n; i++)
        if (x[i] >= lo && x[i] <= hi && bin_of(x[i], lo, scale) == b)
            cand[c++] = x[i];
    assert(c == m);
    (void)m;
    sort_few(cand, c);
    int j = k;
    while (j > 0 && cand[j - 1] == cand[k])
        j--;
    *below += j;
    return cand[k];
}

double var__kth_smallest_below(const double *x, int n, int k, int *below)
{
    assert(n > 0 && k >= 0 && k < n);
    int k0 = k;
    double lo, hi;
    value_range(x, n, &lo, &hi);
    int hist[NBINS];
    for (int pass = 0; pass < 64 && lo < hi; pass++) {
        /* invariant: exactly k values of x below the candidates, which are in [lo, hi] */
        double scale = bin_scale(lo, hi);
        for (int b = 0; b < NBINS; b++)
            hist[b] = 0;
        for (int i = 0; i < n; i++)
            if (x[i] >= lo && x[i] <= hi)
                hist[bin_of(x[i], lo, scale)]++;
        int b = 0;
        while (k >= hist[b])
            k -= hist[b++];
        if (hist[b] <= NCAND) {
            *below = k0 - k;
            return kth_of_bin(x, n, lo, hi, scale, b, hist[b], k, below);
        }
        /* bin_of is monotone, so bin b's values are exactly those in [nlo, nhi] */
        double nlo = INFINITY, nhi = -INFINITY;
        for (int i = 0; i < n; i++)
            if (x[i] >= lo && x[i] <= hi && bin_of(x[i], lo, scale) == b) {
                nlo = x[i] < nlo ? x[i] : nlo;
                nhi = x[i] > nhi ? x[i] : nhi;
            }
        lo = nlo, hi = nhi;
    }
    assert(lo == hi);
    *below = k0 - k; /* the candidates left are all equal */
    return lo;
}

double var__kth_smallest(const double *x, int n, int k)
{
    int below;
    return var__kth_smallest_below(x, n, k, &below);
}
