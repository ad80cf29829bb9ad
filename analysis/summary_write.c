/* Writing /analysis back into a results file.
 *
 * Never a half-written file: the original is copied byte for byte to a temporary file in
 * the same directory, /analysis is replaced in the copy, and the copy is flushed and
 * renamed over the original (rename is atomic within a file system).  An interrupted run
 * leaves the original as it was plus, at worst, a stray OUT.h5.analyze-XXXXXX.  Nothing
 * but /analysis is opened for writing, so /results stays bit-identical.  HDF5 does not
 * reclaim the space of a deleted group: a re-run grows the file by the size of the old
 * /analysis (`h5repack` compacts it). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ana_internal.h"

/* Statistics fields written as datasets: member of ana_stats, dataset name, description. */
#define STAT_FIELDS(X)                                                                  \
    X(mean, mean, "mean over chips")                                                    \
    X(std, std, "sample standard deviation over chips (n - 1)")                         \
    X(p5, p5, "5th percentile over chips")                                              \
    X(p50, p50, "median over chips")                                                    \
    X(p95, p95, "95th percentile over chips")                                           \
    X(min, min, "minimum over chips")                                                   \
    X(max, max, "maximum over chips")                                                   \
    X(ci_low, ci95_low, "lower end of the 95 % confidence interval of the mean (Student t)") \
    X(ci_high, ci95_high, "upper end of the 95 % confidence interval of the mean (Student t)")

static int copy_file(const char *from, int to_fd)
{
    int in = open(from, O_RDONLY);
    if (in < 0)
        return -1;
    char buf[1 << 16];
    ssize_t n;
    int rc = 0;
    while ((n = read(in, buf, sizeof buf)) > 0)
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(to_fd, buf + off, (size_t)(n - off));
            if (w < 0) {
                rc = -1;
                goto done;
            }
            off += w;
        }
    if (n < 0)
        rc = -1;
done:
    close(in);
    return rc;
}

/* Attaches the view's coordinates to each of its statistics (h5scales.c). */
static int label_view(hid_t g, const char *x_axis)
{
    const char *dims[3] = { "technique", x_axis, NULL };
    int rank = x_axis ? 2 : 1;
#define LABEL_STAT(f, name, doc) || ana__scales_attach(g, #name, dims, rank)
    if (0 STAT_FIELDS(LABEL_STAT) || ana__scales_attach(g, "n", dims, rank) ||
        ana__scales_attach(g, "n_nan", dims, rank))
        return ANA_EIO;
#undef LABEL_STAT
    dims[rank] = "edge";
    if (ana__scales_attach(g, "bin_edges", dims, rank + 1))
        return ANA_EIO;
    dims[rank] = "bin";
    return ana__scales_attach(g, "histogram", dims, rank + 1);
}

