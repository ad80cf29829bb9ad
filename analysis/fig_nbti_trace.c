/* The NBTI trace of one chip, SM 0, read as one message: which sub-banks age, and what
 * that costs the clock.  Left: the delay each sub-bank gains over the aging schedule
 * (% of its time-zero delay), sub-banks ordered from the fastest at time zero, for a
 * technique with nbti_opt beside the same technique without it (fast sub-banks, which
 * set the clock, solid; slow ones pale; the one that sets the clock at the end marked),
 * and under it the stress duty that aged them (mean over the schedule's intervals and
 * the workloads).  Right: the delay that sets SM 0's clock (the slowest fast sub-bank)
 * over the years, relative to its own time-zero value, for every traced technique that
 * classifies sub-banks: the clock period aging costs each (their own guardband), on one
 * scale whatever their time-zero clocks.
 *
 * The file names techniques but not their options, so the pair is found by name: "with"
 * is the first technique whose name contains "nbti"; "without" is that name with
 * "_nbti_opt" removed (pv_opt_nbti_opt -> pv_opt) when present, else rf_bro (what
 * nbti_opt builds on), else baseline. */
#include <math.h>
#include <stdlib.h>
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

static size_t uidx(const ana_results *r, int t, int bench, int y, int sb)
{
    /* [trace 0][tech][bench][year][sub_bank] */
    return (((size_t)t * (size_t)r->n_bench + (size_t)bench) * (size_t)r->n_year + (size_t)y) *
               (size_t)r->trace->n_sub_bank + (size_t)sb;
}

/* The mean stress duty of sub-bank sb under technique t: over the intervals inside the
 * schedule (those starting before its last point; the one from the last point lies past
 * it), each weighted by its length, and the workloads, equally weighted (the file does
 * not hold the mix's weights). */
static double mean_duty(const ana_results *r, int t, int sb)
{
    double sum = 0, w = 0;
    for (int b = 0; b < r->n_bench; b++)
        for (int y = 0; y + 1 < r->n_year; y++) {
            double u = r->trace->utilisation[uidx(r, t, b, y, sb)];
            double dt = r->year[y + 1] - r->year[y];
            if (isfinite(u))
                sum += u * dt, w += dt;
        }
    return w > 0 ? sum / w : NAN;
}

/* The delay that sets SM 0's clock: the slowest sub-bank not classified slow; its index
 * in *at (may be NULL). */
static double critical_at(const ana_results *r, int t, int y, int *at)
{
    double d = 0;
    for (int sb = 0; sb < r->trace->n_sub_bank; sb++)
        if (!r->trace->slow[didx(r, t, y, sb)] && r->trace->delay[didx(r, t, y, sb)] > d) {
            d = r->trace->delay[didx(r, t, y, sb)];
            if (at)
                *at = sb;
        }
    return d;
}

static double critical(const ana_results *r, int t, int y) { return critical_at(r, t, y, NULL); }

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

/* Aging's cost to the clock: the clock-setting delay at year y over its time-zero value,
 * in % (SM 0's guardband as a longer period). */
static double cost(const ana_results *r, int t, int y)
{
    return 100.0 * (critical(r, t, y) / critical(r, t, 0) - 1.0);
}

/* order[n_sub_bank] = sub-banks by technique t's time-zero delay, fastest first (ties
 * by index): an insertion sort, sub-banks are a few dozen. */
