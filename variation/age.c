/* Fast aged register delays for the Monte Carlo path: the worst-cell approximation.
 *
 * var_chip_age (cells.c) rebuilds the 2^20 cells of an SM and ages every one: ~1.5 s per
 * SM.  Here a register is represented by its slowest cell only, whose delay we know
 * exactly (the register's time-zero delay d0) but not how its slowness splits between
 * Vth and Leff.  NBTI ages by Vth, and the split matters: the delay lost per mV depends on
 * Vth and Leff, and under the "pv" reading of the law a high Vth also shifts less
 * (charging all of the excess to Vth saw only about 60 % of the exact slowdown there).
 * Under the default ("accumulated") reading every device of a sub-bank gets the same
 * shift, so the aged deviation below is h(x) = x + shift.
 *
 * Conditional split (var__chip_split_leff).  For the slowest register of each sub-bank,
 * the field value g at its slowest piece gives the systematic Vth and Leff; the excess
 * y = ln d0 - ln d_sys of its slowest cell is shared between the random Vth and Leff
 * deviates in proportion to their linearised log-delay variances, the conditional mean
 * of a bivariate normal given the sum:
 *     a_v = alpha Vth0 sigma_rand_v / (Vdd - Vth_sys),  a_l = sigma_rand_l / Leff_sys,
 *     z_v = a_v y / (a_v^2 + a_l^2),  Vth = Vth_sys + Vth0 sigma_rand_v z_v,
 * and the Leff that reproduces d0 with that Vth exactly.  Every register of the
 * sub-bank is then taken at that one Leff:
 *     vth_eff = var_cell_vth_for_delay(d0, Leff_sub),   dVth0 = vth_eff - Vth0,
 * aged with the sub-bank's stress and recovery, and its delay taken at Leff_sub again.
 * One Leff per sub-bank rather than per register keeps the register order within a
 * sub-bank provably invariant (below), so the driver can age maxima only; the slowest
 * register, the one that sets the sub-bank's delay, gets its own split exactly.
 * The approximation still ignores cells that were not the slowest at time zero but age
 * faster and overtake (docs/nbti.md section 4 gives the measured errors).
 *
 * Order within a sub-bank.  Under "accumulated" h(x) = x + shift is increasing.  Under
 * "pv": all registers of a sub-bank share (t_stress, t_rec), so they
 * share a = Kv' sqrt(t_stress) >= 0 and rec in [0, 1].  The aged deviation is
 *     h(x) = (1 - rec) x + rec (a + x^(1/(2n)))^(2n)
 * with sign-preserving powers.  u -> u^(1/(2n)) and u -> u^(2n) are odd and increasing
 * on the reals, so x -> (a + x^(1/(2n)))^(2n) is non-decreasing; h is a non-negative
 * combination of it and x, hence non-decreasing.  vth_eff is increasing in d0 (the
 * inverse of an increasing function at fixed Leff), var_cell_delay is non-decreasing in
 * Vth, and max(., d0) is non-decreasing in d0.  So d0_i <= d0_j implies aged_i <=
 * aged_j: aging never reorders the registers of one sub-bank (ties may form, e.g. at the
 * delay cap).  Sub-banks with different stress can and do change places.  The code
 * evaluates h in exactly this form, each rounded step monotone; only cbrt/pow are
 * faithful rather than correctly rounded (tests/variation/test_nbti.c checks an SM). */
#include <math.h>
#include <string.h>

#include "var_internal.h"

/* Where the registers of one sub-bank lie in an SM's register array: the rows of its
 * bank, `rows` runs of `per` consecutive registers (its lanes), `stride` apart. */
typedef struct sub_span {
    int first, rows, per, stride;
} sub_span;

static sub_span span_of(const var_chip *c, int sub)
{
    const var_floorplan *f = &c->p.floorplan;
    int L = c->plan.lanes, S = f->sub_banks, per = L / S;
    return (sub_span){ .first = (sub / S) * f->entries_per_bank * L + (sub % S) * per,
                       .rows = f->entries_per_bank, .per = per, .stride = L };
}

