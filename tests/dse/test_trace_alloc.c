/* The register allocator for PTX traces (dse/trace/trace_alloc.c, docs/model.md
 * "Traces of the 14 kernels") and the PTX opcode table (trace_opcodes_ptx.c):
 * interference respected (an independent replay finds no overwritten value), the count
 * at the live-range lower bound where that is exact, 64-bit pairs aligned, a kernel
 * needing more than -nregs refused, and PTX opcodes to classes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dse_trace.h"

static dse_trace_alloc_inst op(int n_dst, const uint32_t *dst, int n_src, const uint32_t *src)
{
    dse_trace_alloc_inst x = { (uint8_t)n_dst, (uint8_t)n_src, { 0 }, { 0 } };
    for (int i = 0; i < n_dst; i++)
        x.dst[i] = dst[i];
    for (int i = 0; i < n_src; i++)
        x.src[i] = src[i];
    return x;
}

/* The most 32-bit words live at once in any warp, counted straight from the sequence
 * (forward: a value is live from its write to its last read), independent of the
 * allocator's backward pass. */
static int max_live_words(const dse_trace_alloc_in *in)
{
    int best = 0;
    for (size_t w = 0; w < in->n_warps; w++) {
        size_t a = in->warp_first[w], b = in->warp_first[w + 1];
        for (size_t i = a; i < b; i++) { /* live across the point after instruction i */
            int words = 0;
            for (uint32_t v = 0; v < in->n_vregs; v++) {
                int written = 0, read_later = 0;
                for (size_t j = a; j <= i; j++)
                    for (int k = 0; k < in->insts[j].n_dst; k++)
                        written |= in->insts[j].dst[k] == v;
                for (size_t j = i + 1; j < b && !read_later; j++) {
                    const dse_trace_alloc_inst *x = &in->insts[j];
                    for (int k = 0; k < x->n_src; k++)
                        read_later |= x->src[k] == v;
                    int rewritten = 0;
                    for (int k = 0; k < x->n_dst; k++)
                        rewritten |= x->dst[k] == v;
                    if (rewritten && !read_later)
                        break;
                }
                if (written && read_later)
                    words += in->width[v];
            }
            if (words > best)
                best = words;
        }
    }
    return best;
}

/* k values written, then all read by one chain of adds: k live at once (a clique). */
static void test_clique_needs_k(void **state)
{
    (void)state;
    enum { K = 7 };
    dse_trace_alloc_inst insts[2 * K];
    uint8_t width[K + 1];
    size_t n = 0;
    for (uint32_t v = 0; v < K; v++) {
        insts[n++] = op(1, &v, 0, NULL);
        width[v] = 1;
    }
    uint32_t acc = K;
    width[K] = 1;
    for (uint32_t v = 0; v < K; v++) {
        uint32_t src[2] = { v, acc };
        insts[n++] = op(1, &acc, v ? 2 : 1, src);
    }
    size_t first[2] = { 0, n };
    dse_trace_alloc_in in = { K + 1, width, 1, first, insts };
    int phys[K + 1], used = 0, lower = 0;
    assert_int_equal(dse_trace_alloc(&in, phys, &used, &lower), 0);
    assert_int_equal(used, max_live_words(&in));
    assert_int_equal(lower, max_live_words(&in));
    assert_true(used >= K);
    for (int a = 0; a < K; a++)
        for (int b = 0; b < a; b++)
            assert_int_not_equal(phys[a], phys[b]);
    assert_int_equal(dse_trace_alloc_check(&in, phys, used), 0);
}

/* A chain where each value dies where the next is written: one register suffices. */
static void test_chain_reuses(void **state)
{
    (void)state;
    enum { N = 10 };
    dse_trace_alloc_inst insts[N];
    uint8_t width[N];
    for (uint32_t v = 0; v < N; v++) {
        uint32_t prev = v - 1;
        insts[v] = op(1, &v, v ? 1 : 0, &prev);
        width[v] = 1;
    }
    size_t first[2] = { 0, N };
    dse_trace_alloc_in in = { N, width, 1, first, insts };
    int phys[N], used = 0, lower = 0;
    assert_int_equal(dse_trace_alloc(&in, phys, &used, &lower), 0);
    assert_int_equal(used, 1);
    assert_int_equal(dse_trace_alloc_check(&in, phys, used), 0);
}

