/* The fixed map: the storage map built at time zero (classes, bank organisation table)
 * is kept all the chip's life, so duties are constant and the stress at any time is
 * duty x t; the frequency is that of the time-zero fast set under current delays
 * (model.md section 7, docs/nbti.md).  Every technique without nbti_reorg or a cache. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "aging_internal.h"

typedef struct fixed {
    double *counted0;      /* [n_sms][n_subs]: slowest counted delay, t = 0 (0: none) */
    var_reg_age *counted;  /* [n_sms][n_subs]: the same prepared for aging            */
} fixed;

static bool selects(const dse_sweep *s, const dse_technique *t)
{
    (void)s, (void)t;
    return true; /* the last of the list: every technique the others leave */
}

static void *alloc(const dse_sweep *s)
{
    fixed *f = calloc(1, sizeof *f);
    size_t n = (size_t)s->var.floorplan.n_sms * (size_t)s->var.floorplan.n_banks *
               (size_t)s->var.floorplan.sub_banks;
    if (f && (!(f->counted0 = malloc(sizeof(double) * n)) ||
              !(f->counted = malloc(sizeof *f->counted * n)))) {
        free(f->counted0);
        free(f);
        return NULL;
    }
    return f;
}

static void free_state(void *state)
{
    fixed *f = state;
    if (f) {
        free(f->counted0);
        free(f->counted);
    }
    free(f);
}

#define CHUNK 16 /* a sub-bank's lanes whose running maxima are kept side by side */

/* The largest of lanes [0, w) (w <= CHUNK) of rows rows[0..n_rows) of a register array
 * row_len wide that is at most thr (0 if none): lane by lane, so the compiler can
 * vectorise; a maximum does not depend on the order. */
static double lanes_max(const double *reg, size_t row_len, const int *rows, int n_rows, int w,
                        double thr)
{
    double acc[CHUNK] = { 0 };
    for (int i = 0; i < n_rows; i++) {
        const double *r = reg + (size_t)rows[i] * row_len;
        if (w == CHUNK) /* a constant width keeps acc in registers */
            for (int l = 0; l < CHUNK; l++)
                acc[l] = r[l] <= thr && r[l] > acc[l] ? r[l] : acc[l];
        else
            for (int l = 0; l < w; l++)
                acc[l] = r[l] <= thr && r[l] > acc[l] ? r[l] : acc[l];
    }
    double worst = 0;
    for (int l = 0; l < w; l++)
        worst = acc[l] > worst ? acc[l] : worst;
    return worst;
}

/* Per sub-bank, the slowest time-zero register delay among the storage technique t
 * counts for frequency (0 where it counts none).  Aging keeps the order of a sub-bank's
 * registers (variation/age.c), so aging these maxima ages the technique's fast set.
 * vl_rf counts the registers within its threshold, vl_rv every register of a fast
 * vector. */
static void counted_registers(const dse_aging *a, const dse_technique *t, const dse__t0 *t0,
                              int sm, double *out)
{
    const var_floorplan *f = &a->s->var.floorplan;
    const double *reg = var_chip_register_delays(a->chip, sm);
    const sm_rf_map *m = &t0->maps[sm];
    int lanes = f->bits_per_entry / 32, per_sub = lanes / f->sub_banks;
    bool by_register = t->freq.granularity == VAR_GRAN_REGISTER;
    double thr = by_register ? 1.0 / t0->sm_freq[sm] : INFINITY;
    int rows[SM_MAX_ENTRIES];
    for (int b = 0; b < f->n_banks; b++) {
        int n_rows = 0; /* the bank's vectors that count */
        for (int en = 0; en < f->entries_per_bank; en++)
            if (by_register || !m->entry_slow[b][en])
                rows[n_rows++] = b * f->entries_per_bank + en;
        for (int p = 0; p < f->sub_banks; p++) {
            double worst = 0;
            for (int l0 = 0; l0 < per_sub; l0 += CHUNK) {
                int w = per_sub - l0 < CHUNK ? per_sub - l0 : CHUNK;
                double v = lanes_max(reg + p * per_sub + l0, (size_t)lanes, rows, n_rows, w, thr);
                worst = v > worst ? v : worst;
            }
            out[b * f->sub_banks + p] = worst;
        }
    }
}

static void counted_maxima(const dse_aging *a, const dse_technique *t, const dse__t0 *t0,
                           int sm, double *out)
{
    const double *sub = var_chip_sub_bank_delays(a->chip, sm);
    const sm_rf_map *m = &t0->maps[sm];
    memset(out, 0, sizeof(double) * (size_t)a->n_subs);
    switch (t->freq.granularity) {
    case VAR_GRAN_NONE:
        memcpy(out, sub, sizeof(double) * (size_t)a->n_subs);
        break;
    case VAR_GRAN_SUB_BANK:
        for (int b = 0; b < m->n_banks; b++)
            for (int p = 0; p < m->subs_per_bank; p++)
                if (!m->sub_slow[b][p])
                    out[m->sub_id[b][p]] = sub[m->sub_id[b][p]];
        break;
    default:
        counted_registers(a, t, t0, sm, out);
        break;
    }
}

static int time_zero(dse_aging *a, void *state, const dse_technique *t, dse__t0 *out,
                     char *err, size_t n)
{
    fixed *f = state;
    if (dse__aging_classify(a, t, out, err, n))
        return -1;
    for (int sm = 0; sm < a->n_sms; sm++)
        counted_maxima(a, t, out, sm, f->counted0 + (size_t)sm * (size_t)a->n_subs);
    dse__aging_prep(a, f->counted0, f->counted);
    return 0;
}

static int age(dse_aging *a, void *state, const dse_technique *t, dse_aging_out *u, char *err,
               size_t n)
{
    (void)t, (void)err, (void)n;
    const fixed *f = state;
    int last = a->s->var.aging.n_years - 1;
    u->frequency[0] = a->in->frequency0;
    u->frequency_min[0] = a->in->frequency_min0;
    dse__aging_load_duty(a, (dse__stress){ .mix = true });
    for (int y = 1; y <= last; y++)
        dse__aging_fixed_freq(a, f->counted, a->loop_duty, dse__aging_seconds(a, y),
                              &u->frequency[y], &u->frequency_min[y]);
    if (u->trace >= 0)
        dse__aging_trace_fixed(a, u);
    for (int w = 0; w < a->n_w; w++) {
        double f_end = 0;
        if (last > 0) {
            dse__aging_load_duty(a, (dse__stress){ .workload = w });
            dse__aging_fixed_freq(a, f->counted, a->loop_duty, dse__aging_seconds(a, last),
                                  &f_end, NULL);
        }
        dse__aging_guardband(a, u, w, f_end); /* NaN without aging */
    }
    return 0;
}

const dse__clock dse__clock_fixed = { .name = "fixed", .selects = selects, .alloc = alloc,
                                      .free = free_state, .time_zero = time_zero, .age = age };
