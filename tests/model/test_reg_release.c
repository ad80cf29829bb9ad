/* reg_release (model/reg_release.c; docs/model.md, "Register release and power
 * gating"): a micro-kernel checked by hand, then invariants over the shipped profiles:
 * physical registers within the allocation, energy and aging from the statistics. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dse_sim_cache.h"
#include "dse_sweep.h"
#include "sm_fixture.h"

static int setup(void **state)
{
    int rc = sm_fixture_setup(state);
    fixture *f = *state;
    f->t.design[SM_DESIGN_reg_release] = true;
    sm_technique_knob_set(&f->t, "rr_flag_every", 0); /* the hand timing below has no flag instructions */
    return rc;
}
#include "var.h"

static sm__inst alu(uint8_t dst, int n_src, uint8_t a, uint8_t b)
{
    return (sm__inst){ .op = SM__OP_INT, .dst = dst, .n_src = (uint8_t)n_src,
                       .src = { a, b, SM__NO_REG } };
}

#define N_CHAIN 20

/* One warp: I0 writes R0 (no sources), then I_k writes R1 (k odd) or R2 (k even) from
 * the other temporary and R0: R0 lives throughout (long_lived_regs = 1), each
 * temporary is read once. */
static sm_stats *run_chain(fixture *f)
{
    static sm__inst prog[N_CHAIN];
    prog[0] = alu(0, 0, SM__NO_REG, SM__NO_REG);
    prog[1] = alu(1, 1, 0, SM__NO_REG);
    for (int k = 2; k < N_CHAIN; k++)
        prog[k] = alu((uint8_t)(k % 2 ? 1 : 2), 2, (uint8_t)(k % 2 ? 2 : 1), 0);
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = N_CHAIN;
    f->p.long_lived_regs = 1;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, prog, N_CHAIN,
                                       &f->st),
                     SM_OK);
    assert_int_equal(f->st.warp_insts, N_CHAIN);
    return &f->st;
}

/* By hand (docs/model.md, "Pipeline"): I0 has no source, so it dispatches at 1, its
 * result leaves at 5 and its write is granted at 6, when I1 issues; then one issue
 * every lat + 3 = 7 cycles, I_k at 7k - 1, the last write at 7N - 1, the run ends at 7N.
 * A value is held from the issue of its writer (counted from the next cycle) to the
 * cycle after the issue of its last reader: R0 from 1 to I_{N-1}'s issue + 1 = 7N - 7;
 * each temporary of I_1..I_{N-2} for 7 cycles; the last, never read, from 7N - 7 to its
 * write at 7N - 1.  It holds a value from its write (the cycle its reader issues) for 1
 * cycle (the read), R0 from 6 to 7N - 7, the last temporary for none.  So at most two
 * physical registers (R0 and one temporary: a reader frees its source before its own
 * destination is taken). */
static void test_chain_by_hand(void **state)
{
    fixture *f = *state;
    const sm_stats *st = run_chain(f);
    const uint64_t n = N_CHAIN;
    assert_int_equal(st->cycles, 7 * n);
    assert_int_equal(st->rr_peak_regs, 2);
    assert_int_equal(st->rr_releases, n - 2);
    assert_int_equal(st->rr_held_cycles, (7 * n - 8) + 7 * (n - 2) + 6);
    assert_int_equal(st->rr_live_cycles, (7 * n - 13) + (n - 2));
    /* the kernel allocates 4 registers from launch (0) until the warp retires with its
     * last write (7N - 1) */
    assert_int_equal(st->rr_alloc_cycles, 4 * (7 * n - 1));
}

/* Consolidation fills the fullest row group of the register's bank: all in group 0. */
static void test_consolidate_uses_group_zero(void **state)
{
    fixture *f = *state;
    sm_technique_knob_set(&f->t, "rr_policy", SM_RR_CONSOLIDATE);
    const sm_stats *st = run_chain(f);
    uint64_t total = 0;
    assert_int_equal(st->n_row_groups, 16 * 8);
    for (uint64_t i = 0; i < st->n_row_groups; i++) {
        total += st->group_allocs[i];
        if (i % 8)
            assert_int_equal(st->group_allocs[i], 0);
    }
    assert_int_equal(total, N_CHAIN);
}

