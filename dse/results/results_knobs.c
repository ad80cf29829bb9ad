/* The point dimension of a sweep with axes: /axes/point and one coordinate dataset per
 * knob, so that `xr.open_dataset(f, engine="h5netcdf", group="results")` shows every
 * knob as a coordinate along `point` (docs/results-format.md, "Design points").  Built
 * by rank 0 in the in-memory file, like the other scales (results_scales.c). */
#include <hdf5_hl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_h5.h"
#include "results_internal.h"

/* "/axes/knob/variation.vth_sigma": the knob as written, a name HDF5 and xarray take. */
static void knob_path(const dse_axis *a, char *buf, size_t n)
{
    snprintf(buf, n, "/axes/knob/%s", a->knob);
}

/* One knob's values over the points: float64, or text for names (enums, switches). */
static int write_knob(hid_t file, const dse_sweep *s, int j, const double *v, int n_points)
{
    const dse_axis *a = &s->axes.knobs[j];
    bool names = dse_axes_is_name(a);
    hsize_t dim = (hsize_t)n_points;
    hid_t space = H5Screate_simple(1, &dim, NULL), lcpl = H5Pcreate(H5P_LINK_CREATE);
    hid_t str = ana_h5_str_type();
    H5Pset_create_intermediate_group(lcpl, 1);
    char path[160], (*text)[ANA_H5_STR_LEN] = names ? calloc((size_t)n_points, ANA_H5_STR_LEN)
                                                     : NULL;
    double *col = malloc(sizeof(double) * (size_t)n_points);
    for (int k = 0; col && k < n_points; k++) {
        col[k] = v[(size_t)k * DSE_AXES_MAX_KNOBS + (size_t)j];
        if (text)
            dse_axes_value_text(a, col[k], text[k], ANA_H5_STR_LEN);
    }
    knob_path(a, path, sizeof path);
    hid_t ds = !col || (names && !text) ? H5I_INVALID_HID
               : H5Dcreate2(file, path, names ? str : H5T_IEEE_F64LE, space, lcpl, H5P_DEFAULT,
                            H5P_DEFAULT);
    int rc = ds < 0 ||
             H5Dwrite(ds, names ? str : H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                      names ? (const void *)text : (const void *)col) < 0 ||
             (names && ana_h5_set_str(ds, "_Encoding", "utf-8")) ||
             ana_h5_set_str(ds, "description", "value of this knob at each design point") ||
             ana_h5_set_str(ds, "units", names ? "name" : "the knob's (rfdse list knobs)");
    hid_t scale = rc ? H5I_INVALID_HID : H5Dopen2(file, ana_dim_path(ANA_DIM_point), H5P_DEFAULT);
    rc = rc || scale < 0 || H5DSattach_scale(ds, scale, 0) < 0;
    if (scale >= 0)
        H5Dclose(scale);
    if (ds >= 0)
        H5Dclose(ds);
    H5Tclose(str);
    H5Pclose(lcpl);
    H5Sclose(space);
    free(col);
    free(text);
    return rc ? -1 : 0;
}

static int write_point_axis(hid_t file, int n)
{
    hsize_t dim = (hsize_t)n;
    int *v = malloc(sizeof(int) * (size_t)n);
    hid_t space = H5Screate_simple(1, &dim, NULL);
    hid_t ds = v ? H5Dcreate2(file, ana_dim_path(ANA_DIM_point), H5T_STD_I32LE, space,
                              H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : H5I_INVALID_HID;
    for (int i = 0; v && i < n; i++)
        v[i] = i;
    int rc = ds < 0 || H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ||
             ana_h5_set_str(ds, "description", ana_dim_doc(ANA_DIM_point)) ||
             ana_h5_set_str(ds, "units", ana_dim_units(ANA_DIM_point)) ||
             H5DSset_scale(ds, ana_dim_name(ANA_DIM_point)) < 0;
    if (ds >= 0)
        H5Dclose(ds);
    H5Sclose(space);
    free(v);
    return rc ? -1 : 0;
}

/* A search: /axes/generation[point], its objectives and technique as attributes. */
static int write_generation(hid_t file, const dse_sweep *s, int n)
{
    hsize_t dim = (hsize_t)n;
    int *g = malloc(sizeof(int) * (size_t)n);
    hid_t space = H5Screate_simple(1, &dim, NULL);
    hid_t ds = g ? H5Dcreate2(file, "/axes/generation", H5T_STD_I32LE, space, H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT) : H5I_INVALID_HID;
    for (int i = 0; g && i < n; i++)
        g[i] = i / s->axes.population;
    char obj[DSE_AXES_MAX_OBJECTIVES * 64] = "";
    for (int i = 0; i < s->axes.n_objectives; i++) {
        char t[64];
        dse_axes_objective_text(&s->axes.objectives[i], t, sizeof t);
        snprintf(obj + strlen(obj), sizeof obj - strlen(obj), "%s%s", i ? "; " : "", t);
    }
    hid_t scale = ds >= 0 ? H5Dopen2(file, ana_dim_path(ANA_DIM_point), H5P_DEFAULT) : H5I_INVALID_HID;
    int rc = ds < 0 || H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, g) < 0 ||
             ana_h5_set_str(ds, "description", "the search generation that drew the point") ||
             ana_h5_set_str(ds, "units", "index") || ana_h5_set_str(ds, "objectives", obj) ||
             ana_h5_set_str(ds, "technique", s->techniques[s->axes.technique].name) ||
             scale < 0 || H5DSattach_scale(ds, scale, 0) < 0;
    if (scale >= 0)
        H5Dclose(scale);
    if (ds >= 0)
        H5Dclose(ds);
    H5Sclose(space);
    free(g);
    return rc ? -1 : 0;
}

