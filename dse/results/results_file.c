/* Creating and re-opening the results file; the dataset table. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ana_checksum.h"
#include "dse_version.h"
#include "ana_h5.h"
#include "out.h"
#include "results_internal.h"

const dse__ds_spec dse__ds_specs[DSE__DS_COUNT] = {
#define DSE__DS_SPEC(name, axis, nattr, nval, doc, file_nval, file_desc)                   \
    [DSE__DS_##name] = { RFDSE_FILE_RESULTS "/" #name, ANA_SHAPE_OF_##axis, false, #nattr,  \
                         file_nval, file_desc, false },
    RFDSE_UNIT_METRICS(DSE__DS_SPEC)
#undef DSE__DS_SPEC
#define DSE__U8_U8 true /* the element types of ana_layout.h: a flag, a checksum */
#define DSE__U8_F64 false
#define DSE__U8_U64 false
#define DSE__U64_U64 true
#define DSE__U64_F64 false
#define DSE__U64_U8 false
#define DSE__DS_FILE(name, path, shape, type, sum, nattr, nval, desc)                      \
    [DSE__DS_##name] = { path, ANA_SHAPE_##shape, DSE__U8_##type, #nattr, nval, desc,      \
                         DSE__U64_##type },
    RFDSE_FILE_DATASETS(DSE__DS_FILE)
#undef DSE__DS_FILE
};

_Static_assert((int)DSE__DS_SM_FREQUENCY == (int)DSE_N_METRICS,
               "the unit datasets come first, one per metric, in the list's order");

bool dse__ds_is_trace(int ds)
{
    ana_dim dims[5];
    ana_shape_dims(dse__ds_specs[ds].shape, dims);
    return dims[0] == ANA_DIM_trace;
}

void dse_dims_of(const dse_sweep *s, dse_dims *d)
{
    *d = (dse_dims){ .n_points = dse_axes_points(s), .n_chips = s->chips.count,
                     .n_techniques = s->n_techniques, .n_benchmarks = s->n_workloads, .n_years = s->var.aging.n_years,
                     .n_sms = s->var.floorplan.n_sms, .n_trace = s->output.n_trace_chips,
                     .n_subs = s->var.floorplan.n_banks * s->var.floorplan.sub_banks };
}

int dse__dim_size(const dse_dims *d, ana_dim k)
{
    switch (k) {
    case ANA_DIM_point: return d->n_points;
    case ANA_DIM_chip: return d->n_chips;
    case ANA_DIM_technique: return d->n_techniques;
    case ANA_DIM_benchmark: return d->n_benchmarks;
    case ANA_DIM_year: return d->n_years;
    case ANA_DIM_sm: return d->n_sms;
    case ANA_DIM_sub_bank: return d->n_subs;
    case ANA_DIM_trace: return d->n_trace;
    default: return 0;
    }
}

int dse__shape_inner(const dse_dims *d, ana_shape shape)
{
    ana_dim dims[5];
    int rank = ana_shape_dims(shape, dims), inner = 1;
    assert(dims[0] == ANA_DIM_chip);
    for (int k = 1; k < rank; k++)
        inner *= dims[k] == ANA_DIM_technique ? 1 : dse__dim_size(d, dims[k]);
    return inner;
}

long dse_dims_units(const dse_dims *d)
{
    return (long)dse_dims_points(d) * d->n_chips * d->n_techniques;
}

int dse_dims_points(const dse_dims *d) { return d->n_points > 0 ? d->n_points : 1; }

int dse__shape_dims(const dse_dims *d, ana_shape shape, hsize_t *dims)
{
    ana_dim dim[5];
    int lead = d->n_points > 0, rank = ana_shape_dims(shape, dim);
    if (lead)
        dims[0] = (hsize_t)d->n_points;
    for (int k = 0; k < rank; k++)
        dims[lead + k] = (hsize_t)dse__dim_size(d, dim[k]);
    return lead + rank;
}