/* Wear-levelling: within each bank, row groups differ by at most one allocation, and the
 * temporaries' banks use more than one group. */
static void test_wear_level_spreads(void **state)
{
    fixture *f = *state;
    sm_technique_knob_set(&f->t, "rr_policy", SM_RR_WEAR_LEVEL);
    const sm_stats *st = run_chain(f);
    int spread = 0;
    for (int b = 0; b < 16; b++) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (int g = 0; g < 8; g++) {
            uint64_t a = st->group_allocs[b * 8 + g];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
        }
        assert_true(hi - lo <= 1);
        spread += hi > 0 && lo > 0;
    }
    assert_true(spread >= 2);
    sm_technique_knob_set(&f->t, "rr_policy", SM_RR_CONSOLIDATE);
}

/* A row group (here: whole banks) that never holds a value is gated the whole run: its
 * sub-banks' occupancy duty is 0, so NBTI ages it not at all. */
static void test_gated_row_ages_zero(void **state)
{
    fixture *f = *state;
    const sm_stats *st = run_chain(f);
    dse_sm_result r;
    dse_sm_result_of(st, &f->map, &r);
    var_params vp;
    var_params_default(&vp);
    double year = 365.25 * 86400, gated = 0, used = 0;
    for (int b = 0; b < 16; b++) {
        uint64_t pw = 0;
        for (int g = 0; g < 8; g++)
            pw += st->group_powered[b * 8 + g];
        double d = r.occupancy_duty[f->map.sub_id[b][0]];
        double aged = var_register_delay_aged(&vp, 1.0, 1.0, d * year, (1 - d) * year);
        if (pw == 0) {
            assert_true(d == 0.0);
            assert_true(aged == 1.0);
            gated++;
        } else {
            assert_true(d > 0.0 && aged > 1.0);
            used++;
        }
    }
    assert_true(gated > 0 && used > 0);
    assert_true(r.powered < 1.0);
}

/* ---- placement on mixed storage ---------------------------------------------------- */

/* Slow entries scattered over every bank and, with `parts`, every third sub-bank part
 * too (so a warp's lanes decide whether a bank is fast for it). */
static void mixed_map(sm_rf_map *m, bool parts)
{
    sm_rf_map_all_fast(m, 16, 64, 2);
    if (parts)
        sm_rf_map_mark_spread_slow(m, 32 / 3);
    for (int b = 0; b < 16; b++)
        for (int e = 0; e < 64; e++)
            m->entry_slow[b][e] = (b * 7 + e * 13) % 5 == 0;
}

/* Every placement policy on both maps under both slow-access costs (slow_cycles 1 and
 * 2), with warps of 32 and 16 lanes, and a register file the resident warps fill
 * (long-lived registers drawn alike, releases that wait 32 instructions): the fast
 * policies allocate slow storage less often than consolidate (with slow entries only,
 * a placement blind to them would tie).  Debug builds (the sanitizer run) also check
 * every choice and liveness test against the scans that define them
 * (model/reg_release.c), through the bank-full and pool-full fallbacks. */
