/* var_internal.h - shared by the files of variation/, not installed, not for other modules. */
#ifndef RFDSE_VAR_INTERNAL_H
#define RFDSE_VAR_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <Random123/philox.h>
#include <fftw3.h>

#include "var.h"

/* ---- random streams ----------------------------------------------------------------
 * One Philox4x32-10 block per (seed, chip, purpose, sm, slot, index): key = seed,
 * counter = {index, slot, purpose << 24 | sm, chip}.  A block gives two uniforms. */
typedef enum {
    VAR__P_FIELD = 1,  /* normals of the systematic field: sm = field id           */
    VAR__P_PIECE = 2,  /* uniform of a run maximum: index = register, slot = piece/2 */
    VAR__P_CELL = 3,   /* per-cell conditional draws (chipmap, aging)                */
    VAR__P_BRUTE = 4,  /* brute-force reference sampler (tests)                      */
    VAR__P_TEST = 5,
    VAR__P_CACHE = 6   /* register-file cache's run maxima (cache.c): index = register */
} var__purpose;

#define VAR__SM_CHIP 0xFFFFFFu /* sm slot of streams that belong to the whole die */

typedef struct var__stream {
    uint64_t seed;
    uint32_t chip;
    uint32_t purpose_sm;
} var__stream;

static inline var__stream var__stream_make(uint64_t seed, int64_t chip, var__purpose p, uint32_t sm)
{
    return (var__stream){ seed, (uint32_t)chip, ((uint32_t)p << 24) | (sm & 0xFFFFFFu) };
}

/* Two 53-bit integers k; the uniform they stand for is (k + 0.5) 2^-53, in (0, 1). */
static inline void var__bits2(var__stream s, uint32_t slot, uint32_t index, uint64_t k[2])
{
    philox4x32_key_t key = { { (uint32_t)s.seed, (uint32_t)(s.seed >> 32) } };
    philox4x32_ctr_t c = { { index, slot, s.purpose_sm, s.chip } };
    philox4x32_ctr_t r = philox4x32(c, key);
    k[0] = ((uint64_t)r.v[0] << 21) ^ (r.v[1] >> 11);
    k[1] = ((uint64_t)r.v[2] << 21) ^ (r.v[3] >> 11);
}

/* Philox4x32-10 of the counters {c0[j], c1[j], c2, c3}, j < n, into o0..o3[j]: equal to
 * Random123's philox4x32, faster per block for many (philox_batch.c). */
void var__philox_batch(int n, const uint32_t *restrict c0, const uint32_t *restrict c1,
                       uint32_t c2, uint32_t c3, philox4x32_key_t key, uint32_t *restrict o0,
                       uint32_t *restrict o1, uint32_t *restrict o2, uint32_t *restrict o3);

/* A uniform in (0, 1) from k: 52 bits, because (k + 0.5) 2^-53 rounds to 1.0 at the top
 * (doubles below 1 are 2^-53 apart).  The table axis uses all 53 bits exactly. */
static inline double var__bits_uniform(uint64_t k)
{
    return ((double)(k >> 1) + 0.5) * (1.0 / 4503599627370496.0); /* 2^-52 */
}

/* Two uniforms in (0, 1), 53 bits each, never 0 or 1. */
static inline void var__uniform2(var__stream s, uint32_t slot, uint32_t index, double u[2])
{
    uint64_t k[2];
    var__bits2(s, slot, index, k);
    u[0] = var__bits_uniform(k[0]);
    u[1] = var__bits_uniform(k[1]);
}

/* logit((k + 0.5) 2^-53), accurate in both tails: the x the table axis stands for. */
double var__bits_logit(uint64_t k);

/* Two independent standard normals (Box-Muller: exact, no rejection, so a block always
 * yields exactly two deviates and streams stay aligned). */
void var__normal2(var__stream s, uint32_t slot, uint32_t index, double z[2]);
/* The same by the polar method with 32-bit uniforms. */
void var__normal2_fast(var__stream s, uint32_t index, double z[2]);

