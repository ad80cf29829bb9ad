/* The run store (dse/smrun/run_store.c): runs come back bit for bit in a later process,
 * by chip and through the shared runs; a store of another binary is not used; a torn
 * tail, a damaged segment and a foreign file are ignored with one warning naming the
 * file; and through the run cache a warm store reuses every run, counted as reused.  The
 * chips kept beside the runs come back bit for bit, never from a damaged file, and only
 * below the cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "dse_run_store.h"
#include "dse_sim_cache.h"

static const uint8_t id_a[DSE_RUN_STORE_ID] = "binary A 0123456";
static const uint8_t id_b[DSE_RUN_STORE_ID] = "binary B 0123456";
static const uint64_t seed = 2026;

static void hex(const uint8_t *h, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", h[i]);
}

static void sha_of(const char *msg, size_t piece, char out[65])
{
    dse__sha256 s;
    uint8_t h[32];
    size_t n = strlen(msg);
    dse__sha256_init(&s);
    for (size_t at = 0; at < n; at += piece)
        dse__sha256_add(&s, msg + at, n - at < piece ? n - at : piece);
    dse__sha256_end(&s, h);
    hex(h, 32, out);
}

/* FIPS 180-4's examples, whole and fed in pieces across block boundaries. */
static void test_sha256_vectors(void **state)
{
    (void)state;
    static const char *msg[] = {
        "", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    };
    static const char *want[] = {
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    };
    char got[65];
    for (int i = 0; i < 3; i++)
        for (size_t piece = 1; piece <= 64; piece *= 4) {
            sha_of(msg[i], piece, got);
            assert_string_equal(got, want[i]);
        }
}

/* The plain blocks and the SHA extensions' (where the processor has them) give the
 * same digest, for every length across the block and padding boundaries and any way
 * the message is fed. */
static void test_sha256_paths(void **state)
{
    (void)state;
    uint8_t msg[1100];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 2654435761u >> 11);
    dse__sha256 probe;
    dse__sha256_init(&probe);
    if (!probe.ni)
        print_message("no SHA extensions here: the plain path only\n");
    for (size_t n = 0; n <= sizeof msg; n += n < 200 ? 1 : 97) {
        uint8_t a[32], b[32];
        dse__sha256 s, t;
        dse__sha256_init(&s);
        dse__sha256_init(&t);
        t.ni = false;
        dse__sha256_add(&s, msg, n);
        for (size_t at = 0; at < n; at += 13)
            dse__sha256_add(&t, msg + at, n - at < 13 ? n - at : 13);
        dse__sha256_end(&s, a);
        dse__sha256_end(&t, b);
        assert_memory_equal(a, b, 32);
    }
}

/* A key hashed in two steps (a prefix once, then the rest from a copy of its state: the
 * run cache's memo of its inputs) is the key hashed whole, wherever the split falls,
 * on and off the 64-byte blocks: stores written before and after the memo agree. */
static void test_key_in_two_steps(void **state)
{
    (void)state;
    char err[256], dir[] = "/tmp/rfdse_store_XXXXXX";
    assert_non_null(mkdtemp(dir));
    dse_run_store *st = dse_run_store_open(dir, id_a, 0, NULL, err, sizeof err);
    assert_non_null(st);
    uint8_t k[3001];
    for (size_t i = 0; i < sizeof k; i++)
        k[i] = (uint8_t)(i * 2654435761u >> 13);
    static const size_t len[] = { 0, 1, 47, 48, 49, 112, 1000, 3001 };
    for (size_t a = 0; a < sizeof len / sizeof *len; a++) {
        uint8_t whole[DSE_RUN_STORE_ID], split[DSE_RUN_STORE_ID], full[32];
        dse__sha256 sha; /* the format: SHA-256 of the binary's id, then the key */
        dse__sha256_init(&sha);
        dse__sha256_add(&sha, id_a, DSE_RUN_STORE_ID);
        dse__sha256_add(&sha, k, len[a]);
        dse__sha256_end(&sha, full);
        dse_run_store_key(st, k, len[a], whole);
        assert_memory_equal(whole, full, DSE_RUN_STORE_ID);
        for (size_t p = 0; p <= len[a]; p += p < 130 ? 1 : 97) {
            dse__sha256 at;
            dse_run_store_key_start(st, k, p, &at);
            dse_run_store_key_finish(&at, k + p, len[a] - p, split);
            assert_memory_equal(whole, split, DSE_RUN_STORE_ID);
            dse_run_store_key_finish(&at, k + p, len[a] - p, split); /* at is not used up */
            assert_memory_equal(whole, split, DSE_RUN_STORE_ID);
        }
    }
    dse_run_store_close(st);
    rmdir(dir);
}