static dse_results *results_new(MPI_Comm comm, const dse_dims *d, const char *path)
{
    dse_results *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    snprintf(r->path, sizeof r->path, "%s", path);
    r->comm = comm;
    MPI_Comm_rank(comm, &r->rank);
    r->file = H5I_INVALID_HID;
    r->dxpl = ana_h5_dxpl_independent();
    for (int i = 0; i < DSE__DS_COUNT; i++)
        r->dset[i] = H5I_INVALID_HID;
    r->dims = *d;
    return r;
}

void dse_results_close(dse_results *r)
{
    if (!r)
        return;
    for (int i = 0; i < DSE__DS_COUNT; i++)
        if (r->dset[i] >= 0)
            H5Dclose(r->dset[i]);
    if (r->dxpl >= 0)
        H5Pclose(r->dxpl);
    if (r->file >= 0)
        H5Fclose(r->file);
    free(r);
}

/* ---- creation ------------------------------------------------------------------------ */

static hid_t create_dataset(hid_t file, const dse__ds_spec *spec, const dse_dims *d)
{
    hsize_t dims[DSE__MAX_RANK];
    int rank = dse__shape_dims(d, spec->shape, dims);
    hid_t space = H5Screate_simple(rank, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE), dset = H5I_INVALID_HID;
    hid_t type = spec->is_u64 ? H5T_NATIVE_UINT64 : spec->is_flag ? H5T_NATIVE_UINT8
                                                                   : H5T_NATIVE_DOUBLE;
    hid_t file_type = spec->is_u64 ? H5T_STD_U64LE : spec->is_flag ? H5T_STD_U8LE
                                                                   : H5T_IEEE_F64LE;
    double nan_fill = NAN;
    uint64_t zero = 0;
    H5Pset_create_intermediate_group(lcpl, 1);
    /* Early allocation + fill: later writes touch raw data only (crash safety). */
    H5Pset_layout(dcpl, H5D_CONTIGUOUS);
    H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY);
    H5Pset_fill_time(dcpl, H5D_FILL_TIME_ALLOC);
    H5Pset_fill_value(dcpl, type, spec->is_flag || spec->is_u64 ? (const void *)&zero
                                                                 : (const void *)&nan_fill);
    dset = H5Dcreate2(file, spec->path, file_type, space, lcpl, dcpl, H5P_DEFAULT);
    if (dset >= 0 && (ana_h5_set_str(dset, "description", spec->description) ||
                      ana_h5_set_str(dset, spec->norm_attr, spec->norm_value))) {
        H5Dclose(dset);
        dset = H5I_INVALID_HID;
    }
    H5Pclose(lcpl);
    H5Pclose(dcpl);
    H5Sclose(space);
    return dset;
}

/* Writes the coordinates of dimension k, with its units and description from the
 * layout (serial: only rank 0 builds the file). */
