/* Unit tests of the SM model on hand-built micro-kernels whose timing can be checked by
 * hand (docs/model.md, "Pipeline timing"), plus determinism, invariants and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

/* One block of one warp running `n` copies of `in`. */
static sm_stats *run_one_warp(fixture *f, const sm__inst *in, int n_prog, int n, int regs)
{
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = regs;
    f->p.insts_per_warp = n;
    int rc = sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, in, n_prog, &f->st);
    assert_int_equal(rc, SM_OK);
    assert_int_equal(f->st.warp_insts, n);
    return &f->st;
}

static sm__inst alu(uint8_t op, uint8_t dst, int n_src, uint8_t a, uint8_t b)
{
    sm__inst in = { .op = op, .dst = dst, .n_src = (uint8_t)n_src, .src = { a, b, 0 } };
    return in;
}

/* Issue t, read t+1, dispatch t+2, result t+2+lat, write t+3+lat = next issue: a chain
 * of dependent instructions advances every lat + 3 cycles; the run ends one cycle
 * after the last write. */
static void test_dependent_chain_latency(void **state)
{
    fixture *f = *state;
    sm__inst in = alu(SM__OP_INT, 1, 1, 1, 0);
    for (int n = 1; n <= 20; n += 19) {
        sm_stats *st = run_one_warp(f, &in, 1, n, 4);
        assert_int_equal(st->cycles, (uint64_t)n * (f->c.lat_int + 3) + 1);
    }
    f->c.lat_int = 9;
    sm_stats *st = run_one_warp(f, &in, 1, 10, 4);
    assert_int_equal(st->cycles, 10u * (9 + 3) + 1);
    in = alu(SM__OP_FP_MAD, 1, 1, 1, 0);
    st = run_one_warp(f, &in, 1, 10, 4);
    assert_int_equal(st->cycles, 10u * (f->c.lat_fp_mad + 3) + 1);
}

/* Energy accounting (docs/model.md, "Energy"): the same program on a warp of 16 lanes
 * does exactly as many accesses as on a full warp, half the lane accesses, all of them in
 * the first sub-bank of each bank; a full warp's lanes split evenly over both. */
static void test_lane_accounting(void **state)
{
    fixture *f = *state;
    sm__inst in = alu(SM__OP_FP_MAD, 1, 2, 2, 3);
    sm_stats full = *run_one_warp(f, &in, 1, 40, 4);
    f->p.block_threads = 16;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &in, 1, &f->st),
                     SM_OK);
    const sm_stats *half = &f->st;
    assert_int_equal(half->reads, full.reads);
    assert_int_equal(half->writes, full.writes);
    assert_int_equal(full.read_lanes, 32 * full.reads);
    assert_int_equal(full.write_lanes, 32 * full.writes);
    assert_int_equal(2 * half->read_lanes, full.read_lanes);
    assert_int_equal(2 * half->write_lanes, full.write_lanes);
    uint64_t sub_half = 0, sub_full = 0, second = 0;
    for (int b = 0; b < f->map.n_banks; b++) {
        int p0 = f->map.sub_id[b][0], p1 = f->map.sub_id[b][1];
        sub_half += half->sub_read_lanes[p0] + half->sub_write_lanes[p0];
        second += half->sub_read_lanes[p1] + half->sub_write_lanes[p1];
        sub_full += full.sub_read_lanes[p0] + full.sub_write_lanes[p0];
        assert_int_equal(full.sub_read_lanes[p0], full.sub_read_lanes[p1]);
    }
    assert_int_equal(second, 0);
    assert_int_equal(sub_half, half->read_lanes + half->write_lanes);
    assert_int_equal(2 * sub_full, full.read_lanes + full.write_lanes);
}

/* Zero gating (zero_gating.c) is accounting only: the same cycles and accesses with it on.
 * Results that are all zero write no lane, and reads of them read none (only the first
 * instruction's two reads of the not yet written r1 touch the array); with no zeros it
 * counts what plain accounting counts; with half the lanes zero about half are written. */
static void test_zero_gating(void **state)
{
    fixture *f = *state;
    sm__inst in = alu(SM__OP_FP_MAD, 1, 2, 1, 1); /* r1 = r1 * r1 + ...: a chain on r1 */
    sm_stats plain = *run_one_warp(f, &in, 1, 40, 4);
    f->t.design[SM_DESIGN_zero_gating] = true;
    f->p.zero_lanes = 1.0;
    sm_stats zero = *run_one_warp(f, &in, 1, 40, 4);
    assert_int_equal(zero.cycles, plain.cycles);
    assert_int_equal(zero.reads, plain.reads);
    assert_int_equal(zero.writes, plain.writes);
    assert_int_equal(zero.write_lanes, 0);
    for (uint64_t i = 0; i < zero.n_sub_banks; i++)
        assert_int_equal(zero.sub_write_lanes[i], 0);
    assert_int_equal(zero.read_lanes, 2 * 32);
    f->p.zero_lanes = 0.0;
    sm_stats none = *run_one_warp(f, &in, 1, 40, 4);
    assert_int_equal(none.read_lanes, plain.read_lanes);
    assert_int_equal(none.write_lanes, plain.write_lanes);
    assert_memory_equal(none.sub_read_lanes, plain.sub_read_lanes, sizeof none.sub_read_lanes);
    f->p.zero_lanes = 0.5; /* 40 x 32 = 1280 lanes: sd of the share 0.014; 5 sd */
    sm_stats halfz = *run_one_warp(f, &in, 1, 40, 4);
    double share = (double)halfz.write_lanes / (double)plain.write_lanes;
    assert_true(share > 0.5 - 0.07 && share < 0.5 + 0.07);
}

