/* A trace as the SM model runs it (docs/traces.md, "Running a trace"): dse_trace ->
 * sm_trace.  Per instruction: the operation class from the opcode table, the registers
 * (R255, the zero register, is no access), the active mask, and what the addresses
 * decide: a shared-memory access's bank-conflict degree, a global access's 128-byte
 * lines and whether it hits a small L1.  Deciding them here, once, keeps the stream the
 * same for every technique and schedule, as the drawn streams are. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

/* The L1 of global loads: 16 KB of 128-byte lines, 4 ways, LRU (GTX480's L1 in its
 * 16 KB configuration); loads allocate, stores evict (write-evict, as Fermi's L1 for
 * global data); atomics are done at L2 and always miss. */
#define LINE_SHIFT 7
#define L1_WAYS 4
#define L1_SETS 32
#define SMEM_BANKS 32

typedef struct l1 {
    uint64_t tag[L1_SETS][L1_WAYS]; /* line + 1; 0: empty */
    uint64_t used[L1_SETS][L1_WAYS];
    uint32_t fill[L1_SETS][L1_WAYS]; /* the fill that brought the line in (fills) */
    uint64_t clock;
} l1;

/* The loads' lines as fills (sm_trace_lines): the list of fill IDs, the next data
 * fill's ID, and the constant lines (64 bytes, GPGPU-Sim's constant cache) numbered as
 * first seen. */
#define CONST_SHIFT 6
#define CONST_LINES 1024 /* numbered; a constant load past them waits for nothing */
typedef struct fillbuf {
    uint32_t *ids;
    size_t n, cap;
    uint32_t next;
    uint64_t cline[CONST_LINES];
    int n_const;
    int oom;
} fillbuf;

static void fill_push(fillbuf *f, uint32_t id)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 4096;
        uint32_t *p = realloc(f->ids, cap * sizeof *p);
        if (!p) {
            f->oom = 1;
            return;
        }
        f->ids = p;
        f->cap = cap;
    }
    f->ids[f->n++] = id;
}

static int const_line(fillbuf *f, uint64_t line)
{
    for (int i = 0; i < f->n_const; i++)
        if (f->cline[i] == line)
            return i;
    if (f->n_const == CONST_LINES)
        return -1;
    f->cline[f->n_const] = line;
    return f->n_const++;
}

/* Looks line up; allocates it on a miss when `fill`.  Returns 1 on a hit. */
static int l1_access(l1 *c, uint64_t line, int fill)
{
    int set = (int)(line % L1_SETS), victim = 0;
    c->clock++;
    for (int w = 0; w < L1_WAYS; w++) {
        if (c->tag[set][w] == line + 1) {
            c->used[set][w] = c->clock;
            return 1;
        }
        if (c->used[set][w] < c->used[set][victim])
            victim = w;
    }
    if (fill) {
        c->tag[set][victim] = line + 1;
        c->used[set][victim] = c->clock;
    }
    return 0;
}

/* The way holding line in its set, or -1. */
static int l1_way(const l1 *c, uint64_t line)
{
    int set = (int)(line % L1_SETS);
    for (int w = 0; w < L1_WAYS; w++)
        if (c->tag[set][w] == line + 1)
            return w;
    return -1;
}

static void l1_evict(l1 *c, uint64_t line)
{
    int set = (int)(line % L1_SETS), w = l1_way(c, line);
    if (w >= 0)
        c->tag[set][w] = c->used[set][w] = 0;
}

/* The fill that brought line in (sm_trace_lines), NULL when the L1 has not got it. */
static uint32_t *l1_fill(l1 *c, uint64_t line)
{
    int w = l1_way(c, line);
    return w < 0 ? NULL : &c->fill[line % L1_SETS][w];
}

/* The address of each active lane, in lane order (Accel-Sim's three address forms:
 * a list; base and stride over consecutive active lanes; base and deltas).  Returns
 * their count. */
