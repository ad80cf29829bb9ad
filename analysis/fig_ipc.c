/* IPC per workload and technique as a table of colours (a heat map), not a wall of bars:
 * one row per technique, sorted by the mean group (best on top), one column per workload
 * plus the mean group; each cell holds its mean over chips, and its colour says how far
 * it is below the best technique of its column, so the best per workload (framed) is
 * found at a glance and 1 % gaps read as 1 %, not as an axis zoom. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_internal.h"

enum { MAX_ROWS = 64 };

/* Techniques drawn: a computed value somewhere and not 1 on every chip (the normaliser,
 * and the baseline, whose IPC is the ideal's). */
static int drawn(const ana_view *v, int t)
{
    for (int x = 0; x < v->n_x; x++) {
        const ana_stats *s = &v->stats[(size_t)t * (size_t)v->n_x + (size_t)x];
        if (s->n > 0 && (s->min != 1.0 || s->max != 1.0))
            return 1;
    }
    return 0;
}

static double cell(const ana_view *v, const ana_stats *last, const int *tech, int i, int x)
{
    return x < v->n_x ? v->stats[(size_t)tech[i] * (size_t)v->n_x + (size_t)x].mean : last[i].mean;
}

/* Rows by the mean group, best first (insertion sort: a few dozen rows). */
static void sort_rows(int *tech, ana_stats *last, int n)
{
    for (int k = 1; k < n; k++) {
        int t = tech[k];
        ana_stats s = last[k];
        int j = k;
        for (; j > 0 && (last[j - 1].mean < s.mean || isnan(last[j - 1].mean)); j--) {
            tech[j] = tech[j - 1];
            last[j] = last[j - 1];
        }
        tech[j] = t;
        last[j] = s;
    }
}

/* Each column's best mean over the drawn rows. */
static void column_best(const ana_view *v, const ana_stats *last, const int *tech, int n,
                        double *best)
{
    for (int x = 0; x <= v->n_x; x++) {
        best[x] = -INFINITY;
        for (int i = 0; i < n; i++)
            if (isfinite(cell(v, last, tech, i, x)))
                best[x] = fmax(best[x], cell(v, last, tech, i, x));
    }
}

/* $h: x, row, % below the column's best, the label, its colour; $b: the best cells (within
 * half a unit of the third decimal, so a tie shown as equal digits is framed too). */
static void send_cells(FILE *gp, const ana_view *v, const ana_stats *last, const int *tech,
                       int n, const double *best, double scale, double *ci_max)
{
    *ci_max = 0;
    fputs("$h << EOD\n", gp);
    for (int i = 0; i < n; i++)
        for (int x = 0; x <= v->n_x; x++) {
            const ana_stats *s = x < v->n_x ? &v->stats[(size_t)tech[i] * (size_t)v->n_x + (size_t)x]
                                            : &last[i];
            double m = s->mean, gap = 100.0 * (1.0 - m / best[x]);
            if (!isfinite(m)) {
                fprintf(gp, "%d %d NaN \"-\" 0\n", x, i);
                continue;
            }
            if (isfinite(s->ci_high))
                *ci_max = fmax(*ci_max, 0.5 * (s->ci_high - s->ci_low));
            int top = best[x] - m < 5e-4;
            fprintf(gp, "%d %d %.17g \"%s%.3f%s\" %d\n", x, i, -gap, top ? "{/:Bold " : "", m,
                    top ? "}" : "", gap < 0.45 * scale ? 0xffffff : 0x111111);
        }
    fputs("EOD\n$b << EOD\n", gp);
    for (int i = 0; i < n; i++)
        for (int x = 0; x <= v->n_x; x++)
            if (best[x] - cell(v, last, tech, i, x) < 5e-4)
                fprintf(gp, "%d %d\n", x, i);
    fputs("EOD\n", gp);
}

/* The largest gap below a column's best, for the colour scale. */
static double largest_gap(const ana_view *v, const ana_stats *last, const int *tech, int n,
                          const double *best)
{
    double g = 0;
    for (int i = 0; i < n; i++)
        for (int x = 0; x <= v->n_x; x++)
            if (isfinite(cell(v, last, tech, i, x)))
                g = fmax(g, 100.0 * (1.0 - cell(v, last, tech, i, x) / best[x]));
    return g;
}

/* "; 1 on every chip, not drawn: ideal, baseline" for the techniques left out. */
static void left_out(const ana_results *r, const int *tech, int n, char *out, size_t size)
{
    out[0] = '\0';
    for (int t = 0; t < r->n_tech; t++) {
        int in = 0;
        for (int i = 0; i < n; i++)
            in |= tech[i] == t;
        if (in)
            continue;
        char e[2 * ANA_NAME_MAX];
        ana__plot_escape(r->tech[t], e, sizeof e);
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", used ? ", " : "; 1 on every chip, not drawn: ", e);
    }
}