/* The checker is what the other tests rely on: a mapping that puts two live values in
 * one register must be caught, and so must a register beyond the bound. */
static void test_check_catches_overlap(void **state)
{
    (void)state;
    uint32_t a = 0, b = 1, ab[2] = { 0, 1 };
    dse_trace_alloc_inst insts[3] = { op(1, &a, 0, NULL), op(1, &b, 0, NULL), op(0, NULL, 2, ab) };
    uint8_t width[2] = { 1, 1 };
    size_t first[2] = { 0, 3 };
    dse_trace_alloc_in in = { 2, width, 1, first, insts };
    int same[2] = { 0, 0 }, apart[2] = { 0, 1 };
    assert_true(dse_trace_alloc_check(&in, same, 2) > 0);
    assert_int_equal(dse_trace_alloc_check(&in, apart, 2), 0);
    assert_true(dse_trace_alloc_check(&in, apart, 1) > 0); /* register 1 beyond a bound of 1 */
}

/* 64-bit values take an even-aligned pair that no live 32-bit value shares. */
static void test_pairs_aligned(void **state)
{
    (void)state;
    uint32_t s = 0, d = 1, t = 2, srcs[3] = { 0, 1, 2 };
    dse_trace_alloc_inst insts[4] = { op(1, &s, 0, NULL), op(1, &d, 0, NULL),
                                      op(1, &t, 0, NULL), op(0, NULL, 3, srcs) };
    uint8_t width[3] = { 1, 2, 1 };
    size_t first[2] = { 0, 4 };
    dse_trace_alloc_in in = { 3, width, 1, first, insts };
    int phys[3], used = 0, lower = 0;
    assert_int_equal(dse_trace_alloc(&in, phys, &used, &lower), 0);
    assert_int_equal(phys[1] % 2, 0);
    assert_int_equal(used, 4);
    assert_int_equal(dse_trace_alloc_check(&in, phys, used), 0);
}

/* Random warps (fixed seed): every allocation replays without an overwritten value and
 * needs at least the live-range lower bound. */
static void test_random_warps(void **state)
{
    (void)state;
    enum { V = 40, WARPS = 4, PER = 120 };
    static dse_trace_alloc_inst insts[WARPS * PER];
    uint8_t width[V];
    size_t first[WARPS + 1];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int v = 0; v < V; v++)
        width[v] = (uint8_t)(v % 5 == 0 ? 2 : 1);
    for (int w = 0; w < WARPS; w++) {
        first[w] = (size_t)w * PER;
        for (int i = 0; i < PER; i++) {
            uint32_t d[2], s[3];
            for (int k = 0; k < 3; k++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                s[k] = (uint32_t)(x % V);
            }
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            d[0] = (uint32_t)(x % V);
            d[1] = (d[0] + 1) % V;
            int n_src = (int)((x >> 20) % 4);
            int n_dst = (int)((x >> 30) % 3);
            int dup = n_src > 1 && s[0] == s[1]; /* the trace's sources are distinct */
            insts[w * PER + i] = op(n_dst, d, dup ? 1 : n_src, s);
        }
    }
    first[WARPS] = WARPS * PER;
    dse_trace_alloc_in in = { V, width, WARPS, first, insts };
    int phys[V], used = 0, lower = 0;
    assert_int_equal(dse_trace_alloc(&in, phys, &used, &lower), 0);
    assert_int_equal(dse_trace_alloc_check(&in, phys, used), 0);
    assert_true(used >= max_live_words(&in));
    assert_true(lower >= max_live_words(&in)); /* also counts live-ins, which it omits */
    assert_true(used >= lower);
    for (int v = 0; v < V; v++)
        if (width[v] == 2)
            assert_int_equal(phys[v] % 2, 0);
}

