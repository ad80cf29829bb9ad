/* The mechanisms the measured kernels need (issue 27; docs/model.md, "Barriers, double
 * precision and stores"): block barriers, double precision at GTX480's latency and
 * initiation interval, the measured store share, GPGPU-Sim's latency-1 table.
 * Micro-kernels checked by hand, then the synthetic stream's barriers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

static sm__inst op3(uint8_t op, uint8_t dst, int n_src, uint8_t a)
{
    sm__inst in = { .op = op, .dst = dst, .n_src = (uint8_t)n_src,
                    .src = { a, SM__NO_REG, SM__NO_REG } };
    return in;
}

/* One block of two warps on one scheduler, each its own row of 4 (micro_rows):
 *   warp 0: r1 <- idiv r1 (145) ; r2 <- r1 ; X ; r3 <- r0
 *   warp 1: X ; r2 <- r0 ; r3 <- r0 ; r4 <- r0
 * with X a barrier, or an independent r4 <- r0.  Timing (test_sm.c): issue t, a
 * dependent issues at t + 3 + lat, the run ends one cycle after the last write
 * (t + lat + 4).  LRR starts at warp 0.
 * No barrier: w0 idiv @0; w1 @1, @2, @3 and its r4 (WAW behind X's r4, written @8) @8;
 *   w0 r2 @148 (r1 written @148), X @149, r3 @150: 150 + 8 = 158 cycles.
 * Barrier: w1's barrier @1 holds it; w0 r2 @148, w0's barrier @149 releases both;
 *   w1 r2 @150 (LRR after w0), w0 r3 @151, w1 r3 @152, w1 r4 @153: 161 cycles. */
static sm_stats *run_pair(fixture *f, bool barrier)
{
    sm__inst x = barrier ? (sm__inst){ .op = SM__OP_BAR, .dst = SM__NO_REG }
                         : op3(SM__OP_INT, 4, 1, 0);
    sm__inst rows[8] = { op3(SM__OP_INT_DIV, 1, 1, 1), op3(SM__OP_INT, 2, 1, 1), x,
                         op3(SM__OP_INT, 3, 1, 0), x, op3(SM__OP_INT, 2, 1, 0),
                         op3(SM__OP_INT, 3, 1, 0), op3(SM__OP_INT, 4, 1, 0) };
    f->c.n_schedulers = 1;
    f->p.grid_blocks = 1;
    f->p.block_threads = 64;
    f->p.regs_per_thread = 5;
    f->p.insts_per_warp = 4;
    f->sim->k.micro_rows = true;
    int rc = sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, rows, 8, &f->st);
    f->sim->k.micro_rows = false;
    assert_int_equal(rc, SM_OK);
    return &f->st;
}

static void test_barrier_by_hand(void **state)
{
    fixture *f = *state;
    sm_stats plain = *run_pair(f, false);
    sm_stats bar = *run_pair(f, true);
    assert_int_equal(plain.warp_insts, 8);
    assert_int_equal(bar.warp_insts, 8);
    assert_int_equal(bar.barriers, 2);
    assert_int_equal(plain.barriers, 0);
    assert_int_equal(plain.cycles, 158);
    assert_int_equal(bar.cycles, 161);
    /* while warp 1 waited, warp 0 waited for r1: the dependency is the stall's cause,
     * never a collector (a warp at its barrier is no candidate, not one a full unit
     * keeps out: counting it so gave stall_barrier 0 on every profile) */
    assert_int_equal(bar.stall_barrier, 0);
    assert_int_equal(bar.stall_collector, plain.stall_collector);
}

/* A chain of n dependent double-precision ops advances every lat_dp + 3 cycles; n
 * independent ones from one warp leave the two SP pipelines one per 8 cycles each
 * (GTX480's initiation interval 8). */
