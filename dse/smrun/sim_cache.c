/* Memo of SM runs keyed by their complete inputs (see dse_sim_cache.h). */
#include "dse_sim_cache.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define KEY_MAX (DSE_SIM_INPUTS_KEY_MAX + 4 * sizeof(int) + \
                 2 * SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK + SM_MAX_BANKS * SM_MAX_ENTRIES / 8)

/* Where the fields of dse_sm_result are, from its X-macro lists (dse_sim_cache.h): the
 * copies into and out of a slot loop over these, so a new field needs no code here. */
#define OFFSET(name, doc) offsetof(dse_sm_result, name),
static const size_t scalar_at[] = { DSE_SM_RESULT_SCALARS(OFFSET) };
static const size_t sub_array_at[] = { DSE_SM_RESULT_SUB_ARRAYS(OFFSET) };
static const size_t bank_array_at[] = { DSE_SM_RESULT_BANK_ARRAYS(OFFSET) };
#undef OFFSET
#define N_SCALARS (sizeof scalar_at / sizeof *scalar_at)
#define N_SUB_ARRAYS (sizeof sub_array_at / sizeof *sub_array_at)
#define N_BANK_ARRAYS (sizeof bank_array_at / sizeof *bank_array_at)
#define BANK_ARRAY_BYTES (sizeof(double) * SM_MAX_BANKS)

static double *field(dse_sm_result *r, size_t at) { return (double *)((char *)r + at); }
static const double *cfield(const dse_sm_result *r, size_t at)
{
    return (const double *)((const char *)r + at);
}

typedef struct slot {
    uint64_t hash;
    uint32_t len;
    uint8_t *key;     /* NULL: empty; one block: the key, then the values           */
    double *values;   /* into key's block: the run's values (values_of)             */
    uint32_t size;    /* of the block behind key, bytes                              */
    uint32_t reused;  /* hits since it was stored (or since the last eviction)       */
    int32_t chip;     /* the chip it was stored under (the run store's segments)     */
    bool shared;      /* in the run store's shared runs (or no store)                */
} slot;

/* A run's values: the DSE_SM_RESULT_SCALARS in list order, each DSE_SM_RESULT_SUB_ARRAYS
 * by map position, then each DSE_SM_RESULT_BANK_ARRAYS whole. */
#define VALUES_MAX (N_SCALARS + N_SUB_ARRAYS * DSE_MAX_SUBS + N_BANK_ARRAYS * SM_MAX_BANKS)

/* The key's first part, the serialised (configuration, profile, technique), is most of its
 * bytes and the same for long stretches of runs (every SM of a workload, every year of the
 * aging loop).  A memo keeps it with the FNV-1a state after it and, once asked, the run
 * store's SHA-256 state after it, for the last few distinct inputs, found by comparing the
 * three structs' bytes: the serialisation is a function of those bytes, so equal bytes give
 * an equal prefix (padding that differs only costs a miss of the memo).  The store's
 * SHA-256, continued over the rest of the key, is the value hashing the whole key gives;
 * the table's own hash continues the FNV-1a state a word at a time (key_hash). */
#define MEMOS 16 /* the aging loop's mix cycles through every workload (14 shipped) */

/* The SM's share of blocks (sm_sim_share: a function of the inputs' bytes, the SM and
 * the SM count) is kept with the inputs for the first SHARES SMs: its checks of the
 * profile cost more than the rest of a hit's key. */
#define SHARES 64
#define SHARE_UNKNOWN INT_MIN

typedef struct inputs_memo {
    bool used, sha_ready;
    sm_config cfg;
    sm_profile w;
    sm_technique t;
    size_t len;               /* of the prefix                                 */
    uint64_t fnv;             /* FNV-1a state after the prefix                 */
    dse__sha256 sha;          /* the store's key state after it (sha_ready)    */
    int share_n;              /* the SM count of share[] (0: none yet)         */
    int share[SHARES];        /* sm_sim_share per SM, or SHARE_UNKNOWN         */
    uint8_t key[DSE_SIM_INPUTS_KEY_MAX];
} inputs_memo;