static int link_once(hid_t file, const char *from, const char *to)
{
    if (H5Lexists(file, to, H5P_DEFAULT) > 0)
        return 0;
    return H5Lcreate_hard(file, from, file, to, H5P_DEFAULT, H5P_DEFAULT) < 0 ? -1 : 0;
}

/* Dataset i: point scale on dimension 0, the axes linked into its group, the knobs
 * named as its coordinates. */
static int attach(hid_t file, const dse_sweep *s, int i, const char *coords)
{
    const char *path = dse__ds_specs[i].path;
    char group[96], to[256], from[160];
    snprintf(group, sizeof group, "%s", path);
    *strrchr(group, '/') = '\0';
    snprintf(to, sizeof to, "%s/point", group);
    int rc = link_once(file, ana_dim_path(ANA_DIM_point), to);
    for (int j = 0; j < s->axes.n_knobs && !rc; j++) {
        knob_path(&s->axes.knobs[j], from, sizeof from);
        snprintf(to, sizeof to, "%s/%s", group, s->axes.knobs[j].knob);
        rc = link_once(file, from, to);
    }
    hid_t ds = rc ? H5I_INVALID_HID : H5Dopen2(file, path, H5P_DEFAULT);
    hid_t scale = ds < 0 ? H5I_INVALID_HID : H5Dopen2(file, ana_dim_path(ANA_DIM_point), H5P_DEFAULT);
    rc = scale < 0 || H5DSattach_scale(ds, scale, 0) < 0 ||
         ana_h5_set_str(ds, "coordinates", coords);
    if (scale >= 0)
        H5Dclose(scale);
    if (ds >= 0)
        H5Dclose(ds);
    return rc ? -1 : 0;
}

int dse__results_knobs(hid_t file, const dse_sweep *s, const dse_dims *d)
{
    int n = d->n_points;
    if (n <= 0)
        return 0;
    double *v = malloc(sizeof(double) * DSE_AXES_MAX_KNOBS * (size_t)n);
    char coords[DSE_AXES_MAX_KNOBS * (DSE_AXES_KNOB_MAX + 1) + 1] = "";
    int rc = !v || write_point_axis(file, n);
    for (int k = 0; !rc && k < n; k++)
        dse_axes_point_values(s, k, v + (size_t)k * DSE_AXES_MAX_KNOBS);
    for (int j = 0; !rc && j < s->axes.n_knobs; j++) {
        rc = write_knob(file, s, j, v, n);
        snprintf(coords + strlen(coords), sizeof coords - strlen(coords), "%s%s", j ? " " : "",
                 s->axes.knobs[j].knob);
    }
    for (int i = 0; !rc && i < DSE__DS_COUNT; i++)
        if (!dse__ds_is_trace(i) || d->n_trace > 0)
            rc = attach(file, s, i, coords);
    if (!rc && s->axes.design == DSE_DESIGN_NSGA2)
        rc = write_generation(file, s, n);
    free(v);
    return rc ? -1 : 0;
}

/* ---- a search's knob values, written generation by generation ----------------------- */

