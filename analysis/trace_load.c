/* NBTI sub-bank traces (/chips/trace).  They are optional: a trace group that does not
 * match the axes is reported and ignored rather than failing the whole analysis, since
 * everything else in the file is still good. */
#include <stdlib.h>

#include "ana_internal.h"

static int dims_match(hid_t f, const char *path, int rank, const long *want)
{
    int r;
    hsize_t d[8];
    if (ana_h5_shape(f, path, &r, d) || r != rank)
        return 0;
    for (int i = 0; i < rank; i++)
        if (want[i] >= 0 && (long)d[i] != want[i])
            return 0;
    return 1;
}

static int read_trace(hid_t f, const ana_results *r, ana_trace *t)
{
    int rank;
    hsize_t d[8];
    if (ana_h5_shape(f, "/chips/trace/chip", &rank, d) || rank != 1 || d[0] == 0)
        return -1;
    t->n_trace = (int)d[0];
    if (ana_h5_shape(f, "/chips/trace/sub_bank_delay", &rank, d) || rank != 4)
        return -1;
    t->n_sub_bank = (int)d[3];
    long dshape[4] = { t->n_trace, r->n_tech, r->n_year, t->n_sub_bank };
    long ushape[5] = { t->n_trace, r->n_tech, r->n_bench, r->n_year, t->n_sub_bank };
    if (!r->n_year || !r->n_bench || !dims_match(f, "/chips/trace/sub_bank_delay", 4, dshape) ||
        !dims_match(f, "/chips/trace/sub_bank_slow", 4, dshape) ||
        !dims_match(f, "/chips/trace/sub_bank_utilisation", 5, ushape))
        return -1;
    size_t nd = (size_t)t->n_trace * (size_t)r->n_tech * (size_t)r->n_year * (size_t)t->n_sub_bank;
    size_t nu = nd * (size_t)r->n_bench;
    t->chip = malloc((size_t)t->n_trace * sizeof *t->chip);
    t->delay = malloc(nd * sizeof *t->delay);
    t->slow = malloc(nd);
    t->utilisation = malloc(nu * sizeof *t->utilisation);
    if (!t->chip || !t->delay || !t->slow || !t->utilisation)
        return -1;
    if (ana_h5_read_int(f, "/chips/trace/chip", t->chip) ||
        ana_h5_read_double(f, "/chips/trace/sub_bank_delay", t->delay) ||
        ana_h5_read_u8(f, "/chips/trace/sub_bank_slow", t->slow) ||
        ana_h5_read_double(f, "/chips/trace/sub_bank_utilisation", t->utilisation))
        return -1;
    return 0;
}

int ana__trace_load(hid_t f, ana_results *r, FILE *err)
{
    if (!ana_h5_exists(f, "/chips/trace"))
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