/* Ziggurat (Marsaglia & Tsang 2000, 128 layers) on Philox words: four standard normals
 * per counter `index`, one 32-bit word each on the fast path (98.8 %), further words
 * from slots 1, 2, ... of the same index when a draw needs them.  The layer index and
 * the value use disjoint bits (the low 7 bits pick the layer, the upper 25 the value),
 * avoiding the correlation of the original RNOR (Leong et al. 2005).  For the field,
 * whose cost is its normals. */
typedef struct var__zig {
    uint32_t kn[128];
    double wn[128], fn[128];
} var__zig;
void var__zig_init(var__zig *z);

/* The fast path on one Philox block: fills out[4], returns a bit mask of the draws
 * that need var__zig_normal4's slow path. */
static inline unsigned var__zig_fast4(const var__zig *z, philox4x32_ctr_t r, double out[4])
{
    unsigned slow = 0;
    for (int i = 0; i < 4; i++) {
        int iz = (int)(r.v[i] & 127);
        int32_t hz = (int32_t)(r.v[i] & ~127u);
        uint32_t mag = hz < 0 ? 0u - (uint32_t)hz : (uint32_t)hz;
        out[i] = hz * z->wn[iz];
        slow |= (unsigned)(mag >= z->kn[iz]) << i;
    }
    return slow;
}

static inline philox4x32_ctr_t var__block(var__stream s, uint32_t slot, uint32_t index)
{
    philox4x32_key_t key = { { (uint32_t)s.seed, (uint32_t)(s.seed >> 32) } };
    philox4x32_ctr_t c = { { index, slot, s.purpose_sm, s.chip } };
    return philox4x32(c, key);
}
void var__zig_normal4(const var__zig *z, var__stream s, uint32_t index, double out[4]);


/* ---- cell model and the distribution of the maximum --------------------------------
 * Log-delay of one cell whose Vth is vth0 (1 + sv + rv) and Leff is 1 + sl + rl. */
#define VAR__GH 48 /* Gauss-Hermite nodes of the one-cell CDF integral */
typedef struct var__dist {
    var_timing t;
    double vs_sys, ls_sys;   /* systematic sigma/mu of Vth, Leff                */
    double vs_rand, ls_rand; /* random sigma/mu                                 */
    double gh_x[VAR__GH], gh_w[VAR__GH]; /* N(0,1) quadrature, weights sum to 1 */
} var__dist;

int var__dist_init(var__dist *d, const var_params *p);
double var__log_delay(const var__dist *d, double g, double zv, double zl);
/* Exact quantile of the log-delay maximum of n iid cells at field value g, at
 * logit(probability) x.  Slow (root finding): the tables interpolate it. */
double var__maxq_exact(const var__dist *d, int n, double g, double x);
/* The same at x[i], i < nx (increasing), for one table column. */
void var__maxq_column(const var__dist *d, int n, double g, const double *x, int nx,
                      double *out);
/* CDF pieces of one cell's log-delay: ln F(y) and ln(1 - F(y)). */
void var__cell_lcdf(const var__dist *d, double g, double y, double *lnF, double *lnS);

typedef struct var__gcol {
    int32_t i;    /* column index, or -1: out of the table, use the exact path */
    double w;     /* weight of column i + 1 (a float's value: it was stored as one) */
    double omw;   /* 1 - w, once per point rather than per lookup              */
    double scale; /* d_sys(g): the table holds delays relative to it          */
} var__gcol;

#define VAR__MAXK 6 /* tables for run lengths 1, 2, 4, ..., 32 */
#define VAR__OCTAVES 53 /* axis octaves o = -1 .. 51 (maxtab.c) */
#define VAR__NSUB 8     /* axis nodes per octave */
#define VAR__NP (2 * VAR__OCTAVES * VAR__NSUB + 1)
typedef struct var__maxtab {
    var__dist d;
    int ng;
    float *q[VAR__MAXK]; /* [ng][NP] delay / d_sys(g); float: 6e-8 relative, far below
                            the interpolation error, and half the cache footprint */
    /* [ng][NP][2] the same as pairs (q[i], q[i + 1] - q[i]) of doubles: the values
     * var__maxtab_interp computes from q (the difference in float), ready for the
     * chip's hot loop, which then converts and subtracts nothing (var__maxtab_interp2) */
    double *qd[VAR__MAXK];
    /* [ng][NP] per column pair (i, i + 1) and node n the largest value a lookup at
     * scale 1 can take at nodes <= n, rounding aside (var__maxtab_reach_at) */
    double *reach[VAR__MAXK];
} var__maxtab;
/* tc: where tables may be loaded from and saved to (NULL: built). */
var__maxtab *var__maxtab_alloc(const var__dist *d, unsigned need_mask,
                               const var_table_cache *tc);
