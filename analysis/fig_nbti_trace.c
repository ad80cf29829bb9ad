/* The NBTI trace of one chip: per-sub-bank delay of SM 0 at time zero and at the end of
 * the aging schedule, with the fast/slow boundary, for a technique with nbti_opt next to
 * the same technique without it; the stress duty of each sub-bank under one workload for
 * both; and, for every traced technique that classifies sub-banks, how the delay that
 * sets SM 0's clock (the slowest fast sub-bank) moves over the schedule relative to the
 * technique without nbti_opt, which is what the guardband pays for.
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
    fprintf(gp, "set title \"{/:Bold %s}: sub-bank delay (axis from %.2f)\"\nset ylabel \"%s\"\n"
                "set xlabel ''\nset yrange [%.17g:%.17g]\nset format y '%%.2f'\n"
                "unset arrow\n",
            name, lo, left ? "delay (1 = no variation)" : "", lo, hi);
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

static size_t uidx(const ana_results *r, int t, int bench, int y, int sb)
{
    /* [trace 0][tech][bench][year][sub_bank] */
    return (((size_t)t * (size_t)r->n_bench + (size_t)bench) * (size_t)r->n_year + (size_t)y) *
               (size_t)r->trace->n_sub_bank + (size_t)sb;
}

/* Both techniques' stress duty per sub-bank over the last interval, side by side. */
static void duty_panel(FILE *gp, const ana_results *r, int without, int with, int bench,
                       double hi)
{
    const ana_trace *tr = r->trace;
    int y = r->n_year - 1;
    char a[2 * ANA_NAME_MAX], b[2 * ANA_NAME_MAX], bname[2 * ANA_NAME_MAX];
    ana__plot_escape(r->tech[without], a, sizeof a);
    ana__plot_escape(r->tech[with], b, sizeof b);
    ana__plot_escape(r->bench[bench], bname, sizeof bname);
    fputs("$u << EOD\n", gp);
    for (int sb = 0; sb < tr->n_sub_bank; sb++)
        fprintf(gp, "%d %.17g %.17g\n", sb, tr->utilisation[uidx(r, without, bench, y, sb)],
                tr->utilisation[uidx(r, with, bench, y, sb)]);
    fputs("EOD\n", gp);
    fprintf(gp, "set title \"{/:Bold Stress duty}, %s, interval from t = %g y\"\n"
                "set ylabel 'stress duty (fraction of time, from 0)'\nset xlabel 'sub-bank (SM 0)'\n"
                "set yrange [0:%.17g]\nset format y '%%.2f'\nunset arrow\n"
                "set key default\nset key inside top left horizontal samplen 1.5 font 'Sans,11'\n"
                "plot $u using ($1-0.2):2:(0.4) with boxes fill solid 0.85 lc rgb '%s' title \"%s\", "
                "$u using ($1+0.2):3:(0.4) with boxes fill solid 0.85 lc rgb '%s' title \"%s\"\n",
            bname, r->year[y], hi, ana__colour(r, without), a,
            ana__colour(r, with), b);
}

/* The delay that sets SM 0's clock: the slowest sub-bank not classified slow. */
static double critical(const ana_results *r, int t, int y)
{
    double d = 0;
    for (int sb = 0; sb < r->trace->n_sub_bank; sb++)
        if (!r->trace->slow[didx(r, t, y, sb)])
            d = fmax(d, r->trace->delay[didx(r, t, y, sb)]);
    return d;
}

/* Techniques whose trace says which sub-banks count: some classified slow at t = 0, or
 * the baseline (all count).  Register-level ones (vl_rf) classify registers, not
 * sub-banks, so their trace cannot say what sets the clock. */
static int classifies(const ana_results *r, int t)
{
    for (int sb = 0; sb < r->trace->n_sub_bank; sb++)
        if (r->trace->slow[didx(r, t, 0, sb)])
            return 1;
    return !strcmp(r->tech[t], "baseline");
}

static double difference(const ana_results *r, int t, int ref, int y)
{
    return 100.0 * (critical(r, t, y) / critical(r, ref, y) - 1.0);
}

/* Critical delay of every such technique minus the reference's, in %, over the years;
 * the y range leaves the top third to the key. */
static void difference_panel(FILE *gp, const ana_results *r, int ref)
{
    char name[2 * ANA_NAME_MAX], rname[2 * ANA_NAME_MAX];
    int k = 0;
    double lo = 0, hi = 0;
    for (int t = 0; t < r->n_tech; t++)
        for (int y = 0; y < r->n_year && t != ref && classifies(r, t); y++)
            lo = fmin(lo, difference(r, t, ref, y)), hi = fmax(hi, difference(r, t, ref, y));
    ana__plot_escape(r->tech[ref], rname, sizeof rname);
    fprintf(gp, "set title \"{/:Bold Clock-setting delay} (slowest fast sub-bank) minus %s's\"\n"
                "set ylabel \"difference (%%, 0 = %s)\"\nset xlabel 'years of aging (from 0)'\n"
                "set xrange [0:%g]\nset xtics auto\nset yrange [%.17g:%.17g]\n"
                "set format y '%%+.1f'\nset key default\nset key inside top center horizontal "
                "maxcols 4 Left reverse samplen 2 font 'Sans,10'\n"
                "set arrow from 0, first 0 to %g, first 0 nohead lw 1 lc rgb '#555555'\nplot ",
            rname, rname, r->year[r->n_year - 1], lo - 0.05 * (hi - lo + 1e-9),
            hi + 0.6 * (hi - lo + 1e-9), r->year[r->n_year - 1]);
    for (int t = 0; t < r->n_tech; t++) {
        if (t == ref || !classifies(r, t))
            continue;
        ana__plot_escape(r->tech[t], name, sizeof name);
        fprintf(gp, "%s'-' using 1:2 with linespoints pt %d ps 1.2 lw 2 lc rgb '%s' title \"%s\"",
                k ? ", " : "", 4 + k % 10, ana__colour(r, t), name);
        k++;
    }
    fputc('\n', gp);
    for (int t = 0; t < r->n_tech; t++) {
        if (t == ref || !classifies(r, t))
            continue;
        for (int y = 0; y < r->n_year; y++)
            fprintf(gp, "%.17g %.17g\n", r->year[y], difference(r, t, ref, y));
        fputs("e\n", gp);
    }
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
                  "with and without nbti\\\\_opt}\" margins 0.07,0.98,0.07,0.85 spacing 0.09,0.1\n",
            tr->n_sub_bank - 1, tr->n_sub_bank > 16 ? 4 : 2, tr->chip[0]);
    /* The delay axes start at 1, the no-variation delay, when every delay is above it. */
    double from = lo >= 1.0 ? 1.0 : lo - pad;
    delay_panel(p.gp, r, without, 1, from, hi + 2.5 * pad);
    delay_panel(p.gp, r, with, 0, from, hi + 2.5 * pad);
    duty_panel(p.gp, r, without, with, 0, uhi * 1.3 + 1e-9);
    difference_panel(p.gp, r, without);
    fputs("unset multiplot\n", p.gp);
    return ana__plot_close(&p, note);
}