struct dse_sim_cache {
    slot *slots;
    size_t mask, used;
    size_t bytes;         /* of the keys' blocks: bounded by DSE_SIM_CACHE_BYTES */
    long hits, misses, stored;
    bool recording;       /* stored runs are copied into rec (dse_sim_cache_record) */
    uint8_t *rec;         /* the recorded runs: records of record_header's layout   */
    size_t rec_len, rec_cap;
    dse_run_store *store; /* NULL: none (not owned)          */
    int chip;             /* the chip being evaluated, or -1 */
    uint8_t key[KEY_MAX]; /* scratch for the key being looked up */
    inputs_memo memo[MEMOS];
    int key_memo;         /* the memo whose prefix c->key starts with, or -1 */
    int memo_next;        /* the memo replaced next (round robin)            */
    double values[VALUES_MAX]; /* scratch for a run's values     */
    sm_stats stats;       /* scratch for a run's statistics      */
};

dse_sim_cache *dse_sim_cache_alloc(int capacity_log2)
{
    dse_sim_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->slots = calloc((size_t)1 << capacity_log2, sizeof *c->slots);
    if (!c->slots) {
        free(c);
        return NULL;
    }
    c->mask = ((size_t)1 << capacity_log2) - 1;
    c->chip = -1;
    c->key_memo = -1;
    return c;
}

static void clear(dse_sim_cache *c)
{
    for (size_t i = 0; i <= c->mask; i++) {
        free(c->slots[i].key);
        c->slots[i].key = NULL;
    }
    c->used = 0;
    c->bytes = 0;
}

/* Full (three quarters of the slots, or the byte budget): keep the runs that were
 * reused since they were stored (ideal, baseline and every rf_bro-based technique: the
 * same runs on every chip), drop the others (a chip's own maps under vl_rf, vl_rv,
 * vl_sb, never met again).  Survivors must be reused again to survive the next
 * eviction; when they alone hold half the budget or a quarter of the slots, everything
 * goes.  Bounded by slots alone, the cache grew with chips up to 49 152 runs, 80 MiB
 * per rank in the default sweep. */
static void evict(dse_sim_cache *c)
{
    size_t n = c->mask + 1, keep_bytes = 0, kept = 0;
    slot *fresh = calloc(n, sizeof *fresh);
    for (size_t i = 0; fresh && i < n; i++)
        if (c->slots[i].key && c->slots[i].reused) {
            keep_bytes += c->slots[i].size;
            kept++;
        }
    if (!fresh || 2 * keep_bytes > DSE_SIM_CACHE_BYTES || 4 * kept > n) {
        free(fresh);
        clear(c);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        slot *s = &c->slots[i];
        if (!s->key)
            continue;
        if (!s->reused) {
            free(s->key);
            continue;
        }
        size_t j = s->hash & c->mask;
        while (fresh[j].key)
            j = (j + 1) & c->mask;
        fresh[j] = *s;
        fresh[j].reused = 0;
    }
    free(c->slots);
    c->slots = fresh;
    c->used = kept;
    c->bytes = keep_bytes;
}

void dse_sim_cache_free(dse_sim_cache *c)
{
    if (!c)
        return;
    clear(c);
    free(c->slots);
    free(c->rec);
    free(c);
}

static size_t put_ints(uint8_t *k, size_t n, const int *v, int count)
{
    memcpy(k + n, v, sizeof(int) * (size_t)count);
    return n + sizeof(int) * (size_t)count;
}

/* Whether any of p[0, n) is not zero, a word at a time: most maps have no slow register
 * vector (every technique but vl_rf and vl_rv), and the key skips their rows. */
static bool any_set(const uint8_t *p, int n)
{
    uint64_t any = 0;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        any |= w;
    }
    for (; i < n; i++)
        any |= p[i];
    return any != 0;
}

