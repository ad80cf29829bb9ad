/* Tables of the quantile function of the maximum of n = 2^k cell log-delays.
 *
 * Drawing the maximum of n iid cells directly (inverse CDF of F^n, model.md section 4)
 * needs the quantile at a field value g for a uniform u.  The exact quantile costs a root
 * search over a quadrature; the table holds it on a grid of g and of an axis P(u) and
 * interpolates bilinearly.  It holds the maximum delay divided by the systematic delay
 * d_sys(g) (the cell delay with no random part): a delay, not a log-delay, so the Monte
 * Carlo path needs no exp per register, and divided by d_sys because the g dependence is
 * then mild enough for linear interpolation (the delay itself grows about exponentially
 * in g; interpolating it directly triples the error).  d_sys is computed exactly once per
 * grid point per chip (var__maxtab_gcol).
 *
 * The u axis.  The maximum's tails matter (the slowest of 10^5 registers is a 1e-6
 * quantile), so the axis must resolve u down to 2^-54 without a log per lookup, which
 * would cost as much as the rest of the draw.  u comes from a 53-bit integer k; write the
 * tail mass v = min(u, 1 - u) = (j + 0.5) 2^-53 and read its binary exponent o and
 * mantissa fraction f straight from the bits of the double j + 0.5: P = o + f + 1 in the
 * lower half, 106 - (o + f + 1) in the upper half.  P is continuous, increasing in u,
 * linear in v inside each binary octave, and the table has NSUB nodes per octave, so the
 * kinks of P fall on nodes.  Inside an octave the quantile is smooth in v (like ln v):
 * linear interpolation errs by about (1/NSUB)^2 / 8 of its slope.  Every 53-bit uniform
 * lies inside the table; g outside [-G_LIM, G_LIM] (P ~ 6e-14 per grid point) falls back
 * to the exact solver.  tests/variation/test_maxtab.c bounds the error. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "var_internal.h"

#define OCTAVES VAR__OCTAVES
#define NSUB VAR__NSUB
#define NP VAR__NP
#define G_LIM 7.5
#define G_STEP 0.25

double var__bits_logit(uint64_t k)
{
    int upper = k >= (1ULL << 52);
    uint64_t j = upper ? (1ULL << 53) - 1 - k : k;
    double v = ((double)j + 0.5) * (1.0 / 9007199254740992.0); /* tail mass, exact */
    double lv = log(v) - log1p(-v);
    return upper ? -lv : lv;
}

static double as_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t as_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* var__axis_node of n integers at once, written so GCC vectorises it (SSE2 has no
 * conversion between 64-bit integers and doubles, nor a 64-bit compare): every
 * conversion is done on the bits, exactly.  For 0 <= x < 2^52 the double with bits
 * 0x433 << 52 | x is 2^52 + x, so subtracting 2^52 gives (double)x exactly; 1.m - 1 is
 * m 2^-52 exactly (Sterbenz).  So j, jj, o and f are the same doubles as var__axis_of's,
 * and t, the axis and the node come from the same operations on them; the half is
 * picked by a mask instead of a branch.  tests/variation/test_chip_rows.c compares the
 * two. */
static inline __attribute__((always_inline)) void axis_batch(int n,
                                                             const uint64_t *restrict bits,
                                                             int32_t *restrict node,
                                                             double *restrict a)
{
    const uint64_t e52 = 0x4330000000000000ULL, one = 0x3FF0000000000000ULL;
    const uint64_t m52 = 0x000FFFFFFFFFFFFFULL, top = (1ULL << 53) - 1;
    const double two52 = 4503599627370496.0;
    for (int x = 0; x < n; x++) {
        uint64_t k = bits[x], upper = 0 - (k >> 52 & 1);
        uint64_t j = k ^ (upper & top);
        double jj = (as_double(e52 | j) - two52) + 0.5;
        uint64_t b = as_bits(jj);
        double o = (as_double(e52 | b >> 52) - two52) - 1023.0;
        double f = as_double(one | (b & m52)) - 1.0;
        double t = o + f + 1.0, tu = 2.0 * OCTAVES - t;
        double ax = as_double((as_bits(tu) & upper) | (as_bits(t) & ~upper));
        double fx = ax * NSUB;
        int32_t i = (int32_t)fx;
        i = i > NP - 2 ? NP - 2 : i;
        node[x] = i;
        a[x] = fx - i;
    }
}

void var__axis_batch_base(int n, const uint64_t *restrict bits, int32_t *restrict node,
                          double *restrict a)
{
    axis_batch(n, bits, node, a);
}