static void test_fp64_latency_and_interval(void **state)
{
    fixture *f = *state;
    f->c.n_schedulers = 1;
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 8;
    f->p.insts_per_warp = 10;
    sm__inst chain = op3(SM__OP_DP, 1, 1, 1);
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &chain, 1, &f->st),
                     SM_OK);
    assert_int_equal(f->st.cycles, 10u * (8 + 3) + 1);
    f->c.lat_dp = 12;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &chain, 1, &f->st),
                     SM_OK);
    assert_int_equal(f->st.cycles, 10u * (12 + 3) + 1);
    f->c.lat_dp = 8;
    /* independent: sources r0 (never written), destinations r1..r6 in turn */
    sm__inst indep[6];
    for (int i = 0; i < 6; i++) {
        indep[i] = op3(SM__OP_DP, (uint8_t)(1 + i), 1, 0);
    }
    f->p.insts_per_warp = 12;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, indep, 6, &f->st),
                     SM_OK);
    sm_stats dp = f->st;
    for (int i = 0; i < 6; i++)
        indep[i].op = SM__OP_FP;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, indep, 6, &f->st),
                     SM_OK);
    /* 12 DP ops on 2 pipelines at 1 per 8 cycles: the last dispatches >= 5 x 8 cycles
     * after the first; FP at interval 1 runs them back to back */
    assert_true(dp.cycles >= 40 + 8);
    assert_true(f->st.cycles < 30);
    assert_true(dp.dispatch_stalls > 0);
}

/* latency_table = "gpgpusim" with every ALU instruction at latency 1: a synthetic
 * kernel's dependent chains shorten, so it runs in fewer cycles than with rfdse's
 * latencies; latency1_share is ignored with the default table. */
static void test_latency_table(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    f->p.frac_mem = f->p.frac_shared = f->p.frac_sfu = 0;
    f->p.dep_distance = 1.0;
    f->p.grid_blocks = 15;
    f->p.latency1_share = 1.0;
    sm_config_default(&f->c);
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    sm_stats rfdse = f->st;
    f->p.latency1_share = 0.0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_memory_equal(&rfdse, &f->st, sizeof rfdse); /* the share alone changes nothing */
    f->p.latency1_share = 1.0;
    f->c.latency_table = SM_LATENCY_GPGPUSIM;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.warp_insts, rfdse.warp_insts);
    assert_true(f->st.cycles < rfdse.cycles);
}

/* latency_table = "gpgpusim": a drawn DP instruction runs as GPGPU-Sim's DP_OP, on
 * the one SFU at interval 8 (GTX480 has no DP units), not on the two SP pipelines as
 * with rfdse's table.  An all-DP kernel of nearly independent instructions is bound by
 * that unit: at least 8 cycles per warp instruction on the SFU; two pipelines give at
 * most half that bound's cycles (bounds from the intervals, not model output). */
static void test_dp_on_sfu_gpgpusim(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    f->p.frac_mem = f->p.frac_shared = f->p.frac_sfu = f->p.frac_barrier = 0;
    f->p.frac_fp = f->p.frac_fp64 = 1.0;
    f->p.frac_mad = f->p.frac_div = 0;
    f->p.latency1_share = 0.0;
    f->p.dep_distance = 16.0;
    f->p.grid_blocks = 15;
    sm_config_default(&f->c);
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    sm_stats sp = f->st;
    f->c.latency_table = SM_LATENCY_GPGPUSIM;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    printf("# all-DP kernel, %llu warp instructions: %llu cycles on the SP pipes, %llu on "
           "the SFU\n", (unsigned long long)sp.warp_insts, (unsigned long long)sp.cycles,
           (unsigned long long)f->st.cycles);
    assert_int_equal(f->st.warp_insts, sp.warp_insts);
    assert_true(f->st.cycles >= 8 * f->st.warp_insts);
    assert_true(sp.cycles < 6 * sp.warp_insts);
}

