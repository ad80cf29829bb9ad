/* The NBTI aging loop of one chip and technique (model.md section 7, docs/nbti.md).
 *
 * Stress of a sub-bank = elapsed time x its duty; recovery = the rest.  Under the
 * source's law (aging.initial_shift = "accumulated") a sub-bank's shift is continued
 * interval by interval with that interval's duty (var_nbti_continue); with a constant
 * duty that equals the one-shot formula, which fixed maps use.  Under "pv" (the paper's
 * wording) the law is evaluated on stress and recovery totals since time zero.  Duties come
 * from the SM runs: per physical sub-bank, accesses per cycle or occupancy, averaged
 * over the workload mix with the profiles' weights (frequency per year), or of one
 * workload alone (its guardband).
 * - Without nbti_reorg the storage map (classes, bank organisation table) is the one
 *   built at time zero, so duties are constant and the stress at any time is duty x t;
 *   the frequency is that of the time-zero fast set under current delays.
 * - With nbti_reorg (nbti_opt) sub-banks are re-sorted and re-paired by their current
 *   delay at every time point; the next interval's duties are measured on the new map
 *   (where nbti_opt's block-level renaming, in the model, moves the use).
 * Guardband = 1 - f(end) / f(0): the frequency given up by the end of the schedule to
 * keep the technique's fast set in timing; normalised to the baseline's on the same chip
 * and workload.
 *
 * One unit with an explicit input and output (dse_aging.h): the chip's time-zero results
 * in, the frequency per year and the guardbands out.  The SM runs of the reorg loop go
 * through the runner the caller hands in; nothing here calls the chip evaluation. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse_aging.h"
#include "dse_rf_map.h"
#include "var_nbti.h"

struct dse_aging {
    const dse_sweep *s;
    int n_sms, n_subs, n_w;
    double *sub0;          /* [n_sms][n_subs]: the chip's sub-bank delays, t = 0   */
    double *stress, *rec;  /* [n_sms][n_subs]: seconds, for the loops ("pv" law)   */
    double *shift;         /* [n_sms][n_subs]: continued NBTI shift, V (default law) */
    double *loop_duty;     /* [n_sms][n_subs]                                      */
    double *aged;          /* [n_subs]                                             */
    double *rfc_mix;       /* [n_sms][SM_MAX_BANKS]: a cache's duties under the mix */
    /* the call in progress: its input (dse_aging_in) */
    const dse_aging_in *in;
    const var_chip *chip;
    sm_rf_map *maps;
    const double *duty, *counted0;
};

void dse_aging_free(dse_aging *e)
{
    if (!e)
        return;
    free(e->sub0);
    free(e->stress);
    free(e->rec);
    free(e->shift);
    free(e->loop_duty);
    free(e->aged);
    free(e->rfc_mix);
    free(e);
}

dse_aging *dse_aging_alloc(const dse_sweep *s)
{
    dse_aging *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->s = s;
    e->n_sms = s->var.floorplan.n_sms;
    e->n_subs = s->var.floorplan.n_banks * s->var.floorplan.sub_banks;
    e->n_w = s->n_workloads;
    size_t subs = (size_t)e->n_subs, per_chip = (size_t)e->n_sms * subs;
    e->sub0 = malloc(sizeof(double) * per_chip);
    e->stress = malloc(sizeof(double) * per_chip);
    e->rec = malloc(sizeof(double) * per_chip);
    e->shift = malloc(sizeof(double) * per_chip);
    e->loop_duty = malloc(sizeof(double) * per_chip);
    e->aged = malloc(sizeof(double) * subs);
    e->rfc_mix = malloc(sizeof(double) * (size_t)e->n_sms * SM_MAX_BANKS);
    if (!e->sub0 || !e->stress || !e->rec || !e->shift || !e->loop_duty || !e->aged ||
        !e->rfc_mix) {
        dse_aging_free(e);
        return NULL;
    }
    return e;
}