static int write_axis(hid_t file, ana_dim k, hid_t file_type, hid_t mem_type, const void *data,
                      int n)
{
    hsize_t dim = (hsize_t)n;
    hid_t space = H5Screate_simple(1, &dim, NULL), lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t dset = H5Dcreate2(file, ana_dim_path(k), file_type, space, lcpl, H5P_DEFAULT,
                            H5P_DEFAULT);
    int rc = (dset < 0 || H5Dwrite(dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0 ||
              ana_h5_set_str(dset, "description", ana_dim_doc(k)) ||
              ana_h5_set_str(dset, "units", ana_dim_units(k))) ? -1 : 0;
    if (dset >= 0)
        H5Dclose(dset);
    H5Sclose(space);
    H5Pclose(lcpl);
    return rc;
}

static int write_axes(hid_t file, const dse_sweep *s, const dse_dims *d)
{
    int *chips = malloc(sizeof(int) * (size_t)d->n_chips);
    char(*tech)[ANA_H5_STR_LEN] = calloc((size_t)d->n_techniques, ANA_H5_STR_LEN);
    char(*bench)[ANA_H5_STR_LEN] = calloc((size_t)d->n_benchmarks, ANA_H5_STR_LEN);
    hid_t str = ana_h5_str_type();
    int rc = -1;
    if (!chips || !tech || !bench)
        goto done;
    for (int i = 0; i < d->n_chips; i++)
        chips[i] = i;
    for (int i = 0; i < d->n_techniques; i++)
        snprintf(tech[i], ANA_H5_STR_LEN, "%s", s->techniques[i].name);
    for (int i = 0; i < d->n_benchmarks; i++)
        snprintf(bench[i], ANA_H5_STR_LEN, "%s", s->workloads[i].name);
    rc = write_axis(file, ANA_DIM_chip, H5T_STD_I32LE, H5T_NATIVE_INT, chips, d->n_chips) ||
         write_axis(file, ANA_DIM_technique, str, str, tech, d->n_techniques) ||
         write_axis(file, ANA_DIM_benchmark, str, str, bench, d->n_benchmarks) ||
         write_axis(file, ANA_DIM_year, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s->var.aging.years,
                    d->n_years) ||
         (d->n_trace > 0 && write_axis(file, ANA_DIM_trace, H5T_STD_I32LE, H5T_NATIVE_INT,
                                       s->output.trace_chips, d->n_trace));
done:
    H5Tclose(str);
    free(chips);
    free(tech);
    free(bench);
    return rc;
}

/* "#rrggbb,#rrggbb,...": the figure colour of every technique on the file's axis. */
static void technique_colours(const dse_sweep *s, char *out, size_t n)
{
    const char *names[DSE_MAX_TECHNIQUES];
    char colour[DSE_MAX_TECHNIQUES][8];
    for (int i = 0; i < s->n_techniques; i++)
        names[i] = s->techniques[i].name;
    dse_technique_colours(names, s->n_techniques, colour);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < s->n_techniques && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? "," : "", colour[i]);
}

static int write_root_attributes(hid_t file, const dse_results_of *of)
{
    const dse_sweep *s = of->sweep;
    char created[32];
    time_t now = time(NULL);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    char *config = dse_sweep_to_string(s);
    char colours[DSE_MAX_TECHNIQUES * 8 + 1];
    technique_colours(of->stored, colours, sizeof colours);
    int rc = (!config || ana_h5_set_str(file, "rfdse_version", DSE_VERSION) ||
              ana_h5_set_str(file, "git_revision", DSE_GIT_REVISION) ||
              ana_h5_set_str(file, "git_revisions", DSE_GIT_REVISION) ||
              ana_h5_set_str(file, "created", created) ||
              ana_h5_set_u64(file, "seed", (unsigned long long)s->chips.seed) ||
              ana_h5_set_int(file, "n_chips", s->chips.count) ||
              ana_h5_set_double(file, "sigma_ratio", s->var.variation.sigma_ratio) ||
              ana_h5_set_str(file, "aging_duty",
                               s->var.aging.duty == VAR_DUTY_OCCUPANCY ? "occupancy" : "access") ||
              ana_h5_set_str(file, "technique_colours", colours) ||
              ana_h5_set_str(file, "sweep_config", config) ||
              ana_h5_set_str(file, "selection", of->selection)) ? -1 : 0;
    free(config);
    return rc;
}

/* Bytes of raw data the file will hold (every dataset is allocated up front). */
static double raw_bytes(const dse_dims *d)
{
    double total = 0;
    for (int i = 0; i < DSE__DS_COUNT; i++) {
        if (dse__ds_is_trace(i) && d->n_trace == 0)
            continue;
        hsize_t dims[DSE__MAX_RANK];
        int rank = dse__shape_dims(d, dse__ds_specs[i].shape, dims);
        double n = dse__ds_specs[i].is_flag ? 1.0 : 8.0; /* uint64 or float64: 8 */
        for (int k = 0; k < rank; k++)
            n *= (double)dims[k];
        total += n;
    }
    return total;
}

