/* nbti_reorg (nbti_opt): sub-banks are re-sorted and re-paired by their current delay at
 * every time point of the schedule; the next interval's duties are measured on the new
 * map by SM runs (where nbti_opt's block-level renaming, in the model, moves the use)
 * through the runner in dse_aging_in (model.md section 7, docs/nbti.md).
 *
 * Under the source's law (aging.initial_shift = "accumulated") a sub-bank's shift is
 * continued interval by interval with that interval's duty (var_nbti_continue); under
 * "pv" (the paper's wording) the law is evaluated on stress and recovery totals since
 * time zero. */
#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aging_internal.h"
#include "dse_rf_map.h"
#include "var_nbti.h"

/* The sub-bank part of an SM's map (what the loop re-pairs). */
typedef struct sub_part {
    int16_t id[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK];
    uint8_t slow[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK];
} sub_part;

typedef struct reorg {
    double *stress, *rec;  /* [n_sms][n_subs]: seconds, for the loops ("pv" law)   */
    double *shift;         /* [n_sms][n_subs]: continued NBTI shift, V (default law) */
    double *aged;          /* [n_subs]                                             */
    sub_part *t0;          /* [n_sms]: time zero's maps (year 0 of every loop)     */
    double freq[VAR_MAX_YEARS], freq_min[VAR_MAX_YEARS]; /* a workload's schedule   */
} reorg;

static bool selects(const dse_sweep *s, const dse_technique *t)
{
    (void)s;
    return t->freq.nbti_reorg;
}

static void free_state(void *state)
{
    reorg *r = state;
    if (!r)
        return;
    free(r->stress);
    free(r->rec);
    free(r->shift);
    free(r->aged);
    free(r->t0);
    free(r);
}

static void *alloc(const dse_sweep *s)
{
    reorg *r = calloc(1, sizeof *r);
    size_t subs = (size_t)s->var.floorplan.n_banks * (size_t)s->var.floorplan.sub_banks;
    size_t cells = (size_t)s->var.floorplan.n_sms * subs;
    if (!r)
        return NULL;
    r->stress = malloc(sizeof(double) * cells);
    r->rec = malloc(sizeof(double) * cells);
    r->shift = malloc(sizeof(double) * cells);
    r->aged = malloc(sizeof(double) * subs);
    r->t0 = malloc(sizeof *r->t0 * (size_t)s->var.floorplan.n_sms);
    if (!r->stress || !r->rec || !r->shift || !r->aged || !r->t0) {
        free_state(r);
        return NULL;
    }
    return r;
}

static int time_zero(dse_aging *a, void *state, const dse_technique *t, dse__t0 *out,
                     char *err, size_t n)
{
    reorg *r = state;
    if (dse__aging_classify(a, t, out, err, n))
        return -1;
    for (int sm = 0; sm < a->n_sms; sm++) {
        const sm_rf_map *m = &out->maps[sm];
        memcpy(r->t0[sm].id, m->sub_id, sizeof m->sub_id[0] * (size_t)m->n_banks);
        memcpy(r->t0[sm].slow, m->sub_slow, sizeof m->sub_slow[0] * (size_t)m->n_banks);
    }
    return 0;
}

static bool pv_law(const dse_aging *a) { return a->s->var.aging.initial_shift == VAR_SHIFT_PV; }

/* Sub-bank k's (= sm * n_subs + i) current delay: the accumulated law's continued
 * shift, or under "pv" the law on the stress and recovery totals. */
static double aged_sub_bank(const dse_aging *a, const reorg *r, size_t k)
{
    if (pv_law(a))
        return var_reg_age_delay(&a->s->var, &a->sub0_age[k], r->stress[k], r->rec[k]);
    return var_reg_age_shifted(&a->s->var, &a->sub0_age[k], r->shift[k]);
}

/* One interval of dt seconds at the current duties: the continued shifts, or ("pv") the
 * totals since time zero. */
