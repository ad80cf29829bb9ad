/* var.h - process-variation chips and register-file timing (model.md sections 2-5).
 *
 * Life cycle: var_chip_alloc() once per parameter set (plans FFTs, builds the floorplan
 * map and the max-delay tables), then var_chip_generate() for as many chips as wanted
 * (no allocation), reading results through the accessors and var_technique_apply(),
 * then var_chip_free().  Chip k is a pure function of (params, seed, k): every random
 * number comes from a Philox counter keyed by (seed, chip, purpose, sm, index).
 *
 * Delays are normalised to the same cell without variation (= 1.0), frequencies to the
 * chip without variation (= 1.0).  A *register* is the 32 bits of one lane of one
 * register vector (entry); lane l holds bits [32 l, 32 l + 32) of the entry.
 */
#ifndef RFDSE_VAR_H
#define RFDSE_VAR_H

#include <stddef.h>
#include <stdint.h>

#include "var_nbti.h"
#include "var_params.h"
#include "var_rf_map.h"

/* Error codes (negative), names and messages generated from one list. */
#define VAR_ERRNO_MAP(X)                                                                   \
    X(ENOMEM, -1, "out of memory")                                                         \
    X(EINVAL, -2, "invalid variation parameters (see var_params_check)")                   \
    X(ENOTPD, -3, "covariance embedding is not positive definite: raise grid_cols or "     \
                  "lower phi, or use a larger embedding")                                  \
    X(EGEOMETRY, -4, "floorplan does not fit: the register file is larger than its SM tile") \
    X(ERANGE, -5, "index out of range (sm, chip or entry)")                                \
    X(ETOOBIG, -6, "grid too large for the dense Cholesky reference (at most 2048 points)") \
    X(ENOTGEN, -7, "no chip generated yet")                                                \
    X(ETECHNIQUE, -8, "invalid technique (fast_percent must lie in (0, 100])")           \
    X(EEMBED, -9, "circulant embedding would exceed 2^22 points: lower phi or grid_cols")

typedef enum {
    VAR_OK = 0,
#define VAR__ENUM(name, code, msg) VAR_##name = code,
    VAR_ERRNO_MAP(VAR__ENUM)
#undef VAR__ENUM
} var_error;

/* Message of an error code; never NULL. */
const char *var_strerror(int err);

typedef struct var_chip var_chip; /* opaque: fields, delays, workspaces of one chip */

/* Allocates everything needed to generate chips with these parameters.  Returns NULL on
 * failure; var_chip_alloc_err() also gives the reason (a var_error). */
var_chip *var_chip_alloc(const var_params *p);
var_chip *var_chip_alloc_err(const var_params *p, int *err);

/* The tables of the maximum of n cells (maxtab.c) cost about 0.5 s of CPU each to build
 * (a chip has one, var_cache_alloc another per cell area) and depend only on the
 * parameters: a caller that runs many processes may keep them.  `load` fills the table
 * named by the bytes id[0, id_len) (everything it is computed from) with its n floats
 * and returns 1, or returns 0 (then it is built and handed to `save`).  A table loaded
 * must be one `save` was given under the same name by the same code: the caller's
 * names must tell builds apart (the run store prefixes its binary's identity). */
typedef struct var_table_split var_table_split;
typedef struct var_table_cache {
    int (*load)(void *arg, const uint8_t *id, size_t id_len, float *q, size_t n);
    void (*save)(void *arg, const uint8_t *id, size_t id_len, const float *q, size_t n);
    void *arg;
    const var_table_split *split; /* NULL: this process builds a table alone */
} var_table_cache;

