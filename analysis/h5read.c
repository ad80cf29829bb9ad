/* Small HDF5 readers: each has one exit, handles start invalid and only opened ones are
 * closed (HDF5 src/H5Pdxpl.c style). */
#include <stdlib.h>
#include <string.h>

#include "ana_internal.h"

hid_t ana__h5_open(const char *path, int writable)
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

int ana__h5_exists(hid_t file, const char *path)
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

int ana__h5_shape(hid_t file, const char *path, int *rank, hsize_t dims[8])
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

int ana__h5_read_double(hid_t f, const char *p, double *b) { return read_as(f, p, H5T_NATIVE_DOUBLE, b); }
int ana__h5_read_int(hid_t f, const char *p, int *b) { return read_as(f, p, H5T_NATIVE_INT, b); }
int ana__h5_read_u8(hid_t f, const char *p, uint8_t *b) { return read_as(f, p, H5T_NATIVE_UINT8, b); }

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

int ana__h5_read_names(hid_t file, const char *path, ana_name *names, int n)
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

int ana__h5_attr_string(hid_t file, const char *obj_path, const char *name, char *buf,
                        size_t size)
{
    int rc = ANA_ENOTRFDSE;
    hid_t a = H5I_INVALID_HID, t = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    H5E_BEGIN_TRY
    {
        if (H5Aexists_by_name(file, obj_path, name, H5P_DEFAULT) <= 0)
            goto done;
        rc = ANA_ECORRUPT;
        if ((a = H5Aopen_by_name(file, obj_path, name, H5P_DEFAULT, H5P_DEFAULT)) < 0)
            goto done;
        if ((t = H5Aget_type(a)) < 0 || (sp = H5Aget_space(a)) < 0)
            goto done;
        if (H5Sget_simple_extent_npoints(sp) != 1)
            goto done;
        rc = read_strings(a, t, 1, buf, size, size, aread);
    done:
        if (sp >= 0)
            H5Sclose(sp);
        if (t >= 0)
            H5Tclose(t);
        if (a >= 0)
            H5Aclose(a);
    }
    H5E_END_TRY;
    return rc;
}

int ana__h5_attr_double(hid_t file, const char *obj_path, const char *name, double *v)
{
    int rc = ANA_ENOTRFDSE;
    hid_t a = H5I_INVALID_HID, t = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    H5E_BEGIN_TRY
    {
        if (H5Aexists_by_name(file, obj_path, name, H5P_DEFAULT) <= 0)
            goto done;
        rc = ANA_ECORRUPT;
        if ((a = H5Aopen_by_name(file, obj_path, name, H5P_DEFAULT, H5P_DEFAULT)) < 0)
            goto done;
        if ((t = H5Aget_type(a)) < 0 || (sp = H5Aget_space(a)) < 0)
            goto done;
        H5T_class_t c = H5Tget_class(t);
        if ((c != H5T_FLOAT && c != H5T_INTEGER) || H5Sget_simple_extent_npoints(sp) != 1)
            goto done;
        if (H5Aread(a, H5T_NATIVE_DOUBLE, v) < 0)
            goto done;
        rc = ANA_EOK;
    done:
        if (sp >= 0)
            H5Sclose(sp);
        if (t >= 0)
            H5Tclose(t);
        if (a >= 0)
            H5Aclose(a);
    }
    H5E_END_TRY;
    return rc;
}
