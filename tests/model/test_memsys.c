/* Issue 27 items 2, 4 and 5 (docs/model.md, "A memory system with bandwidth", "Shared
 * memory", "Launches"): closed forms and hand counts.
 *  - a DRAM-bound stream of misses leaves the SM at the channel's bytes per cycle;
 *  - an isolated miss takes the unloaded latency summed from the configuration, and a
 *    second one right behind it waits the channel time of every SM sharing it;
 *  - a shared access of conflict degree d holds the LD/ST pipeline d cycles;
 *  - shared memory per block limits the blocks per SM;
 *  - launches: SM 0's share of nw's 63 launches, and a dependent launch sequence takes
 *    the sum of its launches' times. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

static void reset(fixture *f)
{
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    sm_technique_default(&f->t);
}

/* The simulator driven by hand (sm__memsys_* calls), at cycle 0 with zeroed statistics
 * and f's configuration. */
static sm_sim *direct(fixture *f)
{
    sm_sim *s = f->sim;
    memset(&f->st, 0, sizeof f->st);
    s->c = &f->c;
    s->st = &f->st;
    s->now = 0;
    return s;
}

/* Defaults with sm.memory = "partitions" through one channel of one sub-partition,
 * driven by hand. */
static sm_sim *one_channel(fixture *f)
{
    reset(f);
    f->c.memory = SM_MEMORY_PARTITIONS;
    f->c.mem_channels = 1;
    f->c.mem_subparts = 1;
    return direct(f);
}

/* Defaults with sm.memory = "partitions" and one block of one warp (4 registers)
 * running `insts` instructions: an isolated warp's latencies. */
static void one_warp(fixture *f, int insts)
{
    reset(f);
    f->c.memory = SM_MEMORY_PARTITIONS;
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = insts;
}

static sm__inst load(uint8_t op, uint8_t dst, bool miss, uint8_t ways)
{
    sm__inst in = { .op = op, .unit = SM__UNIT_MEM, .dst = dst, .n_src = 1,
                    .src = { 0, SM__NO_REG, SM__NO_REG }, .miss = miss, .smem_ways = ways };
    return in;
}

static sm_stats *run_micro(fixture *f, const sm__inst *insts, int n)
{
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, insts, n, &f->st),
                     SM_OK);
    return &f->st;
}

/* 8 warps x 64 independent missing loads (16 destinations in turn) through one DRAM
 * channel of one sub-partition whose sector takes 20 DRAM cycles: a line (4 sectors)
 * holds it 80 / 1.32 = 60.606 SM cycles, far longer than the LD/ST unit's 1 cycle per
 * load, so the channel is busy from the first request to the last: the last request
 * starts 511 x 60.606 after the first and returns its unloaded DRAM latency later.
 * Unloaded DRAM latency: the L2 round trip 177 (test_unloaded_latency), + the DRAM
 * latency queue's 100 SM cycles + 24 / 1.32 + 60.606 = 355.79.  The run ends a few
 * cycles after (issue, operand read, write-back): 511 x 60.606 + 355.79 = 31325.5,
 * within 10 cycles. */
static void test_dram_bound_stream(void **state)
{
    fixture *f = *state;
    reset(f);
    f->c.memory = SM_MEMORY_PARTITIONS;
    f->c.mem_channels = 1;
    f->c.mem_subparts = 1;
    f->c.mem_dram_sector = 20;
    f->c.max_misses = 256;
    f->p.grid_blocks = 1;
    f->p.block_threads = 256;
    f->p.regs_per_thread = 17;
    f->p.insts_per_warp = 64;
    sm__inst insts[16];
    for (int i = 0; i < 16; i++)
        insts[i] = load(SM__OP_LD_GLOBAL, (uint8_t)(i + 1), true, 1);
    sm_stats *st = run_micro(f, insts, 16);
    assert_int_equal(st->l1_misses, 512);
    assert_int_equal(st->mem_dram_requests, 512);
    double line = 80 / (924.0 / 700.0), expect = 511 * line + 177 + 100 + 24 / (924.0 / 700.0) + line;
    printf("# DRAM-bound stream: %llu cycles, closed form %.1f; %.3f bytes/cycle, channel %.3f\n",
           (unsigned long long)st->cycles, expect, 512 * 128.0 / (double)st->cycles, 128 / line);
    assert_true(st->cycles >= expect && st->cycles <= expect + 10);
}

