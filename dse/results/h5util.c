/* Small HDF5 helpers: attributes, property lists, string types. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "h5util.h"
#include "out.h"

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

int dse__h5_attr_str(hid_t obj, const char *name, const char *value)
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

int dse__h5_attr_double(hid_t obj, const char *name, double v)
{
    return write_attr(obj, name, H5T_NATIVE_DOUBLE, &v);
}

int dse__h5_attr_int(hid_t obj, const char *name, int v)
{
    return write_attr(obj, name, H5T_NATIVE_INT, &v);
}

int dse__h5_attr_u64(hid_t obj, const char *name, unsigned long long v)
{
    return write_attr(obj, name, H5T_NATIVE_ULLONG, &v);
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

char *dse__h5_attr_read_str(hid_t obj, const char *name)
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

hid_t dse__h5_fapl_mpio(MPI_Comm comm)
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

hid_t dse__h5_dxpl_independent(void)
{
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (dxpl >= 0)
        H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_INDEPENDENT);
    return dxpl;
}

double dse__h5_free_bytes(const char *path)
{
    char dir[OUT_PATH_MAX + 1];
    out_dir_of(path, dir, sizeof dir);
    struct statvfs st;
    return statvfs(dir, &st) == 0 ? (double)st.f_bavail * (double)st.f_frsize : -1.0;
}

hid_t dse__h5_str_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, DSE__H5_STR_LEN);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    return t;
}
