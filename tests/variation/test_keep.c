/* Chips kept by a caller (variation/keep.c, var_chip_generate_kept): a chip loaded is
 * the chip generated, bit for bit, in every value and every later use (the register
 * file cache's draws, the techniques' maps, the fast aging, the per-cell maps), on
 * several floorplans, even into a chip object that held another, aged chip before; a
 * load that fails leaves a generated chip whatever it wrote; the id tells every knob,
 * seed and chip apart. */
#include <string.h>

#include "var_internal.h"
#include "vt_tables.h"
#include "vtest.h"

/* ---- a keeper in memory: one chip, found by its id bytes ---------------------------- */

typedef struct mem_keep {
    uint8_t id[4096];
    size_t id_len;
    double *buf;
    size_t n;
    int loads, saves, misses;
    int scribble; /* a load that misses writes NaN into every part first */
} mem_keep;

static int mem_load(void *arg, const uint8_t *id, size_t id_len, int64_t chip,
                    double *const *part, const size_t *n, int n_parts)
{
    (void)chip;
    mem_keep *m = arg;
    if (!m->buf || id_len != m->id_len || memcmp(id, m->id, id_len)) {
        for (int i = 0; m->scribble && i < n_parts; i++)
            for (size_t j = 0; j < n[i]; j++)
                part[i][j] = NAN;
        m->misses++;
        return 0;
    }
    for (int i = 0, at = 0; i < n_parts; at += (int)n[i], i++)
        memcpy(part[i], m->buf + at, sizeof(double) * n[i]);
    m->loads++;
    return 1;
}

static void mem_save(void *arg, const uint8_t *id, size_t id_len, int64_t chip,
                     const double *const *part, const size_t *n, int n_parts)
{
    (void)chip;
    mem_keep *m = arg;
    assert_true(id_len <= sizeof m->id);
    size_t total = 0;
    for (int i = 0; i < n_parts; i++)
        total += n[i];
    free(m->buf);
    m->buf = malloc(sizeof(double) * total);
    assert_non_null(m->buf);
    for (int i = 0, at = 0; i < n_parts; at += (int)n[i], i++)
        memcpy(m->buf + at, part[i], sizeof(double) * n[i]);
    memcpy(m->id, id, id_len);
    m->id_len = id_len, m->n = total;
    m->saves++;
}

/* The tables of the maximum in memory, so the second chip object builds none (0.5 s). */
static var_chip *alloc_with(const var_params *p, vt_tables *t)
{
    var_table_cache tc = vt_tables_cache(t);
    int err = 0;
    var_chip *c = var_chip_alloc_tables(p, &tc, &err);
    if (!c)
        fail_msg("var_chip_alloc: %s", var_strerror(err));
    return c;
}

/* ---- comparisons ---------------------------------------------------------------------- */

#define SAME(a, b, field, count)                                                          \
    assert_memory_equal((a)->field, (b)->field, sizeof(double) * (size_t)(count))

/* Every value generate leaves behind. */
static void same_values(const var_chip *a, const var_chip *b)
{
    size_t S = (size_t)a->n_sms, np = (size_t)a->plan.grid_rows * a->plan.grid_cols;
    SAME(a, b, g, np * (size_t)a->plan.n_fields);
    SAME(a, b, reg, S * (size_t)a->n_regs);
    SAME(a, b, entry, S * (size_t)a->n_entries);
    SAME(a, b, sub, S * (size_t)a->n_subs);
    SAME(a, b, bank, S * (size_t)a->n_banks);
    SAME(a, b, sm_freq, S);
    SAME(a, b, sm_ratio, S);
    SAME(a, b, sub_leff, S * (size_t)a->n_subs);
    double fa = var_chip_frequency(a), fb = var_chip_frequency(b);
    assert_memory_equal(&fa, &fb, sizeof fa);
}

/* The later uses: every SM's register-file cache draw, the maps and frequencies of a
 * sub-bank technique with and without rf_bro and of vl_rf, then the fast aging (a and b
 * are aged alike and compared again). */
