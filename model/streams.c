/* Instruction streams kept across runs (docs/performance.md, "Stored streams").
 *
 * A warp's synthetic stream is a function of the kernel's generator tables and the
 * warp's key (block ordinal, warp in block) alone (gen.c), not of the technique, the
 * map or the other warps.  The driver runs the same kernel on many SMs, chips and
 * techniques, so each stream is drawn once per simulator and read back afterwards:
 * one packed word per instruction instead of two or four 64-bit draws and a dozen
 * table lookups.  A set of streams is keyed by a copy of every generator input, compared
 * in full (a hash only finds the candidate), so a stored stream is the drawn one
 * bit for bit.  The sets live in the sm_sim (no global state) within a byte budget; past it the
 * least recently used sets are dropped, and a kernel too large for the budget draws
 * as before. */
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"

#define STREAM_BUDGET (24u << 20) /* bytes of stored instructions per simulator */
#define STREAM_SETS 32            /* kernels remembered at most                 */

struct sm__stream_set {
    unsigned char *key; /* the generator inputs (gen_key) */
    size_t key_len;
    uint64_t hash, used;
    int n_streams, len; /* streams (ordinal x warps_per_block + warp), words each */
    uint64_t **stream;  /* NULL until the warp is first launched */
    int32_t *prog;      /* the program's slots (gen.c prog_table), NULL until drawn */
    size_t bytes;
    struct sm__streams *owner;
};

struct sm__streams {
    sm__stream_set set[STREAM_SETS];
    int n;
    uint64_t clock;
    size_t bytes;
};

static size_t put(unsigned char *b, size_t at, const void *p, size_t n)
{
    if (b)
        memcpy(b + at, p, n);
    return at + n;
}

/* Every field of the kernel the synthetic generator reads (gen.c synth, prog_slot):
 * returns the length, fills b when not NULL. */
static size_t gen_key(const sm__kernel *k, unsigned char *b)
{
    size_t n = 0;
    n = put(b, n, &k->seed, sizeof k->seed);
    n = put(b, n, &k->insts_per_warp, sizeof k->insts_per_warp);
    n = put(b, n, &k->warps_per_block, sizeof k->warps_per_block);
    n = put(b, n, &k->div_thresh, sizeof k->div_thresh);
    n = put(b, n, &k->alu_src_thresh, sizeof k->alu_src_thresh);
    n = put(b, n, &k->hit_thresh, sizeof k->hit_thresh);
    n = put(b, n, &k->n_bar, sizeof k->n_bar); /* the program's other fields: seed, lengths */
    if (k->uneven) {
        n = put(b, n, &k->len_min, sizeof k->len_min);
        n = put(b, n, k->warp_len, sizeof k->warp_len);
    }
    n = put(b, n, &k->mate_thresh, sizeof k->mate_thresh);
    n = put(b, n, &k->mate_srcs, sizeof k->mate_srcs);
    n = put(b, n, k->src_base, sizeof k->src_base);
    n = put(b, n, k->src_drawn, sizeof k->src_drawn);
    n = put(b, n, k->op_tab, sizeof k->op_tab);
    n = put(b, n, k->reg_tab, sizeof k->reg_tab);
    n = put(b, n, k->dep_tab, sizeof k->dep_tab);
    n = put(b, n, &k->smem_on, sizeof k->smem_on);
    n = put(b, n, &k->smem_base, sizeof k->smem_base);
    n = put(b, n, &k->smem_thresh, sizeof k->smem_thresh);
    n = put(b, n, &k->atomic_thresh, sizeof k->atomic_thresh);
    n = put(b, n, &k->atomic_cycles, sizeof k->atomic_cycles);
    if (k->mate_thresh) {
        n = put(b, n, k->n_mates, sizeof k->n_mates);
        n = put(b, n, k->mates, sizeof k->mates);
    }
    if (k->cprof_lines) /* constant loads' lines (their share is in op_tab) */
        n = put(b, n, &k->cprof_lines, sizeof k->cprof_lines);
    n = put(b, n, &k->dp_gsim, sizeof k->dp_gsim); /* its DP ops' class (synth) */
    n = put(b, n, &k->lu_on, sizeof k->lu_on); /* load-use placement (gen.c lu_place) */
    if (k->lu_on) {
        n = put(b, n, k->lu_base, sizeof k->lu_base);
        n = put(b, n, k->lu_thresh, sizeof k->lu_thresh);
    }
    return n;
}

static uint64_t hash_bytes(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3ULL;
    return h;
}

static void set_drop(sm__streams *z, sm__stream_set *st)
{
    for (int i = 0; i < st->n_streams; i++)
        free(st->stream[i]);
    free(st->stream);
    free(st->prog);
    free(st->key);
    z->bytes -= st->bytes;
    *st = z->set[--z->n];
}

