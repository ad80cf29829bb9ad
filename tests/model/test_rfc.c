/* Register-file caches (model/ltrf.c, model/rfc_demand.c) on hand-written micro-kernels
 * whose fills, write-backs and cycles follow by hand (docs/model.md, "Register-file
 * caches"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

static int setup(void **state)
{
    int rc = sm_fixture_setup(state);
    fixture *f = *state;
    f->t.scheduler = SM_SCHED_TWO_LEVEL; /* as the presets */
    return rc;
}

static sm__inst op3(uint8_t dst, int n_src, uint8_t a, uint8_t b)
{
    sm__inst in = { .op = SM__OP_INT, .dst = dst, .n_src = (uint8_t)n_src,
                    .src = { a, b, SM__NO_REG } };
    return in;
}

/* `warps` warps of one block, n instructions of `prog` each (wrapping), regs registers. */
static sm_stats run_warps(fixture *f, int warps, const sm__inst *prog, int n_prog, int n,
                          int regs)
{
    f->p.grid_blocks = 1;
    f->p.block_threads = 32 * warps;
    f->p.regs_per_thread = regs;
    f->p.insts_per_warp = n;
    sm_stats st;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, prog, n_prog, &st),
                     SM_OK);
    assert_int_equal(st.warp_insts, (uint64_t)n * (uint64_t)warps);
    return st;
}

/* One warp, n instructions of `prog` (wrapping), regs registers. */
static sm_stats run(fixture *f, const sm__inst *prog, int n_prog, int n, int regs)
{
    return run_warps(f, 1, prog, n_prog, n, regs);
}

/* r0..r3 of warp 0 live in banks 0..3 (bank = (warp + reg) mod 16).  The whole kernel
 * is one interval (4 registers <= 16): at launch, cycle 0, the four fills are requested
 * on four banks, granted in cycle 1, and arrive at 1 + L; the warp may issue one cycle
 * before that, in cycle L, instead of cycle 0.  From then on every access hits the
 * one-cycle cache, exactly as the main RF with L = 1 would serve it (its four cache
 * banks are distinct too): the run takes L cycles more than with no cache and L = 1,
 * whatever L is.  Main-RF reads: the four fills. */
static void test_ltrf_one_interval_by_hand(void **state)
{
    fixture *f = *state;
    const sm__inst prog[] = { op3(0, 2, 1, 2), op3(3, 2, 0, 1), op3(1, 2, 3, 2) };
    sm_stats plain = run(f, prog, 3, 12, 4);
    f->t.design[SM_DESIGN_ltrf] = true;
    for (int L = 1; L <= 6; L++) {
        f->t.main_rf_latency = L;
        sm_stats st = run(f, prog, 3, 12, 4);
        assert_int_equal(st.cycles, plain.cycles + (uint64_t)L);
        assert_int_equal(st.rfc_intervals, 1);
        assert_int_equal(st.rfc_fills, 4);
        assert_int_equal(st.reads, 4); /* the main RF's: the fills */
        assert_int_equal(st.rfc_misses, 0);
        assert_int_equal(st.rfc_hits, plain.reads);
        assert_int_equal(st.rfc_writebacks, 0); /* nothing evicted */
        /* the cache's lane accesses (energy): every read and write of the kernel, and
         * the four fills' writes, each of the warp's 32 lanes */
        assert_int_equal(st.rfc_lanes, 32 * (plain.reads + plain.writes + 4));
    }
}

/* k = 4 and two instructions of three registers each, disjoint ({0,1,2}, {3,4,5}): no
 * interval holds both, so each instruction is an interval.  Each interval fills its
 * three registers and evicts the previous three, writing back the previous one's
 * destination (dirty); the last interval's stays.  8 instructions: 8 intervals, 24
 * fills, 7 write-backs, every read a hit. */
static void test_ltrf_intervals_by_hand(void **state)
{
    fixture *f = *state;
    const sm__inst prog[] = { op3(0, 2, 1, 2), op3(3, 2, 4, 5) };
    f->t.design[SM_DESIGN_ltrf] = true;
    assert_int_equal(sm_technique_knob_set(&f->t, "rfc_regs", 4), 0);
    f->t.main_rf_latency = 3;
    sm_stats st = run(f, prog, 2, 8, 6);
    assert_int_equal(st.rfc_intervals, 8);
    assert_int_equal(st.rfc_fills, 24);
    assert_int_equal(st.rfc_writebacks, 7);
    assert_int_equal(st.rfc_hits, 16);
    assert_int_equal(st.rfc_misses, 0);
    assert_int_equal(st.writes, 7); /* main-RF writes: the write-backs */
}

