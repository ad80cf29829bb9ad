/* Non-dominated sorting, crowding distance and 2-D hypervolume (analysis/pareto.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ana_pareto.h"

static void test_ranks(void **state)
{
    (void)state;
    /* front 0: (1,4) (2,2) (4,1); front 1: (3,3) (5,2); front 2: (6,6); NaN last */
    const double f[] = { 1, 4, 3, 3, 2, 2, 6, 6, 4, 1, 5, 2, NAN, 0 };
    int rank[7];
    assert_int_equal(ana_pareto_rank(f, 7, 2, rank), 4);
    const int want[] = { 0, 1, 0, 2, 0, 1, 3 };
    for (int i = 0; i < 7; i++)
        assert_int_equal(rank[i], want[i]);
    /* equal points do not dominate each other */
    const double g[] = { 1, 1, 1, 1 };
    int r2[2];
    assert_int_equal(ana_pareto_rank(g, 2, 2, r2), 1);
}

static void test_crowding(void **state)
{
    (void)state;
    const double f[] = { 0, 4, 1, 2, 3, 1, 4, 0 };
    const int idx[] = { 0, 1, 2, 3 };
    double d[4];
    assert_int_equal(ana_pareto_crowding(f, 2, idx, 4, d), 0);
    assert_true(isinf(d[0]) && isinf(d[3]));
    /* point 1: (3-0)/4 + (4-1)/4 = 1.5; point 2: (4-1)/4 + (2-0)/4 = 1.25 */
    assert_true(fabs((d[1]) - (1.5)) < 1e-12);
    assert_true(fabs((d[2]) - (1.25)) < 1e-12);
}

static void test_hypervolume(void **state)
{
    (void)state;
    const double ref[2] = { 4, 4 };
    const double one[] = { 1, 1 };
    assert_true(fabs((ana_pareto_hypervolume2(one, 1, ref)) - (9.0)) < 1e-12);
    /* (1,3) (2,2) (3,1): staircase area 3 + 2 + 1 = 6; a dominated point adds nothing,
     * nor does one outside the reference box */
    const double s[] = { 2, 2, 1, 3, 3, 1, 3, 3, 5, 0 };
    assert_true(fabs((ana_pareto_hypervolume2(s, 3, ref)) - (6.0)) < 1e-12);
    assert_true(fabs((ana_pareto_hypervolume2(s, 5, ref)) - (6.0)) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks),
        cmocka_unit_test(test_crowding),
        cmocka_unit_test(test_hypervolume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
