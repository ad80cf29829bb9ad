/* A results file's progress, read-only, beside a run that may be writing it. */
#include "dse_results_status.h"

#include <hdf5.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ana_h5.h"
#include "ana_layout.h"

/* The extent of each dimension of a dataset of rank `rank` (or, with rank2 > 0, of
 * rank rank2; *got says which); -1 on error. */
static int extent2(hid_t file, const char *path, int rank, int rank2, hsize_t *dims, int *got)
{
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT), sp = d >= 0 ? H5Dget_space(d) : -1;
    int r = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    int ok = (r == rank || (rank2 > 0 && r == rank2)) && r <= 3 &&
             H5Sget_simple_extent_dims(sp, dims, NULL) == r;
    if (got)
        *got = r;
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
    return ok ? 0 : -1;
}

static int extent(hid_t file, const char *path, int rank, hsize_t *dims)
{
    return extent2(file, path, rank, 0, dims, NULL);
}

static int read_all(hid_t file, const char *path, hid_t type, void *buf)
{
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
    int rc = d < 0 || H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0 ? -1 : 0;
    if (d >= 0)
        H5Dclose(d);
    return rc;
}

static void attr_copy(hid_t file, const char *name, char *dst, size_t n)
{
    char *v = ana_h5_attr_dup(file, name);
    snprintf(dst, n, "%s", v ? v : "");
    free(v);
}

/* The technique names and /progress/done, checked against each other.  A file with
 * design points has done [point][chip][technique]: its rows are (point, chip). */
static int read_progress(hid_t file, dse_results_status *st, char *err, size_t n)
{
    hsize_t nt, d3[3], dd[2];
    int rank = 0;
    const char *tech = ana_dim_path(ANA_DIM_technique), *done_path = ana_dataset_path(ANA_DS_DONE);
    if (extent(file, tech, 1, &nt) || extent2(file, done_path, 2, 3, d3, &rank)) {
        snprintf(err, n, "no /axes/technique or /progress/done: not an rfdse results file");
        return -1;
    }
    int p = rank == 3;
    dd[0] = p ? d3[0] * d3[1] : d3[0], dd[1] = d3[p + 1];
    if (nt == 0 || nt > DSE_MAX_TECHNIQUES || dd[1] != nt || dd[0] > 100000000 ||
        (p && (d3[0] > 100000000 || d3[1] > 100000000))) {
        snprintf(err, n, "/progress/done is %llu x %llu for %llu techniques: damaged",
                 (unsigned long long)dd[0], (unsigned long long)dd[1], (unsigned long long)nt);
        return -1;
    }
    st->n_points = p ? (int)d3[0] : 0;
    char (*names)[ANA_H5_STR_LEN] = calloc(nt, ANA_H5_STR_LEN);
    uint8_t *done = malloc(dd[0] * dd[1] + 1);
    hid_t str = ana_h5_str_type();
    int rc = !names || !done || read_all(file, tech, str, names) ||
                     read_all(file, done_path, H5T_NATIVE_UINT8, done) ? -1 : 0;
    if (rc)
        snprintf(err, n, "cannot read /axes/technique or /progress/done");
    st->n_chips = (int)d3[p];
    st->n_tech = (int)nt;
    st->total = (long)(dd[0] * dd[1]);
    for (int t = 0; !rc && t < st->n_tech; t++) {
        size_t len = strnlen(names[t], ANA_H5_STR_LEN); /* null-padded, maybe not ended */
        len = len < sizeof st->tech[t] - 1 ? len : sizeof st->tech[t] - 1;
        memcpy(st->tech[t], names[t], len);
        st->tech[t][len] = '\0';
        for (size_t c = 0; c < dd[0]; c++) /* every (point,) chip */
            st->done_per_tech[t] += done[c * nt + (size_t)t] != 0;
        st->done += st->done_per_tech[t];
    }
    H5Tclose(str);
    free(names);
    free(done);
    return rc;
}

/* HDF5's signature at 0 or a power of two from 512 (after a user block). */
static bool is_hdf5(const char *path)
{
    static const unsigned char sig[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };
    unsigned char buf[8];
    FILE *f = fopen(path, "rb");
    bool yes = false;
    for (long at = 0; f && !yes && at <= (1L << 20); at = at ? 2 * at : 512)
        yes = fseek(f, at, SEEK_SET) == 0 && fread(buf, 1, 8, f) == 8 && !memcmp(buf, sig, 8);
    if (f)
        fclose(f);
    return yes;
}

int dse_results_status_read(const char *path, dse_results_status *st, char *err, size_t n)
{
    memset(st, 0, sizeof *st);
    if (!is_hdf5(path)) {
        snprintf(err, n, "not an HDF5 file: not an rfdse results file");
        return -1;
    }
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* HDF5's own lock (flock) would make a reader wait for, or be refused by, a writer
     * holding it; rfdse's lock is the advisory PATH.lock, which status only asks about. */
    if (fapl < 0 || H5Pset_file_locking(fapl, 0, 1) < 0) {
        snprintf(err, n, "cannot set up HDF5");
        if (fapl >= 0)
            H5Pclose(fapl);
        return -1;
    }
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
    if (file < 0) {
        snprintf(err, n, "cannot open it as HDF5 (not a results file, or caught mid-write: "
                         "try again)");
        return -1;
    }
    int rc = -1;
    if (H5Aexists(file, "rfdse_version") <= 0)
        snprintf(err, n, "no rfdse_version attribute: not an rfdse results file");
    else
        rc = read_progress(file, st, err, n);
    attr_copy(file, "created", st->created, sizeof st->created);
    attr_copy(file, "git_revision", st->git_revision, sizeof st->git_revision);
    attr_copy(file, "selection", st->selection, sizeof st->selection);
    H5Fclose(file);
    return rc;
}
