/* Per-workload grouped bars: one group per benchmark plus a final "mean" group (the mean
 * over chips of each chip's arithmetic or, on request, geometric mean over workloads),
 * one bar per technique, the error bar the 95 % confidence interval of the mean over
 * chips. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_internal.h"

typedef struct bars_spec {
    ana_figure fig;
    int clip; /* cut outliers (clip_level) */
    const char *view, *chip_view;
    const char *mix_view; /* a per-year view whose last year is one more group, or NULL */
    const char *note;     /* appended to the line that explains the groups, or NULL   */
    const char *title, *ylabel, *reference_label;
    const char *missing;
} bars_spec;

/* The normaliser (1 with no spread everywhere), techniques that are 0 on every chip
 * (the ideal register file's guardband: it does not age) and those without a single
 * finite value (guardband of a technique without aging) are left out of the bars, so
 * no legend entry stands for an empty bar. */
static int shown(const ana_view *v, int t)
{
    int finite = 0, constant_one = 1, constant_zero = 1;
    for (int x = 0; x < v->n_x; x++) {
        const ana_stats *s = &v->stats[(size_t)t * (size_t)v->n_x + (size_t)x];
        if (s->n == 0)
            continue;
        finite = 1;
        if (s->min != 1.0 || s->max != 1.0)
            constant_one = 0;
        if (s->min != 0.0 || s->max != 0.0)
            constant_zero = 0;
    }
    return finite && !constant_one && !constant_zero;
}

/* 1 when technique t is the constant c on every chip where it is computed. */
static int constant(const ana_view *v, int t, double c)
{
    for (int x = 0; x < v->n_x; x++) {
        const ana_stats *s = &v->stats[(size_t)t * (size_t)v->n_x + (size_t)x];
        if (s->n && (s->min != c || s->max != c))
            return 0;
    }
    return 1;
}

static double half_ci(const ana_stats *s)
{
    return isnan(s->ci_high) ? 0.0 : 0.5 * (s->ci_high - s->ci_low);
}

enum { MAX_BARS = 64 };

/* Statistics of bar i (technique tech[i]) in group x: a workload's, or (x >= n_x) the
 * groups after the workloads', last[(x - n_x) MAX_BARS + i]: the mean group, then (the
 * guardband) the workload mix's. */
static const ana_stats *bar(const ana_view *v, const ana_stats *last, const int *tech, int i,
                            int x)
{
    return x < v->n_x ? &v->stats[(size_t)tech[i] * (size_t)v->n_x + (size_t)x]
                      : &last[(x - v->n_x) * MAX_BARS + i];
}

/* A chip's geometric mean over the workloads: NaN when a value is NaN or not positive
 * (a normalised metric of 0 has no logarithm). */
static double geometric(const double *x, int n)
{
    double sum = 0;
    for (int b = 0; b < n; b++) {
        if (!(x[b] > 0))
            return NAN;
        sum += log(x[b]);
    }
    return exp(sum / n);
}

/* The mean group's statistics per drawn technique: the chip view's (each chip's
 * arithmetic mean over workloads), or over each chip's geometric mean. */
int ana__mean_stats(const ana_results *r, const ana_view *v, const ana_view *cv,
                    const int *tech, int n, ana_mean mean, ana_stats *last)
{
    double *vals = malloc(sizeof(double) * 2 * (size_t)r->n_chip + 1);
    if (!vals)
        return ANA_ENOMEM;
    for (int i = 0; i < n; i++) {
        if (mean == ANA_MEAN_ARITHMETIC) {
            last[i] = cv->stats[tech[i]];
            continue;
        }
        for (int c = 0; c < r->n_chip; c++)
            vals[c] = geometric(r->metric[v->metric] + ((size_t)c * (size_t)r->n_tech +
                                (size_t)tech[i]) * (size_t)v->n_x, v->n_x);
        ana_stats_compute(vals, (size_t)r->n_chip, 1, vals + r->n_chip, &last[i]);
    }
    free(vals);
    return ANA_EOK;
}

/* The mean of every bar cut at `clip`, written vertically just under the cut, which is
 * drawn as a dotted line.  A bar's x: its group's plus its place among the n bars of the
 * cluster, as gnuplot lays out clustered histograms with `gap 1.5`. */
static void clip_labels(FILE *gp, const ana_view *v, const ana_stats *last, const int *tech,
                        int n, int ng, double clip)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int x = 0; x < ng; x++) {
            const ana_stats *s = bar(v, last, tech, i, x);
            if (!(s->mean > clip))
                continue;
            fprintf(gp, "set label %d \"%.3g\" at %.6g, %.17g right rotate by 90 offset 0,-0.3 "
                        "font 'Sans,9' tc rgb '#000000' front\n", 100 + k++, s->mean,
                    x + (i - (n - 1) / 2.0) / (n + 1.5), clip);
        }
    fprintf(gp, "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead dt 3 lw 1.2 "
                "lc rgb '#333333' front\n", clip, clip);
}

