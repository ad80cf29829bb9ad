/* Writes of finished units: every rank writes its own rows (independent raw-data I/O)
 * and all ranks agree on the outcome after each step; results are flushed before
 * /progress/done marks them. */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ana_checksum.h"
#include "results_internal.h"

/* Coordinates of a row: [point] (with axes), then up to three more. */
#define STRIDE 4

static int cmp_unit(const void *a, const void *b)
{
    const dse_unit *x = *(const dse_unit *const *)a, *y = *(const dse_unit *const *)b;
    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    if (x->chip != y->chip)
        return x->chip < y->chip ? -1 : 1;
    return (x->technique > y->technique) - (x->technique < y->technique);
}

static int cmp_chip(const void *a, const void *b)
{
    const dse_chip_info *x = *(const dse_chip_info *const *)a;
    const dse_chip_info *y = *(const dse_chip_info *const *)b;
    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    return (x->chip > y->chip) - (x->chip < y->chip);
}

static const double *chip_array(const dse_chip_info *c, dse__ds ds)
{
    switch (ds) {
    case DSE__DS_SM_FREQUENCY: return c->sm_frequency;
    case DSE__DS_WITHIN_SM: return c->within_sm_ratio;
    default: return &c->sm_to_sm_ratio;
    }
}

/* Unit u's block of trace dataset ds. */
static const void *trace_array(const dse_unit *u, dse__ds ds)
{
    switch (ds) {
    case DSE__DS_TRACE_DELAY: return u->trace_delay;
    case DSE__DS_TRACE_SLOW: return u->trace_slow;
    default: return u->trace_util;
    }
}

/* The first coordinates of a row, [point] first with axes; returns where the rest go. */
static hsize_t *lead(const dse_results *r, hsize_t *s, int point, int chip)
{
    if (r->dims.n_points > 0)
        *s++ = (hsize_t)point;
    *s++ = (hsize_t)chip;
    return s;
}

/* One collective write: `n` rows starting at starts[i * STRIDE] (rank coordinates, the
 * point's counted by the caller's lead()) of `inner` elements each, packed in `buf` in
 * the order given (file order).  `rank` excludes the point dimension. */
static int write_rows(dse_results *r, dse__ds ds, int rank, const hsize_t *starts, int n,
                     hsize_t inner, hid_t mem_type, const void *buf)
{
    rank += r->dims.n_points > 0;
    hid_t file_space = H5Dget_space(r->dset[ds]);
    hsize_t mem_len = n ? (hsize_t)n * inner : 1;
    hid_t mem_space = H5Screate_simple(1, &mem_len, NULL);
    hsize_t count[STRIDE] = { 1, 1, 1, 1 };
    if (rank >= 2 && dse__ds_specs[ds].shape != ANA_SHAPE_CT)
        count[rank - 1] = inner;
    H5Sselect_none(file_space);
    for (int i = 0; i < n; i++)
        H5Sselect_hyperslab(file_space, H5S_SELECT_OR, starts + (size_t)i * STRIDE, NULL, count,
                            NULL);
    if (!n)
        H5Sselect_none(mem_space);
    static const char dummy = 0;
    herr_t st = H5Dwrite(r->dset[ds], mem_type, mem_space, file_space, r->dxpl,
                         buf ? buf : (const void *)&dummy);
    H5Sclose(mem_space);
    H5Sclose(file_space);
    return st < 0 ? -1 : 0;
}

static int write_unit_datasets(dse_results *r, dse_unit *const *u, int n, hsize_t *starts)
{
    for (int ds = 0; ds < DSE_N_METRICS; ds++) { /* dataset m is metric m */
        int inner = dse__shape_inner(&r->dims, dse__ds_specs[ds].shape);
        double *buf = n ? malloc(sizeof(double) * (size_t)n * (size_t)inner) : NULL;
        if (n && !buf)
            return -1;
        for (int i = 0; i < n; i++) {
            memcpy(buf + (size_t)i * (size_t)inner, dse_unit_metric(u[i], ds),
                   sizeof(double) * (size_t)inner);
            hsize_t *s = lead(r, starts + (size_t)i * STRIDE, u[i]->point, u[i]->chip);
            s[0] = (hsize_t)u[i]->technique, s[1] = 0;
        }
        int rc = write_rows(r, (dse__ds)ds, 3, starts, n, (hsize_t)inner, H5T_NATIVE_DOUBLE, buf);
        free(buf);
        if (rc)
            return -1;
    }
    return 0;
}