/* An error of the path the user gave (exit status 2), not of the machine (1). */
static bool bad_path(int code)
{
    return code == ENOENT || code == ENOTDIR || code == EACCES || code == EPERM ||
           code == EROFS || code == EISDIR || code == ENAMETOOLONG || code == ELOOP;
}

/* "12.3 KiB", "4.0 MiB", "2.5 GiB". */
static void format_bytes(double b, char *buf, size_t n)
{
    const char *unit = b < 1048576.0 ? "KiB" : b < 1073741824.0 ? "MiB" : "GiB";
    double div = b < 1048576.0 ? 1024.0 : b < 1073741824.0 ? 1048576.0 : 1073741824.0;
    snprintf(buf, n, "%.1f %s", b / div, unit);
}

/* Rank 0 decides about the file system (what is at the path, room for the file);
 * everyone learns the verdict.  Returns 0, or the exit status with err set. */
static int check_target(const char *path, const dse_dims *d, bool force, MPI_Comm comm,
                        char *err, size_t n)
{
    int rank, verdict = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0 && out_target_check(path, err, n))
        verdict = 2;
    else if (rank == 0 && !force && access(path, F_OK) == 0) {
        snprintf(err, n, "%s exists: use --resume to continue it or --force to replace it",
                 path);
        verdict = 2;
    } else if (rank == 0) {
        double need = raw_bytes(d), avail = ana_h5_free_bytes(path);
        char a[32], b[32];
        format_bytes(need, a, sizeof a);
        format_bytes(avail, b, sizeof b);
        if (avail >= 0 && avail < need) {
            snprintf(err, n, "cannot create %s: No space left on device (it needs %s, its file "
                     "system has %s free)", path, a, b);
            verdict = 1;
        }
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, comm);
    if (verdict)
        MPI_Bcast(err, (int)n, MPI_CHAR, 0, comm);
    return verdict;
}

/* /progress/checksum's attribute `covers`: the datasets each unit's checksum runs
 * over, in order (analysis/ana_checksum.h), so a reader needs no rfdse header to check
 * them. */
static int checksum_covers(hid_t file, const dse_dims *d)
{
    char list[2048] = "";
    size_t at = 0;
    for (int i = 0; i < DSE__DS_COUNT; i++) {
        bool covered = i < DSE_N_METRICS || (i >= DSE__DS_SM_FREQUENCY && i <= DSE__DS_SM_TO_SM) ||
                       (dse__ds_is_trace(i) && d->n_trace > 0);
        if (covered && at < sizeof list)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? "," : "",
                                   dse__ds_specs[i].path);
    }
    hid_t ds = H5Dopen2(file, dse__ds_specs[DSE__DS_CHECKSUM].path, H5P_DEFAULT);
    int rc = ds < 0 || at >= sizeof list || ana_h5_set_str(ds, "covers", list) ? -1 : 0;
    if (ds >= 0)
        H5Dclose(ds);
    return rc;
}

/* Everything the new file holds: attributes, axes, every dataset allocated and filled,
 * the dimension scales.  0 or -1. */
static int fill_file(hid_t file, const dse_results_of *of, const dse_dims *d)
{
    int rc = write_root_attributes(file, of) || write_axes(file, of->stored, d);
    for (int i = 0; i < DSE__DS_COUNT && !rc; i++) {
        if (dse__ds_is_trace(i) && d->n_trace == 0)
            continue;
        hid_t ds = create_dataset(file, &dse__ds_specs[i], d);
        rc = ds < 0;
        if (ds >= 0)
            H5Dclose(ds);
    }
    return rc || checksum_covers(file, d) || dse__results_scales(file, d) ||
                   dse__results_knobs(file, of->stored, d)
               ? -1
               : 0;
}