static int lane_addrs(const dse_trace *t, const dse_trace_inst *in, uint64_t out[32])
{
    int n = __builtin_popcount(in->mask);
    if (!in->width || !in->n_addr || !n)
        return 0;
    const uint64_t *a = t->addrs + in->addr_first;
    if (in->addr_mode == DSE_TRACE_ADDR_BASE_STRIDE) {
        for (int k = 0; k < n; k++)
            out[k] = a[0] + (uint64_t)k * a[1]; /* the stride as two's complement */
        return n;
    }
    n = n < (int)in->n_addr ? n : (int)in->n_addr;
    out[0] = a[0];
    for (int k = 1; k < n; k++)
        out[k] = in->addr_mode == DSE_TRACE_ADDR_BASE_DELTA ? out[k - 1] + a[k] : a[k];
    return n;
}

/* The distinct lines of 2^shift bytes the lanes touch (a lane's `width` bytes may cross
 * one), at most 64. */
static int lines_by(const uint64_t *addr, int n, int width, int shift, uint64_t *lines)
{
    int m = 0;
    for (int k = 0; k < n; k++)
        for (uint64_t l = addr[k] >> shift; l <= (addr[k] + (uint64_t)width - 1) >> shift; l++) {
            int seen = 0;
            for (int i = 0; i < m && !seen; i++)
                seen = lines[i] == l;
            if (!seen && m < 64)
                lines[m++] = l;
        }
    return m;
}

/* The distinct 128-byte lines the lanes touch. */
static int lines_of(const uint64_t *addr, int n, int width, uint64_t *lines)
{
    return lines_by(addr, n, width, LINE_SHIFT, lines);
}

/* Shared memory: 32 banks of 4-byte words.  The degree of a bank conflict is the most
 * distinct words any one bank must serve (lanes reading the same word share it: a
 * broadcast); a lane's `width` bytes are width / 4 consecutive words. */
static int smem_ways(const uint64_t *addr, int n, int width)
{
    uint64_t words[128];
    int m = 0, worst = 1;
    for (int k = 0; k < n; k++)
        for (uint64_t w = addr[k] >> 2; w <= (addr[k] + (uint64_t)width - 1) >> 2 && m < 128; w++) {
            int seen = 0;
            for (int i = 0; i < m && !seen; i++)
                seen = words[i] == w;
            if (!seen)
                words[m++] = w;
        }
    int per_bank[SMEM_BANKS] = { 0 };
    for (int i = 0; i < m; i++) {
        int b = (int)(words[i] % SMEM_BANKS);
        if (++per_bank[b] > worst)
            worst = per_bank[b];
    }
    return worst > 32 ? 32 : worst;
}

/* The model's class of an instruction: the opcode table's class, refined by the
 * opcode where the class spans two latencies (mads) or two units (atomics, local
 * memory).  *how: 0 plain, 1 a load through the L1, 2 a store through it, 3 an atomic
 * (always misses), 4 a constant load (always hits), 5 a shared-memory access. */
