/* A results file with design points: loading, statistics over chips per (point,
 * technique), paired differences against baseline (chip k is the same draw at every
 * point and for every technique, so differences are paired), the table and the CSV. */
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ana_design.h"
#include "ana_internal.h"

const char *ana_dq_name(ana_dq q)
{
    static const char *const names[] = {
#define ANA__DQN(id, name, doc) name,
        ANA_DESIGN_QUANTITIES(ANA__DQN)
#undef ANA__DQN
    };
    return names[q];
}

bool ana_design_is(const char *path)
{
    hid_t f = ana_h5_open(path, 0);
    bool yes = f >= 0 && ana_h5_exists(f, ana_dim_path(ANA_DIM_point)) &&
               ana_h5_exists(f, RFDSE_FILE_RESULTS);
    if (f >= 0)
        H5Fclose(f);
    return yes;
}

void ana_design_free(ana_design *d)
{
    if (!d)
        return;
    free(d->kval);
    free(d->ktext);
    free(d->tech);
    free(d->colour);
    for (int q = 0; q < ANA_N_DQ; q++) {
        free(d->chip[q]);
        free(d->stat[q]);
    }
    free(d->generation);
    free(d);
}

static int dim(hid_t f, const char *path)
{
    int rank;
    hsize_t dims[8];
    return ana_h5_shape(f, path, &rank, dims) == ANA_EOK && rank == 1 ? (int)dims[0] : -1;
}

/* The knobs, in the sweep's order: the `coordinates` attribute of /results/performance. */
static int load_knobs(hid_t f, ana_design *d)
{
    char coords[ANA_DESIGN_MAX_KNOBS * (ANA_DESIGN_KNOB_MAX + 1) + 1] = "";
    if (ana_h5_attr_string(f, "/results/performance", "coordinates", coords, sizeof coords))
        return ANA_ECORRUPT;
    for (char *p = strtok(coords, " "); p && d->n_knobs < ANA_DESIGN_MAX_KNOBS;
         p = strtok(NULL, " "))
        snprintf(d->knob[d->n_knobs++], ANA_DESIGN_KNOB_MAX, "%s", p);
    d->kval = calloc((size_t)d->P * (size_t)(d->n_knobs + 1), sizeof(double));
    d->ktext = calloc((size_t)d->P * (size_t)(d->n_knobs + 1), sizeof(ana_name));
    double *col = malloc(sizeof(double) * (size_t)d->P);
    ana_name *txt = calloc((size_t)d->P, sizeof(ana_name));
    int rc = d->kval && d->ktext && col && txt ? ANA_EOK : ANA_ENOMEM;
    for (int j = 0; !rc && j < d->n_knobs; j++) {
        char path[160];
        snprintf(path, sizeof path, "/axes/knob/%s", d->knob[j]);
        hid_t ds = H5Dopen2(f, path, H5P_DEFAULT), type = ds >= 0 ? H5Dget_type(ds) : -1;
        d->knob_text[j] = type >= 0 && H5Tget_class(type) == H5T_STRING;
        if (type >= 0)
            H5Tclose(type);
        if (ds >= 0)
            H5Dclose(ds);
        if (ds < 0)
            rc = ANA_ECORRUPT;
        else if (d->knob_text[j])
            rc = ana_h5_read_names(f, path, txt, d->P);
        else
            rc = ana_h5_read_double(f, path, col);
        for (int p = 0; !rc && p < d->P; p++) {
            ana_name *t = &d->ktext[(size_t)p * (size_t)d->n_knobs + (size_t)j];
            double *v = &d->kval[(size_t)p * (size_t)d->n_knobs + (size_t)j];
            if (d->knob_text[j]) { /* category: index of its first appearance */
                snprintf(*t, sizeof *t, "%s", txt[p]);
                int first = p;
                for (int q = 0; q < p && first == p; q++)
                    if (!strcmp(txt[q], txt[p]))
                        first = q;
                *v = first == p ? (double)p : d->kval[(size_t)first * (size_t)d->n_knobs + (size_t)j];
            } else {
                *v = col[p];
                snprintf(*t, sizeof *t, "%.6g", col[p]);
            }
        }
    }
    free(col);
    free(txt);
    return rc;
}

/* Chip-level values of quantity q from dataset [P][C][T][n]: the mean over n (workloads),
 * or element 0 (time zero of a per-year metric); NaN where the unit is not done. */
