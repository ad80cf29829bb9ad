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
    const char *run_store;         /* directory of SM runs kept for later runs; NULL: none */
    long store_chips;              /* chips with index below it kept in the run store  */
    double flush_interval;         /* s between collective writes (10)               */
    volatile sig_atomic_t *stop;   /* set by a signal handler: finish, write, stop   */
    const dse_selection *select;   /* --techniques/--workloads; NULL: the whole sweep */
} dse_run_opts;

/* The note a run keeps in its output's lock file (out_lock_note), the second line:
 * wall-clock seconds since the epoch when the run started, units done then, the
 * seconds at the last write, units finished by then, units in the file.  Read back
 * by `rfdse status` with the same format. */
#define DSE_RUN_NOTE_FORMAT "progress: started %.3f with %ld done; at %.3f %ld done of %ld"
#define DSE_RUN_NOTE_SCAN "progress: started %lf with %ld done; at %lf %ld done of %ld"

/* Runs the sweep on every rank of comm (collective).  Returns an exit status:
 * 0 done, 1 failed, 2 bad input (existing file, other sweep), 3 stopped early
 * (resumable). */
int dse_run(const dse_sweep *s, const dse_run_opts *o, MPI_Comm comm);

/* `rfdse run --dry-run`'s estimate of the run's wall time on `ranks` ranks, from a
 * calibration on this process (dse/run/estimate.c): the set-up of the chip model, chip
 * 0 with an empty SM-run cache, chip 1 with chip 0's runs to reuse.  An estimate: ranks
 * sharing cores, other load, the writes and chips unlike the first two change it. */
typedef struct dse_estimate {
    double setup, first, next; /* s: set-up, the first chip, a later chip */
    int chips_timed;           /* 1 or 2                                   */
    int chips_per_rank;        /* of the busiest rank                      */
    double total;              /* s: setup + (first - next) / busy ranks
                                  + chips_per_rank x next */
} dse_estimate;
/* 0, or -1 with one line in err (a model error, no memory, or `stop` set). */
int dse_run_estimate(const dse_sweep *s, int ranks, volatile sig_atomic_t *stop,
                     dse_estimate *est, char *err, size_t n);

/* Prints the summary table of a finished results file (rank 0 only, serial HDF5). */
int dse_run_summary(const char *path, FILE *out);

#endif