static void test_placement_mixed_storage(void **state)
{
    fixture *f = *state;
    const sm_profile saved_p = f->p;
    const sm_rf_map saved_map = f->map;
    const sm_config saved_c = f->c;
    f->p.block_threads = 48; /* warps of 32 and 16 lanes: both sub-bank widths */
    f->p.regs_per_thread = 64; /* 8 resident blocks x 2 warps x 64: the whole file */
    f->p.long_lived_regs = 48;
    f->p.reg_skew = 0;
    f->p.release_delay = 32;
    f->p.grid_blocks = 24;
    f->p.insts_per_warp = 400;
    static const int policies[] = { SM_RR_CONSOLIDATE, SM_RR_WEAR_LEVEL, SM_RR_FAST_FIRST,
                                    SM_RR_FAST_SPREAD };
    static const sm_slow_access costs[] = { SM_SLOW_HOLD_PORT, SM_SLOW_REPLAY };
    for (int c = 0; c < 4; c++) {
        mixed_map(&f->map, c / 2);
        f->c.slow_access = costs[c % 2];
        uint64_t slow[4], peak = 0;
        for (int i = 0; i < 4; i++) {
            sm_technique_knob_set(&f->t, "rr_policy", policies[i]);
            assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 1, &f->st),
                             SM_OK);
            assert_true(f->st.rr_peak_regs <= f->st.rf_vectors);
            assert_true(f->st.rr_fast_allocs > 0 && f->st.rr_slow_allocs > 0);
            slow[i] = f->st.rr_slow_allocs;
            peak = f->st.rr_peak_regs > peak ? f->st.rr_peak_regs : peak;
        }
        assert_true(peak * 10 >= f->st.rf_vectors * 9); /* the file fills: fallbacks run */
        assert_true(slow[2] < slow[0]);
        assert_true(slow[3] < slow[0]);
        print_message("%s, slow_access %d: slow allocations consolidate %llu wear_level %llu "
                      "fast_first %llu fast_spread %llu, peak %llu of %llu\n",
                      c / 2 ? "entries and parts" : "entries", (int)costs[c % 2],
                      (unsigned long long)slow[0], (unsigned long long)slow[1],
                      (unsigned long long)slow[2], (unsigned long long)slow[3],
                      (unsigned long long)peak, (unsigned long long)f->st.rf_vectors);
    }
    sm_technique_knob_set(&f->t, "rr_policy", SM_RR_CONSOLIDATE);
    f->p = saved_p;
    f->map = saved_map;
    f->c = saved_c;
}

/* ---- over the shipped profiles ------------------------------------------------------ */

static void stand_in_map(const dse_sweep *s, sm_rf_map *m)
{
    const var_floorplan *fp = &s->var.floorplan;
    int total = fp->n_banks * fp->sub_banks;
    sm_rf_map_all_fast(m, fp->n_banks, fp->entries_per_bank, fp->sub_banks);
    sm_rf_map_mark_last_slow(m, (int)(total * 0.3 + 0.5));
}

static void run_preset(sm_sim *sim, const dse_sweep *s, const char *name, const sm_profile *p,
                       const sm_rf_map *m, sm_stats *st)
{
    dse_technique t;
    assert_true(dse_technique_preset(name, &t));
    assert_int_equal(sm_sim_run(sim, &s->sm, p, &t.ipc, m, 0, s->var.floorplan.n_sms, st), SM_OK);
}

static double leakage(const dse_sweep *s, const sm_stats *st, const sm_rf_map *m)
{
    dse_sm_result r;
    dse_sm_result_of(st, m, &r);
    double dyn, leak;
    int n_subs = s->var.floorplan.n_banks * s->var.floorplan.sub_banks;
    dse_energy_of(&s->energy, 16, n_subs, r.lane_accesses, r.cycles, 1.0, r.powered, &dyn, &leak);
    return leak;
}

/* Peak physical registers within the allocation; release lowers the live registers
 * below first-touch's; leakage with gating (recomputed from the powered vector-cycles)
 * at most without; a kernel whose registers all live throughout saves nothing against
 * first-touch gating; fast_first and fast_spread reach slow storage less often than
 * consolidate. */