/* r0 and r16 of warp 0 share bank 0 with 16 banks: the second read waits a cycle. */
static void test_same_bank_operands_cost_one_cycle(void **state)
{
    fixture *f = *state;
    sm__inst other = alu(SM__OP_INT, 0, 2, 0, 1);
    sm__inst same = alu(SM__OP_INT, 0, 2, 0, 16);
    uint64_t c_other = run_one_warp(f, &other, 1, 10, 17)->cycles;
    uint64_t conflicts_other = f->st.bank_read_conflicts;
    uint64_t c_same = run_one_warp(f, &same, 1, 10, 17)->cycles;
    assert_int_equal(c_same - c_other, 10);
    assert_int_equal(conflicts_other, 0);
    assert_int_equal(f->st.bank_read_conflicts, 10);
}

/* A slow bank holds its read port and its write port two cycles: +2 per link. */
static void test_slow_storage_costs_read_and_write_cycle(void **state)
{
    fixture *f = *state;
    sm__inst in = alu(SM__OP_INT, 1, 1, 1, 0);
    uint64_t fast = run_one_warp(f, &in, 1, 10, 4)->cycles;
    sm_rf_map_mark_last_slow(&f->map, 32);
    uint64_t slow = run_one_warp(f, &in, 1, 10, 4)->cycles;
    assert_int_equal(slow - fast, 20);
    assert_int_equal(f->st.slow_reads, 10);
    assert_int_equal(f->st.slow_writes, 10);
}

/* Independent instructions from one warp issue back to back. */
static void test_independent_instructions_pipeline(void **state)
{
    fixture *f = *state;
    sm__inst prog[4] = { alu(SM__OP_INT, 0, 1, 4, 0), alu(SM__OP_INT, 1, 1, 5, 0),
                         alu(SM__OP_INT, 2, 1, 6, 0), alu(SM__OP_INT, 3, 1, 7, 0) };
    sm_stats *st = run_one_warp(f, prog, 4, 4, 8);
    /* last issue at cycle 3, written at 3 + 3 + lat, run length one more */
    assert_int_equal(st->cycles, 3 + 3 + (uint64_t)f->c.lat_int + 1);
}

static double ipc_of(fixture *f)
{
    int rc = sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st);
    assert_int_equal(rc, SM_OK);
    return sm_stats_ipc(&f->st);
}

static void compute_bound(sm_profile *p)
{
    sm_profile_default(p);
    p->frac_mem = p->frac_shared = p->frac_sfu = 0;
    p->dep_distance = 3;
    p->grid_blocks = 15 * 12;
}

static void test_all_slow_hurts_register_bound_not_memory_bound(void **state)
{
    fixture *f = *state;
    compute_bound(&f->p);
    double cf = ipc_of(f);
    sm_fixture_memory_bound(&f->p);
    double mf = ipc_of(f);
    sm_rf_map_mark_last_slow(&f->map, 32);
    compute_bound(&f->p);
    double cs = ipc_of(f);
    sm_fixture_memory_bound(&f->p);
    double ms = ipc_of(f);
    print_message("compute %.3f -> %.3f, memory %.3f -> %.3f\n", cf, cs, mf, ms);
    assert_true(cs < 0.85 * cf);
    assert_true(ms > 0.95 * mf);
}

static void test_deterministic_bit_for_bit(void **state)
{
    fixture *f = *state;
    sm_rf_map_mark_last_slow(&f->map, 10);
    f->t.scheduler = SM_SCHED_FWAS;
    f->t.hybrid = true;
    f->p.partial_warps = 0.3;
    f->p.partial_lanes = 8;
    f->p.tid_divergence = 0.1;
    sm_stats a, b;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 3, 15, &a), SM_OK);
    /* a different run in between must leave no trace */
    sm_profile other;
    sm_fixture_memory_bound(&other);
    assert_int_equal(sm_sim_run(f->sim, &f->c, &other, &f->t, &f->map, 0, 15, &b), SM_OK);
    sm_sim *fresh = sm_sim_alloc(&f->c);
    assert_int_equal(sm_sim_run(fresh, &f->c, &f->p, &f->t, &f->map, 3, 15, &b), SM_OK);
    sm_sim_free(fresh);
    assert_memory_equal(&a, &b, sizeof a);
    /* the checker itself must see a difference */
    b.sub_occupancy[5]++;
    assert_memory_not_equal(&a, &b, sizeof a);
}