static void script(FILE *gp, const ana_results *r, const ana_view *v, const int *tech, int n,
                   const char *mean_label, double scale, double ci_max, const char *out)
{
    char label[2 * ANA_NAME_MAX];
    fprintf(gp,
            "set title \"{/:Bold=16 IPC per workload, normalised to the ideal register file}\\n"
            "{/=12 mean over %d chips; rows sorted by the %s (best on top); each workload's best "
            "framed and bold; 95 %% CI of a cell at most \xc2\xb1%.4f%s}\"\n"
            "set xrange [-1.1:%d.5]\nset yrange [%d.5:-0.5]\n"
            "set xtics rotate by -35 left scale 0 font 'Sans,11'\nset ytics scale 0 font 'Sans,11'\n"
            "unset grid\nset border 0\nset xlabel 'workload'\n"
            "set cbrange [%.17g:0]\nset cblabel '%% below the workload''s best (white: 10 %% or more)' font 'Sans,11'\n"
            "set cbtics font 'Sans,10'\nset format cb '%%.0f'\nset colorbox user origin screen "
            "0.93, screen 0.2 size screen 0.012, screen 0.55\n"
            "set palette defined (0 '#fbfbfb', 0.55 '#9ecae1', 0.85 '#3182bd', 1 '#08306b')\n"
            "set arrow from %d.5, graph 0 to %d.5, graph 1 nohead lc rgb '#ffffff' lw 6 front\n"
            "set lmargin 17\nset rmargin 14\n",
            r->n_chip, mean_label, ci_max, out, v->n_x, n - 1, -scale, v->n_x - 1, v->n_x - 1);
    fputs("set xtics (", gp);
    for (int x = 0; x <= v->n_x; x++) {
        ana__plot_escape(x < v->n_x ? r->bench[x] : mean_label, label, sizeof label);
        fprintf(gp, "%s\"%s\" %d", x ? ", " : "", label, x);
    }
    fputs(")\nset ytics (", gp);
    for (int i = 0; i < n; i++) {
        ana__plot_escape(r->tech[tech[i]], label, sizeof label);
        fprintf(gp, "%s\"%s\" %d", i ? ", " : "", label, i);
    }
    fputs(")\n$c << EOD\n", gp);
    for (int i = 0; i < n; i++) /* the technique's colour of the other figures */
        fprintf(gp, "-0.8 %d %ld\n", i, strtol(ana__colour(r, tech[i]) + 1, NULL, 16));
    fputs("EOD\n"
          "plot $h using 1:2:3 with image pixels notitle, "
          "$h using 1:2:4:5 with labels tc rgb variable font 'Sans,10' notitle, "
          "$b using 1:2:(0.5):(0.5) with boxxyerror fs empty border lc rgb '#000000' lc rgb '#000000' lw 3 "
          "notitle, "
          "$c using 1:2:(0.22):(0.3):3 with boxxyerror fs solid 1 noborder lc rgb variable "
          "notitle\n",
          gp);
}

int ana_fig_ipc(const char *dir, const char *prefix, const ana_results *r, ana_mean mean,
                const ana_summary *s, FILE *note, int *skipped)
{
    const ana_view *v = ana_summary_find(s, "ipc"), *cv = ana_summary_find(s, "chip_ipc");
    if (!v || !cv || !r->bench) {
        ana__skip(note, ANA_FIG_ipc, "the file has no /results/ipc with /axes/benchmark", skipped);
        return ANA_EOK;
    }
    int tech[MAX_ROWS], n = 0;
    for (int t = 0; t < v->n_tech && n < MAX_ROWS; t++)
        if (drawn(v, t))
            tech[n++] = t;
    if (n == 0) {
        ana__skip(note, ANA_FIG_ipc, "no technique has an IPC other than the ideal's", skipped);
        return ANA_EOK;
    }
    ana_stats last[MAX_ROWS];
    const char *mean_label = mean == ANA_MEAN_GEOMETRIC ? "geometric mean" : "arithmetic mean";
    int rc = ana__mean_stats(r, v, cv, tech, n, mean, last);
    if (rc)
        return rc;
    sort_rows(tech, last, n);
    double *best = malloc(sizeof(double) * (size_t)(v->n_x + 1));
    if (!best)
        return ANA_ENOMEM;
    column_best(v, last, tech, n, best);
    /* the colour scale: up to the largest gap, at most 10 % (beyond, the darkest colour) */
    double scale = fmin(10.0, ana_bins_nice(fmax(largest_gap(v, last, tech, n, best), 0.1)));
    char out[600];
    left_out(r, tech, n, out, sizeof out);
    ana__plot p;
    if ((rc = ana__plot_open(&p, dir, prefix, ANA_FIG_ipc, note))) {
        free(best);
        return rc;
    }
    double ci_max;
    send_cells(p.gp, v, last, tech, n, best, scale, &ci_max);
    script(p.gp, r, v, tech, n, mean_label, scale, ci_max, out);
    free(best);
    return ana__plot_close(&p, note);
}