void var__maxtab_free(var__maxtab *t);
/* Table lookup of exp(var__maxq_exact(d, 1 << k, g, var__bits_logit(bits))): the
 * maximum *delay* (not log-delay) of 2^k cells; exact fallback for g outside the table. */
double var__maxtab_q(const var__maxtab *t, int k, double g, uint64_t bits);
var__gcol var__maxtab_gcol(const var__maxtab *t, double g);
double var__maxtab_q_slow(const var__maxtab *t, int k, double g, uint64_t bits);

/* Axis position of the uniform of k (maxtab.c explains the axis).  Branch-free: which
 * half k lies in is a coin flip, and a branch on it mispredicted every other lookup.
 * In the upper half j = 2^53 - 1 - k, which is k XOR (2^53 - 1) because k < 2^53, and
 * the result 106 - t is computed as 106 + (-t), the same operation; in the lower half
 * 0 + t is t (t > 0). */
static inline double var__axis_of(uint64_t k)
{
    uint64_t upper = 0 - (k >> 52 & 1); /* all ones in the upper half */
    uint64_t j = k ^ (upper & ((1ULL << 53) - 1));
    /* Signed conversions: both values are below 2^52, so they are the same doubles, and a
     * signed conversion is one instruction where an unsigned one tests and branches. */
    double jj = (double)(int64_t)j + 0.5; /* exact: j < 2^52 */
    uint64_t b;
    memcpy(&b, &jj, sizeof b);
    int o = (int)((b >> 52) & 0x7ff) - 1023;
    double f = (double)(int64_t)(b & 0x000fffffffffffffULL) * (1.0 / 4503599627370496.0); /* 2^-52 */
    double t = o + f + 1.0, top = 2.0 * VAR__OCTAVES, base;
    uint64_t tb, bb;
    memcpy(&tb, &t, sizeof tb);
    memcpy(&bb, &top, sizeof bb);
    tb ^= upper & (1ULL << 63); /* -t in the upper half */
    bb &= upper;                /* 106 in the upper half, else +0 */
    memcpy(&t, &tb, sizeof t);
    memcpy(&base, &bb, sizeof base);
    return base + t;
}

/* Table node i (clamped to the last cell) and weight a of the uniform of bits. */
static inline int var__axis_node(uint64_t bits, double *a)
{
    double f = var__axis_of(bits) * VAR__NSUB;
    int i = (int)f;
    if (i > VAR__NP - 2)
        i = VAR__NP - 2;
    *a = f - i;
    return i;
}

/* var__axis_node of bits[x], x < n, into node[x] and a[x]; faster for many (maxtab.c).
 * On x86-64 (GCC, clang) it runs an AVX2 build of the loop where the processor has AVX2,
 * else the baseline one; both are exported for the test that compares them. */
void var__axis_batch(int n, const uint64_t *restrict bits, int32_t *restrict node,
                     double *restrict a);
void var__axis_batch_base(int n, const uint64_t *restrict bits, int32_t *restrict node,
                          double *restrict a);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VAR__AXIS_AVX2 1
void var__axis_batch_avx2(int n, const uint64_t *restrict bits, int32_t *restrict node,
                          double *restrict a);
#else
#define VAR__AXIS_AVX2 0
#endif

/* Bilinear interpolation at axis weight a between the columns q0 (at node i) and q0 + NP
 * of point col. */
static inline double var__maxtab_interp(const float *q0, double a, const var__gcol *col)
{
    const float *q1 = q0 + VAR__NP;
    return col->scale * (col->omw * (q0[0] + a * (q0[1] - q0[0])) +
                         col->w * (q1[0] + a * (q1[1] - q1[0])));
}

