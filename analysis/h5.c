/* rfdse's HDF5 helper layer (ana_h5.h): reading, writing and the writer's parallel I/O
 * settings, for the results file's writer (dse/) and readers (analysis/) alike. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "ana_h5.h"
#include "out.h"

/* ---- reading ----------------------------------------------------------------------- */

hid_t ana_h5_open(const char *path, int writable)
{
    hid_t f = H5I_INVALID_HID;
    /* A probe first: H5Fopen on a non-HDF5 file is an expected outcome, not an error to
     * dump a stack for. */
    H5E_BEGIN_TRY
    {
        if (H5Fis_hdf5(path) > 0)
            f = H5Fopen(path, writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT);
    }
    H5E_END_TRY;
    return f;
}

int ana_h5_exists(hid_t file, const char *path)
{
    /* H5Lexists needs every parent to exist: walk the path one component at a time. */
    char buf[256];
    if (strlen(path) >= sizeof buf)
        return 0;
    strcpy(buf, path);
    int ok = 1;
    H5E_BEGIN_TRY
    {
        for (char *p = strchr(buf + 1, '/');; p = strchr(p + 1, '/')) {
            if (p)
                *p = '\0';
            if (H5Lexists(file, buf, H5P_DEFAULT) <= 0) {
                ok = 0;
                break;
            }
            if (!p)
                break;
            *p = '/';
        }
        if (ok)
            ok = H5Oexists_by_name(file, path, H5P_DEFAULT) > 0;
    }
    H5E_END_TRY;
    return ok;
}

int ana_h5_shape(hid_t file, const char *path, int *rank, hsize_t dims[8])
{
    int rc = ANA_ECORRUPT;
    hid_t d = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    H5E_BEGIN_TRY
    {
        if ((d = H5Dopen2(file, path, H5P_DEFAULT)) < 0)
            goto done;
        if ((sp = H5Dget_space(d)) < 0)
            goto done;
        int r = H5Sget_simple_extent_ndims(sp);
        if (r < 0 || r > 8)
            goto done;
        if (H5Sget_simple_extent_dims(sp, dims, NULL) < 0)
            goto done;
        *rank = r;
        rc = ANA_EOK;
    done:
        if (sp >= 0)
            H5Sclose(sp);
        if (d >= 0)
            H5Dclose(d);
    }
    H5E_END_TRY;
    return rc;
}

static int read_as(hid_t file, const char *path, hid_t memtype, void *buf)
{
    int rc = ANA_ECORRUPT;
    hid_t d = H5I_INVALID_HID;
    H5E_BEGIN_TRY
    {
        if ((d = H5Dopen2(file, path, H5P_DEFAULT)) < 0)
            goto done;
        if (H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
            goto done;
        rc = ANA_EOK;
    done:
        if (d >= 0)
            H5Dclose(d);
    }
    H5E_END_TRY;
    return rc;
}

int ana_h5_read_double(hid_t f, const char *p, double *b) { return read_as(f, p, H5T_NATIVE_DOUBLE, b); }
int ana_h5_read_int(hid_t f, const char *p, int *b) { return read_as(f, p, H5T_NATIVE_INT, b); }
int ana_h5_read_u8(hid_t f, const char *p, uint8_t *b) { return read_as(f, p, H5T_NATIVE_UINT8, b); }

/* Copies n strings of a string-typed object (dataset or attribute) into out[i*stride],
 * each truncated to size - 1.  read(obj, memtype, buf) does the HDF5 read. */
static int read_strings(hid_t obj, hid_t ftype, size_t n, char *out, size_t stride, size_t size,
                        herr_t (*read)(hid_t, hid_t, void *))
{
    int rc = ANA_ECORRUPT;
    hid_t mt = H5I_INVALID_HID, space = H5I_INVALID_HID;
    char *fixed = NULL;
    char **vl = NULL;
    if (H5Tget_class(ftype) != H5T_STRING)
        goto done;
    if ((mt = H5Tcopy(H5T_C_S1)) < 0)
        goto done;
    htri_t is_vl = H5Tis_variable_str(ftype);
    if (is_vl < 0)
        goto done;
    if (is_vl) {
        if (H5Tset_size(mt, H5T_VARIABLE) < 0 || !(vl = calloc(n ? n : 1, sizeof *vl)))
            goto done;
        if (read(obj, mt, vl) < 0)
            goto done;
        for (size_t i = 0; i < n; i++)
            snprintf(out + i * stride, size, "%s", vl[i] ? vl[i] : "");
        /* Reclaim the strings HDF5 allocated, through the same memory type. */
        hsize_t dim = n;
        if ((space = H5Screate_simple(1, &dim, NULL)) >= 0)
            H5Dvlen_reclaim(mt, space, H5P_DEFAULT, vl);
    } else {
        size_t len = H5Tget_size(ftype);
        /* One extra byte so a string that fills its field is still terminated. */
        if (H5Tset_size(mt, len + 1) < 0 || H5Tset_strpad(mt, H5T_STR_NULLTERM) < 0)
            goto done;
        if (!(fixed = calloc(n ? n : 1, len + 1)))
            goto done;
        if (read(obj, mt, fixed) < 0)
            goto done;
        for (size_t i = 0; i < n; i++)
            snprintf(out + i * stride, size, "%s", fixed + i * (len + 1));
    }
    rc = ANA_EOK;
done:
    free(fixed);
    free(vl);
    if (space >= 0)
        H5Sclose(space);
    if (mt >= 0)
        H5Tclose(mt);
    return rc;
}

static herr_t dread(hid_t d, hid_t mt, void *buf) { return H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf); }
static herr_t aread(hid_t a, hid_t mt, void *buf) { return H5Aread(a, mt, buf); }

