/* NBTI: the Vth shift (model.md section 7), its calibration, the inverse cell model, and
 * the fast aged register delays (var_chip_age_registers) against the exact per-cell path.
 * All inputs are fixed; tolerances are stated at each check. */
#include <string.h>

#include "var_internal.h"
#include "vtest.h"

#define YEAR VAR_YEAR_S

/* ---- independent reference: model.md section 7 written out with plain pow ----------- */

static double cbrt_real(double v) { return v < 0 ? -pow(-v, 1.0 / 3.0) : pow(v, 1.0 / 3.0); }

/* n = 1/6, temperature factor given explicitly. */
static double ref_dvth(double kv, double eta, double x, double ts, double tr)
{
    if (ts == 0.0)
        return 0.0;
    double stress = cbrt_real(kv * sqrt(ts) + x * x * x) - x;
    return stress * (1.0 - sqrt(eta * tr / (ts + tr)));
}

static var_aging aging_default(void)
{
    var_params p;
    var_params_default(&p);
    return p.aging;
}

static void test_dvth_zero_at_zero_stress(void **state)
{
    (void)state;
    var_aging a = aging_default();
    const double xs[] = { -0.2, -0.05, 0.0, 0.04, 0.3 };
    for (int i = 0; i < 5; i++) {
        assert_true(var_nbti_dvth(&a, xs[i], 0.0, 0.0) == 0.0);
        assert_true(var_nbti_dvth(&a, xs[i], 0.0, 5 * YEAR) == 0.0);
    }
}

/* Strictly increasing in stress time, for devices born slow, nominal and fast. */
static void test_dvth_grows_with_stress(void **state)
{
    (void)state;
    var_aging a = aging_default();
    const double xs[] = { -0.08, -0.03, 0.0, 0.03, 0.08 };
    for (int i = 0; i < 5; i++) {
        double prev = 0.0;
        for (double ts = 1e3; ts <= 10 * YEAR; ts *= 3) {
            double d = var_nbti_dvth(&a, xs[i], ts, 0.0);
            if (!(d > prev))
                fail_msg("dvth0 %g: dVth(%g s) = %.10g not above %.10g", xs[i], ts, d, prev);
            prev = d;
        }
    }
}

/* More recovery (same stress) never increases the shift, and the factor stays at least
 * 1 - sqrt(eta) of the stress-only shift (t_rec -> infinity). */
static void test_dvth_shrinks_with_recovery(void **state)
{
    (void)state;
    var_aging a = aging_default();
    const double xs[] = { -0.05, 0.0, 0.05 };
    for (int i = 0; i < 3; i++) {
        double ts = 2 * YEAR, full = var_nbti_dvth(&a, xs[i], ts, 0.0), prev = full;
        for (double tr = 1e4; tr <= 100 * YEAR; tr *= 4) {
            double d = var_nbti_dvth(&a, xs[i], ts, tr);
            if (!(d < prev))
                fail_msg("dvth0 %g: recovery %g s gives %.10g, not below %.10g", xs[i], tr, d, prev);
            assert_true(d >= (1.0 - sqrt(a.eta)) * full);
            prev = d;
        }
    }
}

/* Hand-computed points, including a fast device (dvth0 < 0) whose Kv sqrt(t) + dvth0^3 is
 * negative (real cube root of a negative number), and a temperature other than T_ref.
 * Tolerance 1e-12 relative: the two computations differ only in cbrt vs pow rounding. */
static void test_dvth_hand_values(void **state)
{
    (void)state;
    var_aging a = aging_default();
    const struct { double x, ts, tr; } pt[] = {
        { 0.0, 1 * YEAR, 0.0 },   { 0.03, 3 * YEAR, 1 * YEAR }, { -0.04, 2 * YEAR, 2 * YEAR },
        { -0.1, 1e4, 0.0 },       /* kv sqrt(t) = 1.7e-5 < 0.1^3: the sum is negative */
        { 0.12, 7 * YEAR, 0.5 * YEAR },
    };
    for (size_t i = 0; i < sizeof pt / sizeof pt[0]; i++) {
        double want = ref_dvth(a.kv, a.eta, pt[i].x, pt[i].ts, pt[i].tr);
        double got = var_nbti_dvth(&a, pt[i].x, pt[i].ts, pt[i].tr);
        assert_true(want > 0.0);
        assert_close(got, want, 1e-12 * want);
    }
    /* 398 K: Kv times exp(Ea/kB (1/358 - 1/398)) */
    a.temperature = 398.0;
    double f = exp(0.13 / 8.617333262e-5 * (1.0 / 358.0 - 1.0 / 398.0));
    double want = ref_dvth(a.kv * f, a.eta, 0.02, 4 * YEAR, YEAR);
    assert_close(var_nbti_dvth(&a, 0.02, 4 * YEAR, YEAR), want, 1e-12 * want);
    assert_close(var_nbti_kv(&a), a.kv * f, 1e-14 * a.kv * f);
    /* a general exponent, n = 1/4: powers 2 and 1/2, sign-preserving */
    a = aging_default();
    a.time_exponent = 0.25;
    double x = -0.03, A = a.kv * sqrt(YEAR), s = A - x * x; /* sgnpow(x, 2) = -x^2 */
    double stress = (s < 0 ? -sqrt(-s) : sqrt(s)) - x;
    assert_close(var_nbti_dvth(&a, x, YEAR, 0.0), stress, 1e-12 * stress);
}