/* e->sub0 = the chip's time-zero sub-bank delays. */
static void load_chip(dse_aging *e, const var_chip *chip)
{
    e->chip = chip;
    for (int sm = 0; sm < e->n_sms; sm++)
        memcpy(e->sub0 + (size_t)sm * (size_t)e->n_subs, var_chip_sub_bank_delays(e->chip, sm),
               sizeof(double) * (size_t)e->n_subs);
}

static double seconds_at(const dse_aging *e, int y) { return e->s->var.aging.years[y] * VAR_YEAR_S; }

static size_t per_chip(const dse_aging *e) { return (size_t)e->n_sms * (size_t)e->n_subs; }

/* out[i] = the duty of workload w alone, or (w < 0) the weighted mix, of duties
 * all[w][i] of n values per workload. */
static void mix_of(const dse_aging *e, const double *all, size_t n, int w, double *out)
{
    if (w >= 0) {
        memcpy(out, all + (size_t)w * n, sizeof(double) * n);
        return;
    }
    double total = 0;
    for (int k = 0; k < e->n_w; k++)
        total += e->s->workloads[k].weight;
    memset(out, 0, sizeof(double) * n);
    for (int k = 0; k < e->n_w && total > 0; k++)
        for (size_t i = 0; i < n; i++)
            out[i] += e->s->workloads[k].weight / total * all[(size_t)k * n + i];
}

/* out[sm][sub] = the duty of workload w alone, or (w < 0) the weighted mix. */
static void duty_from(const dse_aging *e, const double *all, int w, double *out)
{
    mix_of(e, all, per_chip(e), w, out);
}

/* Frequency (mean and min over SMs) of fixed fast sets counted[sm][sub] after t seconds
 * under constant duties. */
static void fixed_set_freq(const dse_aging *e, const double *counted, const double *duty,
                           double t, double *mean, double *min)
{
    double sum = 0, lo = INFINITY;
    for (int sm = 0; sm < e->n_sms; sm++) {
        const double *leff = var_chip_sub_bank_leff(e->chip, sm);
        double worst = 0;
        for (int i = 0; i < e->n_subs; i++) {
            size_t k = (size_t)sm * (size_t)e->n_subs + (size_t)i;
            if (counted[k] <= 0)
                continue;
            double d = var_register_delay_aged(&e->s->var, counted[k], leff[i], duty[k] * t,
                                               (1.0 - duty[k]) * t);
            worst = fmax(worst, d);
        }
        sum += 1.0 / worst;
        lo = fmin(lo, 1.0 / worst);
    }
    *mean = sum / e->n_sms;
    if (min)
        *min = lo;
}

void dse_aging_baseline_guardband(dse_aging *e, const var_chip *chip, const double *ideal_duty,
                                  double *raw, double *raw_mix)
{
    int last = e->s->var.aging.n_years - 1;
    load_chip(e, chip);
    double f0, f1;
    fixed_set_freq(e, e->sub0, ideal_duty, 0.0, &f0, NULL);
    for (int w = 0; w < e->n_w; w++) {
        duty_from(e, ideal_duty, w, e->loop_duty);
        fixed_set_freq(e, e->sub0, e->loop_duty, seconds_at(e, last), &f1, NULL);
        raw[w] = last > 0 ? 1.0 - f1 / f0 : NAN;
    }
    duty_from(e, ideal_duty, -1, e->loop_duty);
    for (int y = 0; y <= last; y++) {
        fixed_set_freq(e, e->sub0, e->loop_duty, seconds_at(e, y), &f1, NULL);
        raw_mix[y] = 1.0 - f1 / f0;
    }
}

static bool pv_law(const dse_aging *e) { return e->s->var.aging.initial_shift == VAR_SHIFT_PV; }

/* Sub-bank k's (= sm * n_subs + i) current delay in the reorg loop: the accumulated
 * law's continued shift, or under "pv" the law on the stress and recovery totals. */
static double aged_sub_bank(const dse_aging *e, size_t k, double leff)
{
    if (pv_law(e))
        return var_register_delay_aged(&e->s->var, e->sub0[k], leff, e->stress[k], e->rec[k]);
    return var_register_delay_shifted(&e->s->var, e->sub0[k], leff, e->shift[k]);
}