static int knob_io(dse_results *r, const dse_sweep *s, int j, int first, int n, double *v,
                   bool write)
{
    const dse_axis *a = &s->axes.knobs[j];
    bool names = dse_axes_is_name(a);
    char path[160];
    knob_path(a, path, sizeof path);
    hid_t ds = H5Dopen2(r->file, path, H5P_DEFAULT);
    hid_t str = ana_h5_str_type(), fs = ds >= 0 ? H5Dget_space(ds) : H5I_INVALID_HID;
    hsize_t start = (hsize_t)first, count = (hsize_t)n;
    bool mine = !write || r->rank == 0; /* rank 0 writes; every rank reads */
    hsize_t mlen = mine && n ? count : 1;
    hid_t ms = H5Screate_simple(1, &mlen, NULL);
    char(*text)[ANA_H5_STR_LEN] = calloc(mlen, ANA_H5_STR_LEN);
    double *col = malloc(sizeof(double) * mlen);
    int rc = ds < 0 || fs < 0 || !text || !col;
    if (!rc && mine && n) {
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &count, NULL);
    } else if (!rc) {
        H5Sselect_none(fs);
        H5Sselect_none(ms);
    }
    for (int k = 0; !rc && write && mine && k < n; k++) {
        col[k] = v[(size_t)k * (size_t)s->axes.n_knobs + (size_t)j];
        dse_axes_value_text(a, col[k], text[k], ANA_H5_STR_LEN);
    }
    if (!rc && write)
        rc = H5Dwrite(ds, names ? str : H5T_NATIVE_DOUBLE, ms, fs, r->dxpl,
                      names ? (void *)text : (void *)col) < 0;
    else if (!rc)
        rc = H5Dread(ds, names ? str : H5T_NATIVE_DOUBLE, ms, fs, r->dxpl,
                     names ? (void *)text : (void *)col) < 0;
    for (int k = 0; !rc && !write && k < n; k++) {
        double *x = &v[(size_t)k * (size_t)s->axes.n_knobs + (size_t)j];
        if (names && dse_axes_value_parse(a, text[k], x))
            *x = NAN;
        else if (!names)
            *x = col[k];
    }
    free(text);
    free(col);
    H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    H5Tclose(str);
    if (ds >= 0)
        H5Dclose(ds);
    return rc ? -1 : 0;
}

int dse_results_write_knobs(dse_results *r, const dse_sweep *s, int first, int n,
                            const double *v)
{
    int rc = 0;
    for (int j = 0; j < s->axes.n_knobs; j++)
        rc |= knob_io(r, s, j, first, n, (double *)v, true);
    int all = 0;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, r->comm);
    return all || H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0 ? -1 : 0;
}

int dse_results_read_knobs(dse_results *r, const dse_sweep *s, double *v)
{
    int rc = 0;
    for (int j = 0; j < s->axes.n_knobs && !rc; j++)
        rc = knob_io(r, s, j, 0, r->dims.n_points, v, false);
    return rc;
}

int dse_results_read_metric(dse_results *r, int m, int first, int n, double *out)
{
    hsize_t dims[DSE__MAX_RANK], start[DSE__MAX_RANK] = { 0 };
    int rank = dse__shape_dims(&r->dims, dse__ds_specs[m].shape, dims);
    start[0] = (hsize_t)first;
    dims[0] = (hsize_t)n;
    hsize_t len = 1;
    for (int k = 0; k < rank; k++)
        len *= dims[k];
    hid_t fs = H5Dget_space(r->dset[m]), ms = H5Screate_simple(1, &len, NULL);
    int rc = H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, dims, NULL) < 0 ||
             H5Dread(r->dset[m], H5T_NATIVE_DOUBLE, ms, fs, r->dxpl, out) < 0;
    H5Sclose(ms);
    H5Sclose(fs);
    return rc ? -1 : 0;
}

int dse_results_point_values(const char *path, const dse_sweep *s, int point, double *v)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), str = ana_h5_str_type();
    int rc = f < 0;
    for (int j = 0; !rc && j < s->axes.n_knobs; j++) {
        const dse_axis *a = &s->axes.knobs[j];
        char p[160], text[ANA_H5_STR_LEN];
        knob_path(a, p, sizeof p);
        hid_t ds = H5Dopen2(f, p, H5P_DEFAULT), fs = ds >= 0 ? H5Dget_space(ds) : -1;
        hsize_t start = (hsize_t)point, one = 1;
        hid_t ms = H5Screate_simple(1, &one, NULL);
        bool names = dse_axes_is_name(a);
        rc = fs < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &one, NULL) < 0 ||
             H5Dread(ds, names ? str : H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT,
                     names ? (void *)text : (void *)&v[j]) < 0 ||
             (names && dse_axes_value_parse(a, text, &v[j]));
        H5Sclose(ms);
        if (fs >= 0)
            H5Sclose(fs);
        if (ds >= 0)
            H5Dclose(ds);
    }
    H5Tclose(str);
    if (f >= 0)
        H5Fclose(f);
    return rc ? -1 : 0;
}
