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

/* The axis of each dimension of a dataset of this shape. */
static int axes_of(dse__shape shape, const char **names)
{
    static const char *const by_shape[][5] = {
        [DSE__SHAPE_CTY] = { "chip", "technique", "year" },
        [DSE__SHAPE_CTB] = { "chip", "technique", "benchmark" },
        [DSE__SHAPE_CS] = { "chip", "sm" },
        [DSE__SHAPE_C] = { "chip" },
        [DSE__SHAPE_CT] = { "chip", "technique" },
        [DSE__SHAPE_TTYS] = { "trace", "technique", "year", "sub_bank" },
        [DSE__SHAPE_TTBYS] = { "trace", "technique", "benchmark", "year", "sub_bank" },
    };
    int n = 0;
    while (n < 5 && by_shape[shape][n])
        names[n] = by_shape[shape][n], n++;
    return n;
}

/* An index axis 0..n-1 (sm, sub_bank): the other axes hold their own values. */
static int index_axis(hid_t file, const char *path, int n, const char *desc)
{
    hsize_t dim = (hsize_t)n;
    int *v = malloc(sizeof(int) * (size_t)(n ? n : 1));
    hid_t space = H5Screate_simple(1, &dim, NULL);
    hid_t ds = v ? H5Dcreate2(file, path, H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT,
                              H5P_DEFAULT) : H5I_INVALID_HID;
    for (int i = 0; v && i < n; i++)
        v[i] = i;
    int rc = ds < 0 || H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ||
             ana_h5_set_str(ds, "description", desc) || ana_h5_set_str(ds, "units", "index");
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

/* Links /axes/NAME as GROUP/NAME unless the group has it already. */
static int link_axis(hid_t file, const char *group, const char *name)
{
    char from[64], to[128];
    snprintf(from, sizeof from, "/axes/%s", name);
    snprintf(to, sizeof to, "%s/%s", group, name);
    if (H5Lexists(file, to, H5P_DEFAULT) > 0)
        return 0;
    return H5Lcreate_hard(file, from, file, to, H5P_DEFAULT, H5P_DEFAULT) < 0 ? -1 : 0;
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
        const char *names[5];
        int n = axes_of(dse__ds_specs[i].shape, names);
        unsigned lead = d->n_points > 0; /* [point] first: results_knobs.c attaches it */
        hid_t ds = H5Dopen2(file, dse__ds_specs[i].path, H5P_DEFAULT);
        char group[64];
        group_of(dse__ds_specs[i].path, group, sizeof group);
        int rc = ds < 0;
        for (int k = 0; k < n && !rc; k++) {
            bool trace = !strcmp(names[k], "trace");
            char path[64];
            snprintf(path, sizeof path, "/axes/%s", names[k]);
            rc = !trace && link_axis(file, group, names[k]);
            hid_t scale = rc ? H5I_INVALID_HID
                             : H5Dopen2(file, trace ? "/chips/trace/chip" : path, H5P_DEFAULT);
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
    static const char *const axes[] = { "chip", "technique", "benchmark", "year", "sm",
                                        "sub_bank" };
    if (index_axis(file, "/axes/sm", d->n_sms, "SM index on the chip") ||
        index_axis(file, "/axes/sub_bank", d->n_subs,
                   "physical sub-bank index in an SM (bank x sub-banks per bank + sub-bank)"))
        return -1;
    for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "/axes/%s", axes[i]);
        if (make_scale(file, path, axes[i]))
            return -1;
    }
    /* The traced chips' own axis, named "chip" inside /chips/trace (its dimension there). */
    if (d->n_trace > 0 && make_scale(file, "/chips/trace/chip", "chip"))
        return -1;
    return attach_all(file, d);
}