/* ---- a scratch directory ------------------------------------------------------------ */

typedef struct scratch {
    char dir[64];
    char warnings[4096];
} scratch;

static void scratch_make(scratch *s)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/rfdse_store_XXXXXX");
    assert_non_null(mkdtemp(s->dir));
}

static void scratch_remove(scratch *s)
{
    DIR *d = opendir(s->dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", s->dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(s->dir);
}

/* The one store file of the directory (its name into name). */
static void the_file(const scratch *s, char *path, size_t n, char *name)
{
    DIR *d = opendir(s->dir);
    struct dirent *e;
    int found = 0;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".runs")) {
            snprintf(path, n, "%s/%s", s->dir, e->d_name);
            if (name)
                strcpy(name, e->d_name);
            found++;
        }
    closedir(d);
    assert_int_equal(found, 1);
}

/* Opens the store with id, warnings into s->warnings. */
static dse_run_store *open_as(scratch *s, const uint8_t *id, FILE **warn)
{
    char err[256];
    *warn = tmpfile();
    assert_non_null(*warn);
    dse_run_store *st = dse_run_store_open(s->dir, id, 0, *warn, err, sizeof err);
    assert_non_null(st);
    return st;
}

static int lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

static void read_warnings(scratch *s, FILE *warn)
{
    rewind(warn);
    size_t n = fread(s->warnings, 1, sizeof s->warnings - 1, warn);
    s->warnings[n] = 0;
    fclose(warn);
}

/* ---- the store alone ---------------------------------------------------------------- */

enum { NV = 40 };

static void values(double *v, int k)
{
    for (int i = 0; i < NV; i++)
        v[i] = i < 30 ? 1.0 / (i + k + 3) : 0.0; /* trailing zeros are not written */
    if (k == 1)
        v[NV - 1] = -0.0; /* written, not dropped as a trailing zero: it comes back -0.0 */
}

static void key(int k, uint8_t h[DSE_RUN_STORE_ID])
{
    memset(h, 0, DSE_RUN_STORE_ID);
    h[0] = (uint8_t)k, h[9] = 0x5a;
}

/* Chip 0 keeps runs 1 and 2, chip 1 run 3. */
static void write_three(scratch *s)
{
    FILE *warn;
    dse_run_store *st = open_as(s, id_a, &warn);
    double v[NV];
    uint8_t h[DSE_RUN_STORE_ID];
    dse_run_store_chip(st, seed, 0);
    for (int k = 1; k <= 2; k++) {
        key(k, h);
        values(v, k);
        dse_run_store_put(st, h, v, NV, false);
    }
    dse_run_store_chip(st, seed, 1);
    key(3, h);
    values(v, 3);
    dse_run_store_put(st, h, v, NV, false);
    dse_run_store_close(st);
    read_warnings(s, warn);
    assert_string_equal(s->warnings, "");
}

static int lookup(dse_run_store *st, int k)
{
    double v[NV], want[NV];
    uint8_t h[DSE_RUN_STORE_ID];
    key(k, h);
    memset(v, 0xAB, sizeof v);
    int where = dse_run_store_get(st, h, v, NV);
    values(want, k);
    if (where != DSE_RUN_STORE_NONE)
        assert_memory_equal(v, want, sizeof v); /* bit for bit, -0.0 and the zeros too */
    return where;
}