/* The whole file built in memory (HDF5's core driver), returned as its image. */
static void *build_image(const dse_results_of *of, const dse_dims *d, size_t *size)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_core(fapl, 1 << 20, 0); /* no backing store: nothing touches the disk */
    hid_t file = H5Fcreate("rfdse-results-image", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    int rc = file < 0 || fill_file(file, of, d);
    ssize_t n = rc ? -1 : (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0 ? -1
                                                                : H5Fget_file_image(file, NULL, 0));
    void *image = n > 0 ? malloc((size_t)n) : NULL;
    if (image && H5Fget_file_image(file, image, (size_t)n) != n) {
        free(image);
        image = NULL;
    }
    if (file >= 0)
        H5Fclose(file);
    *size = image ? (size_t)n : 0;
    return image;
}

/* Writes the image to a new file `tmp`; returns 0 or an errno value. */
static int write_image(const char *tmp, const void *image, size_t size)
{
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno;
    for (size_t done = 0; done < size;) {
        ssize_t k = write(fd, (const char *)image + done, size - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int e = k < 0 ? errno : EIO;
            close(fd);
            return e;
        }
        done += (size_t)k;
    }
    return fsync(fd) != 0 || close(fd) != 0 ? errno : 0;
}

/* fsync: the rename that follows must not publish a file whose bytes are not down. */
static int sync_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return errno;
    int code = fsync(fd) != 0 ? errno : 0;
    return close(fd) != 0 && !code ? errno : code;
}

enum { BUILD_FAILED = -1 }; /* HDF5 failed without an errno value to show */

/* Straight to disk with serial HDF5 (the sec2 driver), in HDF5's fill buffers. */
static int build_on_disk(const char *tmp, const dse_results_of *of, const dse_dims *d)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_sec2(fapl);
    H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG); /* closing it closes all in it */
    errno = 0;
    hid_t file = H5Fcreate(tmp, H5F_ACC_EXCL, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    int rc = file < 0 || fill_file(file, of, d);
    int code = rc ? errno : 0; /* a failed write's cause (ENOSPC), if HDF5 left it */
    if (file >= 0 && H5Fclose(file) < 0 && !rc) {
        rc = 1;
        code = errno;
    }
    if (rc)
        return code ? code : BUILD_FAILED;
    return sync_file(tmp);
}

/* Rank 0 builds the whole file alone, with serial HDF5, under a temporary name, so no
 * rank can be left waiting in a collective call that another rank left on an error (a
 * full disk used to hang every rank in H5Dcreate's fill).  Every byte of raw data is
 * written here (early allocation, fill value), so the run's later writes need no new
 * space on file systems that overwrite in place.  A file of up to IMAGE_MAX bytes of
 * raw data is built in memory (HDF5's core driver) and written with plain writes, so
 * that a full disk meets no HDF5 call: an HDF5 file whose writes failed cannot be
 * closed, and HDF5's shutdown in MPI_Finalize then crashes on it.  A larger one is
 * written straight to disk: the image held it twice in rank 0's memory (320 MiB at
 * 10 000 chips of the default sweep), and the free-space check before (raw_bytes)
 * leaves only the metadata's few kB to fail on.  Returns 0, an errno value, or
 * BUILD_FAILED. */
#define IMAGE_MAX (16.0 * 1048576.0)

static int build_file(const char *tmp, const dse_results_of *of, const dse_dims *d)
{
    unlink(tmp); /* a crashed run's leftover (we hold the lock); never follow a link */
    if (raw_bytes(d) > IMAGE_MAX)
        return build_on_disk(tmp, of, d);
    size_t size;
    void *image = build_image(of, d, &size);
    int code = image ? write_image(tmp, image, size) : BUILD_FAILED;
    free(image);
    return code;
}

int dse__results_build(const char *tmp, const dse_results_of *of, const dse_dims *d)
{
    return build_file(tmp, of, d);
}

