/* Distribution figures: one histogram panel per technique, all panels on one x range so
 * the distributions compare at a glance.  Frequency overlays the end of the aging
 * schedule on time zero when the file has aging. */
#include <math.h>
#include <string.h>

#include "ana_internal.h"

/* A technique is shown when its values spread; a constant one (the normaliser, which is 1
 * on every chip) would be a single spike that only squeezes the other panels. */
static int shown(const ana_view *v, int t, int x)
{
    const ana_stats *s = &v->stats[(size_t)t * (size_t)v->n_x + (size_t)x];
    return s->n > 0 && s->max > s->min;
}

static void send_hist(FILE *gp, const char *name, const ana_view *v, int t, int x)
{
    size_t nb = (size_t)v->n_bins, tx = (size_t)t * (size_t)v->n_x + (size_t)x;
    const double *e = v->edges + tx * (nb + 1);
    fprintf(gp, "$%s << EOD\n", name);
    for (size_t i = 0; i < nb; i++)
        fprintf(gp, "%.17g %llu %.17g\n", 0.5 * (e[i] + e[i + 1]),
                (unsigned long long)v->counts[tx * nb + i], e[i + 1] - e[i]);
    fputs("EOD\n", gp);
}

/* The x range of every shown histogram, padded by 2 %. */
static void x_range(const ana_view *v, const int *xs, int nxs, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    size_t nb = (size_t)v->n_bins;
    for (int t = 0; t < v->n_tech; t++)
        for (int k = 0; k < nxs; k++) {
            if (!shown(v, t, xs[k]))
                continue;
            const double *e = v->edges + ((size_t)t * (size_t)v->n_x + (size_t)xs[k]) * (nb + 1);
            *lo = fmin(*lo, e[0]);
            *hi = fmax(*hi, e[nb]);
        }
    double pad = 0.02 * (*hi - *lo);
    *lo -= pad;
    *hi += pad;
}

typedef struct dist_spec {
    ana_figure fig;
    const char *view;
    const char *title;
    const char *xlabel;
    double reference; /* drawn as a dashed line (the normaliser), NaN for none */
    const char *reference_label;
} dist_spec;

static void panel(FILE *gp, const ana_results *r, const ana_view *v, int t, const int *xs,
                  int nxs, int first, int last, int left, const dist_spec *d)
{
    char tech[2 * ANA_NAME_MAX], hist[32];
    ana__plot_escape(r->tech[t], tech, sizeof tech);
    const ana_stats *s0 = &v->stats[(size_t)t * (size_t)v->n_x + (size_t)xs[0]];
    fprintf(gp, "set title \"{/:Bold=13 %s}   {/=11 mean %.3f, p5 %.3f}\"\n", tech, s0->mean,
            s0->p5);
    fprintf(gp, "set ylabel \"%s\"\nunset arrow\n", left ? "chips" : "");
    if (!isnan(d->reference))
        fprintf(gp, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lw 1.5 lc rgb "
                    "'#555555'\n", d->reference, d->reference);
    /* One shared axis title and one legend for the whole figure, drawn with the first
     * and last panels at fixed screen positions. */
    if (last)
        fprintf(gp, "set label 90 \"%s\" at screen 0.5, 0.02 center font 'Sans,14'\n",
                d->xlabel);
    else
        fputs("unset label 90\n", gp);
    if (first)
        fputs("set key at screen 0.5, 0.955 top center horizontal maxrows 1 width 2 samplen 3 font 'Sans,12'\n",
              gp);
    else
        fputs("set key off\n", gp);
    for (int k = 0; k < nxs; k++) {
        snprintf(hist, sizeof hist, "h%d_%d", t, k);
        send_hist(gp, hist, v, t, xs[k]);
    }
    fprintf(gp, "plot $h%d_0 using 1:2:3 with boxes fill solid 0.85 lc rgb '%s' notitle", t,
            ana__colour(r->tech[t], t));
    /* The end of life as an outline over the time-zero bars, so neither hides the other. */
    if (nxs > 1)
        fprintf(gp, ", $h%d_1 using 1:2 with histeps lw 2.2 lc rgb '#111111' notitle", t);
    if (first) {
        if (nxs > 1)
            fprintf(gp, ", NaN with boxes fill solid 0.85 lc rgb '#8c8c8c' title 't = 0', "
                        "NaN with lines lw 2.2 lc rgb '#111111' title 't = %g years'",
                    r->year[xs[1]]);
        if (!isnan(d->reference))
            fprintf(gp, ", NaN with lines dt 2 lw 1.5 lc rgb '#555555' title '%s'",
                    d->reference_label);
    }
    fputc('\n', gp);
}

