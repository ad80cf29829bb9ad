/* rfdse run --dry-run on a sweep with axes: points x chips x techniques x workloads, the
 * units, and the SM runs the design will simulate and reuse across points. */
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "dse_batch.h"
#include "dse_cli.h"
#include "dse_eval.h"
#include "dse_sweep.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A short calibration: chip 0 of point 0 (every technique) evaluated once, in seconds;
 * negative when it could not be. */
static double calibrate(const dse_sweep *s)
{
    dse_sweep *p = dse_axes_point_sweep(s, 0);
    char err[256];
    dse_eval *e = p ? dse_eval_alloc(p, true, err, sizeof err) : NULL;
    dse_dims d;
    dse_batch b;
    double t = -1;
    if (e) {
        dse_dims_of(p, &d);
        dse_batch_init(&b, &d);
        dse_chip_info *info;
        uint8_t want[DSE_MAX_TECHNIQUES];
        memset(want, 1, sizeof want);
        dse_unit *u = dse_batch_reserve(&b, p->n_techniques, &info);
        double t0 = now();
        if (u && dse_eval_chip(e, 0, want, u, info, NULL, NULL, err, sizeof err) >= 0)
            t = now() - t0;
        dse_batch_free(&b);
    }
    dse_eval_free(e);
    dse_sweep_free(p);
    return t;
}

/* The point's sweep with the knobs no SM run reads (aging, energy) set to the file's:
 * points equal in it ask for the same time-zero SM runs (the run cache's key holds
 * every input of a run, so these are reused, not simulated again). */
static dse_sweep *sm_inputs(const dse_sweep *s, int k)
{
    dse_sweep *p = dse_axes_point_sweep(s, k);
    if (p) {
        p->var.aging = s->var.aging;
        p->energy = s->energy;
    }
    return p;
}

/* Time-zero runs of a point: its planned runs with a schedule of year 0 only. */
static long t0_runs(const dse_sweep *p, int ranks)
{
    dse_sweep *z = malloc(sizeof *z);
    if (!z)
        return 0;
    memcpy(z, p, sizeof *z);
    z->var.aging.n_years = 1;
    long n = dse_eval_planned_runs(z, ranks);
    free(z);
    return n;
}

void dse_cli_dry_run_axes(const dse_sweep *s, int ranks)
{
    int P = dse_axes_points(s);
    bool search = s->axes.design == DSE_DESIGN_NSGA2;
    int known = search ? s->axes.population : P; /* a search: generation 0 only */
    dse_sweep **key = calloc((size_t)P, sizeof *key);
    long total = 0, simulated = 0;
    int groups = 0;
    for (int k = 0; key && k < known; k++) {
        dse_sweep *p = dse_axes_point_sweep(s, k);
        key[k] = sm_inputs(s, k);
        if (!p || !key[k])
            break;
        long all = dse_eval_planned_runs(p, ranks), t0 = t0_runs(p, ranks);
        bool seen = false;
        for (int j = 0; j < k && !seen; j++)
            seen = dse_sweep_equal(key[j], key[k]);
        total += all;
        groups += !seen;
        simulated += (all - t0) + (seen ? 0 : t0); /* aged runs: counted as new */
        dse_sweep_free(p);
    }
    long units = (long)P * s->chips.count * s->n_techniques;
    printf("sweep %s: %d points x %d chips x %d techniques x %d workloads\n", s->name, P,
           s->chips.count, s->n_techniques, s->n_workloads);
    printf("units (point, chip, technique): %ld\n", units);
    printf("SM runs: %ld asked for on %d rank%s (identical runs inside a point are reused "
           "too; the run reports how many)\n", total, ranks, ranks == 1 ? "" : "s");
    if (search)
        printf("a search: %d generations of %d points; the runs above are generation 0's, the "
               "later ones are drawn from its results\n", s->axes.generations, known);
    printf("points with equal SM inputs (knobs of aging and energy only differ): %d group%s "
           "of %d points; at least %ld runs reused across points, at most %ld simulated\n",
           groups, groups == 1 ? "" : "s", known, total - simulated, simulated);
    double t = calibrate(s);
    if (t >= 0) {
        double rows = (double)P * s->chips.count, est = t * rows / ranks;
        printf("estimated time: %.0f s on %d rank%s (chip 0 of point 0 took %.2f s for every "
               "technique; x %.0f (point, chip) rows; an upper bound: the run cache reuses "
               "more as it fills)\n", est, ranks, ranks == 1 ? "" : "s", t, rows);
    }
    printf("output: %s (nothing written by --dry-run)\n", s->output.file);
    for (int k = 0; key && k < known; k++)
        dse_sweep_free(key[k]);
    free(key);
}
