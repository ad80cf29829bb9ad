/* A clock added by its file and one registry line (tests/dse/toy_clock.c, toy_clock.h):
 * the driver selects it and runs its hooks, and the shipped clocks are untouched.  The
 * toy keeps the time-zero frequency all its life; the same storage under the fixed clock
 * (baseline) ages. */
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
#include "dse_sweep.h"

static const char *sweep_text =
    "chips = { count = 1; seed = 3L; };\n"
    "techniques = ( \"baseline\", { name = \"toy_still\"; base = [\"baseline\"]; } );\n"
    "workloads = ( \"nn\" );\n"
    "aging = { years = [0.0, 3.0, 7.0]; };\n";

typedef struct unit {
    double frequency[3], frequency_min[3], main_latency[3], guardband_raw[1], guardband[1];
} unit;

static void age(dse_aging *a, const dse_sweep *s, int t, const double *duty,
                const double *cache_duty, const double *base_raw, sm_rf_map *maps, unit *u)
{
    int n_sms = s->var.floorplan.n_sms;
    double *sm_freq = calloc((size_t)n_sms, sizeof(double));
    sm_technique *ipc = calloc((size_t)n_sms, sizeof *ipc);
    char err[256] = "";
    assert_non_null(sm_freq);
    assert_non_null(ipc);
    if (dse_aging_time_zero(a, t, maps, sm_freq, ipc, &u->frequency[0], &u->frequency_min[0],
                            err, sizeof err))
        fail_msg("time zero of %s: %s", s->techniques[t].name, err);
    dse_aging_in in = { .duty = duty, .cache_duty = cache_duty,
                        .frequency0 = u->frequency[0], .frequency_min0 = u->frequency_min[0],
                        .base_raw = base_raw, .maps = maps };
    dse_aging_out out = { .frequency = u->frequency, .frequency_min = u->frequency_min,
                          .main_latency = u->main_latency, .guardband_raw = u->guardband_raw,
                          .guardband = u->guardband, .trace = -1 };
    if (dse_aging_run(a, &in, &out, err, sizeof err))
        fail_msg("aging of %s: %s", s->techniques[t].name, err);
    assert_false(dse_aging_end_state(a, ipc));
    free(sm_freq);
    free(ipc);
}

static void test_toy_clock(void **state)
{
    (void)state;
    dse_sweep *s = dse_sweep_load_string(sweep_text, "toy", stderr);
    assert_non_null(s);
    assert_string_equal(dse_aging_clock_name(s, &s->techniques[0]), "fixed");
    assert_string_equal(dse_aging_clock_name(s, &s->techniques[1]), "toy_frozen");
    const var_floorplan *f = &s->var.floorplan;
    size_t subs = (size_t)f->n_sms * (size_t)f->n_banks * (size_t)f->sub_banks;
    double *duty = malloc(sizeof(double) * subs);
    double *cache_duty = calloc((size_t)f->n_sms * (size_t)f->n_banks, sizeof(double));
    sm_rf_map *maps = calloc((size_t)f->n_sms, sizeof *maps);
    var_chip *chip = var_chip_alloc(&s->var);
    dse_aging *a = dse_aging_alloc(s);
    assert_true(duty && cache_duty && maps && chip && a);
    for (size_t i = 0; i < subs; i++)
        duty[i] = 0.5;
    assert_int_equal(var_chip_generate(chip, &s->var, s->chips.seed, 0), VAR_OK);
    dse_aging_set_chip(a, chip);
    double base_raw[1], base_mix[3];
    dse_aging_baseline_guardband(a, duty, base_raw, base_mix);
    unit base, toy;
    age(a, s, 0, duty, cache_duty, base_raw, maps, &base);
    age(a, s, 1, duty, cache_duty, base_raw, maps, &toy);
    print_message("baseline %.6f -> %.6f, toy %.6f -> %.6f\n", base.frequency[0],
                  base.frequency[2], toy.frequency[0], toy.frequency[2]);
    assert_true(toy.frequency[0] == base.frequency[0]); /* the same time zero */
    assert_true(base.frequency[2] < base.frequency[0]); /* the fixed clock ages */
    assert_true(toy.frequency[2] == toy.frequency[0]);  /* the toy does not */
    assert_true(toy.guardband_raw[0] == 0.0 && base.guardband_raw[0] > 0.0);
    dse_aging_free(a);
    var_chip_free(chip);
    free(maps);
    free(cache_duty);
    free(duty);
    dse_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