/* The same from the pair table (var__maxtab.qd): p0 = qd[k] + 2 (col.i NP + i).  The
 * same operations on the same values: q0[1] - q0[0] is a float subtraction in both. */
static inline double var__maxtab_interp2(const double *p0, double a, const var__gcol *col)
{
    const double *p1 = p0 + 2 * VAR__NP;
    return col->scale * (col->omw * (p0[0] + a * p0[1]) + col->w * (p1[0] + a * p1[1]));
}

/* An upper bound of every lookup (var__maxtab_interp2) at nodes <= n of column pair
 * reach = var__maxtab.reach[k] + col.i NP at col.scale = scale: above by a margin far
 * wider than the lookup's rounding (and this product's), so a lookup is below m where
 * this is.  Non-decreasing in n. */
static inline double var__maxtab_reach_at(const double *reach, int n, double scale)
{
    return reach[n] * scale * (1.0 + 1e-9);
}

/* Inline: the Monte Carlo hot loop is this lookup. */
static inline double var__maxtab_q_col(const var__maxtab *t, int k, var__gcol col, double g,
                                       uint64_t bits)
{
    if (col.i < 0 || !t->q[k])
        return var__maxtab_q_slow(t, k, g, bits);
    double a;
    int i = var__axis_node(bits, &a);
    return var__maxtab_interp(t->q[k] + (size_t)col.i * VAR__NP + i, a, &col);
}

/* ---- systematic field ------------------------------------------------------------- */
typedef struct var__field var__field;
/* Field of rows x cols points at spacing h (domain widths), spherical range phi.
 * max_grow: how many times the circulant embedding may be enlarged to become positive
 * definite (0: minimal embedding only). */
var__field *var__field_alloc(int rows, int cols, double h, double phi, var_field_method m,
                             int max_grow, int *err);
void var__field_free(var__field *f);
/* Samples two independent fields (b may be NULL) from stream s, field id `id`. */
void var__field_sample(var__field *f, var__stream s, double *a, double *b);
double var__field_min_eigen(const var__field *f, int *rows, int *cols);
/* What decides the field's values besides its inputs and this code: FFTW's version and
 * the plan FFTW_ESTIMATE chose (its codelets depend on the processor: "n1fv_128_avx"),
 * or GSL's version for the Cholesky reference.  A malloc'd string, NULL if out of memory. */
char *var__field_lib(const var__field *f);
double var__spherical(double r, double phi);

/* ---- floorplan ---------------------------------------------------------------------
 * Cells of a register sharing one grid point form a run; a run of length m is split
 * into pieces of power-of-two length (binary digits of m), each drawn as one maximum. */
typedef struct var__piece {
    int16_t grid_col; /* grid column of the piece's cells           */
    uint8_t k;        /* length 1 << k                              */
    uint8_t first;    /* first bit of the piece inside the register */
} var__piece;

typedef struct var__plan {
    int lanes, rows, cols;       /* registers per entry; RF cell rows (logical) and bits */
    int grid_rows, grid_cols;    /* of one field                                         */
    int n_fields;                /* SM domain: n_sms; chip domain: 1                      */
    double h;                    /* grid spacing in domain widths                         */
    unsigned need_k;             /* bit k set if some piece has length 1 << k              */
    int max_pieces;              /* most pieces of one register                           */
    /* per SM: grid row of each logical cell row [sm][rows]; pieces of each
     * (bank column, lane) [sm][bank_col][lane] -> piece_start..piece_start+n */
    int32_t *row_grid;
    int32_t *piece_start;        /* [n_sms][bank_cols][lanes + 1]                          */
    var__piece *pieces;
} var__plan;

int var__plan_build(var__plan *pl, const var_params *p);
void var__plan_free(var__plan *pl);

/* ---- NBTI (nbti.c) ------------------------------------------------------------------
 * What one sub-bank's stress and recovery imply, independent of the device. */
