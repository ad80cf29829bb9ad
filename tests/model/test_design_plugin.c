/* A register-file design added as a plug-in: the toy design of toy_scrub.c (every written
 * register read back once through its bank's read port), registered by one line
 * (toy_registry.h) in a test copy of the model.  Checks that its hooks run, that its
 * port traffic competes with the operand collectors, and that the fast paths (idle skip)
 * respect its per-cycle work. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

/* The registry line alone made the design a technique option. */
static void test_registered_by_one_line(void **state)
{
    (void)state;
    assert_int_equal(SM_N_DESIGNS, SM_DESIGN_toy_scrub + 1);
    assert_string_equal(sm_design_name(SM_DESIGN_toy_scrub), "toy_scrub");
    /* its knob has the default its row declares, and its statistic is listed */
    sm_technique t;
    sm_technique_default(&t);
    assert_int_equal(*(const int *)sm_technique_knobs_const(&t, SM_DESIGN_toy_scrub), 1);
    int i = sm_stats_count() - 1;
    assert_int_equal(sm_stats_design_of(i), SM_DESIGN_toy_scrub);
    assert_string_equal(sm_stats_at(i).name, "scrub_reads");
}

/* Its knob reaches its hooks and its statistic counts: every second write re-read. */
static void test_knob_and_statistic(void **state)
{
    fixture *f = *state;
    sm__inst in = { .op = SM__OP_INT, .dst = 1, .n_src = 1, .src = { 1, SM__NO_REG, SM__NO_REG } };
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = 20;
    sm_stats one, two;
    f->t.design[SM_DESIGN_toy_scrub] = true;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &in, 1, &one), SM_OK);
    assert_int_equal(sm_technique_knob_set(&f->t, "scrub_every", 2), 0);
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &in, 1, &two), SM_OK);
    sm_stat_info info = sm_stats_at(sm_stats_count() - 1);
    assert_int_equal(sm_stats_get(&one, &info, 0), 20);
    assert_int_equal(sm_stats_get(&two, &info, 0), 10);
    assert_int_equal(two.reads, 30);
}

/* One warp, a chain r1 = r1 + r1: issue t, read t+1, result t+2+lat, write granted and
 * r1 released t+3+lat, next issue t+3+lat (docs/model.md, "Pipeline timing").  The
 * write hook queues r1's bank as r1 is released, at the start of cycle t+3+lat; the
 * next instruction, issued in that cycle, has its read granted t+4+lat; the toy's cycle
 * hook, at the end of the cycle, asks after it and is granted t+5+lat.  So: the same
 * cycles, no collector conflict, exactly one more read per write. */
static void test_chain_one_reread_per_write(void **state)
{
    fixture *f = *state;
    sm__inst in = { .op = SM__OP_INT, .dst = 1, .n_src = 1, .src = { 1, SM__NO_REG, SM__NO_REG } };
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = 20;
    sm_stats plain, toy;
    f->t.design[SM_DESIGN_toy_scrub] = false;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &in, 1, &plain), SM_OK);
    f->t.design[SM_DESIGN_toy_scrub] = true;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &in, 1, &toy), SM_OK);
    assert_int_equal(toy.cycles, plain.cycles);
    assert_int_equal(plain.reads, 20);
    assert_int_equal(toy.writes, 20);
    assert_int_equal(toy.reads, 40);
    assert_int_equal(toy.bank_read_conflicts, plain.bank_read_conflicts);
    assert_int_equal(toy.read_lanes, 40 * 32);
}

/* On a synthetic kernel with many warps the re-reads queue behind collector reads and
 * delay them: more bank conflicts and the same collector reads.  (This kernel writes
 * 1.3 registers a cycle, more than the toy's one re-read a cycle: its queue grows.) */
static void test_port_traffic_competes(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    sm_stats plain, toy;
    f->t.design[SM_DESIGN_toy_scrub] = false;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &plain), SM_OK);
    f->t.design[SM_DESIGN_toy_scrub] = true;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &toy), SM_OK);
    assert_int_equal(toy.warp_insts, plain.warp_insts);
    uint64_t rereads = toy.reads - plain.reads;
    print_message("re-reads %llu of %llu writes; conflicts %llu -> %llu; cycles %llu -> %llu\n",
                  (unsigned long long)rereads, (unsigned long long)toy.writes,
                  (unsigned long long)plain.bank_read_conflicts,
                  (unsigned long long)toy.bank_read_conflicts, (unsigned long long)plain.cycles,
                  (unsigned long long)toy.cycles);
    assert_true(rereads > 0 && rereads <= toy.writes);
    assert_true(rereads <= toy.cycles); /* one re-read per cycle at most */
    assert_true(toy.bank_read_conflicts > plain.bank_read_conflicts);
}

/* A memory-bound kernel spends most cycles in the idle skip; the skip must stop where
 * the design has work (its cycle hook's answer), so simulating every cycle gives the
 * same statistics. */
static void test_idle_skip_respects_design(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    f->p.frac_mem = 0.3;
    f->p.l1_hit_rate = 0.2;
    f->t.design[SM_DESIGN_toy_scrub] = true;
    sm_stats fast, exact;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &fast), SM_OK);
    sm__sim_set_exact(f->sim, true);
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &exact), SM_OK);
    sm__sim_set_exact(f->sim, false);
    assert_true(fast.stall_memory > fast.cycles / 4); /* the skip had cycles to skip */
    assert_memory_equal(&fast, &exact, sizeof fast);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered_by_one_line),
        cmocka_unit_test_setup_teardown(test_chain_one_reread_per_write, sm_fixture_setup, sm_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_knob_and_statistic, sm_fixture_setup, sm_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_port_traffic_competes, sm_fixture_setup, sm_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_idle_skip_respects_design, sm_fixture_setup, sm_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