/* Serialises every input the timing depends on: the technique's IPC side, the SM
 * configuration and the workload profile from the sweep's key tables (sim_key.c), then
 * the share and the map's fast/slow pattern, field by field, so struct padding never
 * enters the key.  The SM index and SM count enter a run only through the SM's share of
 * blocks (sm.h, sm_sim_share), so the share stands for both and SMs with equal shares
 * and maps reuse one run.  With sm.bro_ports = "physical" the timing also depends on
 * which map positions share a physical bank (model/slow_access.c): each position's
 * physical bank enters too, numbered in order of first appearance, so maps that differ
 * only in the physical banks' names still share a run.  The first part (the three structs)
 * is at k[0, n) already (find_inputs, new_inputs). */
static size_t build_key(uint8_t *k, size_t n, const sm_config *cfg, const sm_profile *w,
                        const sm_technique *t, const sm_rf_map *m, int share)
{
    /* entry_slow bits the run never reads (sm_sim_entries_read) are left out: a map
     * whose slow register vectors all lie past the warps' registers keys as fast */
    int read = sm_sim_entries_read(cfg, w, t, m);
    int head[] = { share, m->n_banks, m->n_entries, m->subs_per_bank };
    n = put_ints(k, n, head, (int)(sizeof head / sizeof *head));
    for (int b = 0; b < m->n_banks; b++)
        for (int s = 0; s < m->subs_per_bank; s++)
            k[n++] = m->sub_slow[b][s];
    if (cfg->bro_ports == SM_BRO_PORTS_PHYSICAL) {
        int name[SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK], named = 0;
        for (int i = 0; i < SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK; i++)
            name[i] = -1;
        for (int b = 0; b < m->n_banks; b++)
            for (int s = 0; s < m->subs_per_bank; s++) {
                int phys = m->sub_id[b][s] / m->subs_per_bank;
                if (name[phys] < 0)
                    name[phys] = named++;
                k[n++] = (uint8_t)name[phys];
            }
    }
    size_t bits = n;
    size_t n_bits = (size_t)m->n_banks * (size_t)m->n_entries;
    memset(k + bits, 0, (n_bits + 7) / 8);
    for (int b = 0; b < m->n_banks; b++) {
        if (!any_set(m->entry_slow[b], read))
            continue;
        for (int e = 0; e < read; e++)
            if (m->entry_slow[b][e]) {
                size_t i = (size_t)b * (size_t)m->n_entries + (size_t)e;
                k[bits + i / 8] |= (uint8_t)(1u << (i % 8));
            }
    }
    return bits + (n_bits + 7) / 8;
}

#define FNV_START 14695981039346656037ull

/* FNV-1a of p[0, n) continued from state h (FNV_START: from the beginning). */
static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* The table's hash of a key: the prefix's FNV-1a state h (kept by its memo) continued
 * over the rest, p[0, n), eight bytes at a time (FNV-1a's byte at a time was a serial
 * multiply per byte of every lookup), then mixed so that the low bits, the slot, depend
 * on every byte.  It places runs in this process's table only; keys are compared whole. */
static uint64_t key_hash(uint64_t h, const uint8_t *p, size_t n)
{
    const uint64_t k = 0x9E3779B97F4A7C15ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    uint64_t tail = 0;
    memcpy(&tail, p + i, n - i);
    h = (h ^ tail ^ (uint64_t)n) * k;
    return h ^ (h >> 32);
}

static bool same_inputs(const inputs_memo *m, const sm_config *cfg, const sm_profile *w,
                        const sm_technique *t)
{
    return m->used && !memcmp(&m->t, t, sizeof *t) && !memcmp(&m->cfg, cfg, sizeof *cfg) &&
           !memcmp(&m->w, w, sizeof *w);
}

/* The memo of inputs (cfg, w, t), or NULL; its prefix is then at c->key[0, len).  The
 * last one used first: runs come in stretches of the same inputs (every SM). */
