/* Memory hazards and replay (model/mem_hazard.c, replay.c, predict.c; docs/replay.md):
 * a micro-kernel checked by hand, the hazard model's stall path against the default
 * LD/ST unit, and the replay invariants on synthetic memory-bound kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

/* Warps A, B, C, one per block (so block_cycles sums their lifetimes), one scheduler,
 * one MSHR; each runs one load r1 <- [r0] (r0 of warp w in bank w: no conflicts).  A
 * and B miss, C hits.  Timing as in test_sm.c: issue t, read t+1, dispatch t+2,
 * result t+2+lat, write granted at t+3+lat, a block's life ends a cycle later.
 * A issues at 0, B at 1, C at 2 (A's LD/ST collector frees at its dispatch at 2).
 *
 * stall: A dispatches at 2 and holds the MSHR until its result at 452.  B (ready at
 *   3) meets MSHR full and holds the in-order LD/ST stage, C (ready at 4) waits
 *   behind it.  At 452 the MSHR frees: B dispatches at 452 (written 903), C at 453
 *   (result 488, written 489).  Lives: A 454, B 904, C 490; cycles 904; B's stage
 *   held 3..451: 449 MSHR stall cycles.
 * replay: B is squashed at 3 (its collector freed), C dispatches at 4 and is written
 *   at 4 + 35 + 1 = 40 (life 41: the hit latency).  B, now predicted to miss, waits
 *   for the naive tracker until the MSHR frees at 452, re-issues then (re-reading
 *   r0), dispatches at 454 and is written at 905.  Lives 454, 906, 41; cycles 906. */
static void run_abc(fixture *f)
{
    static const sm__inst prog[3] = { { .op = SM__OP_LD_GLOBAL, .dst = 1, .n_src = 1, .miss = 1 },
                                      { .op = SM__OP_LD_GLOBAL, .dst = 1, .n_src = 1, .miss = 1 },
                                      { .op = SM__OP_LD_GLOBAL, .dst = 1, .n_src = 1, .miss = 0 } };
    f->c.n_schedulers = 1;
    f->c.max_misses = 1;
    f->p.grid_blocks = 3;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 2;
    f->p.insts_per_warp = 1;
    f->sim->k.micro_rows = true;
    int rc = sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, prog, 3, &f->st);
    assert_int_equal(rc, SM_OK);
    assert_int_equal(f->st.warp_insts, 3);
}

static void test_hand_checked_one_mshr(void **state)
{
    fixture *f = *state;
    run_abc(f);
    assert_int_equal(f->st.cycles, 904);
    assert_int_equal(f->st.block_cycles, 454 + 904 + 490);
    assert_int_equal(f->st.mshr_stalls, 449);
    assert_int_equal(f->st.reads, 3);
    f->c.mem_hazard = SM_HAZARD_REPLAY;
    f->c.mshr_tracker = SM_TRACKER_NAIVE;
    run_abc(f);
    assert_int_equal(f->st.cycles, 906);
    assert_int_equal(f->st.block_cycles, 454 + 906 + 41);
    assert_int_equal(f->st.replays_mshr, 1);
    assert_int_equal(f->st.replay_issues, 1);
    assert_int_equal(f->st.replay_reads, 1);
    assert_int_equal(f->st.reads, 4); /* the replay's re-read is a register read */
    assert_int_equal(f->st.mshr_stalls, 0);
    /* the credit tracker reserves the freed MSHR at 452: the same timing */
    f->c.mshr_tracker = SM_TRACKER_CREDIT;
    run_abc(f);
    assert_int_equal(f->st.cycles, 906);
    assert_int_equal(f->st.block_cycles, 454 + 906 + 41);
}

static const sm_stats *zero_hazard_stats(sm_stats *st)
{
    st->mem_requests = st->mem_stall_queue = st->mem_stall_divergence = 0;
    st->replays_mshr = st->replays_queue = st->replays_divergence = 0;
    st->replays_mshr_repeat = st->replay_issues = st->replay_reads = 0;
    st->replay_buffer_full = st->tracker_holds = st->predictions = 0;
    st->predictions_correct = 0;
    return st;
}

static void run(fixture *f, sm_stats *out)
{
    int rc = sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, out);
    if (rc)
        print_message("%s\n", sm_sim_diagnostic(f->sim));
    assert_int_equal(rc, SM_OK);
}

/* With defaults the hazard statistics stay zero (model_bench leaves them out of its
 * digest on that ground).  The hazard model's own LD/ST stage, switched on by a miss
 * bandwidth that one LD/ST pipeline can never exceed (a miss a cycle), gives exec.c's
 * timing and statistics bit for bit: stall is today's model. */