/* Processes that build the tables together (var_table_cache.split): a table is n_cols
 * columns of col_floats floats, each column computed alone, so part p of n_parts builds
 * the columns [var_table_split_first(n_cols, p, n_parts), var_table_split_first(n_cols,
 * p + 1, n_parts)) and `gather` fills in the others from their parts (an all-gather).
 * `all` returns nonzero when every part's `have` (it loaded the table) is nonzero: then
 * none builds.  Both are collective: every part must ask for the same tables in the same
 * order, so a split belongs only where every process allocates at once (dse/run's
 * evaluator at start-up), never to a table built lazily.  The values are the ones one
 * process builds alone, bit for bit: a column is the same computation wherever it runs. */
struct var_table_split {
    int part, n_parts;
    int (*all)(void *arg, int have);
    void (*gather)(void *arg, float *q, int n_cols, size_t col_floats);
    void *arg;
};
static inline int var_table_split_first(int n_cols, int part, int n_parts)
{
    return (int)((long long)n_cols * part / n_parts);
}
/* var_chip_alloc_err with tables from tc (NULL: built). */
var_chip *var_chip_alloc_tables(const var_params *p, const var_table_cache *tc, int *err);

/* Builds only what var_chip_alloc_err() may refuse for the parameters' sake (the field
 * sampler: a circulant embedding over 2^22 points, one that stays indefinite, a Cholesky
 * grid too large) in milliseconds, without the chip's tables; returns 0 or a var_error.
 * For loaders that want to refuse such parameters before a run. */
int var_params_check_field(const var_params *p);
/* 1 iff a and b give the same correlated field (floorplan, grid, phi, method, domain), so
 * var_params_check_field's answer for one holds for the other. */
int var_params_same_field(const var_params *a, const var_params *b);
void var_chip_free(var_chip *c);

/* Generates chip `chip` (0 <= chip < 2^32) of the population rooted at `seed` into c.
 * `p` must be the parameters c was allocated with.  Returns 0 or a var_error. */
int var_chip_generate(var_chip *c, const var_params *p, uint64_t seed, int64_t chip);

/* Chips kept by a caller.  A chip costs about 14 ms of CPU to generate at the default
 * floorplan, and a series of sweeps over the same chips generates each again in every
 * process: a caller may keep them (the run store does, docs/driver.md).  What is kept is
 * the part of a generated chip the rest is recomputed from, bit for bit: n_parts arrays
 * of doubles, part[i] of n[i] values (the systematic fields, then the register delays:
 * 4.9 MB at the default floorplan).  `load` fills them for the chip named by the bytes
 * id[0, id_len) and returns 1, or returns 0 (it may have written into them: the chip is
 * then generated, which overwrites every part, and handed to `save`).  The id holds every
 * input of the chip: a format tag, the seed and chip, every floorplan, variation and
 * timing knob, FFTW's version and the plan it chose here (or GSL's version) and the
 * processor features that select library code (AVX, AVX2, FMA, AVX-512); as with the
 * tables, the caller's names must also tell builds apart.  `chip` is the chip index
 * again, for a caller's policy on which chips to keep.  A chip loaded is indistinguishable
 * from one generated: every accessor, var_chip_cells, var_chip_cache, the aging and the
 * techniques give the same bits (tests/variation/test_keep.c). */
typedef struct var_chip_keep {
    int (*load)(void *arg, const uint8_t *id, size_t id_len, int64_t chip, double *const *part,
                const size_t *n, int n_parts);
    void (*save)(void *arg, const uint8_t *id, size_t id_len, int64_t chip,
                 const double *const *part, const size_t *n, int n_parts);
    void *arg;
} var_chip_keep;
/* var_chip_generate, the chip loaded through k when it has it, else generated and given
 * to k to save (k NULL: var_chip_generate). */
int var_chip_generate_kept(var_chip *c, const var_params *p, uint64_t seed, int64_t chip,
                           const var_chip_keep *k);
/* 1 if the current chip was loaded through a var_chip_keep, 0 if generated. */
int var_chip_loaded(const var_chip *c);

