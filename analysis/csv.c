/* The numbers as CSV: DIR/STEM_VIEW.csv holds one row per technique and axis point with
 * every statistic of /analysis, DIR/STEM_VIEW_hist.csv one row per histogram bin, and
 * DIR/STEM_per_chip.csv every value of /results in one tidy long table (one row per
 * chip, technique, axis point and metric), for pandas in one line.  Numbers are
 * written in the shortest form that reads back to the same double. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <unistd.h>

#include "ana_internal.h"

/* The shortest %g form of v that strtod reads back as v. */
static void shortest(double v, char *buf, size_t n)
{
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

static void num(FILE *f, double v)
{
    char b[32];
    if (isnan(v)) {
        fputs(",", f);
        return;
    }
    shortest(v, b, sizeof b);
    fprintf(f, ",%s", b);
}

static const char *x_label(const ana_results *r, const ana_view *v, int x, char *buf, size_t n)
{
    if (!v->x_axis)
        return "all";
    if (!strcmp(v->x_axis, "benchmark"))
        return r->bench[x];
    shortest(r->year[x], buf, n);
    return buf;
}

static int write_stats(FILE *f, const ana_results *r, const ana_view *v)
{
    char b[32];
    fprintf(f, "technique,%s,n,n_nan,mean,std,ci95_low,ci95_high,min,p5,p50,p95,max\n",
            v->x_axis ? v->x_axis : "benchmarks");
    for (int t = 0; t < v->n_tech; t++)
        for (int x = 0; x < v->n_x; x++) {
            const ana_stats *s = &v->stats[(size_t)t * (size_t)v->n_x + (size_t)x];
            fprintf(f, "%s,%s,%zu,%zu", r->tech[t], x_label(r, v, x, b, sizeof b), s->n, s->n_nan);
            const double vals[] = { s->mean, s->std, s->ci_low, s->ci_high, s->min,
                                    s->p5, s->p50, s->p95, s->max };
            for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
                num(f, vals[i]);
            fputc('\n', f);
        }
    return ferror(f) ? ANA_EIO : ANA_EOK;
}

static int write_hist(FILE *f, const ana_results *r, const ana_view *v)
{
    char b[32];
    size_t nb = (size_t)v->n_bins;
    fprintf(f, "technique,%s,bin_low,bin_high,count\n", v->x_axis ? v->x_axis : "benchmarks");
    for (int t = 0; t < v->n_tech; t++)
        for (int x = 0; x < v->n_x; x++) {
            size_t tx = (size_t)t * (size_t)v->n_x + (size_t)x;
            for (size_t i = 0; i < nb; i++) {
                fprintf(f, "%s,%s", r->tech[t], x_label(r, v, x, b, sizeof b));
                num(f, v->edges[tx * (nb + 1) + i]);
                num(f, v->edges[tx * (nb + 1) + i + 1]);
                fprintf(f, ",%llu\n", (unsigned long long)v->counts[tx * nb + i]);
            }
        }
    return ferror(f) ? ANA_EIO : ANA_EOK;
}

/* Every value of /results, one row per chip, technique, axis point and metric; the
 * axis a metric does not have is left empty. */
static int write_per_chip(FILE *f, const ana_results *r, const ana_view *unused)
{
    (void)unused;
    char y[32];
    fputs("chip,technique,benchmark,year,metric,value\n", f);
    for (int c = 0; c < r->n_chip; c++)
        for (int t = 0; t < r->n_tech; t++)
            for (int m = 0; m < ANA_N_METRICS; m++) {
                if (!r->metric[m])
                    continue;
                bool by_year = ana_metric_axis((ana_metric)m) == ANA_AXIS_YEAR;
                int nx = ana_results_axis_len(r, (ana_metric)m);
                for (int x = 0; x < nx; x++) {
                    double v = r->metric[m][((size_t)c * (size_t)r->n_tech + (size_t)t) *
                                                (size_t)nx + (size_t)x];
                    if (by_year)
                        shortest(r->year[x], y, sizeof y);
                    fprintf(f, "%d,%s,%s,%s,%s", r->chip[c], r->tech[t],
                            by_year ? "" : r->bench[x], by_year ? y : "",
                            ana_metric_name((ana_metric)m));
                    num(f, v);
                    fputc('\n', f);
                }
            }
    return ferror(f) ? ANA_EIO : ANA_EOK;
}

static int write_one(const char *dir, const char *stem, const char *suffix, const ana_results *r,
                     const ana_view *v, int (*fn)(FILE *, const ana_results *, const ana_view *),
                     FILE *err)
{
    char path[OUT_PATH_MAX + 256], tmp[OUT_PATH_MAX + 300], why[OUT_PATH_MAX + 400];
    snprintf(path, sizeof path, "%s/%s_%s%s.csv", dir, stem, v ? v->name : "per_chip", suffix);
    if (out_target_check(path, why, sizeof why)) {
        fprintf(err, ANA__PREFIX "%s\n", why);
        return ANA_EIO;
    }
    /* Written under a temporary name and renamed: never a half-written table. */
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    unlink(tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(err, ANA__PREFIX "%s: cannot write: %s\n", path, strerror(errno));
        return ANA_EIO;
    }
    int rc = fn(f, r, v);
    if (fclose(f) != 0 || out_target_kind(path) || (!rc && rename(tmp, path) != 0))
        rc = ANA_EIO;
    if (rc) {
        fprintf(err, ANA__PREFIX "%s: write error\n", path);
        unlink(tmp);
    }
    return rc;
}

int ana_csv_write(const char *dir, const char *stem, const ana_results *r,
                  const ana_summary *s, FILE *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(err, ANA__PREFIX "%s: cannot create the directory: %s\n", dir, strerror(errno));
        return ANA_EIO;
    }
    int rc = write_one(dir, stem, "", r, NULL, write_per_chip, err);
    for (int i = 0; i < s->n_views && !rc; i++) {
        rc = write_one(dir, stem, "", r, &s->views[i], write_stats, err);
        if (!rc)
            rc = write_one(dir, stem, "_hist", r, &s->views[i], write_hist, err);
    }
    if (!rc)
        fprintf(err, ANA__PREFIX "wrote %d CSV files to %s: %s_per_chip.csv (every value, one "
                "row per chip, technique, axis point and metric), %s_VIEW.csv and "
                "%s_VIEW_hist.csv (statistics and histograms of /analysis)\n",
                1 + 2 * s->n_views, dir, stem, stem, stem);
    return rc;
}
