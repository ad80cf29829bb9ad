/* var_chip_generate draws an SM's registers row by row in passes (chip.c, sm_registers)
 * with a branch-free axis (var__axis_of, var__axis_batch) and the pair tables
 * (var__maxtab.qd).  Those are
 * speed-ups that must not change a bit: this file keeps the straightforward forms they
 * replaced (one register at a time, the branching axis, the float table) as the
 * reference and compares every register of several floorplans bit for bit. */
#include <string.h>

#include "var_internal.h"
#include "vt_tables.h"
#include "vtest.h"

/* ---- the reference: the forms the fast path replaced, verbatim ---------------------- */

static double ref_axis(uint64_t k)
{
    int upper = k >= (1ULL << 52);
    uint64_t j = upper ? (1ULL << 53) - 1 - k : k;
    double jj = (double)j + 0.5; /* exact: j < 2^52 */
    uint64_t b;
    memcpy(&b, &jj, sizeof b);
    int o = (int)((b >> 52) & 0x7ff) - 1023;
    double f = (double)(b & 0x000fffffffffffffULL) * (1.0 / 4503599627370496.0); /* 2^-52 */
    double t = o + f + 1.0;
    return upper ? 2.0 * VAR__OCTAVES - t : t;
}

static double ref_q_col(const var__maxtab *t, int k, var__gcol col, double g, uint64_t bits)
{
    if (col.i < 0 || !t->q[k])
        return var__maxtab_q_slow(t, k, g, bits);
    double f = ref_axis(bits) * VAR__NSUB;
    int i = (int)f;
    if (i > VAR__NP - 2)
        i = VAR__NP - 2;
    double a = f - i, w = (float)col.w;
    const float *q0 = t->q[k] + (size_t)col.i * VAR__NP + i, *q1 = q0 + VAR__NP;
    return col.scale *
           ((1.0 - w) * (q0[0] + a * (q0[1] - q0[0])) + w * (q1[0] + a * (q1[1] - q1[0])));
}

/* SM sm's register delays one register at a time, into reg. */
static void ref_registers(const var_chip *c, int sm, uint64_t seed, int64_t chip, double *reg)
{
    const var_floorplan *f = &c->p.floorplan;
    var__stream s = var__stream_make(seed, chip, VAR__P_PIECE, (uint32_t)sm);
    int L = c->plan.lanes;
    size_t np = (size_t)c->plan.grid_rows * c->plan.grid_cols;
    size_t field = c->p.variation.domain == VAR_DOMAIN_SM ? (size_t)sm : 0;
    for (int row = 0; row < c->n_entries; row++) {
        size_t base = field * np +
                      (size_t)c->plan.row_grid[(size_t)sm * c->plan.rows + row] * c->plan.grid_cols;
        int bc = (row / f->entries_per_bank) % f->bank_cols;
        const int32_t *start = c->plan.piece_start + ((size_t)sm * f->bank_cols + bc) * L;
        for (int l = 0; l < L; l++) {
            const var__piece *pc = c->plan.pieces + start[l];
            int n = start[l + 1] - start[l], r = row * L + l;
            double dmax = 0.0;
            uint64_t u[2];
            for (int q = 0; q < n; q++) {
                if (!(q & 1))
                    var__bits2(s, (uint32_t)(q >> 1), (uint32_t)r, u);
                size_t pt = base + (size_t)pc[q].grid_col;
                double d = ref_q_col(c->tab, pc[q].k, c->gcol[pt], c->g[pt], u[q & 1]);
                dmax = d > dmax ? d : dmax;
            }
            reg[r] = dmax;
        }
    }
}

/* ---- tests -------------------------------------------------------------------------- */

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* The axis and the node at every kind of 53-bit integer: both ends, both sides of the
 * halves' boundary, around every power of two from either end, and random ones; one at
 * a time against the reference, in batches (var__axis_batch, and both of its builds,
 * the baseline and the AVX2 one where the processor has AVX2) against one at a time. */