static inputs_memo *find_inputs(dse_sim_cache *c, const sm_config *cfg, const sm_profile *w,
                                const sm_technique *t)
{
    if (c->key_memo >= 0 && same_inputs(&c->memo[c->key_memo], cfg, w, t))
        return &c->memo[c->key_memo];
    for (int i = 0; i < MEMOS; i++) {
        inputs_memo *m = &c->memo[i];
        if (i != c->key_memo && same_inputs(m, cfg, w, t)) {
            memcpy(c->key, m->key, m->len);
            c->key_memo = i;
            return m;
        }
    }
    return NULL;
}

/* A new memo of inputs (cfg, w, t), valid ones (sm_sim_share accepted them); its prefix
 * is then at c->key[0, len). */
static inputs_memo *new_inputs(dse_sim_cache *c, const sm_config *cfg, const sm_profile *w,
                               const sm_technique *t)
{
    int i = c->memo_next;
    c->memo_next = (i + 1) % MEMOS;
    inputs_memo *m = &c->memo[i];
    m->used = true;
    m->sha_ready = false;
    m->share_n = 0;
    /* copies of the bytes, not of the values: padding as in the caller's structs */
    memcpy(&m->cfg, cfg, sizeof *cfg);
    memcpy(&m->w, w, sizeof *w);
    memcpy(&m->t, t, sizeof *t);
    m->len = dse__sim_inputs_key(cfg, w, t, m->key);
    m->fnv = fnv1a(FNV_START, m->key, m->len);
    memcpy(c->key, m->key, m->len);
    c->key_memo = i;
    return m;
}

/* sm_sim_share of SM sm of n_sms under the memo's inputs, computed once per SM. */
static int share_of(inputs_memo *in, int sm, int n_sms)
{
    if (sm < 0 || sm >= SHARES)
        return sm_sim_share(&in->cfg, &in->w, sm, n_sms);
    if (in->share_n != n_sms) {
        in->share_n = n_sms;
        for (int i = 0; i < SHARES; i++)
            in->share[i] = SHARE_UNKNOWN;
    }
    if (in->share[sm] == SHARE_UNKNOWN)
        in->share[sm] = sm_sim_share(&in->cfg, &in->w, sm, n_sms);
    return in->share[sm];
}

static slot *find(dse_sim_cache *c, uint64_t h, size_t len)
{
    for (size_t i = h & c->mask;; i = (i + 1) & c->mask) {
        slot *s = &c->slots[i];
        if (!s->key || (s->hash == h && s->len == len && !memcmp(s->key, c->key, len)))
            return s;
    }
}

void dse_sm_result_of(const sm_stats *st, const sm_rf_map *m, dse_sm_result *r)
{
    double cycles = st->cycles ? (double)st->cycles : 1.0;
    r->ipc = sm_stats_ipc(st);
    r->cycles = (double)st->cycles;
    r->lane_accesses = (double)(st->read_lanes + st->write_lanes);
    r->rfc_lanes = (double)st->rfc_lanes;
    /* rf_vectors is 0 without reg_release: everything powered */
    r->powered = st->rf_vectors ? (double)st->rr_powered_cycles / ((double)st->rf_vectors * cycles)
                                : 1.0;
    for (int b = 0; b < m->n_banks; b++)
        for (int p = 0; p < m->subs_per_bank; p++) {
            int id = m->sub_id[b][p];
            double acc = (double)(st->sub_reads[id] + st->sub_writes[id]) / cycles;
            double occ = (double)st->sub_occupancy[id] / (cycles * m->n_entries);
            /* coalesce: bits no write refreshes stress one device of their cells without
             * recovery, the share of the time they are held (0 without the design) */
            double cst = (double)st->sub_const[id] / (cycles * m->n_entries);
            if (cst > 0)
                acc = (acc < 1.0 ? acc : 1.0) + (1.0 - (acc < 1.0 ? acc : 1.0)) * (cst < 1.0 ? cst : 1.0);
            r->access_duty[id] = acc < 1.0 ? acc : 1.0;
            r->occupancy_duty[id] = occ < 1.0 ? occ : 1.0;
        }
    for (int b = 0; b < SM_MAX_BANKS; b++) {
        double acc = (double)st->rfc_bank_accesses[b] / cycles;
        r->rfc_duty[b] = acc < 1.0 ? acc : 1.0;
    }
}