static void test_stall_path_is_the_default_model(void **state)
{
    fixture *f = *state;
    for (int k = 0; k < 2; k++) {
        if (k)
            sm_fixture_memory_bound(&f->p);
        sm_stats base, hz;
        run(f, &base);
        sm_stats zero = base;
        assert_memory_equal(zero_hazard_stats(&zero), &base, sizeof base);
        f->c.miss_interval = 1;
        run(f, &hz);
        f->c.miss_interval = 0;
        assert_int_equal(hz.mem_requests, base.l1_misses ? hz.mem_requests : 0);
        assert_true(hz.mem_requests > 0);
        assert_memory_equal(zero_hazard_stats(&hz), &base, sizeof base);
    }
}

static void replay_knobs(fixture *f, sm_mshr_tracker tr, sm_hit_predictor pr)
{
    f->c.collectors = SM_COLLECTORS_UNIFIED;
    f->c.mem_hazard = SM_HAZARD_REPLAY;
    f->c.mshr_tracker = tr;
    f->c.hit_predictor = pr;
}

/* Few MSHRs, so that loads meet MSHR hazards all the time.  With hit-unless-replayed,
 * a load squashed for an MSHR is predicted to miss on its replay and the credit
 * tracker reserves an MSHR for it before it re-issues: it cannot be squashed for an
 * MSHR again.  The naive tracker only looks at MSHRs free at issue, and without a
 * tracker a replay re-issues at once: both replay some loads again. */
static void test_hit_unless_replayed_replays_once_for_mshr(void **state)
{
    fixture *f = *state;
    sm_fixture_memory_bound(&f->p);
    f->c.max_misses = 4;
    replay_knobs(f, SM_TRACKER_CREDIT, SM_PREDICT_HIT_UNLESS_REPLAYED);
    run(f, &f->st);
    print_message("credit: %llu MSHR replays, %llu repeated\n",
                  (unsigned long long)f->st.replays_mshr,
                  (unsigned long long)f->st.replays_mshr_repeat);
    assert_true(f->st.replays_mshr > 1000);
    assert_int_equal(f->st.replays_mshr_repeat, 0);
    static const sm_mshr_tracker others[] = { SM_TRACKER_NAIVE, SM_TRACKER_NONE };
    for (int i = 0; i < 2; i++) {
        f->c.mshr_tracker = others[i];
        run(f, &f->st);
        print_message("tracker %d: %llu MSHR replays, %llu repeated\n", (int)others[i],
                      (unsigned long long)f->st.replays_mshr,
                      (unsigned long long)f->st.replays_mshr_repeat);
        assert_true(f->st.replays_mshr_repeat > 0);
    }
}

/* The instruction streams are the same whatever the knobs, so the reads a replay run
 * makes beyond the stalling run's are exactly its replays' re-reads, in the bank and
 * sub-bank counts too (full warps: both halves of a bank); every scheduler-cycle issues
 * an instruction, issues a replay or is charged to one stall cause. */
static void test_replay_reads_are_register_reads(void **state)
{
    fixture *f = *state;
    sm_fixture_memory_bound(&f->p);
    f->c.max_misses = 8;
    f->c.collectors = SM_COLLECTORS_UNIFIED;
    sm_stats stall;
    run(f, &stall);
    replay_knobs(f, SM_TRACKER_NONE, SM_PREDICT_HIT_UNLESS_REPLAYED);
    run(f, &f->st);
    const sm_stats *st = &f->st;
    assert_true(st->replay_reads > 0);
    assert_int_equal(st->reads, stall.reads + st->replay_reads);
    uint64_t sub = 0, sub_stall = 0;
    for (uint64_t i = 0; i < st->n_sub_banks; i++)
        sub += st->sub_reads[i], sub_stall += stall.sub_reads[i];
    assert_int_equal(sub, sub_stall + 2 * st->replay_reads);
    uint64_t stalls = st->stall_idle + st->stall_memory + st->stall_dependency +
                      st->stall_collector + st->stall_inflight;
    assert_int_equal(stalls + st->warp_insts + st->replay_issues,
                     (uint64_t)f->c.n_schedulers * st->cycles);
}

/* The oracle is always right; per-PC counters learn sites that always hit or always
 * miss (site_bias 1) nearly perfectly, far better than always-miss at a 20 % hit rate. */
static void test_predictor_accuracy(void **state)
{
    fixture *f = *state;
    sm_fixture_memory_bound(&f->p);
    f->p.load_sites = 16;
    f->p.site_bias = 1.0;
    replay_knobs(f, SM_TRACKER_CREDIT, SM_PREDICT_ORACLE);
    run(f, &f->st);
    assert_true(f->st.predictions > 0);
    assert_int_equal(f->st.predictions_correct, f->st.predictions);
    f->c.hit_predictor = SM_PREDICT_PC;
    run(f, &f->st);
    double pc = sm_stats_predictor_accuracy(&f->st);
    f->c.hit_predictor = SM_PREDICT_ALWAYS_MISS;
    run(f, &f->st);
    double miss = sm_stats_predictor_accuracy(&f->st);
    print_message("accuracy: pc %.4f, always-miss %.4f\n", pc, miss);
    assert_true(pc > 0.98);
    assert_true(miss > 0.7 && miss < 0.9);
}