/* One interval of dt seconds at the current duties: the continued shifts, or ("pv") the
 * totals since time zero. */
static void advance(dse_aging *e, double dt)
{
    const var_aging *a = &e->s->var.aging;
    for (size_t i = 0; i < per_chip(e); i++) {
        double d = e->loop_duty[i];
        if (pv_law(e)) {
            e->stress[i] += d * dt;
            e->rec[i] += (1.0 - d) * dt;
        } else
            e->shift[i] = var_nbti_continue(a, e->shift[i], d, dt);
    }
}

/* Re-pairs every SM's sub-banks by their current delays; frequency out. */
static int reorganise(dse_aging *e, const dse_technique *t, double *mean, double *min,
                      double *sm0_delay, char *err, size_t n)
{
    double sum = 0, lo = INFINITY;
    for (int sm = 0; sm < e->n_sms; sm++) {
        size_t off = (size_t)sm * (size_t)e->n_subs;
        const double *leff = var_chip_sub_bank_leff(e->chip, sm);
        for (int i = 0; i < e->n_subs; i++)
            e->aged[i] = aged_sub_bank(e, off + (size_t)i, leff[i]);
        if (sm == 0 && sm0_delay)
            memcpy(sm0_delay, e->aged, sizeof(double) * (size_t)e->n_subs);
        var_rf_map vm;
        double f;
        int rc = var_technique_apply_sub_banks(e->chip, &e->s->var, &t->freq, sm, e->aged, &vm, &f);
        if (rc) {
            snprintf(err, n, "technique %s on SM %d: %s", t->name, sm, var_strerror(rc));
            return -1;
        }
        dse_rf_map_from_var(&vm, &e->maps[sm]);
        sum += f;
        lo = fmin(lo, f);
    }
    *mean = sum / e->n_sms;
    *min = lo;
    return 0;
}

/* SM 0's classes by physical sub-bank from its current map. */
static void trace_classes(const dse_aging *e, uint8_t *row)
{
    const sm_rf_map *m = &e->maps[0];
    memset(row, 0, (size_t)e->n_subs);
    for (int b = 0; b < m->n_banks; b++)
        for (int p = 0; p < m->subs_per_bank; p++)
            row[m->sub_id[b][p]] = m->sub_slow[b][p];
}

static double *trace_util_row(const dse_aging *e, dse_aging_out *u, int w, int y)
{
    return u->trace_util + ((size_t)w * (size_t)e->s->var.aging.n_years + (size_t)y) * (size_t)e->n_subs;
}

/* The next interval's duties on the current maps: workload w, or the mix (w < 0). */
static int measure_duty(dse_aging *e, const dse_technique *t, int w, char *err, size_t n)
{
    double total = 0;
    memset(e->loop_duty, 0, sizeof(double) * per_chip(e));
    for (int k = 0; k < e->n_w; k++)
        total += (w < 0 || k == w) ? e->s->workloads[k].weight : 0.0;
    for (int k = 0; k < e->n_w; k++) {
        double wt = w < 0 ? e->s->workloads[k].weight : (k == w);
        if ((w >= 0 && k != w) || wt <= 0 || total <= 0)
            continue;
        if (e->in->run(e->in->run_arg, k, &t->ipc, w < 0 ? wt / total : 1.0, e->loop_duty, err,
                       n))
            return -1;
    }
    return 0;
}

/* The nbti_reorg loop over the schedule for workload w or the mix (w < 0): frequency
 * per year into freq/fmin (may be NULL), the end-of-life frequency into *f_end. */