/* dep_at1: the share of drawn first sources that read the register the instruction
 * just before wrote (an all-ALU stream, every instruction with a destination, so ring
 * distance 1 is the previous instruction).  At least dep_at1 (a binomial, within 4 sd):
 * a farther producer may have written that same register too, which only adds, so the
 * excess is bounded by the rest's share, 1 - dep_at1.  Without the key a geometric of
 * the same mean puts 1/mean at 1 (plus such repeats), far below (the check that the
 * test can fail). */
static double at1_share(fixture *f)
{
    static sm__kernel k;
    memset(&k, 0, sizeof k);
    k.regs = f->p.regs_per_thread;
    k.insts_per_warp = f->p.insts_per_warp;
    k.warps_per_block = (f->p.block_threads + 31) / 32;
    sm__gen_setup(&k, &f->p);
    int n = 0, at1 = 0;
    for (int b = 0; b < 4; b++)
        for (int j = 0; j < k.warps_per_block; j++) {
            sm__warp w;
            memset(&w, 0, sizeof w);
            sm__gen_warp(&k, &w, b, j);
            uint8_t prev = SM__NO_REG;
            for (int i = 0; i < k.insts_per_warp; i++, w.n_issued++) {
                sm__gen_next_drawn(&k, &w);
                if (i >= 16 && w.next.n_src > 0) { /* the ring full */
                    n++;
                    at1 += w.next.src[0] == prev;
                }
                prev = w.next.dst;
            }
        }
    return (double)at1 / n + 0.0 * printf("# dep_at1 %.2f: %d of %d first sources at 1\n",
                                          f->p.dep_at1, at1, n);
}

static void test_dep_at1(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    f->p.frac_mem = f->p.frac_shared = f->p.frac_sfu = f->p.frac_barrier = 0;
    f->p.insts_per_warp = 400;
    f->p.regs_per_thread = 63;
    f->p.reg_skew = 0.0;
    f->p.dep_distance = 3.3;
    f->p.seed = 141421;
    int n = 4 * ((f->p.block_threads + 31) / 32) * (400 - 16);
    double plain = at1_share(f);
    f->p.dep_at1 = 0.8;
    double keyed = at1_share(f);
    double sd = sqrt(0.8 * 0.2 / n);
    assert_true(keyed >= 0.8 - 4 * sd && keyed <= 0.8 + 0.2);
    assert_true(plain >= 1.0 / 3.3 - 4 * sqrt(0.3 * 0.7 / n) && plain < 0.8 - 4 * sd);
    f->p.dep_at1 = 0.0;
}

/* store_share: every global-memory instruction a store (no L1 misses, stores do not
 * look up L1) or a load. */
static void test_store_share(void **state)
{
    fixture *f = *state;
    sm_config_default(&f->c);
    sm_fixture_memory_bound(&f->p);
    f->p.store_share = 1.0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.l1_misses, 0);
    f->p.store_share = 0.0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_true(f->st.l1_misses > 0);
}

/* Synthetic barriers: every warp meets the same ones (the barrier count is a multiple of
 * the warps run), as many as frac_barrier of its instructions, rounded (the kernel's
 * program places them, gen.c prog_setup; a binomial draw before), runs are
 * deterministic, and with frac_barrier = 0 no barrier is issued. */
/* Four blocks a SM (SM 0 of 15) of `insts` instructions a warp, 5 % barriers; runs SM 0. */
static void run_barrier_kernel(fixture *f, int insts)
{
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    f->p.grid_blocks = 15 * 4;
    f->p.insts_per_warp = insts;
    f->p.frac_barrier = 0.05;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
}

static void test_synthetic_barriers(void **state)
{
    fixture *f = *state;
    run_barrier_kernel(f, 2000);
    sm_stats a = f->st;
    uint64_t warps = 4u * (uint64_t)((f->p.block_threads + 31) / 32);
    assert_int_equal(a.warp_insts, warps * 2000u);
    assert_int_equal(a.barriers % warps, 0);
    printf("# barriers a warp %lu (frac_barrier 0.05 of 2000)\n",
           (unsigned long)(a.barriers / warps));
    assert_int_equal(a.barriers / warps, lround(0.05 * 2000));
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_memory_equal(&a, &f->st, sizeof a);
    f->p.frac_barrier = 0.0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.barriers, 0);
    assert_int_equal(f->st.stall_barrier, 0);
}