/* Never negative over a grid of deviations and times, with full recovery (eta = 1). */
static void test_dvth_never_negative(void **state)
{
    (void)state;
    var_aging a = aging_default();
    for (int e = 0; e < 2; e++, a.eta = 1.0)
        for (double x = -0.3; x <= 0.6; x += 0.0125)
            for (double ts = 0.0; ts <= 8 * YEAR; ts += 0.5 * YEAR)
                for (double tr = 0.0; tr <= 8 * YEAR; tr += YEAR)
                    assert_true(var_nbti_dvth(&a, x, ts, tr) >= 0.0);
}

/* Calibration (model.md section 7): a continuously stressed nominal cell (dvth0 = 0, no
 * recovery, nominal Leff) loses 25 % of its speed in 3 years.  Kv from the figure:
 * delay 4/3 -> Vdd - Vth = (Vdd - Vth0) (3/4)^(1/alpha); dVth^3 = Kv sqrt(3 years). */
static void test_calibration(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    const var_timing *t = &p.timing;
    double dv = (t->vdd - t->vth0) * (1.0 - pow(0.75, 1.0 / t->alpha));
    double kv = dv * dv * dv / sqrt(3 * YEAR);
    print_message("calibrated Kv = %.6e (default %.6e), dVth(3 y) = %.2f mV\n", kv,
                  p.aging.kv, 1e3 * dv);
    assert_close(p.aging.kv, kv, 1e-4 * kv); /* the default is kv to 5 digits */
    double d3 = var_cell_delay(t, t->vth0 + var_nbti_dvth(&p.aging, 0.0, 3 * YEAR, 0.0), 1.0);
    assert_close(1.0 - 1.0 / d3, 0.25, 0.005 * 0.25);
    double d7 = var_nbti_dvth(&p.aging, 0.0, 7 * YEAR, 0.0);
    print_message("fully stressed nominal device after 7 years: %.2f mV, speed %.4f\n",
                  1e3 * d7, 1.0 / var_cell_delay(t, t->vth0 + d7, 1.0));
    /* t^(1/6) and Kv^(1/3) scaling from the 3-year point */
    assert_close(d7, dv * pow(7.0 / 3.0, 1.0 / 6.0) * cbrt(p.aging.kv / kv), 1e-12);
    assert_close(1e3 * d7, 137.18, 0.01);                      /* docs/nbti.md */
}

/* var_cell_vth_for_delay inverts var_cell_delay (1e-13 relative) and handles the cap. */
static void test_cell_inverse(void **state)
{
    (void)state;
    var_params p;
    var_params_default(&p);
    const var_timing *t = &p.timing;
    for (double l = 0.7; l <= 1.3; l += 0.1)
        for (double v = -0.1; v < 0.85; v += 0.01) {
            double d = var_cell_delay(t, v, l);
            double back = var_cell_vth_for_delay(t, d, l);
            assert_close(var_cell_delay(t, back, l), d, 1e-13 * d);
            assert_close(back, v, 1e-12);
        }
    assert_true(var_cell_vth_for_delay(t, VAR_DELAY_CAP, 1.0) == t->vdd);
    assert_true(var_cell_delay(t, var_cell_vth_for_delay(t, VAR_DELAY_CAP, 1.0), 1.0) ==
                VAR_DELAY_CAP);
}