/* The same loads, one SM, default partitions: an isolated miss that hits in L2 takes
 * L1 35 + its miss queue 1 + the request's half of the interconnect 7 + ROP 120 + the
 * next L2 cycle 1 + the L2 port's 4 sectors 4 + the reply's half 7 + to the LD/ST unit
 * 1 + from the L1 fill to the write-back 1 = 177 cycles (each stage's source in
 * model/memsys.c); to DRAM 177 + 100 + 24 / 1.32 + 8 / 1.32 = 301.24, 302 cycles. */
static void test_unloaded_latency(void **state)
{
    fixture *f = *state;
    one_warp(f, 1);
    sm__inst one = load(SM__OP_LD_GLOBAL, 1, true, 1);
    assert_int_equal(run_micro(f, &one, 1)->mem_miss_cycles, 302);
    assert_int_equal(f->st.mem_queue_cycles, 0);
    f->p.l2_hit_rate = 1.0;
    assert_int_equal(run_micro(f, &one, 1)->mem_miss_cycles, 177);
    assert_int_equal(f->st.mem_dram_requests, 0);
}

/* The round trip GPGPU-Sim measures (docs/model.md, "The L2 round trip"): one thread
 * chasing pointers one line apart takes 201.0 cycles a step when every load misses L1
 * and hits L2, 59.0 when every load hits L1, so an L2 hit returns 142 cycles after an L1
 * hit would.  The same chase here: one warp's 64 loads, each addressed by the one
 * before, all missing L1 and hitting L2 against all hitting L1: 64 x (177 - 35) = 64 x
 * 142 cycles more. */
static void test_l2_round_trip(void **state)
{
    fixture *f = *state;
    one_warp(f, 64);
    f->p.l2_hit_rate = 1.0;
    uint64_t cycles[2];
    for (int miss = 0; miss < 2; miss++) {
        sm__inst chase = load(SM__OP_LD_GLOBAL, 1, miss, 1);
        chase.src[0] = 1;
        cycles[miss] = run_micro(f, &chase, 1)->cycles;
    }
    printf("# chase of 64 loads: %llu cycles through L2, %llu through L1\n",
           (unsigned long long)cycles[1], (unsigned long long)cycles[0]);
    assert_int_equal(cycles[1] - cycles[0], 64 * 142);
}

/* Two requests sent in the same cycle to one sub-partition of one channel, with n SMs
 * sharing it: the second waits for the L2 port (n x 4 cycles after the first began)
 * and then for the channel (n x 6.06 after the first began there, 4 cycles after the
 * port): its wait is n x 6.06 in all, so its latency is 301.24 + n x 6.06, rounded up:
 * 308 alone, 393 among 15 SMs.  Two L2 hits: the second waits for the port alone. */
static void test_share_of_the_channel(void **state)
{
    fixture *f = *state;
    sm_sim *s = one_channel(f);
    const int n[2] = { 1, 15 }, expect[2] = { 308, 393 };
    for (int i = 0; i < 2; i++) {
        sm__memsys_setup(s, &f->p, n[i]);
        assert_int_equal(sm__memsys_load(s), 302);
        assert_int_equal(sm__memsys_load(s), expect[i]);
    }
    /* both hit in L2: the second waits for the port alone, n x 4: 181, 237 */
    f->p.l2_hit_rate = 1.0;
    const int hit[2] = { 181, 237 };
    for (int i = 0; i < 2; i++) {
        sm__memsys_setup(s, &f->p, n[i]);
        assert_int_equal(sm__memsys_load(s), 177);
        assert_int_equal(sm__memsys_load(s), hit[i]);
    }
}

/* One block of 8 warps, each 32 independent shared loads: the LD/ST pipeline is the
 * bottleneck even at degree 1 (285 cycles for 256 loads), so a degree-d access holds it
 * d cycles and the last result comes d - 1 cycles later: degree 4 takes 3 x 256 cycles
 * more than degree 1, 2 x 256 more than degree 2; the conflict cycles are (d - 1) per
 * access. */
