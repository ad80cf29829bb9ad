/* Sweeps that grow: `rfdse run --resume` with more chips, design points, techniques or
 * (without aging) workloads than the file holds.  The datasets are contiguous and
 * allocated up front (crash safety), so they cannot grow in place: rank 0 builds the
 * grown file under PATH.grow.partial, copies every value of the old file to its place
 * (chip c stays c, a technique, workload or design point moves to its index in the
 * grown sweep), and renames it over PATH; a crash before the rename leaves the old file
 * as it was.  The units already done keep their bits, and so their checksums
 * (/progress/checksum is copied like the rest: a unit's checksum covers only its own
 * values, which do not move within the unit); the new ones are left to do and get theirs
 * when written.  A new workload (sweeps without aging only) leaves every unit to do: a
 * unit is a (point, chip, technique) over all workloads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dse_version.h"
#include "ana_h5.h"
#include "results_internal.h"

/* What each dimension of a dataset indexes. */
typedef enum { K_POINT, K_CHIP, K_TECH, K_BENCH, K_SAME } kind;

typedef struct maps {
    const int *point, *tech, *bench; /* old index -> new index */
} maps;

/* How each dimension's index maps from the old file to the new: chips are kept in
 * place, techniques and benchmarks move by their maps, the rest stay. */
static int kinds_of(ana_shape shape, bool points, kind *k)
{
    ana_dim dim[5];
    int n = 0, rank = ana_shape_dims(shape, dim);
    if (points)
        k[n++] = K_POINT;
    for (int i = 0; i < rank; i++)
        k[n++] = dim[i] == ANA_DIM_chip        ? K_CHIP
                 : dim[i] == ANA_DIM_technique ? K_TECH
                 : dim[i] == ANA_DIM_benchmark ? K_BENCH
                                               : K_SAME;
    return n;
}

static hsize_t total(const hsize_t *d, int rank)
{
    hsize_t n = 1;
    for (int i = 0; i < rank; i++)
        n *= d[i];
    return n;
}

/* Copies every element of old dataset `path` to its place in the new one. */
static int copy_dataset(hid_t from, hid_t to, const dse__ds_spec *spec, const dse_dims *od,
                        const dse_dims *nd, const maps *m)
{
    hsize_t odims[DSE__MAX_RANK], ndims[DSE__MAX_RANK];
    kind k[DSE__MAX_RANK];
    int rank = dse__shape_dims(od, spec->shape, odims);
    dse__shape_dims(nd, spec->shape, ndims);
    kinds_of(spec->shape, od->n_points > 0, k);
    size_t el = spec->is_flag ? 1 : 8; /* float64 or uint64 (a checksum: copied exact) */
    hid_t type = spec->is_u64 ? H5T_NATIVE_UINT64 : spec->is_flag ? H5T_NATIVE_UINT8
                                                                   : H5T_NATIVE_DOUBLE;
    hsize_t on = total(odims, rank), nn = total(ndims, rank);
    char *a = malloc(on * el + 1), *b = malloc(nn * el + 1);
    hid_t ds_a = H5Dopen2(from, spec->path, H5P_DEFAULT), ds_b = H5Dopen2(to, spec->path, H5P_DEFAULT);
    int rc = !a || !b || ds_a < 0 || ds_b < 0 ||
             H5Dread(ds_a, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, a) < 0 ||
             H5Dread(ds_b, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, b) < 0;
    for (hsize_t i = 0; !rc && i < on; i++) {
        hsize_t rest = i, j = 0, stride = 1;
        for (int d = rank - 1; d >= 0; d--) { /* C order: the last index varies fastest */
            hsize_t x = rest % odims[d];
            rest /= odims[d];
            hsize_t y = k[d] == K_POINT ? (hsize_t)m->point[x]
                        : k[d] == K_TECH ? (hsize_t)m->tech[x]
                        : k[d] == K_BENCH ? (hsize_t)m->bench[x] : x;
            j += y * stride;
            stride *= ndims[d];
        }
        memcpy(b + j * el, a + i * el, el);
    }
    if (!rc)
        rc = H5Dwrite(ds_b, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, b) < 0;
    if (ds_a >= 0)
        H5Dclose(ds_a);
    if (ds_b >= 0)
        H5Dclose(ds_b);
    free(a);
    free(b);
    return rc ? -1 : 0;
}