/* Every scheduler-cycle either issues or is charged to exactly one stall cause; every
 * read is counted in its bank and in the sub-banks it touches. */
static void test_stall_and_access_accounting(void **state)
{
    fixture *f = *state;
    sm_rf_map_mark_last_slow(&f->map, 10);
    static const sm_sched_policy pols[] = { SM_SCHED_LRR, SM_SCHED_GTO, SM_SCHED_TWO_LEVEL,
                                            SM_SCHED_FWAS };
    for (int i = 0; i < 4; i++) {
        f->t.scheduler = pols[i];
        sm_fixture_memory_bound(&f->p);
        f->p.grid_blocks = 15 * 100;
        ipc_of(f);
        const sm_stats *st = &f->st;
        uint64_t stalls = st->stall_idle + st->stall_memory + st->stall_dependency +
                          st->stall_collector + st->stall_inflight;
        assert_int_equal(stalls + st->warp_insts, (uint64_t)f->c.n_schedulers * st->cycles);
        uint64_t br = 0, sr = 0, bw = 0, occ = 0;
        for (uint64_t b = 0; b < st->n_banks; b++) {
            br += st->bank_reads[b];
            bw += st->bank_writes[b];
        }
        for (uint64_t s = 0; s < st->n_sub_banks; s++) {
            sr += st->sub_reads[s];
            occ += st->sub_occupancy[s];
        }
        assert_int_equal(br, st->reads);
        assert_int_equal(bw, st->writes);
        assert_int_equal(sr, 2 * st->reads); /* full warps touch both halves */
        assert_true(occ > 0);
        assert_int_equal(st->blocks, 3 * st->resident_blocks);
        assert_true(st->slow_reads > 0 && st->slow_reads < st->reads);
    }
}

/* With every operand fast, FWAS is its base policy, and hybrid / fba_rm have nothing
 * to do: bit-identical statistics. */
static void test_techniques_neutral_on_all_fast_map(void **state)
{
    fixture *f = *state;
    sm_stats base;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &base), SM_OK);
    sm_technique t = f->t;
    t.scheduler = SM_SCHED_FWAS;
    t.hybrid = true;
    t.fba_rm = true;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &t, &f->map, 0, 15, &f->st), SM_OK);
    assert_memory_equal(&base, &f->st, sizeof base);
    t.scheduler = SM_SCHED_GTO;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &t, &f->map, 0, 15, &f->st), SM_OK);
    assert_memory_not_equal(&base, &f->st, sizeof base);
}

static void test_fwas_prefers_fast_instructions(void **state)
{
    fixture *f = *state;
    compute_bound(&f->p);
    sm_rf_map_mark_last_slow(&f->map, 10);
    double lrr = ipc_of(f);
    uint64_t conflicts = f->st.bank_read_conflicts;
    f->t.scheduler = SM_SCHED_FWAS;
    double fwas = ipc_of(f);
    print_message("lrr %.4f fwas %.4f, read conflicts %llu -> %llu\n", lrr, fwas,
                  (unsigned long long)conflicts, (unsigned long long)f->st.bank_read_conflicts);
    assert_true(fwas > lrr);
    assert_true(f->st.bank_read_conflicts < conflicts);
}

/* fba_rm: a kernel whose registers fit the fast banks never touches a slow one. */
static void test_fba_rm_maps_small_kernels_to_fast_banks(void **state)
{
    fixture *f = *state;
    f->p.block_threads = 64;
    f->p.regs_per_thread = 8;
    f->p.grid_blocks = 15 * 24;
    sm_rf_map_mark_last_slow(&f->map, 10);
    ipc_of(f);
    assert_true(f->st.slow_reads > 0);
    f->t.fba_rm = true;
    ipc_of(f);
    assert_int_equal(f->st.slow_reads, 0);
    assert_int_equal(f->st.slow_writes, 0);
    /* too large to fit: small register IDs still go fast, so fewer slow accesses */
    f->p.regs_per_thread = 40;
    f->p.block_threads = 256;
    f->t.fba_rm = false;
    ipc_of(f);
    uint64_t plain = f->st.slow_reads;
    f->t.fba_rm = true;
    ipc_of(f);
    assert_true(f->st.slow_reads < plain / 2);
}

