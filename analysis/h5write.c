/* Small HDF5 writers for /analysis: one exit each, handles start invalid. */
#include <string.h>

#include "ana_internal.h"

int ana__h5_set_string_attr(hid_t obj, const char *name, const char *value)
{
    int rc = ANA_EIO;
    hid_t t = H5I_INVALID_HID, sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    /* Fixed-length, null-padded, like every string the sweep driver writes (parallel HDF5
     * cannot write variable-length data, and one convention is easier on readers). */
    size_t len = strlen(value);
    if ((t = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(t, len ? len : 1) < 0 ||
        H5Tset_strpad(t, H5T_STR_NULLPAD) < 0)
        goto done;
    if ((sp = H5Screate(H5S_SCALAR)) < 0)
        goto done;
    if ((a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        goto done;
    if (H5Awrite(a, t, len ? value : "") < 0)
        goto done;
    rc = ANA_EOK;
done:
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

int ana__h5_set_double_attr(hid_t obj, const char *name, double value)
{
    int rc = ANA_EIO;
    hid_t sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    if ((sp = H5Screate(H5S_SCALAR)) < 0)
        goto done;
    if ((a = H5Acreate2(obj, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        goto done;
    if (H5Awrite(a, H5T_NATIVE_DOUBLE, &value) < 0)
        goto done;
    rc = ANA_EOK;
done:
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
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

int ana__h5_write(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims,
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
    if (ana__h5_set_string_attr(d, "description", description))
        goto done;
    /* units may be "normalised_to=X" to write that attribute instead. */
    if (!strncmp(units, "normalised_to=", 14)) {
        if (ana__h5_set_string_attr(d, "normalised_to", units + 14))
            goto done;
    } else if (ana__h5_set_string_attr(d, "units", units))
        goto done;
    rc = ANA_EOK;
done:
    if (d >= 0)
        H5Dclose(d);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}
