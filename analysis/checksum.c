/* Per-unit checksums of a results file (ana_checksum.h): the function, and its check
 * over blocks of chips (with design points: blocks of one point's chips, so every read
 * is one hyperslab [point][chips...]). */
#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ana_checksum.h"
#include "ana_internal.h"

#define FNV_PRIME 1099511628211ull
#define BLOCK_CHIPS 64 /* chips read at a time: about 1 MiB for the default sweep */

uint64_t ana_checksum_bytes(uint64_t h, const uint8_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ v[i]) * FNV_PRIME;
    return h;
}

uint64_t ana_checksum_doubles(uint64_t h, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        for (int b = 0; b < 8; b++) /* little-endian, as stored, on any host */
            h = (h ^ ((bits >> (8 * b)) & 0xff)) * FNV_PRIME;
    }
    return h;
}

/* One dataset a unit's checksum covers: per chip (and technique, when per_unit) a row of
 * `inner` values. */
typedef struct source {
    hid_t dset;
    bool per_unit;
    size_t inner;
    double *buf; /* [block chips][T if per_unit][inner] */
} source;

enum { N_CHIP_SOURCES = 3, MAX_SOURCES = ANA_N_METRICS + N_CHIP_SOURCES };

typedef struct check {
    hid_t file, dxpl;
    int n_points, n_chips, n_tech; /* n_points 0: no point dimension (a sweep without axes) */
    source src[MAX_SOURCES];
    int n_src;
    uint64_t *stored;  /* [block chips][T] */
    int n_trace;
    int *trace_chip;   /* [n_trace] */
    hid_t trace[3];    /* delay, slow, utilisation */
    size_t trace_len[3];
    double *trace_buf; /* one unit's block, the longest of the three */
} check;

/* Hyperslab [lo, hi) of the chip dimension (and all of the later ones) into buf; with a
 * point dimension (point >= 0) of that point only. */
static int read_rows(hid_t dset, hid_t dxpl, hid_t mem_type, int point, hsize_t lo, hsize_t hi,
                     void *buf)
{
    hid_t space = H5Dget_space(dset);
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    hsize_t dims[8], start[8] = { 0 };
    int rc = -1, c = point >= 0; /* the chip dimension */
    if (rank >= 1 + c && rank <= 8 && H5Sget_simple_extent_dims(space, dims, NULL) == rank &&
        hi <= dims[c] && (!c || (hsize_t)point < dims[0])) {
        if (c)
            start[0] = (hsize_t)point, dims[0] = 1;
        start[c] = lo;
        dims[c] = hi - lo;
        hsize_t n = 1;
        for (int k = 0; k < rank; k++)
            n *= dims[k];
        hid_t mem = H5Screate_simple(1, &n, NULL);
        rc = H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, dims, NULL) < 0 ||
                     H5Dread(dset, mem_type, mem, space, dxpl, buf) < 0 ? -1 : 0;
        H5Sclose(mem);
    }
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* Elements per chip of a dataset [n_points][n_chips][...] (n_points 0: [n_chips][...]),
 * 0 when absent or of other leading dimensions. */
static size_t row_len(hid_t dset, int n_points, int n_chips)
{
    hid_t space = H5Dget_space(dset);
    hsize_t d[8];
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    int c = n_points > 0; /* the chip dimension */
    size_t n = 0;
    if (rank >= 1 + c && rank <= 8 && H5Sget_simple_extent_dims(space, d, NULL) == rank &&
        d[c] == (hsize_t)n_chips && (!c || d[0] == (hsize_t)n_points)) {
        n = 1;
        for (int k = c + 1; k < rank; k++)
            n *= (size_t)d[k];
    }
    if (space >= 0)
        H5Sclose(space);
    return n;
}

static hid_t open_if(hid_t file, const char *path)
{
    return ana_h5_exists(file, path) ? H5Dopen2(file, path, H5P_DEFAULT) : H5I_INVALID_HID;
}

