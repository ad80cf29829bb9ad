/* Which clock (the frequency side of a technique, dse/aging/clock_*.c) each preset gets:
 * the first of the list DSE__CLOCKS that selects it, so the list's order matters (an
 * ideal technique with a cache is ideal; nbti_opt is nbti_reorg, not fixed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dse_aging.h"
#include "dse_sweep.h"

static const char *sweep_text =
    "chips = { count = 1; };\n"
    "techniques = ( \"ideal\", \"baseline\", \"vl_rf\", \"pv_opt\", \"nbti_opt\",\n"
    "  \"pv_opt_nbti_opt\", \"ltrf\", \"rfc_demand\", \"reg_release\",\n"
    "  { name = \"ltrf_ideal\"; base = [\"ltrf\", \"ideal\"]; } );\n"
    "workloads = ( \"nn\" );\n";

static void test_presets_clocks(void **state)
{
    (void)state;
    static const char *const want[][2] = {
        { "ideal", "ideal" },           { "baseline", "fixed" },
        { "vl_rf", "fixed" },           { "pv_opt", "fixed" },
        { "nbti_opt", "nbti_reorg" },   { "pv_opt_nbti_opt", "nbti_reorg" },
        { "ltrf", "cache" },            { "rfc_demand", "cache" },
        { "reg_release", "fixed" },     { "ltrf_ideal", "ideal" },
    };
    dse_sweep *s = dse_sweep_load_string(sweep_text, "clocks", stderr);
    assert_non_null(s);
    assert_int_equal(s->n_techniques, (int)(sizeof want / sizeof want[0]));
    for (int t = 0; t < s->n_techniques; t++) {
        const char *got = dse_aging_clock_name(s, &s->techniques[t]);
        if (strcmp(s->techniques[t].name, want[t][0]) || strcmp(got, want[t][1]))
            fail_msg("technique %s: clock %s, expected %s for %s", s->techniques[t].name, got,
                     want[t][1], want[t][0]);
    }
    dse_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets_clocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