/* ---- results of the last var_chip_generate ---------------------------------------- */
int var_chip_n_sms(const var_chip *c);
double var_chip_sm_frequency(const var_chip *c, int sm); /* baseline, normalised        */
double var_chip_within_sm_ratio(const var_chip *c, int sm); /* slowest / fastest register
                                                               delay (= fastest / slowest
                                                               register speed), >= 1       */
double var_chip_sm_to_sm_ratio(const var_chip *c);        /* fastest / slowest SM freq   */
double var_chip_frequency(const var_chip *c);             /* mean of SM frequencies      */
double var_chip_min_frequency(const var_chip *c);         /* slowest SM                  */

/* Normalised delays of one SM (register index (bank * entries + entry) * lanes + lane,
 * entry index bank * entries + entry, sub-bank index bank * sub_banks + s).  Pointers
 * into c, valid until the next generate; NULL if sm is out of range. */
const double *var_chip_register_delays(const var_chip *c, int sm);
const double *var_chip_entry_delays(const var_chip *c, int sm);
const double *var_chip_sub_bank_delays(const var_chip *c, int sm);
const double *var_chip_bank_delays(const var_chip *c, int sm);

/* Systematic field (standard normal units, multiply by the systematic sigma) of the
 * domain SM `sm` lies in: rows x cols points, row-major.  For domain "chip" every SM
 * returns the die field. */
const double *var_chip_field(const var_chip *c, int sm, int *rows, int *cols);

/* Smallest eigenvalue of the circulant embedding relative to the largest (>= -1e-9 or
 * the allocation failed), and the embedding size used; for docs and tests. */
double var_chip_embedding_min_eigen(const var_chip *c, int *rows, int *cols);

/* ---- register-file cache (issue 18; docs/variation.md "Register-file cache") ------- *
 * The timing of a cache of `entries` register vectors in `banks` banks (consecutive
 * groups of ceil(entries / banks) rows) in a strip directly below SM `sm`'s RF, of the
 * last generated chip: bank_delay[b] is the slowest register delay of cache bank b
 * (normalised like the RF's), bank_leff[b] the Leff the aging attributes to it (that of
 * its slowest cell by the conditional split, as var_chip_sub_bank_leff).  The cache's
 * random draws have a stream of their own, so calling this changes nothing else; the
 * same chip gives the same values.  Returns 0, VAR_ENOTGEN or VAR_ERANGE. */
int var_chip_cache(const var_chip *c, int sm, int entries, int banks, double *bank_delay,
                   double *bank_leff);

/* A cache built from cells `cell_area` times the RF's cells' area (> 0): by Pelgrom's
 * law their random Vth and Leff sigmas are the RF's / sqrt(cell_area); the systematic
 * field is the chip's.  Holds its own tables of the maximum (about 0.5 s to build).
 * NULL on failure, with the reason in *err (a var_error) if err is not NULL. */
typedef struct var_cache var_cache;
var_cache *var_cache_alloc(const var_params *p, double cell_area, int *err);
/* The same with tables from tc (NULL: built; var_chip_alloc_tables). */
var_cache *var_cache_alloc_tables(const var_params *p, double cell_area,
                                  const var_table_cache *tc, int *err);
void var_cache_free(var_cache *m);
double var_cache_cell_area(const var_cache *m);
/* var_chip_cache with m's cells (m NULL: the RF's own, var_chip_cache itself); c must be
 * generated with the parameters m was built for (VAR_EINVAL otherwise).  cell_area 1
 * gives var_chip_cache's values exactly. */
int var_cache_draw(const var_cache *m, const var_chip *c, int sm, int entries, int banks,
                   double *bank_delay, double *bank_leff);

/* ---- per-cell maps ----------------------------------------------------------------- *
 * Vth (V) and Leff (relative to nominal) of every bit cell of SM `sm` of the last
 * generated chip, row = bank * entries + entry, col = bit, row-major.  Consistent with
 * the register delays: max over a register's cells of var_cell_delay() equals its
 * delay.  Slow (about 1 s per SM at the default floorplan): for chipmap and aging, not
 * the Monte Carlo path.  vth and leff hold n_banks * entries * bits doubles each. */
