/* Trace workloads (docs/traces.md, "Running a trace"): the decoder's rules on a
 * hand-written trace, a hand-written trace whose cycle count has a closed form, every
 * technique preset on both, and the sweep loader's side (shape from the header, the
 * content hash, refusals).  Reads tests/traces/ through RFDSE_SOURCE_DIR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dse_sweep.h"
#include "dse_trace.h"
#include "sm.h"

static void trace_path(const char *name, char *out, size_t n)
{
    const char *src = getenv("RFDSE_SOURCE_DIR");
    snprintf(out, n, "%s/tests/traces/%s", src ? src : ".", name);
}

static sm_trace *decode(const char *name, dse_trace_stream_info *info)
{
    char path[1024];
    trace_path(name, path, sizeof path);
    dse_trace *t = dse_trace_read(path, stderr);
    assert_non_null(t);
    sm_trace *s = dse_trace_stream_of(t, path, stderr, info);
    dse_trace_free(t);
    assert_non_null(s);
    return s;
}

/* One rule per instruction of decode.traceg (its comment lists them). */
static void test_decoder_rules(void **state)
{
    (void)state;
    dse_trace_stream_info info;
    sm_trace *s = decode("decode.traceg", &info);
    assert_int_equal(s->n_blocks, 1);
    assert_int_equal(s->warps_per_block, 1);
    assert_int_equal(s->regs, 8);
    assert_int_equal(s->first[1], 14);
    const sm_trace_inst *in = s->insts;
    assert_int_equal(in[0].op, SM_TRACE_INT_MAD); /* IMAD R1 <- R2 R3 RZ */
    assert_int_equal(in[0].dst, 1);
    assert_int_equal(in[0].n_src, 2); /* RZ is no register access */
    assert_int_equal(in[0].src[2], SM_TRACE_NO_REG);
    assert_int_equal(in[1].op, SM_TRACE_FP_MAD);
    assert_int_equal(in[1].n_src, 3); /* the fourth source is not read */
    assert_int_equal(info.extra_srcs, 1);
    assert_int_equal(in[2].op, SM_TRACE_ST_SHARED);
    assert_int_equal(in[2].dst, SM_TRACE_NO_REG);
    assert_int_equal(in[2].smem_ways, 4); /* 16-byte stride: 4 words in each of 8 banks */
    assert_int_equal(in[3].smem_ways, 1); /* broadcast */
    assert_int_equal(in[4].smem_ways, 1); /* consecutive words */
    assert_int_equal(in[5].smem_ways, 4); /* 128-bit: 128 words over 32 banks */
    assert_int_equal(in[6].op, SM_TRACE_LD_GLOBAL);
    assert_int_equal(in[6].miss, 1); /* cold */
    assert_int_equal(in[6].reqs, 1); /* 32 x 4 bytes: one 128-byte line */
    assert_int_equal(in[7].miss, 0); /* the same line again */
    assert_int_equal(in[8].op, SM_TRACE_ST_GLOBAL); /* evicts it */
    assert_int_equal(in[9].miss, 1);
    assert_int_equal(in[10].reqs, 32);
    assert_int_equal(in[10].miss, 1);
    assert_int_equal(info.global_loads, 4);
    assert_int_equal(info.l1_misses, 3);
    assert_int_equal(in[11].mask, 0x0000ffffu);
    assert_int_equal(in[12].op, SM_TRACE_CONTROL); /* EXIT */
    assert_int_equal(in[12].mask, 0);
    assert_int_equal(in[13].op, SM_TRACE_CONTROL); /* a barrier that ends its warp */
    assert_int_equal(info.last_barriers, 1);
    assert_int_equal(info.shared, 4);
    assert_int_equal(info.shared_ways, 4 + 1 + 1 + 4);
    dse_trace_stream_free(s);
}

/* A sweep of one trace workload (the default sweep's SM and floorplan otherwise). */
static dse_sweep *trace_sweep(const char *name, const char *extra)
{
    char path[1024], text[2048];
    trace_path(name, path, sizeof path);
    snprintf(text, sizeof text, "workloads = ( { name = \"t\"; trace = \"%s\"; %s } );\n", path,
             extra);
    return dse_sweep_load_string(text, "trace_test.cfg", stderr);
}

