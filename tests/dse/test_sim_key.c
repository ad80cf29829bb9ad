/* The run-cache key by construction (dse/smrun/sim_key.c): every sweep key that reaches an SM
 * run changes the key, and the key tables cover every byte of the structs an SM run
 * reads (but their padding), so no input can be left out of the key unnoticed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dse_sim_cache.h"
#include "dse_sweep.h"
#include "sweep_schema.h"

typedef struct inputs {
    dse_technique tech;
    sm_config cfg;
    sm_profile prof;
} inputs;

static void defaults(inputs *in)
{
    memset(in, 0, sizeof *in);
    assert_true(dse_technique_preset("pv_opt_nbti_opt", &in->tech));
    sm_config_default(&in->cfg);
    sm_profile_default(&in->prof);
}

static size_t key_of(const inputs *in, uint8_t *out)
{
    return dse__sim_inputs_key(&in->cfg, &in->prof, &in->tech.ipc, out);
}

/* Another value of field k (any other value will do: the key is not range-checked). */
static void perturb(const dse__key *k, char *base)
{
    char *f = base + k->offset;
    switch (k->type) {
    case DSE__INT: *(int *)f += 1; break;
    case DSE__ENUM: *(int *)f = *(int *)f ? 0 : 1; break;
    case DSE__INT64: *(int64_t *)f += 1; break;
    case DSE__DOUBLE: *(double *)f += 0.125; break;
    case DSE__BOOL: *(bool *)f = !*(bool *)f; break;
    case DSE__STRING: f[0] ^= 1; break;
    case DSE__INT_LIST:
    case DSE__DOUBLE_LIST: *(int *)(base + k->count_offset) += 1; break;
    }
}

/* Perturbs each key of `keys` lying in [lo, lo + size) of `base` in turn. */
static int check_table(const dse__key *keys, size_t n_keys, size_t lo, size_t size,
                       size_t base_off, const char *what)
{
    int checked = 0;
    uint8_t *a = malloc(DSE_SIM_INPUTS_KEY_MAX), *b = malloc(DSE_SIM_INPUTS_KEY_MAX);
    for (size_t i = 0; i < n_keys; i++) {
        if (keys[i].offset < lo || keys[i].offset >= lo + size)
            continue;
        inputs in;
        defaults(&in);
        size_t na = key_of(&in, a);
        perturb(&keys[i], (char *)&in + base_off);
        size_t nb = key_of(&in, b);
        if (na == nb && !memcmp(a, b, na))
            fail_msg("%s key '%s' changes the SM run but not the run-cache key", what,
                     keys[i].name);
        checked++;
    }
    free(a);
    free(b);
    return checked;
}

/* The longest key: every list of the profile at its capacity, every string at its
 * length, fits DSE_SIM_INPUTS_KEY_MAX (a profile's code_walk, 765 entries, and its
 * 256 launches overran the 4096 bytes the bound was before). */
static void test_longest_key_fits(void **state)
{
    (void)state;
    inputs in;
    defaults(&in);
    in.prof.n_launches = SM_MAX_LAUNCHES;
    in.prof.n_warp_weights = SM_MAX_WARP_WEIGHTS;
    in.prof.n_code_walk = SM_MAX_CODE_WALK;
    memset(in.prof.name, 'x', sizeof in.prof.name - 1);
    memset(in.prof.trace, 'x', sizeof in.prof.trace - 1);
    uint8_t *out = malloc(4 * DSE_SIM_INPUTS_KEY_MAX); /* room to overrun, to measure */
    size_t n = key_of(&in, out);
    free(out);
    assert_true(n > 4096);
    assert_true(n <= DSE_SIM_INPUTS_KEY_MAX);
}

static void test_every_input_changes_the_key(void **state)
{
    (void)state;
    const dse__section *sm = dse__section_find("sm");
    assert_non_null(sm);
    dse__keyset tk;
    dse__technique_keys(&tk);
    int n = check_table(tk.key, tk.n, offsetof(dse_technique, ipc),
                        sizeof(sm_technique), offsetof(inputs, tech), "technique");
    n += check_table(sm->keys, sm->n_keys, 0, sizeof(sm_config), offsetof(inputs, cfg), "sm");
    n += check_table(dse__workload_keys, dse__n_workload_keys, 0, sizeof(sm_profile),
                     offsetof(inputs, prof), "workload");
    print_message("%d keys checked\n", n);
    assert_true(n >= 7 + 25 + 20);
}