static void test_bad_aging_knobs(void **state)
{
    (void)state;
    char key[64], msg[256];
    var_params p;
    var_params_default(&p);
    assert_int_equal(var_params_check(&p, key, sizeof key, msg, sizeof msg), 0);
    struct { double *field, value; const char *key; } bad[] = {
        { &p.aging.kv, -1e-7, "aging.kv" },          { &p.aging.temperature, 0, "aging.temperature" },
        { &p.aging.eta, 1.5, "aging.eta" },          { &p.aging.time_exponent, 0, "aging.time_exponent" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        var_params q = p;
        *(double *)((char *)&q + ((char *)bad[i].field - (char *)&p)) = bad[i].value;
        assert_int_equal(var_params_check(&q, key, sizeof key, msg, sizeof msg), -1);
        assert_string_equal(key, bad[i].key);
    }
}

/* ---- the source's law: accumulated shift, continued across a schedule -------------- */

/* Zero at zero stress under both readings, for any PV deviation; continuing from 0 over
 * an interval without stress (duty 0, or dt 0) stays exactly 0. */
static void test_shift_zero_at_zero_stress(void **state)
{
    (void)state;
    var_aging a = aging_default();
    assert_int_equal(a.initial_shift, VAR_SHIFT_ACCUMULATED); /* the default is the source's */
    for (int law = 0; law < 2; law++, a.initial_shift = VAR_SHIFT_PV)
        for (double x = -0.1; x <= 0.1; x += 0.05) {
            assert_true(var_nbti_shift(&a, x, 0.0, 0.0) == 0.0);
            assert_true(var_nbti_shift(&a, x, 0.0, 3 * YEAR) == 0.0);
        }
    a = aging_default();
    assert_true(var_nbti_continue(&a, 0.0, 0.0, 7 * YEAR) == 0.0);
    assert_true(var_nbti_continue(&a, 0.0, 0.7, 0.0) == 0.0);
    assert_true(var_nbti_continue(&a, 0.0, 1.0, 1e-3) > 0.0);
}

/* The shift from manufacture under a constant duty d, written out:
 * (1 - sqrt(eta (1 - d))) (Kv sqrt(d T))^(1/3) at n = 1/6 and T_ref. */
static double ref_one_shot(const var_aging *a, double duty, double t)
{
    if (duty == 0.0 || t == 0.0)
        return 0.0;
    return (1.0 - sqrt(a->eta * (1.0 - duty))) * cbrt_real(a->kv * sqrt(duty * t));
}

/* Continued interval by interval with a constant duty, the shift equals the one-shot
 * formula at every time point (1e-12 relative), for yearly, irregular and fine splits,
 * at the default and at another temperature, and for the general exponent n = 1/4. */
static void test_continue_equals_one_shot(void **state)
{
    (void)state;
    const double yearly[] = { 0, 1, 2, 3, 4, 5, 6, 7 }, odd[] = { 0, 0.01, 0.3, 2.5, 2.6, 7 };
    const double duties[] = { 0.01, 0.2, 0.5, 0.93, 1.0 };
    double fine[101];
    for (int i = 0; i <= 100; i++)
        fine[i] = 0.07 * i;
    const struct { const double *y; int n; } sched[] = { { yearly, 8 }, { odd, 6 }, { fine, 101 } };
    for (int v = 0; v < 3; v++) {
        var_aging a = aging_default();
        a.temperature = v == 1 ? 398.0 : a.temperature;
        a.time_exponent = v == 2 ? 0.25 : a.time_exponent;
        for (size_t d = 0; d < sizeof duties / sizeof duties[0]; d++)
            for (int k = 0; k < 3; k++) {
                double sh = 0.0;
                for (int i = 1; i < sched[k].n; i++) {
                    double t = sched[k].y[i] * YEAR;
                    sh = var_nbti_continue(&a, sh, duties[d], t - sched[k].y[i - 1] * YEAR);
                    double want = var_nbti_dvth(&a, 0.0, duties[d] * t, (1 - duties[d]) * t);
                    if (!(fabs(sh - want) <= 1e-12 * want))
                        fail_msg("variant %d duty %g schedule %d at %g y: continued %.17g, "
                                 "one-shot %.17g", v, duties[d], k, sched[k].y[i], sh, want);
                    if (v == 0) /* and the one-shot is the formula written out */
                        assert_close(want, ref_one_shot(&a, duties[d], t), 1e-12 * want);
                }
            }
    }
}

/* A duty change at 3 years: the shifts up to 3 years are those of the constant schedule
 * bit for bit, every later one differs; the interval after the change starts from the
 * shift reached (the equivalent stress time under the new duty, written out here with
 * pow); the shift never falls, even when the duty drops. */
static void test_continue_duty_change(void **state)
{
    (void)state;
    var_aging a = aging_default();
    const double d1 = 0.6, d2s[] = { 0.1, 0.9, 0.0 };
    for (size_t k = 0; k < sizeof d2s / sizeof d2s[0]; k++) {
        double s_const = 0.0, s_chg = 0.0;
        for (int y = 1; y <= 7; y++) {
            double prev = s_chg;
            s_const = var_nbti_continue(&a, s_const, d1, YEAR);
            s_chg = var_nbti_continue(&a, s_chg, y <= 3 ? d1 : d2s[k], YEAR);
            if (y <= 3)
                assert_true(s_chg == s_const);
            else if (d2s[k] > 0) {
                double r = 1 - sqrt(a.eta * (1 - d2s[k])), u0 = prev / r;
                double want = r * pow(a.kv * a.kv * d2s[k] * YEAR + pow(u0, 6.0), 1.0 / 6.0);
                assert_close(s_chg, want, 1e-12 * want);
                assert_true(s_chg != s_const);
                assert_true(d2s[k] < d1 ? s_chg < s_const : s_chg > s_const);
            } else
                assert_true(s_chg == prev); /* an idle interval keeps the shift */
            assert_true(s_chg >= prev);
        }
    }
}

/* Under the default reading the shift does not depend on the device's PV deviation (bit
 * for bit); under "pv" it does, and a device born slow ages less. */
static void test_shift_independent_of_pv(void **state)
{
    (void)state;
    var_aging a = aging_default();
    double base = var_nbti_shift(&a, 0.0, 2 * YEAR, 5 * YEAR);
    assert_true(base > 0.0 && base == var_nbti_dvth(&a, 0.0, 2 * YEAR, 5 * YEAR));
    for (double x = -0.12; x <= 0.12; x += 0.01)
        assert_true(var_nbti_shift(&a, x, 2 * YEAR, 5 * YEAR) == base);
    a.initial_shift = VAR_SHIFT_PV;
    assert_true(var_nbti_shift(&a, 0.06, 2 * YEAR, 5 * YEAR) <
                var_nbti_shift(&a, -0.06, 2 * YEAR, 5 * YEAR));
    assert_true(var_nbti_shift(&a, 0.06, 2 * YEAR, 5 * YEAR) ==
                var_nbti_dvth(&a, 0.06, 2 * YEAR, 5 * YEAR));
}

/* ---- the chip --------------------------------------------------------------------- */

typedef struct fixture {
    var_params p;
    var_chip *c;
} fixture;

/* The default floorplan: the order and approximation tests need its statistics.  The
 * chip tests run once per reading of the law (aging.initial_shift). */
static int group_setup_law(void **state, var_initial_shift law)
{
    fixture *f = calloc(1, sizeof *f);
    var_params_default(&f->p);
    f->p.aging.initial_shift = law;
    f->c = var_chip_alloc(&f->p);
    *state = f;
    return f->c && var_chip_generate(f->c, &f->p, 1, 0) == 0 ? 0 : -1;
}

static int group_setup(void **state) { return group_setup_law(state, VAR_SHIFT_ACCUMULATED); }
static int group_setup_pv(void **state) { return group_setup_law(state, VAR_SHIFT_PV); }

static int group_teardown(void **state)
{
    fixture *f = *state;
    var_chip_free(f->c);
    free(f);
    return 0;
}

typedef struct snap {
    double *reg, *entry, sub[512], bank[64], freq;
} snap;

static void take(const fixture *f, int sm, snap *s)
{
    var_chip *c = f->c;
    memcpy(s->reg, var_chip_register_delays(c, sm), sizeof(double) * c->n_regs);
    memcpy(s->entry, var_chip_entry_delays(c, sm), sizeof(double) * c->n_entries);
    memcpy(s->sub, var_chip_sub_bank_delays(c, sm), sizeof(double) * c->n_subs);
    memcpy(s->bank, var_chip_bank_delays(c, sm), sizeof(double) * c->n_banks);
    s->freq = var_chip_sm_frequency(c, sm);
}

static void snap_alloc(const fixture *f, snap *s)
{
    s->reg = malloc(sizeof(double) * f->c->n_regs);
    s->entry = malloc(sizeof(double) * f->c->n_entries);
}

static void snap_free(snap *s)
{
    free(s->reg);
    free(s->entry);
}

static void assert_same(const fixture *f, const snap *a, const snap *b)
{
    const var_chip *c = f->c;
    assert_memory_equal(a->reg, b->reg, sizeof(double) * c->n_regs);
    assert_memory_equal(a->entry, b->entry, sizeof(double) * c->n_entries);
    assert_memory_equal(a->sub, b->sub, sizeof(double) * c->n_subs);
    assert_memory_equal(a->bank, b->bank, sizeof(double) * c->n_banks);
    assert_true(a->freq == b->freq);
}

/* Stress varying across sub-banks: duty from 0 to 1 over `years`, recovery the rest. */
static void stress_ramp(int n, double years, double *ts, double *tr)
{
    for (int i = 0; i < n; i++) {
        double duty = (double)i / (n - 1);
        ts[i] = duty * years * YEAR, tr[i] = (1.0 - duty) * years * YEAR;
    }
}

/* Aged register delays: never shorter than time zero, equal to the formula
 * var_cell_delay(vth_eff + var_nbti_dvth, Leff) at the sub-bank's Leff (1e-12
 * relative), seen by techniques. */
static void test_aged_delays(void **state)
{
    fixture *f = *state;
    var_chip *c = f->c;
    int sm = 3, L = c->plan.lanes, S = f->p.floorplan.sub_banks;
    snap t0, t1;
    snap_alloc(f, &t0), snap_alloc(f, &t1);
    take(f, sm, &t0);
    double ts[512], tr[512];
    stress_ramp(c->n_subs, 5.0, ts, tr);
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, ts, tr), 0);
    take(f, sm, &t1);
    const var_timing *t = &f->p.timing;
    const double *leff = var_chip_sub_bank_leff(c, sm);
    for (int r = 0; r < c->n_regs; r++) {
        int row = r / L, sub = (row / f->p.floorplan.entries_per_bank) * S + (r % L) / (L / S);
        double l = leff[sub], v = var_cell_vth_for_delay(t, t0.reg[r], l);
        double sh = var_nbti_shift(&f->p.aging, v - t->vth0, ts[sub], tr[sub]);
        double want = var_cell_delay(t, v + sh, l);
        if (f->p.aging.initial_shift == VAR_SHIFT_ACCUMULATED) /* one shift per sub-bank */
            assert_true(sh == var_nbti_dvth(&f->p.aging, 0.0, ts[sub], tr[sub]));
        assert_true(t1.reg[r] >= t0.reg[r]);
        assert_close(t1.reg[r], fmax(want, t0.reg[r]), 1e-12 * want);
        if (sub == 0)
            assert_true(t1.reg[r] == t0.reg[r]); /* zero duty, pure recovery: unchanged */
    }
    for (int i = 0; i < c->n_subs; i++)
        assert_true(t1.sub[i] >= t0.sub[i]);
    assert_true(t1.freq < t0.freq);
    var_rf_map map;
    var_technique tech;
    double freq;
    var_technique_default(&tech);
    assert_int_equal(var_technique_apply(c, &f->p, &tech, sm, &map, &freq), 0);
    assert_true(freq == t1.freq); /* the technique reads the aged chip */
    assert_int_equal(var_chip_age_reset(c, sm), 0);
    snap_free(&t0), snap_free(&t1);
}