static int dist_figure(const dist_spec *d, const char *dir, const char *prefix,
                       const ana_results *r, const ana_summary *s, FILE *note, int *skipped)
{
    const ana_view *v = ana_summary_find(s, d->view);
    char why[160];
    if (!v) {
        snprintf(why, sizeof why, "the file has no %s", d->view[0] == 'c' ?
                 "/results/performance with /axes/benchmark" : "/results/frequency with /axes/year");
        ana__skip(note, d->fig, why, skipped);
        return ANA_EOK;
    }
    int xs[2] = { 0, v->n_x - 1 }, nxs = 1, panels[64], n = 0;
    /* The end-of-life outline only where the file holds aged results. */
    for (int t = 0; t < v->n_tech && v->n_x > 1; t++)
        if (v->stats[(size_t)t * (size_t)v->n_x + (size_t)xs[1]].n > 0)
            nxs = 2;
    for (int t = 0; t < v->n_tech && n < 64; t++)
        if (shown(v, t, 0))
            panels[n++] = t;
    if (n == 0) {
        ana__skip(note, d->fig, "no technique varies over chips", skipped);
        return ANA_EOK;
    }
    ana__plot p;
    int rc = ana__plot_open(&p, dir, prefix, d->fig, note);
    if (rc)
        return rc;
    int cols = n <= 3 ? n : n <= 4 ? 2 : n <= 9 ? 3 : 4, rows = (n + cols - 1) / cols;
    double lo, hi;
    x_range(v, xs, nxs, &lo, &hi);
    fprintf(p.gp, "set xrange [%.17g:%.17g]\nset yrange [0:*]\nset format x '%%.2f'\n"
                  "set xtics %s\n", lo, hi, hi - lo > 0.3 ? "0.1" : hi - lo > 0.12 ? "0.05" : "");
    fprintf(p.gp, "set multiplot layout %d,%d title \"{/:Bold=16 %s}  {/=12 (%d chips; "
                  "panel titles: mean and 5th percentile%s)}\" "
                  "margins 0.06,0.98,%.3f,0.87 spacing 0.045,%.3f\n",
            rows, cols, d->title, r->n_chip, nxs > 1 ? " at t = 0" : "", 0.09,
            0.2 / rows + 0.02);
    /* The normaliser's line only when it falls inside the axis (gnuplot does not clip
     * arrows, so an outside one would be drawn at a wrong place). */
    dist_spec shown_d = *d;
    if (!(d->reference >= lo && d->reference <= hi))
        shown_d.reference = NAN;
    for (int i = 0; i < n; i++)
        panel(p.gp, r, v, panels[i], xs, nxs, i == 0, i == n - 1, i % cols == 0, &shown_d);
    fputs("unset multiplot\n", p.gp);
    rc = ana__plot_close(&p, note);
    for (int t = 0; t < v->n_tech && !rc; t++)
        if (!shown(v, t, 0) && v->stats[(size_t)t * (size_t)v->n_x].n > 0)
            fprintf(note, ANA__PREFIX "%s: %s left out: %.4g on every chip\n", p.path,
                    r->tech[t], v->stats[(size_t)t * (size_t)v->n_x].min);
    return rc;
}

int ana_fig_freq_dist(const char *dir, const char *prefix, const ana_results *r,
                      const ana_summary *s, FILE *note, int *skipped)
{
    static const dist_spec d = { ANA_FIG_freq_dist, "frequency",
                                 "Chip frequency under process variation, per technique",
                                 "frequency (normalised to the no-PV chip)", 1.0, "no-PV chip" };
    return dist_figure(&d, dir, prefix, r, s, note, skipped);
}

int ana_fig_perf_dist(const char *dir, const char *prefix, const ana_results *r,
                      const ana_summary *s, FILE *note, int *skipped)
{
    /* The title says which performance the file holds: lifetime or time zero. */
    char title[160];
    if (ana_results_perf_is_lifetime(r))
        snprintf(title, sizeof title, "Lifetime performance (IPC x frequency after %g years "
                 "of NBTI aging)", r->year[r->n_year - 1]);
    else
        snprintf(title, sizeof title, "Performance at time zero (IPC x frequency), per technique");
    const dist_spec d = { ANA_FIG_perf_dist, "chip_performance", title,
                          ana_results_perf_is_lifetime(r)
                              ? "lifetime performance (normalised to ideal)"
                              : "performance at t = 0 (normalised to ideal)",
                          1.0, "ideal" };
    return dist_figure(&d, dir, prefix, r, s, note, skipped);
}