/* The datablock: group label, then (mean, CI half-width) per shown technique. */
static void send_data(FILE *gp, const ana_results *r, const ana_view *v, const ana_stats *last,
                      const int *tech, int n, int ng, const char *const *extra, double clip)
{
    char label[2 * ANA_NAME_MAX];
    fputs("$bars << EOD\n", gp);
    for (int x = 0; x < ng; x++) {
        ana__plot_escape(x < v->n_x ? r->bench[x] : extra[x - v->n_x], label, sizeof label);
        fprintf(gp, "\"%s\"", label);
        for (int i = 0; i < n; i++) {
            const ana_stats *s = bar(v, last, tech, i, x);
            if (isnan(s->mean))
                fputs(" NaN 0", gp);
            else
                fprintf(gp, " %.17g %.17g", fmin(s->mean, clip), s->mean > clip ? 0.0 : half_ci(s));
        }
        fputc('\n', gp);
    }
    fputs("EOD\n", gp);
}

/* A y range that shows differences of a few percent: from a round number below the
 * lowest bar (never below 0) to a little above the highest error bar. */
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Where outliers are cut (guardband: vl_rf's 5-15x beside the others' 0.5-2 would
 * flatten every other bar): the nice number at or above 3 x the median bar, when some
 * bar rises above it; else infinity (nothing cut). */
static double clip_level(const ana_view *v, const ana_stats *last, const int *tech, int n,
                         int ng)
{
    double tops[64 * 66], mx = -INFINITY;
    size_t k = 0;
    for (int i = 0; i < n; i++)
        for (int x = 0; x < ng && k < sizeof tops / sizeof *tops; x++) {
            const ana_stats *s = bar(v, last, tech, i, x);
            if (s->n > 0 && isfinite(s->mean)) {
                tops[k++] = s->mean;
                mx = fmax(mx, s->mean + half_ci(s));
            }
        }
    if (k == 0)
        return INFINITY;
    qsort(tops, k, sizeof *tops, by_value);
    double cap = ana_bins_nice(3.0 * tops[k / 2]);
    return mx > cap && tops[k / 2] > 0 ? cap : INFINITY;
}

/* The y range; bars above `clip` count as reaching it. */
static void y_range(const ana_view *v, const ana_stats *last, const int *tech, int n, int ng,
                    double clip, double *lo, double *hi)
{
    double mn = INFINITY, mx = -INFINITY;
    for (int i = 0; i < n; i++)
        for (int x = 0; x < ng; x++) {
            const ana_stats *s = bar(v, last, tech, i, x);
            if (s->n == 0)
                continue;
            mn = fmin(mn, s->mean - half_ci(s));
            mx = fmax(mx, fmin(clip, s->mean + half_ci(s)));
        }
    mn = fmin(mn, 1.0);
    mx = fmax(mx, 1.0);
    double step = ana_bins_nice((mx - mn) / 5.0);
    *lo = fmax(0.0, floor(mn / step - 0.5) * step);
    if (*lo < 0.5 * mx) /* large differences: bars from zero read truer */
        *lo = 0.0;
    *hi = mx + 0.45 * (mx - *lo); /* head room for the legend */
}