/* Uneven warps (warp_weights): warp j runs insts_per_warp x w[j mod n] / mean(w)
 * instructions, every warp meets the same barriers (a count that is a multiple of the
 * warps, in a run that ends), frac_barrier of the mean warp's instructions, rounded,
 * long warps lengthen the run,
 * and equal weights are the even kernel bit for bit. */
static void test_uneven_warps(void **state)
{
    fixture *f = *state;
    run_barrier_kernel(f, 1000); /* the default profile's 256 threads: 8 warps a block */
    assert_int_equal(f->p.block_threads, 256);
    sm_stats even = f->st;
    f->p.n_warp_weights = 2;
    f->p.warp_weights[0] = 5.0;
    f->p.warp_weights[1] = 1.0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    sm_stats a = f->st;
    const long lng = lround(1000 * 5.0 / 3.0), shrt = lround(1000 * 1.0 / 3.0);
    assert_int_equal(a.warp_insts, 4u * (uint64_t)(4 * lng + 4 * shrt));
    assert_int_equal(a.barriers % 32, 0);
    const long mean = (4 * lng + 4 * shrt) / 8;
    printf("# uneven: %lu barriers a warp (frac_barrier 0.05 of %ld); cycles %lu (even %lu)\n",
           (unsigned long)(a.barriers / 32), mean, (unsigned long)a.cycles,
           (unsigned long)even.cycles);
    assert_int_equal(a.barriers / 32, lround(0.05 * (double)mean));
    assert_true(a.cycles > even.cycles);
    f->p.warp_weights[0] = f->p.warp_weights[1] = 2.5;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_memory_equal(&even, &f->st, sizeof even);
}

/* One program per kernel (gen.c prog_setup): the warps of a kernel run one code, so
 * every warp of every block draws the same operation class (and barrier) at each
 * position, and the kernel has its share of each class to one instruction.  A
 * pathfinder-like profile (483 instructions, 2.8 % global, 15.5 % shared, 5.5 %
 * barriers): before, each warp drew its classes on its own (global accesses a warp
 * binomial, sd 3.6 around 13.5), so one warp of a block missed between two barriers
 * while the others waited for it at the next (pathfinder SM 0 IPC 1.048 against
 * GPGPU-Sim's 1.559; docs/model.md, "One program per kernel"). */
static void test_one_program(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    f->p.insts_per_warp = 483;
    f->p.frac_mem = 0.028;
    f->p.frac_shared = 0.155;
    f->p.frac_barrier = 0.055;
    f->p.seed = 3065082020ULL;
    static sm__kernel k;
    memset(&k, 0, sizeof k);
    k.regs = f->p.regs_per_thread;
    k.insts_per_warp = f->p.insts_per_warp;
    k.warps_per_block = (f->p.block_threads + 31) / 32;
    sm__gen_setup(&k, &f->p);
    enum { L = 483 };
    uint8_t first[L];
    for (int b = 0; b < 4; b++)
        for (int j = 0; j < k.warps_per_block; j++) {
            sm__warp w;
            memset(&w, 0, sizeof w);
            sm__gen_warp(&k, &w, b, j);
            int bars = 0, global = 0, same = 0;
            for (int i = 0; i < L; i++, w.n_issued++) {
                sm__gen_next_drawn(&k, &w);
                uint8_t op = w.next.op;
                if (b == 0 && j == 0)
                    first[i] = op;
                same += op == first[i];
                bars += op == SM__OP_BAR;
                global += op == SM__OP_LD_GLOBAL || op == SM__OP_ST_GLOBAL;
            }
            assert_int_equal(same, L);
            assert_int_equal(bars, lround(0.055 * L));
            /* the non-barrier positions take the mix of the rest: global 0.028 / 0.945 */
            double expect = 0.028 / (1 - 0.055) * (L - bars);
            if (b == 0 && j == 0)
                printf("# one program: %d barriers, %d global accesses (%.1f expected)\n",
                       bars, global, expect);
            assert_true(fabs(global - expect) <= 2.0);
        }
}