/* hybrid: partial warps' registers go to fast+slow banks and touch only the fast half. */
static void test_hybrid_serves_fixed_lane_vectors_fast(void **state)
{
    fixture *f = *state;
    f->p.block_threads = 169; /* nn: the last warp has 9 lanes */
    f->p.regs_per_thread = 14;
    f->p.grid_blocks = 168;
    f->p.tid_divergence = 0.2;
    sm_rf_map_mark_last_slow(&f->map, 10);
    ipc_of(f);
    uint64_t plain = f->st.slow_reads;
    f->t.hybrid = true;
    ipc_of(f);
    print_message("hybrid banks %llu, slow reads %llu -> %llu\n",
                  (unsigned long long)f->st.hybrid_banks, (unsigned long long)plain,
                  (unsigned long long)f->st.slow_reads);
    assert_true(f->st.hybrid_banks > 0);
    assert_true(f->st.slow_reads < plain);
    f->t.hybrid_policy = SM_HYBRID_FIXED;
    f->t.hybrid_banks = 4;
    ipc_of(f);
    assert_int_equal(f->st.hybrid_banks, 4);
}

/* nbti renaming permutes banks within a speed class: same accesses, same slow ones. */
static void test_rename_keeps_speed_classes(void **state)
{
    fixture *f = *state;
    sm_rf_map_mark_last_slow(&f->map, 10);
    ipc_of(f);
    sm_stats plain = f->st;
    f->t.design[SM_DESIGN_nbti_rename] = true;
    ipc_of(f);
    assert_int_equal(f->st.reads, plain.reads);
    assert_int_equal(f->st.slow_reads, plain.slow_reads);
    assert_int_equal(f->st.slow_writes, plain.slow_writes);
    assert_memory_not_equal(f->st.bank_reads, plain.bank_reads, sizeof plain.bank_reads);
}

/* Which virtual banks a block's R0 reads land on, one block of 8 warps whose every
 * instruction reads only R0 and writes R15, all-fast map (one speed class, so renaming
 * ranks every bank).  Warp w's R0 sits in logical bank w.  The spec's last-warp order
 * renames the last warp's R0..R15 (logical banks 7, 8, ..., 15, 0, ..., 6) to virtual
 * banks 0..15, so the other warps' R0 (logical 0..6) land on 9..15, the slowest banks;
 * the all-warps order renames the eight R0 banks first: virtual banks 0..7. */
static uint32_t r0_bank_set(fixture *f, bool rename, sm_rename_order order)
{
    sm__inst in = alu(SM__OP_INT, 15, 1, 0, 0);
    f->t.design[SM_DESIGN_nbti_rename] = rename;
    assert_int_equal(sm_technique_knob_set(&f->t, "nbti_rename_order", order), 0);
    f->p.grid_blocks = 1;
    f->p.block_threads = 256;
    f->p.regs_per_thread = 16;
    f->p.insts_per_warp = 10;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &in, 1, &f->st),
                     SM_OK);
    uint32_t set = 0;
    for (int b = 0; b < 16; b++)
        if (f->st.bank_reads[b])
            set |= 1u << b;
    return set;
}

static void test_rename_orders(void **state)
{
    fixture *f = *state;
    assert_int_equal(r0_bank_set(f, false, SM_RENAME_LAST_WARP), 0x00FFu);
    assert_int_equal(r0_bank_set(f, true, SM_RENAME_LAST_WARP), 0xFE01u);
    assert_int_equal(r0_bank_set(f, true, SM_RENAME_ALL_WARPS), 0x00FFu);
}

static void test_sm_share_and_waves(void **state)
{
    fixture *f = *state;
    f->p.grid_blocks = 20;
    ipc_of(f); /* SM 0 of 15 gets blocks 0 and 15 */
    assert_int_equal(f->st.blocks, 2);
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 7, 15, &f->st), SM_OK);
    assert_int_equal(f->st.blocks, 1);
    f->p.grid_blocks = 100000;
    ipc_of(f);
    assert_int_equal(f->st.blocks, SM_SIM_WAVES * f->st.resident_blocks);
    assert_true(sm_stats_avg_live_blocks(&f->st) > 0.8 * (double)f->st.resident_blocks);
}

static void run_sm(fixture *f, int sm_index, int n_sms, sm_stats *out)
{
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, sm_index, n_sms, out),
                     SM_OK);
}

/* A map, technique and kernel that exercise every path a run can take (slow and hybrid
 * banks, FWAS, partial warps, thread-ID branches). */
static void varied_inputs(fixture *f)
{
    sm_rf_map_mark_last_slow(&f->map, 10);
    f->t.scheduler = SM_SCHED_FWAS;
    f->t.hybrid = true;
    f->p.partial_warps = 0.3;
    f->p.partial_lanes = 8;
    f->p.tid_divergence = 0.1;
}

/* sm.h contract: sm_index and n_sms matter only through the share, so the sweep
 * driver may reuse one run for every SM with the same share (dse/smrun/sim_cache.c). */
