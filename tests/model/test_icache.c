/* GPGPU-Sim's L1 instruction cache in the front end (sm.frontend = "gpgpusim_icache",
 * model/frontend.c; docs/model.md, "GPGPU-Sim's instruction cache"): one warp of
 * independent instructions, its stall cycles counted by hand from the cache's
 * geometry (128-byte lines of 16 eight-byte instructions, 4 sets of 4 ways) and the
 * round trips of a miss, against the same warp under sm.frontend = "gpgpusim" (whose
 * I-cache always hits). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"
#include "sm_trace.h"

#define MAX_N 544

/* A miss's round trip to a line in L2, by hand from the stages (bench/gpgpusim/README.md,
 * "The L2 round trip", less what only a data load pays): the request network (half the
 * interconnect latency), the ROP queue, one cycle to the L2, the line's four sectors on
 * the L2 port, the reply network (the other half) and the response FIFO's cycle. */
static int round_trip_l2(const sm_config *c)
{
    return c->mem_icnt_latency + c->mem_rop_latency + 1 + 4 * c->mem_l2_sector + 1;
}

/* The first fetch of a line on the chip also waits for DRAM: its latency queue, row
 * activate + CAS and the line's four sectors on the channel (mem_dram_clock 1 here, so
 * DRAM cycles are SM cycles). */
static int round_trip_dram(const sm_config *c)
{
    return round_trip_l2(c) + c->mem_dram_latency + c->mem_dram_access + 4 * c->mem_dram_sector;
}

static void setup_warp(fixture *f, sm_frontend fe, int n)
{
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    f->c.n_schedulers = 1;
    f->c.frontend = fe;
    f->c.mem_dram_clock = 1.0;
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = 9;
    f->p.insts_per_warp = n;
}

/* One warp running n independent integer instructions, instruction i at 8 x (i mod
 * code) (code 0: 8 x i, no loop), or, with a code walk of nw > 0 ints (triples start,
 * length, repeat: docs/workloads.md, "Code size"), where the walk places it. */
static sm_stats run_walk(fixture *f, sm_frontend fe, int n, int code, const int *walk, int nw)
{
    static sm__inst rows[MAX_N];
    for (int i = 0; i < n; i++)
        rows[i] = (sm__inst){ .op = SM__OP_INT, .dst = (uint8_t)(1 + i % 8), .n_src = 1,
                              .src = { 0, SM__NO_REG, SM__NO_REG } };
    setup_warp(f, fe, n);
    f->p.code_insts = code;
    if (nw > 0) {
        memcpy(f->p.code_walk, walk, (size_t)nw * sizeof *walk);
        f->p.n_code_walk = nw;
        char key[64], msg[256];
        assert_int_equal(sm_profile_check(&f->p, &f->c, key, sizeof key, msg, sizeof msg), 0);
    }
    assert_int_equal(sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, rows, n, &f->st),
                     SM_OK);
    assert_int_equal(f->st.warp_insts, (uint64_t)n);
    return f->st;
}

static sm_stats run_one_warp(fixture *f, sm_frontend fe, int n, int code)
{
    return run_walk(f, fe, n, code, NULL, 0);
}

/* 48 instructions in three lines, straight through: the warp fetches two at a time
 * (24 lookups); the first lookup of each line misses and, the chip never having
 * fetched it, waits for DRAM.  Its filled line goes straight to the fetch buffer, so
 * a miss costs the warp the round trip and nothing else: 3 x the DRAM round trip. */
static void test_cold_lines(void **state)
{
    fixture *f = *state;
    sm_stats hit = run_one_warp(f, SM_FRONTEND_GPGPUSIM, 48, 0);
    sm_stats ic = run_one_warp(f, SM_FRONTEND_GPGPUSIM_ICACHE, 48, 0);
    assert_int_equal(ic.cycles - hit.cycles, (uint64_t)(3 * round_trip_dram(&f->c)));
    assert_int_equal(ic.icache_accesses, 24);
    assert_int_equal(ic.icache_misses, 3);
    assert_int_equal(hit.icache_accesses, 0); /* counted only with the cache */
}

