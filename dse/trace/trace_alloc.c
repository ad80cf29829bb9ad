/* Register allocation for PTX traces: PTX's virtual registers -> at most `bound`
 * physical 32-bit registers (docs/model.md, "Traces of the 14 kernels").
 *
 * Static, as a compiler allocates: one physical register (an even-aligned pair for a
 * 64-bit value) per virtual register for the whole kernel, so every dynamic instance of
 * a static instruction names the same registers, as in SASS.  Two virtual registers
 * interfere when one is written while the other is live in some traced warp; live
 * ranges are the dynamic ones, from a backward liveness pass over each warp's
 * instruction sequence (a value is live from its write to its last read before the
 * next write; values read before any write are live together at the warp's start).
 * The interference graph is coloured greedily twice, in smallest-last order (Matula
 * and Beck's degeneracy order, exact on the chordal graphs straight-line SSA code
 * gives) and in order of first write; the one with fewer registers is improved by a few
 * rounds of iterated greedy (recolouring by colour class, which never adds one).
 * No spilling: a kernel that needs more than `bound` is refused. */
#include <stdlib.h>
#include <string.h>

#include "dse_trace.h"

typedef struct graph {
    size_t n, words;  /* vertices; 64-bit words per adjacency row */
    uint64_t *adj;    /* n x words bits */
} graph;

static int has_edge(const graph *g, size_t a, size_t b)
{
    return (int)(g->adj[a * g->words + b / 64] >> (b % 64) & 1);
}

static void add_edge(graph *g, size_t a, size_t b)
{
    if (a == b)
        return;
    g->adj[a * g->words + b / 64] |= 1ull << (b % 64);
    g->adj[b * g->words + a / 64] |= 1ull << (a % 64);
}

/* d interferes with every register live across its write (live: the bit set). */
static void def_edges(graph *g, const uint64_t *live, uint32_t d)
{
    for (size_t w = 0; w < g->words; w++)
        for (uint64_t bits = live[w]; bits; bits &= bits - 1) {
            size_t x = w * 64 + (size_t)__builtin_ctzll(bits);
            add_edge(g, d, x);
        }
}

/* 32-bit words of the registers in the live set. */
static int live_words(const graph *g, const uint64_t *live, const uint8_t *width)
{
    int words = 0;
    for (size_t w = 0; w < g->words; w++)
        for (uint64_t bits = live[w]; bits; bits &= bits - 1)
            words += width[w * 64 + (size_t)__builtin_ctzll(bits)];
    return words;
}

/* Adds warp's interference edges; returns the most words live before one of its
 * instructions (a lower bound on any allocation). */
static int warp_edges(graph *g, const dse_trace_alloc_inst *in, size_t n, uint64_t *live,
                      const uint8_t *width)
{
    int most = 0;
    memset(live, 0, g->words * sizeof *live);
    for (size_t i = n; i-- > 0;) {
        const dse_trace_alloc_inst *x = &in[i];
        for (int k = 0; k < x->n_dst; k++)
            def_edges(g, live, x->dst[k]);
        for (int k = 0; k < x->n_dst; k++) /* several destinations are live together */
            for (int j = 0; j < k; j++)
                add_edge(g, x->dst[k], x->dst[j]);
        for (int k = 0; k < x->n_dst; k++)
            live[x->dst[k] / 64] &= ~(1ull << (x->dst[k] % 64));
        for (int k = 0; k < x->n_src; k++)
            live[x->src[k] / 64] |= 1ull << (x->src[k] % 64);
        int words = live_words(g, live, width);
        if (words > most)
            most = words;
    }
    /* read before written: live together from the warp's start */
    for (size_t w = 0; w < g->words; w++)
        for (uint64_t bits = live[w]; bits; bits &= bits - 1)
            def_edges(g, live, (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits)));
    return most;
}

/* First fit: the lowest register (pair: even) no coloured neighbour occupies. */
static int colour(const graph *g, const uint8_t *width, const size_t *order, int *phys,
                  unsigned char *busy, int limit)
{
    int used = 0;
    for (size_t i = 0; i < g->n; i++)
        phys[i] = -1;
    for (size_t k = 0; k < g->n; k++) {
        size_t v = order[k];
        memset(busy, 0, (size_t)limit + 2);
        for (size_t u = 0; u < g->n; u++)
            if (phys[u] >= 0 && has_edge(g, v, u))
                for (int j = 0; j < width[u]; j++)
                    busy[phys[u] + j] = 1;
        int step = width[v], p = 0;
        while (busy[p] || (step == 2 && busy[p + 1]))
            p += step;
        phys[v] = p;
        if (p + step > used)
            used = p + step;
    }
    return used;
}

/* Smallest-last order: repeatedly remove the vertex of least remaining weighted degree;
 * colour in the reverse of removal. */