static int bars_figure(const bars_spec *b, const char *dir, const char *prefix,
                       const ana_results *r, const ana_summary *s, ana_mean mean, FILE *note,
                       int *skipped)
{
    const ana_view *v = ana_summary_find(s, b->view), *cv = ana_summary_find(s, b->chip_view);
    if (!v || !cv || !r->bench) {
        ana__skip(note, b->fig, b->missing, skipped);
        return ANA_EOK;
    }
    int tech[MAX_BARS], n = 0;
    for (int t = 0; t < v->n_tech && n < MAX_BARS; t++)
        if (shown(v, t))
            tech[n++] = t;
    if (n == 0) {
        char why[160];
        snprintf(why, sizeof why, "no technique has a computed %s other than the normaliser",
                 b->view);
        ana__skip(note, b->fig, why, skipped);
        return ANA_EOK;
    }
    /* Say in the subtitle what is left out and why, so a missing bar is not a puzzle. */
    char one[256] = "", zero[256] = "", none[256] = "", out[900] = "";
    for (int t = 0, k = 0; t < v->n_tech; t++) {
        char e[2 * ANA_NAME_MAX];
        if (k < n && tech[k] == t) {
            k++;
            continue;
        }
        ana__plot_escape(r->tech[t], e, sizeof e);
        char *list = !v->stats[(size_t)t * (size_t)v->n_x].n ? none
                     : constant(v, t, 0.0)                    ? zero : one;
        snprintf(list + strlen(list), 256 - strlen(list), "%s%s", list[0] ? ", " : "", e);
    }
    if (one[0])
        snprintf(out, sizeof out, "; 1 on every chip, not drawn: %s", one);
    if (zero[0])
        snprintf(out + strlen(out), sizeof out - strlen(out), "; 0 on every chip: %s", zero);
    if (none[0])
        snprintf(out + strlen(out), sizeof out - strlen(out), "; not computed: %s", none);
    ana_stats last[2 * MAX_BARS];
    const char *mean_label = mean == ANA_MEAN_GEOMETRIC ? "geometric mean" : "arithmetic mean";
    const char *extra[2] = { mean_label, "workload mix" };
    int rc = ana__mean_stats(r, v, cv, tech, n, mean, last);
    if (rc)
        return rc;
    /* the guardband of the mix lifetime performance ages under: its last year */
    const ana_view *mv = b->mix_view && r->n_year > 1 ? ana_summary_find(s, b->mix_view) : NULL;
    for (int i = 0; mv && i < n; i++)
        last[MAX_BARS + i] = mv->stats[(size_t)tech[i] * (size_t)mv->n_x + (size_t)mv->n_x - 1];
    int ng = v->n_x + 1 + (mv != NULL);
    ana__plot p;
    if ((rc = ana__plot_open(&p, dir, prefix, b->fig, note)))
        return rc;
    double lo, hi;
    double clip = b->clip ? clip_level(v, last, tech, n, ng) : INFINITY;
    y_range(v, last, tech, n, ng, clip, &lo, &hi);
    if (isfinite(clip)) {
        clip_labels(p.gp, v, last, tech, n, ng, clip);
        snprintf(out + strlen(out), sizeof out - strlen(out),
                 "; bars above %g cut at the dotted line, their mean written on them", clip);
    }
    send_data(p.gp, r, v, last, tech, n, ng, extra, clip);
    char groups[300];
    snprintf(groups, sizeof groups, "%s: of each chip's %s over workloads%s%s", mean_label,
             mean_label, mv ? "; workload mix: all workloads together, the guardband lifetime "
                              "performance pays" : "", b->note ? b->note : "");
    fprintf(p.gp,
            "set title \"{/:Bold=16 %s}\\n{/=12 mean over %d chips; error bars: 95 %% CI of "
            "the mean; the axis starts at %.2f}\\n{/=12 %s}%s%s%s\"\n"
            "set ylabel \"%s\"\nset xlabel 'workload'\n"
            "set yrange [%.17g:%.17g]\nset xrange [-0.6:%d.6]\n"
            "set style data histograms\n"
            "set style histogram errorbars gap 1.5 lw 1\n"
            "set style fill solid 0.9 border rgb '#333333'\n"
            "set boxwidth 0.92\n"
            "set xtics rotate by -35 left scale 0\n"
            "set key top center horizontal maxcols 7 reverse Left samplen 1.5 font 'Sans,11' "
            "width 1\n"
            "set format y '%%.2f'\n"
            "set arrow from %d.5, graph 0 to %d.5, graph 1 nohead lc rgb '#999999' lw 1\n"
            "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "
            "'#555555' front\n",
            b->title, r->n_chip, lo, groups, out[0] ? "\\n{/=12 " : "", out[0] ? out + 2 : "",
            out[0] ? "}" : "", b->ylabel, lo, hi, ng - 1, v->n_x - 1, v->n_x - 1);
    if (mv)
        fprintf(p.gp, "set arrow from %d.5, graph 0 to %d.5, graph 1 nohead lc rgb '#999999' "
                      "lw 1\n", v->n_x, v->n_x);
    fputs("plot ", p.gp);
    for (int i = 0; i < n; i++) {
        char name[2 * ANA_NAME_MAX];
        ana__plot_escape(r->tech[tech[i]], name, sizeof name);
        fprintf(p.gp, "%s$bars using %d:%d%s lc rgb '%s' title \"%s\"", i ? ", " : "",
                2 + 2 * i, 3 + 2 * i, i ? "" : ":xtic(1)", ana__colour(r, tech[i]),
                name);
    }
    fprintf(p.gp, ", NaN with lines dt 2 lw 1.5 lc rgb '#555555' title '%s'\n",
            b->reference_label);
    return ana__plot_close(&p, note);
}

int ana_fig_guardband(const char *dir, const char *prefix, const ana_results *r, ana_mean mean,
                      const ana_summary *s, FILE *note, int *skipped)
{
    /* The reading of the NBTI law and the stress duty the sweep used, when the file
     * says (docs/nbti.md): the duty alone can reverse the ranking. */
    char title[160], law[120];
    snprintf(law, sizeof law, "%s",
             !strcmp(r->nbti_law, "pv") ? "; NBTI law: dVth_{t0} = PV deviation, the paper's "
                                          "wording"
             : !strcmp(r->nbti_law, "accumulated") ? "; NBTI law: accumulated shift, the source's"
                                                   : "");
    snprintf(title, sizeof title, "NBTI guardband, normalised to the baseline (lower is better), "
             "%s stress duty", r->duty[0] ? r->duty : "unknown");
    const bars_spec b = { ANA_FIG_guardband, 1, "guardband", "chip_guardband", "guardband_mix",
                          law, title, "guardband (normalised to baseline)", "baseline = 1",
                          "the file has no /results/guardband with /axes/benchmark" };
    return bars_figure(&b, dir, prefix, r, s, mean, note, skipped);
}