static void advance(dse_aging *a, reorg *r, double dt)
{
    const var_aging *ag = &a->s->var.aging;
    for (size_t i = 0; i < dse__aging_per_chip(a); i++) {
        double d = a->loop_duty[i];
        if (pv_law(a)) {
            r->stress[i] += d * dt;
            r->rec[i] += (1.0 - d) * dt;
        } else
            r->shift[i] = var_nbti_continue_kv(ag, a->kv, r->shift[i], d, dt);
    }
}

#ifndef NDEBUG
/* A sub-bank technique's map has no slow register vector (var_technique_apply). */
static bool no_slow_vectors(const sm_rf_map *m)
{
    for (int b = 0; b < m->n_banks; b++)
        for (int e = 0; e < m->n_entries; e++)
            if (m->entry_slow[b][e])
                return false;
    return true;
}
#endif

/* Re-pairs every SM's sub-banks by their current delays; frequency out, SM 0's delays
 * into sm0_delay[n_subs] when traced (else NULL). */
static int reorganise(dse_aging *a, reorg *r, const dse_technique *t, double *mean,
                      double *min, double *sm0_delay, char *err, size_t n)
{
    double sum = 0, lo = INFINITY;
    for (int sm = 0; sm < a->n_sms; sm++) {
        size_t off = (size_t)sm * (size_t)a->n_subs;
        for (int i = 0; i < a->n_subs; i++)
            r->aged[i] = aged_sub_bank(a, r, off + (size_t)i);
        if (sm == 0 && sm0_delay)
            memcpy(sm0_delay, r->aged, sizeof(double) * (size_t)a->n_subs);
        /* the map of time zero (sizes, no slow register vector): its sub-bank part only */
        sm_rf_map *m = &a->in->maps[sm];
        assert(no_slow_vectors(m));
        double f;
        int rc = var_technique_sort_sub_banks(a->chip, &t->freq, sm, r->aged, m->sub_id,
                                              m->sub_slow, &f);
        if (rc) {
            snprintf(err, n, "technique %s on SM %d: %s", t->name, sm, var_strerror(rc));
            return -1;
        }
        sum += f;
        lo = fmin(lo, f);
    }
    *mean = sum / a->n_sms;
    *min = lo;
    return 0;
}

/* The next interval's duties on the current maps under stress st. */
static int measure_duty(dse_aging *a, dse__stress st, char *err, size_t n)
{
    const sm_profile *wl = a->s->workloads;
    double total = 0;
    memset(a->loop_duty, 0, sizeof(double) * dse__aging_per_chip(a));
    for (int k = 0; k < a->n_w; k++)
        total += (st.mix || k == st.workload) ? wl[k].weight : 0.0;
    for (int k = 0; k < a->n_w; k++) {
        double wt = st.mix ? wl[k].weight : (k == st.workload);
        if ((!st.mix && k != st.workload) || wt <= 0 || total <= 0)
            continue;
        if (a->in->run(a->in->run_arg, k, st.mix ? wt / total : 1.0, a->loop_duty, err, n))
            return -1;
    }
    return 0;
}

/* Year 0 of a loop is time zero: no stress yet, so every sub-bank's delay is its
 * time-zero one (aged_sub_bank returns delay0 exactly), re-pairing by those delays is
 * time zero's by_sub_bank on the same values (the same maps and frequencies, summed in
 * the same order), and the runs on those maps with the same IPC side are time zero's,
 * whose duties the caller hands in (a->in->duty).  So the year is taken from time zero
 * instead of being sorted and run again: its maps restored, its frequency, SM 0's
 * delays when traced (sm0_delay, else NULL) and, when `measure`, the duties as
 * measure_duty sums them (the mix by weight; a workload alone, or nothing when its
 * weight is 0). */
