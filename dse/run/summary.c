/* The short table `rfdse run` prints at the end: per technique, mean and spread over
 * chips of frequency (time zero), IPC and performance (both averaged over workloads);
 * with aging, the lifetime performance and the time-zero one (model.md section 8). */
#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dse_results.h"
#include "dse_run.h"
#include "ana_h5.h"

typedef struct table {
    int n_chips, n_tech, n_bench, n_year;
    char (*tech)[ANA_H5_STR_LEN];
    double *freq, *ipc, *perf, *perf_t0; /* perf_t0: NULL without aging */
    double end_year;
} table;

static int read_all(hid_t file, const char *path, hid_t type, void *buf)
{
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
    int rc = (d < 0 || H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) ? -1 : 0;
    if (d >= 0)
        H5Dclose(d);
    return rc;
}

static int dim_of(hid_t file, const char *path)
{
    hsize_t n = 0;
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT), sp = d >= 0 ? H5Dget_space(d) : -1;
    if (sp >= 0)
        H5Sget_simple_extent_dims(sp, &n, NULL);
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
    return (int)n;
}

/* Mean and sample standard deviation over chips of x[c][t][*] averaged over the last
 * dimension (NaN entries skipped). */
static void chip_stats(const double *x, const table *tb, int inner, int t, double *mean,
                       double *sd)
{
    double s = 0, s2 = 0;
    int n = 0;
    for (int c = 0; c < tb->n_chips; c++) {
        double v = 0;
        int k = 0;
        for (int i = 0; i < inner; i++) {
            double e = x[((size_t)c * (size_t)tb->n_tech + (size_t)t) * (size_t)inner + (size_t)i];
            if (!isnan(e))
                v += e, k++;
        }
        if (k)
            s += v / k, s2 += (v / k) * (v / k), n++;
    }
    *mean = n ? s / n : NAN;
    *sd = n > 1 ? sqrt(fmax(0, (s2 - s * s / n) / (n - 1))) : NAN;
}

static void print_table(const table *tb, FILE *out)
{
    fprintf(out, "\n%-18s %21s %21s %21s", "technique", "frequency (mean+-sd)",
            "IPC (mean+-sd)", tb->perf_t0 ? "lifetime perf." : "performance (mean+-sd)");
    fprintf(out, tb->perf_t0 ? " %21s\n" : "\n", "perf. at t = 0");
    for (int t = 0; t < tb->n_tech; t++) {
        double fm, fs, im, is, pm, ps;
        chip_stats(tb->freq, tb, tb->n_year, t, &fm, &fs);
        chip_stats(tb->ipc, tb, tb->n_bench, t, &im, &is);
        chip_stats(tb->perf, tb, tb->n_bench, t, &pm, &ps);
        fprintf(out, "%-18.32s %12.4f +- %.4f %12.4f +- %.4f %12.4f +- %.4f", tb->tech[t], fm,
                fs, im, is, pm, ps);
        if (tb->perf_t0)
            chip_stats(tb->perf_t0, tb, tb->n_bench, t, &pm, &ps);
        fprintf(out, tb->perf_t0 ? " %12.4f +- %.4f\n" : "\n", pm, ps);
    }
    fprintf(out, "(%d chips; frequency at time zero normalised to the no-variation chip; IPC and "
                 "performance normalised to ideal, averaged over %d workloads",
            tb->n_chips, tb->n_bench);
    if (tb->perf_t0)
        fprintf(out, "; lifetime performance = IPC x frequency after %g years of NBTI aging",
                tb->end_year);
    fputs(")\n", out);
}

/* With aging, /results/performance is the lifetime value: the time-zero one beside it,
 * and the last year of the schedule for the footnote. */
static int read_aged(hid_t file, table *tb, size_t cb)
{
    int ny = dim_of(file, "/axes/year");
    double *years = malloc(sizeof(double) * (size_t)ny);
    tb->perf_t0 = malloc(sizeof(double) * (cb + 1));
    int rc = !years || !tb->perf_t0 || read_all(file, "/axes/year", H5T_NATIVE_DOUBLE, years) ||
             read_all(file, "/results/performance_t0", H5T_NATIVE_DOUBLE, tb->perf_t0);
    tb->end_year = rc ? NAN : years[ny - 1];
    free(years);
    return rc ? -1 : 0;
}

