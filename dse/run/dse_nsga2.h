/* dse_nsga2.h - NSGA-II (Deb, Pratap, Agarwal, Meyarivan 2002) over genomes in the unit
 * cube: the search behind `design = "nsga2"` (docs/sweep-format.md).
 *
 * Stateless: the population of generation g is replayed from every evaluated point of
 * generations 0..g (what the results file keeps), so a resumed search continues exactly
 * where it stopped, and the random draws are keyed by (seed, generation), never by rank
 * or order of work: the search is the same for any rank count.
 */
#ifndef RFDSE_DSE_NSGA2_H
#define RFDSE_DSE_NSGA2_H

#include <stdint.h>

typedef struct dse_nsga2 {
    int n_var, n_obj, pop; /* genome length, objectives (minimised), population  */
    uint64_t seed;
    double p_cross;        /* SBX crossover probability                 0.9      */
    double eta_c, eta_m;   /* SBX and polynomial-mutation indices       15, 20   */
} dse_nsga2;

/* The defaults above for n_var, n_obj, pop and seed. */
dse_nsga2 dse_nsga2_default(int n_var, int n_obj, int pop, uint64_t seed);

/* Generation g+1's genomes into next[pop][n_var] from the genomes x and objectives f of
 * generations 0..g (x[(gen * pop + i) * n_var + j], f[(gen * pop + i) * n_obj + k];
 * NaN objectives lose to any number).  0, or -1 when out of memory. */
int dse_nsga2_next(const dse_nsga2 *c, int g, const double *x, const double *f, double *next);

/* Whether point i of generations 0..g is in the population after generation g (the
 * survivors of environmental selection): survivors[(gen * pop + i)]; 0 or -1. */
int dse_nsga2_population(const dse_nsga2 *c, int g, const double *f, uint8_t *survivors);

#endif
