/* The NBTI trace of one chip: per-sub-bank delay of SM 0 at time zero and at the end of
 * the aging schedule, with the fast/slow boundary, and per-sub-bank utilisation of one
 * workload, for a technique with nbti_opt next to the same technique without it.
 *
 * The file names techniques but not their options, so the pair is found by name: "with"
 * is the first technique whose name contains "nbti"; "without" is that name with
 * "_nbti_opt" removed (pv_opt_nbti_opt -> pv_opt) when present, else rf_bro (what
 * nbti_opt builds on), else baseline. */
#include <math.h>
#include <string.h>

#include "ana_internal.h"

static int pick_pair(const ana_results *r, int *with, int *without)
{
    *with = *without = -1;
    for (int t = 0; t < r->n_tech && *with < 0; t++)
        if (strstr(r->tech[t], "nbti"))
            *with = t;
    if (*with < 0)
        return -1;
    char base[ANA_NAME_MAX];
    snprintf(base, sizeof base, "%s", r->tech[*with]);
    char *cut = strstr(base, "_nbti_opt");
    if (cut) {
        *cut = '\0';
        *without = ana__tech_find(r, base);
    }
    if (*without < 0)
        *without = ana__tech_find(r, "rf_bro");
    if (*without < 0)
        *without = ana__tech_find(r, "baseline");
    return *without < 0 ? -1 : 0;
}

static size_t didx(const ana_results *r, int t, int y, int sb)
{
    /* [trace 0][tech][year][sub_bank] */
    return ((size_t)t * (size_t)r->n_year + (size_t)y) * (size_t)r->trace->n_sub_bank + (size_t)sb;
}

/* The delay between the slowest fast and the fastest slow sub-bank; NaN when one class
 * is empty. */
static double boundary(const ana_results *r, int t, int y)
{
    double fast = -INFINITY, slow = INFINITY;
    for (int sb = 0; sb < r->trace->n_sub_bank; sb++) {
        size_t i = didx(r, t, y, sb);
        if (r->trace->slow[i])
            slow = fmin(slow, r->trace->delay[i]);
        else
            fast = fmax(fast, r->trace->delay[i]);
    }
    return isfinite(fast) && isfinite(slow) ? 0.5 * (fast + slow) : NAN;
}

static void delay_panel(FILE *gp, const ana_results *r, int t, int left, double lo, double hi)
{
    const ana_trace *tr = r->trace;
    int end = r->n_year - 1;
    char name[2 * ANA_NAME_MAX];
    ana__plot_escape(r->tech[t], name, sizeof name);
    fprintf(gp, "$d%d << EOD\n", t);
    for (int sb = 0; sb < tr->n_sub_bank; sb++)
        fprintf(gp, "%d %.17g %.17g %d\n", sb, tr->delay[didx(r, t, 0, sb)],
                tr->delay[didx(r, t, end, sb)], tr->slow[didx(r, t, end, sb)]);
    fputs("EOD\n", gp);
    double b0 = boundary(r, t, 0), b1 = boundary(r, t, end);
    fprintf(gp, "set title \"{/:Bold %s}: sub-bank delay\"\nset ylabel \"%s\"\n"
                "set xlabel ''\nset yrange [%.17g:%.17g]\nset format y '%%.2f'\nunset arrow\n",
            name, left ? "delay (normalised)" : "", lo, hi);
    if (!isnan(b0))
        fprintf(gp, "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead dt 3 "
                    "lw 2 lc rgb '#1f78b4' front\n", b0, b0);
    if (!isnan(b1))
        fprintf(gp, "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead dt 2 "
                    "lw 2 lc rgb '#b2182b' front\n", b1, b1);
    /* One legend for the figure, under its title. */
    fprintf(gp, "set key %s\n", left ? "at screen 0.5, 0.955 top center horizontal maxrows 1 "
                                      "width 0.5 samplen 2 font 'Sans,11'" : "off");
    fprintf(gp,
            "plot $d%d using 1:3:(0.7):($4 > 0.5 ? 0xd6604d : 0x4393c3) with boxes fill solid 0.85 "
            "lc rgb variable notitle, "
            "$d%d using 1:2 with points pt 6 ps 1.1 lw 1.5 lc rgb '#000000' title 't = 0', "
            "NaN with boxes fill solid 0.85 lc rgb '#4393c3' title 't = %g y, fast', "
            "NaN with boxes fill solid 0.85 lc rgb '#d6604d' title 't = %g y, slow', "
            "NaN with lines dt 3 lw 2 lc rgb '#1f78b4' title 'boundary, t = 0', "
            "NaN with lines dt 2 lw 2 lc rgb '#b2182b' title 'boundary, t = %g y'\n",
            t, t, r->year[end], r->year[end], r->year[end]);
}