static int write_chip_datasets(dse_results *r, dse_chip_info *const *c, int n, hsize_t *starts)
{
    for (int ds = DSE__DS_SM_FREQUENCY; ds <= DSE__DS_SM_TO_SM; ds++) {
        ana_shape shape = dse__ds_specs[ds].shape;
        int inner = dse__shape_inner(&r->dims, shape);
        double *buf = n ? malloc(sizeof(double) * (size_t)n * (size_t)inner) : NULL;
        if (n && !buf)
            return -1;
        for (int i = 0; i < n; i++) {
            memcpy(buf + (size_t)i * (size_t)inner, chip_array(c[i], (dse__ds)ds),
                   sizeof(double) * (size_t)inner);
            hsize_t *s = lead(r, starts + (size_t)i * STRIDE, c[i]->point, c[i]->chip);
            s[0] = 0, s[1] = 0;
        }
        int rc = write_rows(r, (dse__ds)ds, shape == ANA_SHAPE_C ? 1 : 2, starts, n,
                            (hsize_t)inner, H5T_NATIVE_DOUBLE, buf);
        free(buf);
        if (rc)
            return -1;
    }
    return 0;
}

static int write_done(dse_results *r, dse_unit *const *u, int n, hsize_t *starts)
{
    uint8_t *ones = n ? malloc((size_t)n) : NULL;
    if (n && !ones)
        return -1;
    for (int i = 0; i < n; i++) {
        ones[i] = 1;
        hsize_t *s = lead(r, starts + (size_t)i * STRIDE, u[i]->point, u[i]->chip);
        s[0] = (hsize_t)u[i]->technique, s[1] = 0;
    }
    int rc = write_rows(r, DSE__DS_DONE, 2, starts, n, 1, H5T_NATIVE_UINT8, ones);
    free(ones);
    return rc;
}

/* The unit's checksum (analysis/ana_checksum.h): its rows of every unit dataset, then
 * its chip's rows and its trace blocks in the layout's order (analysis/ana_layout.h, as
 * the reader takes them), as the file will hold them. */
static uint64_t unit_checksum(const dse_results *r, const dse_unit *u, const dse_chip_info *c)
{
    const dse_dims *d = &r->dims;
    uint64_t h = ANA_CHECKSUM_START;
    for (int m = 0; m < DSE_N_METRICS; m++)
        h = ana_checksum_doubles(h, dse_unit_metric(u, m),
                                 (size_t)dse__shape_inner(d, dse__ds_specs[m].shape));
    for (int ds = DSE_N_METRICS; ds < DSE__DS_COUNT; ds++) {
        const dse__ds_spec *spec = &dse__ds_specs[ds];
        ana_sum sum = ana_dataset_sum((ana_dataset)(ds - DSE_N_METRICS));
        if (sum == ANA_SUM_CHIP)
            h = ana_checksum_doubles(h, chip_array(c, (dse__ds)ds),
                                     (size_t)dse__shape_inner(d, spec->shape));
        if (sum != ANA_SUM_TRACE || d->n_trace == 0 || u->trace < 0)
            continue;
        ana_dim dim[5];
        size_t len = 1; /* the block after [trace][technique] (as write_traces) */
        for (int k = 2, rank = ana_shape_dims(spec->shape, dim); k < rank; k++)
            len *= (size_t)dse__dim_size(d, dim[k]);
        const void *v = trace_array(u, (dse__ds)ds);
        h = spec->is_flag ? ana_checksum_bytes(h, v, len) : ana_checksum_doubles(h, v, len);
    }
    return h;
}

/* The checksums of the units (sorted), whose chips are among c (sorted by point, then
 * chip): a (point, chip) row is computed whole by one rank and its units and data written in the same batch. */
static int write_checksums(dse_results *r, dse_unit *const *u, int n, dse_chip_info *const *c,
                           int n_chips, hsize_t *starts)
{
    uint64_t *sums = n ? malloc(sizeof *sums * (size_t)n) : NULL;
    if (n && !sums)
        return -1;
    for (int i = 0, k = 0; i < n; i++) {
        while (k < n_chips && (c[k]->point < u[i]->point ||
                               (c[k]->point == u[i]->point && c[k]->chip < u[i]->chip)))
            k++;
        assert(k < n_chips && c[k]->point == u[i]->point && c[k]->chip == u[i]->chip);
        sums[i] = unit_checksum(r, u[i], c[k]);
        hsize_t *s = lead(r, starts + (size_t)i * STRIDE, u[i]->point, u[i]->chip);
        s[0] = (hsize_t)u[i]->technique, s[1] = 0;
    }
    int rc = write_rows(r, DSE__DS_CHECKSUM, 2, starts, n, 1, H5T_NATIVE_UINT64, sums);
    free(sums);
    return rc;
}

