/* The register-file energy model (dse/sweep/energy.c, docs/model.md "Energy"): the energy of an
 * SM run, recomputed here from its statistics and the published per-access energy and
 * leakage, equals what the driver computes from the run's result. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "dse_sim_cache.h"
#include "dse_sweep.h"

static void test_energy_from_statistics(void **state)
{
    (void)state;
    sm_config c;
    sm_profile p;
    sm_technique t;
    static sm_rf_map m;
    static sm_stats st;
    static dse_sm_result r;
    sm_config_default(&c);
    sm_profile_default(&p);
    sm_technique_default(&t);
    p.insts_per_warp = 200;
    sm_rf_map_all_fast(&m, 16, 64, 2);
    sm_sim *sim = sm_sim_alloc(&c);
    assert_int_equal(sm_sim_run(sim, &c, &p, &t, &m, 0, 15, &st), SM_OK);
    sm_sim_free(sim);
    dse_sm_result_of(&st, &m, &r);
    dse_energy e;
    dse_energy_default(&e);
    assert_true(e.access_pj == 4.68 && e.leakage_mw == 2.8 && e.clock_mhz == 1401.0);
    double freq = 0.8, dyn, leak;
    dse_energy_of(&e, 16, 32, r.lane_accesses, r.cycles, freq, r.powered, &dyn, &leak);
    assert_true(r.powered == 1.0); /* no gating without reg_release */
    /* 4.68 pJ per access of a whole 16-lane sub-bank; 2.8 mW per powered sub-bank, 32 of
     * them, for cycles / (0.8 x 1401 MHz) seconds. */
    double lanes = (double)(st.read_lanes + st.write_lanes);
    double want_dyn = lanes * 4.68e-12 / 16, want_leak = 32 * 2.8e-3 * st.cycles / (0.8 * 1401e6);
    assert_true(lanes > 0 && st.cycles > 0);
    assert_true(fabs(dyn - want_dyn) <= 1e-12 * want_dyn);
    assert_true(fabs(leak - want_leak) <= 1e-12 * want_leak);
    /* the lane accesses also sum over the sub-banks */
    uint64_t per_sub = 0;
    for (uint64_t i = 0; i < st.n_sub_banks; i++)
        per_sub += st.sub_read_lanes[i] + st.sub_write_lanes[i];
    assert_int_equal(per_sub, st.read_lanes + st.write_lanes);
    print_message("run: %.0f lane accesses, %llu cycles: dynamic %.3g J, leakage %.3g J\n", lanes,
                  (unsigned long long)st.cycles, dyn, leak);
}

/* A register-file cache's energy by hand: 40 accesses of a 32-lane warp (1280 lane
 * accesses), cells of twice the RF cell's area, 128 register vectors of a floorplan of
 * 64 entries per bank in 2 sub-banks (4 sub-banks' worth of cells), 10 us of run time. */
static void test_cache_energy_by_hand(void **state)
{
    (void)state;
    dse_energy e;
    dse_energy_default(&e);
    double dyn, leak, seconds = 1e-5;
    dse_energy_cache_of(&e, 16, 128.0 * 2 / 64, 2.0, 1280.0, seconds, &dyn, &leak);
    double want_dyn = 1280 * 4.68e-12 / 16 * 2.0; /* 748.8 pJ */
    double want_leak = 4 * 2.8e-3 * 2.0 * seconds; /* 224 nJ */
    assert_true(fabs(dyn - 748.8e-12) <= 1e-12 * want_dyn);
    assert_true(fabs(dyn - want_dyn) <= 1e-12 * want_dyn);
    assert_true(fabs(leak - 224e-9) <= 1e-12 * want_leak);
    /* cells of the RF's own area: half of both */
    double dyn1, leak1;
    dse_energy_cache_of(&e, 16, 4.0, 1.0, 1280.0, seconds, &dyn1, &leak1);
    assert_true(fabs(dyn1 - dyn / 2) <= 1e-12 * dyn && fabs(leak1 - leak / 2) <= 1e-12 * leak);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_energy_from_statistics),
                                        cmocka_unit_test(test_cache_energy_by_hand) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