/* The driver ages only maxima: var_register_delay_aged of a sub-bank's time-zero delay
 * (its slowest register) must be the aged sub-bank delay bit for bit, because aging
 * keeps the order of a sub-bank's registers; and it is the per-register transform. */
static void test_aged_maxima_are_exact(void **state)
{
    fixture *f = *state;
    var_chip *c = f->c;
    int sm = 2;
    snap t0, t1;
    snap_alloc(f, &t0), snap_alloc(f, &t1);
    take(f, sm, &t0);
    double ts[512], tr[512];
    stress_ramp(c->n_subs, 7.0, ts, tr);
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, ts, tr), 0);
    take(f, sm, &t1);
    int L = c->plan.lanes, S = f->p.floorplan.sub_banks;
    const double *leff = var_chip_sub_bank_leff(c, sm);
    for (int i = 0; i < c->n_subs; i++)
        assert_true(var_register_delay_aged(&f->p, t0.sub[i], leff[i], ts[i], tr[i]) ==
                    t1.sub[i]);
    for (int r = 0; r < c->n_regs; r += 97) {
        int sub = (r / L / f->p.floorplan.entries_per_bank) * S + (r % L) / (L / S);
        assert_true(var_register_delay_aged(&f->p, t0.reg[r], leff[sub], ts[sub], tr[sub]) ==
                    t1.reg[r]);
    }
    assert_true(var_register_delay_aged(&f->p, 1.3, 1.0, 0.0, 5.0 * YEAR) == 1.3);
    assert_int_equal(var_chip_age_reset(c, sm), 0);
    snap_free(&t0), snap_free(&t1);
}