typedef struct var__nbti {
    int stressed;      /* t_stress > 0 (or shift > 0); otherwise nothing changes */
    int pv;            /* aging.initial_shift = "pv": the shift depends on the device */
    int cube;          /* n = 1/6: powers 3 and 1/3 by x*x*x and cbrt          */
    double a;          /* Kv' sqrt(t_stress), V^(1/(2n))                      */
    double rec;        /* recovery factor 1 - sqrt(eta t_rec / (t_s + t_r)), [0,1] */
    double p_in, p_out; /* 1/(2n) and 2n for the general exponent             */
    double shift;      /* !pv: the one shift every device of the sub-bank gets, V */
} var__nbti;
/* The one-shot law over stress and recovery totals (constant duty). */
void var__nbti_prep(var__nbti *s, const var_aging *a, double t_stress_s, double t_rec_s);
/* The same with kv = var_nbti_kv(a) given (read only when t_stress_s > 0). */
void var__nbti_prep_kv(var__nbti *s, const var_aging *a, double kv, double t_stress_s,
                       double t_rec_s);
/* A given accumulated shift (the continued law of the driver), the same for every device. */
void var__nbti_prep_shift(var__nbti *s, double shift);

/* Sign-preserving power: real roots of negative numbers. */
static inline double var__sgnpow(double x, double e) { return copysign(pow(fabs(x), e), x); }

/* Deviation after stress alone, (a + x^(1/(2n)))^(2n), x = dVth0.  >= x because a >= 0
 * and both powers are odd and increasing. */
static inline double var__nbti_stress_dev(const var__nbti *s, double x)
{
    if (s->cube)
        return cbrt(s->a + x * x * x);
    return var__sgnpow(s->a + var__sgnpow(x, s->p_in), s->p_out);
}

/* Deviation after stress and recovery, x + rec (stress_dev(x) - x), written as the
 * non-negative combination (1 - rec) x + rec stress_dev(x) of two non-decreasing
 * functions of x, so it is non-decreasing in x operation by operation (each rounded
 * step is monotone; only cbrt/pow are faithful rather than correctly rounded). */
static inline double var__nbti_aged_dev(const var__nbti *s, double x)
{
    return (1.0 - s->rec) * x + s->rec * var__nbti_stress_dev(s, x);
}

/* ---- the chip ----------------------------------------------------------------------- */
/* Workspace of one row of registers (chip.c, sm_registers): the row's Philox blocks and
 * table nodes, sized for the largest row (lanes x max_pieces). */
typedef struct var__row_ws {
    const var__piece *pieces; /* the row's pieces, lane by lane                    */
    int n_pieces, n_blocks;
    int32_t *lane_end;        /* [lanes] end of each lane's pieces                   */
    uint32_t *blk_lane, *blk_slot; /* [blocks] counter of each Philox block         */
    uint32_t *ctr, *out;      /* [blocks] a row's first counter words; [4][blocks] */
    int32_t *word;            /* [pieces] index into bits of the piece's uniform     */
    const double **tab;       /* [pieces] pair table of the piece's length, or NULL  */
    uint64_t *bits;           /* [2 blocks] the blocks' 53-bit integers              */
    int32_t *node;            /* [2 blocks] their table nodes (var__axis_batch)      */
    double *wa;               /* [2 blocks] and weights                               */
} var__row_ws;
/* Its arrays for rows of up to max_pieces pieces (lanes x the plan's max_pieces):
 * 0 or VAR_ENOMEM (then var__row_ws_free frees what was allocated). */
int var__row_ws_alloc(var__row_ws *w, int lanes, int max_pieces);
void var__row_ws_free(var__row_ws *w);
/* Where the draws of one row of SM sm come from, for the row's bank column bc: the Philox
 * blocks of the row (lane, slot) and, per piece in plan order (lane by lane), its block
 * word and pair table (tab's, NULL where tab has none).  Every row of the bank column
 * shares it; only the register index changes. */
void var__row_plan(var__row_ws *w, const var__plan *pl, const var__maxtab *tab, int bank_cols,
                   int sm, int bc);
/* The row's blocks (var__bits2 of each, by var__philox_batch) into w->bits, and their
 * table nodes and weights (var__axis_batch); r0: the register index of lane 0. */