static void util_panel(FILE *gp, const ana_results *r, int t, int bench, int left, double hi)
{
    const ana_trace *tr = r->trace;
    int end = r->n_year - 1;
    char name[2 * ANA_NAME_MAX], bname[2 * ANA_NAME_MAX];
    ana__plot_escape(r->tech[t], name, sizeof name);
    ana__plot_escape(r->bench[bench], bname, sizeof bname);
    fprintf(gp, "$u%d << EOD\n", t);
    for (int sb = 0; sb < tr->n_sub_bank; sb++) {
        /* [trace 0][tech][bench][year][sub_bank] */
        size_t i = (((size_t)t * (size_t)r->n_bench + (size_t)bench) * (size_t)r->n_year +
                    (size_t)end) * (size_t)tr->n_sub_bank + (size_t)sb;
        fprintf(gp, "%d %.17g\n", sb, tr->utilisation[i]);
    }
    fputs("EOD\n", gp);
    fprintf(gp, "set title \"{/:Bold %s}: utilisation, %s, t = %g y\"\nset ylabel \"%s\"\n"
                "set xlabel 'sub-bank (SM 0)'\nset yrange [0:%.17g]\nset format y '%%.2f'\n"
                "unset arrow\nset key off\n"
                "plot $u%d using 1:2:(0.7) with boxes fill solid 0.85 lc rgb '%s'\n",
            name, bname, r->year[end], left ? "utilisation (fraction of accesses)" : "", hi,
            t, ana__colour(r->tech[t], t));
}

int ana_fig_nbti_trace(const char *dir, const char *prefix, const ana_results *r, FILE *note,
                       int *skipped)
{
    int with, without;
    if (!r->trace || r->n_year < 2) {
        ana__skip(note, ANA_FIG_nbti_trace,
                  r->trace ? "the traces have one aging point" : "the file has no /chips/trace",
                  skipped);
        return ANA_EOK;
    }
    if (pick_pair(r, &with, &without)) {
        ana__skip(note, ANA_FIG_nbti_trace,
                  "needs a technique named *nbti* and rf_bro, baseline or the same name "
                  "without _nbti_opt", skipped);
        return ANA_EOK;
    }
    const ana_trace *tr = r->trace;
    double lo = INFINITY, hi = -INFINITY, uhi = 0.0;
    size_t nd = (size_t)r->n_tech * (size_t)r->n_year * (size_t)tr->n_sub_bank;
    for (size_t i = 0; i < nd; i++)
        if (isfinite(tr->delay[i]))
            lo = fmin(lo, tr->delay[i]), hi = fmax(hi, tr->delay[i]);
    for (size_t i = 0; i < nd * (size_t)r->n_bench; i++)
        if (isfinite(tr->utilisation[i]))
            uhi = fmax(uhi, tr->utilisation[i]);
    double pad = 0.1 * (hi - lo) + 1e-3;
    ana__plot p;
    int rc = ana__plot_open(&p, dir, prefix, ANA_FIG_nbti_trace, note);
    if (rc)
        return rc;
    fprintf(p.gp, "set xrange [-0.6:%d.6]\nset xtics 0,%d\n"
                  "set multiplot layout 2,2 title \"{/:Bold=16 NBTI aging of chip %d, SM 0: "
                  "with and without nbti\\\\_opt}\" margins 0.07,0.98,0.08,0.87 spacing 0.06,0.1\n",
            tr->n_sub_bank - 1, tr->n_sub_bank > 16 ? 4 : 2, tr->chip[0]);
    delay_panel(p.gp, r, without, 1, lo - pad, hi + 2.5 * pad);
    delay_panel(p.gp, r, with, 0, lo - pad, hi + 2.5 * pad);
    util_panel(p.gp, r, without, 0, 1, uhi * 1.15 + 1e-9);
    util_panel(p.gp, r, with, 0, 0, uhi * 1.15 + 1e-9);
    fputs("unset multiplot\n", p.gp);
    return ana__plot_close(&p, note);
}
