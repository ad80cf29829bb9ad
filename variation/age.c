/* Fast aged register delays for the Monte Carlo path: the worst-cell approximation.
 *
 * var_chip_age (cells.c) rebuilds the 2^20 cells of an SM and ages every one: ~1.5 s per
 * SM.  Here a register is represented by its slowest cell only, whose delay we know
 * exactly (the register's time-zero delay d0) but not how its slowness splits between
 * Vth and Leff.  We attribute all of it to Vth at nominal Leff:
 *     vth_eff = var_cell_vth_for_delay(d0, Leff = 1),   dVth0 = vth_eff - Vth0,
 * age that Vth with the sub-bank's stress and recovery, and take the delay at nominal
 * Leff again.  Nominal rather than the register's systematic Leff, because a common Leff
 * makes the register order within a sub-bank provably invariant (below), and because
 * the systematic Leff would still leave the random half of the Leff deviation attributed
 * to Vth, so it is no more exact in kind (docs/nbti.md gives the measured errors).
 * The approximation ignores cells of the register that were not the slowest at time
 * zero but age faster (NBTI shifts low-Vth devices more) and overtake: it can only
 * underestimate the exact aged delay on that account.
 *
 * Order within a sub-bank.  All registers of a sub-bank share (t_stress, t_rec), so they
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

void var__chip_age_prepare(var_chip *c, int sm)
{
    if (c->age_ready[sm])
        return; /* c->reg may be aged by now: never re-read it as time zero */
    size_t off = (size_t)sm * c->n_regs;
    const double *reg = c->reg + off;
    double *reg0 = c->reg0 + off, *veff = c->vth_eff + off;
    memcpy(reg0, reg, sizeof(double) * c->n_regs);
    for (int r = 0; r < c->n_regs; r++)
        veff[r] = var_cell_vth_for_delay(&c->p.timing, reg0[r], 1.0);
    c->age_ready[sm] = 1;
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

static double aged_delay(const var_timing *t, const var__nbti *st, double d0, double veff)
{
    double v = t->vth0 + var__nbti_aged_dev(st, veff - t->vth0);
    double d = var_cell_delay(t, v, 1.0);
    return d > d0 ? d : d0; /* rounding of the round trip never makes a register faster */
}

double var_register_delay_aged(const var_params *p, double delay0, double t_stress_s,
                               double t_rec_s)
{
    var__nbti st;
    var__nbti_prep(&st, &p->aging, t_stress_s, t_rec_s);
    if (!st.stressed)
        return delay0;
    return aged_delay(&p->timing, &st, delay0,
                      var_cell_vth_for_delay(&p->timing, delay0, 1.0));
}

/* Registers of sub-bank `sub` (rows of its bank, lanes of its column group). */
static void age_sub_bank(var_chip *c, int sm, int sub, const var__nbti *st)
{
    const var_floorplan *f = &c->p.floorplan;
    const var_timing *t = &c->p.timing;
    int L = c->plan.lanes, E = f->entries_per_bank, S = f->sub_banks, per_sub = L / S;
    int b = sub / S, l0 = (sub % S) * per_sub;
    size_t off = (size_t)sm * c->n_regs;
    double *reg = c->reg + off;
    const double *reg0 = c->reg0 + off, *veff = c->vth_eff + off;
    for (int row = b * E; row < (b + 1) * E; row++) {
        int r0 = row * L + l0;
        if (!st->stressed) { /* time zero exactly, not a round trip through the inverse */
            memcpy(reg + r0, reg0 + r0, sizeof(double) * per_sub);
            continue;
        }
        for (int r = r0; r < r0 + per_sub; r++)
            reg[r] = aged_delay(t, st, reg0[r], veff[r]);
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