static void sort_by_delay0(const ana_results *r, int t, int *order)
{
    for (int k = 0; k < r->trace->n_sub_bank; k++) {
        double d = r->trace->delay[didx(r, t, 0, k)];
        int j = k;
        while (j > 0 && r->trace->delay[didx(r, t, 0, order[j - 1])] > d) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
}

/* $s: per sub-bank in order: position, index, then for each of the pair the delay gained
 * (%) when fast at the end, when slow (NaN otherwise), and its mean duty; and the x tics. */
static void send_sub_banks(FILE *gp, const ana_results *r, const int *pair, const int *order,
                           double *gain_hi, double *duty_hi)
{
    const ana_trace *tr = r->trace;
    int end = r->n_year - 1;
    *gain_hi = *duty_hi = 0;
    fputs("$s << EOD\n", gp);
    for (int k = 0; k < tr->n_sub_bank; k++) {
        int sb = order[k];
        fprintf(gp, "%d %d", k, sb);
        for (int i = 0; i < 2; i++) {
            size_t e = didx(r, pair[i], end, sb);
            double g = 100.0 * (tr->delay[e] / tr->delay[didx(r, pair[i], 0, sb)] - 1.0);
            double u = mean_duty(r, pair[i], sb);
            *gain_hi = fmax(*gain_hi, g);
            *duty_hi = fmax(*duty_hi, u);
            fprintf(gp, tr->slow[e] ? " NaN %.17g %.17g" : " %.17g NaN %.17g", g, u);
        }
        fputc('\n', gp);
    }
    fputs("EOD\nset xtics (", gp);
    for (int k = 0; k < tr->n_sub_bank; k++)
        fprintf(gp, "%s\"%d\" %d", k ? ", " : "", order[k], k);
    fputs(") scale 0 font 'Sans,9'\n", gp);
}

/* Top left: the delay each sub-bank gains, both techniques side by side; a triangle over
 * the sub-bank that sets the clock at the end. */
static void gain_panel(FILE *gp, const ana_results *r, const int *pair, const int *order,
                       double hi)
{
    int end = r->n_year - 1, n = r->trace->n_sub_bank;
    char name[2][2 * ANA_NAME_MAX];
    fprintf(gp, "set lmargin at screen 0.07\nset rmargin at screen 0.6\n"
                "set tmargin at screen 0.84\nset bmargin at screen 0.52\n"
                "set xrange [-0.6:%d.6]\nset yrange [0:%.17g]\nset format y '%%.0f'\n"
                "set title \"{/:Bold Which sub-banks age}: delay gained by %g years (%% of "
                "time-zero delay)\"\nset ylabel 'delay gained (%%)'\nset xlabel ''\n"
                "set key inside top left horizontal maxrows 2 Left reverse samplen 1.5 "
                "font 'Sans,10' width 1\n",
            n - 1, hi * 1.45 + 1e-9, r->year[end]);
    fputs("plot ", gp);
    for (int i = 0; i < 2; i++) {
        int at = -1, k = 0;
        const char *c = ana__colour(r, pair[i]);
        ana__plot_escape(r->tech[pair[i]], name[i], sizeof name[i]);
        critical_at(r, pair[i], end, &at);
        while (k < n && order[k] != at)
            k++;
        double off = i ? 0.2 : -0.2;
        fprintf(gp, "%s$s using ($1%+.1f):%d:(0.4) with boxes fill solid 0.9 border lc rgb "
                    "'%s' lc rgb '%s' title \"%s: fast (counts for the clock)\", "
                    "$s using ($1%+.1f):%d:(0.4) with boxes fill solid 0.25 border lc rgb '%s' "
                    "lc rgb '%s' title \"%s: slow\"",
                i ? ", " : "", off, 3 + 3 * i, c, c, name[i], off, 4 + 3 * i, c, c, name[i]);
        if (k < n)
            fprintf(gp, ", '+' using (%d%+.1f):(%.17g) every ::0::0 with points pt 11 ps 1.6 "
                        "lc rgb '%s' title \"%s: sets the clock at %g y\"",
                    k, off, hi * 1.12, c, name[i], r->year[end]);
    }
    fputc('\n', gp);
}

/* Bottom left: the stress duty that aged them, in the same order. */
static void duty_panel(FILE *gp, const ana_results *r, const int *pair, double hi)
{
    char a[2 * ANA_NAME_MAX], b[2 * ANA_NAME_MAX];
    ana__plot_escape(r->tech[pair[0]], a, sizeof a);
    ana__plot_escape(r->tech[pair[1]], b, sizeof b);
    fprintf(gp, "set tmargin at screen 0.43\nset bmargin at screen 0.1\n"
                "set yrange [0:%.17g]\nset format y '%%.2f'\n"
                "set title \"{/:Bold Stress duty} (%s duty), mean over %g-%g y and %d "
                "workload%s\"\nset ylabel 'stress duty (fraction of time)'\n"
                "set xlabel 'sub-bank of SM 0, fastest at t = 0 left'\n"
                "set key inside top left horizontal samplen 1.5 font 'Sans,10'\n"
                "plot $s using ($1-0.2):5:(0.4) with boxes fill solid 0.9 lc rgb '%s' title \"%s\", "
                "$s using ($1+0.2):8:(0.4) with boxes fill solid 0.9 lc rgb '%s' title \"%s\"\n",
            hi * 1.3 + 1e-9, r->duty[0] ? r->duty : "stress", r->year[0], r->year[r->n_year - 1],
            r->n_bench, r->n_bench > 1 ? "s" : "", ana__colour(r, pair[0]), a,
            ana__colour(r, pair[1]), b);
}

/* Right: the clock period aging costs every technique that classifies sub-banks, with the
 * pair's end values written at the right. */
static void cost_panel(FILE *gp, const ana_results *r, const int *pair)
{
    char name[2 * ANA_NAME_MAX];
    int end = r->n_year - 1, k = 0;
    double hi = 0;
    for (int t = 0; t < r->n_tech; t++)
        for (int y = 0; y < r->n_year && classifies(r, t); y++)
            hi = fmax(hi, cost(r, t, y));
    fprintf(gp, "set lmargin at screen 0.69\nset rmargin at screen 0.9\n"
                "set tmargin at screen 0.84\nset bmargin at screen 0.1\n"
                "set xrange [%g:%g]\nset xtics auto font 'Sans,11'\nset yrange [0:%.17g]\n"
                "set format y '%%.0f'\nset title \"{/:Bold What it costs the clock}\\n"
                "{/=11 clock-setting delay (slowest fast sub-bank) over its t = 0 value}\"\n"
                "set ylabel 'clock period added by aging (%%)'\nset xlabel 'years of aging'\n"
                "set key inside top left Left reverse samplen 2 font 'Sans,10' maxrows 8\n",
            r->year[0], r->year[end], hi * 1.35 + 1e-9);
    for (int i = 0; i < 2; i++)
        fprintf(gp, "set label %d \"%.1f %%\" at %.17g, %.17g left offset 0.6,0 font 'Sans,10' "
                    "tc rgb '%s' front\n", 10 + i, cost(r, pair[i], end), r->year[end],
                cost(r, pair[i], end), ana__colour(r, pair[i]));
    fputs("plot ", gp);
    for (int t = 0; t < r->n_tech; t++) {
        if (!classifies(r, t))
            continue;
        int main_pair = t == pair[0] || t == pair[1];
        ana__plot_escape(r->tech[t], name, sizeof name);
        fprintf(gp, "%s'-' using 1:2 with linespoints pt %d ps %s lw %s lc rgb '%s' title \"%s\"",
                k ? ", " : "", 4 + k % 10, main_pair ? "1.2" : "0.8", main_pair ? "2.5" : "1.2",
                ana__colour(r, t), name);
        k++;
    }
    fputc('\n', gp);
    for (int t = 0; t < r->n_tech; t++) {
        if (!classifies(r, t))
            continue;
        for (int y = 0; y < r->n_year; y++)
            fprintf(gp, "%.17g %.17g\n", r->year[y], cost(r, t, y));
        fputs("e\n", gp);
    }
}

int ana_fig_nbti_trace(const char *dir, const char *prefix, const ana_results *r, FILE *note,
                       int *skipped)
{
    int pair[2];
    if (!r->trace || r->n_year < 2) {
        ana__skip(note, ANA_FIG_nbti_trace,
                  r->trace ? "the traces have one aging point" : "the file has no /chips/trace",
                  skipped);
        return ANA_EOK;
    }
    if (pick_pair(r, &pair[1], &pair[0])) {
        ana__skip(note, ANA_FIG_nbti_trace,
                  "needs a technique named *nbti* and rf_bro, baseline or the same name "
                  "without _nbti_opt", skipped);
        return ANA_EOK;
    }
    const ana_trace *tr = r->trace;
    int *order = malloc(sizeof(int) * (size_t)tr->n_sub_bank);
    if (!order)
        return ANA_ENOMEM;
    sort_by_delay0(r, pair[0], order);
    ana__plot p;
    int rc = ana__plot_open(&p, dir, prefix, ANA_FIG_nbti_trace, note);
    if (rc) {
        free(order);
        return rc;
    }
    char a[2 * ANA_NAME_MAX], b[2 * ANA_NAME_MAX];
    ana__plot_escape(r->tech[pair[0]], a, sizeof a);
    ana__plot_escape(r->tech[pair[1]], b, sizeof b);
    fprintf(p.gp, "set multiplot title \"{/:Bold=16 NBTI aging of chip %d, SM 0: which "
                  "sub-banks age, and what it costs the clock}\\n{/=12 %s against %s over %g "
                  "years, %s duty, one traced chip (the distributions over chips: the guardband "
                  "figure)}\"\n",
            tr->chip[0], b, a, r->year[r->n_year - 1], r->duty[0] ? r->duty : "stress");
    double gain_hi, duty_hi;
    send_sub_banks(p.gp, r, pair, order, &gain_hi, &duty_hi);
    gain_panel(p.gp, r, pair, order, gain_hi);
    duty_panel(p.gp, r, pair, duty_hi);
    cost_panel(p.gp, r, pair);
    fputs("unset multiplot\n", p.gp);
    free(order);
    return ana__plot_close(&p, note);
}