static void test_equal_share_runs_are_identical(void **state)
{
    fixture *f = *state;
    varied_inputs(f);
    sm_stats a, b;
    f->p.grid_blocks = 20; /* of 15 SMs: SMs 0-4 run 2 blocks, SMs 5-14 one */
    assert_int_equal(sm_sim_share(&f->c, &f->p, 1, 15), 2);
    assert_int_equal(sm_sim_share(&f->c, &f->p, 4, 15), 2);
    assert_int_equal(sm_sim_share(&f->c, &f->p, 2, 10), 2);
    assert_int_equal(sm_sim_share(&f->c, &f->p, 5, 15), 1);
    run_sm(f, 1, 15, &a);
    run_sm(f, 4, 15, &b);
    assert_memory_equal(&a, &b, sizeof a);
    run_sm(f, 2, 10, &b);
    assert_memory_equal(&a, &b, sizeof a);
    /* a different share is a different kernel: the comparison can fail */
    run_sm(f, 5, 15, &b);
    assert_memory_not_equal(&a, &b, sizeof a);
    assert_int_equal(b.blocks, 1);
    /* capped shares: every SM of a large grid simulates SM_SIM_WAVES waves */
    f->p.grid_blocks = 15 * 100;
    int cap = sm_sim_share(&f->c, &f->p, 0, 15);
    assert_int_equal(cap, SM_SIM_WAVES * 6); /* 6 blocks of 256 threads resident */
    assert_int_equal(sm_sim_share(&f->c, &f->p, 14, 15), cap);
    run_sm(f, 0, 15, &a);
    run_sm(f, 14, 15, &b);
    assert_memory_equal(&a, &b, sizeof a);
    run_sm(f, 3, 7, &b);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(a.blocks, (uint64_t)cap);
    /* no blocks, and arguments sm_sim_run rejects */
    f->p.grid_blocks = 3;
    assert_int_equal(sm_sim_share(&f->c, &f->p, 5, 15), 0);
    assert_int_equal(sm_sim_share(&f->c, &f->p, 15, 15), SM_E_INVALID);
    assert_int_equal(sm_sim_share(&f->c, &f->p, -1, 15), SM_E_INVALID);
    f->p.regs_per_thread = 0;
    assert_int_equal(sm_sim_share(&f->c, &f->p, 0, 15), SM_E_INVALID);
}

/* sm.h contract (sm_sim_entries_read): entry_slow bits past the registers of the
 * resident warp slots are never read, so the run cache may leave them out of its key. */
static void test_unread_entries_do_not_matter(void **state)
{
    fixture *f = *state;
    sm_stats a, b;
    f->p.regs_per_thread = 8; /* 48 warp slots x 8 registers: 24 of 64 entries per bank */
    int n = sm_sim_entries_read(&f->c, &f->p, &f->t, &f->map);
    assert_true(n > 0 && n < f->map.n_entries);
    run_sm(f, 0, 15, &a);
    for (int bk = 0; bk < f->map.n_banks; bk++)
        for (int e = n; e < f->map.n_entries; e++)
            f->map.entry_slow[bk][e] = 1;
    run_sm(f, 0, 15, &b);
    assert_memory_equal(&a, &b, sizeof a);
    /* the last entry read is read: the comparison can fail */
    for (int bk = 0; bk < f->map.n_banks; bk++)
        f->map.entry_slow[bk][n - 1] = 1;
    run_sm(f, 0, 15, &b);
    assert_memory_not_equal(&a, &b, sizeof a);
    assert_true(b.slow_reads > 0);
    /* a design may place registers anywhere: every entry counts */
    f->t.design[SM_DESIGN_zero_gating] = true;
    assert_int_equal(sm_sim_entries_read(&f->c, &f->p, &f->t, &f->map), f->map.n_entries);
}

/* Stored instruction streams (model/streams.c) give the runs the drawn streams give:
 * a second run of a kernel on the same simulator reads them back; an exact simulator
 * draws every instruction.  Zero gating and memory hazards read the warp's stream state after
 * each instruction, so a stored stream that lost it would change their statistics. */
static void test_stored_streams_are_drawn_streams(void **state)
{
    fixture *f = *state;
    varied_inputs(f);
    f->t.design[SM_DESIGN_zero_gating] = true;
    f->c.mem_hazard = SM_HAZARD_REPLAY;
    f->p.mem_requests = 2.5;
    f->p.frac_barrier = 0.02;
    sm_stats a, b, c;
    run_sm(f, 3, 15, &a); /* draws and stores */
    run_sm(f, 3, 15, &b); /* reads back */
    assert_memory_equal(&a, &b, sizeof a);
    sm_sim *fresh = sm_sim_alloc(&f->c);
    assert_non_null(fresh);
    sm__sim_set_exact(fresh, true);
    assert_int_equal(sm_sim_run(fresh, &f->c, &f->p, &f->t, &f->map, 3, 15, &c), SM_OK);
    sm_sim_free(fresh);
    assert_memory_equal(&a, &c, sizeof a);
    /* another seed is another stream: the comparison can fail */
    f->p.seed++;
    run_sm(f, 3, 15, &b);
    assert_memory_not_equal(&a, &b, sizeof a);
}

