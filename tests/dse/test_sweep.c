/* Unit tests of the sweep loader: defaults, preset composition, round trip, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dse_sweep.h"
#include "sm_design.h"

static dse_sweep *load(const char *text) { return dse_sweep_load_string(text, "t.cfg", NULL); }

/* Loads `text` expecting failure; returns the error line written. */
static char *load_error(const char *text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dse_sweep *s = dse_sweep_load_string(text, "t.cfg", f);
    fclose(f);
    assert_null(s);
    return buf;
}

static void test_empty_sweep_gets_every_default(void **state)
{
    (void)state;
    dse_sweep *s = load("");
    assert_non_null(s);
    assert_int_equal(s->chips.count, 100);
    assert_int_equal(s->var.floorplan.n_sms, 15);
    assert_int_equal(s->var.floorplan.n_banks, 16);
    assert_int_equal(s->var.floorplan.entries_per_bank, 64);
    assert_int_equal(s->var.floorplan.sub_banks, 2);
    assert_true(s->var.variation.phi == 0.5);
    assert_int_equal(s->var.aging.n_years, 8);
    assert_int_equal(s->sm.max_warps, 48);
    assert_int_equal(s->n_workloads, 14); /* every shipped profile */
    assert_int_equal(dse_sweep_technique_index(s, "ideal"), 0);
    assert_string_equal(s->output.file, "results/t.h5");
    dse_sweep_free(s);
}

static void test_presets_compose(void **state)
{
    (void)state;
    dse_sweep *s = load("techniques = ( { name = \"x\"; base = [\"vl_sb\", \"fwas\"]; "
                        "fast_percent = 80.0; }, \"pv_opt\" );");
    assert_non_null(s);
    const dse_technique *x = &s->techniques[0], *pv = &s->techniques[1];
    assert_int_equal(x->freq.granularity, VAR_GRAN_SUB_BANK);
    assert_true(x->freq.bro);
    assert_int_equal(x->ipc.scheduler, SM_SCHED_FWAS);
    assert_true(x->freq.fast_percent == 80.0);
    assert_false(x->ipc.hybrid);
    assert_true(pv->ipc.hybrid);
    assert_int_equal(pv->ipc.scheduler, SM_SCHED_FWAS);
    dse_sweep_free(s);
}

static void test_every_preset_loads(void **state)
{
    (void)state;
    char text[1024] = "techniques = (";
    int n_presets = 0;
    for (const char *const *p = dse_technique_preset_names(); *p; p++, n_presets++) {
        strcat(text, p == dse_technique_preset_names() ? " \"" : ", \"");
        strcat(text, *p);
        strcat(text, "\"");
    }
    strcat(text, " );");
    dse_sweep *s = load(text);
    assert_non_null(s);
    /* every preset of the registry (at least issue 29's 25; the exact list is checked
     * against docs/sweep-format.md by check_docs_tables.sh) */
    assert_true(n_presets >= 25);
    assert_int_equal(s->n_techniques, n_presets);
    assert_false(s->techniques[dse_sweep_technique_index(s, "ideal")].freq.variation);
    const dse_technique *n = &s->techniques[dse_sweep_technique_index(s, "pv_opt_nbti_opt")];
    assert_true(n->freq.nbti_reorg && n->ipc.design[SM_DESIGN_nbti_rename] && n->ipc.hybrid);
    assert_true(s->techniques[dse_sweep_technique_index(s, "zero_gating")].ipc.design[SM_DESIGN_zero_gating]);
    assert_false(n->ipc.design[SM_DESIGN_zero_gating]);
    const dse_technique *rr = &s->techniques[dse_sweep_technique_index(s, "pv_opt_rr")];
    assert_true(rr->ipc.design[SM_DESIGN_reg_release] && rr->ipc.hybrid &&
                sm_technique_knob(&rr->ipc, "rr_policy") == SM_RR_FAST_FIRST);
    const dse_technique *ru = &s->techniques[dse_sweep_technique_index(s, "operand_reuse")];
    assert_true(ru->ipc.design[SM_DESIGN_operand_reuse] &&
                sm_technique_knob(&ru->ipc, "reuse_slots") == 3); /* its row's default */
    dse_sweep_free(s);
}

/* The figure colours (dse_technique_colours): ideal black and baseline grey, no other
 * technique either; distinct for any 12 others drawn from the presets and names of no
 * preset, in any order (fixed-seed draws); the default sweep's and the study's presets
 * (rf_bro, pv_opt, nbti_opt, ltrf, reg_release) keep their registry colours. */
