/* Sensitivity to the split of variation between its random and systematic parts: mean
 * frequency and mean performance per technique against sigma_rand : sigma_sys, one point
 * per results file (each file is one sweep at one ratio). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_internal.h"

typedef struct point {
    double ratio;
    int file;
} point;

static int by_ratio(const void *a, const void *b)
{
    double x = ((const point *)a)->ratio, y = ((const point *)b)->ratio;
    return (x > y) - (x < y);
}

/* Mean and CI half-width of technique name in view vname of file i; 0 if absent. */
static int lookup(const ana_results *r, const ana_summary *s, const char *vname,
                  const char *tech, double *mean, double *half, int *constant)
{
    const ana_view *v = ana_summary_find(s, vname);
    int t = ana__tech_find(r, tech);
    if (!v || t < 0)
        return 0;
    const ana_stats *st = &v->stats[(size_t)t * (size_t)v->n_x];
    if (st->n == 0)
        return 0;
    *mean = st->mean;
    *half = isnan(st->ci_high) ? 0.0 : 0.5 * (st->ci_high - st->ci_low);
    *constant = st->min == st->max;
    return 1;
}

/* Techniques of the first file present, varying, in every file. */
static int pick_techniques(const ana_results *const *res, const ana_summary *const *sum,
                           const point *pts, int n, int *tech)
{
    int nt = 0;
    const ana_results *r0 = res[pts[0].file];
    for (int t = 0; t < r0->n_tech && nt < 64; t++) {
        int ok = 1, varies = 0;
        for (int i = 0; i < n && ok; i++) {
            double m, h;
            int c;
            ok = lookup(res[pts[i].file], sum[pts[i].file], "frequency", r0->tech[t], &m, &h, &c) &&
                 lookup(res[pts[i].file], sum[pts[i].file], "chip_performance", r0->tech[t], &m,
                        &h, &c);
            varies |= ok && !c;
        }
        if (ok && varies)
            tech[nt++] = t;
    }
    return nt;
}

/* Techniques with the same values (the frequency of every sub-bank design is the same
 * at time zero) would draw one line over another: each gets its own marker and is moved
 * sideways a little (on the log axis, by a factor), so every one stays visible. */
static const int marker[] = { 7, 5, 9, 11, 13, 4, 6, 8, 10, 12, 14, 15 };

static double dodge(int k, int nt) { return exp2(0.04 * (k - (nt - 1) / 2.0)); }

static void panel(FILE *gp, const ana_results *const *res, const ana_summary *const *sum,
                  const point *pts, int n, const int *tech, int nt, const char *vname,
                  const char *title, const char *ylabel, int key)
{
    const ana_results *r0 = res[pts[0].file];
    for (int k = 0; k < nt; k++) {
        fprintf(gp, "$s%d << EOD\n", k);
        for (int i = 0; i < n; i++) {
            double m = NAN, h = 0.0;
            int c;
            lookup(res[pts[i].file], sum[pts[i].file], vname, r0->tech[tech[k]], &m, &h, &c);
            fprintf(gp, "%.17g %.17g %.17g\n", pts[i].ratio * dodge(k, nt), m, h);
        }
        fputs("EOD\n", gp);
    }
    fprintf(gp, "set title \"{/:Bold %s}\"\nset ylabel \"%s\"\nset key %s\n", title, ylabel,
            key ? "at screen 0.995, 0.84 top right Left reverse samplen 2 font 'Sans,11'" : "off");
    fputs("plot ", gp);
    for (int k = 0; k < nt; k++) {
        char name[2 * ANA_NAME_MAX];
        const char *col = ana__colour(r0, tech[k]);
        ana__plot_escape(r0->tech[tech[k]], name, sizeof name);
        fprintf(gp, "%s$s%d using 1:2:3 with yerrorlines pt %d ps 1.2 lw 1.6 lc rgb '%s' "
                    "title \"%s\"", k ? ", " : "", k,
                marker[k % (int)(sizeof marker / sizeof *marker)], col, name);
    }
    fputc('\n', gp);
}

int ana_fig_sensitivity(const char *dir, const ana_results *const *results,
                        const ana_summary *const *summaries, int n, FILE *note, int *skipped)
{
    point pts[64];
    int np = 0, tech[64];
    for (int i = 0; i < n && np < 64; i++)
        if (isfinite(results[i]->sigma_ratio) && results[i]->sigma_ratio > 0 &&
            ana_summary_find(summaries[i], "frequency") &&
            ana_summary_find(summaries[i], "chip_performance"))
            pts[np++] = (point){ results[i]->sigma_ratio, i };
    qsort(pts, (size_t)np, sizeof *pts, by_ratio);
    int distinct = np > 0;
    for (int i = 1; i < np; i++)
        distinct += pts[i].ratio != pts[i - 1].ratio;
    if (distinct < 2 || distinct != np) {
        ana__skip(note, ANA_FIG_sensitivity,
                  "needs two or more results files on the command line, each with frequency, "
                  "performance and a distinct sigma_ratio", skipped);
        return ANA_EOK;
    }
    int nt = pick_techniques(results, summaries, pts, np, tech);
    if (nt == 0) {
        ana__skip(note, ANA_FIG_sensitivity, "the files share no technique that varies", skipped);
        return ANA_EOK;
    }
    ana__plot p;
    int rc = ana__plot_open(&p, dir, "", ANA_FIG_sensitivity, note);
    if (rc)
        return rc;
    fprintf(p.gp, "set logscale x 2\nset xrange [%.17g:%.17g]\nset xtics (", pts[0].ratio / 1.6,
            pts[np - 1].ratio * 1.6);
    for (int i = 0; i < np; i++) {
        char lab[32];
        ana__ratio_label(pts[i].ratio, lab, sizeof lab);
        fprintf(p.gp, "%s\"%s\" %.17g", i ? ", " : "", lab, pts[i].ratio);
    }
    fprintf(p.gp, ")\nset xlabel \"{/Symbol s}_{rand} : {/Symbol s}_{sys}\"\n"
                  "set grid xtics ytics\n"
                  "set multiplot layout 1,2 title \"{/:Bold=16 Sensitivity to the split of "
                  "variation}  {/=12 (mean over %d chips, 95 %% CI; techniques moved apart sideways "
                  "to stay visible)}\" margins 0.08,0.84,0.13,0.86 "
                  "spacing 0.08,0\nset format y '%%.2f'\n",
            results[pts[0].file]->n_chip);
    panel(p.gp, results, summaries, pts, np, tech, nt, "frequency", "Chip frequency (t = 0)",
          "frequency (normalised to the no-PV chip)", 1);
    /* Which performance: the first file's (the reference sweeps age all or none). */
    int life = ana_results_perf_is_lifetime(results[pts[0].file]);
    panel(p.gp, results, summaries, pts, np, tech, nt, "chip_performance",
          life ? "Lifetime performance (mean over workloads)" : "Performance at t = 0 (mean over workloads)",
          life ? "lifetime performance (normalised to ideal)" : "performance (normalised to ideal)", 0);
    fputs("unset multiplot\n", p.gp);
    return ana__plot_close(&p, note);
}
