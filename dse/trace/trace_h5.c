/* The HDF5 form of a trace (docs/traces.md): header attributes on the root, one chunked,
 * deflate-compressed dataset per instruction field, the opcode names, the warps, and
 * the address values.  h5py reads it without rfdse.  Written under NAME.partial and
 * renamed, so a failed import leaves nothing. */
#include <hdf5.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

#define CHUNK 65536 /* rows per chunk: deflate works on 64 K-row blocks */

static const char format_name[] = "rfdse trace 1";

/* A 1-D or 2-D (cols > 1) dataset of n rows, chunked and deflated when n > 0. */
static int put(hid_t f, const char *name, hid_t type, size_t n, size_t cols, const void *data)
{
    hsize_t dims[2] = { n, cols }, chunk[2] = { n < CHUNK ? (n ? n : 1) : CHUNK, cols };
    int rank = cols > 1 ? 2 : 1;
    hid_t space = H5Screate_simple(rank, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (n) {
        H5Pset_chunk(dcpl, rank, chunk);
        H5Pset_shuffle(dcpl);
        H5Pset_deflate(dcpl, 6);
    }
    hid_t d = H5Dcreate2(f, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    herr_t rc = d < 0 ? -1 : n ? H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) : 0;
    if (d >= 0)
        H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    return d < 0 || rc < 0 ? -1 : 0;
}

static int attr_ints(hid_t f, const char *name, const int *v, hsize_t n)
{
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate2(f, name, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, H5T_NATIVE_INT, v);
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    return a < 0 || rc < 0 ? -1 : 0;
}

static int attr_str(hid_t f, const char *name, const char *v)
{
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
    H5Tset_size(type, strlen(v) + 1);
    hid_t a = H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, type, v);
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
    return a < 0 || rc < 0 ? -1 : 0;
}

static int write_header(hid_t f, const dse_trace_header *h)
{
    int one[] = { h->kernel_id, h->shmem, h->nregs, h->binary_version, h->trace_version,
                  h->lineinfo };
    return attr_str(f, "format", format_name) || attr_str(f, "kernel_name", h->kernel_name) ||
           attr_ints(f, "grid", h->grid, 3) || attr_ints(f, "block", h->block, 3) ||
           attr_ints(f, "kernel_id", &one[0], 1) || attr_ints(f, "shmem", &one[1], 1) ||
           attr_ints(f, "nregs", &one[2], 1) || attr_ints(f, "binary_version", &one[3], 1) ||
           attr_ints(f, "trace_version", &one[4], 1) || attr_ints(f, "lineinfo", &one[5], 1);
}

/* Gathers one field of every instruction into a column buffer (8 bytes a row). */
#define COLUMN(buf, t, field, type)                                                        \
    do {                                                                                   \
        type *c_ = (type *)(buf);                                                          \
        for (size_t i_ = 0; i_ < (t)->n_insts; i_++)                                       \
            c_[i_] = (t)->insts[i_].field;                                                 \
    } while (0)

static bool has_preds(const dse_trace *t)
{
    for (size_t i = 0; i < t->n_insts; i++)
        if (t->insts[i].n_pdst | t->insts[i].n_psrc)
            return true;
    return false;
}

/* The predicates, as the registers (count, then 4), only when the trace has any: a
 * trace without them is written as before they existed, and a reader that predates
 * them reads a trace with them (ignoring them). */
static int write_preds(hid_t f, const dse_trace *t, uint8_t *p)
{
    if (!has_preds(t))
        return 0;
    size_t n = t->n_insts;
    for (size_t i = 0; i < n; i++) {
        p[5 * i] = t->insts[i].n_pdst;
        memcpy(p + 5 * i + 1, t->insts[i].pdst, DSE_TRACE_MAX_PREDS);
    }
    int rc = put(f, "insts/pdst", H5T_NATIVE_UINT8, n, 5, p);
    for (size_t i = 0; i < n; i++) {
        p[5 * i] = t->insts[i].n_psrc;
        memcpy(p + 5 * i + 1, t->insts[i].psrc, DSE_TRACE_MAX_PREDS);
    }
    return rc || put(f, "insts/psrc", H5T_NATIVE_UINT8, n, 5, p) ? -1 : 0;
}