static int load_quantity(hid_t f, ana_design *d, ana_dq q, const uint8_t *done)
{
    static const char *const ds[] = { "/results/performance", "/results/ipc",
                                      "/results/frequency", "/results/rf_energy" };
    int n = q == ANA_DQ_frequency ? d->Y : d->B;
    size_t units = (size_t)d->P * (size_t)d->C * (size_t)d->T;
    double *all = malloc(sizeof(double) * units * (size_t)n);
    d->chip[q] = malloc(sizeof(double) * units);
    if (!all || !d->chip[q]) {
        free(all);
        return ANA_ENOMEM;
    }
    int rc = ana_h5_read_double(f, ds[q], all);
    for (size_t u = 0; !rc && u < units; u++) {
        double s = 0;
        int k = 0;
        for (int i = 0; i < (q == ANA_DQ_frequency ? 1 : n); i++) {
            double v = all[u * (size_t)n + (size_t)i];
            s += v, k++;
        }
        d->chip[q][u] = done[u] && k ? s / k : NAN;
    }
    free(all);
    return rc;
}

/* Mean and a t-based 95 % interval of x[0..n) (NaN skipped); quantiles too. */
static void stats(double *x, int n, ana_dstat *s)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(x[i]))
            x[k++] = x[i];
    s->n = k;
    s->mean = s->sd = s->ci_low = s->ci_high = s->p5 = s->p50 = s->p95 = NAN;
    if (!k)
        return;
    s->mean = gsl_stats_mean(x, 1, (size_t)k);
    gsl_sort(x, 1, (size_t)k);
    s->p5 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)k, 0.05);
    s->p50 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)k, 0.5);
    s->p95 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)k, 0.95);
    if (k < 2)
        return;
    s->sd = gsl_stats_sd(x, 1, (size_t)k);
    double h = gsl_cdf_tdist_Pinv(0.975, k - 1) * s->sd / sqrt((double)k);
    s->ci_low = s->mean - h, s->ci_high = s->mean + h;
}

static int summarise(ana_design *d)
{
    double *x = malloc(sizeof(double) * (size_t)(d->C ? d->C : 1));
    if (!x)
        return ANA_ENOMEM;
    for (int q = 0; q < ANA_N_DQ; q++) {
        d->stat[q] = calloc((size_t)d->P * (size_t)d->T, sizeof(ana_dstat));
        if (!d->stat[q]) {
            free(x);
            return ANA_ENOMEM;
        }
        for (int p = 0; p < d->P; p++)
            for (int t = 0; t < d->T; t++) {
                ana_dstat *s = &d->stat[q][(size_t)p * (size_t)d->T + (size_t)t];
                const double *v = d->chip[q] + (size_t)p * (size_t)d->C * (size_t)d->T;
                for (int c = 0; c < d->C; c++)
                    x[c] = v[(size_t)c * (size_t)d->T + (size_t)t];
                stats(x, d->C, s);
                ana_dstat g = { 0 };
                g.mean = NAN;
                if (d->baseline >= 0) { /* paired: the same chip under both */
                    for (int c = 0; c < d->C; c++)
                        x[c] = v[(size_t)c * (size_t)d->T + (size_t)t] -
                               v[(size_t)c * (size_t)d->T + (size_t)d->baseline];
                    stats(x, d->C, &g);
                }
                s->gain = g.mean, s->gain_low = g.ci_low, s->gain_high = g.ci_high;
            }
    }
    free(x);
    return ANA_EOK;
}

int ana_design_load(const char *path, ana_design **out, FILE *err)
{
    *out = NULL;
    ana_design *d = calloc(1, sizeof *d);
    hid_t f = ana_h5_open(path, 0);
    uint8_t *done = NULL;
    int rc = !d ? ANA_ENOMEM : f < 0 ? ANA_ENOTRFDSE : ANA_EOK;
    if (!rc) {
        snprintf(d->path, sizeof d->path, "%s", path);
        d->P = dim(f, ana_dim_path(ANA_DIM_point)), d->C = dim(f, ana_dim_path(ANA_DIM_chip));
        d->T = dim(f, ana_dim_path(ANA_DIM_technique)), d->B = dim(f, ana_dim_path(ANA_DIM_benchmark));
        d->Y = dim(f, ana_dim_path(ANA_DIM_year));
        rc = d->P < 1 || d->C < 1 || d->T < 1 || d->B < 1 || d->Y < 1 ? ANA_ECORRUPT : ANA_EOK;
    }
    size_t units = rc ? 0 : (size_t)d->P * (size_t)d->C * (size_t)d->T;
    if (!rc && (!(d->tech = calloc((size_t)d->T, sizeof(ana_name))) ||
                !(done = malloc(units))))
        rc = ANA_ENOMEM;
    if (!rc)
        rc = ana_h5_read_names(f, ana_dim_path(ANA_DIM_technique), d->tech, d->T) ||
                     ana_h5_read_u8(f, ana_dataset_path(ANA_DS_DONE), done) ? ANA_ECORRUPT
                 : load_knobs(f, d);
    if (!rc)
        rc = ana__technique_colours(f, d->tech, d->T, &d->colour);
    for (int q = 0; !rc && q < ANA_N_DQ; q++)
        rc = load_quantity(f, d, (ana_dq)q, done);
    if (!rc) {
        d->aged = d->Y > 1;
        d->baseline = -1;
        for (int t = 0; t < d->T; t++)
            if (!strcmp(d->tech[t], "baseline"))
                d->baseline = t;
        if (ana_h5_exists(f, "/axes/generation") &&
            (d->generation = malloc(sizeof(int) * (size_t)d->P)) &&
            ana_h5_read_int(f, "/axes/generation", d->generation)) {
            free(d->generation);
            d->generation = NULL;
        }
        ana_name tn = "";
        d->search_tech = -1;
        if (d->generation &&
            !ana_h5_attr_string(f, "/axes/generation", "technique", tn, sizeof tn))
            for (int t = 0; t < d->T; t++)
                if (!strcmp(d->tech[t], tn))
                    d->search_tech = t;
        if (d->generation)
            ana_h5_attr_string(f, "/axes/generation", "objectives", d->objectives,
                                sizeof d->objectives);
        rc = summarise(d);
    }
    if (rc && err)
        fprintf(err, ANA__PREFIX "%s: %s\n", path,
                rc == ANA_ENOMEM ? "out of memory"
                                 : "not a readable results file with design points");
    if (f >= 0)
        H5Fclose(f);
    free(done);
    if (rc)
        ana_design_free(d);
    else
        *out = d;
    return rc;
}