/* Classifying by given sub-bank delays is var_technique_apply when they are the chip's. */
static void test_apply_sub_banks_matches(void **state)
{
    fixture *f = *state;
    var_technique t;
    var_technique_default(&t);
    t.granularity = VAR_GRAN_SUB_BANK;
    for (int bro = 0; bro <= 1; bro++) {
        t.bro = bro;
        var_rf_map a, b;
        double fa, fb;
        assert_int_equal(var_technique_apply(f->c, &f->p, &t, 4, &a, &fa), 0);
        assert_int_equal(var_technique_apply_sub_banks(f->c, &f->p, &t, 4,
                                                       var_chip_sub_bank_delays(f->c, 4), &b, &fb), 0);
        assert_memory_equal(&a, &b, sizeof a);
        assert_true(fa == fb);
    }
    t.granularity = VAR_GRAN_REGISTER;
    var_rf_map m;
    double fr;
    assert_int_equal(var_technique_apply_sub_banks(f->c, &f->p, &t, 4,
                                                   var_chip_sub_bank_delays(f->c, 4), &m, &fr),
                     VAR_ETECHNIQUE);
}

/* The prepared forms the aging loop uses (var_reg_age: the register's Vth and the law's
 * Kv' computed once) age a sub-bank's maximum as var_chip_age_registers ages its
 * registers, bit for bit, at every stress of a ramp and again after another stress (the
 * preparation is not used up); the shifted form is the aged one at the law's shift
 * (accumulated reading); the continued law with Kv' given is the continued law. */
static void test_prepared_aging_matches(void **state)
{
    fixture *f = *state;
    var_chip *c = f->c;
    int sm = 6;
    snap t0, t1;
    snap_alloc(f, &t0), snap_alloc(f, &t1);
    take(f, sm, &t0);
    const double *leff = var_chip_sub_bank_leff(c, sm);
    var_reg_age age[512];
    for (int i = 0; i < c->n_subs; i++)
        var_reg_age_prep(&f->p, t0.sub[i], leff[i], &age[i]);
    for (double years = 0.5; years <= 8.0; years *= 4) {
        double ts[512], tr[512];
        stress_ramp(c->n_subs, years, ts, tr);
        assert_int_equal(var_chip_age_registers(c, &f->p, sm, ts, tr), 0);
        take(f, sm, &t1);
        for (int i = 0; i < c->n_subs; i++) {
            assert_true(var_reg_age_delay(&f->p, &age[i], ts[i], tr[i]) == t1.sub[i]);
            if (f->p.aging.initial_shift != VAR_SHIFT_ACCUMULATED)
                continue;
            double sh = var_nbti_shift(&f->p.aging, 0.0, ts[i], tr[i]);
            assert_true(var_reg_age_shifted(&f->p, &age[i], sh) == t1.sub[i]);
        }
    }
    double kv = var_nbti_kv(&f->p.aging), a = 0.0, b = 0.0;
    for (int y = 0; y < 7; y++) {
        a = var_nbti_continue(&f->p.aging, a, 0.1 * y + 0.2, YEAR);
        b = var_nbti_continue_kv(&f->p.aging, kv, b, 0.1 * y + 0.2, YEAR);
        assert_true(a == b && a > 0.0);
    }
    assert_int_equal(var_chip_age_reset(c, sm), 0);
    snap_free(&t0), snap_free(&t1);
}

