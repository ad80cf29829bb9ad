/* NBTI threshold-voltage shift (model.md section 7; docs/nbti.md).
 *
 * Stress: dVth_stress = (Kv' sqrt(t_stress) + dVth0^(1/(2n)))^(2n), where dVth0 is the
 * device's PV deviation from nominal Vth and n the time exponent (1/6: a cube and a cube
 * root).  Powers of negative numbers are sign-preserving real roots, so a device born
 * fast (dVth0 < 0) has a well-defined, finite shift.  Recovery scales the increment over
 * dVth0 by 1 - sqrt(eta t_rec / (t_stress + t_rec)).
 *
 * Everything that depends on the sub-bank (stress, recovery) and not on the device is
 * folded into var__nbti once, so the per-register loop of var_chip_age_registers costs one
 * cube, one cube root and one delay. */
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
    assert(t_stress_s >= 0.0 && t_rec_s >= 0.0);
    s->stressed = t_stress_s > 0.0;
    s->a = s->stressed ? var_nbti_kv(a) * sqrt(t_stress_s) : 0.0;
    s->cube = is_sixth(a->time_exponent);
    s->p_in = 1.0 / (2.0 * a->time_exponent);
    s->p_out = 2.0 * a->time_exponent;
    double f = s->stressed ? a->eta * t_rec_s / (t_stress_s + t_rec_s) : 0.0;
    s->rec = fmax(0.0, 1.0 - sqrt(fmax(f, 0.0))); /* eta <= 1 keeps it >= 0 anyway */
}

double var_nbti_dvth(const var_aging *a, double dvth0, double t_stress_s, double t_rec_s)
{
    var__nbti s;
    var__nbti_prep(&s, a, t_stress_s, t_rec_s);
    if (!s.stressed)
        return 0.0;
    return fmax(0.0, s.rec * (var__nbti_stress_dev(&s, dvth0) - dvth0));
}