/* Pending hits of a profile (sm.pending_hits, model/pending.c): one warp runs
 *   r1 <- load (misses) ; r2 <- load (hits) ; r3 <- r2 + 0
 * with l1_pending_rate = l1_hit_rate, so its hit is drawn pending.  The hit reaches the
 * LD/ST unit a cycle after the miss; with sm.pending_hits it waits for the miss's data,
 * M - 1 cycles ((M - 1) - H beyond an L1 hit), and r3's link (L + 3: issue, read,
 * dispatch, L, write) follows the miss's return, so the run takes L + 3 cycles more
 * than without, when r3 is written long before the miss returns (M > H + L + 4).  With
 * l1_pending_rate 0 nothing waits. */
static sm_stats *run_pending(fixture *f, bool on, double pend)
{
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    f->c.n_schedulers = 1;
    f->c.pending_hits = on;
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = 3;
    f->p.l1_hit_rate = 0.5;
    f->p.l1_pending_rate = pend;
    sm__inst insts[3] = {
        { .op = SM__OP_LD_GLOBAL, .unit = SM__UNIT_MEM, .dst = 1, .n_src = 1,
          .src = { 0, SM__NO_REG, SM__NO_REG }, .miss = 1 },
        { .op = SM__OP_LD_GLOBAL, .unit = SM__UNIT_MEM, .dst = 2, .n_src = 1,
          .src = { 0, SM__NO_REG, SM__NO_REG }, .miss = 0 },
        op3(SM__OP_INT, 3, 1, 2),
    };
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, insts, 3, &f->st),
                     SM_OK);
    return &f->st;
}

static void test_pending_hits_profile(void **state)
{
    fixture *f = *state;
    sm_stats off = *run_pending(f, false, 0.5);
    sm_stats on = *run_pending(f, true, 0.5);
    sm_stats none = *run_pending(f, true, 0.0);
    const uint64_t M = (uint64_t)f->c.lat_miss, H = (uint64_t)f->c.lat_l1_hit,
                   L = (uint64_t)f->c.lat_int;
    assert_true(M > H + L + 4);
    assert_int_equal(off.l1_misses, 1);
    assert_int_equal(on.l1_misses, 1);
    assert_int_equal(on.cycles, off.cycles + L + 3);
    assert_int_equal(on.pending_hits, 1);
    assert_int_equal(on.pending_cycles, M - 1 - H);
    assert_int_equal(off.pending_hits, 0);
    assert_int_equal(none.cycles, off.cycles);
    assert_int_equal(none.pending_hits, 0);
}

/* A profile's constant loads (sm.const_cache with frac_const; pending.c sm__pend_const):
 * one warp runs
 *   r1 <- const line 0 ; r2 <- const line 0 [; r3 <- r2 + 0]
 * as gen.c draws them (SM__MISS_CONST | line in the miss byte, no register source).
 * The constant cache is cold: the first load misses (an MSHR, the miss latency M), the
 * second reaches the LD/ST unit a cycle later while the fill is in flight and waits
 * for it, M - 1 cycles ((M - 1) - H beyond a hit), as a trace's ld.param does; so the
 * run is the same as a miss followed by a pending hit (run_pending, the hit drawn
 * pending: the youngest miss is the line's), L + 3 cycles longer than a miss followed
 * by a plain hit.  Made dependent (the second load reads r1), the second load issues
 * after the fill returned and hits: one miss, no wait, M - H cycles shorter than two
 * misses.  Without the cache's state both loads would miss (a nonzero miss byte). */