/* Re-sorting the sub-bank part of a map in place (the aging loop) leaves it as
 * var_technique_apply_sub_banks makes the whole map, whatever the part held before (a
 * sort by other delays, or anything), with and without bro; and it refuses what
 * var_technique_apply_sub_banks refuses. */
static void test_sort_sub_banks_matches(void **state)
{
    fixture *f = *state;
    var_technique t;
    var_technique_default(&t);
    t.granularity = VAR_GRAN_SUB_BANK;
    const double *d0 = var_chip_sub_bank_delays(f->c, 4);
    double other[512];
    for (int i = 0; i < f->c->n_subs; i++)
        other[i] = d0[f->c->n_subs - 1 - i] * (1.0 + 0.01 * (i % 3)); /* another order */
    for (int bro = 0; bro <= 1; bro++) {
        t.bro = bro;
        static var_rf_map want, got;
        double fw, fg;
        assert_int_equal(var_technique_apply_sub_banks(f->c, &f->p, &t, 4, other, &want, &fw), 0);
        assert_int_equal(var_technique_apply_sub_banks(f->c, &f->p, &t, 4, d0, &got, &fg), 0);
        assert_int_equal(var_technique_sort_sub_banks(f->c, &t, 4, other, got.sub_id,
                                                      got.sub_slow, &fg), 0);
        assert_memory_equal(&want, &got, sizeof want);
        assert_true(fw == fg);
        for (int b = 0; b < got.n_banks; b++)
            for (int s = 0; s < got.subs_per_bank; s++)
                got.sub_id[b][s] = 7, got.sub_slow[b][s] = 3;
        assert_int_equal(var_technique_sort_sub_banks(f->c, &t, 4, other, got.sub_id,
                                                      got.sub_slow, &fg), 0);
        assert_memory_equal(&want, &got, sizeof want);
    }
    var_rf_map m;
    double fr;
    t.granularity = VAR_GRAN_REGISTER;
    assert_int_equal(var_technique_sort_sub_banks(f->c, &t, 4, d0, m.sub_id, m.sub_slow, &fr),
                     VAR_ETECHNIQUE);
    t.granularity = VAR_GRAN_SUB_BANK;
    assert_int_equal(var_technique_sort_sub_banks(f->c, &t, f->c->n_sms, d0, m.sub_id,
                                                  m.sub_slow, &fr),
                     VAR_ERANGE);
}

/* The re-sort starts from the order the map's positions hold (its last sort): whatever
 * permutation that is, the result is the one sorting from scratch gives, ties between
 * equal delays included (broken by sub-bank id), and NaN delays fall back to the
 * scratch order. */
static void test_sort_sub_banks_any_start(void **state)
{
    fixture *f = *state;
    int n = f->c->n_subs, S = f->p.floorplan.sub_banks;
    var_technique t;
    var_technique_default(&t);
    t.granularity = VAR_GRAN_SUB_BANK;
    t.bro = true;
    double tied[512];
    for (int i = 0; i < n; i++)
        tied[i] = 1.0 + 0.125 * (double)((i * 7) % 5); /* five values, many ties */
    static var_rf_map want, got;
    double fw, fg;
    assert_int_equal(var_technique_apply_sub_banks(f->c, &f->p, &t, 4, tied, &want, &fw), 0);
    uint64_t x = 88172645463325252ull;
    for (int round = 0; round < 200; round++) {
        assert_int_equal(var_technique_apply_sub_banks(f->c, &f->p, &t, 4, tied, &got, &fg), 0);
        int16_t perm[512];
        for (int i = 0; i < n; i++)
            perm[i] = (int16_t)(round == 0 ? n - 1 - i : i);
        for (int i = n - 1; round > 1 && i > 0; i--) { /* xorshift shuffle */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            int j = (int)(x % (uint64_t)(i + 1));
            int16_t v = perm[i];
            perm[i] = perm[j], perm[j] = v;
        }
        for (int i = 0; i < n; i++)
            got.sub_id[i / S][i % S] = perm[i];
        assert_int_equal(var_technique_sort_sub_banks(f->c, &t, 4, tied, got.sub_id,
                                                      got.sub_slow, &fg), 0);
        assert_memory_equal(&want, &got, sizeof want);
        assert_true(fw == fg);
    }
    tied[3] = NAN;
    assert_int_equal(var_technique_apply_sub_banks(f->c, &f->p, &t, 4, tied, &want, &fw), 0);
    for (int i = 0; i < n; i++)
        got.sub_id[i / S][i % S] = (int16_t)(n - 1 - i);
    assert_int_equal(var_technique_sort_sub_banks(f->c, &t, 4, tied, got.sub_id, got.sub_slow,
                                                  &fg), 0);
    assert_memory_equal(&want, &got, sizeof want);
}

/* Every call starts from time zero: A, B, A gives A bit for bit; reset and all-zero
 * stress restore time zero bit for bit; errors leave the chip alone. */