static void same_uses(var_chip *a, var_chip *b, const var_params *p)
{
    int subs = a->n_subs, banks = p->floorplan.n_banks;
    double da[64], la[64], db[64], lb[64];
    for (int sm = 0; sm < a->n_sms; sm++) {
        assert_int_equal(var_chip_cache(a, sm, 128, 16, da, la), VAR_OK);
        assert_int_equal(var_chip_cache(b, sm, 128, 16, db, lb), VAR_OK);
        assert_memory_equal(da, db, sizeof(double) * 16);
        assert_memory_equal(la, lb, sizeof(double) * 16);
        var_technique t;
        var_technique_default(&t);
        for (int k = 0; k < 3; k++) {
            t.granularity = k == 2 ? VAR_GRAN_REGISTER : VAR_GRAN_SUB_BANK;
            t.bro = k == 1;
            var_rf_map ma, mb;
            double fa, fb;
            memset(&ma, 0, sizeof ma), memset(&mb, 0, sizeof mb);
            assert_int_equal(var_technique_apply(a, p, &t, sm, &ma, &fa), VAR_OK);
            assert_int_equal(var_technique_apply(b, p, &t, sm, &mb, &fb), VAR_OK);
            assert_memory_equal(&ma, &mb, sizeof ma);
            assert_memory_equal(&fa, &fb, sizeof fa);
        }
    }
    double ts[512], tr[512];
    assert_true(subs <= 512 && banks <= 64);
    for (int i = 0; i < subs; i++)
        ts[i] = (0.2 + 0.6 * i / subs) * 3 * VAR_YEAR_S, tr[i] = 3 * VAR_YEAR_S - ts[i];
    for (int sm = 0; sm < a->n_sms; sm++) {
        assert_int_equal(var_chip_age_registers(a, p, sm, ts, tr), VAR_OK);
        assert_int_equal(var_chip_age_registers(b, p, sm, ts, tr), VAR_OK);
    }
    same_values(a, b);
}

/* ---- the cases ------------------------------------------------------------------------ */

static const uint64_t seed = 2026;

/* Generated in one object and kept; loaded into another that held chip 9, aged; the
 * same bits everywhere.  cells: also compare SM 0's per-cell maps (slow: small RFs). */
static void loaded_is_generated(const var_params *p, bool cells)
{
    vt_tables *tabs = calloc(1, sizeof *tabs);
    assert_non_null(tabs);
    mem_keep m = { 0 };
    var_chip_keep k = { mem_load, mem_save, &m };
    var_chip *gen = alloc_with(p, tabs), *ld = alloc_with(p, tabs);
    double ts[512], tr[512];
    for (int i = 0; i < 512; i++)
        ts[i] = 4 * VAR_YEAR_S, tr[i] = 0;
    assert_int_equal(var_chip_generate(ld, p, seed, 9), VAR_OK);
    assert_int_equal(var_chip_age_registers(ld, p, 0, ts, tr), VAR_OK); /* time zero saved */

    assert_int_equal(var_chip_generate_kept(gen, p, seed, 4, &k), VAR_OK);
    assert_int_equal(m.saves, 1);
    assert_false(var_chip_loaded(gen));
    assert_int_equal(var_chip_generate_kept(ld, p, seed, 4, &k), VAR_OK);
    assert_int_equal(m.loads, 1);
    assert_true(var_chip_loaded(ld));
    same_values(gen, ld);
    if (cells) {
        size_t n = (size_t)p->floorplan.n_banks * p->floorplan.entries_per_bank *
                   p->floorplan.bits_per_entry;
        double *ca = malloc(sizeof(double) * 4 * n), *cb = ca + 2 * n;
        assert_non_null(ca);
        assert_int_equal(var_chip_cells(gen, p, 0, ca, ca + n), VAR_OK);
        assert_int_equal(var_chip_cells(ld, p, 0, cb, cb + n), VAR_OK);
        assert_memory_equal(ca, cb, sizeof(double) * 2 * n);
        free(ca);
    }
    same_uses(gen, ld, p);

    /* other chips and seeds are not this one: generated, not loaded */
    assert_int_equal(var_chip_generate_kept(ld, p, seed, 5, &k), VAR_OK);
    assert_int_equal(var_chip_generate_kept(ld, p, seed + 1, 4, &k), VAR_OK);
    assert_int_equal(m.loads, 1);
    assert_false(var_chip_loaded(ld));
    free(m.buf);
    var_chip_free(gen);
    var_chip_free(ld);
    vt_tables_free(tabs);
}

static void test_default_floorplan(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    loaded_is_generated(&p, false);
}