#if VAR__AXIS_AVX2
/* The same loop for AVX2's four-double vectors: 10 % of a chip's time (1.6 of 15.4 ms per
 * chip).  The same IEEE operations on the same values, only more of them per
 * instruction (AVX2 has no FMA, and -std=c11 keeps -ffp-contract=off). */
__attribute__((target("avx2"))) void var__axis_batch_avx2(int n, const uint64_t *restrict bits,
                                                          int32_t *restrict node,
                                                          double *restrict a)
{
    axis_batch(n, bits, node, a);
}
#endif

void var__axis_batch(int n, const uint64_t *restrict bits, int32_t *restrict node,
                     double *restrict a)
{
#if VAR__AXIS_AVX2
    if (__builtin_cpu_supports("avx2")) {
        var__axis_batch_avx2(n, bits, node, a);
        return;
    }
#endif
    var__axis_batch_base(n, bits, node, a);
}

/* logit(u) at axis node i, for building the table. */
static double node_logit(int i)
{
    double P = (double)i / NSUB;
    int upper = P > OCTAVES;
    double t = upper ? 2.0 * OCTAVES - P : P;
    int o = (int)floor(t - 1.0);
    if (o > OCTAVES - 2)
        o = OCTAVES - 2;
    double jj = ldexp(1.0 + (t - 1.0 - o), o);
    double v = jj * (1.0 / 9007199254740992.0);
    double lv = log(v) - log1p(-v);
    return upper ? -lv : lv;
}

/* Puts n bytes at *at and advances it. */
static void put(uint8_t **at, const void *v, size_t n)
{
    memcpy(*at, v, n);
    *at += n;
}

#define ID_MAX (64 + 16 * sizeof(double) + 2 * VAR__GH * sizeof(double))

/* The name of table k built for d: a format tag, the table's shape, every input of its
 * values (var_timing field by field: no padding) and the processor features that pick
 * glibc's exp, log and pow builds (keep.c), so different inputs, or a store shared by
 * nodes of different kinds, never share a name.  The code that computes them is the
 * caller's to tell apart (var.h). */
static size_t table_id(const var__dist *d, int k, int ng, uint8_t *id)
{
    uint8_t *at = id;
    const int32_t shape[] = { 2, k, NP, ng, NSUB, OCTAVES, VAR__GH, (int32_t)d->t.cell,
                              (int32_t)var__cpu_features() };
    const double knobs[] = { G_LIM, G_STEP, d->t.vdd, d->t.vth0, d->t.alpha,
                             d->vs_sys, d->ls_sys, d->vs_rand, d->ls_rand };
    put(&at, "rfdse maxtab", 12);
    put(&at, shape, sizeof shape);
    put(&at, knobs, sizeof knobs);
    put(&at, d->gh_x, sizeof d->gh_x);
    put(&at, d->gh_w, sizeof d->gh_w);
    return (size_t)(at - id);
}

/* Table k's columns [j0, j1) into q[ng][NP]. */
static void build(const var__dist *d, int k, int j0, int j1, const double *x, double *col,
                  float *q)
{
    for (int j = j0; j < j1; j++) {
        double g = -G_LIM + j * G_STEP, ysys = var__log_delay(d, g, 0.0, 0.0);
        var__maxq_column(d, 1 << k, g, x, NP, col);
        for (int i = 0; i < NP; i++)
            q[(size_t)j * NP + i] = (float)exp(col[i] - ysys);
    }
}

/* The pair table of q (var__maxtab.qd): per node its value and the float difference to
 * the next node (0 at a column's last node, which no lookup reads as a left node). */
static double *pairs(const float *q, int ng)
{
    double *p = malloc(sizeof(double) * 2 * NP * (size_t)ng);
    if (!p)
        return NULL;
    for (size_t j = 0; j < (size_t)ng; j++)
        for (int i = 0; i < NP; i++) {
            const float *v = q + j * NP + i;
            float dv = i + 1 < NP ? v[1] - v[0] : 0.0f;
            p[2 * (j * NP + i)] = v[0];
            p[2 * (j * NP + i) + 1] = dv;
        }
    return p;
}

/* Table k into q unless it was loaded (have), alone or with the other parts of
 * tc->split (var.h); true when this process should save it (with a split, every part:
 * the same bytes, and none finds another's file missing later). */