static sm_stats *run_const(fixture *f, uint8_t miss0, uint8_t miss1, bool dependent)
{
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    f->c.n_schedulers = 1;
    f->c.const_cache = miss0 >= SM__MISS_CONST;
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = 3;
    f->p.frac_const = 0.5; /* the drawn share: a hand-written kernel's own loads */
    f->p.const_lines = 1;
    sm__inst insts[3] = {
        { .op = SM__OP_LD_GLOBAL, .unit = SM__UNIT_MEM, .dst = 1, .n_src = 0,
          .src = { SM__NO_REG, SM__NO_REG, SM__NO_REG }, .miss = miss0 },
        { .op = SM__OP_LD_GLOBAL, .unit = SM__UNIT_MEM, .dst = 2, .n_src = dependent,
          .src = { dependent ? 1 : SM__NO_REG, SM__NO_REG, SM__NO_REG }, .miss = miss1 },
        op3(SM__OP_INT, 3, 1, 2),
    };
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, insts, 3, &f->st),
                     SM_OK);
    return &f->st;
}

static void test_const_loads_profile(void **state)
{
    fixture *f = *state;
    const uint8_t C = SM__MISS_CONST; /* line 0 */
    sm_stats cst = *run_const(f, C, C, false);
    sm_stats hit = *run_const(f, 1, 0, false); /* a miss, then a plain hit */
    const uint64_t M = (uint64_t)f->c.lat_miss, H = (uint64_t)f->c.lat_l1_hit,
                   L = (uint64_t)f->c.lat_int;
    assert_true(M > H + L + 4);
    assert_int_equal(cst.l1_misses, 1);
    assert_int_equal(cst.pending_hits, 1);
    assert_int_equal(cst.pending_cycles, M - 1 - H);
    assert_int_equal(cst.cycles, hit.cycles + L + 3);
    sm_stats dep = *run_const(f, C, C, true);
    sm_stats two = *run_const(f, 1, 1, true); /* two misses, the second after the first */
    sm_stats one = *run_const(f, 1, 0, true); /* a miss, then a hit */
    assert_int_equal(dep.l1_misses, 1);
    assert_int_equal(dep.pending_hits, 0);
    assert_int_equal(dep.cycles, one.cycles);
    assert_int_equal(two.cycles, one.cycles + M - H);
}

/* The synthetic stream's constant loads (gen.c op_table, synth): frac_const of the
 * program's positions, to two instructions (as test_one_program), global loads with no
 * register source reading one of const_lines lines; taken from the integer ALU share,
 * so the other classes keep theirs.  Run on one SM with no other global access, the
 * cold constant cache misses once per line, exactly const_lines times; without
 * sm.const_cache the keys are not read (no misses, the same cycles as frac_const 0). */