static void test_conflict_degree(void **state)
{
    fixture *f = *state;
    reset(f);
    f->p.grid_blocks = 1;
    f->p.block_threads = 256;
    f->p.regs_per_thread = 17;
    f->p.insts_per_warp = 32;
    sm__inst insts[16];
    uint64_t cycles[5] = { 0 };
    for (int d = 1; d <= 4; d *= 2) {
        for (int i = 0; i < 16; i++)
            insts[i] = load(SM__OP_LD_SHARED, (uint8_t)(i + 1), false, (uint8_t)d);
        sm_stats *st = run_micro(f, insts, 16);
        cycles[d] = st->cycles;
        assert_int_equal(st->smem_conflict_cycles, 256u * (unsigned)(d - 1));
    }
    printf("# 256 shared loads: %llu cycles at degree 1, %llu at 2, %llu at 4\n",
           (unsigned long long)cycles[1], (unsigned long long)cycles[2],
           (unsigned long long)cycles[4]);
    assert_int_equal(cycles[4] - cycles[2], 2 * 256);
    assert_int_equal(cycles[4] - cycles[1], 3 * 256); /* 4 cycles an access, not 1 */
    assert_true(cycles[4] >= 4 * 256);
}

/* 48 KB of shared memory per SM: blocks of 20000 bytes fit two at a time. */
static void test_shared_capacity(void **state)
{
    fixture *f = *state;
    reset(f);
    f->p.insts_per_warp = 50;
    f->p.block_threads = 128;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.resident_blocks, 8);
    f->p.smem_bytes = 20000;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.resident_blocks, 2);
}

/* nw (512 x 512, 16 x 16 blocks): launches of 1, 2, ..., 32 blocks, then 31, ..., 1.
 * Round-robin from SM 0 over 15 SMs: SM 0 gets 1 block of a launch of 1-15 blocks, 2 of
 * 16-30 and 3 of 31-32: (15 + 30 + 6) + (3 + 30 + 15) = 99; SM 14 gets 1 of 15-29 and
 * 2 of 30-32: (15 + 6) + (4 + 15) = 40. */
static void test_nw_shares(void **state)
{
    fixture *f = *state;
    reset(f);
    f->p.block_threads = 16;
    f->p.n_launches = 63;
    for (int l = 0; l < 63; l++)
        f->p.launch_blocks[l] = l < 32 ? l + 1 : 63 - l;
    assert_int_equal(sm_sim_share(&f->c, &f->p, 0, 15), 99);
    assert_int_equal(sm_sim_share(&f->c, &f->p, 14, 15), 40);
}

/* A dependent sequence of a 1-block and a 2-block launch takes exactly the time of the
 * two launches run alone (the second launches in the cycle the first's block retires,
 * and issues from the next, as a kernel's first blocks from cycle 0); independent
 * launches run as one launch of 3 blocks. */
static void test_dependent_launches(void **state)
{
    fixture *f = *state;
    reset(f);
    f->p.block_threads = 64;
    f->p.regs_per_thread = 4;
    f->p.insts_per_warp = 20;
    sm__inst chain = { .op = SM__OP_INT_DIV, .unit = SM__UNIT_SP, .dst = 1, .n_src = 1,
                       .src = { 1, SM__NO_REG, SM__NO_REG } };
    uint64_t alone[4];
    for (int b = 1; b <= 3; b++) {
        f->p.grid_blocks = b;
        alone[b] = run_micro(f, &chain, 1)->cycles;
    }
    f->p.grid_blocks = 3;
    f->p.n_launches = 2;
    f->p.launch_blocks[0] = 1;
    f->p.launch_blocks[1] = 2;
    uint64_t dep = run_micro(f, &chain, 1)->cycles;
    f->p.launch_dependent = false;
    uint64_t indep = run_micro(f, &chain, 1)->cycles;
    printf("# launches 1 + 2 blocks: %llu cycles dependent (alone %llu + %llu), %llu "
           "independent (3 blocks %llu)\n", (unsigned long long)dep,
           (unsigned long long)alone[1], (unsigned long long)alone[2],
           (unsigned long long)indep, (unsigned long long)alone[3]);
    assert_int_equal(dep, alone[1] + alone[2]);
    assert_int_equal(indep, alone[3]);
    assert_true(dep > indep);
}

