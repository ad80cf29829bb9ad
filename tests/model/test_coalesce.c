/* The narrow-width coalescing register file (model/coalesce.c; docs/model.md, "The
 * coalescing register file"): the dissertation's micro-tests as hand-checked
 * micro-kernels.  Register r of warp w lives in bank (w + r) mod n_banks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sm_design.h"
#include "sm_fixture.h"

/* The design's statistics (model/coalesce.c): pairs read-read, write-write, read-write,
 * zero skips. */
static uint64_t stat_of(const sm_stats *st, int i) { return st->design[SM_DESIGN_coalesce][i]; }
enum { RR, WW, RW, ZERO };

static sm_stats run(fixture *f, const sm__inst *in, int n_prog, int n, int threads)
{
    f->p.grid_blocks = 1;
    f->p.block_threads = threads;
    f->p.regs_per_thread = 8;
    f->p.insts_per_warp = n;
    int rc = sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, in, n_prog, &f->st);
    assert_int_equal(rc, SM_OK);
    assert_int_equal(f->st.warp_insts, (uint64_t)n * (uint64_t)(threads / 32));
    return f->st;
}

static sm__inst alu(uint8_t dst, uint8_t a, uint8_t b)
{
    sm__inst in = { .op = SM__OP_INT, .dst = dst, .n_src = 2, .src = { a, b, 0 } };
    return in;
}

/* Every value `bytes` wide. */
static void widths(fixture *f, int bytes)
{
    double *w[4] = { &f->p.width_0, &f->p.width_1, &f->p.width_2, &f->p.width_3 };
    for (int i = 0; i < 4; i++)
        *w[i] = i == bytes ? 1.0 : 0.0;
}

static int reset(void **state)
{
    fixture *f = *state;
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    sm_technique_default(&f->t);
    sm_rf_map_all_fast(&f->map, 16, 64, 2);
    widths(f, 1);
    return 0;
}

/* Warps 0 and 1 (one per scheduler) issue r2 <- r0 + r1 in the same cycle: warp 0's r1
 * and warp 1's r0 are both in bank 1, one byte each, odd (slice mask 1000) and even
 * (0001): one physical access instead of two, so the bank conflict goes. */
static void test_opposite_parity_narrow_reads_share_an_access(void **state)
{
    fixture *f = *state;
    sm__inst in = alu(2, 0, 1);
    sm_stats base = run(f, &in, 1, 1, 64);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats co = run(f, &in, 1, 1, 64);
    assert_int_equal(base.bank_read_conflicts, 1);
    assert_int_equal(stat_of(&co, RR), 1);
    assert_int_equal(co.bank_read_conflicts, 0);
    assert_int_equal(co.reads, base.reads); /* logical reads: every operand still read */
}

/* The same with r2 <- r0 + r2 on a 2-bank file: warp 0 reads r0 and r2 from bank 0, both
 * even, right-aligned: their slices overlap however narrow, so they never coalesce; the
 * ideal alignment (any two whose widths fit) pairs them. */
static void test_two_even_registers_never_coalesce(void **state)
{
    fixture *f = *state;
    sm_rf_map_all_fast(&f->map, 2, 256, 2);
    sm__inst in = alu(4, 0, 2);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats fixed = run(f, &in, 1, 4, 32);
    assert_int_equal(sm_technique_knob_set(&f->t, "coalesce_align", 1), 0); /* ideal */
    sm_stats ideal = run(f, &in, 1, 4, 32);
    assert_int_equal(stat_of(&fixed, RR) + stat_of(&fixed, RW) + stat_of(&fixed, WW), 0);
    assert_true(fixed.bank_read_conflicts >= 4);
    assert_int_equal(stat_of(&ideal, RR), 4);
    assert_true(ideal.cycles < fixed.cycles);
}

/* Full-width values never coalesce, whatever their parity: with widths of 4 bytes the
 * design is the baseline, cycle for cycle. */
static void test_full_width_is_the_baseline(void **state)
{
    fixture *f = *state;
    widths(f, 4);
    sm__inst in = alu(2, 0, 1);
    sm_stats base = run(f, &in, 1, 8, 64);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats co = run(f, &in, 1, 8, 64);
    assert_int_equal(stat_of(&co, RR) + stat_of(&co, RW) + stat_of(&co, WW), 0);
    assert_int_equal(co.cycles, base.cycles);
    assert_int_equal(co.bank_read_conflicts, base.bank_read_conflicts);
}

/* A zero result (width 0) is written to no byte slice: its write and the reads of it
 * skip the array, and the energy lanes say so. */
static void test_zero_result_writes_no_slice(void **state)
{
    fixture *f = *state;
    widths(f, 0);
    f->p.width_0 = 1.0;
    sm__inst in = alu(2, 0, 1);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats co = run(f, &in, 1, 8, 32);
    assert_int_equal(stat_of(&co, ZERO), co.reads + co.writes);
    assert_int_equal(co.write_lanes, 0);
    assert_int_equal(co.read_lanes, 0);
    assert_int_equal(co.bank_read_conflicts, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_opposite_parity_narrow_reads_share_an_access, reset),
        cmocka_unit_test_setup(test_two_even_registers_never_coalesce, reset),
        cmocka_unit_test_setup(test_full_width_is_the_baseline, reset),
        cmocka_unit_test_setup(test_zero_result_writes_no_slice, reset),
    };
    return cmocka_run_group_tests(tests, sm_fixture_setup, sm_fixture_teardown);
}
