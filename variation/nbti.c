/* NBTI threshold-voltage shift (model.md section 7; docs/nbti.md section 1).
 *
 * The source law (Bhardwaj et al., CICC 2006): a stress phase that starts with an NBTI
 * shift dVth_t0 already accumulated ends at (Kv' sqrt(t_stress) + dVth_t0^(1/(2n)))^(2n);
 * recovery scales the increment by 1 - sqrt(eta t_rec / (t_stress + t_rec)).  Two
 * readings of dVth_t0 (aging.initial_shift):
 * - "accumulated" (default, the source's): the NBTI shift so far, zero at manufacture.
 *   A device's Vth is nominal + PV deviation + shift, and the shift does not depend on
 *   the PV deviation.  From manufacture under a constant duty d:
 *       shift(T) = rec(d) (Kv' sqrt(d T))^(2n),  rec(d) = 1 - sqrt(eta (1 - d)).
 *   Across a schedule it is continued (var_nbti_continue) by the equivalent stress time.
 * - "pv" (the core paper's wording): dVth_t0 is the device's PV deviation, and the shift
 *   is the increment over it, evaluated on stress and recovery totals since time zero.
 * Powers of negative numbers are sign-preserving real roots, so under "pv" a device born
 * fast (dVth0 < 0) has a well-defined, finite shift.
 *
 * Everything that depends on the sub-bank (stress, recovery) and not on the device is
 * folded into var__nbti once, so the per-register loop of var_chip_age_registers costs one
 * cube, one cube root and one delay (one delay only under "accumulated"). */
#include <assert.h>
#include <math.h>

#include "var_internal.h"

double var_nbti_kv(const var_aging *a)
{
    return a->kv * exp(VAR_NBTI_EA_EV / VAR_BOLTZMANN_EV *
                       (1.0 / VAR_NBTI_TREF_K - 1.0 / a->temperature));
}

/* 1/6 is special-cased: x^3 and cbrt are exact-ish and several times cheaper than pow,
 * and 1 / (2 * (1.0 / 6.0)) is not exactly 3 in binary. */
static int is_sixth(double n) { return fabs(n - 1.0 / 6.0) < 1e-12; }

void var__nbti_prep(var__nbti *s, const var_aging *a, double t_stress_s, double t_rec_s)
{
    var__nbti_prep_kv(s, a, t_stress_s > 0.0 ? var_nbti_kv(a) : 0.0, t_stress_s, t_rec_s);
}

void var__nbti_prep_kv(var__nbti *s, const var_aging *a, double kv, double t_stress_s,
                       double t_rec_s)
{
    assert(t_stress_s >= 0.0 && t_rec_s >= 0.0);
    s->stressed = t_stress_s > 0.0;
    s->pv = a->initial_shift == VAR_SHIFT_PV;
    s->a = s->stressed ? kv * sqrt(t_stress_s) : 0.0;
    s->cube = is_sixth(a->time_exponent);
    s->p_in = 1.0 / (2.0 * a->time_exponent);
    s->p_out = 2.0 * a->time_exponent;
    double f = s->stressed ? a->eta * t_rec_s / (t_stress_s + t_rec_s) : 0.0;
    s->rec = fmax(0.0, 1.0 - sqrt(fmax(f, 0.0))); /* eta <= 1 keeps it >= 0 anyway */
    /* From manufacture (dVth_t0 = 0), written as var_nbti_dvth(a, 0, ...) computes it. */
    s->shift = s->stressed && !s->pv ? fmax(0.0, s->rec * (var__nbti_stress_dev(s, 0.0) - 0.0)) : 0.0;
}

void var__nbti_prep_shift(var__nbti *s, double shift)
{
    *s = (var__nbti){ .stressed = shift > 0.0, .pv = 0, .shift = shift > 0.0 ? shift : 0.0 };
}

double var_nbti_dvth(const var_aging *a, double dvth0, double t_stress_s, double t_rec_s)
{
    var__nbti s;
    var__nbti_prep(&s, a, t_stress_s, t_rec_s);
    if (!s.stressed)
        return 0.0;
    return fmax(0.0, s.rec * (var__nbti_stress_dev(&s, dvth0) - dvth0));
}

double var_nbti_shift(const var_aging *a, double dvth_pv, double t_stress_s, double t_rec_s)
{
    return var_nbti_dvth(a, a->initial_shift == VAR_SHIFT_PV ? dvth_pv : 0.0, t_stress_s,
                         t_rec_s);
}

/* Continued law, one interval (docs/nbti.md section 1).  A device with shift S that runs
 * at duty d from now on is taken to be where a device run at duty d since manufacture
 * would be with that shift (the equivalent stress time), so the law itself decides how
 * earlier stress counts and a constant duty gives exactly the one-shot curve:
 *     U0 = S / rec(d)                      the shift before this duty's recovery (dVth_t0)
 *     U1 = (Kv'^2 d dt + U0^(1/n))^n       the stress phase, i.e. (Kv' sqrt(t_eq + d dt))^(2n)
 *                                          with (Kv' sqrt(t_eq))^(2n) = U0
 *     S' = rec(d) U1
 * S' >= S for any duty.  d = 0 (an idle interval) keeps S: the limit of the formula as
 * d -> 0, where the equivalent time grows without bound. */
double var_nbti_continue(const var_aging *a, double shift, double duty, double dt_s)
{
    return var_nbti_continue_kv(a, var_nbti_kv(a), shift, duty, dt_s);
}

double var_nbti_continue_kv(const var_aging *a, double kv, double shift, double duty,
                            double dt_s)
{
    assert(shift >= 0.0 && dt_s >= 0.0);
    /* A weighted mix of duties that are each at most 1 can exceed 1 by a rounding. */
    duty = duty < 0.0 ? 0.0 : duty > 1.0 ? 1.0 : duty;
    if (!(duty > 0.0 && dt_s > 0.0))
        return shift;
    double rec = 1.0 - sqrt(a->eta * (1.0 - duty)); /* > 0: eta <= 1 and duty > 0 */
    double u0 = shift / rec, stress = kv * kv * duty * dt_s;
    if (is_sixth(a->time_exponent)) {
        double u3 = u0 * u0 * u0;
        return rec * cbrt(sqrt(stress + u3 * u3));
    }
    double n = a->time_exponent;
    return rec * pow(stress + pow(u0, 1.0 / n), n);
}