static void test_idempotent_and_reset(void **state)
{
    fixture *f = *state;
    var_chip *c = f->c;
    int sm = 5;
    snap t0, a1, x;
    snap_alloc(f, &t0), snap_alloc(f, &a1), snap_alloc(f, &x);
    take(f, sm, &t0);
    double ts[512], tr[512], zero[512] = { 0 }, big[512];
    stress_ramp(c->n_subs, 2.0, ts, tr);
    for (int i = 0; i < c->n_subs; i++)
        big[i] = 7 * YEAR;
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, ts, tr), 0);
    take(f, sm, &a1);
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, big, zero), 0);
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, ts, tr), 0);
    take(f, sm, &x);
    assert_same(f, &a1, &x);
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, zero, zero), 0);
    take(f, sm, &x);
    assert_same(f, &t0, &x);
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, big, tr), 0);
    assert_int_equal(var_chip_age_reset(c, sm), 0);
    take(f, sm, &x);
    assert_same(f, &t0, &x);
    /* bad calls */
    double neg[512];
    memcpy(neg, ts, sizeof neg);
    neg[7] = -1.0;
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, neg, tr), VAR_EINVAL);
    neg[7] = NAN;
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, tr, neg), VAR_EINVAL);
    assert_int_equal(var_chip_age_registers(c, &f->p, -1, ts, tr), VAR_ERANGE);
    assert_int_equal(var_chip_age_registers(c, &f->p, c->n_sms, ts, tr), VAR_ERANGE);
    assert_int_equal(var_chip_age_reset(c, c->n_sms), VAR_ERANGE);
    var_params other = f->p;
    other.timing.vdd = 1.0;
    assert_int_equal(var_chip_age_registers(c, &other, sm, ts, tr), VAR_EINVAL);
    take(f, sm, &x);
    assert_same(f, &t0, &x);
    /* a new generate is time zero again, and aging starts from that chip */
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, ts, tr), 0);
    assert_int_equal(var_chip_generate(c, &f->p, 1, 0), 0);
    take(f, sm, &x);
    assert_same(f, &t0, &x);
    snap_free(&t0), snap_free(&a1), snap_free(&x);
}

/* Pairs of registers of one sub-bank whose aged order contradicts their time-zero order
 * (d0_i < d0_j but aged_i > aged_j). */
static long order_violations(const var_chip *c, const var_params *p, const double *d0,
                             const double *aged)
{
    int L = c->plan.lanes, E = p->floorplan.entries_per_bank, S = p->floorplan.sub_banks;
    int per = L / S, n = E * per;
    long bad = 0;
    int *idx = malloc(sizeof(int) * n);
    for (int sub = 0; sub < c->n_subs; sub++) {
        int k = 0;
        for (int row = (sub / S) * E; row < (sub / S + 1) * E; row++)
            for (int l = (sub % S) * per; l < (sub % S + 1) * per; l++)
                idx[k++] = row * L + l;
        for (int i = 1; i < n; i++) /* insertion sort by d0 */
            for (int j = i; j > 0 && d0[idx[j - 1]] > d0[idx[j]]; j--) {
                int tmp = idx[j];
                idx[j] = idx[j - 1], idx[j - 1] = tmp;
            }
        for (int i = 1; i < n; i++)
            bad += d0[idx[i - 1]] < d0[idx[i]] && aged[idx[i - 1]] > aged[idx[i]];
    }
    free(idx);
    return bad;
}

/* Within a sub-bank aging preserves the register order (proof in variation/age.c); across
 * sub-banks with different stress it need not.  The checker must see an injected swap. */
static void test_order_within_sub_bank(void **state)
{
    fixture *f = *state;
    var_chip *c = f->c;
    int sm = 7;
    double *d0 = malloc(sizeof(double) * c->n_regs), *aged = malloc(sizeof(double) * c->n_regs);
    memcpy(d0, var_chip_register_delays(c, sm), sizeof(double) * c->n_regs);
    double ts[512], tr[512];
    for (int y = 1; y <= 7; y += 3) {
        stress_ramp(c->n_subs, y, ts, tr);
        ts[0] = y * YEAR, tr[0] = 0.0; /* one sub-bank fully stressed too */
        assert_int_equal(var_chip_age_registers(c, &f->p, sm, ts, tr), 0);
        memcpy(aged, var_chip_register_delays(c, sm), sizeof(double) * c->n_regs);
        long bad = order_violations(c, &f->p, d0, aged);
        if (bad)
            fail_msg("year %d: %ld order violations within sub-banks", y, bad);
    }
    /* checker: swap the aged delays of sub-bank 0's slowest and fastest register */
    int lo = 0, hi = 0, L = c->plan.lanes, per = L / f->p.floorplan.sub_banks;
    for (int row = 0; row < f->p.floorplan.entries_per_bank; row++)
        for (int l = 0; l < per; l++) {
            int r = row * L + l;
            lo = d0[r] < d0[lo] ? r : lo;
            hi = d0[r] > d0[hi] ? r : hi;
        }
    double tmp = aged[lo];
    aged[lo] = aged[hi], aged[hi] = tmp;
    assert_true(order_violations(c, &f->p, d0, aged) > 0);
    assert_int_equal(var_chip_age_reset(c, sm), 0);
    free(d0);
    free(aged);
}

static double shift_nbti(double dev, int sub, void *ctx)
{
    const double *t = ctx; /* t[0] stress, t[1] recovery: the same for every sub-bank */
    (void)sub;
    return var_nbti_shift(&((const var_aging *)(t + 2))[0], dev, t[0], t[1]);
}