static bool fill(const var_table_cache *tc, int have, const var__dist *d, int k, int ng,
                 const double *x, double *col, float *q)
{
    const var_table_split *sp = tc ? tc->split : NULL;
    if (!sp || sp->n_parts < 2) {
        if (!have)
            build(d, k, 0, ng, x, col, q);
        return !have;
    }
    if (sp->all(sp->arg, have))
        return false;
    build(d, k, var_table_split_first(ng, sp->part, sp->n_parts),
          var_table_split_first(ng, sp->part + 1, sp->n_parts), x, col, q);
    sp->gather(sp->arg, q, ng, NP);
    return true;
}

/* var__maxtab.reach of the pair table qd.  A lookup at node n, weight a in [0, 1], of
 * columns i and i + 1 with weights 1 - w and w is at most, rounding aside, the larger of
 * the four values p and p + dp (a = 0 and 1) of its two pairs (monotone rounding keeps
 * p + a dp between p and the rounded p + dp); the running maximum over nodes makes the
 * bound non-decreasing in n (a skipped node says every node below is skipped too;
 * var__maxtab_reach_at adds the margin for rounding).  fmax skips NaN: a
 * lookup that reads one is NaN, which never becomes a maximum. */
static double *reach_bounds(const double *qd, int ng)
{
    double *r = malloc(sizeof(double) * NP * (size_t)ng);
    if (!r)
        return NULL;
    for (size_t i = 0; i < (size_t)ng; i++) {
        double run = 0.0; /* a lookup of non-positive values is at most 0 */
        for (int n = 0; n < NP; n++) {
            for (size_t j = i; j < i + 2 && j < (size_t)ng; j++) {
                const double *p = qd + 2 * (j * NP + (size_t)n);
                run = fmax(run, fmax(p[0], p[0] + p[1]));
            }
            r[i * NP + (size_t)n] = run;
        }
    }
    return r;
}

var__maxtab *var__maxtab_alloc(const var__dist *d, unsigned need_mask,
                               const var_table_cache *tc)
{
    var__maxtab *t = calloc(1, sizeof *t);
    double *col = malloc(sizeof(double) * NP), *x = malloc(sizeof(double) * NP);
    if (!t || !col || !x)
        goto fail;
    t->d = *d;
    t->ng = (int)lround(2 * G_LIM / G_STEP) + 1;
    for (int i = 0; i < NP; i++)
        x[i] = node_logit(i);
    for (int k = 0; k < VAR__MAXK; k++) {
        if (!(need_mask & (1u << k)))
            continue;
        size_t n = (size_t)NP * (size_t)t->ng;
        t->q[k] = malloc(sizeof(float) * n);
        if (!t->q[k])
            goto fail;
        uint8_t id[ID_MAX];
        size_t id_len = table_id(d, k, t->ng, id);
        int have = tc && tc->load && tc->load(tc->arg, id, id_len, t->q[k], n);
        if (fill(tc, have, d, k, t->ng, x, col, t->q[k]) && tc && tc->save)
            tc->save(tc->arg, id, id_len, t->q[k], n);
    }
    for (int k = 0; k < VAR__MAXK; k++)
        if (t->q[k] && (!(t->qd[k] = pairs(t->q[k], t->ng)) ||
                        !(t->reach[k] = reach_bounds(t->qd[k], t->ng))))
            goto fail;
    free(col);
    free(x);
    return t;
fail:
    free(col);
    free(x);
    var__maxtab_free(t);
    return NULL;
}

void var__maxtab_free(var__maxtab *t)
{
    if (!t)
        return;
    for (int k = 0; k < VAR__MAXK; k++)
        free(t->q[k]), free(t->qd[k]), free(t->reach[k]);
    free(t);
}

var__gcol var__maxtab_gcol(const var__maxtab *t, double g)
{
    double f = (g + G_LIM) / G_STEP;
    if (!(f >= 0.0 && f < t->ng - 1))
        return (var__gcol){ -1, 0.0, 1.0, 0.0 };
    int i = (int)f;
    const var__dist *d = &t->d; /* d_sys(g), one pow: this runs per grid point per chip */
    double dsys = var_cell_delay(&d->t, d->t.vth0 * (1.0 + d->vs_sys * g), 1.0 + d->ls_sys * g);
    double w = (float)(f - i);
    return (var__gcol){ i, w, 1.0 - w, dsys };
}

double var__maxtab_q_slow(const var__maxtab *t, int k, double g, uint64_t bits)
{
    return exp(var__maxq_exact(&t->d, 1 << k, g, var__bits_logit(bits)));
}

double var__maxtab_q(const var__maxtab *t, int k, double g, uint64_t bits)
{
    return var__maxtab_q_col(t, k, var__maxtab_gcol(t, g), g, bits);
}