static int n_positions(const sm_rf_map *m) { return m->n_banks * m->subs_per_bank; }

static size_t n_values(const sm_rf_map *m)
{
    return N_SCALARS + N_SUB_ARRAYS * (size_t)n_positions(m) + N_BANK_ARRAYS * SM_MAX_BANKS;
}

/* Duties are kept by map position, so a hit from a map with other sub_id labels (the
 * same pattern on other physical sub-banks) gets them under its labels. */
static void values_of(const dse_sm_result *r, const sm_rf_map *m, double *v)
{
    int n = n_positions(m);
    for (size_t i = 0; i < N_SCALARS; i++)
        *v++ = *cfield(r, scalar_at[i]);
    for (size_t a = 0; a < N_SUB_ARRAYS; a++)
        for (int b = 0; b < m->n_banks; b++)
            for (int p = 0; p < m->subs_per_bank; p++)
                v[(size_t)n * a + (size_t)(b * m->subs_per_bank + p)] =
                    cfield(r, sub_array_at[a])[m->sub_id[b][p]];
    v += (size_t)n * N_SUB_ARRAYS;
    for (size_t a = 0; a < N_BANK_ARRAYS; a++)
        memcpy(v + SM_MAX_BANKS * a, cfield(r, bank_array_at[a]), BANK_ARRAY_BYTES);
}

static void result_of(const double *v, const sm_rf_map *m, dse_sm_result *r)
{
    int n = n_positions(m);
    for (size_t i = 0; i < N_SCALARS; i++)
        *field(r, scalar_at[i]) = *v++;
    for (size_t a = 0; a < N_SUB_ARRAYS; a++)
        for (int b = 0; b < m->n_banks; b++)
            for (int p = 0; p < m->subs_per_bank; p++)
                field(r, sub_array_at[a])[m->sub_id[b][p]] =
                    v[(size_t)n * a + (size_t)(b * m->subs_per_bank + p)];
    v += (size_t)n * N_SUB_ARRAYS;
    for (size_t a = 0; a < N_BANK_ARRAYS; a++)
        memcpy(field(r, bank_array_at[a]), v + SM_MAX_BANKS * a, BANK_ARRAY_BYTES);
}

static void store(dse_sim_cache *c, slot *s, uint64_t h, size_t len, size_t nv)
{
    size_t off = (len + sizeof(double) - 1) / sizeof(double) * sizeof(double); /* aligned */
    size_t size = off + sizeof(double) * nv;
    uint8_t *block = malloc(size);
    if (!block)
        return; /* not remembered: only reuse is lost */
    memcpy(block, c->key, len);
    memcpy(block + off, c->values, sizeof(double) * nv);
    *s = (slot){ .hash = h, .len = (uint32_t)len, .size = (uint32_t)size, .key = block,
                 .values = (double *)(block + off), .chip = c->chip, .shared = !c->store };
    c->used++;
    c->bytes += size;
}

/* A run met again on another chip than the one it was stored under goes to the run
 * store's shared runs: every later process holds those in memory, whichever chips it
 * gets (the ideal chip, baseline and rf_bro's fixed patterns: the same runs on every
 * chip, simulated once per rank on its first). */
static void to_shared(dse_sim_cache *c, slot *s, const sm_rf_map *m)
{
    if (s->shared || s->chip == c->chip)
        return;
    uint8_t h[DSE_RUN_STORE_ID];
    dse_run_store_key(c->store, s->key, s->len, h);
    dse_run_store_put(c->store, h, s->values, n_values(m), true);
    s->shared = true;
}