static int cmp_trace(const void *a, const void *b)
{
    const dse_unit *x = *(const dse_unit *const *)a, *y = *(const dse_unit *const *)b;
    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    if (x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    return (x->technique > y->technique) - (x->technique < y->technique);
}

/* One collective write of trace dataset ds: each traced unit's whole block
 * [trace][technique][...] (rank-4 or rank-5), in file order. */
static int write_trace(dse_results *r, dse__ds ds, dse_unit *const *u, int n)
{
    hsize_t dims[DSE__MAX_RANK], count[DSE__MAX_RANK], start[DSE__MAX_RANK] = { 0 };
    int rank = dse__shape_dims(&r->dims, dse__ds_specs[ds].shape, dims);
    int p = r->dims.n_points > 0; /* [point] first */
    size_t block = 1;
    for (int k = 0; k < rank; k++) {
        count[k] = k < 2 + p ? 1 : dims[k];
        block *= (size_t)count[k];
    }
    hid_t file_space = H5Dget_space(r->dset[ds]);
    hsize_t mem_len = n ? (hsize_t)n * block : 1;
    hid_t mem_space = H5Screate_simple(1, &mem_len, NULL);
    bool flag = dse__ds_specs[ds].is_flag;
    size_t el = flag ? 1 : sizeof(double);
    char *buf = malloc(n ? (size_t)n * block * el : 1);
    H5Sselect_none(file_space);
    for (int i = 0; i < n && buf; i++) {
        start[0] = (hsize_t)u[i]->point; /* overwritten without axes */
        start[p] = (hsize_t)u[i]->trace, start[p + 1] = (hsize_t)u[i]->technique;
        H5Sselect_hyperslab(file_space, H5S_SELECT_OR, start, NULL, count, NULL);
        const void *src = trace_array(u[i], ds);
        memcpy(buf + (size_t)i * block * el, src, block * el);
    }
    if (!n)
        H5Sselect_none(mem_space);
    herr_t st = buf ? H5Dwrite(r->dset[ds], flag ? H5T_NATIVE_UINT8 : H5T_NATIVE_DOUBLE,
                               mem_space, file_space, r->dxpl, buf) : -1;
    free(buf);
    H5Sclose(mem_space);
    H5Sclose(file_space);
    return st < 0 ? -1 : 0;
}

static int write_traces(dse_results *r, dse_unit *const *all, int n_all)
{
    if (r->dims.n_trace == 0)
        return 0;
    dse_unit **u = malloc(sizeof *u * (size_t)(n_all ? n_all : 1));
    int n = 0, rc = u ? 0 : -1;
    for (int i = 0; u && i < n_all; i++)
        if (all[i]->trace >= 0)
            u[n++] = all[i];
    if (u)
        qsort(u, (size_t)n, sizeof *u, cmp_trace);
    for (int ds = DSE_N_METRICS; ds < DSE__DS_COUNT && !rc; ds++)
        if (dse__ds_is_trace(ds))
            rc = write_trace(r, (dse__ds)ds, u, n);
    free(u);
    return rc;
}

/* Every rank learns whether any rank failed in the step just done, and the cause: the
 * largest errno of any rank (MPI_MAXLOC; the lowest such rank).  Nothing collective
 * may follow a failure on one rank before this, or the others wait for it forever. */
static int agree(const dse_results *r, int failed, const char *step, char *err, size_t n)
{
    struct { int code, rank; } mine = { failed ? (errno ? errno : EIO) : 0, r->rank }, all;
    MPI_Allreduce(&mine, &all, 1, MPI_2INT, MPI_MAXLOC, r->comm);
    if (!all.code)
        return 0;
    snprintf(err, n, "cannot write %s (%s, rank %d): %s", r->path, step, all.rank,
             strerror(all.code));
    return -1;
}

/* Selections must list rows in file order, so the units are sorted first; sorting
 * pointers leaves the caller's arrays alone. */
int dse_results_write(dse_results *r, dse_unit *units, int n_units, dse_chip_info *chips,
                      int n_chips, char *err, size_t err_len)
{
    int n_max = n_units > n_chips ? n_units : n_chips;
    dse_unit **u = malloc(sizeof *u * (size_t)(n_units ? n_units : 1));
    dse_chip_info **c = malloc(sizeof *c * (size_t)(n_chips ? n_chips : 1));
    hsize_t *starts = malloc(sizeof *starts * STRIDE * (size_t)(n_max ? n_max : 1));
    errno = 0;
    int failed = !u || !c || !starts;
    for (int i = 0; !failed && i < n_units; i++)
        u[i] = &units[i];
    for (int i = 0; !failed && i < n_chips; i++)
        c[i] = &chips[i];
    if (!failed) {
        qsort(u, (size_t)n_units, sizeof *u, cmp_unit);
        qsort(c, (size_t)n_chips, sizeof *c, cmp_chip);
        failed = write_unit_datasets(r, u, n_units, starts) ||
                 write_chip_datasets(r, c, n_chips, starts) || write_traces(r, u, n_units) ||
                 write_checksums(r, u, n_units, c, n_chips, starts);
    }
    /* Results first, flushed; then the marks that vouch for them, flushed. */
    int rc = agree(r, failed, "results", err, err_len) ||
             agree(r, H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0, "flush", err, err_len) ||
             agree(r, write_done(r, u, n_units, starts), "progress marks", err, err_len) ||
             agree(r, H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0, "flush", err, err_len);
    free(u);
    free(c);
    free(starts);
    return rc ? -1 : 0;
}
