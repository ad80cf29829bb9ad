/* dse_run.h - the Monte Carlo sweep driver behind `rfdse run`. */
#ifndef RFDSE_DSE_RUN_H
#define RFDSE_DSE_RUN_H

#include <mpi.h>
#include <signal.h>
#include <stdbool.h>

#include "dse_sweep.h"

typedef struct dse_run_opts {
    const char *output;            /* results file                                   */
    bool resume, force, quiet;
    bool force_revision;           /* resume a file computed by another git revision  */
    bool no_reuse;                 /* simulate every SM run (verifies the reuse cache) */
    double flush_interval;         /* s between collective writes (10)               */
    volatile sig_atomic_t *stop;   /* set by a signal handler: finish, write, stop   */
    const dse_selection *select;   /* --techniques/--workloads; NULL: the whole sweep */
} dse_run_opts;

/* Runs the sweep on every rank of comm (collective).  Returns an exit status:
 * 0 done, 1 failed, 2 bad input (existing file, other sweep), 3 stopped early
 * (resumable). */
int dse_run(const dse_sweep *s, const dse_run_opts *o, MPI_Comm comm);

/* Prints the summary table of a finished results file (rank 0 only, serial HDF5). */
int dse_run_summary(const char *path, FILE *out);

#endif