/* Worst-cell approximation against the exact per-cell aging (var_chip_age) on SM 0 of
 * chip 0 under uniform stress, over `years` at `duty`.  Returns the share of the exact
 * SM slowdown the approximation sees; *mean_abs and *worst_abs are the relative errors
 * of the sub-bank delays. */
static double worst_cell_vs_exact(fixture *f, double years, double duty, double *mean_abs,
                                  double *worst_abs)
{
    var_chip *c = f->c;
    int sm = 0;
    double f0 = var_chip_sm_frequency(c, sm);
    double ts[512], tr[512];
    for (int i = 0; i < c->n_subs; i++)
        ts[i] = duty * years * YEAR, tr[i] = (1.0 - duty) * years * YEAR;
    assert_int_equal(var_chip_age_registers(c, &f->p, sm, ts, tr), 0);
    double fa = var_chip_sm_frequency(c, sm), sub_a[512];
    memcpy(sub_a, var_chip_sub_bank_delays(c, sm), sizeof(double) * c->n_subs);
    struct { double t[2]; var_aging a; } ctx = { { ts[0], tr[0] }, f->p.aging };
    assert_int_equal(var_chip_age(c, &f->p, sm, shift_nbti, &ctx, NULL), 0);
    double fe = var_chip_sm_frequency(c, sm);
    const double *sub_e = var_chip_sub_bank_delays(c, sm);
    *mean_abs = *worst_abs = 0.0;
    for (int i = 0; i < c->n_subs; i++) {
        double e = fabs(sub_a[i] / sub_e[i] - 1.0);
        *worst_abs = fmax(*worst_abs, e), *mean_abs += e / c->n_subs;
    }
    double share = (f0 / fa - 1) / (f0 / fe - 1);
    print_message("%.0f y at duty %.1f: SM frequency time zero %.5f, exact %.5f, worst-cell "
                  "%.5f (%.0f %% of the exact slowdown); sub-bank delay error |mean| %.2f %%, "
                  "worst %.2f %%\n", years, duty, f0, fe, fa, 100 * share, 100 * *mean_abs,
                  100 * *worst_abs);
    assert_int_equal(var_chip_age_reset(c, sm), 0);
    return share;
}

/* The conditional Vth/Leff split (age.c) against ground truth, at a moderate and at the
 * strongest stress.  Charging all of the slowest cell's excess to Vth saw only 57-66 %
 * of the exact slowdown, always too little, with sub-bank errors of 2.5 % mean / 4.0 %
 * worst at duty 0.5 and 7.1 % / 11.3 % at duty 1 (docs/nbti.md section 4).  The split
 * must see 85-110 % of the slowdown, with sub-bank errors (mean / worst) within
 * 1.5 % / 4 % at duty 0.5 and 4.5 % / 9 % at duty 1 (measured 0.85 / 2.6 and 3.1 / 6.4).
 * What it still misses are cells that were not the slowest at time zero and overtake,
 * which grows with the stress. */
static void test_worst_cell_vs_exact(void **state)
{
    fixture *f = *state;
    const double cases[][4] = { /* years, duty, bound on mean and on worst error */
        { 7.0, 0.5, 0.015, 0.04 }, { 7.0, 1.0, 0.045, 0.09 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double mean, worst;
        double share = worst_cell_vs_exact(f, cases[k][0], cases[k][1], &mean, &worst);
        assert_true(share >= 0.85 && share <= 1.10);
        assert_true(mean <= cases[k][2] && worst <= cases[k][3]);
    }
}

int main(void)
{
    const struct CMUnitTest physics[] = {
        cmocka_unit_test(test_dvth_zero_at_zero_stress),
        cmocka_unit_test(test_dvth_grows_with_stress),
        cmocka_unit_test(test_dvth_shrinks_with_recovery),
        cmocka_unit_test(test_dvth_hand_values),
        cmocka_unit_test(test_dvth_never_negative),
        cmocka_unit_test(test_calibration),
        cmocka_unit_test(test_cell_inverse),
        cmocka_unit_test(test_bad_aging_knobs),
        cmocka_unit_test(test_shift_zero_at_zero_stress),
        cmocka_unit_test(test_continue_equals_one_shot),
        cmocka_unit_test(test_continue_duty_change),
        cmocka_unit_test(test_shift_independent_of_pv),
    };
    const struct CMUnitTest chip[] = {
        cmocka_unit_test(test_aged_delays),
        cmocka_unit_test(test_aged_maxima_are_exact),
        cmocka_unit_test(test_apply_sub_banks_matches),
        cmocka_unit_test(test_prepared_aging_matches),
        cmocka_unit_test(test_sort_sub_banks_matches),
        cmocka_unit_test(test_sort_sub_banks_any_start),
        cmocka_unit_test(test_idempotent_and_reset),
        cmocka_unit_test(test_order_within_sub_bank),
        cmocka_unit_test(test_worst_cell_vs_exact),
    };
    int bad = cmocka_run_group_tests_name("nbti physics", physics, NULL, NULL);
    bad += cmocka_run_group_tests_name("nbti chip, accumulated law", chip, group_setup,
                                       group_teardown);
    return bad + cmocka_run_group_tests_name("nbti chip, pv law", chip, group_setup_pv,
                                             group_teardown);
}