static int reorg_loop(dse_aging *e, int ti, int w, double *freq, double *fmin, double *f_end,
                      dse_aging_out *trace, char *err, size_t n)
{
    const dse_technique *t = &e->s->techniques[ti];
    int years = e->s->var.aging.n_years;
    size_t cells = per_chip(e);
    memset(e->stress, 0, sizeof(double) * cells);
    memset(e->rec, 0, sizeof(double) * cells);
    memset(e->shift, 0, sizeof(double) * cells);
    duty_from(e, e->duty, w, e->loop_duty);
    for (int y = 0; y < years; y++) {
        if (y > 0)
            advance(e, seconds_at(e, y) - seconds_at(e, y - 1));
        double mean, min;
        size_t row = (size_t)y * (size_t)e->n_subs;
        bool mix_trace = trace && w < 0, w_trace = trace && w >= 0;
        if (reorganise(e, t, &mean, &min, mix_trace ? trace->trace_delay + row : NULL, err, n))
            return -1;
        if (mix_trace)
            trace_classes(e, trace->trace_slow + row);
        if (freq)
            freq[y] = mean, fmin[y] = min;
        *f_end = mean;
        if ((y + 1 < years || w_trace) && measure_duty(e, t, w, err, n))
            return -1;
        if (w_trace) /* SM 0's duty over the interval that starts now */
            memcpy(trace_util_row(e, trace, w, y), e->loop_duty, sizeof(double) * (size_t)e->n_subs);
    }
    return 0;
}

/* A fixed map: SM 0's classes never change, its duties are the time-zero ones, and its
 * sub-bank delays age under the mix's constant duties. */
static void trace_fixed(dse_aging *e, dse_aging_out *u)
{
    int years = e->s->var.aging.n_years;
    const double *leff = var_chip_sub_bank_leff(e->chip, 0);
    for (int y = 0; y < years; y++) {
        size_t row = (size_t)y * (size_t)e->n_subs;
        double t = seconds_at(e, y);
        for (int i = 0; i < e->n_subs; i++) {
            double d = e->loop_duty[i]; /* SM 0 */
            u->trace_delay[row + (size_t)i] = var_register_delay_aged(
                &e->s->var, e->sub0[i], leff[i], d * t, (1.0 - d) * t);
        }
        trace_classes(e, u->trace_slow + row);
        for (int w = 0; w < e->n_w; w++)
            memcpy(trace_util_row(e, u, w, y), e->duty + (size_t)w * per_chip(e),
                   sizeof(double) * (size_t)e->n_subs);
    }
}

static void fixed_loop(dse_aging *e, dse_aging_out *u)
{
    u->frequency[0] = e->in->frequency0;
    u->frequency_min[0] = e->in->frequency_min0;
    duty_from(e, e->duty, -1, e->loop_duty);
    for (int y = 1; y < e->s->var.aging.n_years; y++)
        fixed_set_freq(e, e->counted0, e->loop_duty, seconds_at(e, y), &u->frequency[y],
                       &u->frequency_min[y]);
    if (u->trace >= 0)
        trace_fixed(e, u);
}

static void no_variation(const dse_aging *e, dse_aging_out *u)
{
    int years = e->s->var.aging.n_years;
    for (int y = 0; y < years; y++)
        u->frequency[y] = u->frequency_min[y] = 1.0; /* ideal: no PV, no NBTI */
    for (int y = 0; y < years && u->trace >= 0; y++) {
        size_t row = (size_t)y * (size_t)e->n_subs;
        for (int i = 0; i < e->n_subs; i++)
            u->trace_delay[row + (size_t)i] = 1.0;
        memset(u->trace_slow + row, 0, (size_t)e->n_subs);
        for (int w = 0; w < e->n_w; w++)
            memcpy(trace_util_row(e, u, w, y), e->duty + (size_t)w * per_chip(e),
                   sizeof(double) * (size_t)e->n_subs);
    }
    for (int w = 0; w < e->n_w; w++) {
        u->guardband_raw[w] = years > 1 ? 0.0 : NAN;
        u->guardband[w] = u->guardband_raw[w];
    }
}

/* Frequency (mean and min over SMs) and main-RF latency (mean) of a cache-clocked
 * technique after t seconds under workload w's duties (w < 0: the mix); per-SM
 * latencies into lat (may be NULL). */