/* The synthetic stream: smem_ways 2.5 gives each shared access 2 or 3 cycles, so the
 * conflict cycles average 1.5 per shared access (binomial: 4 sigma of 0.5 / sqrt(n));
 * with 10 % atomics of 4 lanes, 0.9 x 1.5 + 0.1 x 7 = 2.05. */
static void test_synthetic_degree(void **state)
{
    fixture *f = *state;
    reset(f);
    f->p.frac_shared = 0.3;
    f->p.smem_ways = 2.5;
    f->p.insts_per_warp = 2000;
    const double mean[2] = { 1.5, 0.9 * 1.5 + 0.1 * 7 }, sd[2] = { 0.5, 1.7 };
    for (int a = 0; a < 2; a++) {
        f->p.frac_atomic = a ? 0.1 : 0.0;
        f->p.atomic_ways = 4;
        assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
        double n = 0.3 * (double)f->st.warp_insts, got = (double)f->st.smem_conflict_cycles / n;
        printf("# conflict cycles per shared access %.3f (expected %.3f)\n", got, mean[a]);
        assert_true(fabs(got - mean[a]) < 4 * sd[a] / sqrt(n) + 0.02); /* 0.02: the share */
    }
    f->p.smem_ways = 1.0;
    f->p.frac_atomic = 0.0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.smem_conflict_cycles, 0);
}

/* A memory-bound synthetic kernel through the partitions: every L1 miss and every
 * store is a request to L2; with l2_hit_rate 0 each goes on to DRAM. */
static void test_synthetic_partitions(void **state)
{
    fixture *f = *state;
    reset(f);
    sm_fixture_memory_bound(&f->p);
    f->c.memory = SM_MEMORY_PARTITIONS;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    sm_stats part = f->st;
    assert_true(part.mem_l2_requests > part.l1_misses);
    assert_int_equal(part.mem_dram_requests, part.mem_l2_requests);
    assert_true(part.mem_miss_cycles >= 302 * part.l1_misses);
    f->c.memory = SM_MEMORY_FIXED;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.l1_misses, part.l1_misses); /* the same loads miss L1 */
    assert_int_equal(f->st.mem_l2_requests, 0);
}

/* The measured traffic (line_requests, store_sectors, store_dram) is partitions': a
 * missing load sends line_requests line requests (3: three per missing load exactly),
 * a store store_sectors one-sector requests (2 against 1: twice the requests, the same
 * stores), store_dram of them on to DRAM (0: none, loads hitting L2; 1: all); with
 * sm.memory = "fixed" the keys change nothing, statistic for statistic. */
static void test_measured_traffic(void **state)
{
    fixture *f = *state;
    reset(f);
    sm_fixture_memory_bound(&f->p);
    f->c.memory = SM_MEMORY_PARTITIONS;
    f->p.l2_hit_rate = 1.0;
    f->p.line_requests = 3.0;
    f->p.store_sectors = 1.0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    sm_stats one = f->st;
    assert_true(one.l1_misses > 100);
    assert_int_equal(one.mem_load_requests, 3 * one.l1_misses);
    assert_int_equal(one.mem_dram_requests, 0);
    uint64_t stores = one.mem_l2_requests - one.mem_load_requests;
    assert_true(stores > 100);
    f->p.store_sectors = 2.0;
    f->p.store_dram = 1.0;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.mem_l2_requests - f->st.mem_load_requests, 2 * stores);
    assert_int_equal(f->st.mem_dram_requests, 2 * stores);
    f->c.memory = SM_MEMORY_FIXED;
    f->p.dram_eff = 0.5;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    sm_stats keys = f->st;
    f->p.line_requests = f->p.store_sectors = f->p.store_dram = 0;
    f->p.dram_eff = 1;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_memory_equal(&keys, &f->st, sizeof keys);
}

/* One SM, one channel: two requests sent together, the second waits for the first's
 * channel time, 6.06 / dram_eff: 308 cycles at 1 (301.24 + 6.06), 314 at 0.5
 * (301.24 + 12.12). */
static void test_dram_efficiency(void **state)
{
    fixture *f = *state;
    sm_sim *s = one_channel(f);
    const double eff[2] = { 1.0, 0.5 };
    const int expect[2] = { 308, 314 };
    for (int i = 0; i < 2; i++) {
        f->p.dram_eff = eff[i];
        sm__memsys_setup(s, &f->p, 1);
        assert_int_equal(sm__memsys_load(s), 302);
        assert_int_equal(sm__memsys_load(s), expect[i]);
    }
}