static void check_profile(sm_sim *sim, const dse_sweep *s, const sm_profile *p, const sm_rf_map *m)
{
    static sm_stats rr, ft, off, ff, fs, all_live, none;
    run_preset(sim, s, "reg_release", p, m, &rr);
    run_preset(sim, s, "rr_first_touch", p, m, &ft);
    run_preset(sim, s, "rf_bro", p, m, &off);
    run_preset(sim, s, "rr_fast_first", p, m, &ff);
    run_preset(sim, s, "rr_fast_spread", p, m, &fs);
    int wpb = (p->block_threads + 31) / 32;
    uint64_t allocated = rr.resident_blocks * (uint64_t)wpb * (uint64_t)p->regs_per_thread;
    assert_true(rr.rr_peak_regs <= allocated);
    assert_true(rr.rr_live_cycles < ft.rr_live_cycles);
    assert_true(rr.rr_held_cycles <= rr.rr_alloc_cycles);
    double expect = (double)rr.rr_powered_cycles / ((double)rr.rf_vectors * (double)rr.cycles);
    assert_true(fabs(leakage(s, &rr, m) - leakage(s, &off, m) * expect * rr.cycles / off.cycles) <=
                1e-9 * leakage(s, &off, m));
    dse_technique t;
    dse_technique_preset("reg_release", &t);
    sm_technique_knob_set(&t.ipc, "rr_gating", SM_RR_GATE_NONE); /* gating changes no timing: same run, ungated */
    assert_int_equal(sm_sim_run(sim, &s->sm, p, &t.ipc, m, 0, s->var.floorplan.n_sms, &none), SM_OK);
    assert_int_equal(none.cycles, rr.cycles);
    assert_true(leakage(s, &none, m) == leakage(s, &off, m) * rr.cycles / off.cycles ||
                fabs(leakage(s, &none, m) / leakage(s, &off, m) - (double)rr.cycles / off.cycles) < 1e-12);
    assert_true(leakage(s, &rr, m) <= leakage(s, &none, m));
    /* every shipped profile leaves fast registers free: fast_first must use them */
    assert_true(rr.rr_peak_regs < allocated);
    assert_true(ff.slow_reads + ff.slow_writes < rr.slow_reads + rr.slow_writes);
    assert_true(fs.slow_reads + fs.slow_writes < rr.slow_reads + rr.slow_writes);
    sm_profile live = *p;
    live.long_lived_regs = p->regs_per_thread;
    dse_technique_preset("rr_reg_gating", &t);
    assert_int_equal(sm_sim_run(sim, &s->sm, &live, &t.ipc, m, 0, s->var.floorplan.n_sms, &all_live),
                     SM_OK);
    run_preset(sim, s, "rr_first_touch", &live, m, &ft);
    assert_int_equal(all_live.rr_powered_cycles, ft.rr_powered_cycles);
    assert_int_equal(all_live.rr_held_cycles, ft.rr_held_cycles);
    print_message("%-12s live/alloc %.3f  powered %.3f (first touch %.3f)  ipc %.4f / %.4f"
                  "  slow acc rr %llu ff %llu\n",
                  p->name, (double)rr.rr_live_cycles / (double)rr.rr_alloc_cycles,
                  expect, (double)ft.rr_powered_cycles / ((double)ft.rf_vectors * ft.cycles),
                  sm_stats_ipc(&rr), sm_stats_ipc(&off),
                  (unsigned long long)(rr.slow_reads + rr.slow_writes),
                  (unsigned long long)(ff.slow_reads + ff.slow_writes));
}

static void test_every_profile(void **state)
{
    (void)state;
    dse_sweep *s = dse_sweep_load_default(stderr);
    assert_non_null(s);
    sm_sim *sim = sm_sim_alloc(&s->sm);
    assert_non_null(sim);
    static sm_rf_map m;
    stand_in_map(s, &m);
    for (int w = 0; w < s->n_workloads; w++)
        check_profile(sim, s, &s->workloads[w], &m);
    sm_sim_free(sim);
    dse_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_by_hand),
        cmocka_unit_test(test_consolidate_uses_group_zero),
        cmocka_unit_test(test_wear_level_spreads),
        cmocka_unit_test(test_gated_row_ages_zero),
        cmocka_unit_test(test_placement_mixed_storage),
        cmocka_unit_test(test_every_profile),
    };
    return cmocka_run_group_tests(tests, setup, sm_fixture_teardown);
}