/* A sweep with axes: one table per design point, headed by its knob values (from the
 * file's sweep_config, as `rfdse validate --point K FILE.h5` prints it). */
static void print_points(const table *all, int n_points, hid_t file, const char *path,
                         FILE *out)
{
    char *text = ana_h5_attr_dup(file, "sweep_config");
    dse_sweep *s = text ? dse_sweep_load_string(text, "sweep_config", NULL) : NULL;
    free(text);
    size_t cb = (size_t)all->n_chips * (size_t)all->n_tech * (size_t)all->n_bench;
    size_t ct = (size_t)all->n_chips * (size_t)all->n_tech;
    for (int p = 0; p < n_points; p++) {
        table tb = *all;
        tb.freq = all->freq + (size_t)p * ct;
        tb.ipc = all->ipc + (size_t)p * cb;
        tb.perf = all->perf + (size_t)p * cb;
        tb.perf_t0 = all->perf_t0 ? all->perf_t0 + (size_t)p * cb : NULL;
        fprintf(out, "\npoint %d:", p);
        double v[DSE_AXES_MAX_KNOBS];
        /* the values the file records (a search's come from its results) */
        if (s && dse_axes_points(s) == n_points && !dse_results_point_values(path, s, p, v)) {
            for (int j = 0; j < s->axes.n_knobs; j++) {
                char buf[64];
                dse_axes_value_text(&s->axes.knobs[j], v[j], buf, sizeof buf);
                fprintf(out, "%s %s = %s", j ? "," : "", s->axes.knobs[j].knob, buf);
            }
        }
        print_table(&tb, out);
    }
    dse_sweep_free(s);
}

int dse_run_summary(const char *path, FILE *out)
{
    table tb = { 0 };
    int rc = -1;
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), str = ana_h5_str_type();
    if (file < 0)
        goto done;
    int n_points = H5Lexists(file, "/axes/point", H5P_DEFAULT) > 0 ? dim_of(file, "/axes/point")
                                                                   : 0;
    int P = n_points > 0 ? n_points : 1;
    tb.n_chips = dim_of(file, "/axes/chip");
    tb.n_tech = dim_of(file, "/axes/technique");
    tb.n_bench = dim_of(file, "/axes/benchmark");
    tb.n_year = 1; /* time zero: the first of each frequency row */
    size_t cb = (size_t)P * (size_t)tb.n_chips * (size_t)tb.n_tech * (size_t)tb.n_bench;
    size_t cy = (size_t)P * (size_t)tb.n_chips * (size_t)tb.n_tech *
                (size_t)dim_of(file, "/axes/year");
    tb.tech = calloc((size_t)tb.n_tech + 1, ANA_H5_STR_LEN);
    tb.freq = malloc(sizeof(double) * (cy + 1));
    tb.ipc = malloc(sizeof(double) * (cb + 1));
    tb.perf = malloc(sizeof(double) * (cb + 1));
    if (!tb.tech || !tb.freq || !tb.ipc || !tb.perf ||
        read_all(file, "/axes/technique", str, tb.tech) ||
        read_all(file, "/results/frequency", H5T_NATIVE_DOUBLE, tb.freq) ||
        read_all(file, "/results/ipc", H5T_NATIVE_DOUBLE, tb.ipc) ||
        read_all(file, "/results/performance", H5T_NATIVE_DOUBLE, tb.perf))
        goto done;
    /* frequency rows hold every year; keep the first (time zero) of each */
    int ny = dim_of(file, "/axes/year");
    if (ny > 1 && read_aged(file, &tb, cb))
        goto done;
    for (size_t i = 0; i < (size_t)P * (size_t)tb.n_chips * (size_t)tb.n_tech; i++)
        tb.freq[i] = tb.freq[i * (size_t)ny];
    if (n_points > 0)
        print_points(&tb, n_points, file, path, out);
    else
        print_table(&tb, out);
    rc = 0;
done:
    H5Tclose(str);
    if (file >= 0)
        H5Fclose(file);
    free(tb.tech);
    free(tb.freq);
    free(tb.ipc);
    free(tb.perf);
    free(tb.perf_t0);
    return rc;
}
