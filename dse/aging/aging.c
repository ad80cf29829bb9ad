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
 * through the runner the caller hands in; nothing here calls the chip evaluation.
 *
 * This file is the driver and what the clocks share (aging_internal.h); each clock is
 * its own file: clock_ideal.c, clock_fixed.c, clock_reorg.c, clock_cache.c. */
#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aging_internal.h"
#include "dse_rf_map.h"

#define CLOCK_ENTRY(name) &dse__clock_##name,
static const dse__clock *const clocks[] = { DSE__CLOCKS_ALL(CLOCK_ENTRY) };
#undef CLOCK_ENTRY
#define N_CLOCKS (sizeof clocks / sizeof clocks[0])

static size_t clock_of(const dse_sweep *s, const dse_technique *t)
{
    for (size_t i = 0; i + 1 < N_CLOCKS; i++)
        if (clocks[i]->selects(s, t))
            return i;
    return N_CLOCKS - 1; /* the last takes every technique the others leave */
}

const char *dse_aging_clock_name(const dse_sweep *s, const dse_technique *t)
{
    return clocks[clock_of(s, t)]->name;
}

void dse_aging_free(dse_aging *a)
{
    if (!a)
        return;
    for (size_t i = 0; a->state && i < N_CLOCKS; i++)
        if (clocks[i]->free)
            clocks[i]->free(a->state[i]);
    free(a->state);
    free(a->sub0);
    free(a->sub0_age);
    free(a->loop_duty);
    free(a);
}

dse_aging *dse_aging_alloc(const dse_sweep *s)
{
    dse_aging *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->s = s;
    a->n_sms = s->var.floorplan.n_sms;
    a->n_subs = s->var.floorplan.n_banks * s->var.floorplan.sub_banks;
    a->n_w = s->n_workloads;
    a->technique = -1;
    a->kv = var_nbti_kv(&s->var.aging);
    a->sub0 = malloc(sizeof(double) * dse__aging_per_chip(a));
    a->sub0_age = malloc(sizeof *a->sub0_age * dse__aging_per_chip(a));
    a->loop_duty = malloc(sizeof(double) * dse__aging_per_chip(a));
    a->state = calloc(N_CLOCKS, sizeof *a->state);
    bool ok = a->sub0 && a->sub0_age && a->loop_duty && a->state;
    for (size_t i = 0; ok && i < N_CLOCKS; i++)
        if (clocks[i]->alloc)
            ok = (a->state[i] = clocks[i]->alloc(s)) != NULL;
    if (!ok) {
        dse_aging_free(a);
        return NULL;
    }
    return a;
}

void dse_aging_set_tables(dse_aging *a, const var_table_cache *tc) { a->tables = tc; }

void dse_aging_set_chip(dse_aging *a, const var_chip *chip)
{
    a->chip = chip;
    a->chip_serial++;
    a->technique = -1;
    for (int sm = 0; sm < a->n_sms; sm++)
        memcpy(a->sub0 + (size_t)sm * (size_t)a->n_subs, var_chip_sub_bank_delays(chip, sm),
               sizeof(double) * (size_t)a->n_subs);
    dse__aging_prep(a, a->sub0, a->sub0_age);
}

/* A delay equal to its sub-bank's own slowest (the baseline's, vl_sb's fast sub-banks)
 * takes the chip's prepared state, since var_reg_age_prep depends only on the delay and
 * the sub-bank's Leff; the chip's own (counted == a->sub0_age) are computed. */
void dse__aging_prep(const dse_aging *a, const double *d0, var_reg_age *counted)
{
    bool reuse = counted != a->sub0_age;
    for (int sm = 0; sm < a->n_sms; sm++) {
        const double *leff = var_chip_sub_bank_leff(a->chip, sm);
        for (int i = 0; i < a->n_subs; i++) {
            size_t k = (size_t)sm * (size_t)a->n_subs + (size_t)i;
            if (reuse && d0[k] > 0 && d0[k] == a->sub0[k])
                counted[k] = a->sub0_age[k];
            else
                var_reg_age_prep(&a->s->var, d0[k], leff[i], &counted[k]);
        }
    }
}

double dse__aging_seconds(const dse_aging *a, int y) { return a->s->var.aging.years[y] * VAR_YEAR_S; }

size_t dse__aging_per_chip(const dse_aging *a) { return (size_t)a->n_sms * (size_t)a->n_subs; }

