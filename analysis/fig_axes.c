/* Figures of a design (a results file with points): each quantity against a 1-D knob, a
 * heat map for a 2-D grid, the Pareto front over (point x technique), and the
 * hypervolume per generation of a search. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_design.h"
#include "ana_internal.h"
#include "ana_pareto.h"

static const ana_dstat *st(const ana_design *d, ana_dq q, int p, int t)
{
    return &d->stat[q][(size_t)p * (size_t)d->T + (size_t)t];
}

#define ANA_PARETO_MAX_T 64

typedef struct ord {
    double v;
    int p;
} ord;

static int by_v(const void *a, const void *b)
{
    const ord *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

/* One panel: mean of `what` (the statistic's mean, or its paired gain) per technique
 * against the knob, with its 95 % band. */
static void line_panel(FILE *gp, const ana_design *d, const ord *o, ana_dq q, bool gain,
                       const char *title, const char *ylabel)
{
    /* the key where the lines are not: a falling quantity leaves the top right free */
    const ana_dstat *first = st(d, q, o[0].p, 0), *last = st(d, q, o[d->P - 1].p, 0);
    double a = gain ? first->gain : first->mean, b = gain ? last->gain : last->mean;
    fprintf(gp, "set key top %s\n", b < a ? "right" : "left");
    char knob[2 * ANA_DESIGN_KNOB_MAX];
    ana__plot_escape(d->knob[0], knob, sizeof knob);
    fprintf(gp, "set title '%s'\nset xlabel \"%s\"\nset ylabel '%s'\n", title, knob, ylabel);
    for (int t = 0; t < d->T; t++) {
        fprintf(gp, "$t%d << EOD\n", t);
        for (int i = 0; i < d->P; i++) {
            const ana_dstat *s = st(d, q, o[i].p, t);
            double m = gain ? s->gain : s->mean, lo = gain ? s->gain_low : s->ci_low;
            double hi = gain ? s->gain_high : s->ci_high;
            fprintf(gp, "%.17g %.17g %.17g %.17g\n", o[i].v, m, isnan(lo) ? m : lo,
                    isnan(hi) ? m : hi);
        }
        fputs("EOD\n", gp);
    }
    fputs("plot ", gp);
    for (int t = 0; t < d->T; t++) {
        char name[2 * ANA_NAME_MAX];
        const char *col = d->colour[t];
        ana__plot_escape(d->tech[t], name, sizeof name);
        fprintf(gp, "%s$t%d using 1:3:4 with filledcurves fs transparent solid 0.18 noborder "
                    "lc rgb '%s' notitle, $t%d using 1:2 with linespoints pt 7 ps 0.8 lw 2 "
                    "lc rgb '%s' title \"%s\"",
                t ? ", " : "", t, col, t, col, name);
    }
    fputc('\n', gp);
}

static int fig_knob(const char *dir, const char *prefix, const ana_design *d, FILE *err)
{
    ord *o = malloc(sizeof *o * (size_t)d->P);
    if (!o)
        return ANA_ENOMEM;
    for (int p = 0; p < d->P; p++)
        o[p] = (ord){ d->kval[(size_t)p * (size_t)d->n_knobs], p };
    qsort(o, (size_t)d->P, sizeof *o, by_v);
    ana__plot pl;
    int rc = ana__plot_open(&pl, dir, prefix, ANA_FIG_knob, err);
    if (!rc) {
        FILE *gp = pl.gp;
        fputs("set multiplot layout 1,3\nset key top left font ',10'\n"
              "set grid xtics lc rgb '#d9d9d9'\n", gp);
        line_panel(gp, d, o, ANA_DQ_performance, false,
                   d->aged ? "lifetime performance (mean, 95 % band)"
                           : "performance (mean, 95 % band)",
                   "normalised to ideal");
        if (d->baseline >= 0)
            line_panel(gp, d, o, ANA_DQ_performance, true,
                       "gain over baseline, paired per chip", "performance minus baseline (same chip)");
        else
            line_panel(gp, d, o, ANA_DQ_ipc, false, "IPC (mean, 95 % band)", "normalised IPC");
        line_panel(gp, d, o, ANA_DQ_rf_energy, false, "register-file energy (mean, 95 % band)",
                   "normalised to ideal");
        fputs("unset multiplot\n", gp);
        rc = ana__plot_close(&pl, err);
    }
    free(o);
    return rc;
}