void ana_design_table(FILE *out, const ana_design *d)
{
    fprintf(out, "%s: %d design points x %d chips x %d techniques\n", d->path, d->P, d->C,
            d->T);
    fprintf(out, "%-6s", "point");
    for (int j = 0; j < d->n_knobs; j++)
        fprintf(out, " %14.14s", d->knob[j]);
    fprintf(out, " %-16s %21s %9s %21s %10s\n", "technique",
            d->aged ? "lifetime perf. (95%)" : "performance (95%)", "p5",
            d->baseline >= 0 ? "- baseline (paired)" : "", "rf_energy");
    for (int p = 0; p < d->P; p++)
        for (int t = 0; t < d->T; t++) {
            const ana_dstat *s = &d->stat[ANA_DQ_performance][(size_t)p * (size_t)d->T + (size_t)t];
            const ana_dstat *e = &d->stat[ANA_DQ_rf_energy][(size_t)p * (size_t)d->T + (size_t)t];
            fprintf(out, "%-6d", p);
            for (int j = 0; j < d->n_knobs; j++)
                fprintf(out, " %14.14s", d->ktext[(size_t)p * (size_t)d->n_knobs + (size_t)j]);
            fprintf(out, " %-16.16s %7.4f [%.4f,%.4f] %9.4f", d->tech[t], s->mean, s->ci_low,
                    s->ci_high, s->p5);
            if (d->baseline >= 0)
                fprintf(out, " %+7.4f [%+.4f,%+.4f]", s->gain, s->gain_low, s->gain_high);
            fprintf(out, " %10.4f\n", e->mean);
        }
    fprintf(out, "(chip values: mean over workloads; 95 %% intervals from Student's t over "
                 "chips; paired: the same chip under both techniques)\n");
}

/* ---- CSV -------------------------------------------------------------------------- */

static void num(FILE *f, double v)
{
    char b[32];
    fputc(',', f);
    if (isnan(v))
        return;
    for (int p = 1; p <= 17; p++) {
        snprintf(b, sizeof b, "%.*g", p, v);
        if (strtod(b, NULL) == v)
            break;
    }
    fputs(b, f);
}

static void knob_header(FILE *f, const ana_design *d)
{
    fputs("point", f);
    for (int j = 0; j < d->n_knobs; j++)
        fprintf(f, ",%s", d->knob[j]);
}

static void knob_cells(FILE *f, const ana_design *d, int p)
{
    fprintf(f, "%d", p);
    for (int j = 0; j < d->n_knobs; j++) {
        size_t i = (size_t)p * (size_t)d->n_knobs + (size_t)j;
        if (d->knob_text[j])
            fprintf(f, ",%s", d->ktext[i]);
        else
            num(f, d->kval[i]);
    }
}

static int write_points(FILE *f, const ana_design *d, const void *unused)
{
    (void)unused;
    knob_header(f, d);
    fputs(",technique,quantity,n,mean,sd,ci95_low,ci95_high,p5,p50,p95,"
          "paired_minus_baseline,paired_ci95_low,paired_ci95_high\n", f);
    for (int p = 0; p < d->P; p++)
        for (int t = 0; t < d->T; t++)
            for (int q = 0; q < ANA_N_DQ; q++) {
                const ana_dstat *s = &d->stat[q][(size_t)p * (size_t)d->T + (size_t)t];
                knob_cells(f, d, p);
                fprintf(f, ",%s,%s,%d", d->tech[t], ana_dq_name((ana_dq)q), s->n);
                const double v[] = { s->mean, s->sd, s->ci_low, s->ci_high, s->p5, s->p50,
                                     s->p95, s->gain, s->gain_low, s->gain_high };
                for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
                    num(f, v[i]);
                fputc('\n', f);
            }
    return ferror(f) ? ANA_EIO : ANA_EOK;
}

