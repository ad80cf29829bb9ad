/* The register-file cache's draw (variation/cache.c) runs row by row in passes and skips
 * the lookups that cannot become a bank's maximum (var__maxtab.reach), and computes each
 * bank's Leff once.  Speed-ups that must not change a bit: this file keeps the draw they
 * replaced (register by register, piece by piece, every lookup) as the reference and
 * compares every bank's delay and Leff for several floorplans, cache shapes and cells. */
#include <string.h>

#include "var_internal.h"
#include "vt_tables.h"
#include "vtest.h"

/* ---- the reference: the draw the fast path replaced, verbatim ------------------------ */

static double ref_register(const var_chip *c, const var__maxtab *tab, int sm, var__stream s,
                           size_t base, const var__gcol *col, int row, int lane, double *g_slow)
{
    int L = c->plan.lanes, bank_cols = c->p.floorplan.bank_cols;
    const int32_t *start = c->plan.piece_start + (size_t)sm * (size_t)bank_cols * (size_t)L;
    const var__piece *pc = c->plan.pieces + start[lane];
    int n = start[lane + 1] - start[lane], r = row * L + lane;
    double dmax = 0.0, g = -INFINITY;
    uint64_t u[2];
    for (int q = 0; q < n; q++) {
        if (!(q & 1))
            var__bits2(s, (uint32_t)(q >> 1), (uint32_t)r, u);
        double gq = c->g[base + (size_t)pc[q].grid_col];
        double d = var__maxtab_q_col(tab, pc[q].k, col[pc[q].grid_col], gq, u[q & 1]);
        if (d > dmax)
            dmax = d, g = gq;
    }
    *g_slow = g;
    return dmax;
}

static void ref_draw(const var_chip *c, const var__maxtab *tab, const var__dist *dist, int sm,
                     int entries, int banks, double *bank_delay, double *bank_leff)
{
    int L = c->plan.lanes, per_bank = (entries + banks - 1) / banks;
    size_t field = c->p.variation.domain == VAR_DOMAIN_SM ? (size_t)sm : 0;
    size_t edge = (size_t)c->plan.row_grid[(size_t)sm * c->plan.rows + c->plan.rows - 1];
    size_t base = (field * c->plan.grid_rows + edge) * (size_t)c->plan.grid_cols;
    var__stream s = var__stream_make(c->seed, c->chip, VAR__P_CACHE, (uint32_t)sm);
    var__gcol *col = malloc(sizeof *col * (size_t)c->plan.grid_cols);
    assert_non_null(col);
    for (int j = 0; j < c->plan.grid_cols; j++)
        col[j] = var__maxtab_gcol(tab, c->g[base + (size_t)j]);
    for (int b = 0; b < banks; b++)
        bank_delay[b] = 0.0, bank_leff[b] = 1.0;
    for (int row = 0; row < entries; row++) {
        int b = row / per_bank;
        for (int l = 0; l < L; l++) {
            double g, d = ref_register(c, tab, sm, s, base, col, row, l, &g);
            if (d > bank_delay[b]) {
                bank_delay[b] = d;
                bank_leff[b] = var__split_leff_at(dist, g, d);
            }
        }
    }
    free(col);
}

/* ---- tests -------------------------------------------------------------------------- */

/* Cache shapes: LTRF's, banks of unequal rows, an empty last bank (5 rows in 4 banks of
 * 2), one bank, one row per bank. */
static const int shapes[][2] = { { 128, 16 }, { 100, 3 }, { 5, 4 }, { 16, 1 }, { 64, 64 } };

/* Every bank of every shape, SM and chip of cells of `area` (1: the chip's own, through
 * var_chip_cache) against the reference on a table of the same cells; the mismatches. */
static long compare(var_chip *c, const var_params *p, double area, const var_table_cache *tc,
                    long *banks_seen)
{
    int err;
    var_cache *m = area == 1.0 ? NULL : var_cache_alloc_tables(p, area, tc, &err);
    var__dist dist = c->dist;
    const var__maxtab *tab = c->tab;
    var__maxtab *own = NULL;
    if (area != 1.0) {
        assert_non_null(m);
        dist.vs_rand /= sqrt(area), dist.ls_rand /= sqrt(area); /* as var_cache_alloc */
        tab = own = var__maxtab_alloc(&dist, c->plan.need_k, tc);
        assert_non_null(own);
    }
    long bad = 0;
    double d[64], l[64], rd[64], rl[64];
    for (int64_t chip = 0; chip < 2; chip++) {
        assert_int_equal(var_chip_generate(c, p, 2026, chip), VAR_OK);
        for (int sm = 0; sm < c->n_sms; sm++)
            for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
                int e = shapes[k][0], b = shapes[k][1];
                assert_int_equal(var_cache_draw(m, c, sm, e, b, d, l), VAR_OK);
                ref_draw(c, tab, &dist, sm, e, b, rd, rl);
                for (int i = 0; i < b; i++, (*banks_seen)++)
                    bad += memcmp(&d[i], &rd[i], sizeof d[i]) != 0 ||
                           memcmp(&l[i], &rl[i], sizeof l[i]) != 0;
            }
    }
    var__maxtab_free(own);
    var_cache_free(m);
    return bad;
}

static void test_draw_matches_reference(void **state)
{
    (void)state;
    vt_tables *mt = calloc(1, sizeof *mt); /* the reference's larger cells: var_cache's */
    assert_non_null(mt);
    var_table_cache tc = vt_tables_cache(mt);
    for (int i = 0; i < VT_CASES; i++) { /* the floorplans of test_chip_rows.c */
        var_params p;
        vt_case_params(i, &p);
        int err;
        var_chip *c = var_chip_alloc_tables(&p, &tc, &err);
        assert_non_null(c);
        for (int a = 0; a < (i == 0 ? 3 : 1); a++) { /* larger cells: the default only */
            double area = a == 0 ? 1.0 : a == 1 ? 2.0 : 4.0;
            long banks = 0, bad = compare(c, &p, area, &tc, &banks);
            if (bad)
                fail_msg("floorplan %d, cell area %g: %ld of %ld banks differ from the "
                         "reference", i, area, bad, banks);
        }
        var_chip_free(c);
    }
    vt_tables_free(mt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draw_matches_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