static void test_runs_come_back_by_chip(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    scratch_make(&s);
    write_three(&s);
    dse_run_store *st = open_as(&s, id_a, &warn);
    dse_run_store_chip(st, seed, 0);
    assert_int_equal(lookup(st, 1), DSE_RUN_STORE_CHIP);
    assert_int_equal(lookup(st, 2), DSE_RUN_STORE_CHIP);
    assert_int_equal(lookup(st, 3), DSE_RUN_STORE_NONE); /* chip 1's */
    dse_run_store_chip(st, seed, 1);
    assert_int_equal(lookup(st, 3), DSE_RUN_STORE_CHIP);
    assert_int_equal(lookup(st, 1), DSE_RUN_STORE_NONE);
    dse_run_store_chip(st, seed + 1, 0); /* another seed's chip 0: other maps */
    assert_int_equal(lookup(st, 1), DSE_RUN_STORE_NONE);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    assert_string_equal(s.warnings, "");
    scratch_remove(&s);
}

/* Records are keyed by the binary's identity: another binary finds none, silently. */
static void test_another_binary_finds_nothing(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    scratch_make(&s);
    write_three(&s);
    dse_run_store *st = open_as(&s, id_b, &warn);
    dse_run_store_chip(st, seed, 0);
    assert_int_equal(lookup(st, 1), DSE_RUN_STORE_NONE);
    dse_run_store_chip(st, seed, 1);
    assert_int_equal(lookup(st, 3), DSE_RUN_STORE_NONE);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    assert_string_equal(s.warnings, "");
    /* and the key itself depends on the identity */
    uint8_t k[] = "the same run", ha[DSE_RUN_STORE_ID], hb[DSE_RUN_STORE_ID];
    st = open_as(&s, id_a, &warn);
    dse_run_store_key(st, k, sizeof k, ha);
    dse_run_store_close(st);
    fclose(warn);
    st = open_as(&s, id_b, &warn);
    dse_run_store_key(st, k, sizeof k, hb);
    dse_run_store_close(st);
    fclose(warn);
    assert_memory_not_equal(ha, hb, sizeof ha);
    scratch_remove(&s);
}

/* A file cut short inside its last segment (a crash mid-write): the earlier segment is
 * used, the torn one is not, and one line names the file. */
static void test_torn_tail_is_ignored(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    char path[512], name[256];
    scratch_make(&s);
    write_three(&s);
    the_file(&s, path, sizeof path, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    assert_int_equal(truncate(path, size - 10), 0);
    dse_run_store *st = open_as(&s, id_a, &warn);
    dse_run_store_chip(st, seed, 0);
    assert_int_equal(lookup(st, 1), DSE_RUN_STORE_CHIP);
    dse_run_store_chip(st, seed, 1);
    assert_int_equal(lookup(st, 3), DSE_RUN_STORE_NONE);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    assert_non_null(strstr(s.warnings, name));
    assert_non_null(strstr(s.warnings, "incomplete"));
    assert_int_equal(lines(s.warnings), 1);
    scratch_remove(&s);
}

/* One byte changed inside chip 1's values: that segment is not used (its check fails
 * when chip 1 starts), chip 0's still is, and the warning names the file. */
static void test_damaged_segment_is_ignored(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    char path[512], name[256];
    scratch_make(&s);
    write_three(&s);
    the_file(&s, path, sizeof path, name);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -20, SEEK_END);
    int c = fgetc(f);
    fseek(f, -20, SEEK_END);
    fputc(c ^ 1, f);
    fclose(f);
    dse_run_store *st = open_as(&s, id_a, &warn);
    dse_run_store_chip(st, seed, 1);
    assert_int_equal(lookup(st, 3), DSE_RUN_STORE_NONE);
    dse_run_store_chip(st, seed, 0);
    assert_int_equal(lookup(st, 1), DSE_RUN_STORE_CHIP);
    dse_run_store_chip(st, seed, 1); /* not read (nor said) twice */
    assert_int_equal(lookup(st, 3), DSE_RUN_STORE_NONE);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    assert_non_null(strstr(s.warnings, name));
    assert_non_null(strstr(s.warnings, "damaged"));
    assert_int_equal(lines(s.warnings), 1);
    scratch_remove(&s);
}