static int copy_all(const char *path, const char *tmp, const dse_sweep *old, const dse_sweep *s,
                    const char *revisions)
{
    dse_dims od, nd;
    dse_dims_of(old, &od);
    dse_dims_of(s, &nd);
    int *point = malloc(sizeof(int) * (size_t)dse_dims_points(&od));
    int tech[DSE_MAX_TECHNIQUES], bench[DSE_MAX_WORKLOADS];
    char why[16];
    int rc = !point || dse_sweep_point_map(old, s, point, why, sizeof why);
    for (int t = 0; t < old->n_techniques; t++)
        tech[t] = dse_sweep_technique_index(s, old->techniques[t].name);
    for (int w = 0; w < old->n_workloads; w++)
        bench[w] = dse_sweep_workload_index(s, old->workloads[w].name);
    maps m = { point, tech, bench };
    hid_t from = rc ? H5I_INVALID_HID : H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t to = from < 0 ? H5I_INVALID_HID : H5Fopen(tmp, H5F_ACC_RDWR, H5P_DEFAULT);
    rc = to < 0;
    /* A unit is a (point, chip, technique) over every workload: with a new workload every
     * unit is left to do (its old workloads come out the same bits again). */
    bool redo = s->n_workloads > old->n_workloads;
    for (int i = 0; !rc && i < DSE__DS_COUNT; i++)
        if ((!dse__ds_is_trace(i) || od.n_trace > 0) && !(redo && i == DSE__DS_DONE))
            rc = copy_dataset(from, to, &dse__ds_specs[i], &od, &nd, &m);
    /* the file's history: every revision that computed its units */
    if (!rc)
        rc = ana_h5_set_str(to, "git_revisions", revisions);
    if (to >= 0 && H5Fclose(to) < 0)
        rc = -1;
    if (from >= 0)
        H5Fclose(from);
    free(point);
    return rc ? -1 : 0;
}

/* The sweep and revisions of the file at path (rank 0, serial). */
static dse_sweep *file_sweep(const char *path, char **revisions, char **selection)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    char *text = f >= 0 ? ana_h5_attr_dup(f, "sweep_config") : NULL;
    *revisions = f >= 0 ? ana_h5_attr_dup(f, "git_revisions") : NULL;
    if (f >= 0 && !*revisions)
        *revisions = ana_h5_attr_dup(f, "git_revision");
    *selection = f >= 0 && H5Aexists(f, "selection") > 0 ? ana_h5_attr_dup(f, "selection")
                                                         : strdup("");
    if (f >= 0)
        H5Fclose(f);
    dse_sweep *s = text ? dse_sweep_load_string(text, path, NULL) : NULL;
    free(text);
    return s;
}

static bool listed(const char *list, const char *rev)
{
    size_t n = strlen(rev);
    for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
        if (!strncmp(p, rev, n) && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

/* Rank 0: 0 nothing to do or grown, -1 refused or failed (err). */
static int grow_on_rank0(const char *path, const dse_results_of *of, bool force, char *err,
                         size_t n)
{
    char *revisions = NULL, *selection = NULL;
    dse_sweep *old = file_sweep(path, &revisions, &selection);
    int rc = 0;
    if (!old || !revisions || !selection)
        goto done; /* not a results file: the resume's own checks say so */
    old->output = of->sweep->output;
    if (dse_sweep_equal(old, of->sweep) || *selection || *of->selection)
        goto done; /* the same sweep (or a part of one: never grown) */
    char why[1024];
    if (dse_sweep_extends(old, of->sweep, why, sizeof why)) {
        snprintf(err, n, "%s was made by %s; resume it with the sweep file and seed that made "
                 "it (or one that only adds chips, points, techniques or workloads), or use "
                 "--force to replace it", path, why);
        rc = -1;
        goto done;
    }
    if (!listed(revisions, DSE_GIT_REVISION) && !force) {
        snprintf(err, n, "%s was computed by rfdse git revision %.200s and this rfdse is %s: "
                 "grow it with the build that made it, or add --force-revision", path,
                 revisions, DSE_GIT_REVISION);
        rc = -1;
        goto done;
    }
    size_t len = strlen(revisions) + strlen(DSE_GIT_REVISION) + 2;
    char *list = malloc(len), tmp[DSE_PATH_MAX + 16];
    if (list)
        snprintf(list, len, listed(revisions, DSE_GIT_REVISION) ? "%s" : "%s,%s", revisions,
                 DSE_GIT_REVISION);
    snprintf(tmp, sizeof tmp, "%s.grow.partial", path);
    dse_dims nd;
    dse_dims_of(of->stored, &nd);
    int code = list ? dse__results_build(tmp, of, &nd) : ENOMEM;
    if (!code && (copy_all(path, tmp, old, of->sweep, list) || rename(tmp, path) != 0))
        code = errno ? errno : EIO;
    if (code) {
        unlink(tmp);
        snprintf(err, n, "cannot grow %s: %s", path, code > 0 ? strerror(code)
                                                               : "HDF5 could not build it");
        rc = -1;
    }
    free(list);
done:
    dse_sweep_free(old);
    free(revisions);
    free(selection);
    return rc;
}

int dse__results_grow(const char *path, const dse_results_of *of, MPI_Comm comm,
                      bool force_revision, char *err, size_t n)
{
    int rank, rc = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        errno = 0;
        rc = grow_on_rank0(path, of, force_revision, err, n);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, comm);
    if (rc)
        MPI_Bcast(err, (int)n, MPI_CHAR, 0, comm);
    return rc;
}