void sm__streams_free(sm_sim *s)
{
    sm__streams *z = s->streams;
    if (!z)
        return;
    while (z->n)
        set_drop(z, &z->set[z->n - 1]);
    free(z);
    s->streams = NULL;
}

/* The set for this kernel's generator (k.streams), made if new; NULL (draw as before)
 * for hand-written kernels, a kernel over the budget, or no memory. */
void sm__streams_select(sm_sim *s)
{
    sm__kernel *k = &s->k;
    k->streams = NULL;
    if (k->own_stream || s->exact) /* micro, trace; exact (tests): drawn, to compare */
        return;
    /* one stream per warp of the share (g = ordinal x warps_per_block + warp, kept in
     * the warps' 16-bit micro_row): a kernel of many launches runs more blocks than
     * three waves of one */
    int blocks = k->n_blocks > SM_SIM_WAVES * k->resident ? k->n_blocks : SM_SIM_WAVES * k->resident;
    if ((long)blocks * k->warps_per_block > UINT16_MAX)
        blocks = SM_SIM_WAVES * k->resident;
    int n_streams = blocks * k->warps_per_block;
    size_t words = (size_t)n_streams * (size_t)k->insts_per_warp * SM__STREAM_WORDS;
    if (words > STREAM_BUDGET / 8)
        return;
    if (!s->streams && !(s->streams = calloc(1, sizeof *s->streams)))
        return;
    sm__streams *z = s->streams;
    size_t len = gen_key(k, NULL);
    unsigned char *key = malloc(len);
    if (!key)
        return;
    gen_key(k, key);
    uint64_t h = hash_bytes(key, len);
    z->clock++;
    for (int i = 0; i < z->n; i++) {
        sm__stream_set *st = &z->set[i];
        if (st->hash == h && st->key_len == len && !memcmp(st->key, key, len)) {
            free(key);
            if (st->n_streams < n_streams) { /* more resident blocks: more streams */
                uint64_t **more = realloc(st->stream, (size_t)n_streams * sizeof *more);
                if (!more)
                    return;
                memset(more + st->n_streams, 0,
                       (size_t)(n_streams - st->n_streams) * sizeof *more);
                st->stream = more;
                st->n_streams = n_streams;
            }
            st->used = z->clock;
            k->streams = st;
            return;
        }
    }
    /* a new set: make room (least recently used first) for its largest size */
    while (z->n && (z->n == STREAM_SETS || z->bytes + words * 8 > STREAM_BUDGET)) {
        int lru = 0;
        for (int i = 1; i < z->n; i++)
            lru = z->set[i].used < z->set[lru].used ? i : lru;
        set_drop(z, &z->set[lru]);
    }
    sm__stream_set *st = &z->set[z->n];
    *st = (sm__stream_set){ .key = key, .key_len = len, .hash = h, .used = z->clock,
                            .n_streams = n_streams, .len = k->insts_per_warp, .owner = z };
    st->stream = calloc((size_t)n_streams, sizeof *st->stream);
    if (!st->stream) {
        free(key);
        return;
    }
    z->n++;
    k->streams = st;
}

/* Storage for stream g of the set (k.streams; `len` words), with *fresh set when the
 * caller must draw it; NULL when the budget is spent (the warp then draws as before). */
uint64_t *sm__streams_slot(sm__stream_set *st, int g, bool *fresh)
{
    sm__streams *z = st->owner;
    *fresh = false;
    if (g >= st->n_streams)
        return NULL;
    if (!st->stream[g]) {
        size_t bytes = (size_t)st->len * 8 * SM__STREAM_WORDS;
        if (z->bytes + bytes > STREAM_BUDGET || !(st->stream[g] = malloc(bytes)))
            return NULL;
        st->bytes += bytes;
        z->bytes += bytes;
        *fresh = true;
    }
    return st->stream[g];
}

/* Storage for the set's program slots (gen.c prog_table; n entries), with *fresh set
 * when the caller must fill it; NULL without a set, for an empty program or without
 * memory (the caller then computes each slot). */
int32_t *sm__streams_prog(sm__stream_set *st, int n, bool *fresh)
{
    *fresh = false;
    if (!st || n < 1)
        return NULL;
    if (!st->prog) {
        size_t bytes = (size_t)n * sizeof *st->prog;
        if (st->owner->bytes + bytes > STREAM_BUDGET || !(st->prog = malloc(bytes)))
            return NULL;
        st->bytes += bytes;
        st->owner->bytes += bytes;
        *fresh = true;
    }
    return st->prog;
}
