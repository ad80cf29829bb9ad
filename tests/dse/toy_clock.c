/* A toy clock, test only: a technique whose name starts with "toy_" keeps its time-zero
 * map and frequency all its life (storage that does not age).  It exists to show that
 * a clock is its file and one registry line (tests/dse/toy_clock.h;
 * docs/architecture.md, "An aging/clock strategy"). */
#include <string.h>

#include "aging_internal.h"

static bool selects(const dse_sweep *s, const dse_technique *t)
{
    (void)s;
    return !strncmp(t->name, "toy_", 4);
}

static int time_zero(dse_aging *a, void *state, const dse_technique *t, dse__t0 *out,
                     char *err, size_t n)
{
    (void)state;
    return dse__aging_classify(a, t, out, err, n);
}

static int age(dse_aging *a, void *state, const dse_technique *t, dse_aging_out *u, char *err,
               size_t n)
{
    (void)state, (void)t, (void)err, (void)n;
    for (int y = 0; y < a->s->var.aging.n_years; y++) {
        u->frequency[y] = a->in->frequency0;
        u->frequency_min[y] = a->in->frequency_min0;
    }
    for (int w = 0; w < a->n_w; w++)
        dse__aging_guardband(a, u, w, u->frequency[0]);
    return 0;
}

const dse__clock dse__clock_toy_frozen = { .name = "toy_frozen", .selects = selects,
                                           .time_zero = time_zero, .age = age };