/* A file that is no run store's (or too short for a header) is named and skipped. */
static void test_foreign_file_is_ignored(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    char path[512];
    scratch_make(&s);
    write_three(&s);
    snprintf(path, sizeof path, "%s/notes.runs", s.dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 200; i++)
        fputc("rfdse run store?"[i % 16], f);
    fclose(f);
    dse_run_store *st = open_as(&s, id_a, &warn);
    dse_run_store_chip(st, seed, 0);
    assert_int_equal(lookup(st, 1), DSE_RUN_STORE_CHIP);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    assert_non_null(strstr(s.warnings, "notes.runs"));
    assert_int_equal(lines(s.warnings), 1);
    scratch_remove(&s);
}

/* ---- through the run cache ---------------------------------------------------------- */

typedef struct model {
    sm_config cfg;
    sm_profile w;
    sm_technique t;
    sm_rf_map m;
    sm_sim *sim;
} model;

/* rfc_demand: every field of dse_sm_result is nonzero (rfc_lanes, rfc_duty). */
static void model_init(model *x)
{
    sm_config_default(&x->cfg);
    sm_profile_default(&x->w);
    x->w.grid_blocks = 15;
    x->w.insts_per_warp = 60;
    sm_technique_default(&x->t);
    x->t.design[SM_DESIGN_rfc_demand] = true;
    sm_rf_map_all_fast(&x->m, 16, 64, 2);
    x->sim = sm_sim_alloc(&x->cfg);
    assert_non_null(x->sim);
}

/* Runs x's one run on each chip of chips[n] through a fresh cache with a store of
 * binary id; returns the cache's counts. */
static void run_chips(scratch *s, model *x, const uint8_t *id, const int *chips, int n,
                      dse_sm_result *r, long *hits, long *misses, long *stored)
{
    FILE *warn;
    dse_run_store *st = open_as(s, id, &warn);
    dse_sim_cache *c = dse_sim_cache_alloc(6);
    assert_non_null(c);
    dse_sim_cache_set_store(c, st);
    for (int i = 0; i < n; i++) {
        dse_sim_cache_chip(c, seed, chips[i]);
        assert_int_equal(dse_sim_cache_run(c, x->sim, &x->cfg, &x->w, 0, &x->t, &x->m, 0, 15, r),
                         SM_OK);
    }
    dse_sim_cache_counts(c, hits, misses);
    *stored = dse_sim_cache_stored(c);
    dse_sim_cache_free(c);
    dse_run_store_close(st);
    read_warnings(s, warn);
    assert_string_equal(s->warnings, "");
}

static void same_result(const dse_sm_result *a, const dse_sm_result *b, const sm_rf_map *m)
{
#define SAME_SCALAR(name, doc) assert_memory_equal(&a->name, &b->name, sizeof a->name);
#define SAME_BANKS(name, doc) assert_memory_equal(a->name, b->name, sizeof a->name);
    DSE_SM_RESULT_SCALARS(SAME_SCALAR)
    DSE_SM_RESULT_BANK_ARRAYS(SAME_BANKS)
#undef SAME_SCALAR
#undef SAME_BANKS
    for (int bk = 0; bk < m->n_banks; bk++)
        for (int p = 0; p < m->subs_per_bank; p++) {
            int id = m->sub_id[bk][p];
#define SAME_SUB(name, doc) assert_memory_equal(&a->name[id], &b->name[id], sizeof(double));
            DSE_SM_RESULT_SUB_ARRAYS(SAME_SUB)
#undef SAME_SUB
        }
}

/* A later process with the same binary simulates nothing: the run comes from the store,
 * counted as reused, every field bit-identical; another binary simulates it again. */
static void test_warm_store_reuses_runs(void **state)
{
    (void)state;
    scratch s;
    model x;
    static dse_sm_result cold, warm, other;
    long hits, misses, stored;
    const int chip[] = { 4 };
    scratch_make(&s);
    model_init(&x);
    run_chips(&s, &x, id_a, chip, 1, &cold, &hits, &misses, &stored);
    assert_int_equal(misses, 1);
    assert_int_equal(stored, 0);
    assert_true(cold.rfc_lanes > 0);
    memset(&warm, 0xAB, sizeof warm);
    run_chips(&s, &x, id_a, chip, 1, &warm, &hits, &misses, &stored);
    assert_int_equal(misses, 0);
    assert_int_equal(hits, 1);
    assert_int_equal(stored, 1);
    same_result(&cold, &warm, &x.m);
    run_chips(&s, &x, id_b, chip, 1, &other, &hits, &misses, &stored);
    assert_int_equal(misses, 1);
    assert_int_equal(stored, 0);
    same_result(&cold, &other, &x.m);
    sm_sim_free(x.sim);
    scratch_remove(&s);
}