/* This SM's interconnect ports: with an L2 port that takes no time (mem_l2_sector 0)
 * two L2 hits sent together reach the SM together, 173 cycles after dispatch (177 less
 * the port's 4); the second's request leaves the injection port a cycle after the
 * first's (one flit each) and its 4 reply flits (136 bytes) wait behind the first's at
 * the ejection port: 173 + 4 = 177. */
static void test_sm_ports(void **state)
{
    fixture *f = *state;
    reset(f);
    f->c.memory = SM_MEMORY_PARTITIONS;
    f->c.mem_l2_sector = 0;
    f->p.l2_hit_rate = 1.0;
    sm_sim *s = direct(f);
    sm__memsys_setup(s, &f->p, 15);
    assert_int_equal(sm__memsys_load(s), 173);
    assert_int_equal(sm__memsys_load(s), 177);
    assert_int_equal(sm__memsys_load(s), 181); /* and the third behind both */
    /* the waits, split: at the injection port 0 + 1 + 2 cycles; at the ejection port
     * 0, 3 (the second's reply is due a cycle after the first's, 174, and ends at 177)
     * and 6 (due at 175, after both: 181) */
    assert_int_equal(f->st.mem_l2_wait_cycles, 3);
    assert_int_equal(f->st.mem_eject_cycles, 9);
    assert_int_equal(f->st.mem_queue_cycles, 12);
    /* A one-sector store that goes on to DRAM, then a load, sent together: the store's
     * one flit leaves first, the L2 acknowledges it (a write-back L2) and its one-flit
     * acknowledgement ends at 173, in slot 172; the load's request leaves a cycle
     * later, its reply's flits (174: slots 170-173) step around slot 172 and end at
     * 175, not 174 as with the acknowledgement sent from DRAM. */
    f->p.store_sectors = 1.0;
    f->p.store_dram = 1.0;
    sm__memsys_setup(s, &f->p, 15);
    sm__memsys_store(s);
    assert_int_equal(f->st.mem_dram_requests, 1);
    assert_int_equal(sm__memsys_load(s), 175);
}

/* The SMs sharing the servers, weighted by resident blocks: pathfinder's 93 blocks
 * of 6 resident on 15 SMs give SMs 0-2 seven, the others six; with f of SM 0's
 * blocks finished the sharers are (3 x min(6, 7 - f) + 12 x min(6, 6 - f)) /
 * min(6, 7 - f): 15 at f = 0, 13 at f = 1, 3 at f = 6 (the tail). */
static void test_sharers_by_blocks(void **state)
{
    fixture *f = *state;
    reset(f);
    f->c.memory = SM_MEMORY_PARTITIONS;
    f->p.grid_blocks = 93;
    sm_sim *s = f->sim;
    s->c = &f->c;
    s->st = &f->st;
    s->now = 0;
    sm__memsys_setup(s, &f->p, 15);
    s->mem.prof = &f->p;
    s->mem.chip_sms = 15;
    s->mem.sm_index = 0;
    s->k.resident = 6;
    s->launch = 0;
    const int done[3] = { 0, 1, 6 };
    const double n[3] = { 15, 13, 3 };
    for (int i = 0; i < 3; i++) {
        s->blocks_done = done[i];
        sm__memsys_blocks(s);
        assert_true(fabs(s->mem.l2_share / s->mem.l2_time - n[i]) < 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_bound_stream),
        cmocka_unit_test(test_unloaded_latency),
        cmocka_unit_test(test_l2_round_trip),
        cmocka_unit_test(test_share_of_the_channel),
        cmocka_unit_test(test_conflict_degree),
        cmocka_unit_test(test_shared_capacity),
        cmocka_unit_test(test_nw_shares),
        cmocka_unit_test(test_dependent_launches),
        cmocka_unit_test(test_synthetic_degree),
        cmocka_unit_test(test_synthetic_partitions),
        cmocka_unit_test(test_measured_traffic),
        cmocka_unit_test(test_dram_efficiency),
        cmocka_unit_test(test_sm_ports),
        cmocka_unit_test(test_sharers_by_blocks),
    };
    return cmocka_run_group_tests(tests, sm_fixture_setup, sm_fixture_teardown);
}