/* Every value of /results: point, knobs, chip, technique, benchmark, year, metric, value. */
static int write_per_chip(FILE *f, const ana_design *d, const void *unused)
{
    (void)unused;
    hid_t h = ana_h5_open(d->path, 0);
    double *years = malloc(sizeof(double) * (size_t)d->Y);
    ana_name *bench = calloc((size_t)d->B, sizeof(ana_name));
    size_t units = (size_t)d->P * (size_t)d->C * (size_t)d->T;
    size_t most = (size_t)(d->Y > d->B ? d->Y : d->B);
    double *v = malloc(sizeof(double) * units * most);
    int rc = h < 0 || !years || !bench || !v ||
             ana_h5_read_double(h, ana_dim_path(ANA_DIM_year), years) ||
             ana_h5_read_names(h, ana_dim_path(ANA_DIM_benchmark), bench, d->B) ? ANA_EIO : ANA_EOK;
    if (!rc) {
        knob_header(f, d);
        fputs(",chip,technique,benchmark,year,metric,value\n", f);
    }
    for (int m = 0; !rc && m < ANA_N_METRICS; m++) {
        char path[96];
        bool by_year = ana_metric_axis((ana_metric)m) == ANA_AXIS_YEAR;
        int n = by_year ? d->Y : d->B;
        ana__metric_path((ana_metric)m, path, sizeof path);
        if (!ana_h5_exists(h, path))
            continue;
        rc = ana_h5_read_double(h, path, v) ? ANA_EIO : ANA_EOK;
        for (size_t u = 0; !rc && u < units; u++)
            for (int i = 0; i < n; i++) {
                int p = (int)(u / ((size_t)d->C * (size_t)d->T));
                int c = (int)(u / (size_t)d->T % (size_t)d->C), t = (int)(u % (size_t)d->T);
                char y[32] = "";
                if (by_year)
                    snprintf(y, sizeof y, "%.17g", years[i]);
                knob_cells(f, d, p);
                fprintf(f, ",%d,%s,%s,%s,%s", c, d->tech[t], by_year ? "" : bench[i], y,
                        ana_metric_name((ana_metric)m));
                num(f, v[u * (size_t)n + (size_t)i]);
                fputc('\n', f);
            }
    }
    if (h >= 0)
        H5Fclose(h);
    free(years);
    free(bench);
    free(v);
    return rc || ferror(f) ? ANA_EIO : ANA_EOK;
}

typedef struct design_table {
    const ana_design *d;
    const void *arg;
    int (*fn)(FILE *, const ana_design *, const void *);
} design_table;

static int write_design_table(FILE *f, const void *arg)
{
    const design_table *t = arg;
    return t->fn(f, t->d, t->arg);
}

/* Written under a temporary name and renamed, like every CSV of analyze. */
int ana__design_csv_file(const char *dir, const char *name, const ana_design *d,
                         int (*fn)(FILE *, const ana_design *, const void *), const void *arg,
                         FILE *err)
{
    design_table t = { d, arg, fn };
    return ana__csv_atomic(dir, name, write_design_table, &t, err);
}

int ana_design_csv(const char *dir, const char *stem, const ana_design *d, FILE *err)
{
    char a[300], b[300];
    snprintf(a, sizeof a, "%s_points", stem);
    snprintf(b, sizeof b, "%s_per_chip", stem);
    int rc = ana__design_csv_file(dir, a, d, write_points, NULL, err) ||
             ana__design_csv_file(dir, b, d, write_per_chip, NULL, err) ? ANA_EIO : ANA_EOK;
    if (!rc)
        fprintf(err, ANA__PREFIX "wrote %s/%s.csv (statistics per point, technique and "
                "quantity, with knob columns) and %s/%s.csv (every value, knob columns)\n",
                dir, a, dir, b);
    return rc;
}

int ana_design_analyze(const char *path, const char *stem, const ana_options *opt)
{
    ana_design *d;
    int rc = ana_design_load(path, &d, opt->err);
    if (rc)
        return rc;
    ana_design_table(opt->out, d);
    if (opt->csv_dir)
        rc = ana_design_csv(opt->csv_dir, stem, d, opt->err);
    if (!rc && opt->figures_dir)
        rc = ana_design_figures(opt->figures_dir, stem, d, opt->out, opt->err);
    ana_design_free(d);
    return rc;
}