void dse__aging_mix(const dse_aging *a, const double *all, size_t n, dse__stress st,
                    double *out)
{
    if (!st.mix) {
        memcpy(out, all + (size_t)st.workload * n, sizeof(double) * n);
        return;
    }
    double total = 0;
    for (int k = 0; k < a->n_w; k++)
        total += a->s->workloads[k].weight;
    memset(out, 0, sizeof(double) * n);
    for (int k = 0; k < a->n_w && total > 0; k++)
        for (size_t i = 0; i < n; i++)
            out[i] += a->s->workloads[k].weight / total * all[(size_t)k * n + i];
}

void dse__aging_load_duty(dse_aging *a, dse__stress st)
{
    dse__aging_mix(a, a->in->duty, dse__aging_per_chip(a), st, a->loop_duty);
}

void dse__aging_fixed_freq(const dse_aging *a, const var_reg_age *counted, const double *duty,
                           double t, double *mean, double *min)
{
    double sum = 0, lo = INFINITY;
    for (int sm = 0; sm < a->n_sms; sm++) {
        double worst = 0;
        for (int i = 0; i < a->n_subs; i++) {
            size_t k = (size_t)sm * (size_t)a->n_subs + (size_t)i;
            if (counted[k].delay0 <= 0)
                continue;
            double d = var_reg_age_delay(&a->s->var, &counted[k], duty[k] * t,
                                         (1.0 - duty[k]) * t);
            worst = fmax(worst, d);
        }
        sum += 1.0 / worst;
        lo = fmin(lo, 1.0 / worst);
    }
    *mean = sum / a->n_sms;
    if (min)
        *min = lo;
}

int dse__aging_classify(dse_aging *a, const dse_technique *t, dse__t0 *out, char *err,
                        size_t n)
{
    double sum = 0, min = INFINITY;
    for (int sm = 0; sm < a->n_sms; sm++) {
        var_rf_map vm;
        int rc = var_technique_apply(a->chip, &a->s->var, &t->freq, sm, &vm, &out->sm_freq[sm]);
        if (rc) {
            snprintf(err, n, "technique %s on SM %d: %s", t->name, sm, var_strerror(rc));
            return -1;
        }
        dse_rf_map_from_var(&vm, &out->maps[sm]);
        out->ipc[sm] = t->ipc;
        sum += out->sm_freq[sm];
        min = fmin(min, out->sm_freq[sm]);
    }
    out->freq = sum / a->n_sms;
    out->freq_min = min;
    return 0;
}

void dse__aging_guardband(const dse_aging *a, dse_aging_out *u, int w, double f_end)
{
    const double *base_raw = a->in->base_raw;
    u->guardband_raw[w] = a->s->var.aging.n_years > 1 ? 1.0 - f_end / u->frequency[0] : NAN;
    u->guardband[w] = base_raw[w] > 0 ? u->guardband_raw[w] / base_raw[w] : NAN;
}

void dse_aging_baseline_guardband(dse_aging *a, const double *ideal_duty, double *raw,
                                  double *raw_mix)
{
    int last = a->s->var.aging.n_years - 1;
    double f0, f1;
    dse__aging_fixed_freq(a, a->sub0_age, ideal_duty, 0.0, &f0, NULL);
    for (int w = 0; w < a->n_w; w++) {
        dse__aging_mix(a, ideal_duty, dse__aging_per_chip(a), (dse__stress){ .workload = w },
                       a->loop_duty);
        dse__aging_fixed_freq(a, a->sub0_age, a->loop_duty, dse__aging_seconds(a, last), &f1,
                              NULL);
        raw[w] = last > 0 ? 1.0 - f1 / f0 : NAN;
    }
    dse__aging_mix(a, ideal_duty, dse__aging_per_chip(a), (dse__stress){ .mix = true },
                   a->loop_duty);
    for (int y = 0; y <= last; y++) {
        dse__aging_fixed_freq(a, a->sub0_age, a->loop_duty, dse__aging_seconds(a, y), &f1, NULL);
        raw_mix[y] = 1.0 - f1 / f0;
    }
}

void dse__aging_trace_classes(const dse_aging *a, uint8_t *row)
{
    const sm_rf_map *m = &a->in->maps[0];
    memset(row, 0, (size_t)a->n_subs);
    for (int b = 0; b < m->n_banks; b++)
        for (int p = 0; p < m->subs_per_bank; p++)
            row[m->sub_id[b][p]] = m->sub_slow[b][p];
}