/* Bytes of [lo, lo + size) not covered by any key of the table. */
static size_t uncovered(const dse__key *keys, size_t n_keys, size_t lo, size_t size)
{
    char *cov = calloc(size, 1);
    for (size_t i = 0; i < n_keys; i++) {
        const dse__key *k = &keys[i];
        if (k->offset < lo || k->offset >= lo + size)
            continue;
        memset(cov + (k->offset - lo), 1, dse__key_size(k));
        if (k->type == DSE__INT_LIST || k->type == DSE__DOUBLE_LIST)
            memset(cov + (k->count_offset - lo), 1, sizeof(int));
    }
    size_t n = 0;
    for (size_t i = 0; i < size; i++)
        n += !cov[i];
    free(cov);
    return n;
}

/* A field added to these structs without a sweep key would not be in the run-cache key:
 * the uncovered bytes are exactly today's padding (and the profile's name, which labels
 * and never times).  If this fails after a struct changed, add the field to the key
 * tables (dse/sweep/sweep_schema.c), or, if it truly is no input of a run, update the count. */
static void test_tables_cover_every_field(void **state)
{
    (void)state;
    const dse__section *sm = dse__section_find("sm");
    dse__keyset tk;
    dse__technique_keys(&tk);
    /* sm_technique up to the designs' knob blocks; the blocks are checked below */
    size_t t = uncovered(tk.key, tk.n, offsetof(dse_technique, ipc),
                         offsetof(sm_technique, knobs));
    size_t c = uncovered(sm->keys, sm->n_keys, 0, sizeof(sm_config));
    size_t p = uncovered(dse__workload_keys, dse__n_workload_keys, 0, sizeof(sm_profile));
    print_message("uncovered bytes: sm_technique %zu, sm_config %zu, sm_profile %zu "
                  "(name %zu)\n", t, c, p, sizeof(((sm_profile *)0)->name));
    size_t after_design = offsetof(sm_technique, knobs) - offsetof(sm_technique, design) -
                          sizeof(((sm_technique *)0)->design); /* aligns the knob blocks */
    assert_int_equal(t, 2 + after_design); /* padding after the hybrid bool (2) and
                                              after design[]                        */
    /* every knob row lies inside its design's block, and no two rows overlap */
    char used[sizeof(((sm_technique *)0)->knobs)] = { 0 };
    size_t blocks = offsetof(dse_technique, ipc) + offsetof(sm_technique, knobs);
    int rows = 0;
    for (size_t i = 0; i < tk.n; i++) {
        const dse__key *k = &tk.key[i];
        if (k->offset < blocks || k->offset >= blocks + sizeof used)
            continue;
        size_t at = k->offset - blocks, n = dse__key_size(k);
        assert_true(at % SM_DESIGN_KNOB_BYTES + n <= SM_DESIGN_KNOB_BYTES);
        for (size_t b = at; b < at + n; b++)
            assert_int_equal(used[b]++, 0);
        rows++;
    }
    assert_true(rows >= 9); /* nbti_rename_order, rfc_regs, reg_release's seven */
    assert_int_equal(c, 5); /* padding after the result_slots, pending_hits and     *
                             * const_cache bools (1); the 4 before an 8-byte field  *
                             * since sm.frontend's int were sm.result_buses', and   *
                             * are again since sm.oc_stages                         */
    assert_int_equal(p, sizeof(((sm_profile *)0)->name) + sizeof(((sm_profile *)0)->trace) +
                            sizeof(((sm_profile *)0)->trace_stream) + 4 + 3);
    /* name; a trace workload's file name and its decoded stream (trace_hash, a key,
     * stands for both: docs/traces.md); padding after miss_latency (code_insts fills
     * what was padding after partial_lanes),
     * and after the launch_dependent bool (n_warp_weights fills load_sites' padding) */
}

/* sm.bro_ports = "physical" (model/slow_access.c): which map positions share a physical
 * bank changes the run, so it is in the key; the physical banks' names are not.  Map b
 * builds virtual banks 0 and 1 from the sub-banks of physical banks 0 and 1 (as rf_bro
 * does), map c is b with those two physical banks renamed, a is the identity.  All are
 * all fast, so with virtual ports the three are one run. */