static int run_profile(const dse_sweep *s, const sm_profile *w, const sm_config *c,
                       const dse_technique *t, int slow, sm_stats *st)
{
    const var_floorplan *fp = &s->var.floorplan;
    static sm_rf_map m;
    sm_rf_map_all_fast(&m, fp->n_banks, fp->entries_per_bank, fp->sub_banks);
    if (slow)
        sm_rf_map_mark_last_slow(&m, slow);
    sm_sim *sim = sm_sim_alloc(c);
    assert_non_null(sim);
    int rc = sm_sim_run(sim, c, w, &t->ipc, &m, 0, 1, st);
    if (rc)
        fprintf(stderr, "%s: %s (%s)\n", t->name, sm_strerror(rc), sm_sim_diagnostic(sim));
    sm_sim_free(sim);
    return rc;
}

static int run(const dse_sweep *s, const sm_config *c, const dse_technique *t, int slow,
               sm_stats *st)
{
    return run_profile(s, &s->workloads[0], c, t, slow, st);
}

/* closed-form.traceg: cycles = (C - 1)(L + 3) + 2 + B (L + 3) + 1 with C = 6, B = 3 (its
 * comment derives it), for two integer latencies. */
static void test_closed_form(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("closed-form.traceg", "");
    assert_non_null(s);
    assert_int_equal(s->workloads[0].block_threads, 64);
    assert_int_equal(s->workloads[0].regs_per_thread, 4);
    dse_technique ideal;
    assert_true(dse_technique_preset("ideal", &ideal));
    static sm_stats st;
    for (int lat = 4; lat <= 9; lat += 5) {
        sm_config c = s->sm;
        c.lat_int = lat;
        assert_int_equal(run(s, &c, &ideal, 0, &st), SM_OK);
        const uint64_t C = 6, B = 3, L = (uint64_t)lat;
        assert_int_equal(st.cycles, (C - 1) * (L + 3) + 2 + B * (L + 3) + 1);
        assert_int_equal(st.warp_insts, 14);
        assert_int_equal(st.barriers, 2);
        assert_int_equal(st.thread_insts, 14 * 32);
    }
    dse_sweep_free(s);
}

/* smem-conflict.traceg: a chain of N = 4 shared loads of conflict degree 4.  With every
 * degree set to 1 a link takes lat_shared + 3 cycles; at degree 4 the result is
 * degree - 1 later (issue 27 item 2: the LD/ST pipeline is held that long). */