static sm_trace_op class_of(const char *op, int version, int cls, int has_dst, int *how)
{
    *how = 0;
    switch ((dse_trace_class)cls) {
    case DSE_TRACE_INT:
        return dse_trace_opcode_is_mad(op, version) ? SM_TRACE_INT_MAD : SM_TRACE_INT;
    case DSE_TRACE_FP32:
        return dse_trace_opcode_is_mad(op, version) ? SM_TRACE_FP_MAD : SM_TRACE_FP;
    case DSE_TRACE_FP64: return SM_TRACE_DP;
    case DSE_TRACE_SFU:
        if (version == DSE_TRACE_PTX_VERSION && !strncmp(op, "div.", 4))
            return strstr(op, ".f32") || strstr(op, ".f64") ? SM_TRACE_FP_DIV : SM_TRACE_INT_DIV;
        return SM_TRACE_SFU;
    case DSE_TRACE_LD_GLOBAL: *how = 1; return SM_TRACE_LD_GLOBAL;
    case DSE_TRACE_ST_GLOBAL: *how = 2; return SM_TRACE_ST_GLOBAL;
    case DSE_TRACE_LOCAL:
        *how = has_dst ? 1 : 2;
        return has_dst ? SM_TRACE_LD_GLOBAL : SM_TRACE_ST_GLOBAL;
    case DSE_TRACE_LD_SHARED: *how = 5; return SM_TRACE_LD_SHARED;
    case DSE_TRACE_ST_SHARED: *how = 5; return SM_TRACE_ST_SHARED;
    case DSE_TRACE_ATOMIC:
        if (dse_trace_opcode_is_shared_atomic(op, version)) {
            *how = 5;
            return has_dst ? SM_TRACE_LD_SHARED : SM_TRACE_ST_SHARED;
        }
        *how = 3;
        return has_dst ? SM_TRACE_LD_GLOBAL : SM_TRACE_ST_GLOBAL;
    case DSE_TRACE_CONST: *how = 4; return SM_TRACE_LD_GLOBAL;
    case DSE_TRACE_BARRIER: return SM_TRACE_BARRIER;
    case DSE_TRACE_CONTROL:
    case DSE_TRACE_N_CLASSES: break;
    }
    return SM_TRACE_CONTROL;
}

/* Registers: the first destination that is a register, the first SM_TRACE_MAX_SRC
 * distinct source registers (R255 is none). */
static void registers(const dse_trace_inst *in, sm_trace_inst *o, dse_trace_stream_info *info)
{
    o->dst = SM_TRACE_NO_REG;
    for (int i = 0; i < in->n_dst; i++)
        if (in->dst[i] != DSE_TRACE_RZ) {
            if (o->dst == SM_TRACE_NO_REG)
                o->dst = in->dst[i];
            else
                info->extra_dsts++;
        }
    o->n_src = 0;
    memset(o->src, SM_TRACE_NO_REG, sizeof o->src);
    for (int i = 0; i < in->n_src; i++) {
        uint8_t r = in->src[i];
        int dup = r == DSE_TRACE_RZ;
        for (int j = 0; j < o->n_src && !dup; j++)
            dup = o->src[j] == r;
        if (dup)
            continue;
        if (o->n_src == SM_TRACE_MAX_SRC)
            info->extra_srcs++;
        else
            o->src[o->n_src++] = r;
    }
}

/* Predicates (scoreboard only, numbered from 1 in the stream): the first written, the
 * first SM_TRACE_MAX_PSRC distinct read. */
static void predicates(const dse_trace_inst *in, sm_trace_inst *o, dse_trace_stream_info *info)
{
    o->pdst = 0;
    if (in->n_pdst) {
        o->pdst = (uint8_t)(in->pdst[0] + 1);
        info->pred_writes++;
        info->extra_pdsts += in->n_pdst - 1u;
    }
    memset(o->psrc, 0, sizeof o->psrc);
    int n = 0;
    for (int i = 0; i < in->n_psrc; i++) {
        uint8_t p = (uint8_t)(in->psrc[i] + 1);
        int dup = 0;
        for (int j = 0; j < n && !dup; j++)
            dup = o->psrc[j] == p;
        if (dup)
            continue;
        if (n == SM_TRACE_MAX_PSRC)
            info->extra_psrcs++;
        else {
            o->psrc[n++] = p;
            info->pred_reads++;
        }
    }
}

