/* search.h - internal to dse/run/: a search's generations (design = "nsga2") between the
 * results file and the NSGA-II engine (dse_nsga2.h). */
#ifndef RFDSE_DSE_SEARCH_H
#define RFDSE_DSE_SEARCH_H

#include "dse_results.h"
#include "dse_sweep.h"

/* The objectives of points first..first+n-1, read from the file, into f[n][n_objectives],
 * each minimised (a maximised one negated): a statistic over chips of the search
 * technique's chip values (mean over workloads; per-year metrics: the last year).
 * Every rank reads and computes the same.  0 or -1. */
int dse__search_objectives(dse_results *r, const dse_sweep *s, const dse_dims *d, int first,
                           int n, double *f);

/* The knob values of generation g+1 into next[population][n_knobs] from the values and
 * objectives of generations 0..g.  0 or -1. */
int dse__search_next(const dse_sweep *s, int g, const double *values, const double *f,
                     double *next);

/* With two objectives: the hypervolume of every point of generations 0..g, against the
 * worst value of each objective in generation 0 plus a tenth of its range (a reference
 * fixed for the whole search); NaN otherwise. */
double dse__search_hypervolume(const dse_sweep *s, int g, const double *f);

#endif