/* Runs recorded by one cache come back from another (the ranks' shared first runs,
 * dse/run/share_runs.c): hits there, every field bit-identical; a run stored after the
 * recording stopped is not handed over; a cut buffer is refused.  Cache b holds a run of
 * other inputs before it takes the record, so its lookups after must not build keys on
 * the record's bytes (the inputs memo's prefix). */
static void test_recorded_runs_move_between_caches(void **state)
{
    (void)state;
    model x;
    static dse_sm_result ra, rb, own;
    long hits, misses;
    model_init(&x);
    sm_profile other = x.w;
    other.insts_per_warp = 40;
    dse_sim_cache *a = dse_sim_cache_alloc(6), *b = dse_sim_cache_alloc(6);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(dse_sim_cache_run(b, x.sim, &x.cfg, &other, 0, &x.t, &x.m, 0, 15, &own), SM_OK);
    dse_sim_cache_record(a, true);
    assert_int_equal(dse_sim_cache_run(a, x.sim, &x.cfg, &x.w, 0, &x.t, &x.m, 0, 15, &ra), SM_OK);
    dse_sim_cache_record(a, false);
    assert_int_equal(dse_sim_cache_run(a, x.sim, &x.cfg, &x.w, 0, &x.t, &x.m, 1, 2, &rb), SM_OK);
    size_t len;
    uint8_t *buf = dse_sim_cache_take_record(a, &len);
    assert_non_null(buf);
    assert_int_equal(dse_sim_cache_add_record(b, buf, len - 1), -1);
    assert_int_equal(dse_sim_cache_add_record(b, buf, len), 0);
    memset(&rb, 0xAB, sizeof rb);
    assert_int_equal(dse_sim_cache_run(b, x.sim, &x.cfg, &x.w, 0, &x.t, &x.m, 0, 15, &rb), SM_OK);
    assert_int_equal(dse_sim_cache_run(b, x.sim, &x.cfg, &other, 0, &x.t, &x.m, 0, 15, &own), SM_OK);
    dse_sim_cache_counts(b, &hits, &misses);
    assert_int_equal(misses, 1); /* other's first run only */
    assert_int_equal(hits, 2);
    same_result(&ra, &rb, &x.m);
    assert_int_equal(dse_sim_cache_run(b, x.sim, &x.cfg, &x.w, 0, &x.t, &x.m, 1, 2, &rb), SM_OK);
    dse_sim_cache_counts(b, &hits, &misses);
    assert_int_equal(misses, 2); /* run after the recording: not handed over */
    free(buf);
    dse_sim_cache_free(a);
    dse_sim_cache_free(b);
    sm_sim_free(x.sim);
}

/* A run one process used on two chips (0, then 1) is a shared run: a later process
 * finds it on a chip it never met (7). */
static void test_shared_runs_reach_every_chip(void **state)
{
    (void)state;
    scratch s;
    model x;
    static dse_sm_result r;
    long hits, misses, stored;
    const int first[] = { 0, 1 }, later[] = { 7 };
    scratch_make(&s);
    model_init(&x);
    run_chips(&s, &x, id_a, first, 2, &r, &hits, &misses, &stored);
    assert_int_equal(misses, 1);
    assert_int_equal(hits, 1);
    run_chips(&s, &x, id_a, later, 1, &r, &hits, &misses, &stored);
    assert_int_equal(misses, 0);
    assert_int_equal(stored, 1);
    sm_sim_free(x.sim);
    scratch_remove(&s);
}

/* ---- the variation model's tables ---------------------------------------------------- */

typedef struct counting {
    var_table_cache inner;
    int loads, saves;
} counting;

static int count_load(void *arg, const uint8_t *id, size_t id_len, float *q, size_t n)
{
    counting *c = arg;
    int got = c->inner.load(c->inner.arg, id, id_len, q, n);
    c->loads += got;
    return got;
}

static void count_save(void *arg, const uint8_t *id, size_t id_len, const float *q, size_t n)
{
    counting *c = arg;
    c->saves++;
    c->inner.save(c->inner.arg, id, id_len, q, n);
}