/* Every global load of mem_requests = 2 sends two requests: stalling, the second holds
 * the stage a cycle; replaying, the load is squashed after the first and replayed. */
static void test_divergence_and_request_queue(void **state)
{
    fixture *f = *state;
    sm_fixture_memory_bound(&f->p);
    f->p.mem_requests = 2.0;
    run(f, &f->st);
    uint64_t loads = f->st.mem_requests / 2;
    assert_int_equal(f->st.mem_requests % 2, 0);
    assert_int_equal(f->st.mem_stall_divergence, loads);
    replay_knobs(f, SM_TRACKER_CREDIT, SM_PREDICT_HIT_UNLESS_REPLAYED);
    run(f, &f->st);
    assert_int_equal(f->st.mem_requests, 2 * loads);
    assert_int_equal(f->st.replays_divergence, loads);
    f->p.mem_requests = 1.0;
    f->c.miss_interval = 20; /* 0.05 misses a cycle: below the kernel's miss rate */
    run(f, &f->st);
    assert_true(f->st.replays_queue > 0);
    f->c.mem_hazard = SM_HAZARD_STALL;
    f->c.mshr_tracker = SM_TRACKER_NONE;
    run(f, &f->st);
    assert_true(f->st.mem_stall_queue > 0);
    assert_true(sm_stats_replay_bound(&f->st) > 1.0);
}

/* The MSHRs of a divergent load's early requests (mem_hazard.c) free when their own
 * data returns, in whatever order: with sm.memory = "partitions" latencies differ
 * (an L2 hit 169 cycles, DRAM 294, plus queues).  Held in a FIFO, a request's MSHR
 * stayed held until every request sent before it had returned. */
static void test_early_mshrs_free_out_of_order(void **state)
{
    fixture *f = *state;
    sm_sim *s = f->sim;
    s->c = &f->c;
    s->misses = 0;
    s->hz.rel_n = 0;
    s->now = 0;
    sm__hz_hold_until(s, 500); /* a DRAM request that waited in a queue */
    sm__hz_hold_until(s, 100); /* an L2 hit sent after it */
    sm__hz_hold_until(s, 300);
    assert_int_equal(s->misses, 3);
    s->now = 150;
    sm__hz_release_due(s);
    assert_int_equal(s->misses, 2); /* the L2 hit's data is back */
    s->now = 300;
    sm__hz_release_due(s);
    assert_int_equal(s->misses, 1);
    s->now = 499;
    sm__hz_release_due(s);
    assert_int_equal(s->misses, 1);
    s->now = 500;
    sm__hz_release_due(s);
    assert_int_equal(s->misses, 0);
    assert_int_equal(s->hz.rel_n, 0);
}

/* One warp, one load of 8 line requests, sm.memory = "partitions", L2 hit rate 0.5:
 * the load completes when the last of its 8 requests returns, not when the one sent
 * last does.  Over seeds (which requests hit L2), every run that sent a request to
 * DRAM lasts at least a lone DRAM request's latency (measured first, same fixture):
 * before, a load whose last request hit L2 completed about 169 cycles after it was
 * sent, with its earlier requests' data still on the way from DRAM. */
static void test_divergent_load_waits_for_every_request(void **state)
{
    fixture *f = *state;
    f->c.memory = SM_MEMORY_PARTITIONS;
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = 1;
    sm__inst one = { .op = SM__OP_LD_GLOBAL, .unit = SM__UNIT_MEM, .dst = 1, .n_src = 1,
                     .src = { 0, SM__NO_REG, SM__NO_REG }, .miss = 1, .reqs = 1 };
    f->p.l2_hit_rate = 0;
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &one, 1, &f->st),
                     SM_OK);
    uint64_t dram = f->st.mem_miss_cycles; /* a lone DRAM request, dispatch to data */
    f->p.l2_hit_rate = 0.5;
    one.reqs = 8;
    int mixed = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        f->p.seed = seed;
        assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, &one, 1, &f->st),
                         SM_OK);
        assert_int_equal(f->st.mem_load_requests, 8);
        if (f->st.mem_dram_requests == 0)
            continue;
        mixed += f->st.mem_dram_requests < 8;
        assert_true(f->st.cycles >= dram);
    }
    assert_true(mixed > 0); /* some runs mixed L2 hits and DRAM accesses */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, sm_fixture_setup, sm_fixture_teardown)
        T(test_hand_checked_one_mshr),
        T(test_stall_path_is_the_default_model),
        T(test_hit_unless_replayed_replays_once_for_mshr),
        T(test_replay_reads_are_register_reads),
        T(test_predictor_accuracy),
        T(test_divergence_and_request_queue),
        T(test_early_mshrs_free_out_of_order),
        T(test_divergent_load_waits_for_every_request),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
