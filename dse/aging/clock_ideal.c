/* The ideal clock: no process variation and no aging (the `ideal` technique, every
 * technique with freq.variation false).  Frequency 1 every year, every sub-bank fast
 * and of delay 1, no guardband (0, not normalised: the ideal has none to compare). */
#include <math.h>
#include <string.h>

#include "aging_internal.h"

static bool selects(const dse_sweep *s, const dse_technique *t)
{
    (void)s;
    return !t->freq.variation;
}

static int time_zero(dse_aging *a, void *state, const dse_technique *t, dse__t0 *out,
                     char *err, size_t n)
{
    (void)state;
    return dse__aging_classify(a, t, out, err, n); /* frequency 1, all fast */
}

static int age(dse_aging *a, void *state, const dse_technique *t, dse_aging_out *u, char *err,
               size_t n)
{
    (void)state, (void)t, (void)err, (void)n;
    int years = a->s->var.aging.n_years;
    for (int y = 0; y < years; y++)
        u->frequency[y] = u->frequency_min[y] = 1.0;
    for (int y = 0; y < years && u->trace >= 0; y++) {
        size_t row = (size_t)y * (size_t)a->n_subs;
        for (int i = 0; i < a->n_subs; i++)
            u->trace_delay[row + (size_t)i] = 1.0;
        memset(u->trace_slow + row, 0, (size_t)a->n_subs);
        for (int w = 0; w < a->n_w; w++)
            memcpy(dse__aging_trace_util_row(a, u, w, y),
                   a->in->duty + (size_t)w * dse__aging_per_chip(a),
                   sizeof(double) * (size_t)a->n_subs);
    }
    for (int w = 0; w < a->n_w; w++) {
        u->guardband_raw[w] = years > 1 ? 0.0 : NAN;
        u->guardband[w] = u->guardband_raw[w];
    }
    return 0;
}

const dse__clock dse__clock_ideal = { .name = "ideal", .selects = selects,
                                      .time_zero = time_zero, .age = age };