static void rfc_at(dse_aging *e, int w, double t, double *mean, double *min, double *lat_mean,
                   int *lat)
{
    const dse_rfc_in *rfc = e->in->rfc;
    size_t per_w = (size_t)e->n_sms * (size_t)rfc->banks;
    mix_of(e, rfc->duty, per_w, w, e->rfc_mix);
    duty_from(e, e->duty, w, e->loop_duty);
    double sum = 0, lo = INFINITY, lsum = 0;
    for (int sm = 0; sm < e->n_sms; sm++) {
        int L;
        double f = dse_rfc_clock(&e->s->var, e->chip, sm, rfc,
                                 e->rfc_mix + (size_t)sm * (size_t)rfc->banks,
                                 e->loop_duty + (size_t)sm * (size_t)e->n_subs, t, &L);
        sum += f;
        lo = fmin(lo, f);
        lsum += L;
        if (lat)
            lat[sm] = L;
    }
    *mean = sum / e->n_sms;
    if (min)
        *min = lo;
    if (lat_mean)
        *lat_mean = lsum / e->n_sms;
}

/* A register-file cache sets the clock: per year the frequency and main-RF latency
 * under the mix, the latencies at the end of the schedule, and each workload's
 * guardband from its own duties. */
static void rfc_loop(dse_aging *e, dse_aging_out *u, const double *base_raw)
{
    int last = e->s->var.aging.n_years - 1;
    for (int y = 0; y <= last; y++)
        rfc_at(e, -1, seconds_at(e, y), &u->frequency[y], &u->frequency_min[y],
               &u->main_latency[y], y == last ? e->in->rfc->latency_end : NULL);
    for (int w = 0; w < e->n_w; w++) {
        double f_end;
        rfc_at(e, w, seconds_at(e, last), &f_end, NULL, NULL, NULL);
        u->guardband_raw[w] = last > 0 ? 1.0 - f_end / u->frequency[0] : NAN;
        u->guardband[w] = base_raw[w] > 0 ? u->guardband_raw[w] / base_raw[w] : NAN;
    }
    if (u->trace >= 0) { /* the main RF's sub-banks of SM 0 */
        duty_from(e, e->duty, -1, e->loop_duty);
        trace_fixed(e, u);
    }
}

int dse_aging_run(dse_aging *e, const dse_aging_in *in, dse_aging_out *u, char *err, size_t n)
{
    int ti = in->technique;
    const double *base_raw = in->base_raw;
    e->in = in;
    e->maps = in->maps;
    e->duty = in->duty;
    e->counted0 = in->counted0;
    load_chip(e, in->chip);
    const dse_technique *t = &e->s->techniques[ti];
    int last = e->s->var.aging.n_years - 1;
    if (!t->freq.variation) {
        no_variation(e, u);
        return 0;
    }
    if (in->rfc) {
        rfc_loop(e, u, base_raw);
        return 0;
    }
    double f_end;
    dse_aging_out *trace = u->trace >= 0 ? u : NULL;
    if (t->freq.nbti_reorg) {
        if (reorg_loop(e, ti, -1, u->frequency, u->frequency_min, &f_end, trace, err, n))
            return -1;
    } else
        fixed_loop(e, u);
    for (int w = 0; w < e->n_w; w++) {
        if (last == 0 && !(trace && t->freq.nbti_reorg)) {
            u->guardband_raw[w] = u->guardband[w] = NAN;
            continue;
        }
        if (t->freq.nbti_reorg) {
            if (reorg_loop(e, ti, w, NULL, NULL, &f_end, trace, err, n))
                return -1;
        } else {
            duty_from(e, e->duty, w, e->loop_duty);
            fixed_set_freq(e, e->counted0, e->loop_duty, seconds_at(e, last), &f_end, NULL);
        }
        u->guardband_raw[w] = last > 0 ? 1.0 - f_end / u->frequency[0] : NAN;
        u->guardband[w] = base_raw[w] > 0 ? u->guardband_raw[w] / base_raw[w] : NAN;
    }
    return 0;
}