/* Distinct values of knob j in order of first appearance (a grid lists them in order). */
static int distinct(const ana_design *d, int j, double *vals, int *idx_of_point)
{
    int n = 0;
    for (int p = 0; p < d->P; p++) {
        double v = d->kval[(size_t)p * (size_t)d->n_knobs + (size_t)j];
        int k = 0;
        while (k < n && vals[k] != v)
            k++;
        if (k == n)
            vals[n++] = v;
        idx_of_point[p] = k;
    }
    return n;
}

static void tics(FILE *gp, const ana_design *d, int j, const int *idx, int n, const char *axis)
{
    fprintf(gp, "set %stics (", axis);
    for (int k = 0; k < n; k++)
        for (int p = 0; p < d->P; p++)
            if (idx[p] == k) {
                fprintf(gp, "%s'%s' %d", k ? ", " : "",
                        d->ktext[(size_t)p * (size_t)d->n_knobs + (size_t)j], k);
                break;
            }
    fputs(")\n", gp);
}

static int fig_heatmap(const char *dir, const char *prefix, const ana_design *d, FILE *err)
{
    double *v0 = malloc(sizeof(double) * (size_t)d->P), *v1 = malloc(sizeof(double) * (size_t)d->P);
    int *i0 = malloc(sizeof(int) * (size_t)d->P), *i1 = malloc(sizeof(int) * (size_t)d->P);
    int rc = v0 && v1 && i0 && i1 ? ANA_EOK : ANA_ENOMEM;
    ana__plot pl;
    if (!rc)
        rc = ana__plot_open(&pl, dir, prefix, ANA_FIG_heatmap, err);
    if (!rc) {
        int n0 = distinct(d, 0, v0, i0), n1 = distinct(d, 1, v1, i1);
        int cols = d->T <= 3 ? d->T : (d->T + 1) / 2, rows = (d->T + cols - 1) / cols;
        char k0[2 * ANA_DESIGN_KNOB_MAX], k1[2 * ANA_DESIGN_KNOB_MAX];
        ana__plot_escape(d->knob[0], k0, sizeof k0);
        ana__plot_escape(d->knob[1], k1, sizeof k1);
        FILE *gp = pl.gp;
        fprintf(gp, "set multiplot layout %d,%d title '%s per technique (mean over chips)'\n"
                    "set xlabel \"%s\"\nset ylabel \"%s\"\nunset grid\n"
                    "set palette defined (0 '#fff5eb', 0.5 '#fd8d3c', 1 '#7f2704')\n"
                    "set xrange [-0.5:%d.5]\nset yrange [-0.5:%d.5]\n",
                rows, cols, d->aged ? "lifetime performance" : "performance", k0, k1, n0 - 1,
                n1 - 1);
        tics(gp, d, 0, i0, n0, "x");
        tics(gp, d, 1, i1, n1, "y");
        for (int t = 0; t < d->T; t++) {
            char name[2 * ANA_NAME_MAX];
            ana__plot_escape(d->tech[t], name, sizeof name);
            fprintf(gp, "set title \"%s\"\n$h << EOD\n", name);
            for (int p = 0; p < d->P; p++)
                fprintf(gp, "%d %d %.17g\n", i0[p], i1[p], st(d, ANA_DQ_performance, p, t)->mean);
            fputs("EOD\nplot $h using 1:2:3 with image, $h using 1:2:(sprintf('%.3f', $3)) "
                  "with labels font ',9'\n", gp);
        }
        fputs("unset multiplot\n", gp);
        rc = ana__plot_close(&pl, err);
    }
    free(v0);
    free(v1);
    free(i0);
    free(i1);
    return rc;
}

/* The two objectives of the front, minimised: mean rf_energy, -p5 performance. */
static void objectives(const ana_design *d, double *f)
{
    for (int p = 0; p < d->P; p++)
        for (int t = 0; t < d->T; t++) {
            size_t i = (size_t)p * (size_t)d->T + (size_t)t;
            f[2 * i] = st(d, ANA_DQ_rf_energy, p, t)->mean;
            f[2 * i + 1] = -st(d, ANA_DQ_performance, p, t)->p5;
        }
}

typedef struct front_arg {
    const double *f;
    const int *rank;
} front_arg;