static int write_insts(hid_t f, const dse_trace *t, void *buf)
{
    size_t n = t->n_insts;
    int rc = 0;
    COLUMN(buf, t, pc, uint32_t);
    rc |= put(f, "insts/pc", H5T_NATIVE_UINT32, n, 1, buf);
    COLUMN(buf, t, mask, uint32_t);
    rc |= put(f, "insts/mask", H5T_NATIVE_UINT32, n, 1, buf);
    COLUMN(buf, t, opcode, uint16_t);
    rc |= put(f, "insts/opcode", H5T_NATIVE_UINT16, n, 1, buf);
    COLUMN(buf, t, width, uint8_t);
    rc |= put(f, "insts/width", H5T_NATIVE_UINT8, n, 1, buf);
    COLUMN(buf, t, addr_mode, uint8_t);
    rc |= put(f, "insts/addr_mode", H5T_NATIVE_UINT8, n, 1, buf);
    COLUMN(buf, t, n_addr, uint32_t);
    rc |= put(f, "insts/n_addr", H5T_NATIVE_UINT32, n, 1, buf);
    uint8_t *regs = buf; /* n_dst, dst[4] as 5 columns; then the sources alike */
    for (size_t i = 0; i < n; i++) {
        regs[5 * i] = t->insts[i].n_dst;
        memcpy(regs + 5 * i + 1, t->insts[i].dst, DSE_TRACE_MAX_REGS);
    }
    rc |= put(f, "insts/dst", H5T_NATIVE_UINT8, n, 5, buf);
    for (size_t i = 0; i < n; i++) {
        regs[5 * i] = t->insts[i].n_src;
        memcpy(regs + 5 * i + 1, t->insts[i].src, DSE_TRACE_MAX_REGS);
    }
    rc |= put(f, "insts/src", H5T_NATIVE_UINT8, n, 5, buf);
    return rc || write_preds(f, t, buf) ? -1 : 0;
}

static int write_warps(hid_t f, const dse_trace *t, void *buf)
{
    int32_t *b = buf;
    size_t n = t->n_warps;
    for (size_t w = 0; w < n; w++) {
        memcpy(b + 5 * w, t->warps[w].block, 3 * sizeof *b);
        b[5 * w + 3] = t->warps[w].warp;
        b[5 * w + 4] = (int32_t)t->warps[w].n;
    }
    return put(f, "warps", H5T_NATIVE_INT32, n, 5, buf);
}

static int write_opcodes(hid_t f, const dse_trace *t)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, DSE__TRACE_OPCODE_LEN);
    int rc = put(f, "opcodes", type, t->n_opcodes, 1, t->opcodes);
    H5Tclose(type);
    return rc;
}

static int write_file(const char *path, const dse_trace *t)
{
    /* one buffer for every column: 8 bytes an instruction (its widest field, and the
     * 5 register bytes), 20 a warp (5 int32) */
    size_t bytes = t->n_insts * 8 > t->n_warps * 20 ? t->n_insts * 8 : t->n_warps * 20;
    void *buf = malloc(bytes ? bytes : 1);
    hid_t f = buf ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT) : -1;
    hid_t g = f >= 0 ? H5Gcreate2(f, "insts", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = g < 0 || write_header(f, &t->h) || write_insts(f, t, buf) || write_warps(f, t, buf) ||
             write_opcodes(f, t) || put(f, "addrs", H5T_NATIVE_UINT64, t->n_addrs, 1, t->addrs);
    if (g >= 0)
        H5Gclose(g);
    if (f >= 0 && H5Fclose(f) < 0)
        rc = -1;
    free(buf);
    return rc ? -1 : 0;
}

int dse_trace_write_h5(const dse_trace *t, const char *path, FILE *err)
{
    char partial[4200];
    if (snprintf(partial, sizeof partial, "%s.partial", path) >= (int)sizeof partial) {
        if (err)
            fprintf(err, "%s:0: output path too long\n", path);
        return -1;
    }
    int rc = -1;
    H5E_BEGIN_TRY { rc = write_file(partial, t); } H5E_END_TRY;
    if (!rc && rename(partial, path) == 0)
        return 0;
    remove(partial);
    if (err)
        fprintf(err, "%s:0: cannot write the trace's HDF5 form\n", path);
    return -1;
}

/* ---- reading it back --------------------------------------------------------------- */

