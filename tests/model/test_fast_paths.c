/* The SM model's fast paths against simulating every cycle: the idle skip (sim.c),
 * the held MSHR outcome (exec.c), settled schedulers (sched.c), the all-fast count
 * from the collector's reads and a warp slot's kept tables rest on invariants (docs/model.md, "Invariants of the
 * fast paths") that a new unit or register-file design could break without any other
 * test noticing.  Every preset on every shipped profile, on a 70 % stand-in map as
 * `rfdse sm` builds it, plus GPGPU-Sim's port and result-slot knobs and Turner's
 * replay (unified collectors, credit tracker) on rf_bro, other SM shapes
 * (schedulers, pipelines), and the collector pools and latencies that decide the
 * dispatch at issue (GPGPU-Sim's latency table, whose DP runs on the SFU, among them):
 * the statistics must be bit-identical both ways. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dse_sweep.h"
#include "sm_internal.h"

static void stand_in_map(const dse_sweep *s, const dse_technique *t, sm_rf_map *m)
{
    const var_floorplan *fp = &s->var.floorplan;
    int total = fp->n_banks * fp->sub_banks, slow = (int)(total * 0.3 + 0.5);
    sm_rf_map_all_fast(m, fp->n_banks, fp->entries_per_bank, fp->sub_banks);
    if (!t->freq.variation)
        return;
    if (t->freq.granularity == VAR_GRAN_SUB_BANK && t->freq.bro)
        sm_rf_map_mark_last_slow(m, slow);
    else if (t->freq.granularity == VAR_GRAN_SUB_BANK)
        sm_rf_map_mark_spread_slow(m, slow);
    else
        sm_rf_map_mark_last_entries_slow(m, fp->n_banks * fp->entries_per_bank * 3 / 10);
}

/* Runs SM 0 of the chip both ways; returns the number of cycles. */
static uint64_t both_ways(sm_sim *sim, const dse_sweep *s, const sm_config *c,
                          const dse_technique *t, const sm_profile *p, const char *what)
{
    static sm_rf_map m;
    static sm_stats fast, exact;
    stand_in_map(s, t, &m);
    int n = s->var.floorplan.n_sms;
    assert_int_equal(sm_sim_run(sim, c, p, &t->ipc, &m, 0, n, &fast), SM_OK);
    sm__sim_set_exact(sim, true);
    assert_int_equal(sm_sim_run(sim, c, p, &t->ipc, &m, 0, n, &exact), SM_OK);
    sm__sim_set_exact(sim, false);
    if (memcmp(&fast, &exact, sizeof fast))
        fail_msg("%s on %s: statistics differ with every cycle simulated", what, p->name);
    return fast.cycles;
}