int ana_h5_read_names(hid_t file, const char *path, ana_name *names, int n)
{
    int rc = ANA_ECORRUPT;
    hid_t d = H5I_INVALID_HID, t = H5I_INVALID_HID;
    H5E_BEGIN_TRY
    {
        if ((d = H5Dopen2(file, path, H5P_DEFAULT)) < 0 || (t = H5Dget_type(d)) < 0)
            goto done;
        rc = read_strings(d, t, (size_t)n, names[0], sizeof(ana_name), sizeof(ana_name), dread);
    done:
        if (t >= 0)
            H5Tclose(t);
        if (d >= 0)
            H5Dclose(d);
    }
    H5E_END_TRY;
    return rc;
}

/* Opens the one-value attribute `name` of obj_path, its type in *t: ANA_EOK, or
 * ANA_ENOTRFDSE if it is absent, ANA_ECORRUPT if it cannot be opened or holds more than
 * one value (then nothing is left open).  Call inside H5E_BEGIN_TRY; close_scalar. */
static int open_scalar(hid_t file, const char *obj_path, const char *name, hid_t *a, hid_t *t)
{
    *a = *t = H5I_INVALID_HID;
    if (H5Aexists_by_name(file, obj_path, name, H5P_DEFAULT) <= 0)
        return ANA_ENOTRFDSE;
    hid_t sp = H5I_INVALID_HID;
    bool ok = (*a = H5Aopen_by_name(file, obj_path, name, H5P_DEFAULT, H5P_DEFAULT)) >= 0 &&
              (*t = H5Aget_type(*a)) >= 0 && (sp = H5Aget_space(*a)) >= 0 &&
              H5Sget_simple_extent_npoints(sp) == 1;
    if (sp >= 0)
        H5Sclose(sp);
    if (!ok) {
        if (*t >= 0)
            H5Tclose(*t);
        if (*a >= 0)
            H5Aclose(*a);
        return ANA_ECORRUPT;
    }
    return ANA_EOK;
}

static void close_scalar(hid_t a, hid_t t)
{
    H5Tclose(t);
    H5Aclose(a);
}

int ana_h5_attr_string(hid_t file, const char *obj_path, const char *name, char *buf,
                        size_t size)
{
    int rc;
    hid_t a, t;
    H5E_BEGIN_TRY
    {
        if ((rc = open_scalar(file, obj_path, name, &a, &t)) == ANA_EOK) {
            rc = read_strings(a, t, 1, buf, size, size, aread);
            close_scalar(a, t);
        }
    }
    H5E_END_TRY;
    return rc;
}

int ana_h5_attr_double(hid_t file, const char *obj_path, const char *name, double *v)
{
    int rc;
    hid_t a, t;
    H5E_BEGIN_TRY
    {
        if ((rc = open_scalar(file, obj_path, name, &a, &t)) == ANA_EOK) {
            H5T_class_t c = H5Tget_class(t);
            rc = (c == H5T_FLOAT || c == H5T_INTEGER) && H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0
                     ? ANA_EOK
                     : ANA_ECORRUPT;
            close_scalar(a, t);
        }
    }
    H5E_END_TRY;
    return rc;
}

/* A variable-length string attribute's text, copied into memory of our own. */
static char *read_vl_str(hid_t attr, hid_t mem)
{
    char *vl = NULL, *copy = NULL;
    if (H5Aread(attr, mem, &vl) < 0 || !vl)
        return NULL;
    copy = strdup(vl);
    H5free_memory(vl);
    return copy;
}

char *ana_h5_attr_dup(hid_t obj, const char *name)
{
    char *buf = NULL;
    hid_t attr = H5I_INVALID_HID, type = H5I_INVALID_HID, mem = H5I_INVALID_HID;
    if (H5Aexists(obj, name) <= 0)
        goto done;
    attr = H5Aopen(obj, name, H5P_DEFAULT);
    type = attr >= 0 ? H5Aget_type(attr) : H5I_INVALID_HID;
    if (type < 0 || H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) < 0)
        goto done;
    mem = H5Tcopy(type);
    if (H5Tis_variable_str(type)) {
        buf = read_vl_str(attr, mem);
        goto done;
    }
    size_t n = H5Tget_size(type);
    buf = calloc(1, n + 1);
    if (!buf || H5Aread(attr, mem, buf) < 0) {
        free(buf);
        buf = NULL;
    }
