/* NBTI sub-bank traces (/chips/trace).  They are optional: a trace group that does not
 * match the axes is reported and ignored rather than failing the whole analysis, since
 * everything else in the file is still good. */
#include <stdlib.h>

#include "ana_internal.h"

static int read_trace(hid_t f, const ana_results *r, ana_trace *t)
{
    const char *chip = ana_dim_path(ANA_DIM_trace);
    const char *delay = ana_dataset_path(ANA_DS_TRACE_DELAY);
    const char *slow = ana_dataset_path(ANA_DS_TRACE_SLOW);
    const char *util = ana_dataset_path(ANA_DS_TRACE_UTIL);
    int rank;
    hsize_t d[8];
    long size[ANA_N_DIMS];
    if (ana_h5_shape(f, chip, &rank, d) || rank != 1 || d[0] == 0)
        return -1;
    t->n_trace = (int)d[0];
    if (ana_h5_shape(f, delay, &rank, d) || rank != 4)
        return -1;
    t->n_sub_bank = (int)d[3];
    ana__dim_sizes(r, size);
    size[ANA_DIM_trace] = t->n_trace;
    size[ANA_DIM_sub_bank] = t->n_sub_bank;
    if (!r->n_year || !r->n_bench ||
        !ana__shape_is(f, delay, ana_dataset_shape(ANA_DS_TRACE_DELAY), size) ||
        !ana__shape_is(f, slow, ana_dataset_shape(ANA_DS_TRACE_SLOW), size) ||
        !ana__shape_is(f, util, ana_dataset_shape(ANA_DS_TRACE_UTIL), size))
        return -1;
    size_t nd = (size_t)t->n_trace * (size_t)r->n_tech * (size_t)r->n_year * (size_t)t->n_sub_bank;
    size_t nu = nd * (size_t)r->n_bench;
    t->chip = malloc((size_t)t->n_trace * sizeof *t->chip);
    t->delay = malloc(nd * sizeof *t->delay);
    t->slow = malloc(nd);
    t->utilisation = malloc(nu * sizeof *t->utilisation);
    if (!t->chip || !t->delay || !t->slow || !t->utilisation)
        return -1;
    if (ana_h5_read_int(f, chip, t->chip) || ana_h5_read_double(f, delay, t->delay) ||
        ana_h5_read_u8(f, slow, t->slow) || ana_h5_read_double(f, util, t->utilisation))
        return -1;
    return 0;
}

int ana__trace_load(hid_t f, ana_results *r, FILE *err)
{
    if (!ana_h5_exists(f, RFDSE_FILE_TRACE))
        return ANA_EOK;
    ana_trace *t = calloc(1, sizeof *t);
    if (!t)
        return ANA_ENOMEM;
    if (read_trace(f, r, t)) {
        fprintf(err, ANA__PREFIX "%s: note: ignoring /chips/trace: missing datasets or "
                     "shapes that do not match the axes\n", r->path);
        free(t->chip);
        free(t->delay);
        free(t->slow);
        free(t->utilisation);
        free(t);
        return ANA_EOK;
    }
    r->trace = t;
    return ANA_EOK;
}
