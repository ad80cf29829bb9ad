/* Non-dominated sorting, crowding distance and 2-D hypervolume (ana_pareto.h). */
#include "ana_pareto.h"

#include <math.h>
#include <stdlib.h>

static int has_nan(const double *a, int m)
{
    for (int j = 0; j < m; j++)
        if (isnan(a[j]))
            return 1;
    return 0;
}

int ana_pareto_dominates(const double *a, const double *b, int m)
{
    if (has_nan(a, m))
        return 0;
    if (has_nan(b, m))
        return 1;
    int better = 0;
    for (int j = 0; j < m; j++) {
        if (a[j] > b[j])
            return 0;
        better |= a[j] < b[j];
    }
    return better;
}

int ana_pareto_rank(const double *f, int n, int m, int *rank)
{
    int *left = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!left)
        return -1;
    int n_left = n, r = 0;
    for (int i = 0; i < n; i++)
        left[i] = i, rank[i] = -1;
    /* Peel fronts: a point is in this front when no remaining point dominates it. */
    while (n_left > 0) {
        int k = 0;
        for (int a = 0; a < n_left; a++) {
            int i = left[a], dominated = 0;
            for (int b = 0; b < n_left && !dominated; b++)
                dominated = b != a && ana_pareto_dominates(f + (size_t)left[b] * (size_t)m,
                                                           f + (size_t)i * (size_t)m, m);
            if (!dominated)
                rank[i] = r;
        }
        for (int a = 0; a < n_left; a++)
            if (rank[left[a]] < 0)
                left[k++] = left[a];
        if (k == n_left) { /* only NaN points left: one last rank */
            for (int a = 0; a < n_left; a++)
                rank[left[a]] = r;
            k = 0;
        }
        n_left = k;
        r++;
    }
    free(left);
    return r;
}

typedef struct keyed {
    double v;
    int i;
} keyed;

static int by_v(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i); /* ties: by index, so the order is defined */
}

int ana_pareto_crowding(const double *f, int m, const int *idx, int k, double *dist)
{
    keyed *s = malloc(sizeof *s * (size_t)(k > 0 ? k : 1));
    if (!s)
        return -1;
    for (int a = 0; a < k; a++)
        dist[a] = 0.0;
    for (int j = 0; j < m; j++) {
        for (int a = 0; a < k; a++)
            s[a] = (keyed){ f[(size_t)idx[a] * (size_t)m + (size_t)j], a };
        qsort(s, (size_t)k, sizeof *s, by_v);
        double span = k > 0 ? s[k - 1].v - s[0].v : 0.0;
        if (k > 0)
            dist[s[0].i] = dist[s[k - 1].i] = INFINITY;
        for (int a = 1; a + 1 < k; a++)
            if (span > 0)
                dist[s[a].i] += (s[a + 1].v - s[a - 1].v) / span;
    }
    free(s);
    return 0;
}

double ana_pareto_hypervolume2(const double *f, int n, const double ref[2])
{
    keyed *s = malloc(sizeof *s * (size_t)(n > 0 ? n : 1));
    if (!s)
        return -1;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!has_nan(f + 2 * i, 2) && f[2 * i] < ref[0] && f[2 * i + 1] < ref[1])
            s[k++] = (keyed){ f[2 * i], i };
    qsort(s, (size_t)k, sizeof *s, by_v);
    /* Sweep by the first objective: each point adds the strip below the best second
     * objective so far. */
    double hv = 0.0, best = ref[1];
    for (int a = 0; a < k; a++) {
        double y = f[2 * s[a].i + 1];
        if (y < best) {
            hv += (ref[0] - s[a].v) * (best - y);
            best = y;
        }
    }
    free(s);
    return hv;
}