static int write_pareto(FILE *f, const ana_design *d, const void *arg)
{
    const front_arg *a = arg;
    fputs("point", f);
    for (int j = 0; j < d->n_knobs; j++)
        fprintf(f, ",%s", d->knob[j]);
    fputs(",technique,p5_performance,mean_rf_energy,on_front\n", f);
    for (int p = 0; p < d->P; p++)
        for (int t = 0; t < d->T; t++) {
            size_t i = (size_t)p * (size_t)d->T + (size_t)t;
            fprintf(f, "%d", p);
            for (int j = 0; j < d->n_knobs; j++)
                fprintf(f, ",%s", d->ktext[(size_t)p * (size_t)d->n_knobs + (size_t)j]);
            fprintf(f, ",%s,%.17g,%.17g,%d\n", d->tech[t], -a->f[2 * i + 1], a->f[2 * i],
                    a->rank[i] == 0 && !isnan(a->f[2 * i]) && !isnan(a->f[2 * i + 1]));
        }
    return ferror(f) ? ANA_EIO : ANA_EOK;
}

static int fig_pareto(const char *dir, const char *prefix, const ana_design *d, FILE *out,
                      FILE *err)
{
    int n = d->P * d->T, on = 0;
    double *f = malloc(sizeof(double) * 2 * (size_t)n);
    int *rank = malloc(sizeof(int) * (size_t)n);
    int rc = f && rank ? ANA_EOK : ANA_ENOMEM;
    if (!rc) {
        objectives(d, f);
        rc = ana_pareto_rank(f, n, 2, rank) < 0 ? ANA_ENOMEM : ANA_EOK;
    }
    int distinct = 0; /* designs with equal objectives count once */
    for (int i = 0; !rc && i < n; i++) {
        bool front = rank[i] == 0 && !isnan(f[2 * i]) && !isnan(f[2 * i + 1]), seen = false;
        on += front;
        for (int j = 0; front && j < i && !seen; j++)
            seen = rank[j] == 0 && f[2 * j] == f[2 * i] && f[2 * j + 1] == f[2 * i + 1];
        distinct += front && !seen;
    }
    char name[300];
    snprintf(name, sizeof name, "%spareto", prefix);
    front_arg fa = { f, rank };
    if (!rc)
        rc = ana__design_csv_file(dir, name, d, write_pareto, &fa, err);
    if (!rc)
        fprintf(out, "  pareto: %d of %d (point, technique) pairs on the front of p5 "
                     "performance (max) and mean rf_energy (min), %d distinct: %s/%s.csv\n", on,
                n, distinct, dir, name);
    ana__plot pl;
    if (!rc && on > 0)
        rc = ana__plot_open(&pl, dir, prefix, ANA_FIG_pareto, err);
    if (!rc && on > 0) {
        FILE *gp = pl.gp;
        fprintf(gp, "set title 'Pareto front: %d of %d (point, technique) pairs, %d distinct "
                    "trade-offs'\n"
                    "set xlabel 'mean register-file energy (normalised to ideal; lower is better)'\n"
                    "set ylabel '5th-percentile %sperformance over chips (higher is better)'\n"
                    "set key outside right top font ',10'\nset grid xtics\n",
                on, n, distinct, d->aged ? "lifetime " : "");
        fputs("$front << EOD\n", gp);
        /* the front in order of energy, as a staircase */
        ord *o = malloc(sizeof *o * (size_t)on);
        int m = 0;
        for (int i = 0; o && i < n; i++)
            if (rank[i] == 0 && !isnan(f[2 * i]) && !isnan(f[2 * i + 1]))
                o[m++] = (ord){ f[2 * i], i };
        if (o)
            qsort(o, (size_t)m, sizeof *o, by_v);
        for (int k = 0; k < m; k++)
            fprintf(gp, "%.17g %.17g\n", f[2 * o[k].p], -f[2 * o[k].p + 1]);
        free(o);
        fputs("EOD\n", gp);
        int shown[ANA_PARETO_MAX_T] = { 0 };
        for (int t = 0; t < d->T && t < ANA_PARETO_MAX_T; t++) {
            fprintf(gp, "$t%d << EOD\n", t);
            for (int p = 0; p < d->P; p++) {
                size_t i = (size_t)p * (size_t)d->T + (size_t)t;
                if (!isnan(f[2 * i]) && !isnan(f[2 * i + 1]))
                    fprintf(gp, "%.17g %.17g\n", f[2 * i], -f[2 * i + 1]), shown[t]++;
            }
            fputs("EOD\n", gp);
        }
        fputs("set xrange [*:*]\nset yrange [*:*]\nplot $front with steps lw 2 lc rgb '#222222' "
              "title 'Pareto front', $front with points pt 6 ps 2.2 lw 2 lc rgb '#222222' "
              "notitle", gp);
        for (int t = 0; t < d->T && t < ANA_PARETO_MAX_T; t++) {
            char tn[2 * ANA_NAME_MAX];
            ana__plot_escape(d->tech[t], tn, sizeof tn);
            if (shown[t]) /* a technique without energy (a cache design) has no point */
                fprintf(gp, ", $t%d using 1:2 with points pt 7 ps 1.1 lc rgb '%s' title \"%s\"",
                        t, d->colour[t], tn);
        }
        fputc('\n', gp);
        rc = ana__plot_close(&pl, err);
    }
    free(f);
    free(rank);
    return rc;
}