static void test_const_loads_drawn(void **state)
{
    fixture *f = *state;
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.insts_per_warp = 400;
    f->p.frac_mem = 0;
    f->p.frac_const = 0.1;
    f->p.const_lines = 3;
    static sm__kernel k;
    memset(&k, 0, sizeof k);
    k.regs = f->p.regs_per_thread;
    k.insts_per_warp = f->p.insts_per_warp;
    k.warps_per_block = 1;
    k.cprof_frac = f->p.frac_const; /* as pending.c sets them under const_cache */
    k.cprof_lines = 3;
    sm__gen_setup(&k, &f->p);
    sm__warp w;
    memset(&w, 0, sizeof w);
    sm__gen_warp(&k, &w, 0, 0);
    int n_const = 0, lines[3] = { 0 }, sfu = 0;
    for (int i = 0; i < 400; i++, w.n_issued++) {
        sm__gen_next_drawn(&k, &w);
        sfu += w.next.op == SM__OP_SFU;
        if (w.next.op != SM__OP_LD_GLOBAL)
            continue;
        assert_true(w.next.miss >= SM__MISS_CONST); /* frac_mem 0: only constant loads */
        assert_int_equal(w.next.n_src, 0);
        lines[w.next.miss & 0x7f]++;
        n_const++;
    }
    printf("# constant loads %d of 400 (lines %d %d %d), SFU %d\n", n_const, lines[0], lines[1],
           lines[2], sfu);
    assert_true(abs(n_const - 40) <= 2);
    assert_true(abs(sfu - (int)lround(f->p.frac_sfu * 400)) <= 2);
    for (int l = 0; l < 3; l++)
        assert_true(lines[l] > 0);

    sm_stats on, off, none;
    f->c.const_cache = true;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 1, &on), SM_OK);
    f->c.const_cache = false;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 1, &off), SM_OK);
    f->p.frac_const = 0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 1, &none), SM_OK);
    assert_int_equal(on.l1_misses, 3);
    assert_int_equal(off.l1_misses, 0);
    assert_int_equal(off.cycles, none.cycles);
    assert_true(on.cycles > off.cycles);

    /* constant loads come out of the ALU share: a share beyond it is a user error */
    char key[64], msg[256];
    sm_profile_default(&f->p);
    f->p.frac_const = 1.0 - f->p.frac_sfu - f->p.frac_mem - f->p.frac_shared;
    assert_int_equal(sm_profile_check(&f->p, &f->c, key, sizeof key, msg, sizeof msg), 0);
    f->p.frac_const += 0.01;
    assert_int_equal(sm_profile_check(&f->p, &f->c, key, sizeof key, msg, sizeof msg), -1);
    assert_string_equal(key, "frac_const");
}

/* Load-use placement (load_use_distance, shared_use_distance; gen.c lu_place): the
 * drawn stream of a profile whose global-memory instructions are all loads (no
 * barriers, which would defer a reader) puts each load's first reader exactly
 * load_use_distance instructions after it: the instructions between neither read nor
 * write its destination, the one at the distance reads it.  Counted by hand over the
 * streams of two blocks; a mean with a fraction gives floor and floor + 1 in its
 * proportion (a binomial within 4 sd).  Without the keys the drawn dependencies put
 * readers anywhere (the check that the test can fail). */
static bool lu_near_load(const sm__inst *in, int len, int i)
{
    for (int q = i - 3; q <= i + 3; q++)
        if (q != i && q >= 0 && q < len &&
            (in[q].op == SM__OP_LD_GLOBAL || in[q].op == SM__OP_LD_SHARED))
            return true;
    return false;
}

/* isolated: only loads with no other load within 3 instructions (two readers due at
 * one load, which has one source, defer one of them) */
static void lu_stream(fixture *f, int op, int len, bool isolated, int *placed, int *other,
                      int hist[8])
{
    static sm__kernel k;
    memset(&k, 0, sizeof k);
    k.regs = f->p.regs_per_thread;
    k.insts_per_warp = f->p.insts_per_warp;
    k.warps_per_block = (f->p.block_threads + 31) / 32;
    sm__gen_setup(&k, &f->p);
    static sm__inst in[400];
    *placed = *other = 0;
    for (int b = 0; b < 2; b++)
        for (int j = 0; j < k.warps_per_block; j++) {
            sm__warp w;
            memset(&w, 0, sizeof w);
            sm__gen_warp(&k, &w, b, j);
            for (int i = 0; i < len; i++, w.n_issued++) {
                sm__gen_next_drawn(&k, &w);
                in[i] = w.next;
            }
            for (int i = 0; i < len; i++) {
                if (in[i].op != op)
                    continue;
                int r = in[i].dst, d = 0; /* d: the first instruction touching r */
                for (int q = i + 1; q < len && q < i + 8 && !d; q++) {
                    bool reads = in[q].src[0] == r || in[q].src[1] == r || in[q].src[2] == r;
                    d = reads ? q - i : in[q].dst == r ? -(q - i) : 0;
                }
                if (i + 7 >= len || (isolated && lu_near_load(in, len, i)))
                    continue; /* its reader may lie past the warp's end */
                hist[d > 0 ? d : 0]++;
                *placed += d > 0;
                *other += d <= 0;
            }
        }
}