/* The stopping rule (model/stop.c): off, runs are exact; on with a loose error, a long
 * run stops early and its counts stand for the whole kernel. */
static void test_stopping_rule(void **state)
{
    fixture *f = *state;
    f->p.insts_per_warp = 4000;
    sm_stats a, b, c;
    run_sm(f, 0, 15, &a);
    sm_sim_set_stopping(f->sim, 0.05);
    run_sm(f, 0, 15, &b);
    sm_sim_set_stopping(f->sim, 0);
    run_sm(f, 0, 15, &c);
    assert_memory_equal(&a, &c, sizeof a); /* off again: exact */
    assert_memory_not_equal(&a, &b, sizeof a); /* it stopped, and extrapolated */
    assert_true(llabs((long long)b.warp_insts - (long long)a.warp_insts) <= 1);
    assert_int_equal(b.resident_blocks, a.resident_blocks);
    double ea = sm_stats_ipc(&a), eb = sm_stats_ipc(&b);
    /* the sampled rate is the steady state's, without the last wave's tail, so it may
     * differ widely (docs/performance.md): only printed */
    printf("stopping rule: IPC exact %.4f, stopped %.4f, cycles %llu of %llu\n", ea, eb,
           (unsigned long long)b.cycles, (unsigned long long)a.cycles);
    assert_true(eb > 0);
}

/* sm.h contract: sub_id labels the per-sub-bank statistics and nothing else. */
static void test_sub_id_only_labels_statistics(void **state)
{
    fixture *f = *state;
    varied_inputs(f);
    sm_stats a, b;
    run_sm(f, 0, 15, &a);
    int n_subs = 16 * 2;
    for (int bk = 0; bk < 16; bk++)
        for (int p = 0; p < 2; p++) /* 7 is odd: a permutation of 0..31 */
            f->map.sub_id[bk][p] = (int16_t)((f->map.sub_id[bk][p] * 7 + 3) % n_subs);
    run_sm(f, 0, 15, &b);
    sm_stats want = a;
    for (int i = 0; i < n_subs; i++) {
        int j = (i * 7 + 3) % n_subs;
        want.sub_reads[j] = a.sub_reads[i];
        want.sub_writes[j] = a.sub_writes[i];
        want.sub_occupancy[j] = a.sub_occupancy[i];
        want.sub_read_lanes[j] = a.sub_read_lanes[i];
        want.sub_write_lanes[j] = a.sub_write_lanes[i];
    }
    assert_memory_equal(&want, &b, sizeof want);
    /* the relabelling is visible, so the comparison above can fail */
    assert_memory_not_equal(a.sub_reads, b.sub_reads, sizeof a.sub_reads);
    assert_memory_not_equal(a.sub_occupancy, b.sub_occupancy, sizeof a.sub_occupancy);
}

static void test_ipc_is_floating_point(void **state)
{
    (void)state;
    sm_stats st;
    memset(&st, 0, sizeof st);
    assert_true(sm_stats_ipc(&st) == 0.0);
    st.cycles = 2;
    st.warp_insts = 3;
    assert_true(sm_stats_ipc(&st) == 1.5);
    st.block_cycles = 5;
    assert_true(sm_stats_avg_live_blocks(&st) == 2.5);
}

static void test_stats_info_covers_struct(void **state)
{
    (void)state;
    int n;
    const sm_stat_info *info = sm_stats_info(&n);
    size_t words = 0;
    for (int i = 0; i < n; i++) {
        assert_non_null(info[i].name);
        assert_true(strlen(info[i].description) > 5);
        assert_true((info[i].length == 1) == (info[i].extent == NULL));
        words += (size_t)info[i].length;
    }
    assert_int_equal(words * sizeof(uint64_t) + sizeof(((sm_stats *)0)->design), sizeof(sm_stats));
    /* the designs' own statistics (sm_design.h): within their slots, every name unique */
    for (int d = 0; d < SM_N_DESIGNS; d++)
        assert_true(sm_design_get((sm_rf_design_id)d)->n_stats <= SM_DESIGN_MAX_STATS);
    for (int i = 0; i < sm_stats_count(); i++)
        for (int j = 0; j < i; j++)
            assert_string_not_equal(sm_stats_at(i).name, sm_stats_at(j).name);
    sm_stats st;
    memset(&st, 0, sizeof st);
    st.cycles = 42;
    st.sub_reads[3] = 7;
    for (int i = 0; i < n; i++) {
        if (!strcmp(info[i].name, "cycles"))
            assert_int_equal(sm_stats_get(&st, &info[i], 0), 42);
        if (!strcmp(info[i].name, "sub_reads"))
            assert_int_equal(sm_stats_get(&st, &info[i], 3), 7);
    }
}