static int open_file(dse_results *r, const char *path, char *err, size_t n);
static int open_datasets(dse_results *r, const char *path, char *err, size_t n);

/* Rank 0 builds and renames into place; everyone learns the outcome (0 or errno). */
static int create_on_rank0(const char *path, const dse_results_of *of, const dse_dims *d,
                           MPI_Comm comm)
{
    int rank, code = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        char tmp[DSE_PATH_MAX + 16];
        snprintf(tmp, sizeof tmp, "%s.partial", path);
        code = build_file(tmp, of, d);
        if (!code && out_target_kind(path))
            code = EEXIST; /* something not a regular file appeared meanwhile */
        if (!code && rename(tmp, path) != 0)
            code = errno;
        if (code)
            unlink(tmp);
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, comm);
    return code;
}

dse_results *dse_results_create(const char *path, const dse_results_of *of, bool force,
                                MPI_Comm comm, char *err, size_t n, int *status)
{
    dse_dims d;
    dse_dims_of(of->stored, &d);
    if ((*status = check_target(path, &d, force, comm, err, n)))
        return NULL;
    *status = 1;
    int code = create_on_rank0(path, of, &d, comm);
    if (code) {
        snprintf(err, n, "cannot create %s: %s", path,
                 code == BUILD_FAILED ? "HDF5 could not build it (out of memory, or a "
                                        "layout HDF5 refuses)"
                                      : strerror(code));
        *status = bad_path(code) ? 2 : 1;
        return NULL;
    }
    dse_results *r = results_new(comm, &d, path);
    if (!r) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    if (open_file(r, path, err, n) || open_datasets(r, path, err, n)) {
        dse_results_close(r);
        return NULL;
    }
    *status = 0;
    return r;
}

/* ---- re-opening ---------------------------------------------------------------------- */

static int open_file(dse_results *r, const char *path, char *err, size_t n)
{
    hid_t fapl = ana_h5_fapl_mpio(r->comm);
    r->file = H5Fopen(path, H5F_ACC_RDWR, fapl);
    H5Pclose(fapl);
    if (r->file < 0) {
        snprintf(err, n, "cannot open %s as an HDF5 file (missing, truncated or corrupt)", path);
        return -1;
    }
    return 0;
}

static int open_datasets(dse_results *r, const char *path, char *err, size_t n)
{
    for (int i = 0; i < DSE__DS_COUNT; i++) {
        const dse__ds_spec *spec = &dse__ds_specs[i];
        if (dse__ds_is_trace(i) && r->dims.n_trace == 0)
            continue;
        hsize_t want[DSE__MAX_RANK], have[DSE__MAX_RANK] = { 0 };
        int rank = dse__shape_dims(&r->dims, spec->shape, want);
        r->dset[i] = H5Lexists(r->file, spec->path, H5P_DEFAULT) > 0
                         ? H5Dopen2(r->file, spec->path, H5P_DEFAULT) : H5I_INVALID_HID;
        hid_t space = r->dset[i] >= 0 ? H5Dget_space(r->dset[i]) : H5I_INVALID_HID;
        bool fits = space >= 0 && H5Sget_simple_extent_ndims(space) == rank &&
                    H5Sget_simple_extent_dims(space, have, NULL) == rank &&
                    !memcmp(want, have, sizeof(hsize_t) * (size_t)rank);
        if (space >= 0)
            H5Sclose(space);
        if (!fits) {
            snprintf(err, n, "%s: dataset %s is missing or has the wrong shape", path, spec->path);
            return -1;
        }
    }
    return 0;
}