static var_chip *chip_with(dse_run_store *st, const var_params *p, counting *c)
{
    var_table_cache tc = { .load = count_load, .save = count_save, .arg = c };
    int err = 0;
    *c = (counting){ 0 };
    dse_run_store_tables(st, &c->inner);
    var_chip *chip = var_chip_alloc_tables(p, &tc, &err);
    assert_non_null(chip);
    assert_int_equal(var_chip_generate(chip, p, seed, 5), 0);
    return chip;
}

/* The first process builds the chip's tables and saves them in the store; a later one
 * of the same binary loads every one (builds none) and draws the same chip bit for bit;
 * another binary finds none; a damaged table file is not loaded. */
static void test_tables_come_back(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    var_params p;
    counting first, later, other;
    scratch_make(&s);
    var_params_default(&p);
    dse_run_store *st = open_as(&s, id_a, &warn);
    var_chip *a = chip_with(st, &p, &first);
    assert_int_equal(first.loads, 0);
    assert_true(first.saves >= 1);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    st = open_as(&s, id_a, &warn);
    var_chip *b = chip_with(st, &p, &later);
    assert_int_equal(later.loads, first.saves);
    assert_int_equal(later.saves, 0);
    for (int sm = 0; sm < p.floorplan.n_sms; sm++) {
        int regs = p.floorplan.n_banks * p.floorplan.entries_per_bank *
                   (p.floorplan.bits_per_entry / 32);
        assert_memory_equal(var_chip_register_delays(a, sm), var_chip_register_delays(b, sm),
                            sizeof(double) * (size_t)regs);
    }
    dse_run_store_close(st);
    read_warnings(&s, warn);
    st = open_as(&s, id_b, &warn);
    var_table_cache tc;
    dse_run_store_tables(st, &tc);
    static float q[1 << 20];
    uint8_t id[] = "some table";
    assert_int_equal(tc.load(tc.arg, id, sizeof id, q, 100), 0); /* none saved */
    tc.save(tc.arg, id, sizeof id, q, 100);
    assert_int_equal(tc.load(tc.arg, id, sizeof id, q, 100), 1);
    assert_int_equal(tc.load(tc.arg, id, sizeof id, q, 99), 0); /* another size */
    DIR *d = opendir(s.dir);
    struct dirent *e;
    char path[512];
    while ((e = readdir(d))) /* damage every table: one float's byte */
        if (strstr(e->d_name, ".tab")) {
            snprintf(path, sizeof path, "%s/%s", s.dir, e->d_name);
            FILE *f = fopen(path, "r+b");
            assert_non_null(f);
            fseek(f, 48 + 17, SEEK_SET);
            int ch = fgetc(f);
            fseek(f, 48 + 17, SEEK_SET);
            fputc(ch ^ 0x10, f);
            fclose(f);
        }
    closedir(d);
    assert_int_equal(tc.load(tc.arg, id, sizeof id, q, 100), 0);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    st = open_as(&s, id_a, &warn);
    var_chip *c = chip_with(st, &p, &other);
    assert_int_equal(other.loads, 0); /* damaged: built again */
    assert_int_equal(other.saves, first.saves);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    assert_string_equal(s.warnings, "");
    var_chip_free(a), var_chip_free(b), var_chip_free(c);
    scratch_remove(&s);
}

/* ---- chips kept in the store (run_store_chips.c) --------------------------------------- */

