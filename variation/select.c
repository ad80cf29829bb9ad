/* k-th smallest of a const array without a copy: technique_apply works on a const chip
 * and must not allocate.  First a guess: the k-th value's neighbours in a regular sample
 * bound a range, and one read of the array counts the values below it and gathers those
 * in it into a stack buffer, where a quickselect finishes.  When the guess misses (the
 * k-th value outside the range, or too many values in it) we narrow a value range with
 * histogram passes (4096 bins each); for continuous data the k-th value's bin holds a
 * handful of values after the first pass, gathered and sorted likewise.  Any of these
 * finds the same value: the k-th smallest. */
#include <assert.h>
#include <math.h>
#include <stdbool.h>

#include "var_internal.h"

#define NBINS 4096
#define NCAND 256 /* a bin with at most this many values is finished by sorting them */
#define SAMPLES 1024 /* the guess's regular sample, of arrays of 4 * SAMPLES values or more */
#define MARGIN 40    /* sample ranks either side of the k-th's (reference chips: within 41) */
#define NGATHER 4096 /* values in the guessed range: 1.6 x the expected 2 * MARGIN * n / SAMPLES */

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

/* Quickselect: v[k] ends as the k-th smallest of v[0..n) (no NaN), none larger before. */
static double select_in_place(double *v, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = v[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) { /* Hoare: [lo, j] <= pivot <= [i, hi], pivots between */
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return v[k];
}

/* The guessed range [lo, hi] around the k-th value from a regular sample (open at the
 * ends of the sample); false if the sample has a NaN.  The stride is odd so that the
 * sample takes every lane of register vectors a power of two wide (one lane alone is
 * not representative: its position in the bank shifts its delays). */
static bool sample_range(const double *x, int n, int k, double *lo, double *hi)
{
    double s[SAMPLES];
    int stride = (n / SAMPLES - 1) | 1;
    for (int i = 0; i < SAMPLES; i++)
        if (isnan(s[i] = x[(size_t)i * (size_t)stride]))
            return false;
    int j = (int)((long long)k * SAMPLES / n), a = j - MARGIN, b = j + MARGIN;
    *lo = a < 0 ? -INFINITY : select_in_place(s, SAMPLES, a);
    a = a < 0 ? 0 : a + 1; /* s[a..] are those not below *lo */
    *hi = b >= SAMPLES ? INFINITY : select_in_place(s + a, SAMPLES - a, b - a);
    return true;
}

/* The k-th smallest by the guess, and *below; false if the guess misses. */
static bool kth_guessed(const double *x, int n, int k, double *kth, int *below)
{
    double lo, hi, buf[NGATHER];
    if (n < 4 * SAMPLES || !sample_range(x, n, k, &lo, &hi))
        return false;
    int c = 0, nb = 0;
    for (int i = 0; i < n; i++) {
        double v = x[i];
        if (v < lo)
            nb++;
        else if (v <= hi) {
            if (c == NGATHER)
                return false;
            buf[c++] = v;
        }
    }
    if (k < nb || k >= nb + c)
        return false;
    double v = select_in_place(buf, c, k - nb);
    for (int i = 0; i < c; i++)
        nb += buf[i] < v;
    *kth = v, *below = nb;
    return true;
}

/* The histogram passes. */
static double kth_by_histogram(const double *x, int n, int k, int *below)
{
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

double var__kth_smallest_below(const double *x, int n, int k, int *below)
{
    assert(n > 0 && k >= 0 && k < n);
    double v;
    if (kth_guessed(x, n, k, &v, below))
        return v;
    return kth_by_histogram(x, n, k, below);
}

double var__kth_smallest(const double *x, int n, int k)
{
    int below;
    return var__kth_smallest_below(x, n, k, &below);
}