/* Demand filling: r1 = r1 + r1 ten times.  The first read misses (r1 was never
 * written, so it is in the main RF); its result is cached and the other nine reads hit.
 * Writing r0..r4 round-robin (no reads) with k = 4: from the fifth write on, each
 * evicts the least recent, which is dirty: 10 writes, 6 write-backs. */
static void test_demand_by_hand(void **state)
{
    fixture *f = *state;
    f->t.design[SM_DESIGN_rfc_demand] = true;
    assert_int_equal(sm_technique_knob_set(&f->t, "rfc_regs", 4), 0);
    const sm__inst chain = op3(1, 1, 1, SM__NO_REG);
    sm_stats st = run(f, &chain, 1, 10, 4);
    assert_int_equal(st.rfc_misses, 1);
    assert_int_equal(st.rfc_hits, 9);
    assert_int_equal(st.rfc_writebacks, 0);
    const sm__inst w5[] = { op3(0, 0, SM__NO_REG, SM__NO_REG), op3(1, 0, SM__NO_REG, SM__NO_REG),
                            op3(2, 0, SM__NO_REG, SM__NO_REG), op3(3, 0, SM__NO_REG, SM__NO_REG),
                            op3(4, 0, SM__NO_REG, SM__NO_REG) };
    st = run(f, w5, 5, 10, 5);
    assert_int_equal(st.rfc_writebacks, 6);
    assert_int_equal(st.writes, 6); /* main-RF writes: only the write-backs */
}

/* Two warps, active group of one (group_size 1), each a one-interval kernel of four
 * registers.  Every resident warp's partition is filled at launch (docs/model.md:
 * partitions for every warp, not only the active group), so warp 1's prefetch runs
 * beside warp 0's:
 * - registers r0, r2, r4, r6: warp 0's live in banks 0, 2, 4, 6 and warp 1's in 1, 3, 5,
 *   7 (bank = (warp + reg) mod 16).  All eight fills are granted in cycle 1 and arrive
 *   at 1 + L; both warps may issue from cycle L, and from there the run is the L = 1 run
 *   shifted: cycles(L) = cycles(1) + (L - 1), and both warps wait: rfc_wait = 2 (L - 1).
 *   The second prefetch costs nothing.
 * - registers r0..r3: warp 1's r0..r2 live in banks 1..3, where warp 0's r1..r3 are
 *   read first; a main-RF bank is busy L cycles per access, so warp 1's fills wait L
 *   cycles behind them and it cannot issue before cycle 2L: each cycle of L costs more
 *   than one (2 per cycle up to L = 6 here).  The hiding needs the bank ports free. */
static void test_ltrf_two_warps_by_hand(void **state)
{
    fixture *f = *state;
    const sm__inst apart[] = { op3(0, 2, 2, 4), op3(6, 2, 0, 2), op3(2, 2, 6, 4) };
    const sm__inst shared[] = { op3(0, 2, 1, 2), op3(3, 2, 0, 1), op3(1, 2, 3, 2) };
    f->c.group_size = 1;
    f->t.design[SM_DESIGN_ltrf] = true;
    f->t.main_rf_latency = 1;
    uint64_t apart1 = run_warps(f, 2, apart, 3, 12, 7).cycles;
    uint64_t shared1 = run_warps(f, 2, shared, 3, 12, 4).cycles;
    for (int L = 2; L <= 8; L++) {
        f->t.main_rf_latency = L;
        sm_stats st = run_warps(f, 2, apart, 3, 12, 7);
        assert_int_equal(st.cycles, apart1 + (uint64_t)(L - 1));
        assert_int_equal(st.rfc_wait, 2 * (uint64_t)(L - 1));
        assert_int_equal(st.rfc_fills, 8);
        assert_int_equal(st.rfc_misses, 0);
        st = run_warps(f, 2, shared, 3, 12, 4);
        assert_true(st.cycles - shared1 > (uint64_t)(L - 1));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ltrf_two_warps_by_hand, setup, sm_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_ltrf_one_interval_by_hand, setup, sm_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_ltrf_intervals_by_hand, setup, sm_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_demand_by_hand, setup, sm_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
