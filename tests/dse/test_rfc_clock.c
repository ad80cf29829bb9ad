/* The cache clock (issue 18 item 3; dse/aging/clock_cache.c): a chip's
 * frequency and main-RF latency under ltrf, recomputed here from the variation module's
 * own answers, and the loader's rules for it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dse_aging.h"
#include "dse_eval.h"
#include "dse_results.h"
#include "dse_sweep.h"

/* Occupancy duty: a cache bank's duty is 1 by definition (docs/model.md, "The cache
 * clock"), so the cache's aging needs no SM run to recompute. */
static const char *sweep_text =
    "chips = { count = 2; seed = 9L; };\n"
    "techniques = ( \"ideal\", \"baseline\", \"ltrf\",\n"
    "  { name = \"ltrf_L5\"; base = [\"ltrf\"]; main_rf_latency = 5; },\n"
    "  { name = \"ltrf_rot\"; base = [\"ltrf\"]; rfc_rotation = true; } );\n"
    "workloads = ( \"nn\" );\n"
    "aging = { years = [0.0, 2.0, 7.0]; duty = \"occupancy\"; };\n";

typedef struct units {
    dse_unit u[8];
    dse_chip_info info;
} units;

static void units_alloc(units *x, const dse_dims *d)
{
    size_t big = 64 * 64 * 64;
    for (int i = 0; i < 8; i++) {
        dse_unit *u = &x->u[i];
#define ALLOC(name, ...) u->name = calloc(64, sizeof(double));
        RFDSE_UNIT_METRICS(ALLOC)
#undef ALLOC
        u->trace_delay = calloc(big, sizeof(double));
        u->trace_slow = calloc(big, 1);
        u->trace_util = calloc(big, sizeof(double));
    }
    x->info.sm_frequency = calloc((size_t)d->n_sms, sizeof(double));
    x->info.within_sm_ratio = calloc((size_t)d->n_sms, sizeof(double));
}

static void units_free(units *x)
{
    for (int i = 0; i < 8; i++) {
        dse_unit *u = &x->u[i];
#define FREE(name, ...) free(u->name);
        RFDSE_UNIT_METRICS(FREE)
#undef FREE
        free(u->trace_delay);
        free(u->trace_slow);
        free(u->trace_util);
    }
    free(x->info.sm_frequency);
    free(x->info.within_sm_ratio);
}

/* SM sm's cache-set frequency after t seconds of full stress, and (t = 0) its main-RF
 * latency for nominal latency L0, from var_chip_cache and the chip's own delays. */
static double expected_freq(const var_chip *c, const var_params *p, int sm, double t)
{
    double d[16], l[16], worst = 0;
    assert_int_equal(var_chip_cache(c, sm, 8 * 16, 16, d, l), VAR_OK);
    for (int b = 0; b < 16; b++)
        worst = fmax(worst, var_register_delay_aged(p, d[b], l[b], t, 0.0));
    return 1.0 / worst;
}

static void test_ltrf_clock_recomputed(void **state)
{
    (void)state;
    dse_sweep *s = dse_sweep_load_string(sweep_text, "rfc", stderr);
    assert_non_null(s);
    dse_dims dims;
    dse_dims_of(s, &dims);
    char err[256];
    dse_eval *e = dse_eval_alloc(s, true, err, sizeof err);
    assert_non_null(e);
    var_chip *c = var_chip_alloc(&s->var);
    uint8_t want[8] = { 1, 1, 1, 1, 1 };
    static units x;
    units_alloc(&x, &dims);
    for (int chip = 0; chip < 2; chip++) {
        int k = dse_eval_chip(e, chip, want, x.u, &x.info, NULL, NULL, err, sizeof err);
        assert_int_equal(k, 5);
        assert_int_equal(var_chip_generate(c, &s->var, s->chips.seed, chip), VAR_OK);
        const dse_unit *ltrf = &x.u[2], *l5 = &x.u[3], *rot = &x.u[4];
        for (int y = 0; y < 3; y++) {
            double t = s->var.aging.years[y] * VAR_YEAR_S, sum = 0;
            for (int sm = 0; sm < dims.n_sms; sm++)
                sum += expected_freq(c, &s->var, sm, t);
            assert_true(fabs(ltrf->frequency[y] - sum / dims.n_sms) <= 1e-12);
            /* every bank at duty 1: rotation changes nothing, nor does the main RF */
            assert_true(rot->frequency[y] == ltrf->frequency[y]);
            assert_true(l5->frequency[y] == ltrf->frequency[y]);
        }
        double lat1 = 0, lat5 = 0;
        for (int sm = 0; sm < dims.n_sms; sm++) {
            double r = expected_freq(c, &s->var, sm, 0) / var_chip_sm_frequency(c, sm);
            lat1 += ceil(1 * r - 1e-9);
            lat5 += ceil(5 * r - 1e-9);
        }
        assert_true(fabs(ltrf->main_latency[0] - lat1 / dims.n_sms) <= 1e-12);
        assert_true(fabs(l5->main_latency[0] - lat5 / dims.n_sms) <= 1e-12);
        assert_true(x.u[1].main_latency[0] == 1.0 && x.u[0].main_latency[2] == 1.0);
        /* lifetime performance is the IPC at the end-of-schedule latencies x f_end */
        assert_true(ltrf->performance[0] == ltrf->ipc_lifetime[0] * ltrf->frequency[2]);
        assert_true(x.u[1].ipc_lifetime[0] == x.u[1].ipc[0]);
        assert_true(l5->ipc[0] < ltrf->ipc[0]);
        print_message("chip %d: ltrf f %.4f -> %.4f, L %.2f -> %.2f; L0 = 5: L %.2f -> %.2f, "
                      "IPC %.4f -> %.4f; baseline f %.4f\n", chip, ltrf->frequency[0],
                      ltrf->frequency[2], ltrf->main_latency[0], ltrf->main_latency[2],
                      l5->main_latency[0], l5->main_latency[2], l5->ipc[0], l5->ipc_lifetime[0],
                      x.u[1].frequency[0]);
    }
    units_free(&x);
    var_chip_free(c);
    dse_eval_free(e);
    free(s);
}

