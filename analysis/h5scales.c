/* Dimension scales for /analysis: each view group holds its own coordinates
 * (technique, year or benchmark, bin, edge) as HDF5 dimension scales attached to every
 * statistic, so `xr.open_dataset(f, engine="h5netcdf", group="analysis/ipc")` gives
 * named, labelled dimensions (the same convention as /results, dse/results/results_scales.c). */
#include <hdf5_hl.h>
#include <stdlib.h>
#include <string.h>

#include "ana_internal.h"

static int names_scale(hid_t g, const char *name, const ana_name *v, int n)
{
    hsize_t dim = (hsize_t)n;
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate_simple(1, &dim, NULL);
    H5Tset_size(t, ANA_NAME_MAX);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    /* Zero-padded copies: the bytes after a name's NUL are written too. */
    ana_name *z = calloc((size_t)(n ? n : 1), sizeof *z);
    for (int i = 0; z && i < n; i++)
        strncpy(z[i], v[i], ANA_NAME_MAX - 1);
    hid_t d = z ? H5Dcreate2(g, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = d < 0 || H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, z) < 0 ||
             ana_h5_set_str(d, "_Encoding", "utf-8") || H5DSset_scale(d, name) < 0;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(sp);
    H5Tclose(t);
    free(z);
    return rc ? ANA_EIO : ANA_EOK;
}

static int numbers_scale(hid_t g, const char *name, hid_t type, const void *v, int n,
                         const char *doc, const char *units)
{
    hsize_t dim = (hsize_t)n;
    hid_t d = H5I_INVALID_HID;
    int rc = ana_h5_write(g, name, type, 1, &dim, v, doc, units) ||
             (d = H5Dopen2(g, name, H5P_DEFAULT)) < 0 || H5DSset_scale(d, name) < 0;
    if (d >= 0)
        H5Dclose(d);
    return rc ? ANA_EIO : ANA_EOK;
}

int ana__scales_write(hid_t g, const ana_results *r, const ana_view *v)
{
    int *idx = malloc(sizeof(int) * (size_t)(v->n_bins + 1));
    for (int i = 0; idx && i <= v->n_bins; i++)
        idx[i] = i;
    int rc = idx ? names_scale(g, "technique", r->tech, v->n_tech) : ANA_EIO;
    if (!rc && v->x_axis && !strcmp(v->x_axis, "year"))
        rc = numbers_scale(g, "year", H5T_NATIVE_DOUBLE, r->year, v->n_x, "aging time points",
                           "years");
    else if (!rc && v->x_axis)
        rc = names_scale(g, "benchmark", r->bench, v->n_x);
    if (!rc)
        rc = numbers_scale(g, "bin", H5T_NATIVE_INT, idx, v->n_bins, "histogram bin index",
                           "index") ||
             numbers_scale(g, "edge", H5T_NATIVE_INT, idx, v->n_bins + 1,
                           "histogram bin edge index", "index");
    free(idx);
    return rc ? ANA_EIO : ANA_EOK;
}

int ana__scales_attach(hid_t g, const char *dataset, const char *const *dims, int n)
{
    hid_t d = H5Dopen2(g, dataset, H5P_DEFAULT);
    int rc = d < 0;
    for (int k = 0; k < n && !rc; k++) {
        hid_t s = H5Dopen2(g, dims[k], H5P_DEFAULT);
        rc = s < 0 || H5DSattach_scale(d, s, (unsigned)k) < 0;
        if (s >= 0)
            H5Dclose(s);
    }
    if (d >= 0)
        H5Dclose(d);
    return rc ? ANA_EIO : ANA_EOK;
}