double *dse__aging_trace_util_row(const dse_aging *a, dse_aging_out *u, int w, int y)
{
    return u->trace_util + ((size_t)w * (size_t)a->s->var.aging.n_years + (size_t)y) * (size_t)a->n_subs;
}

void dse__aging_trace_fixed(dse_aging *a, dse_aging_out *u)
{
    int years = a->s->var.aging.n_years;
    for (int y = 0; y < years; y++) {
        size_t row = (size_t)y * (size_t)a->n_subs;
        double t = dse__aging_seconds(a, y);
        for (int i = 0; i < a->n_subs; i++) {
            double d = a->loop_duty[i]; /* SM 0 */
            u->trace_delay[row + (size_t)i] =
                var_reg_age_delay(&a->s->var, &a->sub0_age[i], d * t, (1.0 - d) * t);
        }
        dse__aging_trace_classes(a, u->trace_slow + row);
        for (int w = 0; w < a->n_w; w++)
            memcpy(dse__aging_trace_util_row(a, u, w, y),
                   a->in->duty + (size_t)w * dse__aging_per_chip(a),
                   sizeof(double) * (size_t)a->n_subs);
    }
}

int dse_aging_time_zero(dse_aging *a, int technique, sm_rf_map *maps, double *sm_freq,
                        sm_technique *ipc, double *freq, double *freq_min, char *err, size_t n)
{
    const dse_technique *t = &a->s->techniques[technique];
    size_t c = clock_of(a->s, t);
    dse__t0 out = { .maps = maps, .sm_freq = sm_freq, .ipc = ipc };
    a->technique = -1;
    if (clocks[c]->time_zero(a, a->state[c], t, &out, err, n))
        return -1;
    a->technique = technique;
    *freq = out.freq;
    *freq_min = out.freq_min;
    return 0;
}

int dse_aging_run(dse_aging *a, const dse_aging_in *in, dse_aging_out *u, char *err, size_t n)
{
    assert(a->technique >= 0); /* after a time zero on this chip */
    const dse_technique *t = &a->s->techniques[a->technique];
    size_t c = clock_of(a->s, t);
    a->in = in;
    for (int y = 0; y < a->s->var.aging.n_years; y++) /* a cache's clock moves it */
        u->main_latency[y] = t->ipc.main_rf_latency;
    return clocks[c]->age(a, a->state[c], t, u, err, n);
}

bool dse_aging_end_state(const dse_aging *a, sm_technique *ipc)
{
    assert(a->technique >= 0);
    size_t c = clock_of(a->s, &a->s->techniques[a->technique]);
    return clocks[c]->end_state && clocks[c]->end_state(a, a->state[c], ipc);
}

int dse_aging_sm_of_chip(const dse_sweep *s, const dse_technique *t, int chip, int sm,
                         sm_rf_map *map, double *freq, sm_technique *ipc, char *err, size_t n)
{
    size_t sms = (size_t)s->var.floorplan.n_sms, c = clock_of(s, t);
    int rc = 0;
    var_chip *vc = var_chip_alloc_err(&s->var, &rc);
    dse_aging *a = dse_aging_alloc(s);
    dse__t0 out = { .maps = malloc(sizeof *out.maps * sms),
                    .sm_freq = malloc(sizeof *out.sm_freq * sms),
                    .ipc = malloc(sizeof *out.ipc * sms) };
    if (!vc || !a || !out.maps || !out.sm_freq || !out.ipc)
        rc = rc ? rc : VAR_ENOMEM;
    else
        rc = var_chip_generate(vc, &s->var, s->chips.seed, chip);
    if (rc)
        snprintf(err, n, "chip %d, SM %d: %s", chip, sm, var_strerror(rc));
    else {
        dse_aging_set_chip(a, vc);
        rc = clocks[c]->time_zero(a, a->state[c], t, &out, err, n);
    }
    if (!rc) {
        *map = out.maps[sm];
        *freq = out.sm_freq[sm];
        *ipc = out.ipc[sm];
    }
    free(out.maps);
    free(out.sm_freq);
    free(out.ipc);
    dse_aging_free(a);
    var_chip_free(vc);
    return rc ? -1 : 0;
}

long dse_aging_unit_runs(const dse_sweep *s, const dse_technique *t, bool traced)
{
    const dse__clock *c = clocks[clock_of(s, t)];
    return (s->n_workloads + (c->runs ? c->runs(s, traced) : 0)) * s->var.floorplan.n_sms;
}
