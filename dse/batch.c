/* Buffer of finished units between two collective writes. */
#include "dse_batch.h"

#include <stdlib.h>
#include <string.h>

void dse_batch_init(dse_batch *b, const dse_dims *d)
{
    memset(b, 0, sizeof *b);
    b->dims = *d;
}

/* Each unit's arrays live in one block, owned through unit.frequency (the trace
 * arrays too: a few kB, cheaper than tracking which units are traced). */
static int alloc_unit(dse_unit *u, const dse_dims *d)
{
    size_t y = (size_t)d->n_years, w = (size_t)d->n_benchmarks, ys = y * (size_t)d->n_subs;
    double *p = malloc(sizeof(double) * (2 * y + 5 * w + ys + w * ys) + ys);
    if (!p)
        return -1;
    u->trace = -1;
    u->trace_delay = p + 2 * y + 5 * w;
    u->trace_util = u->trace_delay + ys;
    u->trace_slow = (uint8_t *)(u->trace_util + w * ys);
    u->frequency = p;
    u->frequency_min = p + y;
    u->ipc = p + 2 * y;
    u->performance = u->ipc + w;
    u->performance_t0 = u->performance + w;
    u->guardband = u->performance_t0 + w;
    u->guardband_raw = u->guardband + w;
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
        if (!b->units[i].frequency && alloc_unit(&b->units[i], &b->dims))
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
        free(b->units[i].frequency);
    for (int i = 0; i < b->cap_chips; i++)
        free(b->chips[i].sm_frequency);
    free(b->units);
    free(b->chips);
    memset(b, 0, sizeof *b);
}
