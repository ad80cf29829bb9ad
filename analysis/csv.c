/* The numbers of /analysis as CSV: DIR/STEM_VIEW.csv holds one row per technique and
 * axis point with every statistic, DIR/STEM_VIEW_hist.csv one row per histogram bin. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <unistd.h>

#include "ana_internal.h"

static void num(FILE *f, double v) { isnan(v) ? fputs(",", f) : fprintf(f, ",%.17g", v); }

static const char *x_label(const ana_results *r, const ana_view *v, int x, char *buf, size_t n)
{
    if (!v->x_axis)
        return "all";
    if (!strcmp(v->x_axis, "benchmark"))
        return r->bench[x];
    snprintf(buf, n, "%.17g", r->year[x]);
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

static int write_one(const char *dir, const char *stem, const char *suffix, const ana_results *r,
                     const ana_view *v, int (*fn)(FILE *, const ana_results *, const ana_view *),
                     FILE *err)
{
    char path[OUT_PATH_MAX + 256], tmp[OUT_PATH_MAX + 300], why[OUT_PATH_MAX + 400];
    snprintf(path, sizeof path, "%s/%s_%s%s.csv", dir, stem, v->name, suffix);
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
    for (int i = 0; i < s->n_views; i++) {
        int rc = write_one(dir, stem, "", r, &s->views[i], write_stats, err);
        if (!rc)
            rc = write_one(dir, stem, "_hist", r, &s->views[i], write_hist, err);
        if (rc)
            return rc;
    }
    return ANA_EOK;
}