/* A loop over 272 instructions (17 lines, 2176 bytes) run twice: the first pass misses
 * all 17 (DRAM); in the second, sets 1-3 still hold their 4 lines, but set 0 had 5
 * (lines 0, 4, 8, 12, 16) for its 4 ways, so LRU evicts each before its reuse: 5
 * misses, now in L2. */
static void test_loop_thrashes_one_set(void **state)
{
    fixture *f = *state;
    sm_stats hit = run_one_warp(f, SM_FRONTEND_GPGPUSIM, 544, 272);
    sm_stats ic = run_one_warp(f, SM_FRONTEND_GPGPUSIM_ICACHE, 544, 272);
    assert_int_equal(ic.icache_misses, 17 + 5);
    assert_int_equal(ic.cycles - hit.cycles,
                     (uint64_t)(17 * round_trip_dram(&f->c) + 5 * round_trip_l2(&f->c)));
    /* 256 instructions (2 KB, four lines a set) fit: the second pass hits throughout */
    ic = run_one_warp(f, SM_FRONTEND_GPGPUSIM_ICACHE, 512, 256);
    hit = run_one_warp(f, SM_FRONTEND_GPGPUSIM, 512, 256);
    assert_int_equal(ic.icache_misses, 16);
    assert_int_equal(ic.cycles - hit.cycles, (uint64_t)(16 * round_trip_dram(&f->c)));
}

/* A trace's own PCs, not positions: 48 instructions of a loop of 8 (PCs 0..56) are
 * one line, one miss, where positions would make three. */
static void test_trace_pcs(void **state)
{
    fixture *f = *state;
    enum { N = 48 };
    sm_trace_inst insts[N];
    for (int i = 0; i < N; i++)
        insts[i] = (sm_trace_inst){ .mask = UINT32_MAX, .op = SM_TRACE_INT,
                                    .dst = (uint8_t)(1 + i % 8), .n_src = 1,
                                    .src = { 0, SM_TRACE_NO_REG, SM_TRACE_NO_REG },
                                    .smem_ways = 1, .reqs = 1, .pc = (uint32_t)(8 * (i % 8)) };
    const uint64_t first[2] = { 0, N };
    sm_trace tr = { .n_blocks = 1, .warps_per_block = 1, .regs = 9, .first = first,
                    .insts = insts, .hash = 1 };
    setup_warp(f, SM_FRONTEND_GPGPUSIM, N);
    f->p.trace_stream = &tr;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 1, &f->st), SM_OK);
    sm_stats hit = f->st;
    f->c.frontend = SM_FRONTEND_GPGPUSIM_ICACHE;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 1, &f->st), SM_OK);
    assert_int_equal(f->st.warp_insts, N);
    assert_int_equal(f->st.icache_misses, 1);
    assert_int_equal(f->st.cycles - hit.cycles, (uint64_t)round_trip_dram(&f->c));
}

/* A kernel of 272 instructions whose warp loops in one line (instructions 32-47, line
 * 2): 544 instructions miss once, where the layout i mod 272 misses 17 + 5 times
 * (test_loop_thrashes_one_set).  Then a walk over the five lines of set 0 (0, 4, 8,
 * 12, 16), the first run twice, twice over (192 instructions): the first pass misses
 * each line once (line 0's second run hits), and since five lines take turns in four
 * ways, LRU has evicted each before the second pass needs it: 5 more misses, in L2. */
