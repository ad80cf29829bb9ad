/* Dimension scales: the datasets of /axes become HDF5 dimension scales attached to
 * every dimension of every dataset, so xarray (engine="h5netcdf") and netCDF tools open
 * each group of the results file with named dimensions (chip, technique, benchmark,
 * year, sm, sub_bank).  The netCDF data model looks a dimension up in the dataset's own
 * group and its ancestors, and takes coordinate values from there, so each group also
 * links the axes it uses (/results/technique is /axes/technique: one object, two
 * names), and `xr.open_dataset(f, engine="h5netcdf", group="results")` is labelled in
 * one line.  Built once, by rank 0, in the in-memory file (results_file.c): the H5DS
 * calls write metadata and are not for parallel HDF5. */
#include <hdf5_hl.h>
#include <stdlib.h>
#include <string.h>

#include "ana_h5.h"
#include "results_internal.h"

/* An index axis 0..n-1 (sm, sub_bank): the other axes hold their own values. */
static int index_axis(hid_t file, ana_dim k, int n)
{
    hsize_t dim = (hsize_t)n;
    int *v = malloc(sizeof(int) * (size_t)(n ? n : 1));
    hid_t space = H5Screate_simple(1, &dim, NULL);
    hid_t ds = v ? H5Dcreate2(file, ana_dim_path(k), H5T_STD_I32LE, space, H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT) : H5I_INVALID_HID;
    for (int i = 0; v && i < n; i++)
        v[i] = i;
    int rc = ds < 0 || H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ||
             ana_h5_set_str(ds, "description", ana_dim_doc(k)) ||
             ana_h5_set_str(ds, "units", ana_dim_units(k));
    if (ds >= 0)
        H5Dclose(ds);
    H5Sclose(space);
    free(v);
    return rc ? -1 : 0;
}

/* Makes the dataset at `path` the scale `name`; string axes get netCDF's _Encoding so
 * xarray decodes them to text instead of bytes. */
static int make_scale(hid_t file, const char *path, const char *name)
{
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    if (ds < 0)
        return -1;
    hid_t type = H5Dget_type(ds);
    int rc = H5DSset_scale(ds, name) < 0 ||
             (H5Tget_class(type) == H5T_STRING && ana_h5_set_str(ds, "_Encoding", "utf-8"));
    H5Tclose(type);
    H5Dclose(ds);
    return rc ? -1 : 0;
}

/* Links dimension k's coordinates (/axes/NAME) as GROUP/NAME unless the group has it
 * already. */
static int link_axis(hid_t file, const char *group, ana_dim k)
{
    char to[128];
    snprintf(to, sizeof to, "%s/%s", group, ana_dim_name(k));
    if (H5Lexists(file, to, H5P_DEFAULT) > 0)
        return 0;
    return H5Lcreate_hard(file, ana_dim_path(k), file, to, H5P_DEFAULT, H5P_DEFAULT) < 0 ? -1 : 0;
}

/* The group part of a dataset path ("/results/ipc" -> "/results"). */
static void group_of(const char *path, char *buf, size_t n)
{
    snprintf(buf, n, "%s", path);
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
}

static int attach_all(hid_t file, const dse_dims *d)
{
    for (int i = 0; i < DSE__DS_COUNT; i++) {
        if (dse__ds_is_trace(i) && d->n_trace == 0)
            continue;
        ana_dim dim[5];
        int n = ana_shape_dims(dse__ds_specs[i].shape, dim);
        unsigned lead = d->n_points > 0; /* [point] first: results_knobs.c attaches it */
        hid_t ds = H5Dopen2(file, dse__ds_specs[i].path, H5P_DEFAULT);
        char group[64];
        group_of(dse__ds_specs[i].path, group, sizeof group);
        int rc = ds < 0;
        for (int k = 0; k < n && !rc; k++) {
            /* the traced chips' axis lives in /chips/trace itself */
            rc = dim[k] != ANA_DIM_trace && link_axis(file, group, dim[k]);
            hid_t scale = rc ? H5I_INVALID_HID : H5Dopen2(file, ana_dim_path(dim[k]), H5P_DEFAULT);
            rc = scale < 0 || H5DSattach_scale(ds, scale, (unsigned)k + lead) < 0;
            if (scale >= 0)
                H5Dclose(scale);
        }
        if (ds >= 0)
            H5Dclose(ds);
        if (rc)
            return -1;
    }
    return 0;
}

int dse__results_scales(hid_t file, const dse_dims *d)
{
    static const ana_dim axes[] = { ANA_DIM_chip, ANA_DIM_technique, ANA_DIM_benchmark,
                                    ANA_DIM_year, ANA_DIM_sm, ANA_DIM_sub_bank };
    if (index_axis(file, ANA_DIM_sm, d->n_sms) || index_axis(file, ANA_DIM_sub_bank, d->n_subs))
        return -1;
    for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++)
        if (make_scale(file, ana_dim_path(axes[i]), ana_dim_name(axes[i])))
            return -1;
    /* The traced chips' own axis, named "chip" inside /chips/trace (its dimension there). */
    if (d->n_trace > 0 && make_scale(file, ana_dim_path(ANA_DIM_trace), "chip"))
        return -1;
    return attach_all(file, d);
}
