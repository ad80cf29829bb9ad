/* var_nbti.h - NBTI threshold-voltage shift (model.md section 7, docs/nbti.md).
 *
 * The physics only: how much a device's Vth rises after a given stress and recovery time.
 * Applying it to a chip is var_chip_age_registers() in var.h; the aging loop over a
 * schedule, the duty and the guardband belong to the driver. */
#ifndef RFDSE_VAR_NBTI_H
#define RFDSE_VAR_NBTI_H

#include "var_params.h"

/* One year of use in seconds (Julian year, 365.25 days): the unit of aging.years. */
#define VAR_YEAR_S 31557600.0

/* Temperature scaling of Kv (docs/nbti.md "Temperature"): Kv' = kv exp(Ea/kB (1/T_ref -
 * 1/T)).  Ea is a modelling choice inside the 0.1-0.15 eV range quoted for the NBTI
 * prefactor, not a fit; T_ref is the default temperature, so the default factor is 1. */
#define VAR_NBTI_EA_EV 0.13
#define VAR_NBTI_TREF_K 358.0
#define VAR_BOLTZMANN_EV 8.617333262e-5 /* eV / K (CODATA 2018, exact) */

/* kv scaled to a->temperature (V^(1/(2n)) s^(-1/2), the same unit as kv). */
double var_nbti_kv(const var_aging *a);

/* The law with a given dVth_t0 = dvth0 (V, either sign), one-shot over t_stress_s seconds
 * of stress and t_rec_s seconds of recovery (both >= 0):
 *   stress:   (Kv' sqrt(t_stress) + sgnpow(dvth0, 1/(2n)))^(2n) - dvth0
 *   recovery: times 1 - sqrt(eta t_rec / (t_stress + t_rec))
 * with n = a->time_exponent and real (sign-preserving) roots.  dvth0 = 0 is the source's
 * shift from manufacture; dvth0 = the PV deviation is the "pv" reading.  Exactly 0 at
 * zero stress; recovery only reduces the increment; never negative. */
double var_nbti_dvth(const var_aging *a, double dvth0, double t_stress_s, double t_rec_s);

/* The NBTI shift (V, >= 0) of a device whose PV deviation from nominal Vth is dvth_pv,
 * after stress and recovery totals under a constant duty, by a->initial_shift: the
 * accumulated law (the default) ignores dvth_pv (var_nbti_dvth(a, 0, ...)); "pv" is
 * var_nbti_dvth(a, dvth_pv, ...).  The device's Vth is nominal + dvth_pv + this. */
double var_nbti_shift(const var_aging *a, double dvth_pv, double t_stress_s, double t_rec_s);

/* The accumulated law continued over one interval of dt_s seconds at stress duty `duty`
 * (in [0, 1]; stress duty x dt, recovery the rest) from the shift `shift` (V, >= 0)
 * reached at its start: the shift at its end.  With a constant duty, continuing from 0
 * over any split of T equals var_nbti_dvth(a, 0, duty T, (1 - duty) T) (to rounding);
 * never below `shift`; duty 0 keeps it (docs/nbti.md section 1).  Ignores
 * a->initial_shift: "pv" has no continued form (it is evaluated on totals). */
double var_nbti_continue(const var_aging *a, double shift, double duty, double dt_s);
/* The same with kv = var_nbti_kv(a) computed once by the caller (an exp per call saved in
 * the aging loop's per-interval, per-sub-bank calls); the same value bit for bit. */
double var_nbti_continue_kv(const var_aging *a, double kv, double shift, double duty,
                            double dt_s);

#endif