static void test_code_walk(void **state)
{
    fixture *f = *state;
    const int one_line[] = { 32, 16, 1 };
    sm_stats hit = run_walk(f, SM_FRONTEND_GPGPUSIM, 544, 272, one_line, 3);
    sm_stats ic = run_walk(f, SM_FRONTEND_GPGPUSIM_ICACHE, 544, 272, one_line, 3);
    assert_int_equal(ic.icache_misses, 1);
    assert_int_equal(ic.cycles - hit.cycles, (uint64_t)round_trip_dram(&f->c));
    sm_stats plain = run_walk(f, SM_FRONTEND_GPGPUSIM_ICACHE, 544, 272, one_line, 0);
    assert_int_equal(plain.icache_misses, 17 + 5);

    const int set0[] = { 0, 16, 2, 64, 16, 1, 128, 16, 1, 192, 16, 1, 256, 16, 1 };
    hit = run_walk(f, SM_FRONTEND_GPGPUSIM, 192, 272, set0, 15);
    ic = run_walk(f, SM_FRONTEND_GPGPUSIM_ICACHE, 192, 272, set0, 15);
    assert_int_equal(ic.icache_misses, 5 + 5);
    assert_int_equal(ic.cycles - hit.cycles,
                     (uint64_t)(5 * round_trip_dram(&f->c) + 5 * round_trip_l2(&f->c)));
}

/* A walk that is not whole triples, has a zero length or repeat, or leaves the code
 * is a user error naming code_walk. */
static void test_code_walk_checked(void **state)
{
    fixture *f = *state;
    char key[64], msg[256];
    static const struct { int n, w[3], code; } bad[] = {
        { 2, { 0, 16 }, 0 }, { 3, { 0, 0, 1 }, 0 }, { 3, { 0, 16, 0 }, 0 }, { 3, { 8, 16, 1 }, 20 },
    };
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
        setup_warp(f, SM_FRONTEND_GPGPUSIM_ICACHE, 32);
        f->p.code_insts = bad[b].code;
        memcpy(f->p.code_walk, bad[b].w, sizeof bad[b].w);
        f->p.n_code_walk = bad[b].n;
        key[0] = 0;
        assert_int_equal(sm_profile_check(&f->p, &f->c, key, sizeof key, msg, sizeof msg), -1);
        assert_string_equal(key, "code_walk");
    }
    f->p.code_insts = 24; /* instructions 8..23 are within 24 */
    assert_int_equal(sm_profile_check(&f->p, &f->c, key, sizeof key, msg, sizeof msg), 0);
}

/* Two warps of one scheduler on the same code: the second's miss on a line the first
 * is already fetching merges into its MSHR (counted as a miss, as GPGPU-Sim counts
 * it) instead of sending another request; and a synthetic kernel with many warps
 * runs its instructions, never faster than with an always-hitting cache. */
static void test_many_warps(void **state)
{
    fixture *f = *state;
    sm_profile_default(&f->p);
    sm_config_default(&f->c);
    f->c.frontend = SM_FRONTEND_GPGPUSIM;
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    sm_stats hit = f->st;
    f->c.frontend = SM_FRONTEND_GPGPUSIM_ICACHE;
    f->p.code_insts = 64; /* four lines: the first pass of each block's warps misses */
    assert_int_equal(sm_sim_run(f->sim, &f->c, &f->p, &f->t, &f->map, 0, 15, &f->st), SM_OK);
    assert_int_equal(f->st.warp_insts, hit.warp_insts);
    assert_true(f->st.cycles > hit.cycles);
    /* each line misses at least once; at most once per warp resident at the start
     * (merged while it is fetched): the lines stay for the blocks after (GPGPU-Sim
     * never invalidates its L1I) */
    uint64_t warps0 = f->st.resident_blocks * (uint64_t)((f->p.block_threads + 31) / 32);
    assert_true(f->st.icache_misses >= 4);
    assert_true(f->st.icache_misses <= 4 * warps0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cold_lines),
        cmocka_unit_test(test_loop_thrashes_one_set),
        cmocka_unit_test(test_trace_pcs),
        cmocka_unit_test(test_code_walk),
        cmocka_unit_test(test_code_walk_checked),
        cmocka_unit_test(test_many_warps),
    };
    return cmocka_run_group_tests(tests, sm_fixture_setup, sm_fixture_teardown);
}