static int chip_files(const scratch *s)
{
    DIR *d = opendir(s->dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        n += strstr(e->d_name, ".chip") != NULL && e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* A small chip (2 SMs) whose tables come from the store. */
static void small_params(var_params *p)
{
    var_params_default(p);
    p->floorplan.n_sms = 2;
}

static var_chip *chip_for(dse_run_store *st, const var_params *p)
{
    var_table_cache tc;
    int err = 0;
    dse_run_store_tables(st, &tc);
    var_chip *c = var_chip_alloc_tables(p, &tc, &err);
    assert_non_null(c);
    return c;
}

/* Chip `chip` through the store: loaded (1) or generated (0). */
static int kept(dse_run_store *st, var_chip *c, const var_params *p, int chip)
{
    var_chip_keep k;
    dse_run_store_chips(st, &k);
    assert_int_equal(var_chip_generate_kept(c, p, seed, chip, &k), VAR_OK);
    return var_chip_loaded(c);
}

/* c holds chip `chip` exactly as var_chip_generate draws it (every public value). */
static void is_generated(var_chip *c, var_chip *ref, const var_params *p, int chip)
{
    const var_floorplan *f = &p->floorplan;
    size_t entries = (size_t)f->n_banks * f->entries_per_bank;
    size_t regs = entries * (size_t)(f->bits_per_entry / 32), subs = (size_t)f->n_banks * f->sub_banks;
    assert_int_equal(var_chip_generate(ref, p, seed, chip), VAR_OK);
    for (int sm = 0; sm < f->n_sms; sm++) {
        int r1, c1, r2, c2;
        const double *ga = var_chip_field(c, sm, &r1, &c1), *gb = var_chip_field(ref, sm, &r2, &c2);
        assert_memory_equal(ga, gb, sizeof(double) * (size_t)r1 * (size_t)c1);
        assert_memory_equal(var_chip_register_delays(c, sm), var_chip_register_delays(ref, sm),
                            sizeof(double) * regs);
        assert_memory_equal(var_chip_entry_delays(c, sm), var_chip_entry_delays(ref, sm),
                            sizeof(double) * entries);
        assert_memory_equal(var_chip_sub_bank_delays(c, sm), var_chip_sub_bank_delays(ref, sm),
                            sizeof(double) * subs);
        assert_memory_equal(var_chip_sub_bank_leff(c, sm), var_chip_sub_bank_leff(ref, sm),
                            sizeof(double) * subs);
        double fa = var_chip_sm_frequency(c, sm), fb = var_chip_sm_frequency(ref, sm);
        assert_memory_equal(&fa, &fb, sizeof fa);
    }
}

/* The first process generates chips and keeps them; a later one of the same binary loads
 * them, the values a generation gives; another binary's process finds none. */
static void test_chips_come_back(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    var_params p;
    small_params(&p);
    scratch_make(&s);
    dse_run_store *st = open_as(&s, id_a, &warn);
    var_chip *c = chip_for(st, &p), *ref = chip_for(st, &p);
    for (int k = 0; k < 3; k++)
        assert_false(kept(st, c, &p, k));
    assert_int_equal(dse__run_store_chip_files(st)->saved, 3);
    assert_int_equal(chip_files(&s), 3);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    st = open_as(&s, id_a, &warn);
    for (int k = 2; k >= 0; k--) {
        assert_true(kept(st, c, &p, k));
        is_generated(c, ref, &p, k);
    }
    assert_int_equal(dse__run_store_chip_files(st)->loaded, 3);
    assert_int_equal(dse__run_store_chip_files(st)->saved, 0);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    st = open_as(&s, id_b, &warn);
    assert_false(kept(st, c, &p, 1)); /* another binary: generated, kept under its name */
    assert_int_equal(chip_files(&s), 4);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    assert_string_equal(s.warnings, "");
    var_chip_free(c), var_chip_free(ref);
    scratch_remove(&s);
}

/* The one chip file of the directory into path. */
static void the_chip(const scratch *s, char *path, size_t n)
{
    DIR *d = opendir(s->dir);
    struct dirent *e;
    int found = 0;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".chip") && e->d_name[0] != '.')
            snprintf(path, n, "%s/%s", s->dir, e->d_name), found++;
    closedir(d);
    assert_int_equal(found, 1);
}

/* A damaged chip file (a payload byte, a header byte, cut short, grown, empty) is not
 * read: one warning naming it, the chip generated, the file replaced by a good one. */
