/* Buffer of finished units between two collective writes. */
#include "dse_batch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void dse_batch_init(dse_batch *b, const dse_dims *d)
{
    memset(b, 0, sizeof *b);
    b->dims = *d;
}

/* Each unit's arrays live in one block, owned through the first metric's array (the
 * trace arrays too: a few kB, cheaper than tracking which units are traced). */
static int alloc_unit(dse_unit *u, const dse_dims *d)
{
    size_t metrics = 0, ys = (size_t)d->n_years * (size_t)d->n_subs;
    size_t w = (size_t)d->n_benchmarks;
    for (int m = 0; m < DSE_N_METRICS; m++)
        metrics += (size_t)dse_unit_metric_len(d, m);
    double *p = malloc(sizeof(double) * (metrics + ys + w * ys) + ys);
    if (!p)
        return -1;
    for (int m = 0; m < DSE_N_METRICS; m++) {
        *dse_unit_metric_slot(u, m) = p;
        p += dse_unit_metric_len(d, m);
    }
    u->trace = -1;
    u->trace_delay = p;
    u->trace_util = u->trace_delay + ys;
    u->trace_slow = (uint8_t *)(u->trace_util + w * ys);
    return 0;
}

static int alloc_chip(dse_chip_info *c, const dse_dims *d)
{
    double *p = malloc(sizeof(double) * 2 * (size_t)d->n_sms);
    if (!p)
        return -1;
    c->sm_frequency = p;
    c->within_sm_ratio = p + d->n_sms;
    return 0;
}

static int grow(void **arr, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*arr, (size_t)n * elem);
    if (!p)
        return -1;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem);
    *arr = p;
    *cap = n;
    return 0;
}

dse_unit *dse_batch_reserve(dse_batch *b, int n_units, dse_chip_info **info)
{
    if (grow((void **)&b->units, &b->cap_units, b->n_units + n_units, sizeof *b->units) ||
        grow((void **)&b->chips, &b->cap_chips, b->n_chips + 1, sizeof *b->chips))
        return NULL;
    for (int i = b->n_units; i < b->n_units + n_units; i++)
        if (!*dse_unit_metric_slot(&b->units[i], 0) && alloc_unit(&b->units[i], &b->dims))
            return NULL;
    dse_chip_info *c = &b->chips[b->n_chips];
    if (!c->sm_frequency && alloc_chip(c, &b->dims))
        return NULL;
    *info = c;
    return &b->units[b->n_units];
}

void dse_batch_commit(dse_batch *b, int n_units)
{
    b->n_units += n_units;
    b->n_chips++;
}

void dse_batch_clear(dse_batch *b)
{
    b->n_units = 0;
    b->n_chips = 0;
}

void dse_batch_free(dse_batch *b)
{
    for (int i = 0; i < b->cap_units; i++)
        free(*dse_unit_metric_slot(&b->units[i], 0));
    for (int i = 0; i < b->cap_chips; i++)
        free(b->chips[i].sm_frequency);
    free(b->units);
    free(b->chips);
    memset(b, 0, sizeof *b);
}

void dse_unit_project(const dse_unit *from, const dse_dims *fd, const int *w_map, dse_unit *to,
                      const dse_dims *td)
{
    to->point = from->point;
    to->chip = from->chip;
    to->technique = from->technique;
    to->trace = from->trace;
    for (int m = 0; m < DSE_N_METRICS; m++) {
        const double *src = dse_unit_metric(from, m);
        double *dst = dse_unit_metric(to, m);
        for (int i = 0; i < dse_unit_metric_len(td, m); i++)
            dst[i] = src[dse_unit_metric_by_year(m) ? i : w_map[i]];
    }
    if (from->trace < 0)
        return;
    size_t ys = (size_t)fd->n_years * (size_t)fd->n_subs;
    memcpy(to->trace_delay, from->trace_delay, sizeof(double) * ys);
    memcpy(to->trace_slow, from->trace_slow, ys);
    for (int i = 0; i < td->n_benchmarks; i++)
        memcpy(to->trace_util + (size_t)i * ys, from->trace_util + (size_t)w_map[i] * ys,
               sizeof(double) * ys);
}