static void year_zero(dse_aging *a, const reorg *r, dse__stress st, bool measure,
                      double *freq, double *fmin, double *sm0_delay)
{
    for (int sm = 0; sm < a->n_sms; sm++) {
        sm_rf_map *m = &a->in->maps[sm];
        memcpy(m->sub_id, r->t0[sm].id, sizeof m->sub_id[0] * (size_t)m->n_banks);
        memcpy(m->sub_slow, r->t0[sm].slow, sizeof m->sub_slow[0] * (size_t)m->n_banks);
    }
    *freq = a->in->frequency0;
    *fmin = a->in->frequency_min0;
    if (sm0_delay)
        memcpy(sm0_delay, a->sub0, sizeof(double) * (size_t)a->n_subs);
    if (!measure)
        return; /* the loop ends here: its duty is never used */
    if (st.mix || a->s->workloads[st.workload].weight > 0)
        dse__aging_load_duty(a, st);
    else
        memset(a->loop_duty, 0, sizeof(double) * dse__aging_per_chip(a));
}

/* The loop over the schedule under stress st: frequency per year into freq/fmin[years];
 * SM 0 traced into u when u->trace >= 0 (the mix: delays and classes; a workload: its
 * duties). */
static int reorg_loop(dse_aging *a, reorg *r, const dse_technique *t, dse__stress st,
                      double *freq, double *fmin, dse_aging_out *u, char *err, size_t n)
{
    int years = a->s->var.aging.n_years;
    size_t cells = dse__aging_per_chip(a);
    bool mix_trace = u->trace >= 0 && st.mix, w_trace = u->trace >= 0 && !st.mix;
    memset(r->stress, 0, sizeof(double) * cells);
    memset(r->rec, 0, sizeof(double) * cells);
    memset(r->shift, 0, sizeof(double) * cells);
    dse__aging_load_duty(a, st);
    for (int y = 0; y < years; y++) {
        if (y > 0)
            advance(a, r, dse__aging_seconds(a, y) - dse__aging_seconds(a, y - 1));
        size_t row = (size_t)y * (size_t)a->n_subs;
        bool measure = y + 1 < years || w_trace;
        if (y == 0)
            year_zero(a, r, st, measure, &freq[y], &fmin[y],
                      mix_trace ? u->trace_delay + row : NULL);
        else if (reorganise(a, r, t, &freq[y], &fmin[y],
                            mix_trace ? u->trace_delay + row : NULL, err, n))
            return -1;
        if (mix_trace)
            dse__aging_trace_classes(a, u->trace_slow + row);
        if (y > 0 && measure && measure_duty(a, st, err, n))
            return -1;
        if (w_trace) /* SM 0's duty over the interval that starts now */
            memcpy(dse__aging_trace_util_row(a, u, st.workload, y), a->loop_duty,
                   sizeof(double) * (size_t)a->n_subs);
    }
    return 0;
}

static int age(dse_aging *a, void *state, const dse_technique *t, dse_aging_out *u, char *err,
               size_t n)
{
    reorg *r = state;
    int last = a->s->var.aging.n_years - 1;
    if (reorg_loop(a, r, t, (dse__stress){ .mix = true }, u->frequency, u->frequency_min, u,
                   err, n))
        return -1;
    for (int w = 0; w < a->n_w; w++) {
        /* without aging a workload's schedule is run only for its trace */
        if ((last > 0 || u->trace >= 0) &&
            reorg_loop(a, r, t, (dse__stress){ .workload = w }, r->freq, r->freq_min, u, err, n))
            return -1;
        dse__aging_guardband(a, u, w, r->freq[last]); /* NaN without aging */
    }
    return 0;
}

/* Per SM: the mix one interval at a time, each workload alone (its guardband; with its
 * trace, one more run at the last year); the first interval's are time zero's runs
 * (year_zero). */
static long runs(const dse_sweep *s, bool traced)
{
    int years = s->var.aging.n_years, weighted = 0;
    for (int w = 0; w < s->n_workloads; w++)
        weighted += s->workloads[w].weight > 0;
    int later = years > 2 ? years - 2 : 0; /* intervals that start after year 0 */
    long r = (long)later * weighted;
    if (years > 1 || traced)
        r += (long)(traced ? years - 1 : later) * weighted;
    return r;
}

const dse__clock dse__clock_nbti_reorg = { .name = "nbti_reorg", .selects = selects,
                                           .alloc = alloc, .free = free_state,
                                           .time_zero = time_zero, .age = age, .runs = runs };