/* Index of the slowest register of sub-bank `sub` among delays reg[]. */
static int slowest_register(const var_chip *c, const double *reg, int sub)
{
    sub_span sp = span_of(c, sub);
    int best = sp.first;
    for (int row = 0, r0 = sp.first; row < sp.rows; row++, r0 += sp.stride)
        for (int r = r0; r < r0 + sp.per; r++)
            best = reg[r] > reg[best] ? r : best;
    return best;
}

/* The Leff of a slowest cell of delay d0 at field value g by the conditional split
 * (file comment), for cells of distribution d. */
double var__split_leff_at(const var__dist *d, double g, double d0)
{
    const var_timing *t = &d->t;
    double vth_sys = t->vth0 * (1.0 + d->vs_sys * g), leff_sys = 1.0 + d->ls_sys * g;
    double d_sys = var_cell_delay(t, vth_sys, leff_sys);
    if (!(d0 < VAR_DELAY_CAP && d_sys < VAR_DELAY_CAP && leff_sys > 0.0))
        return 1.0; /* a cell that never switches: nothing to split */
    double av = t->alpha * t->vth0 * d->vs_rand / (t->vdd - vth_sys);
    double al = d->ls_rand / leff_sys, var = av * av + al * al;
    if (!(var > 0.0))
        return leff_sys; /* no random part */
    double vth = vth_sys + t->vth0 * d->vs_rand * (av * log(d0 / d_sys) / var);
    double unit = var_cell_delay(t, vth, 1.0);
    return unit < VAR_DELAY_CAP ? d0 / unit : leff_sys;
}

/* The same for register r of SM sm: g at its slowest piece. */
static double split_leff(const var_chip *c, int sm, int r, double d0)
{
    int n;
    const var__piece *pc = var__chip_pieces(c, sm, r, &n);
    double g = -INFINITY;
    for (int q = 0; q < n; q++)
        g = fmax(g, var__chip_piece_g(c, sm, r, pc + q));
    return var__split_leff_at(&c->dist, g, d0);
}

void var__chip_split_leff(var_chip *c, int sm)
{
    const double *reg = c->reg + (size_t)sm * c->n_regs;
    double *leff = c->sub_leff + (size_t)sm * c->n_subs;
    for (int sub = 0; sub < c->n_subs; sub++) {
        int r = slowest_register(c, reg, sub);
        leff[sub] = split_leff(c, sm, r, reg[r]);
    }
}

void var__chip_age_prepare(var_chip *c, int sm)
{
    if (c->age_ready[sm])
        return; /* c->reg may be aged by now: never re-read it as time zero */
    size_t off = (size_t)sm * c->n_regs;
    const double *reg = c->reg + off, *leff = c->sub_leff + (size_t)sm * c->n_subs;
    double *reg0 = c->reg0 + off, *veff = c->vth_eff + off;
    memcpy(reg0, reg, sizeof(double) * c->n_regs);
    for (int sub = 0; sub < c->n_subs; sub++) {
        sub_span sp = span_of(c, sub);
        for (int row = 0, r0 = sp.first; row < sp.rows; row++, r0 += sp.stride)
            for (int r = r0; r < r0 + sp.per; r++)
                veff[r] = var_cell_vth_for_delay(&c->p.timing, reg0[r], leff[sub]);
    }
    c->age_ready[sm] = 1;
}

const double *var_chip_sub_bank_leff(const var_chip *c, int sm)
{
    if (!c->generated || sm < 0 || sm >= c->n_sms)
        return NULL;
    return c->sub_leff + (size_t)sm * c->n_subs;
}

static int bad_times(const double *ts, const double *tr, int n)
{
    if (!ts || !tr)
        return 1;
    for (int i = 0; i < n; i++)
        if (!(ts[i] >= 0.0 && isfinite(ts[i]) && tr[i] >= 0.0 && isfinite(tr[i])))
            return 1;
    return 0;
}