/* The run from the store: its values into c->values; false if it has none.  Its key
 * hashed from the memo's state after the prefix (the same hash as of the whole key). */
static bool from_store(dse_sim_cache *c, inputs_memo *in, size_t len, size_t nv, uint8_t *h,
                       bool *shared)
{
    if (!c->store)
        return false;
    if (!in->sha_ready) {
        dse_run_store_key_start(c->store, in->key, in->len, &in->sha);
        in->sha_ready = true;
    }
    dse_run_store_key_finish(&in->sha, c->key + in->len, len - in->len, h);
    int where = dse_run_store_get(c->store, h, c->values, nv);
    *shared = where == DSE_RUN_STORE_SHARED;
    return where != DSE_RUN_STORE_NONE;
}

/* The run's key into c->key [0, *len), its memo of inputs *in and the table's hash *h.
 * SM_OK, or sm_sim_share's error for inputs the model refuses. */
static int key_of(dse_sim_cache *c, const sm_config *cfg, const sm_profile *w,
                  const sm_technique *t, const sm_rf_map *m, int sm, int n_sms,
                  inputs_memo **in, size_t *len, uint64_t *h)
{
    *in = find_inputs(c, cfg, w, t);
    int share = *in ? share_of(*in, sm, n_sms) : sm_sim_share(cfg, w, sm, n_sms);
    if (share < 0)
        return share;
    if (!*in)
        *in = new_inputs(c, cfg, w, t);
    *len = build_key(c->key, (*in)->len, cfg, w, t, m, share);
    *h = key_hash((*in)->fnv, c->key + (*in)->len, *len - (*in)->len);
    return SM_OK;
}

/* The empty slot s for a new run of hash h, or after an eviction the one that replaces
 * it: short probes (a quarter of the slots free), bounded memory. */
static slot *make_room(dse_sim_cache *c, slot *s, uint64_t h, size_t len)
{
    if (4 * (c->used + 1) > 3 * (c->mask + 1) || c->bytes + KEY_MAX > DSE_SIM_CACHE_BYTES) {
        evict(c);
        s = find(c, h, len);
    }
    return s;
}

/* A recorded run: this header, the key's len bytes, zeros to a multiple of 8, then its
 * nv values.  prefix is the key's first part (the inputs' serialisation), which the table's
 * hash starts from (key_hash). */
typedef struct record_header {
    uint32_t prefix, len, nv, pad;
} record_header;

static size_t record_size(size_t len, size_t nv)
{
    return sizeof(record_header) + (len + 7) / 8 * 8 + sizeof(double) * nv;
}

/* Appends the run at c->key [0, len) with values c->values [0, nv) to c->rec; a run
 * that finds no memory is left out (the other ranks then simulate it themselves). */
static void record(dse_sim_cache *c, size_t prefix, size_t len, size_t nv)
{
    size_t size = record_size(len, nv);
    if (c->rec_len + size > c->rec_cap) {
        size_t cap = c->rec_cap ? 2 * c->rec_cap : (size_t)1 << 16;
        while (cap < c->rec_len + size)
            cap *= 2;
        uint8_t *grown = realloc(c->rec, cap);
        if (!grown)
            return;
        c->rec = grown;
        c->rec_cap = cap;
    }
    uint8_t *p = c->rec + c->rec_len;
    record_header hd = { (uint32_t)prefix, (uint32_t)len, (uint32_t)nv, 0 };
    memset(p, 0, size);
    memcpy(p, &hd, sizeof hd);
    memcpy(p + sizeof hd, c->key, len);
    memcpy(p + size - sizeof(double) * nv, c->values, sizeof(double) * nv);
    c->rec_len += size;
}

void dse_sim_cache_record(dse_sim_cache *c, bool on) { c->recording = on; }

uint8_t *dse_sim_cache_take_record(dse_sim_cache *c, size_t *len)
{
    uint8_t *r = c->rec;
    *len = c->rec_len;
    c->rec = NULL;
    c->rec_len = c->rec_cap = 0;
    return r;
}