static void test_damaged_chip_is_generated_again(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    var_params p;
    small_params(&p);
    scratch_make(&s);
    dse_run_store *st = open_as(&s, id_a, &warn);
    var_chip *c = chip_for(st, &p), *ref = chip_for(st, &p);
    assert_false(kept(st, c, &p, 7));
    char path[512];
    the_chip(&s, path, sizeof path);
    struct { long at; int cut; const char *what; } damage[] = {
        { 64 + 8 * 1000 + 3, 0, "a payload byte" }, { 40, 0, "a header byte (the key)" },
        { 0, -8, "cut short" }, { 0, 8, "grown" }, { 0, 1, "empty" } };
    for (size_t i = 0; i < sizeof damage / sizeof *damage; i++) {
        FILE *f = fopen(path, "r+b");
        assert_non_null(f);
        if (!damage[i].cut) {
            fseek(f, damage[i].at, SEEK_SET);
            int ch = fgetc(f);
            fseek(f, damage[i].at, SEEK_SET);
            fputc(ch ^ 0x04, f);
        }
        fclose(f);
        struct stat sb;
        assert_int_equal(stat(path, &sb), 0);
        if (damage[i].cut)
            assert_int_equal(truncate(path, damage[i].cut == 1 ? 0 : sb.st_size + damage[i].cut), 0);
        dse_run_store_close(st);
        read_warnings(&s, warn);
        st = open_as(&s, id_a, &warn);
        assert_false(kept(st, c, &p, 7)); /* not read: generated, and kept again */
        is_generated(c, ref, &p, 7);
        dse_run_store_close(st);
        read_warnings(&s, warn);
        if (lines(s.warnings) != 1 || !strstr(s.warnings, strrchr(path, '/') + 1))
            fail_msg("%s: one warning naming the file expected, got: %s", damage[i].what,
                     s.warnings);
        st = open_as(&s, id_a, &warn);
        assert_true(kept(st, c, &p, 7)); /* replaced: whole again */
        is_generated(c, ref, &p, 7);
        assert_int_equal(chip_files(&s), 1);
    }
    dse_run_store_close(st);
    read_warnings(&s, warn);
    var_chip_free(c), var_chip_free(ref);
    scratch_remove(&s);
}

/* Only chips with index below the cap are written, and read: cap 2 keeps chips 0 and 1
 * of 0..3; cap 4 then reads those two and keeps the others; cap 2 again does not read
 * chip 3's file; cap 0 neither reads nor writes. */
static void test_chip_cap(void **state)
{
    (void)state;
    scratch s;
    FILE *warn;
    var_params p;
    small_params(&p);
    scratch_make(&s);
    dse_run_store *st = open_as(&s, id_a, &warn);
    assert_int_equal(dse__run_store_chip_files(st)->cap, DSE_RUN_STORE_CHIPS);
    var_chip *c = chip_for(st, &p);
    dse_run_store_set_chip_cap(st, 2);
    for (int k = 0; k < 4; k++)
        assert_false(kept(st, c, &p, k));
    assert_int_equal(chip_files(&s), 2);
    dse_run_store_set_chip_cap(st, 4);
    for (int k = 0; k < 4; k++)
        assert_int_equal(kept(st, c, &p, k), k < 2);
    assert_int_equal(chip_files(&s), 4);
    dse_run_store_set_chip_cap(st, 2);
    assert_false(kept(st, c, &p, 3));
    assert_true(kept(st, c, &p, 1));
    dse_run_store_set_chip_cap(st, 0);
    assert_false(kept(st, c, &p, 0));
    assert_false(kept(st, c, &p, 5));
    assert_int_equal(chip_files(&s), 4);
    dse_run_store_close(st);
    read_warnings(&s, warn);
    assert_string_equal(s.warnings, "");
    var_chip_free(c);
    scratch_remove(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_vectors),
        cmocka_unit_test(test_sha256_paths),
        cmocka_unit_test(test_key_in_two_steps),
        cmocka_unit_test(test_runs_come_back_by_chip),
        cmocka_unit_test(test_another_binary_finds_nothing),
        cmocka_unit_test(test_torn_tail_is_ignored),
        cmocka_unit_test(test_damaged_segment_is_ignored),
        cmocka_unit_test(test_foreign_file_is_ignored),
        cmocka_unit_test(test_warm_store_reuses_runs),
        cmocka_unit_test(test_shared_runs_reach_every_chip),
        cmocka_unit_test(test_recorded_runs_move_between_caches),
        cmocka_unit_test(test_tables_come_back),
        cmocka_unit_test(test_chips_come_back),
        cmocka_unit_test(test_damaged_chip_is_generated_again),
        cmocka_unit_test(test_chip_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