static void test_axis_matches_reference(void **state)
{
    (void)state;
    const uint64_t top = (1ULL << 53) - 1;
    uint64_t ks[64 * 6 + 8], s = 0x9E3779B97F4A7C15ULL;
    int n = 0;
    for (int e = 0; e < 53; e++)
        for (int d = -1; d <= 1; d++) {
            uint64_t lo = (1ULL << e) + (uint64_t)d, hi = top - (1ULL << e) - (uint64_t)d;
            ks[n++] = lo & top, ks[n++] = hi & top;
        }
    ks[n++] = 0, ks[n++] = top, ks[n++] = 1ULL << 52, ks[n++] = (1ULL << 52) - 1;
    enum { BATCH = 77 }; /* odd: the vector loop's remainder is exercised too */
    uint64_t kb[BATCH];
    int32_t nb[BATCH];
    double ab[BATCH];
    long bad = 0, bad_batch = 0;
#if VAR__AXIS_AVX2
    int avx2 = __builtin_cpu_supports("avx2");
#else
    int avx2 = 0;
#endif
    print_message("var__axis_batch_avx2 %s\n", avx2 ? "tested" : "not tested (no AVX2)");
    for (long i = 0; i < 2000000; i++) {
        uint64_t k = i < n ? ks[i] : xorshift(&s) >> 11;
        double x = var__axis_of(k), y = ref_axis(k), a, b;
        int ni = var__axis_node(k, &a), f = (int)(y * VAR__NSUB);
        f = f > VAR__NP - 2 ? VAR__NP - 2 : f;
        b = y * VAR__NSUB - f;
        bad += memcmp(&x, &y, sizeof x) != 0 || ni != f || memcmp(&a, &b, sizeof a) != 0;
        kb[i % BATCH] = k;
        if (i % BATCH == BATCH - 1) /* the dispatched loop and each build of it */
            for (int v = 0; v < 3; v++) {
                if (v == 0)
                    var__axis_batch(BATCH, kb, nb, ab);
                else if (v == 1)
                    var__axis_batch_base(BATCH, kb, nb, ab);
                else if (!avx2)
                    continue;
#if VAR__AXIS_AVX2
                else
                    var__axis_batch_avx2(BATCH, kb, nb, ab);
#endif
                for (int q = 0; q < BATCH; q++) {
                    double aq;
                    int nq = var__axis_node(kb[q], &aq);
                    bad_batch += nb[q] != nq || memcmp(&ab[q], &aq, sizeof aq) != 0;
                }
            }
    }
    assert_int_equal(bad, 0);
    assert_int_equal(bad_batch, 0);
}

static void test_rows_match_reference(void **state)
{
    (void)state;
    vt_tables *m = calloc(1, sizeof *m); /* the floorplans share their tables */
    assert_non_null(m);
    var_table_cache tc = vt_tables_cache(m);
    for (int i = 0; i < VT_CASES; i++) {
        var_params p;
        vt_case_params(i, &p);
        int err;
        var_chip *c = var_chip_alloc_tables(&p, &tc, &err);
        assert_non_null(c);
        double *ref = malloc(sizeof(double) * (size_t)c->n_regs);
        long bad = 0, regs = 0;
        for (int64_t chip = 0; chip < 2; chip++) {
            assert_int_equal(var_chip_generate(c, &p, 2026, chip), VAR_OK);
            for (int sm = 0; sm < c->n_sms; sm++) {
                ref_registers(c, sm, 2026, chip, ref);
                const double *got = var_chip_register_delays(c, sm);
                for (int r = 0; r < c->n_regs; r++, regs++)
                    bad += memcmp(&got[r], &ref[r], sizeof ref[r]) != 0;
            }
        }
        if (bad)
            fail_msg("floorplan %d: %ld of %ld registers differ from the reference", i, bad,
                     regs);
        free(ref);
        var_chip_free(c);
    }
    vt_tables_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axis_matches_reference),
        cmocka_unit_test(test_rows_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