static void test_colours_distinct(void **state)
{
    (void)state;
    const char *const *presets = dse_technique_preset_names();
    const char *pool[40];
    int n_pool = 0;
    for (const char *const *p = presets; *p; p++)
        if (strcmp(*p, "ideal") && strcmp(*p, "baseline"))
            pool[n_pool++] = *p;
    const char *custom[] = { "mine_a", "mine_b", "ltrf_cells2", "rr_consolidate" };
    for (int i = 0; i < 4; i++)
        pool[n_pool++] = custom[i];
    uint64_t x = 12345;
    for (int draw = 0; draw < 20000; draw++) {
        const char *names[14];
        char col[14][8];
        int n = 0, with_refs = draw % 3;
        if (with_refs)
            names[n++] = "baseline";
        if (with_refs == 2)
            names[n++] = "ideal";
        int others = 1 + draw % 12;
        bool used[40] = { false };
        while (others > 0) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int k = (int)((x >> 33) % (uint64_t)n_pool);
            if (used[k])
                continue;
            used[k] = true;
            names[n++] = pool[k];
            others--;
        }
        dse_technique_colours(names, n, col);
        for (int i = 0; i < n; i++) {
            bool ref = !strcmp(names[i], "ideal") || !strcmp(names[i], "baseline");
            assert_true(ref == (!strcmp(col[i], "#000000") || !strcmp(col[i], "#777777")));
            for (int j = 0; j < i; j++)
                assert_string_not_equal(col[i], col[j]);
        }
    }
    const char *def[] = { "ideal", "baseline", "vl_rf", "vl_rv", "vl_sb", "rf_bro", "fba_rm",
                          "two_level", "fwas", "hybrid", "pv_opt", "nbti_opt",
                          "pv_opt_nbti_opt", /* the study: */ "baseline", "rf_bro", "pv_opt",
                          "nbti_opt", "ltrf", "reg_release", "rfc_demand" };
    char all[13][8], one[1][8];
    for (int set = 0; set < 2; set++) {
        const char *const *names = set ? def + 13 : def;
        int n = set ? 7 : 13;
        dse_technique_colours(names, n, all);
        for (int i = 0; i < n; i++) {
            dse_technique_colours(&names[i], 1, one);
            assert_string_equal(all[i], one[0]); /* no preset here gave its colour up */
        }
    }
}

static const char composed[] =
    "chips = { count = 4; seed = 99L; };\n"
    "variation = { sigma_ratio = 0.25; phi = 0.1; };\n"
    "aging = { years = [0.0, 0.5, 3.0]; };\n"
    "techniques = ( \"ideal\", { name = \"y\"; base = \"rf_bro\"; scheduler = \"gto\"; } );\n"
    "workloads = ( { name = \"w\"; base = \"nn\"; grid_blocks = 30; weight = 0.3; } );\n";

static void test_round_trip_is_identical(void **state)
{
    (void)state;
    dse_sweep *a = load(composed);
    assert_non_null(a);
    char *text = dse_sweep_to_string(a);
    assert_non_null(text);
    dse_sweep *b = load(text);
    assert_non_null(b);
    assert_true(dse_sweep_equal(a, b));
    assert_int_equal(memcmp(&a->var, &b->var, sizeof a->var), 0);
    char *again = dse_sweep_to_string(b);
    assert_string_equal(text, again);
    free(text);
    free(again);
    dse_sweep_free(a);
    dse_sweep_free(b);
}

/* The equality check itself must be able to fail (test the checker). */
static void test_equal_detects_differences(void **state)
{
    (void)state;
    dse_sweep *a = load(composed), *b = load(composed);
    assert_true(dse_sweep_equal(a, b));
    b->var.aging.years[2] = 3.0000000000000004;
    assert_false(dse_sweep_equal(a, b));
    b->var.aging.years[2] = 3.0;
    b->workloads[0].weight = 0.30000000000000004;
    assert_false(dse_sweep_equal(a, b));
    b->workloads[0].weight = 0.3;
    b->techniques[1].ipc.scheduler = SM_SCHED_LRR;
    assert_false(dse_sweep_equal(a, b));
    dse_sweep_free(a);
    dse_sweep_free(b);
}

static void test_error_is_one_line_with_file_line_key(void **state)
{
    (void)state;
    char *e = load_error("chips = { count = 3; };\nvariation = {\n  phi = -1.0;\n};\n");
    assert_string_equal(e, "t.cfg:3: key 'variation.phi': got -1, accepted: (0, 100]\n");
    free(e);
}

static void test_embedded_default_matches_file(void **state)
{
    (void)state;
    const char *src = getenv("RFDSE_SOURCE_DIR");
    if (!src)
        skip();
    char path[1024];
    snprintf(path, sizeof path, "%s/sweeps/default.cfg", src);
    dse_sweep *a = dse_sweep_load_default(NULL), *b = dse_sweep_load_file(path, stderr);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(dse_sweep_equal(a, b));
    dse_sweep_free(a);
    dse_sweep_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_sweep_gets_every_default),
        cmocka_unit_test(test_presets_compose),
        cmocka_unit_test(test_every_preset_loads),
        cmocka_unit_test(test_colours_distinct),
        cmocka_unit_test(test_round_trip_is_identical),
        cmocka_unit_test(test_equal_detects_differences),
        cmocka_unit_test(test_error_is_one_line_with_file_line_key),
        cmocka_unit_test(test_embedded_default_matches_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
