/* NSGA-II (dse/run/nsga2.c) on ZDT1, an analytic two-objective problem with a known
 * front: f1 = x1, g = 1 + 9 mean(x2..xn), f2 = g (1 - sqrt(f1 / g)); the front is
 * f2 = 1 - sqrt(f1), f1 in [0, 1], whose hypervolume against (1.1, 1.1) is
 * 0.1 + 2/3 + 0.11 = 0.876667.  The objective here is the test's own: the search
 * engine is the driver's. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ana_pareto.h"
#include "dse_nsga2.h"

enum { V = 5, N = 40, G = 100 };
static const double HV_FRONT = 0.1 + 2.0 / 3.0 + 0.11;
static const double TOLERANCE = 0.01; /* stated in docs/sweep-format.md */

static void zdt1(const double *x, double *f)
{
    double s = 0;
    for (int j = 1; j < V; j++)
        s += x[j];
    double g = 1.0 + 9.0 * s / (V - 1);
    f[0] = x[0];
    f[1] = g * (1.0 - sqrt(x[0] / g));
}

/* Runs G generations; returns the hypervolume of each generation's population. */
static void search(uint64_t seed, double *x, double *f, double *hv)
{
    dse_nsga2 c = dse_nsga2_default(V, 2, N, seed);
    uint64_t z = seed;
    for (int i = 0; i < N * V; i++) { /* generation 0: a fixed pseudo-random cloud */
        z = z * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(z >> 11) * 0x1.0p-53;
    }
    const double ref[2] = { 1.1, 1.1 };
    for (int g = 0; g < G; g++) {
        for (int i = 0; i < N; i++)
            zdt1(x + ((size_t)g * N + i) * V, f + ((size_t)g * N + i) * 2);
        hv[g] = ana_pareto_hypervolume2(f, (g + 1) * N, ref);
        if (g + 1 < G)
            assert_int_equal(dse_nsga2_next(&c, g, x, f, x + (size_t)(g + 1) * N * V), 0);
    }
}

static void test_zdt1_converges(void **state)
{
    (void)state;
    double *x = malloc(sizeof(double) * G * N * V), *f = malloc(sizeof(double) * G * N * 2);
    double hv[G];
    search(7, x, f, hv);
    print_message("ZDT1: hypervolume %.4f after generation 0, %.4f after %d (front: %.4f)\n",
                  hv[0], hv[G - 1], G, HV_FRONT);
    assert_true(hv[G - 1] > HV_FRONT - TOLERANCE);
    assert_true(hv[G - 1] <= HV_FRONT + 1e-9);
    assert_true(hv[0] < HV_FRONT - 0.2); /* the start is far from the front */
    for (int g = 1; g < G; g++)
        assert_true(hv[g] >= hv[g - 1]); /* every point is kept: never worse */
    /* the survivors are the population: pop of them */
    uint8_t *alive = malloc(G * N);
    dse_nsga2 c = dse_nsga2_default(V, 2, N, 7);
    assert_int_equal(dse_nsga2_population(&c, G - 1, f, alive), 0);
    int n = 0;
    for (int i = 0; i < G * N; i++)
        n += alive[i];
    assert_int_equal(n, N);
    free(alive);
    free(x);
    free(f);
}

/* The same seed gives the same search, bit for bit; another seed another one. */
static void test_deterministic(void **state)
{
    (void)state;
    double *x1 = malloc(sizeof(double) * G * N * V), *f1 = malloc(sizeof(double) * G * N * 2);
    double *x2 = malloc(sizeof(double) * G * N * V), *f2 = malloc(sizeof(double) * G * N * 2);
    double h1[G], h2[G];
    search(7, x1, f1, h1);
    search(7, x2, f2, h2);
    assert_memory_equal(x1, x2, sizeof(double) * G * N * V);
    search(8, x2, f2, h2);
    assert_memory_not_equal(x1, x2, sizeof(double) * G * N * V);
    free(x1);
    free(f1);
    free(x2);
    free(f2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zdt1_converges),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