static void test_errors(void **state)
{
    fixture *f = *state;
    f->p.regs_per_thread = 255;
    f->p.block_threads = 1024;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st),
                     SM_E_INVALID);
    sm_profile_default(&f->p);
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 15, 15, &f->st),
                     SM_E_INVALID);
    f->map.n_banks = 0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st),
                     SM_E_INVALID);
    f->map.n_banks = 16;
    sm_config small = f->c;
    small.max_warps = 24;
    sm_sim *s = sm_sim_alloc(&small);
    assert_int_equal(sm_sim_run(s, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_E_CAPACITY);
    sm_sim_free(s);
    sm_sim_free(NULL);
    f->c.max_cycles = 1000;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st),
                     SM_E_MAX_CYCLES);
    assert_true(strlen(sm_sim_diagnostic(f->sim)) > 20);
    assert_int_equal(f->st.cycles, 1000);
    assert_string_equal(sm_strerror(SM_E_STUCK),
                        "no progress for too many cycles (deadlock watchdog)");
    f->c.max_warps = 100;
    assert_null(sm_sim_alloc(&f->c));
}

/* ---- GPGPU-Sim-like knobs (docs/model.md, "Checked against GPGPU-Sim") ------------- */

/* reg_span: 4 registers spread over numbers 0, 16, 32, 48 all land in bank 0, so the
 * two sources r1, r2 of each instruction serialise; compactly they are banks 1 and 2. */
static void test_reg_span_spreads_register_numbers(void **state)
{
    fixture *f = *state;
    sm__inst in = alu(SM__OP_INT, 0, 2, 1, 2);
    uint64_t compact = run_one_warp(f, &in, 1, 10, 4)->cycles;
    assert_int_equal(f->st.bank_read_conflicts, 0);
    f->p.reg_span = 64;
    uint64_t spread = run_one_warp(f, &in, 1, 10, 4)->cycles;
    assert_int_equal(f->st.bank_read_conflicts, 10);
    assert_int_equal(spread - compact, 10);
}

/* bank_ports shared: i0 (r1 <- r4) issues at 0, its result leaves the pipeline at
 * 2 + lat = 6 and is written at 7; i6 (r2 <- r17, bank 1 like r1) issues at 6 and
 * would read at 7.  Separate ports: no conflict.  Shared: the write takes bank 1's
 * cycle 7, the read waits one cycle. */
static void test_shared_bank_port_write_goes_first(void **state)
{
    fixture *f = *state;
    sm__inst prog[7] = { alu(SM__OP_INT, 1, 1, 4, 0),   alu(SM__OP_INT, 20, 1, 5, 0),
                         alu(SM__OP_INT, 21, 1, 6, 0),  alu(SM__OP_INT, 22, 1, 7, 0),
                         alu(SM__OP_INT, 23, 1, 8, 0),  alu(SM__OP_INT, 24, 1, 9, 0),
                         alu(SM__OP_INT, 2, 1, 17, 0) };
    assert_int_equal(f->c.lat_int, 4);
    run_one_warp(f, prog, 7, 7, 26);
    assert_int_equal(f->st.bank_read_conflicts, 0);
    f->c.bank_ports = SM_PORTS_SHARED;
    run_one_warp(f, prog, 7, 7, 26);
    assert_int_equal(f->st.bank_read_conflicts, 1);
    assert_int_equal(f->st.bank_write_conflicts, 0); /* writes never wait for reads */
}

/* result_slots with one SP pipeline: independent mads (latency 5) and adds (4)
 * alternate.  Dispatch from cycle 2: mad at d leaves at d + 5, the add ready at d + 1
 * would leave at d + 5 too, so it waits a cycle: each pair takes 3 dispatch cycles
 * instead of 2 (pairs dispatched at 2/4, 5/7, 8/10, 11/13) and the last add leaves
 * at 17 instead of 13 (cycles 19 against 15).
 * Equal latencies never collide. */
static void test_result_slots_mixed_latencies_collide(void **state)
{
    fixture *f = *state;
    sm__inst prog[8];
    for (int i = 0; i < 8; i++)
        prog[i] = alu(i % 2 ? SM__OP_FP : SM__OP_FP_MAD, (uint8_t)i, 1, (uint8_t)(8 + i), 0);
    f->c.n_sp = 1;
    assert_int_equal(f->c.lat_fp, 4);
    assert_int_equal(f->c.lat_fp_mad, 5);
    uint64_t free_slots = run_one_warp(f, prog, 8, 8, 16)->cycles;
    f->c.result_slots = true;
    uint64_t slots = run_one_warp(f, prog, 8, 8, 16)->cycles;
    assert_int_equal(free_slots, 15);
    assert_int_equal(slots, 19);
    for (int i = 0; i < 8; i++)
        prog[i].op = SM__OP_FP_MAD;
    f->c.result_slots = false;
    uint64_t uniform = run_one_warp(f, prog, 8, 8, 16)->cycles;
    f->c.result_slots = true;
    assert_int_equal(run_one_warp(f, prog, 8, 8, 16)->cycles, uniform);
}

