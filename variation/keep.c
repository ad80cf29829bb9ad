/* Chips kept by a caller (var_chip_keep in var.h): the id of a chip, and a chip loaded
 * instead of generated.
 *
 * What is kept is what generate draws: the systematic fields g and the register delays
 * reg, everything random.  The rest of a generated chip is a function of those two and
 * is recomputed here by the same code generate runs (var__chip_aggregate: entry,
 * sub-bank and bank delays, SM frequencies and ratios; var__chip_split_leff: the aging's
 * Leff per sub-bank), so its bits are generate's.  Not restored: gcol, generate's
 * table columns of g (read only while drawing reg), and g_spare, the second output of
 * an FFT when the field count is odd (scratch).  Keeping the whole state instead
 * (entry .. sub_leff as well) saves the recomputation, 0.5 ms a chip, and writes 3 %
 * more bytes (docs/performance.md, "Chips in the run store"). */
#include <stdlib.h>

#include "var_internal.h"

#define KEEP_TAG "rfdse chip"
#define KEEP_VERSION 1u
#define KEEP_PARTS 2

/* The processor features that select library code: glibc's exp, log, pow and FFTW's
 * codelets have AVX, FMA and AVX-512 builds chosen at run time, and this module's axis
 * loop an AVX2 one (maxtab.c).  Kept chips' and tables' names include them. */
uint32_t var__cpu_features(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    uint32_t avx = __builtin_cpu_supports("avx") != 0, avx2 = __builtin_cpu_supports("avx2") != 0;
    uint32_t fma = __builtin_cpu_supports("fma") != 0;
    uint32_t avx512 = __builtin_cpu_supports("avx512f") != 0;
    return avx | avx2 << 1 | fma << 2 | avx512 << 3;
#else
    return 0;
#endif
}

static void put(uint8_t **at, const void *v, size_t n)
{
    memcpy(*at, v, n);
    *at += n;
}

size_t var__keep_params(const var_params *p, uint8_t out[VAR__KEEP_PARAMS])
{
    const var_floorplan *f = &p->floorplan;
    const var_variation *v = &p->variation;
    const var_timing *t = &p->timing;
    const int32_t ints[] = { f->n_sms, f->sm_cols, f->sm_rows, f->n_banks, f->bank_cols,
                             f->entries_per_bank, f->bits_per_entry, f->sub_banks,
                             f->lane_interleave, (int32_t)v->domain, v->grid_cols,
                             (int32_t)v->method, (int32_t)t->cell };
    const double dbls[] = { f->die_width_mm, f->rf_fraction, f->cell_aspect, v->phi,
                            v->vth_sigma, v->leff_sigma, v->sigma_ratio, t->vdd, t->vth0,
                            t->alpha };
    _Static_assert(sizeof ints + sizeof dbls == VAR__KEEP_PARAMS, "VAR__KEEP_PARAMS");
    uint8_t *at = out;
    put(&at, ints, sizeof ints);
    put(&at, dbls, sizeof dbls);
    return (size_t)(at - out);
}

/* The part of the id every chip of c shares, and room for (seed, chip) after it. */
static int build_id(var_chip *c)
{
    char *lib = var__field_lib(c->field);
    if (!lib)
        return VAR_ENOMEM;
    const uint32_t head[] = { KEEP_VERSION, KEEP_PARTS, var__cpu_features() };
    size_t len = sizeof KEEP_TAG + sizeof head + VAR__KEEP_PARAMS + strlen(lib) + 1;
    c->keep_id = malloc(len + sizeof(uint64_t) + sizeof(int64_t));
    if (!c->keep_id) {
        free(lib);
        return VAR_ENOMEM;
    }
    uint8_t *at = c->keep_id;
    put(&at, KEEP_TAG, sizeof KEEP_TAG);
    put(&at, head, sizeof head);
    at += var__keep_params(&c->p, at);
    put(&at, lib, strlen(lib) + 1);
    c->keep_id_len = (size_t)(at - c->keep_id);
    free(lib);
    return VAR_OK;
}

/* The rest of a chip whose g and reg were loaded: what generate computes from them. */
static void finish_loaded(var_chip *c, uint64_t seed, int64_t chip)
{
    memset(c->age_ready, 0, (size_t)c->n_sms);
    for (int sm = 0; sm < c->n_sms; sm++) {
        var__chip_aggregate(c, sm);
        var__chip_split_leff(c, sm);
    }
    c->seed = seed, c->chip = chip, c->generated = 1, c->loaded = 1;
}

size_t var__keep_id(var_chip *c, uint64_t seed, int64_t chip, const uint8_t **id)
{
    if (!c->keep_id && build_id(c))
        return 0;
    uint8_t *at = c->keep_id + c->keep_id_len;
    put(&at, &seed, sizeof seed);
    put(&at, &chip, sizeof chip);
    *id = c->keep_id;
    return (size_t)(at - c->keep_id);
}

int var_chip_generate_kept(var_chip *c, const var_params *p, uint64_t seed, int64_t chip,
                           const var_chip_keep *k)
{
    if (!k || !var__chip_same_params(p, &c->p) || chip < 0 || chip > (int64_t)UINT32_MAX)
        return var_chip_generate(c, p, seed, chip); /* or its error */
    const uint8_t *id;
    size_t len = var__keep_id(c, seed, chip, &id);
    if (!len) /* no memory for the id: the chip is still generated, not kept */
        return var_chip_generate(c, p, seed, chip);
    size_t np = (size_t)c->plan.grid_rows * c->plan.grid_cols;
    double *const part[KEEP_PARTS] = { c->g, c->reg };
    const size_t n[KEEP_PARTS] = { np * (size_t)c->plan.n_fields,
                                   (size_t)c->n_sms * (size_t)c->n_regs };
    if (k->load && k->load(k->arg, id, len, chip, part, n, KEEP_PARTS)) {
        finish_loaded(c, seed, chip);
        return VAR_OK;
    }
    int rc = var_chip_generate(c, p, seed, chip);
    if (!rc && k->save)
        k->save(k->arg, id, len, chip, (const double *const *)part, n, KEEP_PARTS);
    return rc;
}

int var_chip_loaded(const var_chip *c) { return c->generated && c->loaded; }
