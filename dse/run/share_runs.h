/* The SM runs every rank would meet on its first chip, simulated by the ranks together
 * (share_runs.c). */
#ifndef DSE_SHARE_RUNS_H
#define DSE_SHARE_RUNS_H

#include <mpi.h>
#include <stdint.h>

#include "dse_eval.h"

/* Collective over comm: every rank's evaluator e (NULL on a rank whose allocation
 * failed: it takes part with nothing) gets the distinct time-zero runs of `chip` (the
 * techniques with want[t] != 0) and of the ideal chip, each simulated by one rank.  0, or
 * -1 with err set; the runs gathered before a failure stay.  stop (NULL: none) is
 * asked between runs: nonzero ends this rank's share of the walk (a stop request). */
int dse__share_first_runs(dse_eval *e, int chip, const uint8_t *want, MPI_Comm comm,
                          dse_poll_fn stop, void *stop_arg, char *err, size_t n);

#endif
