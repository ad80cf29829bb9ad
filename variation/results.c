/* Delays by maximum (model.md section 4) and the accessors of a generated chip. */
#include <math.h>

#include "var_internal.h"

void var__chip_aggregate(var_chip *c, int sm)
{
    const var_floorplan *f = &c->p.floorplan;
    int L = c->plan.lanes, E = f->entries_per_bank, S = f->sub_banks, per_sub = L / S;
    const double *reg = c->reg + (size_t)sm * c->n_regs;
    double *entry = c->entry + (size_t)sm * c->n_entries;
    double *sub = c->sub + (size_t)sm * c->n_subs, *bank = c->bank + (size_t)sm * c->n_banks;
    double lo = INFINITY, hi = 0.0;
    for (int i = 0; i < c->n_subs; i++)
        sub[i] = 0.0;
    /* lanes sub-bank by sub-bank (ascending, as one loop over them would be), so no
     * division per register finds a lane's sub-bank */
    for (int row = 0; row < c->n_entries; row++) {
        const double *r = reg + (size_t)row * L;
        double *sb = sub + (size_t)(row / E) * S, m = 0.0;
        for (int s = 0; s < S; s++) {
            double x = sb[s];
            for (int l = s * per_sub; l < (s + 1) * per_sub; l++) {
                double d = r[l];
                x = d > x ? d : x;
                m = d > m ? d : m;
                lo = d < lo ? d : lo;
            }
            sb[s] = x;
        }
        entry[row] = m;
        hi = m > hi ? m : hi;
    }
    for (int b = 0; b < f->n_banks; b++) {
        bank[b] = 0.0;
        for (int s = 0; s < S; s++)
            bank[b] = sub[b * S + s] > bank[b] ? sub[b * S + s] : bank[b];
    }
    c->sm_freq[sm] = 1.0 / hi;
    c->sm_ratio[sm] = hi / lo;
}

int var_chip_n_sms(const var_chip *c) { return c->n_sms; }

static int bad_sm(const var_chip *c, int sm) { return !c->generated || sm < 0 || sm >= c->n_sms; }

double var_chip_sm_frequency(const var_chip *c, int sm)
{
    return bad_sm(c, sm) ? NAN : c->sm_freq[sm];
}

double var_chip_within_sm_ratio(const var_chip *c, int sm)
{
    return bad_sm(c, sm) ? NAN : c->sm_ratio[sm];
}

double var_chip_frequency(const var_chip *c)
{
    if (!c->generated)
        return NAN;
    double s = 0.0;
    for (int i = 0; i < c->n_sms; i++)
        s += c->sm_freq[i];
    return s / c->n_sms;
}

double var_chip_min_frequency(const var_chip *c)
{
    if (!c->generated)
        return NAN;
    double m = INFINITY;
    for (int i = 0; i < c->n_sms; i++)
        m = fmin(m, c->sm_freq[i]);
    return m;
}

double var_chip_sm_to_sm_ratio(const var_chip *c)
{
    if (!c->generated)
        return NAN;
    double lo = INFINITY, hi = 0.0;
    for (int i = 0; i < c->n_sms; i++)
        lo = fmin(lo, c->sm_freq[i]), hi = fmax(hi, c->sm_freq[i]);
    return hi / lo;
}

const double *var_chip_register_delays(const var_chip *c, int sm)
{
    return bad_sm(c, sm) ? NULL : c->reg + (size_t)sm * c->n_regs;
}

const double *var_chip_entry_delays(const var_chip *c, int sm)
{
    return bad_sm(c, sm) ? NULL : c->entry + (size_t)sm * c->n_entries;
}

const double *var_chip_sub_bank_delays(const var_chip *c, int sm)
{
    return bad_sm(c, sm) ? NULL : c->sub + (size_t)sm * c->n_subs;
}

const double *var_chip_bank_delays(const var_chip *c, int sm)
{
    return bad_sm(c, sm) ? NULL : c->bank + (size_t)sm * c->n_banks;
}

const double *var_chip_field(const var_chip *c, int sm, int *rows, int *cols)
{
    if (bad_sm(c, sm))
        return NULL;
    *rows = c->plan.grid_rows, *cols = c->plan.grid_cols;
    size_t field = c->p.variation.domain == VAR_DOMAIN_SM ? (size_t)sm : 0;
    return c->g + field * (size_t)c->plan.grid_rows * c->plan.grid_cols;
}

double var_chip_embedding_min_eigen(const var_chip *c, int *rows, int *cols)
{
    return var__field_min_eigen(c->field, rows, cols);
}
