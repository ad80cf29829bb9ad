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
 * zero skips, bytes read and written, collector writes and their waits. */
static uint64_t stat_of(const sm_stats *st, int i) { return st->design[SM_DESIGN_coalesce][i]; }
enum { RR, WW, RW, ZERO, RBYTES, WBYTES, CWRITES, CWAITS };
/* coalesce_collector and coalesce_placement values (model/coalesce.c) */
enum { SPLIT, WHOLE, FREE };
enum { PLAIN, BANK, BRO };

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

/* Full-width values never coalesce, whatever their parity: with widths of 4 bytes and
 * rfdse's collectors (any number of writes a cycle) the design is the baseline, cycle
 * for cycle. */
static void test_full_width_is_the_baseline(void **state)
{
    fixture *f = *state;
    widths(f, 4);
    sm__inst in = alu(2, 0, 1);
    sm_stats base = run(f, &in, 1, 8, 64);
    f->t.design[SM_DESIGN_coalesce] = true;
    assert_int_equal(sm_technique_knob_set(&f->t, "coalesce_collector", FREE), 0);
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

/* The collector write port: r2 <- r0 + r1 with full-width values, r0 in bank 0 and r1
 * in bank 1, both granted in the cycle after issue: their operands arrive together, and
 * one 128-byte write a cycle makes the second wait one cycle. */
static void test_collector_takes_one_write_a_cycle(void **state)
{
    fixture *f = *state;
    widths(f, 4);
    sm__inst in = alu(2, 0, 1);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats split = run(f, &in, 1, 1, 32);
    assert_int_equal(sm_technique_knob_set(&f->t, "coalesce_collector", FREE), 0);
    sm_stats free_ = run(f, &in, 1, 1, 32);
    assert_int_equal(stat_of(&split, CWRITES), 2);
    assert_int_equal(stat_of(&free_, CWRITES), 2);
    assert_int_equal(stat_of(&split, CWAITS), 1);
    assert_int_equal(stat_of(&free_, CWAITS), 0);
    assert_int_equal(split.cycles, free_.cycles + 1);
}

/* On one bank r0 (even, slice 0) and r1 (odd, slice 3), one byte each, are one physical
 * access: one transfer into the collector, which the split crossbar writes at once and
 * a whole-width write port in two cycles. */
static void test_split_crossbar_shares_the_write(void **state)
{
    fixture *f = *state;
    sm_rf_map_all_fast(&f->map, 1, 256, 4);
    sm__inst in = alu(2, 0, 1);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats split = run(f, &in, 1, 1, 32);
    assert_int_equal(sm_technique_knob_set(&f->t, "coalesce_collector", WHOLE), 0);
    sm_stats whole = run(f, &in, 1, 1, 32);
    assert_int_equal(stat_of(&split, RR), 1);
    assert_int_equal(stat_of(&split, CWRITES), 1); /* against 2 reads */
    assert_int_equal(split.reads, 2);
    assert_int_equal(stat_of(&split, CWAITS), 0);
    assert_int_equal(stat_of(&whole, CWAITS), 1);
    assert_int_equal(whole.cycles, split.cycles + 1);
}

/* Byte slices under variation: a bank of four slices whose slice 1 is slow.  Warp 0
 * reads r1 (bank 1, odd): a one-byte value lives in slice 3 and is read fast; a full
 * one touches slice 1 and is slow; without the design (lane sub-banks) a full warp
 * touches every part and is slow whatever the value. */
static void test_narrow_access_misses_a_slow_slice(void **state)
{
    fixture *f = *state;
    sm_rf_map_all_fast(&f->map, 16, 64, 4);
    f->map.sub_slow[1][1] = 1;
    sm__inst in = alu(2, 0, 1);
    sm_stats base = run(f, &in, 1, 4, 32);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats narrow = run(f, &in, 1, 4, 32);
    widths(f, 4);
    sm_stats full = run(f, &in, 1, 4, 32);
    assert_int_equal(base.slow_reads, 4);
    assert_int_equal(narrow.slow_reads, 0);
    assert_int_equal(full.slow_reads, 4);
    assert_true(narrow.cycles <= full.cycles);
}

/* coalesce_placement: bank 1's slice 0 is slow, and warp 1's r0 (even, one byte) lives
 * there: slow as placed, fast once the bank's fast slices take bytes 0 and 3. */
static void test_width_aware_placement(void **state)
{
    fixture *f = *state;
    sm_rf_map_all_fast(&f->map, 16, 64, 4);
    f->map.sub_slow[1][0] = 1;
    sm__inst in = alu(2, 0, 1);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats plain = run(f, &in, 1, 4, 64);
    assert_int_equal(sm_technique_knob_set(&f->t, "coalesce_placement", BANK), 0);
    sm_stats bank = run(f, &in, 1, 4, 64);
    assert_int_equal(sm_technique_knob_set(&f->t, "coalesce_placement", BRO), 0);
    sm_stats bro = run(f, &in, 1, 4, 64);
    assert_int_equal(plain.slow_reads, 4);
    assert_int_equal(bank.slow_reads, 0);
    assert_int_equal(bro.slow_reads, 0);
    /* the slow sub-bank now holds byte 2, which no one-byte value touches */
    assert_int_equal(bank.sub_reads[1 * 4 + 0], 0);
}

/* coalesce_placement = "bro" on an rf_bro-like map, 4 banks of 4 slices, banks 2 and 3
 * all slow: with one-byte values it spreads the 8 fast slices to bytes 0 and 3 of every
 * bank, and no read is slow; with the default widths (29 % full) two whole fast banks
 * make more accesses fast than fast ends everywhere, so it keeps rf_bro's banks: the
 * same run as "plain". */
static void test_placement_over_virtual_banks(void **state)
{
    fixture *f = *state;
    sm_rf_map_all_fast(&f->map, 4, 256, 4);
    for (int p = 0; p < 4; p++)
        f->map.sub_slow[2][p] = f->map.sub_slow[3][p] = 1;
    sm__inst in = alu(2, 0, 1);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats plain = run(f, &in, 1, 4, 128);
    assert_int_equal(sm_technique_knob_set(&f->t, "coalesce_placement", BRO), 0);
    sm_stats bro = run(f, &in, 1, 4, 128);
    assert_true(plain.slow_reads > 0);
    assert_int_equal(bro.slow_reads, 0);
    sm_profile_default(&f->p); /* the default widths */
    sm_stats bro_def = run(f, &in, 1, 4, 128);
    assert_int_equal(sm_technique_knob_set(&f->t, "coalesce_placement", PLAIN), 0);
    sm_stats plain_def = run(f, &in, 1, 4, 128);
    assert_true(plain_def.slow_reads > 0);
    assert_int_equal(bro_def.slow_reads, plain_def.slow_reads);
    assert_int_equal(bro_def.cycles, plain_def.cycles);
}

/* NBTI duty by bytes: warp 0 writes one-byte values to r2 (bank 2, even: slice 0) and
 * reads r0 (bank 0, slice 0) and r1 (bank 1, odd: slice 3).  Only those slices count
 * the accesses; bank 2's slices 1-3 hold the bytes the values leave unwritten
 * (constant bits: sub_const), its slice 0 none. */
static void test_duty_follows_the_bytes(void **state)
{
    fixture *f = *state;
    sm_rf_map_all_fast(&f->map, 16, 64, 4);
    sm__inst in = alu(2, 0, 1);
    f->t.design[SM_DESIGN_coalesce] = true;
    sm_stats co = run(f, &in, 1, 8, 32);
    assert_int_equal(co.sub_writes[2 * 4 + 0], 8);
    assert_int_equal(co.sub_reads[1 * 4 + 3], 8);
    assert_int_equal(co.sub_reads[0 * 4 + 0], 8);
    for (int p = 1; p < 4; p++) {
        assert_int_equal(co.sub_writes[2 * 4 + p], 0);
        assert_int_equal(co.sub_reads[0 * 4 + p], 0);
        assert_true(co.sub_const[2 * 4 + p] > 0);
    }
    assert_int_equal(co.sub_reads[1 * 4 + 0], 0);
    assert_int_equal(co.sub_const[2 * 4 + 0], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_opposite_parity_narrow_reads_share_an_access, reset),
        cmocka_unit_test_setup(test_two_even_registers_never_coalesce, reset),
        cmocka_unit_test_setup(test_full_width_is_the_baseline, reset),
        cmocka_unit_test_setup(test_zero_result_writes_no_slice, reset),
        cmocka_unit_test_setup(test_collector_takes_one_write_a_cycle, reset),
        cmocka_unit_test_setup(test_split_crossbar_shares_the_write, reset),
        cmocka_unit_test_setup(test_narrow_access_misses_a_slow_slice, reset),
        cmocka_unit_test_setup(test_width_aware_placement, reset),
        cmocka_unit_test_setup(test_placement_over_virtual_banks, reset),
        cmocka_unit_test_setup(test_duty_follows_the_bytes, reset),
    };
    return cmocka_run_group_tests(tests, sm_fixture_setup, sm_fixture_teardown);
}