static int add_source(check *k, const char *path, bool per_unit)
{
    hid_t d = open_if(k->file, path);
    if (d < 0)
        return ANA_EOK; /* a metric this file predates */
    size_t len = row_len(d, k->n_points, k->n_chips);
    source *s = &k->src[k->n_src++];
    *s = (source){ .dset = d, .per_unit = per_unit };
    if (!len || (per_unit && len % (size_t)k->n_tech))
        return ANA_ECORRUPT;
    s->inner = per_unit ? len / (size_t)k->n_tech : len;
    s->buf = malloc(sizeof(double) * BLOCK_CHIPS * len);
    return s->buf ? ANA_EOK : ANA_ENOMEM;
}

static int open_trace(check *k)
{
    hid_t chips = open_if(k->file, ana_dim_path(ANA_DIM_trace));
    if (chips < 0)
        return ANA_EOK;
    size_t n = 0;
    hid_t space = H5Dget_space(chips);
    hsize_t d[8];
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    if (rank == 1 && H5Sget_simple_extent_dims(space, d, NULL) == 1)
        n = (size_t)d[0];
    if (space >= 0)
        H5Sclose(space);
    k->trace_chip = malloc(sizeof(int) * (n ? n : 1));
    int rc = !k->trace_chip ? ANA_ENOMEM
             : H5Dread(chips, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, k->dxpl, k->trace_chip) < 0
                 ? ANA_ECORRUPT : ANA_EOK;
    H5Dclose(chips);
    k->n_trace = (int)n;
    size_t longest = 1;
    /* the trace datasets of the layout, in its order (ana_layout.h) */
    for (int ds = 0, i = 0; ds < ANA_N_DATASETS && !rc; ds++) {
        if (ana_dataset_sum((ana_dataset)ds) != ANA_SUM_TRACE)
            continue;
        assert(i < 3);
        k->trace[i] = open_if(k->file, ana_dataset_path((ana_dataset)ds));
        size_t len = k->trace[i] >= 0 ? row_len(k->trace[i], k->n_points, k->n_trace) : 0;
        if (!len || len % (size_t)k->n_tech)
            rc = ANA_ECORRUPT;
        k->trace_len[i] = len / (size_t)k->n_tech;
        longest = k->trace_len[i] > longest ? k->trace_len[i] : longest;
        i++;
    }
    if (!rc && !(k->trace_buf = malloc(sizeof(double) * longest)))
        rc = ANA_ENOMEM;
    return rc;
}

static int open_check(check *k)
{
    char path[128];
    int rc = ANA_EOK;
    for (int m = 0; m < ANA_N_METRICS && !rc; m++) {
        ana__metric_path((ana_metric)m, path, sizeof path);
        rc = add_source(k, path, true);
    }
    /* then the chip's rows, in the layout's order (ana_layout.h) */
    for (int ds = 0; ds < ANA_N_DATASETS && !rc; ds++)
        if (ana_dataset_sum((ana_dataset)ds) == ANA_SUM_CHIP)
            rc = add_source(k, ana_dataset_path((ana_dataset)ds), false);
    if (!rc && !(k->stored = malloc(sizeof(uint64_t) * BLOCK_CHIPS * (size_t)k->n_tech)))
        rc = ANA_ENOMEM;
    return rc ? rc : open_trace(k);
}

static void close_check(check *k)
{
    for (int i = 0; i < k->n_src; i++) {
        H5Dclose(k->src[i].dset);
        free(k->src[i].buf);
    }
    for (int i = 0; i < 3; i++)
        if (k->trace[i] >= 0)
            H5Dclose(k->trace[i]);
    free(k->stored);
    free(k->trace_chip);
    free(k->trace_buf);
}