int var_chip_cells(const var_chip *c, const var_params *p, int sm, double *vth, double *leff);

/* Normalised delay of one cell (the read path: access transistor in series with the
 * pull-down, both with the cell's Vth and Leff).  Non-decreasing in both arguments;
 * capped at VAR_DELAY_CAP (a cell that slow does not work). */
#define VAR_DELAY_CAP 1e6
double var_cell_delay(const var_timing *t, double vth, double leff_rel);
/* Its inverse in Vth: the Vth at which a cell of Leff leff_rel has this delay, so that
 * var_cell_delay(t, var_cell_vth_for_delay(t, d, l), l) = d up to rounding.  Increasing
 * in delay; Vdd for a delay at the cap (a cell that never switches).  Changes together
 * with var_cell_delay. */
double var_cell_vth_for_delay(const var_timing *t, double delay, double leff_rel);

/* ---- techniques (model.md section 5) ----------------------------------------------- *
 * Fills *map for SM `sm` of the last generated chip under technique t and sets *freq to
 * the SM's normalised frequency: 1 / (slowest delay among the storage the technique
 * counts).  Classification: the fastest floor(n/100 * units) units (at least one) are
 * fast, the rest slow; ties by index.  With bro, virtual banks are consecutive groups of
 * sub_banks sub-banks in fastest-first order; if the fast count is not a multiple of
 * sub_banks, the leftover fast sub-banks join the slow class so no virtual bank mixes
 * classes.  t->variation false (ideal): frequency 1, all fast, identity banks. */
int var_technique_apply(const var_chip *c, const var_params *p, const var_technique *t,
                        int sm, var_rf_map *map, double *freq);

/* ---- aging hook (docs/variation.md "Aging") ---------------------------------------- *
 * Recomputes SM `sm`'s delays after NBTI: for every cell, the aged Vth is
 * shift(vth0_dev, sub_bank, ctx) + vth where vth0_dev = vth - timing.vth0 is the cell's
 * PV deviation and sub_bank its index in the SM.  Uses the per-cell path, so it costs
 * about what var_chip_cells costs; `scratch` (2 * n_banks * entries * bits doubles, or
 * NULL to allocate internally) is caller-owned.  Updates register/entry/sub-bank/bank
 * delays and the SM's baseline frequency in place; var_chip_generate restores time 0. */
typedef double (*var_vth_shift_fn)(double vth0_dev, int sub_bank, void *ctx);
int var_chip_age(var_chip *c, const var_params *p, int sm, var_vth_shift_fn shift,
                 void *ctx, double *scratch);

/* ---- fast aging for the Monte Carlo path (docs/nbti.md) ----------------------------- *
 * Recomputes every register delay of SM `sm` from its time-zero delay after NBTI with
 * the stress and recovery times (seconds, >= 0) of its sub-bank, t_stress_s[i] and
 * t_rec_s[i] for sub-bank i = bank * sub_banks + s, then the entry/sub-bank/bank delays
 * and the SM's baseline frequency; var_technique_apply then sees the aged chip.
 * Worst-cell approximation: a register's delay is its slowest cell's, and that cell is
 * taken at its sub-bank's Leff (var_chip_sub_bank_leff) with the Vth that gives the
 * register's time-zero delay (var_cell_vth_for_delay), aged by var_nbti_shift under
 * p->aging.initial_shift (constant duty: the one-shot law).  Always starts from time zero, so
 * calls with the same arguments give bit-identical delays whatever came before; all-zero
 * stress restores time zero exactly.  Aged delays are never shorter than at time zero,
 * and within one sub-bank the order of register delays is preserved.  No allocation;
 * the first call per SM after a generate saves its time-zero state (~1 ms).  Returns 0,
 * VAR_ENOTGEN, VAR_ERANGE (sm), VAR_EINVAL (p differs from the allocation's timing or
 * a time is negative or not finite). */