static double aged_delay(const var_timing *t, const var__nbti *st, double d0, double veff,
                         double leff)
{
    /* "pv": the law's dVth_t0 is the device's deviation; otherwise one shift for all */
    double v = st->pv ? t->vth0 + var__nbti_aged_dev(st, veff - t->vth0) : veff + st->shift;
    double d = var_cell_delay(t, v, leff);
    return d > d0 ? d : d0; /* rounding of the round trip never makes a register faster */
}

void var_reg_age_prep(const var_params *p, double delay0, double leff, var_reg_age *r)
{
    r->delay0 = delay0;
    r->leff = leff;
    r->vth_eff = var_cell_vth_for_delay(&p->timing, delay0, leff);
    r->kv = var_nbti_kv(&p->aging);
}

double var_reg_age_delay(const var_params *p, const var_reg_age *r, double t_stress_s,
                         double t_rec_s)
{
    var__nbti st;
    var__nbti_prep_kv(&st, &p->aging, r->kv, t_stress_s, t_rec_s);
    if (!st.stressed)
        return r->delay0;
    return aged_delay(&p->timing, &st, r->delay0, r->vth_eff, r->leff);
}

double var_reg_age_shifted(const var_params *p, const var_reg_age *r, double shift)
{
    var__nbti st;
    var__nbti_prep_shift(&st, shift);
    if (!st.stressed)
        return r->delay0;
    return aged_delay(&p->timing, &st, r->delay0, r->vth_eff, r->leff);
}

double var_register_delay_aged(const var_params *p, double delay0, double leff,
                               double t_stress_s, double t_rec_s)
{
    var_reg_age r;
    var_reg_age_prep(p, delay0, leff, &r);
    return var_reg_age_delay(p, &r, t_stress_s, t_rec_s);
}

double var_register_delay_shifted(const var_params *p, double delay0, double leff,
                                  double shift)
{
    var_reg_age r;
    var_reg_age_prep(p, delay0, leff, &r);
    return var_reg_age_shifted(p, &r, shift);
}

/* The registers of sub-bank `sub` of SM `sm` under one stress and recovery. */
static void age_sub_bank(var_chip *c, int sm, int sub, const var__nbti *st)
{
    const var_timing *t = &c->p.timing;
    sub_span sp = span_of(c, sub);
    size_t off = (size_t)sm * c->n_regs;
    double *reg = c->reg + off;
    const double *reg0 = c->reg0 + off, *veff = c->vth_eff + off;
    double leff = c->sub_leff[(size_t)sm * c->n_subs + sub];
    for (int row = 0, r0 = sp.first; row < sp.rows; row++, r0 += sp.stride) {
        if (!st->stressed) { /* time zero exactly, not a round trip through the inverse */
            memcpy(reg + r0, reg0 + r0, sizeof(double) * sp.per);
            continue;
        }
        for (int r = r0; r < r0 + sp.per; r++)
            reg[r] = aged_delay(t, st, reg0[r], veff[r], leff);
    }
}

int var_chip_age_registers(var_chip *c, const var_params *p, int sm, const double *t_stress_s,
                           const double *t_rec_s)
{
    if (!c->generated)
        return VAR_ENOTGEN;
    if (sm < 0 || sm >= c->n_sms)
        return VAR_ERANGE;
    if (!var__chip_same_params(p, &c->p) || bad_times(t_stress_s, t_rec_s, c->n_subs))
        return VAR_EINVAL;
    var__chip_age_prepare(c, sm);
    for (int i = 0; i < c->n_subs; i++) {
        var__nbti st;
        var__nbti_prep(&st, &p->aging, t_stress_s[i], t_rec_s[i]);
        age_sub_bank(c, sm, i, &st);
    }
    var__chip_aggregate(c, sm);
    return VAR_OK;
}

int var_chip_age_reset(var_chip *c, int sm)
{
    if (!c->generated)
        return VAR_ENOTGEN;
    if (sm < 0 || sm >= c->n_sms)
        return VAR_ERANGE;
    if (!c->age_ready[sm])
        return VAR_OK; /* never changed since generate */
    size_t off = (size_t)sm * c->n_regs;
    memcpy(c->reg + off, c->reg0 + off, sizeof(double) * c->n_regs);
    var__chip_aggregate(c, sm);
    return VAR_OK;
}