/* Reads a dataset of rows x cols of type into a new buffer; rows from its shape. */
static void *get(hid_t f, const char *name, hid_t type, size_t cols, size_t *rows)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0)
        return NULL;
    hid_t space = H5Dget_space(d);
    hsize_t dims[2] = { 0, 1 };
    int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    void *buf = NULL;
    if ((rank == 1 && cols == 1) || (rank == 2 && dims[1] == cols)) {
        *rows = dims[0];
        buf = malloc((dims[0] ? dims[0] : 1) * cols * H5Tget_size(type));
        if (buf && dims[0] && H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
            free(buf);
            buf = NULL;
        }
    }
    H5Sclose(space);
    H5Dclose(d);
    return buf;
}

static int get_attr_ints(hid_t f, const char *name, int *v, hssize_t n)
{
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    if (a < 0)
        return -1;
    hid_t space = H5Aget_space(a);
    herr_t rc = H5Sget_simple_extent_npoints(space) == n ? H5Aread(a, H5T_NATIVE_INT, v) : -1;
    H5Sclose(space);
    H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

static int read_header(hid_t f, dse_trace_header *h)
{
    char fmt[64] = "";
    hid_t a = H5Aopen(f, "format", H5P_DEFAULT), type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, sizeof fmt);
    herr_t rc = a < 0 ? -1 : H5Aread(a, type, fmt);
    if (a >= 0)
        H5Aclose(a);
    a = H5Aopen(f, "kernel_name", H5P_DEFAULT);
    H5Tset_size(type, sizeof h->kernel_name);
    if (a >= 0) {
        H5Aread(a, type, h->kernel_name);
        H5Aclose(a);
    }
    H5Tclose(type);
    h->kernel_name[sizeof h->kernel_name - 1] = '\0';
    if (rc < 0 || strcmp(fmt, format_name))
        return -1;
    if (get_attr_ints(f, "grid", h->grid, 3) || get_attr_ints(f, "block", h->block, 3) ||
        get_attr_ints(f, "kernel_id", &h->kernel_id, 1) ||
        get_attr_ints(f, "shmem", &h->shmem, 1) || get_attr_ints(f, "nregs", &h->nregs, 1) ||
        get_attr_ints(f, "binary_version", &h->binary_version, 1) ||
        get_attr_ints(f, "trace_version", &h->trace_version, 1) ||
        get_attr_ints(f, "lineinfo", &h->lineinfo, 1))
        return -1;
    /* The same bounds the text reader enforces, so a damaged file cannot overflow the
     * thread and block counts taken from it. */
    return dse__trace_dims_valid(h) && h->nregs >= 1 && h->nregs <= 255 && h->shmem >= 0 ? 0 : -1;
}

/* One predicate column (count, then 4 numbers) into the instructions, if the file has
 * it (files written before predicates existed have neither); -1 if damaged. */
static int fill_pred_column(dse_trace *t, hid_t f, const char *name, bool dst)
{
    if (H5Lexists(f, name, H5P_DEFAULT) <= 0)
        return 0;
    size_t m = 0;
    uint8_t *p = get(f, name, H5T_NATIVE_UINT8, 5, &m);
    int rc = p && m == t->n_insts ? 0 : -1;
    for (size_t i = 0; !rc && i < m; i++) {
        dse_trace_inst *in = &t->insts[i];
        uint8_t *n = dst ? &in->n_pdst : &in->n_psrc, *v = dst ? in->pdst : in->psrc;
        *n = p[5 * i];
        memcpy(v, p + 5 * i + 1, DSE_TRACE_MAX_PREDS);
        rc = *n > DSE_TRACE_MAX_PREDS ? -1 : 0;
        for (int k = 0; k < *n && !rc; k++)
            rc = v[k] > DSE_TRACE_MAX_PRED ? -1 : 0;
    }
    free(p);
    return rc;
}

static int fill_preds(dse_trace *t, hid_t f)
{
    return H5Lexists(f, "insts", H5P_DEFAULT) <= 0 || fill_pred_column(t, f, "insts/pdst", true) ||
                   fill_pred_column(t, f, "insts/psrc", false)
               ? -1
               : 0;
}

/* Fills the instructions from the columns; every index is checked against the tables it
 * points into, so a damaged file is refused rather than read out of bounds. */