/* The traced unit's blocks, continuing h; one small read per dataset. */
static int add_trace(check *k, int point, int trace, int t, uint64_t *h)
{
    int p = k->n_points > 0; /* [point] first */
    for (int i = 0; i < 3; i++) {
        hid_t space = H5Dget_space(k->trace[i]);
        hsize_t d[8], start[8] = { 0 }, count[8];
        int rank = H5Sget_simple_extent_ndims(space);
        H5Sget_simple_extent_dims(space, d, NULL);
        for (int j = 0; j < rank; j++)
            count[j] = j < 2 + p ? 1 : d[j];
        start[0] = (hsize_t)point; /* overwritten without points */
        start[p] = (hsize_t)trace, start[p + 1] = (hsize_t)t;
        hsize_t n = k->trace_len[i];
        hid_t mem = H5Screate_simple(1, &n, NULL);
        bool flag = i == 1;
        int bad = H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
                  H5Dread(k->trace[i], flag ? H5T_NATIVE_UINT8 : H5T_NATIVE_DOUBLE, mem, space,
                          k->dxpl, k->trace_buf) < 0;
        H5Sclose(mem);
        H5Sclose(space);
        if (bad)
            return ANA_ECORRUPT;
        *h = flag ? ana_checksum_bytes(*h, (const uint8_t *)k->trace_buf, n)
                  : ana_checksum_doubles(*h, k->trace_buf, n);
    }
    return ANA_EOK;
}

static int trace_of(const check *k, int chip)
{
    for (int i = 0; i < k->n_trace; i++)
        if (k->trace_chip[i] == chip)
            return i;
    return -1;
}

/* Chips [lo, hi) of one point (0 without points). */
static int check_block(check *k, int point, int lo, int hi, const uint8_t *done, uint8_t *bad)
{
    int pt = k->n_points > 0 ? point : -1; /* read_rows: no point dimension */
    hid_t sums = H5Dopen2(k->file, ana_dataset_path(ANA_DS_CHECKSUM), H5P_DEFAULT);
    int rc = sums < 0 || read_rows(sums, k->dxpl, H5T_NATIVE_UINT64, pt, (hsize_t)lo,
                                   (hsize_t)hi, k->stored) ? ANA_ECORRUPT : ANA_EOK;
    if (sums >= 0)
        H5Dclose(sums);
    for (int i = 0; i < k->n_src && !rc; i++)
        if (read_rows(k->src[i].dset, k->dxpl, H5T_NATIVE_DOUBLE, pt, (hsize_t)lo, (hsize_t)hi,
                      k->src[i].buf))
            rc = ANA_ECORRUPT;
    for (int c = lo; c < hi && !rc; c++) {
        size_t row = (size_t)(c - lo);
        int trace = trace_of(k, c);
        for (int t = 0; t < k->n_tech && !rc; t++) {
            size_t u = ((size_t)point * (size_t)k->n_chips + (size_t)c) * (size_t)k->n_tech +
                       (size_t)t;
            if (!done[u])
                continue;
            uint64_t h = ANA_CHECKSUM_START;
            for (int i = 0; i < k->n_src; i++) {
                const source *s = &k->src[i];
                size_t at = s->per_unit ? (row * (size_t)k->n_tech + (size_t)t) * s->inner
                                        : row * s->inner;
                h = ana_checksum_doubles(h, s->buf + at, s->inner);
            }
            if (trace >= 0)
                rc = add_trace(k, point, trace, t, &h);
            if (h != k->stored[row * (size_t)k->n_tech + (size_t)t])
                bad[u] = 1;
        }
    }
    return rc;
}

int ana_checksum_verify(hid_t file, hid_t dxpl, int lo, int hi, const uint8_t *done,
                        uint8_t *bad)
{
    if (!ana_h5_exists(file, ana_dataset_path(ANA_DS_CHECKSUM)))
        return ANA_ENOTRFDSE;
    hsize_t d[8];
    int rank;
    if (ana_h5_shape(file, ana_dataset_path(ANA_DS_CHECKSUM), &rank, d) || rank < 2 || rank > 3)
        return ANA_ECORRUPT;
    int p = rank == 3; /* [point][chip][technique] */
    check k = { .file = file, .dxpl = dxpl, .n_points = p ? (int)d[0] : 0,
                .n_chips = (int)d[p], .n_tech = (int)d[p + 1],
                .trace = { H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID } };
    long rows = (long)(p ? k.n_points : 1) * k.n_chips;
    if (lo < 0 || hi > rows || k.n_tech < 1 || k.n_chips < 1)
        return ANA_ECORRUPT;
    int rc = open_check(&k);
    for (int b = lo; b < hi && !rc;) { /* a block never crosses a point's end */
        int point = b / k.n_chips, c0 = b % k.n_chips;
        int c1 = c0 + BLOCK_CHIPS < k.n_chips ? c0 + BLOCK_CHIPS : k.n_chips;
        if (c1 - c0 > hi - b)
            c1 = c0 + (hi - b);
        rc = check_block(&k, point, c0, c1, done, bad);
        b += c1 - c0;
    }
    close_check(&k);
    return rc;
}