done:
    if (mem >= 0)
        H5Tclose(mem);
    if (type >= 0)
        H5Tclose(type);
    if (attr >= 0)
        H5Aclose(attr);
    return buf;
}

/* ---- writing ----------------------------------------------------------------------- */

static int write_attr(hid_t obj, const char *name, hid_t type, const void *value)
{
    int rc = -1;
    hid_t space = H5Screate(H5S_SCALAR), attr = H5I_INVALID_HID;
    if (space < 0)
        goto done;
    if (H5Aexists(obj, name) > 0)
        H5Adelete(obj, name);
    attr = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    if (attr < 0 || H5Awrite(attr, type, value) < 0)
        goto done;
    rc = 0;
done:
    if (attr >= 0)
        H5Aclose(attr);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* An attribute lives in its object's header, at most 64 KiB in the file format every
 * HDF5 reads (dense storage needs the 1.8 format, whose file image taken before close
 * does not open).  A longer string is stored as a variable-length string, whose text
 * goes to the global heap: sweep_config of a sweep of two dozen techniques. */
#define ATTR_FIXED_MAX 60000

int ana_h5_set_str(hid_t obj, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    if (type < 0)
        return -1;
    size_t len = strlen(value) + 1;
    bool vl = len > ATTR_FIXED_MAX;
    H5Tset_size(type, vl ? H5T_VARIABLE : len);
    H5Tset_strpad(type, H5T_STR_NULLTERM);
    int rc = write_attr(obj, name, type, vl ? (const void *)&value : value);
    H5Tclose(type);
    return rc;
}

int ana_h5_set_double(hid_t obj, const char *name, double v)
{
    return write_attr(obj, name, H5T_NATIVE_DOUBLE, &v);
}

int ana_h5_set_int(hid_t obj, const char *name, int v)
{
    return write_attr(obj, name, H5T_NATIVE_INT, &v);
}

int ana_h5_set_u64(hid_t obj, const char *name, unsigned long long v)
{
    return write_attr(obj, name, H5T_NATIVE_ULLONG, &v);
}

/* The file type for a native memory type: little-endian IEEE / unsigned 64. */
static hid_t file_type(hid_t mem)
{
    if (H5Tequal(mem, H5T_NATIVE_DOUBLE) > 0)
        return H5T_IEEE_F64LE;
    if (H5Tequal(mem, H5T_NATIVE_UINT64) > 0)
        return H5T_STD_U64LE;
    return mem;
}

int ana_h5_write(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims,
                  const void *buf, const char *description, const char *units)
{
    int rc = ANA_EIO;
    hid_t sp = H5I_INVALID_HID, d = H5I_INVALID_HID;
    if ((sp = H5Screate_simple(rank, dims, NULL)) < 0)
        goto done;
    if ((d = H5Dcreate2(loc, name, file_type(type), sp, H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT)) < 0)
        goto done;
    if (H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        goto done;
    if (ana_h5_set_str(d, "description", description))
        goto done;
    /* units may be "normalised_to=X" to write that attribute instead. */
    if (!strncmp(units, "normalised_to=", 14)) {
        if (ana_h5_set_str(d, "normalised_to", units + 14))
            goto done;
    } else if (ana_h5_set_str(d, "units", units))
        goto done;
    rc = ANA_EOK;
done:
    if (d >= 0)
        H5Dclose(d);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

/* ---- parallel I/O ------------------------------------------------------------------ */

hid_t ana_h5_fapl_mpio(MPI_Comm comm)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0)
        return fapl;
    /* ROMIO (dse/cli/cmd_run.c): no data sieving of writes, whose read-modify-write of
     * a block around each rank's rows relies on fcntl locks of the results file, which
     * not every shared file system honours; our rows are written as they are. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_write", "disable");
    H5Pset_fapl_mpio(fapl, comm, info);
    MPI_Info_free(&info);
    H5Pset_all_coll_metadata_ops(fapl, true);
    H5Pset_coll_metadata_write(fapl, true);
    return fapl;
}

hid_t ana_h5_dxpl_independent(void)
{
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (dxpl >= 0)
        H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_INDEPENDENT);
    return dxpl;
}

double ana_h5_free_bytes(const char *path)
{
    char dir[OUT_PATH_MAX + 1];
    out_dir_of(path, dir, sizeof dir);
    struct statvfs st;
    return statvfs(dir, &st) == 0 ? (double)st.f_bavail * (double)st.f_frsize : -1.0;
}

hid_t ana_h5_str_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, ANA_H5_STR_LEN);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    return t;
}
