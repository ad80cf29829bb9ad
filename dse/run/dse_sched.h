/* dse_sched.h - dynamic distribution of chips over MPI ranks.
 *
 * Rank 0 coordinates and works too: workers ask it for the next chip whenever they
 * finish one; rank 0 answers between its own SM runs (dse_sched_poll).  Every few
 * seconds rank 0 opens a flush epoch: each rank, at its next request, is told FLUSH and
 * joins the collective write of what it has finished.  When no work is left (or a stop
 * was requested), every rank is told DONE and joins one last collective write.
 * So all ranks make the same sequence of collective calls, whatever order chips finish.
 */
#ifndef RFDSE_DSE_SCHED_H
#define RFDSE_DSE_SCHED_H

#include <mpi.h>
#include <stdbool.h>

#include "dse_progress.h"

enum { DSE_SCHED_FLUSH = -1, DSE_SCHED_DONE = -2 };

typedef struct dse_sched dse_sched;

/* todo: chips still to compute (rank 0's copy is used); progress: rank 0's display
 * (may be NULL on other ranks); flush_interval in seconds. */
dse_sched *dse_sched_alloc(MPI_Comm comm, const int *todo, int n_todo, double flush_interval,
                           dse_progress *progress);
void dse_sched_free(dse_sched *s);

/* The next chip for this rank, or DSE_SCHED_FLUSH / DSE_SCHED_DONE.  `units` is the
 * number of (chip, technique) units this rank finished since its last call; `stop`: this
 * rank saw a stop request, which stops the whole run (as dse_sched_stop on rank 0). */
int dse_sched_next(dse_sched *s, int units, bool stop);

/* Rank 0: answer waiting workers and update progress; cheap, call it often.  Other
 * ranks: nothing. */
void dse_sched_poll(dse_sched *s);

/* Rank 0: hand out no more chips (finish what runs, then DONE). */
void dse_sched_stop(dse_sched *s);

#endif