static void test_shared_conflict(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("smem-conflict.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    enum { N = 4 };
    assert_int_equal(tr->first[1], N);
    sm_trace_inst plain_insts[N];
    for (int i = 0; i < N; i++) {
        assert_int_equal(tr->insts[i].smem_ways, 4);
        plain_insts[i] = tr->insts[i];
        plain_insts[i].smem_ways = 1;
    }
    sm_trace plain = *tr;
    plain.insts = plain_insts;
    sm_profile w1 = s->workloads[0];
    w1.trace_stream = &plain;
    dse_technique ideal;
    dse_technique_preset("ideal", &ideal);
    static sm_stats conflict, none;
    assert_int_equal(run(s, &s->sm, &ideal, 0, &conflict), SM_OK);
    assert_int_equal(run_profile(s, &w1, &s->sm, &ideal, 0, &none), SM_OK);
    const uint64_t L = (uint64_t)s->sm.lat_shared;
    assert_int_equal(none.cycles, N * (L + 3) + 1);
    /* the model times conflicts (issue 27 item 2, docs/model.md "Shared memory") */
    assert_int_equal(conflict.cycles, N * (L + 3 + 4 - 1) + 1);
    dse_sweep_free(s);
}

/* The slice [from, to) of trace tr's first warp, as a one-warp trace of its own. */
static sm_trace slice(const sm_trace *tr, uint64_t *first, uint64_t from, uint64_t to)
{
    sm_trace v = *tr;
    first[0] = 0;
    first[1] = to - from;
    v.n_blocks = 1;
    v.first = first;
    v.insts = tr->insts + from;
    v.lines = tr->lines ? tr->lines + from : NULL; /* per instruction, as insts */
    return v;
}

/* Instructions [from, to) of the trace as one warp under the ideal technique and
 * configuration c: its statistics (static, valid until the next call). */
static const sm_stats *slice_run(const dse_sweep *s, const sm_trace *tr, uint64_t from,
                                 uint64_t to, const sm_config *c)
{
    uint64_t first[2];
    sm_trace v = slice(tr, first, from, to);
    sm_profile w = s->workloads[0];
    w.trace_stream = &v;
    dse_technique ideal;
    dse_technique_preset("ideal", &ideal);
    static sm_stats st;
    assert_int_equal(run_profile(s, &w, c, &ideal, 0, &st), SM_OK);
    return &st;
}

/* Cycles of the slice [from, to) under configuration c, every instruction of it run. */
static uint64_t counted_cycles(const dse_sweep *s, const sm_trace *tr, uint64_t from,
                               uint64_t to, const sm_config *c)
{
    const sm_stats *st = slice_run(s, tr, from, to, c);
    assert_int_equal(st->warp_insts, to - from);
    return st->cycles;
}

static uint64_t slice_cycles(const dse_sweep *s, const sm_trace *tr, uint64_t from, uint64_t to,
                             sm_latency_table table)
{
    sm_config c = s->sm;
    c.latency_table = table;
    return counted_cycles(s, tr, from, to, &c);
}

/* gsim-latency.traceg (its comment derives the counts): under sm.latency_table =
 * "gpgpusim" a PTX trace takes GPGPU-Sim 4.0's latencies and units: fma.rn.f32 at
 * latency 1, add.f64 on the one SFU pipeline at interval 8; under "rfdse" its own. */
static void test_gsim_latency(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("gsim-latency.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    assert_int_equal(tr->first[1], 8);
    assert_int_equal(tr->insts[0].gsim, SM_TRACE_G_LAT1);
    assert_int_equal(tr->insts[4].gsim, SM_TRACE_G_DP);
    const uint64_t M = 4, K = 4, Lmad = (uint64_t)s->sm.lat_fp_mad;
    assert_int_equal(slice_cycles(s, tr, 0, 4, SM_LATENCY_RFDSE), M * (Lmad + 3) + 1);
    assert_int_equal(slice_cycles(s, tr, 0, 4, SM_LATENCY_GPGPUSIM), M * (1 + 3) + 1);
    uint64_t one = slice_cycles(s, tr, 4, 5, SM_LATENCY_RFDSE);
    assert_int_equal(slice_cycles(s, tr, 4, 5, SM_LATENCY_GPGPUSIM), one);
    assert_int_equal(slice_cycles(s, tr, 4, 8, SM_LATENCY_RFDSE), one + (K / 2 - 1) * 8 + 1);
    assert_int_equal(slice_cycles(s, tr, 4, 8, SM_LATENCY_GPGPUSIM), one + (K - 1) * 8);
    dse_sweep_free(s);
}

/* sm.max_insts (GPGPU-Sim's instruction cap, per SM): the run ends in the cycle its
 * max_insts-th warp instruction issues, statistics as they stand.  On gsim-latency's
 * chain of four dependent fma (instruction i issues at i (L + 3), test_gsim_latency)
 * a cap of 2 ends after (L + 3) + 1 cycles with 2 issued, a cap of 4 after 3 (L + 3)
 * + 1 (the last issued, not yet done), where the whole chain takes 4 (L + 3) + 1. */
static void test_max_insts(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("gsim-latency.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    const uint64_t L = (uint64_t)s->sm.lat_fp_mad;
    sm_config c = s->sm;
    c.max_insts = 2;
    const sm_stats *st = slice_run(s, tr, 0, 4, &c);
    assert_int_equal(st->warp_insts, 2);
    assert_int_equal(st->cycles, (L + 3) + 1);
    c.max_insts = 4;
    st = slice_run(s, tr, 0, 4, &c);
    assert_int_equal(st->warp_insts, 4);
    assert_int_equal(st->cycles, 3 * (L + 3) + 1);
    c.max_insts = 0; /* off: the kernel's end */
    assert_int_equal(slice_run(s, tr, 0, 4, &c)->cycles, 4 * (L + 3) + 1);
    dse_sweep_free(s);
}

static uint64_t bus_cycles(const dse_sweep *s, const sm_trace *tr, uint64_t n, bool slots,
                           int buses)
{
    sm_config c = s->sm;
    c.result_slots = slots;
    c.result_buses = buses;
    return slice_run(s, tr, 0, n, &c)->cycles;
}

/* result-bus.traceg (its comment derives the counts): a mad and an add whose results
 * would leave in the same cycle; with one result bus shared by the pipelines the add's
 * leaves a cycle later, with two (GPGPU-Sim's GTX480) or none modelled it does not. */
static void test_result_buses(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("result-bus.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    assert_int_equal(tr->first[1], 2);
    uint64_t mad = bus_cycles(s, tr, 1, true, 0);
    assert_int_equal(bus_cycles(s, tr, 1, false, 0), mad);
    assert_int_equal(bus_cycles(s, tr, 2, true, 0), mad);
    assert_int_equal(bus_cycles(s, tr, 2, true, 2), mad);
    assert_int_equal(bus_cycles(s, tr, 2, true, 1), mad + 1);
    dse_sweep_free(s);
}

static uint64_t range_cycles(const dse_sweep *s, const sm_trace *tr, uint64_t from, uint64_t to)
{
    const sm_stats *st = slice_run(s, tr, from, to, &s->sm);
    assert_int_equal(st->l1_misses, 1);
    return st->cycles;
}

/* mem-requests.traceg (its comment derives it): a load's line requests leave the LD/ST
 * unit one a cycle, so a missing load of 4 lines takes 3 cycles more than one of 1. */
static void test_mem_requests(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("mem-requests.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    assert_int_equal(tr->insts[0].reqs, 1);
    assert_int_equal(tr->insts[1].reqs, 4);
    assert_int_equal(range_cycles(s, tr, 1, 2), range_cycles(s, tr, 0, 1) + 3);
    dse_sweep_free(s);
}

/* hit-lines.traceg (its comment derives it): a missing load's lines that hit the L1
 * model take no MSHR, so with one MSHR a load of a hit line and a missing line behind a
 * miss takes the cycles of a load of the missing line alone. */
static void test_hit_lines(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("hit-lines.traceg", "miss_latency = 200;");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    assert_int_equal(tr->insts[1].reqs, 2);
    assert_int_equal(tr->insts[1].miss, 2); /* a miss, one of its two lines hit */
    assert_int_equal(tr->insts[3].reqs, 1);
    assert_int_equal(tr->insts[3].miss, 1);
    sm_config c = s->sm;
    c.max_misses = 1;
    uint64_t alone = counted_cycles(s, tr, 2, 4, &c);
    assert_int_equal(slice_run(s, tr, 0, 2, &c)->l1_misses, 2);
    assert_int_equal(counted_cycles(s, tr, 0, 2, &c), alone);
    /* and the second load did wait for the MSHR: a miss latency at least */
    assert_true(alone > 2 * 200);
    dse_sweep_free(s);
}

/* store-lines.traceg (its comment derives it): a global store's line requests leave the
 * LD/ST unit one a cycle as a load's, so a load behind a 4-line store completes 3
 * cycles later than behind a 1-line store. */
static void test_store_lines(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("store-lines.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    assert_int_equal(tr->insts[0].op, SM_TRACE_ST_GLOBAL);
    assert_int_equal(tr->insts[0].reqs, 1);
    assert_int_equal(tr->insts[2].reqs, 4);
    uint64_t one = range_cycles(s, tr, 0, 2);
    const sm_stats *st = slice_run(s, tr, 2, 4, &s->sm);
    assert_int_equal(st->l1_misses, 1);
    assert_int_equal(st->cycles, one + 3);
    assert_int_equal(st->mem_stall_divergence, 3); /* the store's three further lines */
    dse_sweep_free(s);
}

/* pending.traceg (its comment derives the counts): with sm.pending_hits a load whose
 * line's fill is in flight waits for it; with sm.const_cache a trace's constant loads
 * go through a constant cache that is cold at the start and keeps what it fetched. */
static void test_pending_hits(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("pending.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    const sm_trace_lines *ln = tr->lines;
    assert_int_equal(ln[0].kind, SM_TRACE_LINES_DATA_MISS);
    assert_int_equal(ln[1].kind, SM_TRACE_LINES_DATA_HIT);
    assert_int_equal(ln[0].n, 1);
    assert_int_equal(tr->fills[ln[1].first], tr->fills[ln[0].first]); /* the same fill */
    assert_int_equal(ln[2].kind, SM_TRACE_LINES_NONE);
    assert_int_equal(ln[3].kind, SM_TRACE_LINES_CONST);
    assert_int_equal(tr->fills[ln[4].first], tr->fills[ln[3].first]); /* one 64-B line */
    assert_int_equal(tr->fills[ln[8].first], tr->fills[ln[3].first]);
    const uint64_t M = (uint64_t)s->sm.lat_miss, H = (uint64_t)s->sm.lat_l1_hit,
                   L = (uint64_t)s->sm.lat_int;
    assert_int_equal(s->workloads[0].miss_latency, 0); /* so M is the sm value */
    sm_config off = s->sm, pend = s->sm, cst = s->sm;
    pend.pending_hits = true;
    cst.const_cache = true;
    uint64_t a = range_cycles(s, tr, 0, 1);
    assert_int_equal(range_cycles(s, tr, 0, 1), a);
    assert_int_equal(slice_run(s, tr, 0, 1, &pend)->cycles, a); /* nothing to wait for */
    assert_int_equal(counted_cycles(s, tr, 0, 3, &off), a);
    const sm_stats *st = slice_run(s, tr, 0, 3, &pend);
    assert_int_equal(st->cycles, a + L + 3);
    assert_int_equal(st->pending_hits, 1);
    assert_int_equal(st->pending_cycles, M - 1 - H);
    assert_int_equal(st->l1_misses, 1); /* the pending hit sends nothing */
    /* constants: hits without the cache; with it one miss, one pending hit */
    assert_int_equal(slice_run(s, tr, 3, 6, &off)->l1_misses, 0);
    assert_int_equal(slice_run(s, tr, 3, 6, &pend)->l1_misses, 0); /* data lines only */
    /* an ld.param reads no register: a lone miss takes a cycle less than A's load */
    assert_int_equal(slice_run(s, tr, 3, 4, &cst)->cycles, a - 1);
    st = slice_run(s, tr, 3, 6, &cst);
    assert_int_equal(st->l1_misses, 1);
    assert_int_equal(st->pending_hits, 1);
    assert_int_equal(st->cycles, a - 1 + L + 3);
    uint64_t e = counted_cycles(s, tr, 6, 10, &off);
    st = slice_run(s, tr, 6, 10, &cst);
    assert_int_equal(st->l1_misses, 1);
    assert_int_equal(st->pending_hits, 0);
    assert_int_equal(st->cycles, e + M - H);
    /* a missing load reads its line in flight from that fill (its list flags it): one
     * request less to L2, with or without the option (test_hit_lines: the hit line
     * takes no MSHR), and the pending booking does not fetch it again */
    assert_int_equal(ln[11].kind, SM_TRACE_LINES_DATA_MISS);
    assert_int_equal(ln[11].n, 2);
    assert_int_equal(tr->fills[ln[11].first], tr->fills[ln[10].first] | SM_TRACE_FILL_HIT);
    off.memory = pend.memory = SM_MEMORY_PARTITIONS;
    assert_int_equal(slice_run(s, tr, 10, 12, &off)->mem_load_requests, 2);
    assert_int_equal(slice_run(s, tr, 10, 12, &pend)->mem_load_requests, 2);
    dse_sweep_free(s);
}

static uint64_t stage_cycles(const dse_sweep *s, const sm_trace *tr, uint64_t from, uint64_t to,
                             int stages)
{
    sm_config c = s->sm;
    c.oc_stages = stages;
    return counted_cycles(s, tr, from, to, &c);
}

/* div.traceg (its comment derives the counts): a PTX div takes rfdse's divide classes
 * under its own latency table (lat_fp_div, lat_int_div), as the profiles' divides do;
 * sm.oc_stages adds its cycles to every link of a dependent chain. */
static void test_divides(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("div.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    assert_int_equal(tr->insts[0].op, SM_TRACE_FP_DIV);
    assert_int_equal(tr->insts[2].op, SM_TRACE_INT_DIV);
    assert_int_equal(tr->insts[0].gsim, SM_TRACE_G_DIV);
    const uint64_t M = 2, Lf = (uint64_t)s->sm.lat_fp_div, Li = (uint64_t)s->sm.lat_int_div;
    assert_true(Lf != (uint64_t)s->sm.lat_sfu);
    assert_int_equal(stage_cycles(s, tr, 0, 2, 0), M * (Lf + 3) + 1);
    assert_int_equal(stage_cycles(s, tr, 2, 4, 0), M * (Li + 3) + 1);
    for (int S = 1; S <= 3; S++)
        assert_int_equal(stage_cycles(s, tr, 0, 2, S), M * (Lf + 3 + (uint64_t)S) + 1);
    dse_sweep_free(s);
}

/* predicate.traceg: predicates ("P<n>" tokens) decode to the scoreboard's predicate
 * entries, never to register accesses, and a guarded instruction waits for the compare
 * that writes its predicate: cycles = (M + 1)(L + 3) + 2 with M = 5 (its comment
 * derives it), for two integer latencies.  Without the predicates (the same stream with
 * them cleared, as traces were before them) the guarded adds do not wait. */
static void test_predicates(void **state)
{
    (void)state;
    dse_trace_stream_info info;
    sm_trace *d = decode("predicate.traceg", &info);
    const sm_trace_inst *in = d->insts;
    assert_int_equal(d->first[1], 7);
    assert_int_equal(in[0].op, SM_TRACE_INT); /* ISETP P0 <- R1: no register result */
    assert_int_equal(in[0].dst, SM_TRACE_NO_REG);
    assert_int_equal(in[0].pdst, 0 + 1);
    assert_int_equal(in[0].psrc[0], 0);
    assert_int_equal(in[1].dst, 1); /* @P0 IADD R1 <- R1 */
    assert_int_equal(in[1].n_src, 1);
    assert_int_equal(in[1].psrc[0], 0 + 1);
    assert_int_equal(in[2].pdst, 1 + 1);
    assert_int_equal(in[2].psrc[0], 0 + 1);
    assert_int_equal(in[5].op, SM_TRACE_CONTROL); /* @P0 BRA */
    assert_int_equal(in[5].n_src, 0);
    assert_int_equal(in[5].psrc[0], 0 + 1);
    assert_int_equal(in[6].psrc[0], 0);
    assert_int_equal(info.pred_writes, 3);
    assert_int_equal(info.pred_reads, 4);
    dse_trace_stream_free(d);

    dse_sweep *s = trace_sweep("predicate.traceg", "");
    assert_non_null(s);
    const sm_trace *tr = s->workloads[0].trace_stream;
    sm_trace_inst bare_insts[7];
    for (int i = 0; i < 7; i++) {
        bare_insts[i] = tr->insts[i];
        bare_insts[i].pdst = 0;
        memset(bare_insts[i].psrc, 0, sizeof bare_insts[i].psrc);
    }
    sm_trace bare = *tr;
    bare.insts = bare_insts;
    sm_profile w_bare = s->workloads[0];
    w_bare.trace_stream = &bare;
    dse_technique ideal;
    assert_true(dse_technique_preset("ideal", &ideal));
    static sm_stats st, st_bare;
    for (int lat = 4; lat <= 9; lat += 5) {
        sm_config c = s->sm;
        c.lat_int = lat;
        assert_int_equal(run(s, &c, &ideal, 0, &st), SM_OK);
        assert_int_equal(run_profile(s, &w_bare, &c, &ideal, 0, &st_bare), SM_OK);
        const uint64_t M = 5, L = (uint64_t)lat;
        assert_int_equal(st.cycles, (M + 1) * (L + 3) + 2);
        assert_true(st_bare.cycles < st.cycles);
        /* predicates are no register-file access: the same reads and writes as without */
        assert_int_equal(st.warp_insts, 7);
        assert_int_equal(st.reads, st_bare.reads);
        assert_int_equal(st.writes, st_bare.writes);
        assert_int_equal(st.writes, 3); /* the adds' R1; the compares write no register */
        assert_int_equal(st.bank_read_conflicts, st_bare.bank_read_conflicts);
    }
    dse_sweep_free(s);

    /* reg_release's flag instructions between a trace's instructions carry no
     * predicate (a flag after the compare once inherited its predicate, which no
     * release then cleared: the warps waited for ever) */
    char path[1024], text[2048];
    trace_path("predicate.traceg", path, sizeof path);
    snprintf(text, sizeof text,
             "techniques = ( { name = \"rr\"; base = \"reg_release\"; rr_flag_every = 1; } );\n"
             "workloads = ( { name = \"t\"; trace = \"%s\"; } );\n", path);
    s = dse_sweep_load_string(text, "trace_test.cfg", stderr);
    assert_non_null(s);
    assert_int_equal(run(s, &s->sm, &s->techniques[0], 0, &st), SM_OK);
    assert_int_equal(st.warp_insts, 7); /* flags are not counted */
    dse_sweep_free(s);
}

/* Lanes from masks and the L1's misses reach the statistics. */
static void test_masks_and_misses(void **state)
{
    (void)state;
    dse_trace_stream_info info;
    sm_trace *d = decode("decode.traceg", &info);
    uint64_t lanes = 0, results = 0;
    for (uint64_t i = 0; i < d->first[1]; i++) {
        lanes += (uint64_t)__builtin_popcount(d->insts[i].mask);
        results += d->insts[i].dst != SM_TRACE_NO_REG;
    }
    dse_trace_stream_free(d);
    dse_sweep *s = trace_sweep("decode.traceg", "");
    assert_non_null(s);
    dse_technique ideal;
    dse_technique_preset("ideal", &ideal);
    static sm_stats st;
    assert_int_equal(run(s, &s->sm, &ideal, 0, &st), SM_OK);
    assert_int_equal(st.warp_insts, 14);
    assert_int_equal(st.thread_insts, lanes);
    assert_int_equal(st.l1_misses, info.l1_misses);
    /* only instructions with a register result write one (not EXIT, stores, the final
     * barrier run as a no-op) */
    assert_int_equal(st.writes, results);
    dse_sweep_free(s);
}

/* Every preset runs both hand-written traces, on a map with slow sub-banks, the same
 * twice. */
static void test_every_technique(void **state)
{
    (void)state;
    const char *const traces[] = { "closed-form.traceg", "decode.traceg",
                                   "tiny-v4-lineinfo.traceg", "smem-conflict.traceg",
                                   "predicate.traceg" };
    static sm_stats a, b;
    for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
        dse_sweep *s = trace_sweep(traces[i], "");
        assert_non_null(s);
        int n = 0;
        for (const char *const *p = dse_technique_preset_names(); *p; p++, n++) {
            dse_technique t;
            assert_true(dse_technique_preset(*p, &t));
            int slow = t.freq.variation ? 8 : 0;
            assert_int_equal(run(s, &s->sm, &t, slow, &a), SM_OK);
            assert_int_equal(run(s, &s->sm, &t, slow, &b), SM_OK);
            assert_memory_equal(&a, &b, sizeof a);
            const sm_trace *tr = s->workloads[0].trace_stream;
            assert_int_equal(a.warp_insts, tr->first[tr->n_blocks * tr->warps_per_block]);
        }
        assert_true(n >= 10);
        dse_sweep_free(s);
    }
}

/* The loader: the header gives the shape, a contradicting shape key and a stale
 * trace_hash are refused, the written sweep loads back equal. */
static void test_loader(void **state)
{
    (void)state;
    dse_sweep *s = trace_sweep("closed-form.traceg", "");
    assert_non_null(s);
    uint64_t h = s->workloads[0].trace_hash;
    assert_true(h != 0);
    char *text = dse_sweep_to_string(s);
    assert_non_null(text);
    dse_sweep *back = dse_sweep_load_string(text, "back.cfg", stderr);
    assert_non_null(back);
    assert_true(dse_sweep_equal(s, back));
    free(text);
    dse_sweep_free(back);
    dse_sweep_free(s);
    assert_null(trace_sweep("closed-form.traceg", "block_threads = 128;"));
    assert_null(trace_sweep("closed-form.traceg", "trace_hash = 12345L;"));
    char extra[64];
    snprintf(extra, sizeof extra, "trace_hash = %lluL;", (unsigned long long)h);
    s = trace_sweep("closed-form.traceg", extra);
    assert_non_null(s);
    dse_sweep_free(s);
    s = trace_sweep("decode.traceg", "");
    assert_true(s->workloads[0].trace_hash != h); /* another content, another key */
    dse_sweep_free(s);
    assert_null(dse_sweep_load_string("workloads = ( { name = \"t\"; trace_hash = 5L; } );",
                                      "x.cfg", NULL));
    assert_null(trace_sweep("no-such-file.traceg", ""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decoder_rules),
        cmocka_unit_test(test_predicates),
        cmocka_unit_test(test_closed_form),
        cmocka_unit_test(test_gsim_latency),
        cmocka_unit_test(test_max_insts),
        cmocka_unit_test(test_result_buses),
        cmocka_unit_test(test_mem_requests),
        cmocka_unit_test(test_store_lines),
        cmocka_unit_test(test_pending_hits),
        cmocka_unit_test(test_divides),
        cmocka_unit_test(test_shared_conflict),
        cmocka_unit_test(test_masks_and_misses),
        cmocka_unit_test(test_hit_lines),
        cmocka_unit_test(test_every_technique),
        cmocka_unit_test(test_loader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
