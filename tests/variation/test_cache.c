/* The register-file cache's timing (variation/cache.c, issue 18): where it lies on the
 * field, that its draws are those of RF rows of the same size, and that it leaves the
 * chip untouched. */
#include <string.h>

#include "var.h"
#include "vtest.h"

/* Rows 1008..1023 of the default RF (its last 16) lie in the field's last grid row,
 * where the cache strip takes its field: a 16-entry cache is then drawn exactly as they
 * are, from another stream. */
enum { EDGE_ROWS = 16 };

static double rf_last_rows_max(const var_chip *c, const var_params *p, int sm, int rows)
{
    const var_floorplan *f = &p->floorplan;
    int lanes = f->bits_per_entry / 32, n_rows = f->n_banks * f->entries_per_bank;
    const double *reg = var_chip_register_delays(c, sm);
    double m = 0;
    for (int r = (n_rows - rows) * lanes; r < n_rows * lanes; r++)
        m = reg[r] > m ? reg[r] : m;
    return m;
}

static double cache_max(const var_chip *c, int sm, int entries, int banks)
{
    double d[64], l[64], m = 0;
    assert_int_equal(var_chip_cache(c, sm, entries, banks, d, l), VAR_OK);
    for (int b = 0; b < banks; b++) {
        assert_true(l[b] > 0.5 && l[b] < 1.5);
        m = d[b] > m ? d[b] : m;
    }
    return m;
}

static void test_cache_pure(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    var_chip *c = var_chip_alloc(&p);
    assert_non_null(c);
    double d[16], l[16], d2[16], l2[16];
    assert_int_equal(var_chip_cache(c, 0, 128, 16, d, l), VAR_ENOTGEN);
    assert_int_equal(var_chip_generate(c, &p, 7, 3), VAR_OK);
    size_t n = (size_t)p.floorplan.n_banks * p.floorplan.entries_per_bank *
               (p.floorplan.bits_per_entry / 32);
    double *reg = malloc(sizeof(double) * n);
    memcpy(reg, var_chip_register_delays(c, 2), sizeof(double) * n);
    double f2 = var_chip_sm_frequency(c, 2);
    assert_int_equal(var_chip_cache(c, 2, 128, 16, d, l), VAR_OK);
    assert_int_equal(var_chip_cache(c, 2, 128, 16, d2, l2), VAR_OK);
    assert_memory_equal(d, d2, sizeof d);
    assert_memory_equal(l, l2, sizeof l);
    assert_memory_equal(reg, var_chip_register_delays(c, 2), sizeof(double) * n);
    assert_true(var_chip_sm_frequency(c, 2) == f2);
    for (int b = 0; b < 16; b++)
        assert_true(d[b] > 0.5 && d[b] < VAR_DELAY_CAP);
    assert_int_equal(var_chip_cache(c, 15, 128, 16, d, l), VAR_ERANGE);
    assert_int_equal(var_chip_cache(c, 0, 8, 16, d, l), VAR_ERANGE);
    assert_int_equal(var_chip_cache(c, 0, 0, 1, d, l), VAR_ERANGE);
    free(reg);
    var_chip_free(c);
}

/* Without a random part every cell's delay is its field point's: a 16-entry cache,
 * on the RF's last grid row, has exactly the slowest delay of the RF's last 16 rows. */
static void test_cache_on_the_rf_edge(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    p.variation.sigma_ratio = 0.0;
    var_chip *c = var_chip_alloc(&p);
    assert_non_null(c);
    for (int chip = 0; chip < 3; chip++) {
        assert_int_equal(var_chip_generate(c, &p, 11, chip), VAR_OK);
        for (int sm = 0; sm < p.floorplan.n_sms; sm++)
            assert_close(cache_max(c, sm, EDGE_ROWS, 1), rf_last_rows_max(c, &p, sm, EDGE_ROWS),
                         1e-12);
    }
    var_chip_free(c);
}

/* With the default random part, the same 16 rows and the cache are exchangeable given
 * the field: P(cache slower) = 1/2 exactly, a sign test over 3000 SMs (sd 27.4; the
 * tolerance is 4.5 sd).  And a 128-entry cache, an eighth of the RF, is faster than the
 * RF on average (its slowest cell is drawn from far fewer cells). */
