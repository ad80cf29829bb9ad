/* Helpers shared by the variation tests: cmocka set-up and the statistics checkers. */
#ifndef RFDSE_VTEST_H
#define RFDSE_VTEST_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

/* Asserts |a - b| <= tol and prints both values when it fails. */
#define assert_close(a, b, tol)                                                            \
    do {                                                                                   \
        double a_ = (a), b_ = (b), t_ = (tol);                                             \
        if (!(fabs(a_ - b_) <= t_))                                                        \
            fail_msg("%s = %.10g, %s = %.10g, |diff| %.3g > tol %.3g", #a, a_, #b, b_,     \
                     fabs(a_ - b_), t_);                                                   \
    } while (0)

static inline int vt_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Two-sample Kolmogorov-Smirnov statistic; sorts both arrays in place. */
static inline double vt_ks2(double *a, size_t n, double *b, size_t m)
{
    qsort(a, n, sizeof *a, vt_cmp_double);
    qsort(b, m, sizeof *b, vt_cmp_double);
    size_t i = 0, j = 0;
    double d = 0.0;
    while (i < n && j < m) {
        double v = a[i] < b[j] ? a[i] : b[j];
        while (i < n && a[i] <= v)
            i++;
        while (j < m && b[j] <= v)
            j++;
        double e = fabs((double)i / n - (double)j / m);
        d = e > d ? e : d;
    }
    return d;
}

/* Critical value of the two-sample KS statistic at level alpha (asymptotic:
 * c(alpha) sqrt((n + m) / (n m)), c = sqrt(-ln(alpha / 2) / 2); alpha = 1e-3 gives
 * c = 1.949).  With n, m >= 10^4 the asymptotic form is accurate to a few percent. */
static inline double vt_ks2_crit(size_t n, size_t m, double alpha)
{
    return sqrt(-log(alpha / 2.0) / 2.0) * sqrt((double)(n + m) / ((double)n * m));
}

#endif
