/* NSGA-II: non-dominated sorting and crowding (analysis/pareto.c), binary tournaments,
 * simulated binary crossover and polynomial mutation on genomes in [0, 1]. */
#include "dse_nsga2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <assert.h>

#include "ana_pareto.h"

dse_nsga2 dse_nsga2_default(int n_var, int n_obj, int pop, uint64_t seed)
{
    return (dse_nsga2){ .n_var = n_var, .n_obj = n_obj, .pop = pop, .seed = seed,
                        .p_cross = 0.9, .eta_c = 15.0, .eta_m = 20.0 };
}

/* A counter-based stream keyed by (seed, generation): splitmix64 over a counter. */
typedef struct stream {
    uint64_t key, n;
} stream;

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(stream *s) /* [0, 1) with 53 bits */
{
    return (double)(mix(s->key + 0x9e3779b97f4a7c15ULL * ++s->n) >> 11) * 0x1.0p-53;
}

static int pick(stream *s, int n)
{
    int i = (int)(uniform(s) * n);
    return i < n ? i : n - 1;
}

typedef struct member {
    int idx;      /* global point index   */
    int rank;
    double crowd;
} member;

/* Better in the crowded-comparison order: lower rank, then larger crowding, then index
 * (so the order is total and the outcome defined). */
static int better(const member *a, const member *b)
{
    if (a->rank != b->rank)
        return a->rank < b->rank;
    if (a->crowd != b->crowd)
        return a->crowd > b->crowd;
    return a->idx < b->idx;
}

static int by_order(const void *x, const void *y)
{
    const member *a = x, *b = y;
    return better(a, b) ? -1 : better(b, a) ? 1 : 0;
}

/* Ranks and crowding of the n points idx[] (their objectives in f). */
static int assess(const dse_nsga2 *c, const double *f, const int *idx, int n, member *m)
{
    double *g = malloc(sizeof(double) * (size_t)n * (size_t)c->n_obj);
    int *rank = malloc(sizeof(int) * (size_t)n), *front = malloc(sizeof(int) * (size_t)n);
    double *dist = malloc(sizeof(double) * (size_t)n);
    int rc = g && rank && front && dist ? 0 : -1;
    for (int i = 0; !rc && i < n; i++)
        memcpy(g + (size_t)i * (size_t)c->n_obj, f + (size_t)idx[i] * (size_t)c->n_obj,
               sizeof(double) * (size_t)c->n_obj);
    int n_ranks = rc ? 0 : ana_pareto_rank(g, n, c->n_obj, rank);
    rc |= n_ranks < 0;
    for (int r = 0; !rc && r < n_ranks; r++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (rank[i] == r)
                front[k++] = i;
        rc = ana_pareto_crowding(g, c->n_obj, front, k, dist);
        for (int a = 0; !rc && a < k; a++)
            m[front[a]] = (member){ idx[front[a]], r, dist[a] };
    }
    free(g);
    free(rank);
    free(front);
    free(dist);
    return rc;
}

/* The population after generation g: P_0 = generation 0; P_t = the best pop of
 * P_{t-1} and generation t (fronts in order, the last one by crowding). */
static int replay(const dse_nsga2 *c, int g, const double *f, member *popm)
{
    int N = c->pop;
    int *both = malloc(sizeof(int) * 2 * (size_t)N);
    member *m = malloc(sizeof(member) * 2 * (size_t)N);
    int rc = both && m ? 0 : -1;
    for (int i = 0; i < N; i++)
        both[i] = i;
    rc = rc || assess(c, f, both, N, popm);
    for (int t = 1; !rc && t <= g; t++) {
        for (int i = 0; i < N; i++)
            both[i] = popm[i].idx, both[N + i] = t * N + i;
        rc = assess(c, f, both, 2 * N, m);
        if (!rc) {
            qsort(m, 2 * (size_t)N, sizeof *m, by_order);
            /* crowding is of the whole front; the survivors are re-assessed among
             * themselves for the tournaments */
            for (int i = 0; i < N; i++)
                both[i] = m[i].idx;
            rc = assess(c, f, both, N, popm);
        }
    }
    free(both);
    free(m);
    return rc;
}

static void sbx(const dse_nsga2 *c, stream *s, double *a, double *b)
{
    for (int j = 0; j < c->n_var; j++) {
        if (uniform(s) > 0.5 || fabs(a[j] - b[j]) < 1e-14)
            continue;
        double u = uniform(s);
        double beta = u <= 0.5 ? pow(2.0 * u, 1.0 / (c->eta_c + 1.0))
                               : pow(1.0 / (2.0 * (1.0 - u)), 1.0 / (c->eta_c + 1.0));
        double x = 0.5 * ((1 + beta) * a[j] + (1 - beta) * b[j]);
        double y = 0.5 * ((1 - beta) * a[j] + (1 + beta) * b[j]);
        a[j] = fmin(1.0, fmax(0.0, x));
        b[j] = fmin(1.0, fmax(0.0, y));
    }
}

static void mutate(const dse_nsga2 *c, stream *s, double *x)
{
    for (int j = 0; j < c->n_var; j++) {
        if (uniform(s) >= 1.0 / c->n_var)
            continue;
        double u = uniform(s), e = 1.0 / (c->eta_m + 1.0);
        double d = u < 0.5 ? pow(2.0 * u + (1 - 2.0 * u) * pow(1 - x[j], c->eta_m + 1), e) - 1.0
                           : 1.0 - pow(2.0 * (1 - u) + 2.0 * (u - 0.5) * pow(x[j], c->eta_m + 1), e);
        x[j] = fmin(1.0, fmax(0.0, x[j] + d));
    }
}

int dse_nsga2_next(const dse_nsga2 *c, int g, const double *x, const double *f, double *next)
{
    int N = c->pop, V = c->n_var;
    assert(V <= 64 && N >= 2);
    member *popm = malloc(sizeof(member) * (size_t)N);
    if (!popm || replay(c, g, f, popm)) {
        free(popm);
        return -1;
    }
    stream s = { mix(c->seed ^ mix(0x6e736761ULL + (uint64_t)g)), 0 }; /* "nsga", g */
    for (int i = 0; i < N; i += 2) {
        const member *p[2];
        for (int k = 0; k < 2; k++) { /* binary tournament */
            const member *a = &popm[pick(&s, N)], *b = &popm[pick(&s, N)];
            p[k] = better(a, b) ? a : b;
        }
        double ca[64], cb[64];
        memcpy(ca, x + (size_t)p[0]->idx * (size_t)V, sizeof(double) * (size_t)V);
        memcpy(cb, x + (size_t)p[1]->idx * (size_t)V, sizeof(double) * (size_t)V);
        if (uniform(&s) < c->p_cross)
            sbx(c, &s, ca, cb);
        mutate(c, &s, ca);
        mutate(c, &s, cb);
        memcpy(next + (size_t)i * (size_t)V, ca, sizeof(double) * (size_t)V);
        if (i + 1 < N)
            memcpy(next + (size_t)(i + 1) * (size_t)V, cb, sizeof(double) * (size_t)V);
    }
    free(popm);
    return 0;
}

int dse_nsga2_population(const dse_nsga2 *c, int g, const double *f, uint8_t *survivors)
{
    member *popm = malloc(sizeof(member) * (size_t)c->pop);
    if (!popm || replay(c, g, f, popm)) {
        free(popm);
        return -1;
    }
    memset(survivors, 0, (size_t)(g + 1) * (size_t)c->pop);
    for (int i = 0; i < c->pop; i++)
        survivors[popm[i].idx] = 1;
    free(popm);
    return 0;
}
