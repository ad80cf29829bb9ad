/* dse_results_status.h - a results file's progress, read without disturbing a run
 * that is writing it (`rfdse status`, dse/cli/cmd_status.c). */
#ifndef RFDSE_DSE_RESULTS_STATUS_H
#define RFDSE_DSE_RESULTS_STATUS_H

#include <stddef.h>

#include "dse_sweep.h"

typedef struct dse_results_status {
    int n_points, n_chips, n_tech;          /* n_points 0: a sweep without axes */
    char tech[DSE_MAX_TECHNIQUES][DSE_NAME_MAX];
    long done_per_tech[DSE_MAX_TECHNIQUES]; /* (point,) chips with the unit written */
    long done, total;                       /* units written, units in the file */
    char created[64], git_revision[64];
    char selection[512];                    /* "" for a whole sweep           */
} dse_results_status;

/* Reads `path` read-only, with HDF5's file locking off and no lock of rfdse's taken, so
 * it never waits for a run writing the file nor disturbs it.  A run changes only raw
 * data after the file is built (dse_results.h), so the metadata read is stable; the
 * /progress/done flags read may be one write step old.  Without SWMR nothing more is
 * promised: every value read is checked against the axes, and anything unreadable or
 * inconsistent gives -1 and one line in err (retrying later may succeed). */
int dse_results_status_read(const char *path, dse_results_status *st, char *err, size_t n);

#endif