static int same_sweep(dse_results *r, const char *path, const dse_sweep *s, char *err, size_t n)
{
    char *text = ana_h5_attr_dup(r->file, "sweep_config");
    if (!text) {
        snprintf(err, n, "%s is not an rfdse results file (no sweep_config attribute)", path);
        return -1;
    }
    dse_sweep *old = dse_sweep_load_string(text, path, NULL);
    free(text);
    if (!old) {
        snprintf(err, n, "%s: its sweep_config attribute does not load", path);
        return -1;
    }
    old->output = s->output; /* the same sweep may be resumed under another name */
    bool same = dse_sweep_equal(old, s);
    bool same_seed = old->chips.seed == s->chips.seed;
    dse_sweep_free(old);
    if (!same) {
        snprintf(err, n, "%s was made by a different %s; resume it with the sweep file and "
                 "seed that made it, or use --force to replace it", path,
                 same_seed ? "sweep" : "seed");
        return -1;
    }
    return 0;
}

/* The same sweep with another selection has other techniques or workloads on the same
 * positions: refused.  A file older than the attribute holds the whole sweep. */
static int same_selection(dse_results *r, const char *path, const char *want, char *err,
                          size_t n)
{
    char *have = H5Aexists(r->file, "selection") > 0
                     ? ana_h5_attr_dup(r->file, "selection") : strdup("");
    int rc = have && !strcmp(have, want) ? 0 : -1;
    if (rc)
        snprintf(err, n, "%s holds %s%.300s and this run asks for %s%.300s: resume with the "
                 "same --techniques and --workloads", path, have && *have ? "" : "the whole sweep",
                 have ? have : "", *want ? "" : "the whole sweep", want);
    free(have);
    return rc;
}

/* The revisions that computed units of a file, comma-separated in the order they
 * joined; a file older than the git_revisions attribute has only git_revision. */
static char *file_revisions(hid_t file)
{
    char *list = ana_h5_attr_dup(file, "git_revisions");
    return list ? list : ana_h5_attr_dup(file, "git_revision");
}