/* One field over the die (an odd field count: the FFT's second output is scratch),
 * interleaved lanes, the 1:4 split; small enough for the per-cell maps. */
static void test_chip_domain_interleaved(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    p.floorplan.n_sms = 3;
    p.floorplan.n_banks = 4, p.floorplan.bits_per_entry = 256;
    p.floorplan.lane_interleave = 4;
    p.variation.domain = VAR_DOMAIN_CHIP, p.variation.sigma_ratio = 0.25;
    loaded_is_generated(&p, true);
}

/* Two bank columns, wider Vth spread (pieces of other lengths). */
static void test_two_bank_columns(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    p.floorplan.bank_cols = 2, p.floorplan.n_sms = 4, p.variation.vth_sigma = 0.3;
    loaded_is_generated(&p, false);
}

/* A load that misses after writing into the parts leaves the chip generate draws. */
static void test_failed_load_generates(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    p.floorplan.n_sms = 2;
    vt_tables *tabs = calloc(1, sizeof *tabs);
    assert_non_null(tabs);
    mem_keep m = { .scribble = 1 };
    var_chip_keep k = { mem_load, NULL, &m };
    var_chip *a = alloc_with(&p, tabs), *b = alloc_with(&p, tabs);
    assert_int_equal(var_chip_generate(a, &p, seed, 3), VAR_OK);
    assert_int_equal(var_chip_generate_kept(b, &p, seed, 3, &k), VAR_OK);
    assert_int_equal(m.misses, 1);
    assert_false(var_chip_loaded(b));
    same_values(a, b);
    var_chip_free(a);
    var_chip_free(b);
    vt_tables_free(tabs);
}

/* Every byte of the floorplan, variation and timing knobs that var__chip_same_params
 * tells apart reaches the id (a flipped bit changes var__keep_params' bytes); the bytes
 * that reach neither are the structs' padding, 12 of them: a knob added to the structs
 * and not to the id adds to that count. */
static void test_id_holds_every_knob(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    uint8_t base[VAR__KEEP_PARAMS], now[VAR__KEEP_PARAMS];
    assert_int_equal(var__keep_params(&p, base), VAR__KEEP_PARAMS);
    struct { void *at; size_t n; } parts[] = { { &p.floorplan, sizeof p.floorplan },
                                               { &p.variation, sizeof p.variation },
                                               { &p.timing, sizeof p.timing } };
    int silent = 0;
    for (size_t s = 0; s < 3; s++)
        for (size_t i = 0; i < parts[s].n; i++) {
            var_params q = p;
            uint8_t *b = (uint8_t *)&q + ((uint8_t *)parts[s].at - (uint8_t *)&p) + i;
            *b ^= 0x10;
            var__keep_params(&q, now);
            int id_same = !memcmp(base, now, sizeof base);
            if (!var__chip_same_params(&p, &q))
                assert_false(id_same); /* the chip may differ: so must the id */
            silent += id_same;
        }
    assert_int_equal(silent, 12);
}

/* The whole id: seed and chip reach it. */
static void test_id_holds_seed_and_chip(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    p.floorplan.n_sms = 2;
    vt_tables *tabs = calloc(1, sizeof *tabs);
    assert_non_null(tabs);
    var_chip *c = alloc_with(&p, tabs);
    const uint8_t *id;
    uint8_t first[4096];
    size_t n = var__keep_id(c, seed, 4, &id);
    assert_true(n > VAR__KEEP_PARAMS && n <= sizeof first);
    memcpy(first, id, n);
    assert_int_equal(var__keep_id(c, seed, 4, &id), n);
    assert_memory_equal(first, id, n);
    assert_int_equal(var__keep_id(c, seed, 5, &id), n);
    assert_memory_not_equal(first, id, n);
    assert_int_equal(var__keep_id(c, seed ^ (1ULL << 40), 4, &id), n);
    assert_memory_not_equal(first, id, n);
    var_chip_free(c);
    vt_tables_free(tabs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_floorplan),
        cmocka_unit_test(test_chip_domain_interleaved),
        cmocka_unit_test(test_two_bank_columns),
        cmocka_unit_test(test_failed_load_generates),
        cmocka_unit_test(test_id_holds_every_knob),
        cmocka_unit_test(test_id_holds_seed_and_chip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
