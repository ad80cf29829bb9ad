/* Distribution figures: one histogram panel per distinct distribution, all panels on one
 * x range and one y range so they compare at a glance.  Techniques whose distributions
 * are identical share one panel whose title names them all: ten panels of the same
 * histogram would hide the few that differ.  Frequency overlays the end of the aging
 * schedule on time zero when the file has aging; techniques identical at time zero
 * but not at the end share the panel, each with its own end-of-life outline in its
 * colour (aging follows the duties, which differ where the time-zero maps do not). */
#include <math.h>
#include <stdlib.h>
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

/* The highest bin of every shown histogram: one y range for all panels. */
static uint64_t y_max(const ana_view *v, const int *xs, int nxs)
{
    uint64_t hi = 1;
    size_t nb = (size_t)v->n_bins;
    for (int t = 0; t < v->n_tech; t++)
        for (int k = 0; k < nxs; k++)
            for (size_t i = 0; shown(v, t, xs[k]) && i < nb; i++) {
                uint64_t c = v->counts[((size_t)t * (size_t)v->n_x + (size_t)xs[k]) * nb + i];
                hi = c > hi ? c : hi;
            }
    return hi;
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

/* Techniques drawn (tech[n]) and their groups: g0[i] the first technique with tech[i]'s
 * time-zero distribution, gend[i] the first with the same one at both points drawn. */
typedef struct groups {
    int n, tech[64], g0[64], gend[64];
} groups;

/* The names of the techniques i with key[i] == t joined by " = ", `per_line` a line. */
static void names_of(FILE *gp, const ana_results *r, const groups *g, const int *key, int t,
                     int per_line)
{
    char name[2 * ANA_NAME_MAX];
    for (int i = 0, k = 0; i < g->n; i++) {
        if (key[i] != t)
            continue;
        ana__plot_escape(r->tech[g->tech[i]], name, sizeof name);
        fprintf(gp, "%s%s", k == 0 ? "" : k % per_line ? " = " : " =\\n", name);
        k++;
    }
}

/* The panel title: every technique of t's group, three to a line, then the statistics. */
static void panel_title(FILE *gp, const ana_results *r, const ana_stats *s0, const groups *g,
                        int t)
{
    int k = 0;
    for (int i = 0; i < g->n; i++)
        k += g->g0[i] == t;
    fputs("set title \"{/:Bold=13 ", gp);
    names_of(gp, r, g, g->g0, t, 3);
    fprintf(gp, "}\\n{/=11 mean %.3f, p5 %.3f%s}\"\n", s0->mean, s0->p5,
            k > 1 ? ", the same at t = 0" : "");
}

/* The end-of-life outlines of t's panel: one, black, when its techniques agree there;
 * else one per distinct distribution, in the colour of its first technique, named in the
 * panel's own key.  Their data first (datablocks cannot be sent inside a plot command). */
static void end_outlines(FILE *gp, const ana_view *v, const groups *g, int t, int x_end)
{
    for (int i = 0; i < g->n; i++) {
        int u = g->tech[i];
        if (g->g0[i] != t || g->gend[i] != u)
            continue;
        char hist[32];
        snprintf(hist, sizeof hist, "e%d", u);
        send_hist(gp, hist, v, u, x_end);
    }
}

/* The plot clauses of those outlines.  Several outlines often share steps, so none may
 * hide another: they are drawn widest first, each narrower than the one before (from
 * 6 down to 1.5), and a quarter transparent, so every outline shows as a band of its
 * colour beside or under the next. */
static void plot_outlines(FILE *gp, const ana_results *r, const groups *g, int t)
{
    int distinct = 0, k = 0;
    for (int i = 0; i < g->n; i++)
        distinct += g->g0[i] == t && g->gend[i] == g->tech[i];
    for (int i = 0; i < g->n; i++) {
        int u = g->tech[i];
        if (g->g0[i] != t || g->gend[i] != u)
            continue;
        double lw = distinct > 1 ? 1.5 + 4.5 * (distinct - 1 - k) / (distinct - 1) : 2.2;
        k++;
        fprintf(gp, ", $e%d using 1:2 with histeps lw %.2f lc rgb '%s%s' ", u, lw,
                distinct > 1 ? "#40" : "", distinct > 1 ? ana__colour(r, u) + 1 : "#111111");
        if (distinct > 1) {
            fputs("title \"", gp);
            names_of(gp, r, g, g->gend, u, 2);
            fputs("\"", gp);
        } else
            fputs("notitle", gp);
    }
}

/* The figure's legend under its title, drawn with the first panel only: screen-placed
 * samples and labels, because each panel's key holds that panel's own outlines. */
static void figure_legend(FILE *gp, int nxs, double end_year, const dist_spec *d)
{
    if (nxs > 1)
        fprintf(gp, "set object 91 rect from screen 0.36, 0.945 to screen 0.385, 0.96 fc rgb "
                    "'#8c8c8c' fs solid 0.85 border rgb '#333333'\n"
                    "set label 91 't = 0' at screen 0.39, 0.953 left font 'Sans,12'\n"
                    "set arrow 92 from screen 0.45, 0.953 to screen 0.48, 0.953 nohead lw 2.2 "
                    "lc rgb '#111111'\nset label 92 't = %g years (technique colours: where "
                    "techniques alike at t = 0 age apart)' at screen 0.485, 0.953 left "
                    "font 'Sans,12'\n", end_year);
    if (!isnan(d->reference))
        fprintf(gp, "set arrow 93 from screen 0.36, 0.925 to screen 0.385, 0.925 nohead dt 2 "
                    "lw 1.5 lc rgb '#555555'\nset label 93 '%s' at screen 0.39, 0.925 left "
                    "font 'Sans,12'\n", d->reference_label);
}

/* Shared axis title, figure legend (first panel) and the normaliser's line. */
static void panel_frame(FILE *gp, const ana_results *r, int first, int last, int left,
                        int nxs, double end_year, const dist_spec *d)
{
    fprintf(gp, "set ylabel \"%s\"\nunset arrow 1\n", left ? "chips" : "");
    if (!isnan(d->reference))
        fprintf(gp, "set arrow 1 from %g, graph 0 to %g, graph 1 nohead dt 2 lw 1.5 lc rgb "
                    "'#555555'\n", d->reference, d->reference);
    /* One shared axis title and one legend for the whole figure, drawn with the first
     * and last panels at fixed screen positions; a panel's own key (end-of-life outlines
     * of techniques alike at t = 0) sits inside it. */
    if (last)
        fprintf(gp, "set label 90 \"%s\" at screen 0.5, 0.02 center font 'Sans,14'\n",
                d->xlabel);
    else
        fputs("unset label 90\n", gp);
    if (first)
        figure_legend(gp, nxs, end_year, d);
    else
        fputs("unset object 91\nunset label 91\nunset arrow 92\nunset label 92\n"
              "unset arrow 93\nunset label 93\n", gp);
    fputs("set key inside top left horizontal maxcols 3 Left reverse samplen 1.5 "
          "font 'Sans,10' spacing 0.9 width -1\n", gp);
    (void)r;
}

static void panel(FILE *gp, const ana_results *r, const ana_view *v, const groups *g, int t,
                  const int *xs, int nxs)
{
    char hist[32];
    snprintf(hist, sizeof hist, "h%d", t);
    send_hist(gp, hist, v, t, xs[0]);
    if (nxs > 1)
        end_outlines(gp, v, g, t, xs[1]);
    /* The bars first, the end-of-life outlines over them, so neither hides the other.  A
     * panel of several techniques draws its bars neutral: no one technique's colour. */
    int members = 0;
    for (int i = 0; i < g->n; i++)
        members += g->g0[i] == t;
    fprintf(gp, "plot $h%d using 1:2:3 with boxes fill solid 0.85 lc rgb '%s' notitle", t,
            members > 1 ? "#c4c4c4" : ana__colour(r, t));
    if (nxs > 1)
        plot_outlines(gp, r, g, t);
    fputc('\n', gp);
}

/* The groups of the techniques drawn (see `groups`); -1 when out of memory. */
static int group_techniques(const ana_results *r, const ana_view *v, const int *xs, int nxs,
                            groups *g)
{
    size_t chips = (size_t)r->n_chip;
    double *x = malloc(sizeof(double) * ((size_t)g->n * (size_t)nxs * chips + 1));
    int first0[64], firstend[64], rc = -1;
    if (!x)
        return -1;
    for (int i = 0; i < g->n; i++)
        for (int k = 0; k < nxs; k++)
            ana__view_values(r, v, g->tech[i], xs[k],
                             x + ((size_t)i * (size_t)nxs + (size_t)k) * chips);
    if (ana_group_identical(x, g->n, nxs, chips, firstend) >= 0) {
        /* time zero alone: the first segment of each row, rows nxs segments apart */
        for (int i = 0; i < g->n; i++)
            memmove(x + (size_t)i * chips, x + (size_t)i * (size_t)nxs * chips,
                    sizeof(double) * chips);
        rc = ana_group_identical(x, g->n, 1, chips, first0);
    }
    for (int i = 0; i < g->n && rc > 0; i++) {
        g->g0[i] = g->tech[first0[i]];
        g->gend[i] = g->tech[firstend[i]];
    }
    free(x);
    return rc;
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
    int xs[2] = { 0, v->n_x - 1 }, nxs = 1, panels[64], np = 0;
    groups g = { .n = 0 };
    /* The end-of-life outline only where the file holds aged results. */
    for (int t = 0; t < v->n_tech && v->n_x > 1; t++)
        if (v->stats[(size_t)t * (size_t)v->n_x + (size_t)xs[1]].n > 0)
            nxs = 2;
    for (int t = 0; t < v->n_tech && g.n < 64; t++)
        if (shown(v, t, 0))
            g.tech[g.n++] = t;
    if (g.n == 0) {
        ana__skip(note, d->fig, "no technique varies over chips", skipped);
        return ANA_EOK;
    }
    if (group_techniques(r, v, xs, nxs, &g) < 0)
        return ANA_ENOMEM;
    for (int i = 0; i < g.n; i++)
        if (g.g0[i] == g.tech[i])
            panels[np++] = g.tech[i];
    ana__plot p;
    int rc = ana__plot_open(&p, dir, prefix, d->fig, note);
    if (rc)
        return rc;
    int cols = np <= 3 ? np : np <= 4 ? 2 : np <= 9 ? 3 : 4, rows = (np + cols - 1) / cols;
    double lo, hi;
    x_range(v, xs, nxs, &lo, &hi);
    /* Head room for a panel's own key (end-of-life outlines of techniques alike at t = 0). */
    int keyed = 0;
    for (int i = 0; i < g.n; i++)
        keyed |= nxs > 1 && g.g0[i] != g.tech[i] && g.gend[i] == g.tech[i];
    fprintf(p.gp, "set xrange [%.17g:%.17g]\nset yrange [0:%llu]\nset format x '%%.2f'\n"
                  "set xtics %s\n", lo, hi,
            (unsigned long long)(y_max(v, xs, nxs) * (keyed ? 16 : 11) + 9) / 10,
            hi - lo > 0.3 ? "0.1" : hi - lo > 0.12 ? "0.05" : "");
    fprintf(p.gp, "set multiplot layout %d,%d title \"{/:Bold=16 %s}  {/=12 (%d chips; "
                  "panel titles: mean and 5th percentile%s; shared axes)}\" "
                  "margins 0.06,0.98,%.3f,0.85 spacing 0.045,%.3f\n",
            rows, cols, d->title, r->n_chip, nxs > 1 ? " at t = 0" : "", 0.09,
            0.3 / rows + 0.02);
    /* The normaliser's line only when it falls inside the axis (gnuplot does not clip
     * arrows, so an outside one would be drawn at a wrong place). */
    dist_spec shown_d = *d;
    if (!(d->reference >= lo && d->reference <= hi))
        shown_d.reference = NAN;
    for (int i = 0; i < np; i++) {
        panel_title(p.gp, r, &v->stats[(size_t)panels[i] * (size_t)v->n_x], &g, panels[i]);
        panel_frame(p.gp, r, i == 0, i == np - 1, i % cols == 0, nxs, r->year[xs[1]], &shown_d);
        panel(p.gp, r, v, &g, panels[i], xs, nxs);
    }
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
