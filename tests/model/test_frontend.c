/* GPGPU-Sim's instruction front end (sm.frontend = "gpgpusim", model/frontend.c;
 * docs/model.md, "GPGPU-Sim's front end"): micro-kernels whose IPC the fetch bounds,
 * counted by hand from the rules; and the default (none) untouched by the option's
 * existence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

#define N 30 /* instructions of the warp (even) */

/* One warp on one scheduler running N independent integer instructions (r1..r8 <-
 * r0, a register reused 8 instructions later, after its write).  Without a front end
 * they issue at cycles 0, 1, ..., N - 1.  redirect_every: a control hazard after every
 * k-th instruction (0: none). */
static sm_stats run_one_warp(fixture *f, sm_frontend fe, int redirect_every, int phase)
{
    sm__inst rows[N];
    for (int i = 0; i < N; i++)
        rows[i] = (sm__inst){ .op = SM__OP_INT, .dst = (uint8_t)(1 + i % 8), .n_src = 1,
                              .src = { 0, SM__NO_REG, SM__NO_REG },
                              .redirect = (uint8_t)(redirect_every && i % redirect_every == phase) };
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    f->c.n_schedulers = 1;
    f->c.frontend = fe;
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 9;
    f->p.insts_per_warp = N;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, rows, N, &f->st),
                     SM_OK);
    assert_int_equal(f->st.warp_insts, N);
    return f->st;
}

/* Fetch at t, decode at t + 1, issue at t + 2 and t + 3; the buffer empties at the
 * second issue and is refetched in that cycle: pair k issues at 2 + 3k and 3 + 3k,
 * the last instruction at 3N/2 instead of N - 1 (N/2 + 1 cycles later). */
static void test_fetch_bound(void **state)
{
    fixture *f = *state;
    sm_stats none = run_one_warp(f, SM_FRONTEND_NONE, 0, 0);
    sm_stats fe = run_one_warp(f, SM_FRONTEND_GPGPUSIM, 0, 0);
    assert_int_equal(fe.cycles - none.cycles, N / 2 + 1);
    /* redirects change nothing without a front end */
    sm_stats none_r = run_one_warp(f, SM_FRONTEND_NONE, 1, 0);
    assert_memory_equal(&none, &none_r, sizeof none);
}

/* A hazard after every instruction: issued at t from the first entry, the second is
 * the wrong path, flushed at t + 1 and refetched then, decoded at t + 2, issued at
 * t + 3: instruction i at 2 + 3i, the last 2N + 2 - 1 - (N - 1) = 2N cycles later. */
static void test_flush_first_entry(void **state)
{
    fixture *f = *state;
    sm_stats none = run_one_warp(f, SM_FRONTEND_NONE, 0, 0);
    sm_stats fe = run_one_warp(f, SM_FRONTEND_GPGPUSIM, 1, 0);
    assert_int_equal(fe.cycles - none.cycles, 2 * N);
}

/* A hazard after every second instruction, the buffer's last entry: the refetch in
 * its issue cycle t + 1 is the wrong path (PC + size), decoded at t + 2, flushed at
 * t + 3 and refetched, decoded at t + 4, issued at t + 5: pair k at 2 + 5k and
 * 3 + 5k, the last at 5N/2 - 2, 3N/2 - 1 cycles after N - 1. */
static void test_flush_wrong_fetch(void **state)
{
    fixture *f = *state;
    sm_stats none = run_one_warp(f, SM_FRONTEND_NONE, 0, 0);
    sm_stats fe = run_one_warp(f, SM_FRONTEND_GPGPUSIM, 2, 1);
    assert_int_equal(fe.cycles - none.cycles, 3 * N / 2 - 1);
}

/* A block launched when the last one retires, nothing else in flight: the idle skip
 * must not take the new warp's pending fetch for a deadlock (it did: nw's profile). */
static void test_next_block_fetched(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    sm_config_default(&f->c);
    f->c.max_blocks = 1;
    f->c.frontend = SM_FRONTEND_GPGPUSIM;
    f->p.grid_blocks = 3 * 15;
    f->p.block_threads = 16;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.warp_insts, 3 * (uint64_t)f->p.insts_per_warp);
}

/* A compute-bound synthetic kernel with many warps: one fetch of two instructions per
 * cycle feeds two schedulers at most, so the front end costs little there but never
 * speeds a kernel up, and the instruction count is unchanged. */
static void test_profile_many_warps(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    sm_config_default(&f->c);
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    sm_stats none = f->st;
    f->c.frontend = SM_FRONTEND_GPGPUSIM;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.warp_insts, none.warp_insts);
    assert_true(f->st.cycles >= none.cycles);
    f->c.frontend = SM_FRONTEND_NONE; /* and the default again: bit for bit */
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_memory_equal(&none, &f->st, sizeof none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fetch_bound),
        cmocka_unit_test(test_flush_first_entry),
        cmocka_unit_test(test_flush_wrong_fetch),
        cmocka_unit_test(test_next_block_fetched),
        cmocka_unit_test(test_profile_many_warps),
    };
    return cmocka_run_group_tests(tests, sm_fixture_setup, sm_fixture_teardown);
}