static void smallest_last(const graph *g, const uint8_t *width, size_t *order)
{
    size_t n = g->n;
    long *deg = calloc(n ? n : 1, sizeof *deg);
    unsigned char *gone = calloc(n ? n : 1, 1);
    if (!deg || !gone) { /* fall back to identity order */
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        free(deg);
        free(gone);
        return;
    }
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            if (has_edge(g, a, b))
                deg[a] += width[b];
    for (size_t k = n; k-- > 0;) {
        size_t best = 0;
        long bd = -1;
        for (size_t v = 0; v < n; v++)
            if (!gone[v] && (bd < 0 || deg[v] < bd))
                best = v, bd = deg[v];
        gone[best] = 1;
        order[k] = best;
        for (size_t u = 0; u < n; u++)
            if (!gone[u] && has_edge(g, best, u))
                deg[u] -= width[best];
    }
    free(deg);
    free(gone);
}

static void first_write_order(const dse_trace_alloc_in *in, size_t *order)
{
    size_t n = in->n_vregs, k = 0;
    unsigned char *seen = calloc(n ? n : 1, 1);
    for (size_t i = 0; seen && i < in->warp_first[in->n_warps]; i++) {
        const dse_trace_alloc_inst *x = &in->insts[i];
        for (int j = 0; j < x->n_src + x->n_dst; j++) {
            uint32_t v = j < x->n_src ? x->src[j] : x->dst[j - x->n_src];
            if (!seen[v])
                seen[v] = 1, order[k++] = v;
        }
    }
    for (size_t v = 0; v < n; v++) /* registers the trace never names */
        if (!seen || !seen[v])
            order[k++] = v;
    free(seen);
}

/* Iterated greedy (Culberson): recolouring the vertices grouped by register, highest
 * first, never needs more registers than the colouring it starts from and often fewer;
 * a few rounds, kept while they do not get worse. */
static int iterate(const graph *g, const uint8_t *width, int *phys, int *alt, size_t *order,
                   unsigned char *busy, int limit, int used)
{
    for (int round = 0; round < 8; round++) {
        size_t k = 0;
        for (int p = used - 1; p >= 0; p--)
            for (size_t v = 0; v < g->n; v++)
                if (phys[v] == p)
                    order[k++] = v;
        int b = colour(g, width, order, alt, busy, limit);
        if (b > used)
            break;
        memcpy(phys, alt, g->n * sizeof *phys);
        used = b;
    }
    return used;
}

int dse_trace_alloc(const dse_trace_alloc_in *in, int *phys, int *used, int *lower)
{
    graph g = { in->n_vregs, (in->n_vregs + 63) / 64, NULL };
    size_t n = g.n ? g.n : 1, words = g.words ? g.words : 1;
    *used = *lower = 0;
    g.adj = calloc(n * words, sizeof *g.adj);
    uint64_t *live = calloc(words, sizeof *live);
    size_t *order = malloc(n * sizeof *order);
    int *alt = malloc(n * sizeof *alt);
    int limit = 2 * (int)n + 2;
    unsigned char *busy = malloc((size_t)limit + 2);
    int rc = -1;
    if (g.adj && live && order && alt && busy) {
        for (size_t w = 0; w < in->n_warps; w++) {
            int most = warp_edges(&g, in->insts + in->warp_first[w],
                                  in->warp_first[w + 1] - in->warp_first[w], live, in->width);
            if (most > *lower)
                *lower = most;
        }
        smallest_last(&g, in->width, order);
        int a = colour(&g, in->width, order, phys, busy, limit);
        first_write_order(in, order);
        int b = colour(&g, in->width, order, alt, busy, limit);
        if (b < a)
            memcpy(phys, alt, g.n * sizeof *phys), a = b;
        a = iterate(&g, in->width, phys, alt, order, busy, limit, a);
        *used = a;
        rc = 0;
    }
    free(g.adj);
    free(live);
    free(order);
    free(alt);
    free(busy);
    return rc;
}

/* Replays every warp with the physical registers: a read must find in each word of its
 * register the value its virtual register last wrote there. */
long dse_trace_alloc_check(const dse_trace_alloc_in *in, const int *phys, int n_phys)
{
    uint32_t *holder = malloc(((size_t)n_phys + 2) * sizeof *holder);
    if (!holder)
        return -1;
    const uint32_t none = UINT32_MAX;
    long bad = 0;
    for (size_t w = 0; w < in->n_warps; w++) {
        for (int p = 0; p < n_phys + 2; p++)
            holder[p] = none;
        for (size_t i = in->warp_first[w]; i < in->warp_first[w + 1]; i++) {
            const dse_trace_alloc_inst *x = &in->insts[i];
            for (int k = 0; k < x->n_src; k++) {
                uint32_t v = x->src[k];
                for (int j = 0; j < in->width[v]; j++) {
                    int p = phys[v] + j;
                    if (p < 0 || p >= n_phys)
                        bad++;
                    else if (holder[p] != v && holder[p] != none)
                        bad++; /* another value overwrote v's */
                }
            }
            for (int k = 0; k < x->n_dst; k++) {
                uint32_t v = x->dst[k];
                for (int j = 0; j < in->width[v]; j++) {
                    int p = phys[v] + j;
                    if (p < 0 || p >= n_phys)
                        bad++;
                    else
                        holder[p] = v;
                }
            }
        }
    }
    free(holder);
    return bad;
}
