/* The numbers as CSV, two tidy tables by default: DIR/STEM_per_chip.csv every value of
 * /results (one row per chip, technique, axis point and metric) and DIR/STEM_stats.csv
 * every statistic of /analysis (one row per view, technique and axis point); with
 * histograms, DIR/STEM_hist.csv one row per histogram bin of every view.  One file per
 * kind, not per view: a sweep gave 43 files when each view had two of its own (issue 33
 * item 8).  Numbers are written in the shortest form that reads back to the same
 * double. */
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

/* A view's axis point as the tidy tables' two columns "benchmark,year": the one the
 * view does not have, and both for a view over chips alone (chip_*), left empty. */
static void axis_columns(FILE *f, const ana_results *r, const ana_view *v, int x)
{
    char b[32] = "";
    bool by_bench = v->x_axis && !strcmp(v->x_axis, "benchmark");
    bool by_year = v->x_axis && !strcmp(v->x_axis, "year");
    if (by_year)
        shortest(r->year[x], b, sizeof b);
    fprintf(f, ",%s,%s", by_bench ? r->bench[x] : "", b);
}

static int write_stats(FILE *f, const ana_results *r, const ana_summary *sum)
{
    fputs("view,technique,benchmark,year,n,n_nan,mean,std,ci95_low,ci95_high,min,p5,p50,p95,"
          "max\n", f);
    for (int i = 0; i < sum->n_views; i++) {
        const ana_view *v = &sum->views[i];
        for (int t = 0; t < v->n_tech; t++)
            for (int x = 0; x < v->n_x; x++) {
                const ana_stats *st = &v->stats[(size_t)t * (size_t)v->n_x + (size_t)x];
                fprintf(f, "%s,%s", v->name, r->tech[t]);
                axis_columns(f, r, v, x);
                fprintf(f, ",%zu,%zu", st->n, st->n_nan);
                const double vals[] = { st->mean, st->std, st->ci_low, st->ci_high, st->min,
                                        st->p5, st->p50, st->p95, st->max };
                for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++)
                    num(f, vals[k]);
                fputc('\n', f);
            }
    }
    return ferror(f) ? ANA_EIO : ANA_EOK;
}

static int write_hist(FILE *f, const ana_results *r, const ana_summary *sum)
{
    fputs("view,technique,benchmark,year,bin_low,bin_high,count\n", f);
    for (int i = 0; i < sum->n_views; i++) {
        const ana_view *v = &sum->views[i];
        size_t nb = (size_t)v->n_bins;
        for (int t = 0; t < v->n_tech; t++)
            for (int x = 0; x < v->n_x; x++) {
                size_t tx = (size_t)t * (size_t)v->n_x + (size_t)x;
                for (size_t k = 0; k < nb; k++) {
                    fprintf(f, "%s,%s", v->name, r->tech[t]);
                    axis_columns(f, r, v, x);
                    num(f, v->edges[tx * (nb + 1) + k]);
                    num(f, v->edges[tx * (nb + 1) + k + 1]);
                    fprintf(f, ",%llu\n", (unsigned long long)v->counts[tx * nb + k]);
                }
            }
    }
    return ferror(f) ? ANA_EIO : ANA_EOK;
}

/* Every value of /results, one row per chip, technique, axis point and metric; the
 * axis a metric does not have is left empty. */
static int write_per_chip(FILE *f, const ana_results *r, const ana_summary *unused)
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

int ana__csv_atomic(const char *dir, const char *name, int (*fn)(FILE *, const void *),
                    const void *arg, FILE *err)
{
    char path[OUT_PATH_MAX + 256], tmp[OUT_PATH_MAX + 300], why[OUT_PATH_MAX + 400];
    snprintf(path, sizeof path, "%s/%s.csv", dir, name);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(err, ANA__PREFIX "%s: cannot create the directory: %s\n", dir, strerror(errno));
        return ANA_EIO;
    }
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
    int rc = fn(f, arg);
    if (fclose(f) != 0 || out_target_kind(path) || (!rc && rename(tmp, path) != 0))
        rc = ANA_EIO;
    if (rc) {
        fprintf(err, ANA__PREFIX "%s: write error\n", path);
        unlink(tmp);
    }
    return rc;
}

typedef struct table {
    const ana_results *r;
    const ana_summary *sum;
    int (*fn)(FILE *, const ana_results *, const ana_summary *);
} table;

static int write_table(FILE *f, const void *arg)
{
    const table *t = arg;
    return t->fn(f, t->r, t->sum);
}

static int write_one(const char *dir, const char *stem, const char *kind, const ana_results *r,
                     const ana_summary *sum, int (*fn)(FILE *, const ana_results *, const ana_summary *),
                     FILE *err)
{
    char name[OUT_PATH_MAX];
    snprintf(name, sizeof name, "%s_%s", stem, kind);
    table t = { r, sum, fn };
    return ana__csv_atomic(dir, name, write_table, &t, err);
}

int ana_csv_write(const char *dir, const char *stem, const ana_results *r,
                  const ana_summary *s, bool histograms, FILE *err)
{
    int rc = write_one(dir, stem, "per_chip", r, s, write_per_chip, err);
    if (!rc)
        rc = write_one(dir, stem, "stats", r, s, write_stats, err);
    if (!rc && histograms)
        rc = write_one(dir, stem, "hist", r, s, write_hist, err);
    if (!rc)
        fprintf(err, ANA__PREFIX "wrote %d CSV files to %s: %s_per_chip.csv (every value: one "
                "row per chip, technique, axis point and metric), %s_stats.csv (the statistics "
                "of /analysis: one row per view, technique and axis point)%s%s%s\n",
                histograms ? 3 : 2, dir, stem, stem,
                histograms ? ", " : "; --csv-histograms adds the histograms",
                histograms ? stem : "", histograms ? "_hist.csv (one row per histogram bin)" : "");
    return rc;
}