/* Without variation every delay is 1: the clock is 1 and L = L0 exactly, whatever the
 * rounding of L0 x 1 x 1. */
static void test_no_variation_keeps_nominal_latency(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    p.variation.vth_sigma = p.variation.leff_sigma = 0.0;
    var_chip *c = var_chip_alloc(&p);
    assert_non_null(c);
    assert_int_equal(var_chip_generate(c, &p, 1, 0), VAR_OK);
    double d[16 * 15], l[16 * 15];
    for (int sm = 0; sm < 15; sm++)
        assert_int_equal(var_chip_cache(c, sm, 128, 16, d + 16 * sm, l + 16 * sm), VAR_OK);
    for (int L0 = 1; L0 <= 16; L0++) {
        dse_rfc_in rfc = { .banks = 16, .latency0 = L0, .delay = d, .leff = l };
        int L;
        double f = dse_rfc_clock(&p, c, 3, &rfc, NULL, NULL, 0.0, &L);
        assert_true(f == 1.0);
        assert_int_equal(L, L0);
    }
    var_chip_free(c);
}

/* Rotation ages every bank at the banks' mean duty: with the slowest bank busy and the
 * others idle, the cache is faster with rotation than without. */
static void test_rotation_evens_duty(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    var_chip *c = var_chip_alloc(&p);
    assert_int_equal(var_chip_generate(c, &p, 1, 0), VAR_OK);
    double d[16], l[16], duty[16], main_duty[32] = { 0 };
    assert_int_equal(var_chip_cache(c, 0, 128, 16, d, l), VAR_OK);
    int slow = 0;
    for (int b = 0; b < 16; b++)
        slow = d[b] > d[slow] ? b : slow;
    for (int b = 0; b < 16; b++)
        duty[b] = b == slow ? 1.0 : 0.0;
    dse_rfc_in fixed = { .banks = 16, .latency0 = 1, .delay = d, .leff = l }, rot = fixed;
    rot.rotation = true;
    double t = 7 * VAR_YEAR_S, mean = 1.0 / 16.0, worst = 0;
    int L;
    double f_fixed = dse_rfc_clock(&p, c, 0, &fixed, duty, main_duty, t, &L);
    double f_rot = dse_rfc_clock(&p, c, 0, &rot, duty, main_duty, t, &L);
    for (int b = 0; b < 16; b++)
        worst = fmax(worst, var_register_delay_aged(&p, d[b], l[b], mean * t, (1 - mean) * t));
    assert_true(f_rot == 1.0 / worst);
    assert_true(f_fixed == 1.0 / var_register_delay_aged(&p, d[slow], l[slow], t, 0.0));
    assert_true(f_rot > f_fixed);
    var_chip_free(c);
}

static void expect_error(const char *techniques, const char *extra, const char *what)
{
    char text[1024], *msg = NULL;
    size_t len = 0;
    snprintf(text, sizeof text, "chips = { count = 1; };\ntechniques = ( %s );\n%s", techniques,
             extra);
    FILE *err = open_memstream(&msg, &len);
    dse_sweep *s = dse_sweep_load_string(text, "bad", err);
    fclose(err);
    if (s || !strstr(msg, what))
        fail_msg("expected an error with '%s', got: %s", what, msg ? msg : "(none)");
    free(msg);
}

static void test_loader_rules(void **state)
{
    (void)state;
    expect_error("{ name = \"x\"; base = [\"ltrf\"]; nbti_reorg = true; }", "",
                 "nbti_reorg, which re-pairs");
    expect_error("{ name = \"x\"; base = [\"rf_bro\"]; rfc_rotation = true; }", "",
                 "rfc_rotation = true needs a register-file cache");
    expect_error("{ name = \"x\"; base = [\"rf_bro\"]; rfc_cell_area = 2.0; }", "",
                 "rfc_cell_area needs a register-file cache");
    expect_error("{ name = \"x\"; base = [\"ltrf\"]; rfc_cell_area = 0.1; }", "",
                 "rfc_cell_area");
    expect_error("{ name = \"x\"; base = [\"ltrf\"]; rfc_regs = 8; }",
                 "sm = { group_size = 1; };\n", "needs one per bank");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_variation_keeps_nominal_latency),
        cmocka_unit_test(test_rotation_evens_duty),
        cmocka_unit_test(test_loader_rules),
        cmocka_unit_test(test_ltrf_clock_recomputed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