/* A load's lines as fills (sm_trace_lines), after the L1 model has seen it. */
static void load_fills(const uint64_t *addr, int n, int width, int how, const uint64_t *lines,
                       const uint8_t *hit, int m, l1 *c, const sm_trace_inst *o, fillbuf *f,
                       sm_trace_lines *ln)
{
    ln->first = (uint32_t)f->n;
    if (how == 4) { /* constant: its 64-byte lines */
        uint64_t cl[64];
        int k = lines_by(addr, n, width, CONST_SHIFT, cl);
        ln->kind = SM_TRACE_LINES_CONST;
        for (int i = 0; i < k; i++) {
            int id = const_line(f, cl[i]);
            if (id >= 0) {
                fill_push(f, (uint32_t)id);
                ln->n++;
            }
        }
        return;
    }
    ln->kind = o->miss ? SM_TRACE_LINES_DATA_MISS : SM_TRACE_LINES_DATA_HIT;
    for (int i = 0; i < m; i++) {
        /* a missing load's line that the L1 model has keeps its fill (flagged: the load
         * fetches only the others), every other line of it is a new fill */
        uint32_t *fill = l1_fill(c, lines[i]), id;
        if (!o->miss || hit[i]) {
            id = (fill ? *fill : UINT32_MAX) | (o->miss ? SM_TRACE_FILL_HIT : 0u);
        } else {
            id = f->next++;
            if (fill)
                *fill = id;
        }
        fill_push(f, id);
        ln->n++;
    }
}

/* What the addresses decide, in the L1's order. */
static void memory(const dse_trace *t, const dse_trace_inst *in, int how, l1 *c,
                   sm_trace_inst *o, dse_trace_stream_info *info, fillbuf *f,
                   sm_trace_lines *ln)
{
    uint64_t addr[32], lines[64];
    int n = lane_addrs(t, in, addr);
    if (how == 5) {
        o->smem_ways = (uint8_t)(n ? smem_ways(addr, n, in->width) : 1);
        info->shared++;
        info->shared_ways += o->smem_ways;
        return;
    }
    int m = n ? lines_of(addr, n, in->width, lines) : 0;
    o->reqs = (uint8_t)(m ? m : 1);
    o->site = (uint8_t)(in->pc >> 3 ^ in->pc >> 11);
    int hits = 0;
    uint8_t hit[64] = { 0 };
    for (int i = 0; i < m; i++) {
        if (how == 1)
            hits += hit[i] = (uint8_t)l1_access(c, lines[i], 1);
        else if (how == 2)
            l1_evict(c, lines[i]);
    }
    if (o->op != SM_TRACE_LD_GLOBAL)
        return;
    /* a load misses when any of its lines does (then 1 + the lines that hit, which
     * take no MSHR: GPGPU-Sim's L1 allocates one per missing line, a hit returns in
     * the L1's latency); without addresses it hits */
    o->miss = (uint8_t)(how == 3 ? 1 : how == 1 && hits < m ? 1 + hits : 0);
    info->global_loads++;
    info->l1_misses += o->miss != 0;
    if ((how == 1 || how == 4) && m)
        load_fills(addr, n, in->width, how, lines, hit, m, c, o, f, ln);
}

/* Decodes instruction i of the trace into o. */
static void decode(const dse_trace *t, size_t i, int last, l1 *c, sm_trace_inst *o,
                   dse_trace_stream_info *info, fillbuf *f, sm_trace_lines *ln)
{
    const dse_trace_inst *in = &t->insts[i];
    const char *name = t->opcodes[in->opcode];
    int cls = dse_trace_class_of(name, t->h.binary_version), how;
    memset(o, 0, sizeof *o);
    o->mask = in->mask;
    registers(in, o, info);
    o->op = (uint8_t)class_of(name, t->h.binary_version, cls, o->dst != SM_TRACE_NO_REG, &how);
    o->smem_ways = o->reqs = 1;
    /* a load that writes no register (RZ) is timed as a store: nothing to write back */
    if (o->dst == SM_TRACE_NO_REG && (o->op == SM_TRACE_LD_GLOBAL || o->op == SM_TRACE_LD_SHARED))
        o->op = o->op == SM_TRACE_LD_GLOBAL ? SM_TRACE_ST_GLOBAL : SM_TRACE_ST_SHARED;
    if (o->op == SM_TRACE_BARRIER && last) {
        o->op = SM_TRACE_CONTROL; /* the model's barriers hold warps that run on */
        info->last_barriers++;
    }
    if (t->h.binary_version == DSE_TRACE_PTX_VERSION)
        o->gsim = (uint8_t)dse__trace_ptx_gsim_of(name);
    predicates(in, o, info);
    /* an operation without a result (a store, a barrier) writes no predicate: the
     * model would never release it (sm_trace.h) */
    if (o->pdst && (o->op == SM_TRACE_ST_GLOBAL || o->op == SM_TRACE_ST_SHARED ||
                    o->op == SM_TRACE_BARRIER)) {
        o->pdst = 0;
        info->pred_writes--;
        info->extra_pdsts++;
    }
    if (how)
        memory(t, in, how, c, o, info, f, ln);
}

