/* ana_pareto.h - Pareto fronts of design points: non-dominated sorting, crowding
 * distance (NSGA-II, Deb et al. 2002) and the hypervolume of two objectives.
 * Every objective is minimised (negate one to maximise it); a point with a NaN
 * objective is dominated by every other and never on a front. */
#ifndef RFDSE_ANA_PARETO_H
#define RFDSE_ANA_PARETO_H

#include <stdint.h>

/* True when a dominates b: no worse in each of m objectives, better in one. */
int ana_pareto_dominates(const double *a, const double *b, int m);

/* rank[i] of n points of m objectives (f[i * m + j]): 0 for the non-dominated front, 1
 * for the front once it is removed, ...; points with a NaN objective get the last rank.
 * Returns the number of ranks, or -1 when out of memory.  O(n^2 m). */
int ana_pareto_rank(const double *f, int n, int m, int *rank);

/* Crowding distance of the k points idx[0..k) of one front (infinite at each
 * objective's ends) into dist[0..k); -1 when out of memory. */
int ana_pareto_crowding(const double *f, int m, const int *idx, int k, double *dist);

/* Hypervolume of two minimised objectives: the area dominated by the points of f[n][2]
 * and bounded by the reference point ref (points not below ref in both count for
 * nothing).  -1 when out of memory. */
double ana_pareto_hypervolume2(const double *f, int n, const double ref[2]);

#endif
