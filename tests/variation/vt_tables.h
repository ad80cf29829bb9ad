/* Shared by the variation tests that build many chip objects: the tables of the maximum
 * kept in memory (a var_table_cache), so each is built once per test process (0.5 s
 * each), and the floorplans whose rows differ. */
#ifndef RFDSE_VT_TABLES_H
#define RFDSE_VT_TABLES_H

#include <stdlib.h>
#include <string.h>

#include "var.h"

#define VT_TABLES 16

typedef struct vt_tables {
    uint8_t id[VT_TABLES][4096];
    size_t id_len[VT_TABLES], n[VT_TABLES];
    float *q[VT_TABLES];
    int count;
} vt_tables;

static inline int vt_tables_load(void *arg, const uint8_t *id, size_t id_len, float *q,
                                 size_t n)
{
    vt_tables *t = arg;
    for (int i = 0; i < t->count; i++)
        if (t->id_len[i] == id_len && t->n[i] == n && !memcmp(t->id[i], id, id_len)) {
            memcpy(q, t->q[i], sizeof(float) * n);
            return 1;
        }
    return 0;
}

static inline void vt_tables_save(void *arg, const uint8_t *id, size_t id_len, const float *q,
                                  size_t n)
{
    vt_tables *t = arg;
    if (t->count == VT_TABLES || id_len > sizeof t->id[0])
        return;
    float *copy = malloc(sizeof(float) * n);
    if (!copy)
        return; /* not kept: built again */
    int i = t->count++;
    memcpy(t->id[i], id, id_len);
    t->id_len[i] = id_len, t->n[i] = n;
    t->q[i] = copy;
    memcpy(copy, q, sizeof(float) * n);
}

static inline var_table_cache vt_tables_cache(vt_tables *t)
{
    return (var_table_cache){ .load = vt_tables_load, .save = vt_tables_save, .arg = t };
}

static inline void vt_tables_free(vt_tables *t)
{
    for (int i = 0; t && i < t->count; i++)
        free(t->q[i]);
    free(t);
}

/* Floorplans whose rows differ: the default (four pieces of eight cells per register),
 * interleaved lanes (one cell per grid column: 32 pieces of one cell), two bank columns
 * (two row plans per SM, rows of 2 x 32 registers; a cache takes column 0's pieces), the
 * chip domain (one field, runs that straddle grid columns unevenly).  Fewer SMs: every SM
 * is drawn the same way. */
#define VT_CASES 4
static inline void vt_case_params(int i, var_params *p)
{
    var_params_default(p);
    p->floorplan.n_sms = 3;
    if (i == 1)
        p->floorplan.lane_interleave = 4, p->variation.sigma_ratio = 4.0;
    if (i == 2)
        p->floorplan.bank_cols = 2;
    if (i == 3)
        p->variation.domain = VAR_DOMAIN_CHIP, p->variation.grid_cols = 256,
        p->variation.sigma_ratio = 0.25;
}

#endif