static bool has_revision(const char *list, const char *rev)
{
    size_t n = strlen(rev);
    for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
        if (!strncmp(p, rev, n) && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

/* Appends this revision to git_revisions (collective: every rank read the same list
 * and writes the same value). */
static int add_revision(dse_results *r, const char *path, const char *list, char *err,
                        size_t n)
{
    size_t len = strlen(list) + strlen(DSE_GIT_REVISION) + 2;
    char *more = malloc(len);
    if (more)
        snprintf(more, len, "%s,%s", list, DSE_GIT_REVISION);
    int rc = !more || ana_h5_set_str(r->file, "git_revisions", more) ? -1 : 0;
    if (rc)
        snprintf(err, n, "%s: cannot record this revision in git_revisions", path);
    free(more);
    return rc;
}

/* Another build may compute other numbers (a model fix is a new revision): refused
 * unless forced; a forced resume with work left records this revision. */
static int check_revision(dse_results *r, const char *path, bool force, bool work_left,
                          char *err, size_t n)
{
    char *list = file_revisions(r->file);
    if (!list) {
        snprintf(err, n, "%s has no git_revision attribute: not an rfdse results file", path);
        return -1;
    }
    int rc = 0;
    bool known = has_revision(list, DSE_GIT_REVISION);
    if (!known && !force) {
        snprintf(err, n, "%s was computed by rfdse git revision %.200s and this rfdse is %s: "
                 "resume with the build that made it, or add --force-revision to mix them "
                 "(recorded in the file's git_revisions)", path, list, DSE_GIT_REVISION);
        rc = -1;
    } else if (!known && work_left) {
        rc = add_revision(r, path, list, err, n);
    }
    free(list);
    return rc;
}

static bool any_left(const uint8_t *done, const dse_dims *d)
{
    for (size_t i = 0; i < (size_t)dse_dims_units(d); i++)
        if (!done[i])
            return true;
    return false;
}

static int read_done(dse_results *r, uint8_t *done)
{
    return H5Dread(r->dset[DSE__DS_DONE], H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, r->dxpl, done) < 0
               ? -1 : 0;
}

/* Every rank checks its share of blocks of rows, (point, chip) with design points
 * (ana_checksum_verify reads them with independent transfers); all learn every damaged
 * unit and clear its done flag. */
static int verify_checksums(dse_results *r, uint8_t *done, char *err, size_t n)
{
    enum { BLOCK = 256 };
    int rows = dse_dims_points(&r->dims) * r->dims.n_chips;
    size_t units = (size_t)dse_dims_units(&r->dims);
    uint8_t *bad = calloc(units ? units : 1, 1);
    int size, rc = bad ? 0 : -1;
    MPI_Comm_size(r->comm, &size);
    for (int lo = r->rank * BLOCK; !rc && lo < rows; lo += size * BLOCK) {
        int hi = lo + BLOCK < rows ? lo + BLOCK : rows;
        rc = ana_checksum_verify(r->file, r->dxpl, lo, hi, done, bad) ? -1 : 0;
    }
    int all;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, r->comm);
    if (!all && units)
        MPI_Allreduce(MPI_IN_PLACE, bad, (int)units, MPI_UINT8_T, MPI_MAX, r->comm);
    if (all)
        snprintf(err, n, "%s: cannot read its results to check their checksums", r->path);
    else
        r->n_damaged = ana_checksum_describe(r->file, r->dims.n_points, r->dims.n_chips,
                                             r->dims.n_techniques, bad, r->damaged,
                                             sizeof r->damaged);
    for (size_t i = 0; !all && i < units; i++)
        done[i] = done[i] && !bad[i];
    free(bad);
    return all ? -1 : 0;
}

const char *dse_results_damaged(const dse_results *r, long *n)
{
    *n = r->n_damaged;
    return r->n_damaged ? r->damaged : NULL;
}

/* /analysis holds statistics of the results as they were: a run that changes them
 * deletes it (collective), before any result changes, so no reader takes stale counts
 * for the file's.  `rfdse analyze` writes it again. */
static int drop_analysis(dse_results *r, char *err, size_t n)
{
    htri_t has = H5Lexists(r->file, "/analysis", H5P_DEFAULT);
    if (has > 0 && (H5Ldelete(r->file, "/analysis", H5P_DEFAULT) < 0 ||
                    H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0)) {
        snprintf(err, n, "%s: cannot remove its /analysis group (stale once results change)",
                 r->path);
        return -1;
    }
    return has < 0 ? -1 : 0;
}

dse_results *dse_results_resume(const char *path, const dse_results_of *of, MPI_Comm comm,
                                bool force_revision, uint8_t *done, char *err, size_t n)
{
    dse_dims d;
    dse_dims_of(of->stored, &d);
    dse_results *r = results_new(comm, &d, path);
    if (!r) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    if (out_target_check(path, err, n))
        goto fail;
    htri_t is_h5 = access(path, R_OK) == 0 ? H5Fis_hdf5(path) : -1; /* HDF5 1.10 */
    if (is_h5 <= 0) {
        snprintf(err, n, "cannot resume %s: %s", path,
                 access(path, F_OK) ? "no such file" : "not an HDF5 file (truncated or corrupt)");
        goto fail;
    }
    if (dse__results_grow(path, of, comm, force_revision, err, n))
        goto fail;
    if (open_file(r, path, err, n) || same_sweep(r, path, of->sweep, err, n) ||
        same_selection(r, path, of->selection, err, n) || open_datasets(r, path, err, n))
        goto fail;
    if (read_done(r, done)) {
        snprintf(err, n, "%s: cannot read /progress/done", path);
        goto fail;
    }
    if (verify_checksums(r, done, err, n))
        goto fail;
    bool left = any_left(done, &d);
    if (check_revision(r, path, force_revision, left, err, n) ||
        (left && drop_analysis(r, err, n)))
        goto fail;
    return r;
fail:
    dse_results_close(r);
    return NULL;
}
