/* Every technique on one axis: box plots of chip frequency (time zero and, with aging,
 * the end of the schedule side by side) and of a chip's performance, so the differences
 * the per-technique panels spread over a page show at a glance.  Box: 25th to 75th
 * percentile; whiskers: 5th to 95th; line: median; dot: mean. */
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_internal.h"

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One datablock row: x, p25, p5, p95, p75, median, mean (NaN row when no finite value);
 * quantiles as in /analysis (GSL's linear interpolation). */
static void box_row(FILE *gp, double x, const double *v, size_t n, double *work, double *range)
{
    size_t k = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            sum += (work[k++] = v[i]);
    if (k == 0) {
        fprintf(gp, "%g NaN NaN NaN NaN NaN NaN\n", x);
        return;
    }
    qsort(work, k, sizeof *work, by_value);
    double q[5], p[5] = { 0.25, 0.05, 0.95, 0.75, 0.5 };
    for (int i = 0; i < 5; i++)
        q[i] = gsl_stats_quantile_from_sorted_data(work, 1, k, p[i]);
    fprintf(gp, "%g %.17g %.17g %.17g %.17g %.17g %.17g\n", x, q[0], q[1], q[2], q[3], q[4],
            sum / (double)k);
    range[0] = fmin(range[0], q[1]);
    range[1] = fmax(range[1], q[2]);
}

/* A technique is drawn when some view of it varies (the normaliser is 1 everywhere). */
static int varies(const ana_view *v, int t)
{
    const ana_stats *s = &v->stats[(size_t)t * (size_t)v->n_x];
    return s->n > 0 && s->max > s->min;
}

/* $NAME: one box row per drawn technique of view v at axis point x, at x = i + offset. */
static int send_boxes(FILE *gp, const char *name, const ana_results *r, const ana_view *v,
                      int x, const int *tech, int n, double offset, double *range)
{
    double *vals = malloc(sizeof(double) * 2 * (size_t)r->n_chip + 1);
    if (!vals)
        return ANA_ENOMEM;
    fprintf(gp, "$%s << EOD\n", name);
    for (int i = 0; i < n; i++) {
        ana__view_values(r, v, tech[i], x, vals);
        box_row(gp, i + offset, vals, (size_t)r->n_chip, vals + r->n_chip, range);
    }
    fputs("EOD\n", gp);
    free(vals);
    return ANA_EOK;
}

/* The x tics (technique names) and a colour per box, as gnuplot variables. */
static void tics_and_colours(FILE *gp, const ana_results *r, const int *tech, int n)
{
    char name[2 * ANA_NAME_MAX];
    fputs("set xtics (", gp);
    for (int i = 0; i < n; i++) {
        ana__plot_escape(r->tech[tech[i]], name, sizeof name);
        fprintf(gp, "%s\"%s\" %d", i ? ", " : "", name, i);
    }
    fputs(") rotate by -35 left scale 0\narray colour[64]\n", gp);
    for (int i = 0; i < n; i++) {
        const char *c = ana__colour(r, tech[i]);
        fprintf(gp, "colour[%d] = 0x%s\n", i + 1, c + 1);
    }
}

/* One panel: boxes of $A (and $B beside them, lighter, when two) in technique colours.
 * The left axis is zoomed to the data, so with a reference (ref > 0: the baseline's
 * mean) a right axis reads it as % of the reference: a 1 % gap reads as 1 %. */
static void box_panel(FILE *gp, const char *title, const char *ylabel, int two, int n,
                      int key, double ref, const double *range)
{
    /* the whiskers' range, with room on top for the key */
    double span = range[1] - range[0] > 0 ? range[1] - range[0] : 0.01;
    double lo = range[0] - 0.04 * span, hi = range[1] + (key ? 0.2 : 0.05) * span;
    fprintf(gp, "set yrange [%.17g:%.17g]\n", lo, hi);
    if (ref > 0)
        fprintf(gp, "set y2tics nomirror out scale 0.6 format '%%+.0f %%%%'\n"
                    "set y2range [%.17g:%.17g]\n"
                    "set y2label \"%% of the baseline's mean\" offset -0.5,0\nset border 11 lw 1.2\n",
                100 * (lo / ref - 1), 100 * (hi / ref - 1));
    else
        fputs("unset y2tics\nunset y2label\nset border 3 lw 1.2\n", gp);
    fprintf(gp, "set title \"{/:Bold %s}\"\nset ylabel \"%s\"\nset xrange [-0.7:%g]\n"
                "set key %s\n", title, ylabel, n - 0.3,
            key ? "top left horizontal samplen 1.5 font 'Sans,11'" : "off");
    const char *w = two ? "0.34" : "0.55";
    fprintf(gp, "plot $A using 1:2:3:4:5:(%s):(colour[int(floor($1+0.5))+1]) with candlesticks "
                "whiskerbars 0.5 fs solid 0.85 border rgb '#333333' lc rgb variable notitle, "
                "$A using 1:6:6:6:6:(%s) with candlesticks lw 2 lc rgb '#111111' notitle, "
                "$A using 1:7 with points pt 7 ps 0.8 lc rgb '#111111' notitle", w, w);
    if (two)
        fprintf(gp, ", $B using 1:2:3:4:5:(%s):(colour[int(floor($1+0.5))+1]) with candlesticks "
                    "whiskerbars 0.5 fs transparent solid 0.3 border lw 1.5 "
                    "lc rgb variable notitle, "
                    "$B using 1:6:6:6:6:(%s) with candlesticks lw 2 lc rgb '#111111' notitle, "
                    "$B using 1:7 with points pt 7 ps 0.8 lc rgb '#111111' notitle, "
                    "NaN with boxes fs solid 0.85 lc rgb '#8c8c8c' title 't = 0', "
                    "NaN with boxes fs transparent solid 0.3 lc rgb '#8c8c8c' title "
                    "'end of the aging schedule'", w, w);
    fputc('\n', gp);
}

/* Techniques that vary in frequency or performance; the others named in *left_out. */
static int pick(const ana_results *r, const ana_view *f, const ana_view *p, int *tech,
                char *left_out, size_t size)
{
    int n = 0;
    left_out[0] = '\0';
    for (int t = 0; t < r->n_tech && n < 64; t++) {
        if ((f && varies(f, t)) || (p && varies(p, t))) {
            tech[n++] = t;
            continue;
        }
        char e[2 * ANA_NAME_MAX];
        ana__plot_escape(r->tech[t], e, sizeof e);
        size_t used = strlen(left_out);
        snprintf(left_out + used, size - used, "%s%s", used ? ", " : "; constant, not drawn: ", e);
    }
    return n;
}

/* The baseline's mean in view v (its first axis point), or 0 without a baseline. */
static double reference(const ana_results *r, const ana_view *v)
{
    int b = ana__tech_find(r, "baseline");
    double m = b < 0 ? 0 : v->stats[(size_t)b * (size_t)v->n_x].mean;
    return isfinite(m) && m > 0 ? m : 0;
}

int ana_fig_overview(const char *dir, const char *prefix, const ana_results *r,
                     const ana_summary *s, FILE *note, int *skipped)
{
    const ana_view *f = ana_summary_find(s, "frequency"), *pv = ana_summary_find(s, "chip_performance");
    int tech[64], rc;
    char left_out[512];
    int n = pick(r, f, pv, tech, left_out, sizeof left_out);
    if ((!f && !pv) || n == 0) {
        ana__skip(note, ANA_FIG_overview, f || pv ? "no technique varies over chips"
                  : "the file has neither /results/frequency nor /results/performance", skipped);
        return ANA_EOK;
    }
    int aged = f && f->n_x > 1, panels = (f != NULL) + (pv != NULL);
    ana__plot p;
    if ((rc = ana__plot_open(&p, dir, prefix, ANA_FIG_overview, note)))
        return rc;
    tics_and_colours(p.gp, r, tech, n);
    fprintf(p.gp, "set multiplot layout 1,%d title \"{/:Bold=16 Every technique on one axis}"
                  "\\n{/=12 %d chips; box: 25th-75th percentile, whiskers: 5th-95th, line: "
                  "median, dot: mean%s}\\n{/=12 the left axes are zoomed to the data, not "
                  "from 0%s}\" margins 0.06,0.93,0.2,0.82 spacing 0.15,0\n"
                  "set format y '%%.2f'\nset grid ytics\n",
            panels, r->n_chip, left_out,
            ana__tech_find(r, "baseline") >= 0 ? ": the right axes give % of the baseline's "
                                                 "mean (its time-zero frequency)" : "");
    if (f) {
        char title[128];
        snprintf(title, sizeof title, aged ? "Chip frequency, t = 0 and %g years" : "Chip frequency",
                 aged ? r->year[r->n_year - 1] : 0.0);
        double range[2] = { INFINITY, -INFINITY };
        rc = send_boxes(p.gp, "A", r, f, 0, tech, n, aged ? -0.19 : 0.0, range);
        if (!rc && aged)
            rc = send_boxes(p.gp, "B", r, f, f->n_x - 1, tech, n, 0.19, range);
        box_panel(p.gp, title, "frequency (normalised to the no-PV chip)", aged, n, aged,
                  reference(r, f), range);
    }
    if (pv && !rc) {
        char label[256];
        ana_results_perf_label(r, label, sizeof label);
        double range[2] = { INFINITY, -INFINITY };
        rc = send_boxes(p.gp, "A", r, pv, 0, tech, n, 0.0, range);
        box_panel(p.gp, ana_results_perf_is_lifetime(r) ? "Lifetime performance, mean over "
                  "workloads" : "Performance at t = 0, mean over workloads",
                  "performance (normalised to ideal)", 0, n, 0, reference(r, pv), range);
    }
    fputs("unset multiplot\n", p.gp);
    int closed = ana__plot_close(&p, note);
    return rc ? rc : closed;
}