static void test_load_use_placement(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    f->p.insts_per_warp = 400;
    f->p.frac_mem = 0.2;
    f->p.store_share = 0.0;
    f->p.frac_shared = 0.0;
    f->p.frac_barrier = 0.0;
    f->p.seed = 271828;
    int placed, other, hist[8] = { 0 };
    lu_stream(f, SM__OP_LD_GLOBAL, 400, false, &placed, &other, hist); /* keys absent */
    printf("# load-use, drawn: %d loads read first at 1..7: %d %d %d %d %d %d %d, "
           "written or unread first %d\n", placed + other, hist[1], hist[2], hist[3], hist[4],
           hist[5], hist[6], hist[7], other);
    assert_true(placed + other > 500);
    assert_true(hist[3] < placed + other); /* some load's reader is elsewhere */
    f->p.load_use_distance = 3.0;
    memset(hist, 0, sizeof hist);
    lu_stream(f, SM__OP_LD_GLOBAL, 400, false, &placed, &other, hist);
    assert_int_equal(other, 0);
    assert_int_equal(hist[3], placed);
    /* shared loads, distance 1, global ones left to the draws */
    f->p.load_use_distance = 0.0;
    f->p.shared_use_distance = 1.0;
    f->p.frac_shared = 0.2;
    f->p.smem_store_share = 0.0;
    memset(hist, 0, sizeof hist);
    lu_stream(f, SM__OP_LD_SHARED, 400, false, &placed, &other, hist);
    assert_int_equal(other, 0);
    assert_int_equal(hist[1], placed);
    /* a fraction: 2.5 gives 2 and 3 half each */
    f->p.frac_shared = 0.0;
    f->p.shared_use_distance = 0.0;
    f->p.load_use_distance = 2.5;
    memset(hist, 0, sizeof hist);
    lu_stream(f, SM__OP_LD_GLOBAL, 400, true, &placed, &other, hist);
    assert_int_equal(other, 0);
    assert_int_equal(hist[2] + hist[3], placed);
    double sd = sqrt(placed * 0.25);
    printf("# load-use 2.5: %d at 2, %d at 3 (expected %.0f each, sd %.1f)\n", hist[2], hist[3],
           placed / 2.0, sd);
    assert_true(fabs(hist[3] - placed / 2.0) <= 4 * sd);
    /* in a run: a memory-bound kernel whose loads are read at once waits out each miss
     * (few loads in flight per warp); read 8 instructions later it overlaps them */
    sm_config_default(&f->c);
    sm_fixture_memory_bound(&f->p);
    f->p.store_share = 0.0;
    uint64_t cycles[2];
    const double dist[2] = { 1.0, 8.0 };
    for (int i = 0; i < 2; i++) {
        f->p.load_use_distance = dist[i];
        assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
        cycles[i] = f->st.cycles;
    }
    printf("# load-use in a run: %lu cycles at distance 1, %lu at 8\n",
           (unsigned long)cycles[0], (unsigned long)cycles[1]);
    assert_true(cycles[0] > cycles[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier_by_hand),
        cmocka_unit_test(test_fp64_latency_and_interval),
        cmocka_unit_test(test_latency_table),
        cmocka_unit_test(test_dp_on_sfu_gpgpusim),
        cmocka_unit_test(test_dep_at1),
        cmocka_unit_test(test_store_share),
        cmocka_unit_test(test_synthetic_barriers),
        cmocka_unit_test(test_uneven_warps),
        cmocka_unit_test(test_one_program),
        cmocka_unit_test(test_pending_hits_profile),
        cmocka_unit_test(test_const_loads_profile),
        cmocka_unit_test(test_const_loads_drawn),
        cmocka_unit_test(test_load_use_placement),
    };
    return cmocka_run_group_tests(tests, sm_fixture_setup, sm_fixture_teardown);
}
