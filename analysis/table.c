/* The summary table on stdout: one row per technique, the headline numbers of each
 * distribution (means over chips; frequency at time zero and at the end of aging). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "ana.h"

typedef struct column {
    char head[24];
    const ana_view *v;
    int x;
    size_t field; /* offsetof(ana_stats, ...) */
} column;

static double field(const ana_view *v, int t, int x, size_t off)
{
    const ana_stats *s = &v->stats[(size_t)t * (size_t)v->n_x + (size_t)x];
    return *(const double *)((const char *)s + off);
}

static int add(column *c, int n, const char *head, const ana_view *v, int x, size_t off)
{
    if (!v)
        return n;
    snprintf(c[n].head, sizeof c[n].head, "%s", head);
    c[n].v = v;
    c[n].x = x;
    c[n].field = off;
    return n + 1;
}

/* The main-RF latency view, when some technique's differs from one cycle at time zero
 * (a register-file cache sets the clock, docs/model.md): otherwise NULL, no column. */
static const ana_view *latency_view(const ana_summary *s)
{
    const ana_view *v = ana_summary_find(s, "main_latency");
    for (int t = 0; v && t < v->n_tech; t++)
        if (v->stats[(size_t)t * (size_t)v->n_x].mean != 1.0)
            return v;
    return NULL;
}

void ana_table_print(FILE *out, const ana_results *r, const ana_summary *s)
{
    column c[20];
    int n = 0;
    const ana_view *fq = ana_summary_find(s, "frequency");
    const ana_view *pf = ana_summary_find(s, "chip_performance");
    n = add(c, n, "freq", fq, 0, offsetof(ana_stats, mean));
    n = add(c, n, "freq_p5", fq, 0, offsetof(ana_stats, p5));
    if (fq && r->n_year > 1) {
        char h[24];
        snprintf(h, sizeof h, "freq_%gy", r->year[r->n_year - 1]);
        n = add(c, n, h, fq, r->n_year - 1, offsetof(ana_stats, mean));
    }
    n = add(c, n, "ipc", ana_summary_find(s, "chip_ipc"), 0, offsetof(ana_stats, mean));
    n = add(c, n, "main_lat", latency_view(s), 0, offsetof(ana_stats, mean));
    /* perf is the lifetime value when the file aged; perf_t0 beside it */
    int life = ana_results_perf_is_lifetime(r);
    n = add(c, n, life ? "perf_life" : "perf", pf, 0, offsetof(ana_stats, mean));
    n = add(c, n, "perf_p5", pf, 0, offsetof(ana_stats, p5));
    n = add(c, n, "perf_ci_lo", pf, 0, offsetof(ana_stats, ci_low));
    n = add(c, n, "perf_ci_hi", pf, 0, offsetof(ana_stats, ci_high));
    if (life)
        n = add(c, n, "perf_t0", ana_summary_find(s, "chip_performance_t0"), 0,
                offsetof(ana_stats, mean));
    /* the guardband lifetime performance pays (the mix's), then each workload's alone */
    if (r->n_year > 1)
        n = add(c, n, "gb_mix", ana_summary_find(s, "guardband_mix"), r->n_year - 1,
                offsetof(ana_stats, mean));
    n = add(c, n, "gb_alone", ana_summary_find(s, "chip_guardband"), 0,
            offsetof(ana_stats, mean));
    n = add(c, n, "rf_energy", ana_summary_find(s, "chip_rf_energy"), 0,
            offsetof(ana_stats, mean));
    n = add(c, n, "e_dyn", ana_summary_find(s, "chip_rf_dynamic"), 0, offsetof(ana_stats, mean));
    n = add(c, n, "e_leak", ana_summary_find(s, "chip_rf_leakage"), 0, offsetof(ana_stats, mean));

    fprintf(out, "%s: %d chips, %d techniques, %d benchmarks, %d aging points", r->path,
            r->n_chip, r->n_tech, r->n_bench, r->n_year);
    if (r->n_year > 1)
        fprintf(out, ", NBTI stress duty: %s", r->duty[0] ? r->duty : "unknown");
    if (r->n_not_done)
        fprintf(out, " (%zu chip x technique pairs unfinished, left out)", r->n_not_done);
    fprintf(out, "\n%-18s", "technique");
    for (int i = 0; i < n; i++)
        fprintf(out, " %10s", c[i].head);
    fputc('\n', out);
    for (int t = 0; t < r->n_tech; t++) {
        fprintf(out, "%-18s", r->tech[t]);
        for (int i = 0; i < n; i++) {
            double v = field(c[i].v, t, c[i].x, c[i].field);
            if (isnan(v))
                fprintf(out, " %10s", "-");
            else
                fprintf(out, " %10.4f", v);
        }
        fputc('\n', out);
    }
    char what[160];
    ana_results_perf_label(r, what, sizeof what);
    fprintf(out, "(means over chips, normalised per docs/results-format.md; perf_ci: 95 %% CI "
                 "of the mean; - : not computed; perf%s = %s", life ? "_life" : "", what);
    if (r->n_year > 1)
        fprintf(out, "; gb_mix: guardband under the workload mix (what perf_life pays), "
                     "gb_alone: each workload alone, both / baseline's, %s duty",
                r->duty[0] ? r->duty : "unknown");
    fprintf(out, "; e_dyn + e_leak = rf_energy, dynamic and leakage / ideal's total)\n");
}