int var_chip_age_registers(var_chip *c, const var_params *p, int sm, const double *t_stress_s,
                           const double *t_rec_s);
/* Restores SM `sm` to time zero (bit-identical to right after var_chip_generate). */
int var_chip_age_reset(var_chip *c, int sm);

/* The Leff (relative to nominal) the aging attributes to the registers of each
 * sub-bank of SM `sm` (index bank * sub_banks + s): that of the sub-bank's slowest cell
 * by the conditional split of docs/nbti.md section 4.  NULL if not generated. */
const double *var_chip_sub_bank_leff(const var_chip *c, int sm);

/* The aged delay of one register whose time-zero delay is delay0, in a sub-bank whose
 * Leff is `leff` (var_chip_sub_bank_leff), under the stress and recovery of that
 * sub-bank: exactly the transform var_chip_age_registers applies to each register.
 * Aging preserves the order of the registers of one sub-bank (age.c), so the aged
 * maximum over any set of registers of one sub-bank is this function of their
 * time-zero maximum: the sweep driver ages only such maxima. */
double var_register_delay_aged(const var_params *p, double delay0, double leff,
                               double t_stress_s, double t_rec_s);

/* The same for a given NBTI shift (V) of every device of the sub-bank, the continued
 * law's state (var_nbti_continue): the delay at Vth = vth_eff + shift, never below
 * delay0; shift 0 gives delay0 exactly.  With aging.initial_shift = "accumulated",
 * var_register_delay_aged(p, d0, leff, ts, tr) is this at shift var_nbti_shift(..). */
double var_register_delay_shifted(const var_params *p, double delay0, double leff,
                                  double shift);

/* What those two functions compute from the register and the law alone, for callers that
 * age one register at many times (the aging loop: every year, workload and technique):
 * prepared once, then var_reg_age_delay(p, r, ts, tr) == var_register_delay_aged(p,
 * delay0, leff, ts, tr) and var_reg_age_shifted(p, r, s) == var_register_delay_shifted(p,
 * delay0, leff, s), bit for bit (the same operations; the prepared ones are done once). */
typedef struct var_reg_age {
    double delay0, leff; /* as given                                             */
    double vth_eff;      /* var_cell_vth_for_delay(&p->timing, delay0, leff)     */
    double kv;           /* var_nbti_kv(&p->aging)                               */
} var_reg_age;
void var_reg_age_prep(const var_params *p, double delay0, double leff, var_reg_age *r);
double var_reg_age_delay(const var_params *p, const var_reg_age *r, double t_stress_s,
                         double t_rec_s);
double var_reg_age_shifted(const var_params *p, const var_reg_age *r, double shift);

/* var_technique_apply for a sub-bank technique (granularity sub_bank, with or without
 * bro) classifying by the given sub-bank delays (index bank * sub_banks + s, e.g. aged
 * ones) instead of the chip's own; the same rules and tie-breaking.  VAR_ETECHNIQUE for
 * other granularities. */
int var_technique_apply_sub_banks(const var_chip *c, const var_params *p,
                                  const var_technique *t, int sm, const double *sub_delays,
                                  var_rf_map *map, double *freq);

/* The same writing only the sub-bank part of a map, sub_id and sub_slow of its n_banks x
 * sub_banks positions, and nothing else: for a map that already has the sizes and no slow
 * register vector (a sub-bank technique's own map of this chip), re-sorted many times by
 * the aging loop without clearing and copying the whole map (18 kB) each time.  The
 * arrays end as var_technique_apply_sub_banks leaves them. */
int var_technique_sort_sub_banks(const var_chip *c, const var_technique *t, int sm,
                                 const double *sub_delays,
                                 int16_t sub_id[][VAR_MAX_SUBS_PER_BANK],
                                 uint8_t sub_slow[][VAR_MAX_SUBS_PER_BANK], double *freq);

#endif