/* Five values live at once: -nregs = 4 is refused, 5 is allocated and reads back. */
static const char five_live[] =
    "-kernel name = five\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-nregs = 4\n"
    "-binary version = 1000\n-accelsim tracer version = 4\n\n"
    "#vreg 300 %r1 32\n#vreg 301 %r2 32\n#vreg 302 %r3 32\n#vreg 303 %r4 32\n"
    "#vreg 304 %r5 32\n#vreg 9 %p1 1\n"
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 7\n"
    "0000 ffffffff 1 R300 mov.u32 0 0\n0008 ffffffff 1 R301 mov.u32 0 0\n"
    "0010 ffffffff 1 R302 mov.u32 0 0\n0018 ffffffff 1 R303 mov.u32 0 0\n"
    "0020 ffffffff 1 R304 mov.u32 0 0\n"
    "0028 ffffffff 1 R300 add.s32 4 R300 R301 R302 R303 0\n"
    "0030 ffffffff 0 st.global.u32 2 R300 R304 4 0 0x100 0x104 0x108 0x10c 0x110 0x114 "
    "0x118 0x11c 0x120 0x124 0x128 0x12c 0x130 0x134 0x138 0x13c 0x140 0x144 0x148 0x14c "
    "0x150 0x154 0x158 0x15c 0x160 0x164 0x168 0x16c 0x170 0x174 0x178 0x17c\n#END_TB\n";