static void test_every_preset_and_profile(void **state)
{
    (void)state;
    dse_sweep *s = dse_sweep_load_default(stderr);
    assert_non_null(s);
    sm_sim *sim = sm_sim_alloc(&s->sm);
    assert_non_null(sim);
    uint64_t cycles = 0;
    int runs = 0;
    for (const char *const *name = dse_technique_preset_names(); *name; name++) {
        dse_technique t;
        assert_true(dse_technique_preset(*name, &t));
        for (int w = 0; w < s->n_workloads; w++, runs++)
            cycles += both_ways(sim, s, &s->sm, &t, &s->workloads[w], *name);
    }
    sm_config gpgpusim = s->sm;
    gpgpusim.bank_ports = SM_PORTS_SHARED;
    gpgpusim.result_slots = true;
    dse_technique bro;
    assert_true(dse_technique_preset("rf_bro", &bro));
    for (int w = 0; w < s->n_workloads; w++, runs++)
        cycles += both_ways(sim, s, &gpgpusim, &bro, &s->workloads[w], "rf_bro, shared ports");
    dse_technique sb; /* half the warps partial: a slot's next warp may have other lanes */
    assert_true(dse_technique_preset("vl_sb", &sb));
    for (int w = 0; w < s->n_workloads; w++, runs++) {
        sm_profile partial = s->workloads[w];
        partial.partial_warps = 0.5;
        partial.partial_lanes = 8;
        cycles += both_ways(sim, s, &s->sm, &sb, &partial, "vl_sb, partial warps");
    }
    sm_config replay = s->sm; /* Turner's replay with a unified collector pool */
    replay.collectors = SM_COLLECTORS_UNIFIED;
    replay.mem_hazard = SM_HAZARD_REPLAY;
    replay.mshr_tracker = SM_TRACKER_CREDIT;
    replay.hit_predictor = SM_PREDICT_HIT_UNLESS_REPLAYED;
    sm_sim *rsim = sm_sim_alloc(&replay); /* its collector pool is sized differently */
    assert_non_null(rsim);
    for (int w = 0; w < s->n_workloads; w++, runs++)
        cycles += both_ways(rsim, s, &replay, &bro, &s->workloads[w], "rf_bro, replay");
    sm_sim_free(rsim);
    /* SM shapes other than the plain copy's constants (sim.c kernel_plain: two
     * schedulers, SM__PLAIN_SP / _SFU / _LDST pipelines, no oc_stages) run the general
     * cycle; with the plain one, schedulers and pipelines past its counts would sit
     * idle and the pipeline stages would be left out */
    dse_technique ideal;
    assert_true(dse_technique_preset("ideal", &ideal));
    const int shapes[][5] = { /* schedulers, SP, SFU, LD/ST pipelines, oc_stages */
        { 1, SM__PLAIN_SP, SM__PLAIN_SFU, SM__PLAIN_LDST, 0 },
        { SM__MAX_SCHED, SM__PLAIN_SP, SM__PLAIN_SFU, SM__PLAIN_LDST, 0 },
        { SM__PLAIN_SCHED, 4, 2, 2, 0 },
        { SM__PLAIN_SCHED, SM__PLAIN_SP, SM__PLAIN_SFU, SM__PLAIN_LDST, 3 },
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        sm_config other = s->sm;
        other.n_schedulers = shapes[i][0];
        other.n_sp = shapes[i][1];
        other.n_sfu = shapes[i][2];
        other.n_ldst = shapes[i][3];
        other.oc_stages = shapes[i][4]; /* not plain either: its dispatch adds them */
        assert_int_equal(other.max_warps % other.n_schedulers, 0);
        for (int w = 0; w < s->n_workloads; w++, runs++)
            cycles += both_ways(sim, s, &other, &ideal, &s->workloads[w], "ideal, SM shape");
    }
    /* The plain issue stage's dispatch at issue (exec.c sm__dispatch_early) holds
     * only with a pool of 5 or more SP collectors and for the SP operations whose
     * latency plus one is no SFU or LD/ST latency: a smaller pool, and SFU and L1 hit
     * latencies one more than an SP one's (its result would join the wheel ahead of
     * theirs), must be left to the collectors */
    const int lat_shapes[][4] = { /* oc_sp, lat_sfu, lat_l1_hit, lat_shared */
        { 2, -1, -1, -1 },
        { 4, -1, -1, -1 },
        { -1, 5, 6, 9 }, /* lat_int + 1, lat_fp_mad + 1, lat_dp + 1 */
        { -1, 9, 5, 6 },
    };
    for (size_t i = 0; i < sizeof lat_shapes / sizeof lat_shapes[0]; i++) {
        sm_config other = s->sm;
        other.oc_sp = lat_shapes[i][0] > 0 ? lat_shapes[i][0] : other.oc_sp;
        other.lat_sfu = lat_shapes[i][1] > 0 ? lat_shapes[i][1] : other.lat_sfu;
        other.lat_l1_hit = lat_shapes[i][2] > 0 ? lat_shapes[i][2] : other.lat_l1_hit;
        other.lat_shared = lat_shapes[i][3] > 0 ? lat_shapes[i][3] : other.lat_shared;
        for (int w = 0; w < s->n_workloads; w++, runs++)
            cycles += both_ways(sim, s, &other, &ideal, &s->workloads[w], "ideal, latencies");
    }
    /* Under GPGPU-Sim's latency table a drawn DP instruction runs on the SFU
     * (sim.c dp_gsim): its latency is an SFU result's too, which the dispatch at
     * issue must keep clear of (lat_dp one above lat_int's) */
    sm_config gsim = s->sm;
    gsim.latency_table = SM_LATENCY_GPGPUSIM;
    gsim.lat_dp = gsim.lat_int + 1;
    for (int w = 0; w < s->n_workloads; w++, runs++)
        cycles += both_ways(sim, s, &gsim, &ideal, &s->workloads[w], "ideal, DP on the SFU");
    print_message("%d runs, %llu cycles each way\n", runs, (unsigned long long)cycles);
    sm_sim_free(sim);
    dse_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_preset_and_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