static int write_view(hid_t parent, const ana_results *r, const ana_view *v)
{
    int rc = ANA_EIO;
    hid_t g = H5I_INVALID_HID;
    size_t nv = (size_t)v->n_tech * (size_t)v->n_x;
    int rank = v->x_axis ? 2 : 1;
    hsize_t dims[3] = { (hsize_t)v->n_tech, (hsize_t)v->n_x, 0 };
    double *col = malloc(nv * sizeof *col);
    uint64_t *cnt = malloc(nv * sizeof *cnt);
    char norm[128], axes[64];
    const char *na = ana_metric_norm_attr(v->metric);
    snprintf(norm, sizeof norm, "%s%s%s", strcmp(na, "units") ? na : "",
             strcmp(na, "units") ? "=" : "", ana_metric_norm(v->metric));
    snprintf(axes, sizeof axes, "technique%s%s", v->x_axis ? "," : "", v->x_axis ? v->x_axis : "");
    if (!col || !cnt)
        goto done;
    if ((g = H5Gcreate2(parent, v->name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        goto done;
    if (ana_h5_set_str(g, "description", v->doc) ||
        ana_h5_set_str(g, "source", v->source) ||
        ana_h5_set_str(g, "axes", axes) ||
        ana_h5_set_str(g, na, ana_metric_norm(v->metric)) ||
        ana__scales_write(g, r, v))
        goto done;
#define WRITE_STAT(f, name, doc)                                                        \
    for (size_t i = 0; i < nv; i++)                                                     \
        col[i] = v->stats[i].f;                                                         \
    if (ana_h5_write(g, #name, H5T_NATIVE_DOUBLE, rank, dims, col, doc, norm))         \
        goto done;
    STAT_FIELDS(WRITE_STAT)
#undef WRITE_STAT
    for (size_t i = 0; i < nv; i++)
        cnt[i] = v->stats[i].n;
    if (ana_h5_write(g, "n", H5T_NATIVE_UINT64, rank, dims, cnt,
                      "chips with a finite value (NaN skipped)", "chips"))
        goto done;
    for (size_t i = 0; i < nv; i++)
        cnt[i] = v->stats[i].n_nan;
    if (ana_h5_write(g, "n_nan", H5T_NATIVE_UINT64, rank, dims, cnt,
                      "chips whose value is NaN (not computed), skipped", "chips"))
        goto done;
    dims[rank] = (hsize_t)v->n_bins + 1;
    if (ana_h5_write(g, "bin_edges", H5T_NATIVE_DOUBLE, rank + 1, dims, v->edges,
                      "histogram bin edges, n_bins + 1 per histogram; bin i is "
                      "[edge i, edge i+1); NaN when every value is NaN", norm))
        goto done;
    dims[rank] = (hsize_t)v->n_bins;
    if (ana_h5_write(g, "histogram", H5T_NATIVE_UINT64, rank + 1, dims, v->counts,
                      "chips per bin", "chips"))
        goto done;
    if (label_view(g, v->x_axis))
        goto done;
    rc = ANA_EOK;
done:
    free(col);
    free(cnt);
    if (g >= 0)
        H5Gclose(g);
    return rc;
}

static int write_analysis(hid_t f, const ana_results *r, const ana_summary *s,
                          const char *tool_version)
{
    int rc = ANA_EIO;
    hid_t g = H5I_INVALID_HID;
    char created[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    if (ana_h5_exists(f, "/analysis") && H5Ldelete(f, "/analysis", H5P_DEFAULT) < 0)
        goto done;
    if ((g = H5Gcreate2(f, "/analysis", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        goto done;
    if (ana_h5_set_str(g, "description",
                                "distributions over chips of /results, written by rfdse "
                                "analyze; replaced on every run") ||
        ana_h5_set_str(g, "rfdse_version", tool_version ? tool_version : "unknown") ||
        ana_h5_set_str(g, "created", created) ||
        ana_h5_set_str(g, "binning",
                                "per histogram: n_bins = ceil(2 n_chips^(1/3)) clamped to "
                                "[5, 50]; width w = smallest of {1, 2, 2.5, 5} x 10^k not "
                                "below (max - min) / (n_bins - 1); edges (floor(min / w) + i) w") ||
        ana_h5_set_str(g, "percentiles",
                                "linear interpolation between order statistics "
                                "(gsl_stats_quantile_from_sorted_data)") ||
        ana_h5_set_str(g, "confidence",
                                "95 % CI of the mean: mean +- t(0.975, n - 1) std / sqrt(n)"))
        goto done;
    for (int i = 0; i < s->n_views; i++)
        if (write_view(g, r, &s->views[i]))
            goto done;
    rc = ANA_EOK;
done:
    if (g >= 0)
        H5Gclose(g);
    return rc;
}

int ana_summary_write(const char *path, const ana_results *r, const ana_summary *s,
                      const char *tool_version, FILE *err)
{
    int rc = ANA_EIO, fd = -1;
    hid_t f = H5I_INVALID_HID;
    struct stat st;
    char tmp[OUT_PATH_MAX + 32], why[OUT_PATH_MAX + 512];
    if (out_target_check(path, why, sizeof why)) {
        fprintf(err, ANA__PREFIX "%s\n", why);
        return ANA_EIO;
    }
    /* A run writing this file would lose its later writes to the replaced inode. */
    out_lock *lock = out_lock_take(path, "rfdse analyze", why, sizeof why);
    if (!lock) {
        fprintf(err, ANA__PREFIX "%s\n", why);
        return ANA_EIO;
    }
    snprintf(tmp, sizeof tmp, "%s.analyze-XXXXXX", path);
    if (stat(path, &st) != 0 || (fd = mkstemp(tmp)) < 0) {
        fprintf(err, ANA__PREFIX "%s: cannot create a temporary file next to it: %s\n", path,
                strerror(errno));
        out_lock_release(lock);
        return ANA_EIO;
    }
    if (copy_file(path, fd) != 0 || fchmod(fd, st.st_mode & 07777) != 0) {
        fprintf(err, ANA__PREFIX "%s: cannot copy to %s: %s\n", path, tmp, strerror(errno));
        goto done;
    }
    if ((f = ana_h5_open(tmp, 1)) < 0) {
        fprintf(err, ANA__PREFIX "%s: cannot open the copy %s for writing\n", path, tmp);
        goto done;
    }
    H5E_BEGIN_TRY { rc = write_analysis(f, r, s, tool_version); }
    H5E_END_TRY;
    herr_t closed = H5Fclose(f);
    f = H5I_INVALID_HID;
    if (rc || closed < 0 || fsync(fd) != 0) {
        fprintf(err, ANA__PREFIX "%s: cannot write /analysis (file left unchanged)\n", path);
        rc = ANA_EIO;
        goto done;
    }
    if (rename(tmp, path) != 0) {
        fprintf(err, ANA__PREFIX "%s: cannot replace it with %s: %s\n", path, tmp,
                strerror(errno));
        rc = ANA_EIO;
        goto done;
    }
    tmp[0] = '\0'; /* renamed: nothing to remove */
done:
    if (f >= 0)
        H5Fclose(f);
    if (fd >= 0)
        close(fd);
    if (tmp[0])
        unlink(tmp);
    out_lock_release(lock);
    return rc;
}
