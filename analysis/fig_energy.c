/* Register-file energy per technique, split into dynamic and leakage: one stacked bar per
 * technique (mean over chips of each chip's mean over workloads, normalised to the ideal
 * register file's total on the same workload), the dynamic part solid and the leakage
 * part pale in the technique's colour, the total and the leakage share written on it, the
 * 95 % CI of the total as an error bar and the spread over workloads (lowest and highest
 * workload mean) as a thin grey range beside it.  Files without the split (written
 * before rf_dynamic and rf_leakage existed) get the totals alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_internal.h"

enum { MAX_BARS = 64 };

/* The lowest and highest workload mean of technique t in the per-workload view. */
static void workload_range(const ana_view *v, int t, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int x = 0; v && x < v->n_x; x++) {
        double m = v->stats[(size_t)t * (size_t)v->n_x + (size_t)x].mean;
        if (isfinite(m))
            *lo = fmin(*lo, m), *hi = fmax(*hi, m);
    }
    if (!isfinite(*lo))
        *lo = *hi = NAN;
}

/* $e: x, dynamic, leakage, total, CI low, CI high, workload low, high, colour. */
static double send_bars(FILE *gp, const ana_results *r, const ana_summary *s, const int *tech,
                        int n)
{
    const ana_view *tot = ana_summary_find(s, "chip_rf_energy");
    const ana_view *dyn = ana_summary_find(s, "chip_rf_dynamic");
    const ana_view *leak = ana_summary_find(s, "chip_rf_leakage");
    const ana_view *per = ana_summary_find(s, "rf_energy");
    double top = 1.0;
    fputs("$e << EOD\n", gp);
    for (int i = 0; i < n; i++) {
        const ana_stats *st = &tot->stats[tech[i]];
        double d = dyn && leak ? dyn->stats[tech[i]].mean : NAN;
        double l = dyn && leak ? leak->stats[tech[i]].mean : NAN;
        double wlo, whi;
        workload_range(per, tech[i], &wlo, &whi);
        top = fmax(top, fmax(isfinite(whi) ? whi : 0, isfinite(st->ci_high) ? st->ci_high : st->mean));
        fprintf(gp, "%d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %ld\n", i, d, l, st->mean,
                isfinite(st->ci_low) ? st->ci_low : st->mean,
                isfinite(st->ci_high) ? st->ci_high : st->mean, wlo, whi,
                strtol(ana__colour(r, tech[i]) + 1, NULL, 16));
    }
    fputs("EOD\n", gp);
    return top;
}

int ana_fig_energy(const char *dir, const char *prefix, const ana_results *r, ana_mean mean,
                   const ana_summary *s, FILE *note, int *skipped)
{
    (void)mean; /* parts of a total add up in arithmetic means only */
    const ana_view *tot = ana_summary_find(s, "chip_rf_energy");
    if (!tot) {
        ana__skip(note, ANA_FIG_energy,
                  "the file has no /results/rf_energy (made before energy accounting)", skipped);
        return ANA_EOK;
    }
    int tech[MAX_BARS], n = 0;
    char none[400] = "";
    for (int t = 0; t < r->n_tech; t++) {
        if (tot->stats[t].n > 0 && n < MAX_BARS) {
            tech[n++] = t;
            continue;
        }
        char e[2 * ANA_NAME_MAX];
        ana__plot_escape(r->tech[t], e, sizeof e);
        size_t used = strlen(none);
        snprintf(none + used, sizeof none - used, "%s%s", used ? ", " : "; not computed: ", e);
    }
    if (n == 0) {
        ana__skip(note, ANA_FIG_energy, "no technique has a computed rf_energy", skipped);
        return ANA_EOK;
    }
    int split = ana_summary_find(s, "chip_rf_dynamic") && ana_summary_find(s, "chip_rf_leakage");
    ana__plot p;
    int rc = ana__plot_open(&p, dir, prefix, ANA_FIG_energy, note);
    if (rc)
        return rc;
    double top = send_bars(p.gp, r, s, tech, n);
    char name[2 * ANA_NAME_MAX];
    fputs("set xtics (", p.gp);
    for (int i = 0; i < n; i++) {
        ana__plot_escape(r->tech[tech[i]], name, sizeof name);
        fprintf(p.gp, "%s\"%s\" %d", i ? ", " : "", name, i);
    }
    fprintf(p.gp,
            ") rotate by -35 left scale 0\n"
            "set title \"{/:Bold=16 Register-file energy, dynamic and leakage, normalised to the "
            "ideal register file's total (lower is better)}\\n{/=12 mean over %d chips of each "
            "chip's arithmetic mean over %d workloads, time zero, with a register-file cache "
            "the cache's too}\\n{/=12 written: total and leakage share; error bar: 95 %% CI of "
            "the total; grey range: lowest to highest workload mean%s}\"\n"
            "set xrange [-0.7:%d.7]\nset yrange [0:%.17g]\nset format y '%%.1f'\n"
            "set ylabel 'energy (normalised to ideal''s total)'\nset xlabel 'technique'\n"
            "set key top left horizontal samplen 1.5 font 'Sans,11'\n"
            "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "
            "'#555555' front\n",
            r->n_chip, r->n_bench, none, n - 1, top * 1.22);
    if (split)
        fputs("plot $e using 1:2:($1 - 0.31):($1 + 0.31):(0):2:9 with boxxyerror fs solid 0.95 "
              "border rgb '#333333' lc rgb variable notitle, "
              "$e using 1:2:($1 - 0.31):($1 + 0.31):2:($2 + $3):9 with boxxyerror fs solid 0.3 "
              "border rgb '#333333' lc rgb variable notitle, "
              "$e using ($1 + 0.31):($2 + $3 / 2):(sprintf('%.0f %%', 100 * $3 / ($2 + $3))) "
              "with labels right offset -0.4,0 font 'Sans,9' notitle, ",
              p.gp);
    else
        fputs("plot $e using 1:4:(0.62):9 with boxes fs solid 0.6 border rgb '#333333' "
              "lc rgb variable notitle, ", p.gp);
    fputs("$e using 1:5:(0):($6 - $5) with vectors heads size screen 0.004,90 lw 1.2 "
          "lc rgb '#111111' notitle, "
          "$e using ($1 + 0.42):7:(0):($8 - $7) with vectors heads size screen 0.004,90 lw 2.5 "
          "lc rgb '#9a9a9a' notitle, "
          "$e using 1:6:(sprintf('%.3f', $4)) with labels offset 0,0.8 font 'Sans,10' notitle, "
          "NaN with boxes fs solid 0.95 lc rgb '#666666' title 'dynamic', "
          "NaN with boxes fs solid 0.3 lc rgb '#666666' title 'leakage', "
          "NaN with lines lw 2.5 lc rgb '#9a9a9a' title 'range over workloads', "
          "NaN with lines dt 2 lw 1.5 lc rgb '#555555' title 'ideal = 1'\n",
          p.gp);
    return ana__plot_close(&p, note);
}