/* A search: the hypervolume of its technique's points of generations 0..g, for p5
 * performance (max) and mean rf_energy (min), against generation 0's worst plus a tenth
 * of its range (the reference rfdse run uses). */
static int fig_hypervolume(const char *dir, const char *prefix, const ana_design *d, FILE *out,
                           FILE *err)
{
    int G = 0, t = d->search_tech;
    for (int p = 0; p < d->P; p++)
        G = d->generation[p] + 1 > G ? d->generation[p] + 1 : G;
    double *f = malloc(sizeof(double) * 2 * (size_t)d->P), *hv = malloc(sizeof(double) * (size_t)G);
    int rc = f && hv ? ANA_EOK : ANA_ENOMEM;
    double ref[2] = { -INFINITY, -INFINITY }, lo[2] = { INFINITY, INFINITY };
    for (int p = 0; !rc && p < d->P; p++) {
        f[2 * p] = -st(d, ANA_DQ_performance, p, t)->p5;
        f[2 * p + 1] = st(d, ANA_DQ_rf_energy, p, t)->mean;
        for (int o = 0; o < 2 && d->generation[p] == 0; o++)
            if (!isnan(f[2 * p + o]))
                ref[o] = fmax(ref[o], f[2 * p + o]), lo[o] = fmin(lo[o], f[2 * p + o]);
    }
    for (int o = 0; o < 2; o++)
        ref[o] += 0.1 * (ref[o] > lo[o] ? ref[o] - lo[o] : 1e-12);
    for (int g = 0; !rc && g < G; g++) {
        int n = 0;
        while (n < d->P && d->generation[n] <= g)
            n++;
        hv[g] = ana_pareto_hypervolume2(f, n, ref);
    }
    ana__plot pl;
    if (!rc)
        rc = ana__plot_open(&pl, dir, prefix, ANA_FIG_hypervolume, err);
    if (!rc) {
        char tn[2 * ANA_NAME_MAX];
        ana__plot_escape(d->tech[t], tn, sizeof tn);
        fprintf(pl.gp, "set title \"search of %s: p5 performance (max), mean rf\\\\_energy (min)\"\n"
                       "set xlabel 'generation'\nset ylabel 'hypervolume of all points so far'\n"
                       "set xtics 1\n$h << EOD\n", tn);
        for (int g = 0; g < G; g++)
            fprintf(pl.gp, "%d %.17g\n", g, hv[g]);
        fputs("EOD\nplot $h with linespoints pt 7 lw 2 lc rgb '#1b7837' notitle\n", pl.gp);
        rc = ana__plot_close(&pl, err);
        fprintf(out, "  search: hypervolume %.6g after generation 0, %.6g after %d\n", hv[0],
                hv[G - 1], G - 1);
    }
    free(f);
    free(hv);
    return rc;
}

static void report(FILE *out, const char *dir, const char *prefix, ana_figure f)
{
    char path[2048];
    ana__figure_path(dir, prefix, f, path, sizeof path);
    fprintf(out, "  figure: %s  (%s)\n", path, ana_figure_get(f)->doc);
}

int ana_design_figures(const char *dir, const char *stem, const ana_design *d, FILE *out,
                       FILE *err)
{
    char prefix[300];
    snprintf(prefix, sizeof prefix, "%s_", stem);
    int rc = ANA_EOK;
    if (d->n_knobs == 1 && !d->knob_text[0] && !d->generation && !(rc = fig_knob(dir, prefix, d, err)))
        report(out, dir, prefix, ANA_FIG_knob);
    if (!rc && d->n_knobs == 2 && !d->generation && !(rc = fig_heatmap(dir, prefix, d, err)))
        report(out, dir, prefix, ANA_FIG_heatmap);
    if (!rc && !(rc = fig_pareto(dir, prefix, d, out, err)))
        report(out, dir, prefix, ANA_FIG_pareto);
    if (!rc && d->generation && d->search_tech >= 0 &&
        !(rc = fig_hypervolume(dir, prefix, d, out, err)))
        report(out, dir, prefix, ANA_FIG_hypervolume);
    return rc;
}
