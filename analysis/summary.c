/* The distributions over chips of every metric a file holds: statistics and histograms
 * per technique and axis point (views), plus the per-chip means over benchmarks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_internal.h"

void ana_summary_free(ana_summary *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_views; i++) {
        free(s->views[i].stats);
        free(s->views[i].edges);
        free(s->views[i].counts);
    }
    free(s->views);
    free(s);
}

const ana_view *ana_summary_find(const ana_summary *s, const char *name)
{
    for (int i = 0; s && i < s->n_views; i++)
        if (!strcmp(s->views[i].name, name))
            return &s->views[i];
    return NULL;
}

/* A chip's value of a benchmark metric: the mean over benchmarks, NaN if any is NaN (a
 * mean over the benchmarks that happen to be present would compare unlike chips). */
static void chip_means(const double *x, int n_chip, int n_tech, int n_bench, double *out)
{
    for (size_t ct = 0; ct < (size_t)n_chip * (size_t)n_tech; ct++) {
        double sum = 0.0;
        for (int b = 0; b < n_bench; b++)
            sum += x[ct * (size_t)n_bench + (size_t)b];
        out[ct] = sum / n_bench; /* NaN propagates through the sum */
    }
}

void ana__view_values(const ana_results *r, const ana_view *v, int t, int x, double *out)
{
    const double *m = r->metric[v->metric];
    size_t nx = (size_t)ana_results_axis_len(r, v->metric);
    int chip_mean = v->n_x == 1 && !strncmp(v->name, "chip_", 5);
    for (int c = 0; c < r->n_chip; c++) {
        const double *p = m + ((size_t)c * (size_t)r->n_tech + (size_t)t) * nx;
        if (chip_mean)
            chip_means(p, 1, 1, (int)nx, &out[c]); /* the summary's own arithmetic */
        else
            out[c] = p[x];
    }
}

/* Statistics and histograms of x [chip][tech][n_x] into v (allocated here). */
static int fill_view(ana_view *v, const double *x, int n_chip, double *work)
{
    size_t nv = (size_t)v->n_tech * (size_t)v->n_x, nb = (size_t)v->n_bins;
    v->stats = calloc(nv, sizeof *v->stats);
    v->edges = malloc(nv * (nb + 1) * sizeof *v->edges);
    v->counts = malloc(nv * nb * sizeof *v->counts);
    if (!v->stats || !v->edges || !v->counts)
        return ANA_ENOMEM;
    size_t stride = nv; /* consecutive chips of one (tech, x) */
    for (size_t tx = 0; tx < nv; tx++) {
        ana_stats_compute(x + tx, (size_t)n_chip, stride, work, &v->stats[tx]);
        double *e = v->edges + tx * (nb + 1);
        ana_bins_edges(v->stats[tx].min, v->stats[tx].max, v->n_bins, e);
        int rc = ana_hist_fill(x + tx, (size_t)n_chip, stride, e, v->n_bins, v->counts + tx * nb);
        if (rc)
            return rc;
    }
    return ANA_EOK;
}

static int add_view(ana_summary *s, const ana_results *r, ana_metric m, const char *name,
                    const char *source, const char *doc, const char *x_axis, int n_x, const double *x, double *work)
{
    ana_view *v = &s->views[s->n_views++];
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->source, sizeof v->source, "%s", source);
    snprintf(v->doc, sizeof v->doc, "%s", doc);
    v->metric = m;
    v->x_axis = x_axis;
    v->n_tech = r->n_tech;
    v->n_x = n_x;
    v->n_bins = ana_bins_count((size_t)r->n_chip);
    return fill_view(v, x, r->n_chip, work);
}

int ana_summary_compute(const ana_results *r, ana_summary **out)
{
    int rc = ANA_ENOMEM;
    size_t nct = (size_t)r->n_chip * (size_t)r->n_tech;
    ana_summary *s = calloc(1, sizeof *s);
    double *work = malloc((size_t)r->n_chip * sizeof *work);
    double *agg = malloc(nct * sizeof *agg);
    *out = NULL;
    if (!s || !work || !agg || !(s->views = calloc(2 * ANA_N_METRICS, sizeof *s->views)))
        goto done;
    for (int m = 0; m < ANA_N_METRICS; m++) {
        const double *x = r->metric[m];
        if (!x)
            continue;
        int bench = ana_metric_axis((ana_metric)m) == ANA_AXIS_BENCHMARK;
        int nx = ana_results_axis_len(r, (ana_metric)m);
        char src[64], name[64], doc[256];
        snprintf(src, sizeof src, "/results/%s", ana_metric_name((ana_metric)m));
        if ((rc = add_view(s, r, (ana_metric)m, ana_metric_name((ana_metric)m), src,
                           ana_metric_doc((ana_metric)m), bench ? "benchmark" : "year", nx, x,
                           work)))
            goto done;
        if (!bench)
            continue;
        chip_means(x, r->n_chip, r->n_tech, nx, agg);
        snprintf(name, sizeof name, "chip_%s", ana_metric_name((ana_metric)m));
        snprintf(doc, sizeof doc, "%s; a chip's value is the mean over benchmarks",
                 ana_metric_doc((ana_metric)m));
        if ((rc = add_view(s, r, (ana_metric)m, name, src, doc, NULL, 1, agg, work)))
            goto done;
    }
    rc = ANA_EOK;
    *out = s;
    s = NULL;
done:
    free(work);
    free(agg);
    ana_summary_free(s);
    return rc;
}