void var__row_bits(var__row_ws *w, var__stream s, uint32_t r0);

struct var_chip {
    var_params p; /* copy, to check callers pass the same parameters */
    var__dist dist;
    var__plan plan;
    var__field *field;
    var__maxtab *tab;
    int generated;
    uint64_t seed;
    int64_t chip;
    int n_sms, n_regs, n_entries, n_subs, n_banks;
    double *g;          /* fields [n_fields][grid points]                         */
    double *g_spare;    /* second output of the last FFT when n_fields is odd (scratch) */
    var__gcol *gcol;    /* per field point: generate's workspace (sm_registers), not
                           read after it and not restored for a chip loaded (keep.c)  */
    double *reg;        /* [n_sms][n_regs]                                        */
    double *entry;      /* [n_sms][n_entries]                                     */
    double *sub;        /* [n_sms][n_subs]                                        */
    double *bank;       /* [n_sms][n_banks]                                       */
    double *sm_freq;    /* [n_sms]                                                */
    double *sm_ratio;   /* [n_sms]                                                */
    /* aging (age.c): time-zero state of each SM, filled lazily before the first change */
    unsigned char *age_ready; /* [n_sms] reg0/vth_eff valid for this chip            */
    double *reg0;       /* [n_sms][n_regs] time-zero register delays               */
    double *vth_eff;    /* [n_sms][n_regs] effective Vth of the register (age.c)    */
    double *sub_leff;   /* [n_sms][n_subs] Leff of the sub-bank's registers (age.c) */
    var__row_ws row;
    /* chips kept by a caller (keep.c): the id's part that is the same for every chip of
     * this allocation, built at the first var_chip_generate_kept, with room for (seed,
     * chip) at its end; whether the current chip was loaded rather than generated */
    uint8_t *keep_id;
    size_t keep_id_len;
    int loaded;
};

/* Saves SM sm's time-zero delays (and effective Vths) if not saved since the last
 * generate.  Every function that changes c->reg calls it first. */
void var__chip_age_prepare(var_chip *c, int sm);
/* The Leff the aging attributes to every register of each sub-bank of SM sm: that of the
 * sub-bank's slowest cell by the conditional split (age.c).  Time zero, at generate. */
void var__chip_split_leff(var_chip *c, int sm);
int var__chip_same_params(const var_params *a, const var_params *b);
/* The Leff of a slowest cell of distribution d, delay d0, whose field value is g, by the
 * conditional split of age.c (the aging's one Leff per sub-bank, and per cache bank). */
double var__split_leff_at(const var__dist *d, double g, double d0);
/* Recomputes entry/sub-bank/bank delays and baseline frequency of one SM from reg. */
void var__chip_aggregate(var_chip *c, int sm);
/* Field value at the grid point of register r's piece q in SM sm. */
double var__chip_piece_g(const var_chip *c, int sm, int reg, const var__piece *pc);
const var__piece *var__chip_pieces(const var_chip *c, int sm, int reg, int *n);
/* Kept chips (keep.c): the knobs a chip is drawn from (every floorplan, variation and
 * timing field), serialised field by field into VAR__KEEP_PARAMS bytes; and the whole id
 * of chip `chip` of `seed` (format, processor features, knobs, field library, seed,
 * chip) into *id, owned by c and valid until the next call: its length, 0 if out of
 * memory. */
#define VAR__KEEP_PARAMS (13 * 4 + 10 * 8)
size_t var__keep_params(const var_params *p, uint8_t out[VAR__KEEP_PARAMS]);
/* The processor features (AVX, AVX2, FMA, AVX-512F as bits 0-3) that select the library
 * builds a chip's or a table's values come from (keep.c). */
uint32_t var__cpu_features(void);
size_t var__keep_id(var_chip *c, uint64_t seed, int64_t chip, const uint8_t **id);
/* k-th smallest (0-based) of x[0..n) without modifying x. */
double var__kth_smallest(const double *x, int n, int k);
/* The same, and into *below how many of x are smaller than it (NaNs aside). */
double var__kth_smallest_below(const double *x, int n, int k, int *below);

#endif