/* same_bank_share: with 10 registers spread over numbers 0..484 (0, 48, 96, 145, 193,
 * 242, 290, 338, 387, 435: banks 0, 0, 0, 1, 1, 2, 2, 2, 3, 3) r0's bank mates are r1 and
 * r2, r3's is r4; with every instruction's sources in one bank, reads conflict far
 * more than with independently drawn sources. */
static void test_same_bank_sources(void **state)
{
    fixture *f = *state;
    sm__kernel k;
    memset(&k, 0, sizeof k);
    k.regs = 10;
    k.reg_span = 484;
    k.n_banks = 16;
    f->p.same_bank_share = 1.0;
    sm__gen_mates(&k, &f->p);
    assert_int_equal(k.n_mates[0], 2);
    assert_int_equal(k.mates[0][0], 1);
    assert_int_equal(k.mates[0][1], 2);
    assert_int_equal(k.n_mates[3], 1);
    assert_int_equal(k.mates[3][0], 4);

    compute_bound(&f->p);
    f->p.regs_per_thread = 10;
    f->p.reg_span = 484;
    f->p.src_operands = 3.0;
    f->p.frac_fp = f->p.frac_mad = 1.0;
    double spread_ipc = ipc_of(f);
    double spread = (double)f->st.bank_read_conflicts / (double)f->st.reads;
    f->p.same_bank_share = 1.0;
    double same_ipc = ipc_of(f);
    double same = (double)f->st.bank_read_conflicts / (double)f->st.reads;
    print_message("conflicts per read: sources drawn %.3f, in one bank %.3f; IPC %.3f, %.3f\n",
                  spread, same, spread_ipc, same_ipc);
    assert_true(same > 2 * spread);
    assert_true(same_ipc < spread_ipc);
}

/* operand_reuse (model/operand_reuse.c): one warp alone on its scheduler repeats
 * r3 = r1 + r2, so from the second instruction on both sources are in their buffers
 * (2 hits each), one buffer serves one of them, and r1 = r1 + r2, which writes its
 * first source, leaves only the second to reuse.  Timing does not change. */
static void test_operand_reuse_counts(void **state)
{
    fixture *f = *state;
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = 20;
    const sm__inst keep = alu(SM__OP_INT, 3, 2, 1, 2), overwrite = alu(SM__OP_INT, 1, 2, 1, 2);
    sm_stats plain, st;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &keep, 1, &plain), SM_OK);
    f->t.design[SM_DESIGN_operand_reuse] = true;
    const struct { const sm__inst *in; int slots; uint64_t hits; } cases[] = {
        { &keep, 3, 2 * 19 }, { &keep, 1, 19 }, { &overwrite, 3, 19 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        assert_int_equal(sm_technique_knob_set(&f->t, "reuse_slots", cases[c].slots), 0);
        assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, cases[c].in, 1,
                                           &st), SM_OK);
        const uint64_t *mine = st.design[SM_DESIGN_operand_reuse];
        assert_int_equal(mine[0], cases[c].hits);
        assert_int_equal(mine[1], cases[c].hits * 32);
    }
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &keep, 1, &st), SM_OK);
    assert_int_equal(st.cycles, plain.cycles);
    assert_int_equal(st.reads, plain.reads);
}

int main(void)
{
    const struct CMUnitTest tests[] = {

#define T(fn) cmocka_unit_test_setup_teardown(fn, sm_fixture_setup, sm_fixture_teardown)
        T(test_dependent_chain_latency),
        T(test_lane_accounting),
        T(test_zero_gating),
        T(test_same_bank_operands_cost_one_cycle),
        T(test_slow_storage_costs_read_and_write_cycle),
        T(test_independent_instructions_pipeline),
        T(test_all_slow_hurts_register_bound_not_memory_bound),
        T(test_deterministic_bit_for_bit),
        T(test_stall_and_access_accounting),
        T(test_techniques_neutral_on_all_fast_map),
        T(test_fwas_prefers_fast_instructions),
        T(test_fba_rm_maps_small_kernels_to_fast_banks),
        T(test_hybrid_serves_fixed_lane_vectors_fast),
        T(test_rename_keeps_speed_classes),
        T(test_rename_orders),
        T(test_operand_reuse_counts),
        T(test_sm_share_and_waves),
        T(test_equal_share_runs_are_identical),
        T(test_sub_id_only_labels_statistics),
        T(test_unread_entries_do_not_matter),
        T(test_stored_streams_are_drawn_streams),
        T(test_stopping_rule),
        T(test_ipc_is_floating_point),
        T(test_stats_info_covers_struct),
        T(test_errors),
        T(test_reg_span_spreads_register_numbers),
        T(test_shared_bank_port_write_goes_first),
        T(test_result_slots_mixed_latencies_collide),
        T(test_same_bank_sources),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
