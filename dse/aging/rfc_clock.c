/* The clock of an SM whose register-file cache sets it (ltrf, rfc_demand; docs/model.md,
 * "The cache clock"; issue 18 item 3).
 *
 * Every operand is read from the cache in one cycle, so the cache's slowest register,
 * not the main RF's, sets the SM clock: f = 1 / max over cache banks of its delay.  The
 * main RF is pipelined behind it at L cycles per access, L = ceil(L0 x d_main x f),
 * where L0 = main_rf_latency is its latency at the nominal clock without variation and
 * d_main its slowest register delay (every register counts: no classification, the
 * latency covers the slowest).  Both arrays age under their own duties: the cache's
 * banks under their accesses (or, with rfc_rotation, all at the banks' mean: rotating
 * the partitions over the banks evens their wear), the main RF's sub-banks under
 * theirs.  A constant duty makes the aged delay the one-shot law of the sub-bank's
 * slowest register (variation/age.c, var_register_delay_aged), as for fixed maps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "dse_aging.h"

/* Slowest delay of n arrays after t seconds at duties duty[] (one duty for all when
 * `even`: their mean).  At t = 0 the duties are not read (and may be NULL). */
static double slowest_aged(const var_params *p, int n, const double *d0, const double *leff,
                           const double *duty, bool even, double t)
{
    double mean = 0, worst = 0;
    for (int i = 0; i < n && t > 0 && even; i++)
        mean += duty[i] / n;
    for (int i = 0; i < n; i++) {
        double d = d0[i];
        if (t > 0) {
            double u = even ? mean : duty[i];
            d = var_register_delay_aged(p, d0[i], leff[i], u * t, (1.0 - u) * t);
        }
        worst = fmax(worst, d);
    }
    return worst;
}

double dse_rfc_clock(const var_params *p, const var_chip *chip, int sm, const dse_rfc_in *rfc,
                     const double *cache_duty, const double *main_duty, double t, int *latency)
{
    const var_floorplan *f = &p->floorplan;
    size_t off = (size_t)sm * (size_t)rfc->banks;
    double d_cache = slowest_aged(p, rfc->banks, rfc->delay + off, rfc->leff + off, cache_duty,
                                  rfc->rotation, t);
    double d_main = slowest_aged(p, f->n_banks * f->sub_banks, var_chip_sub_bank_delays(chip, sm),
                                 var_chip_sub_bank_leff(chip, sm), main_duty, false, t);
    double freq = 1.0 / d_cache;
    /* the tolerance keeps the ideal chip's L0 x 1 x 1 at L0 through any rounding */
    double cycles = ceil(rfc->latency0 * d_main * freq - 1e-9);
    *latency = cycles < 1.0 ? 1 : cycles > 255.0 ? 255 : (int)cycles;
    return freq;
}

int dse_rfc_map_of_chip(const dse_sweep *s, const dse_technique *t, int chip, int sm,
                        sm_rf_map *m, double *freq, int *latency, char *err, size_t n)
{
    const var_floorplan *f = &s->var.floorplan;
    size_t row = (size_t)sm * (size_t)f->n_banks, all = (size_t)f->n_sms * (size_t)f->n_banks;
    double *delay = calloc(all, sizeof(double)), *leff = calloc(all, sizeof(double));
    int rc = delay && leff ? 0 : VAR_ENOMEM;
    var_chip *c = rc ? NULL : var_chip_alloc_err(&s->var, &rc);
    if (c)
        rc = var_chip_generate(c, &s->var, s->chips.seed, chip);
    var_cache *cells = NULL;
    if (c && !rc && t->rfc_cell_area != 1.0)
        cells = var_cache_alloc(&s->var, t->rfc_cell_area, &rc);
    if (c && !rc)
        rc = var_cache_draw(cells, c, sm, dse_technique_cache_entries(s, t), f->n_banks,
                            delay + row, leff + row);
    var_cache_free(cells);
    if (c && !rc) {
        dse_rfc_in rfc = { .banks = f->n_banks, .latency0 = t->ipc.main_rf_latency,
                           .delay = delay, .leff = leff };
        *freq = dse_rfc_clock(&s->var, c, sm, &rfc, NULL, NULL, 0.0, latency);
        sm_rf_map_all_fast(m, f->n_banks, f->entries_per_bank, f->sub_banks);
    } else
        snprintf(err, n, "chip %d, SM %d: %s", chip, sm, var_strerror(rc ? rc : VAR_ENOMEM));
    var_chip_free(c);
    free(delay);
    free(leff);
    return c && !rc ? 0 : -1;
}