static int fill_insts(dse_trace *t, hid_t f)
{
    size_t n = 0, m;
    uint32_t *pc = get(f, "insts/pc", H5T_NATIVE_UINT32, 1, &n), *mask = NULL, *n_addr = NULL;
    uint16_t *op = NULL;
    uint8_t *width = NULL, *mode = NULL, *dst = NULL, *src = NULL;
    int rc = -1;
    if (!pc || !(mask = get(f, "insts/mask", H5T_NATIVE_UINT32, 1, &m)) || m != n ||
        !(op = get(f, "insts/opcode", H5T_NATIVE_UINT16, 1, &m)) || m != n ||
        !(width = get(f, "insts/width", H5T_NATIVE_UINT8, 1, &m)) || m != n ||
        !(mode = get(f, "insts/addr_mode", H5T_NATIVE_UINT8, 1, &m)) || m != n ||
        !(n_addr = get(f, "insts/n_addr", H5T_NATIVE_UINT32, 1, &m)) || m != n ||
        !(dst = get(f, "insts/dst", H5T_NATIVE_UINT8, 5, &m)) || m != n ||
        !(src = get(f, "insts/src", H5T_NATIVE_UINT8, 5, &m)) || m != n ||
        !(t->insts = calloc(n ? n : 1, sizeof *t->insts)))
        goto done;
    uint64_t first = 0;
    for (size_t i = 0; i < n; i++) {
        dse_trace_inst *in = &t->insts[i];
        *in = (dse_trace_inst){ .pc = pc[i], .mask = mask[i], .opcode = op[i], .width = width[i],
                                .addr_mode = mode[i], .n_addr = n_addr[i], .addr_first = first,
                                .n_dst = dst[5 * i], .n_src = src[5 * i] };
        memcpy(in->dst, dst + 5 * i + 1, DSE_TRACE_MAX_REGS);
        memcpy(in->src, src + 5 * i + 1, DSE_TRACE_MAX_REGS);
        first += in->n_addr;
        if (in->opcode >= t->n_opcodes || in->n_dst > DSE_TRACE_MAX_REGS ||
            in->n_src > DSE_TRACE_MAX_REGS || in->addr_mode > DSE_TRACE_ADDR_BASE_DELTA ||
            first > t->n_addrs)
            goto done;
    }
    t->n_insts = t->cap_insts = n;
    rc = fill_preds(t, f);
done:
    free(pc), free(mask), free(op), free(width), free(mode), free(n_addr), free(dst), free(src);
    return rc;
}

static int fill_warps(dse_trace *t, hid_t f)
{
    size_t n = 0;
    int32_t *b = get(f, "warps", H5T_NATIVE_INT32, 5, &n);
    if (!b || !(t->warps = calloc(n ? n : 1, sizeof *t->warps))) {
        free(b);
        return -1;
    }
    uint64_t first = 0;
    for (size_t w = 0; w < n; w++) {
        dse_trace_warp *wp = &t->warps[w];
        memcpy(wp->block, b + 5 * w, 3 * sizeof *b);
        wp->warp = b[5 * w + 3];
        wp->n = (uint32_t)b[5 * w + 4];
        wp->first = first;
        first += wp->n;
    }
    free(b);
    t->n_warps = t->cap_warps = n;
    return first == t->n_insts ? 0 : -1;
}

static int fill(dse_trace *t, hid_t f)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, DSE__TRACE_OPCODE_LEN);
    t->opcodes = get(f, "opcodes", type, 1, &t->n_opcodes);
    H5Tclose(type);
    if (!t->opcodes)
        return -1;
    for (size_t i = 0; i < t->n_opcodes; i++)
        t->opcodes[i][DSE__TRACE_OPCODE_LEN - 1] = '\0';
    t->cap_opcodes = t->n_opcodes;
    t->addrs = get(f, "addrs", H5T_NATIVE_UINT64, 1, &t->n_addrs);
    t->cap_addrs = t->n_addrs;
    return !t->addrs || read_header(f, &t->h) || fill_insts(t, f) || fill_warps(t, f) ? -1 : 0;
}

dse_trace *dse_trace_read_h5(const char *path, FILE *err)
{
    dse_trace *t = calloc(1, sizeof *t);
    int rc = -1;
    H5E_BEGIN_TRY {
        hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        if (f >= 0 && t) {
            rc = fill(t, f);
            H5Fclose(f);
        }
    } H5E_END_TRY;
    if (!rc)
        return t;
    if (err)
        fprintf(err, "%s:0: not a trace written by rfdse trace import (or a damaged one)\n", path);
    dse_trace_free(t);
    return NULL;
}