static void test_text_bound(void **state)
{
    (void)state;
    FILE *in = fmemopen((void *)five_live, sizeof five_live - 1, "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len), *err = tmpfile();
    dse_trace_alloc_report rep;
    assert_int_equal(dse_trace_alloc_text(in, "five", out, 0, &rep, err), -1);
    assert_int_equal(rep.ptxas, 4);
    assert_int_equal(rep.used, 5);
    char msg[256] = "";
    rewind(err);
    assert_non_null(fgets(msg, sizeof msg, err));
    assert_non_null(strstr(msg, "needs 5 registers, more than the bound 4"));
    rewind(in);
    assert_int_equal(dse_trace_alloc_text(in, "five", out, 5, &rep, NULL), 0);
    fclose(out);
    assert_non_null(strstr(text, "-nregs = 5\n"));
    assert_null(strstr(text, "R300"));
    FILE *back = fmemopen(text, len, "r");
    dse_trace *t = dse_trace_read_stream(back, "five", 0, 1, stderr);
    assert_non_null(t);
    assert_int_equal(dse_trace_n_insts(t), 7);
    const dse_trace_inst *i5 = &dse_trace_insts(t)[5];
    assert_int_equal(i5->n_src, 4);
    for (int a = 0; a < 4; a++) /* the four sources are live together: distinct */
        for (int b = 0; b < a; b++)
            assert_int_not_equal(i5->src[a], i5->src[b]);
    dse_trace_free(t);
    fclose(back);
    fclose(in);
    fclose(err);
    free(text);
}

/* Predicates are no registers: the allocation is the one the trace gets without them,
 * and they are only renumbered P0, P1, ... in order of first appearance. */
static const char with_preds[] =
    "-kernel name = preds\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-nregs = 4\n"
    "-binary version = 1000\n-accelsim tracer version = 4\n\n"
    "#vreg 300 %r1 32\n#vreg 301 %r2 32\n"
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 5\n"
    "0000 ffffffff 1 R300 mov.u32 0 0\n"
    "0008 ffffffff 1 P900 setp.lt.s32 1 R300 0\n"
    "0010 ffffffff 1 R301 selp.b32 2 R300 P900 0\n"
    "0018 ffffffff 2 P17 P900 setp.lt.s32 2 R301 P900 0\n"
    "0020 ffffffff 0 bra 1 P17 0\n#END_TB\n";

static void test_text_predicates(void **state)
{
    (void)state;
    FILE *in = fmemopen((void *)with_preds, sizeof with_preds - 1, "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    dse_trace_alloc_report rep;
    assert_int_equal(dse_trace_alloc_text(in, "preds", out, 0, &rep, stderr), 0);
    fclose(out);
    assert_int_equal(rep.vregs, 2); /* predicates are not virtual registers */
    assert_int_equal(rep.preds, 2);
    /* %r1 dies where %r2 is written (the selp): one register, as without predicates */
    assert_int_equal(rep.used, 1);
    assert_non_null(strstr(text, "1 P0 setp.lt.s32"));
    assert_non_null(strstr(text, "2 P1 P0 setp.lt.s32"));
    assert_non_null(strstr(text, "0 bra 1 P1 0"));
    FILE *back = fmemopen(text, len, "r");
    dse_trace *t = dse_trace_read_stream(back, "preds", 0, 1, stderr);
    assert_non_null(t);
    const dse_trace_inst *i = dse_trace_insts(t);
    assert_int_equal(i[1].n_dst, 0);
    assert_int_equal(i[1].n_pdst, 1);
    assert_int_equal(i[2].n_src, 1);
    assert_int_equal(i[2].n_psrc, 1);
    assert_int_equal(i[2].psrc[0], 0);
    assert_int_equal(i[3].n_pdst, 2);
    assert_int_equal(i[3].pdst[0], 1);
    assert_int_equal(i[4].psrc[0], 1);
    dse_trace_free(t);
    fclose(back);
    fclose(in);
    free(text);
}

static void test_ptx_classes(void **state)
{
    (void)state;
    const int P = DSE_TRACE_PTX_VERSION;
    assert_int_equal(dse_trace_class_of("ld.global.f32", P), DSE_TRACE_LD_GLOBAL);
    assert_int_equal(dse_trace_class_of("ld.f32", P), DSE_TRACE_LD_GLOBAL); /* generic */
    assert_int_equal(dse_trace_class_of("ld.shared.v4.f32", P), DSE_TRACE_LD_SHARED);
    assert_int_equal(dse_trace_class_of("st.shared.f32", P), DSE_TRACE_ST_SHARED);
    assert_int_equal(dse_trace_class_of("ld.param.u64", P), DSE_TRACE_CONST);
    assert_int_equal(dse_trace_class_of("ld.local.u32", P), DSE_TRACE_LOCAL);
    assert_int_equal(dse_trace_class_of("add.f64", P), DSE_TRACE_FP64);
    assert_int_equal(dse_trace_class_of("fma.rn.f32", P), DSE_TRACE_FP32);
    assert_int_equal(dse_trace_class_of("mad.lo.s32", P), DSE_TRACE_INT);
    assert_int_equal(dse_trace_class_of("setp.lt.f32", P), DSE_TRACE_FP32);
    assert_int_equal(dse_trace_class_of("selp.f32", P), DSE_TRACE_INT);
    assert_int_equal(dse_trace_class_of("div.rn.f32", P), DSE_TRACE_SFU);
    assert_int_equal(dse_trace_class_of("ex2.approx.f32", P), DSE_TRACE_SFU);
    assert_int_equal(dse_trace_class_of("bar.sync", P), DSE_TRACE_BARRIER);
    assert_int_equal(dse_trace_class_of("bar.warp.sync", P), DSE_TRACE_CONTROL);
    assert_int_equal(dse_trace_class_of("atom.global.add.u32", P), DSE_TRACE_ATOMIC);
    assert_int_equal(dse_trace_class_of("ret", P), DSE_TRACE_CONTROL);
    assert_int_equal(dse_trace_class_of("LDG.E", P), -1); /* SASS is not PTX */
    assert_int_equal(dse_trace_class_of("ld.global.f32", 61), -1); /* nor PTX SASS */
    assert_int_equal(dse_trace_class_of("frobnicate.f32", P), -1);
    assert_true(dse_trace_opcode_is_mad("fma.rn.f32", P));
    assert_true(dse_trace_opcode_is_mad("mad.lo.s32", P));
    assert_false(dse_trace_opcode_is_mad("mul.f32", P));
    assert_true(dse_trace_opcode_is_mad("FFMA", 61));
    assert_true(dse_trace_opcode_is_shared_atomic("atom.shared.add.u32", P));
    assert_false(dse_trace_opcode_is_shared_atomic("atom.global.add.u32", P));
    assert_true(dse_trace_opcode_is_shared_atomic("ATOMS.ADD", 61));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clique_needs_k),
        cmocka_unit_test(test_chain_reuses),
        cmocka_unit_test(test_check_catches_overlap),
        cmocka_unit_test(test_pairs_aligned),
        cmocka_unit_test(test_random_warps),
        cmocka_unit_test(test_text_bound),
        cmocka_unit_test(test_text_predicates),
        cmocka_unit_test(test_ptx_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