long ana_checksum_describe(hid_t file, int n_points, int n_chips, int n_tech,
                           const uint8_t *bad, char *buf, size_t n)
{
    ana_name *tech = calloc((size_t)n_tech, sizeof *tech);
    bool names = tech && !ana_h5_read_names(file, ana_dim_path(ANA_DIM_technique), tech, n_tech);
    long count = 0, shown = 0, rows = (long)(n_points > 0 ? n_points : 1) * n_chips;
    size_t at = 0;
    buf[0] = '\0';
    for (long r = 0; r < rows; r++)
        for (int t = 0; t < n_tech; t++) {
            if (!bad[(size_t)r * (size_t)n_tech + (size_t)t])
                continue;
            if (count++ < 8 && at < n) {
                char where[48] = "";
                if (n_points > 0)
                    snprintf(where, sizeof where, "point %ld ", r / n_chips);
                int c = (int)(r % n_chips);
                int k = names ? snprintf(buf + at, n - at, "%s%schip %d %s", shown ? ", " : "",
                                         where, c, tech[t])
                              : snprintf(buf + at, n - at, "%s%schip %d technique %d",
                                         shown ? ", " : "", where, c, t);
                at += k > 0 ? (size_t)k : 0;
                shown++;
            }
        }
    if (count > shown && at < n)
        snprintf(buf + at, n - at, " and %ld more", count - shown);
    free(tech);
    return count;
}

long ana_results_damaged(const char *path, char *msg, size_t n)
{
    hid_t f = ana_h5_open(path, 0);
    hsize_t d[8];
    int rank;
    long count = -1;
    msg[0] = '\0';
    if (f < 0) {
        snprintf(msg, n, "%s: not an HDF5 file (or a damaged one)", path);
        return -1;
    }
    if (!ana_h5_exists(f, ana_dataset_path(ANA_DS_CHECKSUM))) {
        H5Fclose(f);
        return 0;
    }
    uint8_t *done = NULL, *bad = NULL;
    size_t units = 0;
    int p = 0, n_points = 0; /* a file with design points: done is [point][chip][tech] */
    if (!ana_h5_shape(f, ana_dataset_path(ANA_DS_DONE), &rank, d) && (rank == 2 || rank == 3)) {
        p = rank == 3;
        n_points = p ? (int)d[0] : 0;
        units = (size_t)d[0] * (size_t)d[1] * (p ? (size_t)d[2] : 1);
        done = malloc(units ? units : 1);
        bad = calloc(units ? units : 1, 1);
    }
    long rows = done ? (long)(p ? d[0] : 1) * (long)d[p] : 0;
    int rc = !done || !bad || rows > INT_MAX ? ANA_ECORRUPT
                                             : ana_h5_read_u8(f, ana_dataset_path(ANA_DS_DONE), done);
    if (!rc)
        rc = ana_checksum_verify(f, H5P_DEFAULT, 0, (int)rows, done, bad);
    if (rc) {
        snprintf(msg, n, "%s: cannot check its checksums: %s", path, ana_strerror(rc));
    } else {
        char list[1024];
        count = ana_checksum_describe(f, n_points, (int)d[p], (int)d[p + 1], bad, list,
                                      sizeof list);
        if (count)
            snprintf(msg, n, "%ld damaged unit%s (checksum mismatch): %s", count,
                     count == 1 ? "" : "s", list);
    }
    free(done);
    free(bad);
    H5Fclose(f);
    return count;
}
