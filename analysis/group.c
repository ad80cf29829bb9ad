/* Which techniques have identical distributions, so a figure draws them once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"

/* NaN last, so two samples with NaN in the same count still sort alike. */
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y))
        return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

static int same(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(a[i] == b[i] || (isnan(a[i]) && isnan(b[i]))))
            return 0;
    return 1;
}

int ana_group_identical(const double *x, int n_rows, int n_seg, size_t len, int *group)
{
    size_t row = (size_t)n_seg * len;
    double *sorted = malloc(sizeof(double) * (row * (size_t)n_rows + 1));
    if (!sorted)
        return -1;
    memcpy(sorted, x, sizeof(double) * row * (size_t)n_rows);
    /* Each segment sorted on its own: a distribution is the multiset of its values, and
     * the segments (axis points) must match one by one. */
    for (size_t s = 0; s < (size_t)n_rows * (size_t)n_seg; s++)
        qsort(sorted + s * len, len, sizeof(double), by_value);
    int n = 0;
    for (int t = 0; t < n_rows; t++) {
        group[t] = t;
        for (int u = 0; u < t && group[t] == t; u++)
            if (group[u] == u && same(sorted + (size_t)t * row, sorted + (size_t)u * row, row))
                group[t] = u;
        n += group[t] == t;
    }
    free(sorted);
    return n;
}