int dse_sim_cache_add_record(dse_sim_cache *c, const uint8_t *buf, size_t n)
{
    c->key_memo = -1; /* c->key is overwritten: no memo's prefix is there any more */
    for (size_t at = 0; at < n;) {
        record_header hd;
        if (n - at < sizeof hd)
            return -1;
        memcpy(&hd, buf + at, sizeof hd);
        if (hd.len > KEY_MAX || hd.prefix > hd.len || hd.nv > VALUES_MAX ||
            n - at < record_size(hd.len, hd.nv))
            return -1;
        const uint8_t *p = buf + at + sizeof hd;
        size_t size = record_size(hd.len, hd.nv);
        memcpy(c->key, p, hd.len);
        uint64_t h = key_hash(fnv1a(FNV_START, c->key, hd.prefix), c->key + hd.prefix,
                              hd.len - hd.prefix);
        slot *s = find(c, h, hd.len);
        if (!s->key) {
            s = make_room(c, s, h, hd.len);
            memcpy(c->values, buf + at + size - sizeof(double) * hd.nv, sizeof(double) * hd.nv);
            store(c, s, h, hd.len, hd.nv);
        }
        at += size;
    }
    return 0;
}

int dse_sim_cache_key_hash(dse_sim_cache *c, const sm_config *cfg, const sm_profile *w,
                           const sm_technique *t, const sm_rf_map *m, int sm, int n_sms,
                           uint64_t *hash)
{
    inputs_memo *in;
    size_t len;
    return key_of(c, cfg, w, t, m, sm, n_sms, &in, &len, hash);
}

int dse_sim_cache_run(dse_sim_cache *c, sm_sim *sim, const sm_config *cfg, const sm_profile *w,
                      int w_index, const sm_technique *t, const sm_rf_map *m, int sm, int n_sms,
                      dse_sm_result *out)
{
    (void)w_index; /* the profile itself is in the key */
    inputs_memo *in;
    size_t len, nv = n_values(m);
    uint64_t h;
    int rc = key_of(c, cfg, w, t, m, sm, n_sms, &in, &len, &h);
    if (rc != SM_OK)
        return rc;
    slot *s = find(c, h, len);
    if (s->key) {
        c->hits++;
        s->reused += s->reused < UINT32_MAX;
        to_shared(c, s, m);
        result_of(s->values, m, out);
        return SM_OK;
    }
    uint8_t sh[DSE_RUN_STORE_ID];
    bool shared = false;
    if (from_store(c, in, len, nv, sh, &shared)) {
        c->hits++;
        c->stored++;
        result_of(c->values, m, out);
    } else {
        int rc = sm_sim_run(sim, cfg, w, t, m, sm, n_sms, &c->stats);
        if (rc != SM_OK)
            return rc;
        c->misses++;
        dse_sm_result_of(&c->stats, m, out);
        values_of(out, m, c->values);
        if (c->store)
            dse_run_store_put(c->store, sh, c->values, nv, false);
    }
    s = make_room(c, s, h, len);
    store(c, s, h, len, nv);
    if (s->key)
        s->shared |= shared;
    if (c->recording)
        record(c, in->len, len, nv);
    return SM_OK;
}

void dse_sim_cache_set_store(dse_sim_cache *c, dse_run_store *st)
{
    c->store = st;
    for (int i = 0; i < MEMOS; i++)
        c->memo[i].sha_ready = false; /* the store's states begin with its binary's id */
}

void dse_sim_cache_chip(dse_sim_cache *c, uint64_t seed, int chip)
{
    c->chip = chip;
    if (c->store)
        dse_run_store_chip(c->store, seed, chip);
}

long dse_sim_cache_stored(const dse_sim_cache *c) { return c->stored; }

void dse_sim_cache_counts(const dse_sim_cache *c, long *hits, long *misses)
{
    *hits = c->hits;
    *misses = c->misses;
}