static void test_cache_draws_like_rf_rows(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    var_chip *c = var_chip_alloc(&p);
    assert_non_null(c);
    int slower = 0, n = 0;
    double cache_sum = 0, rf_sum = 0;
    for (int chip = 0; chip < 200; chip++) {
        assert_int_equal(var_chip_generate(c, &p, 5, chip), VAR_OK);
        for (int sm = 0; sm < p.floorplan.n_sms; sm++, n++) {
            slower += cache_max(c, sm, EDGE_ROWS, 2) > rf_last_rows_max(c, &p, sm, EDGE_ROWS);
            if (chip >= 40)
                continue;
            cache_sum += cache_max(c, sm, 128, 16);
            rf_sum += 1.0 / var_chip_sm_frequency(c, sm);
        }
    }
    print_message("cache slower in %d of %d; mean slowest delay over 600 SMs: cache %.4f, "
                  "RF %.4f\n", slower, n, cache_sum / 600, rf_sum / 600);
    assert_true(fabs(slower - n / 2.0) < 4.5 * sqrt(n / 4.0));
    assert_true(cache_sum < rf_sum);
    var_chip_free(c);
}

/* Cells of another area (var_cache_alloc): area 1 reproduces the chip's own cells bit for
 * bit; without a random part the area changes nothing; larger cells give a faster cache
 * on every one of 150 SMs here (its random sigma halves at area 4, same uniforms). */
static void test_cache_cell_area(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    var_chip *c = var_chip_alloc(&p);
    int err = -99;
    var_cache *same = var_cache_alloc(&p, 1.0, &err), *big = var_cache_alloc(&p, 4.0, NULL);
    assert_int_equal(err, VAR_OK);
    assert_non_null(same);
    assert_non_null(big);
    assert_null(var_cache_alloc(&p, 0.0, &err));
    assert_int_equal(err, VAR_EINVAL);
    double d[16], l[16], d1[16], l1[16], d4[16], l4[16], sum1 = 0, sum4 = 0;
    for (int chip = 0; chip < 10; chip++) {
        assert_int_equal(var_chip_generate(c, &p, 3, chip), VAR_OK);
        for (int sm = 0; sm < p.floorplan.n_sms; sm++) {
            assert_int_equal(var_chip_cache(c, sm, 128, 16, d, l), VAR_OK);
            assert_int_equal(var_cache_draw(same, c, sm, 128, 16, d1, l1), VAR_OK);
            assert_int_equal(var_cache_draw(big, c, sm, 128, 16, d4, l4), VAR_OK);
            assert_memory_equal(d, d1, sizeof d);
            assert_memory_equal(l, l1, sizeof l);
            double m1 = 0, m4 = 0;
            for (int b = 0; b < 16; b++)
                m1 = fmax(m1, d1[b]), m4 = fmax(m4, d4[b]);
            assert_true(m4 < m1);
            sum1 += m1, sum4 += m4;
        }
    }
    print_message("mean slowest cache delay over 150 SMs: cell area 1 %.4f, area 4 %.4f\n",
                  sum1 / 150, sum4 / 150);
    var_params q = p;
    q.variation.sigma_ratio = 0.0;
    assert_int_equal(var_cache_draw(big, c, 0, 128, 16, d4, l4), VAR_OK); /* p's chip */
    var_chip *c0 = var_chip_alloc(&q);
    var_cache *big0 = var_cache_alloc(&q, 4.0, NULL);
    assert_int_equal(var_cache_draw(big0, c, 0, 128, 16, d4, l4), VAR_EINVAL);
    assert_int_equal(var_chip_generate(c0, &q, 3, 0), VAR_OK);
    assert_int_equal(var_chip_cache(c0, 2, 128, 16, d, l), VAR_OK);
    assert_int_equal(var_cache_draw(big0, c0, 2, 128, 16, d4, l4), VAR_OK);
    for (int b = 0; b < 16; b++)
        assert_close(d4[b], d[b], 1e-12 * d[b]);
    var_cache_free(big0);
    var_chip_free(c0);
    var_cache_free(same);
    var_cache_free(big);
    var_chip_free(c);
}

/* Without arguments every test but the statistical one (9 s in Release, 90 s under
 * ASan), which runs alone as test_variation_cache_stats (labelled slow) with its name as
 * the argument. */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    else
        cmocka_set_skip_filter("test_cache_draws_like_rf_rows");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_pure),
        cmocka_unit_test(test_cache_on_the_rf_edge),
        cmocka_unit_test(test_cache_draws_like_rf_rows),
        cmocka_unit_test(test_cache_cell_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