static void test_physical_ports_key_the_pairing(void **state)
{
    (void)state;
    sm_config cfg;
    sm_profile w;
    sm_technique t;
    sm_config_default(&cfg);
    sm_profile_default(&w);
    w.grid_blocks = 15;
    w.insts_per_warp = 40;
    sm_technique_default(&t);
    sm_rf_map a, b, c;
    sm_rf_map_all_fast(&a, 16, 64, 2);
    b = c = a;
    b.sub_id[0][0] = 0, b.sub_id[0][1] = 2, b.sub_id[1][0] = 1, b.sub_id[1][1] = 3;
    c.sub_id[0][0] = 2, c.sub_id[0][1] = 0, c.sub_id[1][0] = 3, c.sub_id[1][1] = 1;
    sm_sim *sim = sm_sim_alloc(&cfg);
    assert_non_null(sim);
    dse_sm_result r;
    long hits, misses;
    for (int phys = 0; phys <= 1; phys++) {
        cfg.bro_ports = phys ? SM_BRO_PORTS_PHYSICAL : SM_BRO_PORTS_VIRTUAL;
        dse_sim_cache *cache = dse_sim_cache_alloc(6);
        assert_non_null(cache);
        const sm_rf_map *maps[] = { &a, &b, &c };
        for (int i = 0; i < 3; i++)
            assert_int_equal(dse_sim_cache_run(cache, sim, &cfg, &w, 0, &t, maps[i], 0, 15, &r),
                             SM_OK);
        dse_sim_cache_counts(cache, &hits, &misses);
        assert_int_equal(misses, phys ? 2 : 1); /* physical: a, then b (c is b renamed) */
        assert_int_equal(hits, phys ? 1 : 2);
        dse_sim_cache_free(cache);
    }
    sm_sim_free(sim);
}

/* A cache hit hands out every field of dse_sm_result as the miss computed it: the
 * result is over-written with garbage before the hit, and every field of the X-macro
 * lists (dse_sim_cache.h) must come back.  rfc_demand and reg_release fill the fields
 * that are zero without a design (rfc_lanes, rfc_duty, powered). */
static void test_hit_returns_every_field(void **state)
{
    (void)state;
    sm_config cfg;
    sm_profile w;
    sm_config_default(&cfg);
    sm_profile_default(&w);
    w.grid_blocks = 15;
    w.insts_per_warp = 60;
    sm_rf_map m;
    sm_rf_map_all_fast(&m, 16, 64, 2);
    sm_sim *sim = sm_sim_alloc(&cfg);
    assert_non_null(sim);
    const sm_rf_design_id designs[] = { SM_DESIGN_rfc_demand, SM_DESIGN_reg_release };
    for (int d = 0; d < 2; d++) {
        sm_technique t;
        sm_technique_default(&t);
        t.design[designs[d]] = true;
        dse_sim_cache *cache = dse_sim_cache_alloc(4);
        assert_non_null(cache);
        static dse_sm_result miss, hit;
        memset(&miss, 0, sizeof miss);
        memset(&hit, 0xAB, sizeof hit);
        assert_int_equal(dse_sim_cache_run(cache, sim, &cfg, &w, 0, &t, &m, 0, 15, &miss), SM_OK);
        assert_int_equal(dse_sim_cache_run(cache, sim, &cfg, &w, 0, &t, &m, 0, 15, &hit), SM_OK);
        long hits, misses;
        dse_sim_cache_counts(cache, &hits, &misses);
        assert_int_equal(hits, 1);
#define SAME_SCALAR(name, doc) assert_memory_equal(&hit.name, &miss.name, sizeof miss.name);
#define SAME_BANKS(name, doc) assert_memory_equal(hit.name, miss.name, sizeof miss.name);
        DSE_SM_RESULT_SCALARS(SAME_SCALAR)
        DSE_SM_RESULT_BANK_ARRAYS(SAME_BANKS)
#undef SAME_SCALAR
#undef SAME_BANKS
        for (int b = 0; b < m.n_banks; b++)
            for (int p = 0; p < m.subs_per_bank; p++) {
                int id = m.sub_id[b][p];
#define SAME_SUB(name, doc) assert_memory_equal(&hit.name[id], &miss.name[id], sizeof(double));
                DSE_SM_RESULT_SUB_ARRAYS(SAME_SUB)
#undef SAME_SUB
            }
        if (designs[d] == SM_DESIGN_rfc_demand)
            assert_true(miss.rfc_lanes > 0);
        else
            assert_true(miss.powered < 1.0);
        dse_sim_cache_free(cache);
    }
    sm_sim_free(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_physical_ports_key_the_pairing),
        cmocka_unit_test(test_every_input_changes_the_key),
        cmocka_unit_test(test_longest_key_fits),
        cmocka_unit_test(test_tables_cover_every_field),
        cmocka_unit_test(test_hit_returns_every_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