typedef struct stream {
    sm_trace s;          /* first: the pointer handed out */
    uint64_t *first;
    sm_trace_inst *insts;
    sm_trace_lines *lines;
    uint32_t *fills;
} stream;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h = (h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

_Static_assert(offsetof(sm_trace_inst, pdst) == 15 && offsetof(sm_trace_inst, psrc) == 16,
               "the hash's second word ends with pdst, in what was padding");

/* A hash of what the model runs: shape, offsets and every decoded instruction.  62
 * bits and never 0 (the sweep key trace_hash: 0 means "no trace"). */
static uint64_t stream_hash(const stream *st, size_t n_rows)
{
    uint64_t h = mix(mix(mix(0x7261CE, (uint64_t)st->s.n_blocks), (uint64_t)st->s.warps_per_block),
                     (uint64_t)st->s.regs);
    for (size_t r = 0; r <= n_rows; r++)
        h = mix(h, st->first[r]);
    for (uint64_t i = 0; i < st->first[n_rows]; i++) {
        const sm_trace_inst *o = &st->insts[i];
        /* redirect left out: it changes nothing unless sm.frontend is on, which is
         * part of the run-cache key itself, so the traces' hashes stay as they were */
        sm_trace_inst c = *o;
        c.redirect = 0;
        /* gsim left out likewise: it acts only under sm.latency_table = "gpgpusim",
         * which the key has */
        c.gsim = 0;
        /* pc (bytes 20-23) is never read here: the instruction cache it feeds acts only
         * under sm.frontend = "gpgpusim_icache", which the key has */
        uint64_t a, b;
        memcpy(&a, &c, 8);
        memcpy(&b, (const char *)&c + 8, 8); /* to pdst: 0 without predicates */
        h = mix(mix(h, a), b);
        /* predicates read: only when there are some, so that a trace without
         * predicates keeps the hash it had before they existed */
        uint64_t p = c.psrc[0] | (uint64_t)c.psrc[1] << 8 | (uint64_t)c.psrc[2] << 16;
        if (p)
            h = mix(h, p);
    }
    h >>= 2;
    return h ? h : 1;
}

static int warp_index_fail(FILE *err, const char *name, const dse_trace_warp *w, int wpb)
{
    if (err)
        fprintf(err, "%s: block (%d,%d,%d): warp %d: expected warps 0 to %d, each once\n", name,
                w->block[0], w->block[1], w->block[2], w->warp, wpb - 1);
    return -1;
}

/* Orders the kept warps by block (as kept) and warp index: rows[b * wpb + j]. */
static int index_rows(const dse_trace *t, int wpb, size_t *rows, int *n_blocks, FILE *err,
                      const char *name)
{
    int b = -1;
    for (size_t i = 0; i < t->n_warps; i++) {
        const dse_trace_warp *w = &t->warps[i], *p = i ? &t->warps[i - 1] : NULL;
        if (!p || memcmp(w->block, p->block, sizeof w->block)) {
            b++;
            for (int j = 0; j < wpb; j++)
                rows[(size_t)b * (size_t)wpb + (size_t)j] = SIZE_MAX;
        }
        if (w->warp < 0 || w->warp >= wpb)
            return warp_index_fail(err, name, w, wpb);
        size_t *slot = &rows[(size_t)b * (size_t)wpb + (size_t)w->warp];
        if (*slot != SIZE_MAX)
            return warp_index_fail(err, name, w, wpb);
        *slot = i;
    }
    *n_blocks = b + 1;
    for (size_t r = 0; r < (size_t)*n_blocks * (size_t)wpb; r++)
        if (rows[r] == SIZE_MAX) {
            if (err)
                fprintf(err, "%s: block %zu of the trace lacks warp %zu\n", name, r / (size_t)wpb,
                        r % (size_t)wpb);
            return -1;
        }
    return 0;
}

/* The instruction size: the smallest step from one of a warp's instructions to its
 * next one in the trace (8 bytes for PTX as GPGPU-Sim runs it and SASS before Volta,
 * 16 after).  A step of any other size is a control hazard (redirect). */
static uint32_t inst_size(const dse_trace *t)
{
    uint32_t best = UINT32_MAX;
    for (size_t i = 0; i < t->n_warps; i++) {
        const dse_trace_warp *w = &t->warps[i];
        for (uint32_t k = 1; k < w->n; k++) {
            uint32_t a = t->insts[w->first + k - 1].pc, b = t->insts[w->first + k].pc;
            best = b > a && b - a < best ? b - a : best;
        }
    }
    return best;
}

/* The L1 sees the kept blocks one after another, each block's warps interleaved one
 * instruction at a time (warp 0's first, warp 1's first, ...). */
static void decode_block(const dse_trace *t, const size_t *rows, int wpb, stream *st, size_t b,
                         l1 *c, uint32_t isize, dse_trace_stream_info *info, fillbuf *f)
{
    uint32_t longest = 0;
    for (int j = 0; j < wpb; j++) {
        uint32_t n = t->warps[rows[b * (size_t)wpb + (size_t)j]].n;
        longest = n > longest ? n : longest;
    }
    for (uint32_t k = 0; k < longest; k++)
        for (int j = 0; j < wpb; j++) {
            size_t r = b * (size_t)wpb + (size_t)j;
            const dse_trace_warp *w = &t->warps[rows[r]];
            if (k < w->n) {
                sm_trace_inst *o = &st->insts[st->first[r] + k];
                decode(t, w->first + k, k + 1 == w->n, c, o, info, f,
                       &st->lines[st->first[r] + k]);
                o->pc = (uint32_t)t->insts[w->first + k].pc;
                o->redirect = (uint8_t)(k + 1 < w->n && t->insts[w->first + k + 1].pc !=
                                                            t->insts[w->first + k].pc + isize);
            }
        }
    for (int j = 0; j < wpb; j++) { /* an empty warp runs one no-op: the model needs one */
        size_t r = b * (size_t)wpb + (size_t)j;
        if (!t->warps[rows[r]].n)
            st->insts[st->first[r]] = (sm_trace_inst){ .op = SM_TRACE_CONTROL,
                                                       .dst = SM_TRACE_NO_REG,
                                                       .src = { SM_TRACE_NO_REG, SM_TRACE_NO_REG,
                                                                SM_TRACE_NO_REG },
                                                       .smem_ways = 1, .reqs = 1 };
    }
}

sm_trace *dse_trace_stream_of(const dse_trace *t, const char *name, FILE *err,
                              dse_trace_stream_info *info)
{
    dse_trace_stream_info local;
    info = info ? info : &local;
    memset(info, 0, sizeof *info);
    int threads = t->h.block[0] * t->h.block[1] * t->h.block[2];
    int wpb = (threads + 31) / 32;
    if (!t->n_warps || wpb < 1 || wpb > 64 || t->h.nregs > 255) {
        if (err)
            fprintf(err, "%s: %s\n", name,
                    !t->n_warps ? "no blocks kept: nothing to run"
                                : "a block of more than 2048 threads or more than 255 registers: "
                                  "the SM model runs neither");
        return NULL;
    }
    stream *st = calloc(1, sizeof *st);
    size_t *rows = calloc(t->n_warps + (size_t)wpb, sizeof *rows);
    int n_blocks = 0;
    if (!st || !rows || index_rows(t, wpb, rows, &n_blocks, err, name)) {
        free(rows);
        free(st);
        return NULL;
    }
    size_t n_rows = (size_t)n_blocks * (size_t)wpb, total = 0;
    st->first = calloc(n_rows + 1, sizeof *st->first);
    for (size_t r = 0; st->first && r < n_rows; r++) {
        st->first[r] = total;
        total += t->warps[rows[r]].n ? t->warps[rows[r]].n : 1;
    }
    st->insts = st->first ? calloc(total ? total : 1, sizeof *st->insts) : NULL;
    st->lines = st->first ? calloc(total ? total : 1, sizeof *st->lines) : NULL;
    l1 *c = calloc(1, sizeof *c);
    fillbuf *f = calloc(1, sizeof *f);
    if (!st->insts || !st->lines || !c || !f) {
        if (err)
            fprintf(err, "%s: out of memory\n", name);
        free(c);
        free(f);
        free(rows);
        dse_trace_stream_free(&st->s);
        return NULL;
    }
    st->first[n_rows] = total;
    uint32_t isize = inst_size(t);
    for (size_t b = 0; b < (size_t)n_blocks; b++)
        decode_block(t, rows, wpb, st, b, c, isize, info, f);
    st->fills = f->ids;
    int oom = f->oom;
    free(c);
    free(f);
    free(rows);
    if (oom) {
        if (err)
            fprintf(err, "%s: out of memory\n", name);
        dse_trace_stream_free(&st->s);
        return NULL;
    }
    st->s = (sm_trace){ .n_blocks = n_blocks, .warps_per_block = wpb,
                        .regs = t->h.nregs > 0 ? t->h.nregs : 1, .first = st->first,
                        .insts = st->insts, .lines = st->lines, .fills = st->fills };
    st->s.hash = stream_hash(st, n_rows);
    info->insts = total;
    for (size_t r = 0; r < n_rows; r++)
        info->longest_warp = st->first[r + 1] - st->first[r] > info->longest_warp
                                 ? st->first[r + 1] - st->first[r] : info->longest_warp;
    return &st->s;
}

void dse_trace_stream_free(sm_trace *s)
{
    if (!s)
        return;
    stream *st = (stream *)s; /* s is its first member */
    free(st->first);
    free(st->insts);
    free(st->lines);
    free(st->fills);
    free(st);
}

void dse_trace_stream_print(const dse_trace_stream_info *i, FILE *out)
{
    fprintf(out, "as the SM model runs it: %llu warp instructions, longest warp %llu\n",
            (unsigned long long)i->insts, (unsigned long long)i->longest_warp);
    fprintf(out, "  global loads %llu, L1 misses %llu (hit rate %.3f; 16 KB, 128-B lines, "
                 "4 ways)\n", (unsigned long long)i->global_loads,
            (unsigned long long)i->l1_misses,
            i->global_loads ? 1.0 - (double)i->l1_misses / (double)i->global_loads : 0.0);
    fprintf(out, "  shared-memory accesses %llu, mean bank-conflict degree %.3f\n",
            (unsigned long long)i->shared,
            i->shared ? (double)i->shared_ways / (double)i->shared : 0.0);
    if (i->pred_writes || i->pred_reads)
        fprintf(out, "  predicates (scoreboard only): %llu writes, %llu reads\n",
                (unsigned long long)i->pred_writes, (unsigned long long)i->pred_reads);
    if (i->extra_pdsts || i->extra_psrcs)
        fprintf(out, "  predicates not tracked: %llu further or a store's written, %llu read "
                     "past the third\n", (unsigned long long)i->extra_pdsts,
                (unsigned long long)i->extra_psrcs);
    if (i->extra_dsts || i->extra_srcs || i->last_barriers)
        fprintf(out, "  not modelled: %llu further destinations, %llu sources past the third, "
                     "%llu barriers ending a warp (run as no-ops)\n",
                (unsigned long long)i->extra_dsts, (unsigned long long)i->extra_srcs,
                (unsigned long long)i->last_barriers);
}
