/* Cross-knob checks of var_params: relations a single-key range cannot express. */
#include <stdarg.h>
#include <stdio.h>

#include "var_params.h"

static int reject(char *key, size_t key_len, const char *k, char *msg, size_t msg_len,
                  const char *fmt, ...)
{
    va_list ap;
    snprintf(key, key_len, "%s", k);
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Grid points the systematic field puts across one sub-bank; the field must resolve
 * a sub-bank with several points or the systematic part is constant inside it. */
static double grid_points_per_sub_bank(const var_params *p)
{
    const var_floorplan *f = &p->floorplan;
    double sub_banks_across = (double)f->bank_cols * f->sub_banks;
    double points_across_rf = p->variation.grid_cols;
    if (p->variation.domain == VAR_DOMAIN_CHIP)
        points_across_rf /= f->sm_cols; /* the RF is at most one SM tile wide */
    return points_across_rf / sub_banks_across;
}

int var_params_check(const var_params *p, char *key, size_t kl, char *msg, size_t ml)
{
    const var_floorplan *f = &p->floorplan;
    if (f->sm_cols * f->sm_rows < f->n_sms)
        return reject(key, kl, "floorplan.sm_rows", msg, ml,
                      "a %d x %d SM grid cannot hold %d SMs", f->sm_cols, f->sm_rows, f->n_sms);
    if (f->n_banks % f->bank_cols)
        return reject(key, kl, "floorplan.bank_cols", msg, ml,
                      "must divide n_banks (%d), got %d", f->n_banks, f->bank_cols);
    if (f->bits_per_entry % 32)
        return reject(key, kl, "floorplan.bits_per_entry", msg, ml,
                      "must be a multiple of 32 (whole registers), got %d", f->bits_per_entry);
    if ((f->bits_per_entry / 32) % f->sub_banks)
        return reject(key, kl, "floorplan.sub_banks", msg, ml,
                      "must divide the %d registers of an entry, got %d",
                      f->bits_per_entry / 32, f->sub_banks);
    if (f->lane_interleave < 1 || (f->bits_per_entry / 32) % f->lane_interleave)
        return reject(key, kl, "floorplan.lane_interleave", msg, ml,
                      "must divide the %d registers of an entry, got %d",
                      f->bits_per_entry / 32, f->lane_interleave);
    const var_variation *v = &p->variation;
    if (!(v->phi > 0.0))
        return reject(key, kl, "variation.phi", msg, ml,
                      "must be positive (a fraction of the domain width), got %g", v->phi);
    if (!(v->vth_sigma >= 0.0))
        return reject(key, kl, "variation.vth_sigma", msg, ml, "must be >= 0, got %g",
                      v->vth_sigma);
    if (!(v->leff_sigma >= 0.0))
        return reject(key, kl, "variation.leff_sigma", msg, ml, "must be >= 0, got %g",
                      v->leff_sigma);
    if (!(v->sigma_ratio >= 0.0))
        return reject(key, kl, "variation.sigma_ratio", msg, ml, "must be >= 0, got %g",
                      v->sigma_ratio);
    if (!(p->timing.alpha > 0.0))
        return reject(key, kl, "timing.alpha", msg, ml, "must be positive, got %g",
                      p->timing.alpha);
    if (grid_points_per_sub_bank(p) < 4.0)
        return reject(key, kl, "variation.grid_cols", msg, ml,
                      "grid too coarse: %.1f points across a sub-bank, need at least 4",
                      grid_points_per_sub_bank(p));
    if (p->timing.vth0 >= p->timing.vdd)
        return reject(key, kl, "timing.vth0", msg, ml, "must be below vdd (%g V), got %g V",
                      p->timing.vdd, p->timing.vth0);
    const var_aging *a = &p->aging;
    if (!(a->kv >= 0.0))
        return reject(key, kl, "aging.kv", msg, ml, "must be >= 0, got %g", a->kv);
    if (!(a->temperature > 0.0))
        return reject(key, kl, "aging.temperature", msg, ml, "must be positive (K), got %g",
                      a->temperature);
    if (!(a->eta >= 0.0 && a->eta <= 1.0)) /* > 1 would make recovery exceed the shift */
        return reject(key, kl, "aging.eta", msg, ml, "must lie in [0, 1], got %g", a->eta);
    if (!(a->time_exponent > 0.0 && a->time_exponent < 1.0))
        return reject(key, kl, "aging.time_exponent", msg, ml, "must lie in (0, 1), got %g",
                      a->time_exponent);
    if (a->n_years < 1 || a->years[0] != 0.0)
        return reject(key, kl, "aging.years", msg, ml, "must start at 0 (time zero)");
    for (int i = 1; i < a->n_years; i++)
        if (a->years[i] <= a->years[i - 1])
            return reject(key, kl, "aging.years", msg, ml,
                          "must increase strictly, got %g after %g", a->years[i], a->years[i - 1]);
    return 0;
}
