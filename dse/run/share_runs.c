/* The SM runs every chip needs, simulated once for all ranks (dse_eval_prefetch).
 *
 * Each rank's run cache is its own, and every rank starts on a chip at the same moment,
 * so the runs every chip needs (the ideal chip's; rf_bro's fixed patterns and those of
 * the techniques built on it) were simulated by every rank on its first chip: 446 runs
 * more with 2 ranks than with 1 on the default sweep, 3 275 more with 10
 * (docs/performance.md).  Before the first chip the ranks walk one chip's time-zero runs
 * together, each simulating its share of them, and an all-gather gives every rank all of
 * them.  A rank whose evaluator failed still takes part in the collectives, with no
 * runs; so does one whose walk failed, with the runs it has. */
#include "share_runs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* Every rank's buffer to every rank, rank p's at all + displs[p], lens[p] bytes (the
 * caller frees all); NULL on every rank when one has no memory for it. */
static uint8_t *gather(const uint8_t *mine, int my_len, int *lens, int *displs, int size,
                       MPI_Comm comm)
{
    MPI_Allgather(&my_len, 1, MPI_INT, lens, 1, MPI_INT, comm);
    long long total = 0;
    for (int p = 0; p < size; p++) {
        displs[p] = (int)total;
        total += lens[p];
    }
    uint8_t *all = total <= INT_MAX ? malloc(total ? (size_t)total : 1) : NULL;
    int ok = all != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm);
    if (!all_ok) { /* every rank knows: none gathers, the runs are simulated later */
        free(all);
        return NULL;
    }
    MPI_Allgatherv(mine, my_len, MPI_BYTE, all, lens, displs, MPI_BYTE, comm);
    return all;
}

int dse__share_first_runs(dse_eval *e, int chip, const uint8_t *want, MPI_Comm comm,
                          dse_poll_fn stop, void *stop_arg, char *err, size_t n)
{
    int rank = 0, size = 1, rc = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size < 2)
        return 0;
    if (e)
        rc = dse_eval_prefetch(e, chip, want, rank, size, stop, stop_arg, err, n);
    size_t len = 0;
    uint8_t *mine = e ? dse_eval_take_prefetched(e, &len) : NULL;
    int my_len = len <= (size_t)(INT_MAX / size) ? (int)len : 0; /* else its runs stay its own */
    int *lens = malloc(sizeof(int) * 2 * (size_t)size);
    if (!lens) /* the others wait in the collective: nothing to agree on */
        MPI_Abort(comm, 1);
    uint8_t *all = gather(mine, my_len, lens, lens + size, size, comm);
    for (int p = 0; all && e && p < size; p++)
        if (p != rank && dse_eval_add_prefetched(e, all + lens[size + p], (size_t)lens[p]) &&
            !rc) {
            snprintf(err, n, "a malformed run from rank %d", p);
            rc = -1;
        }
    free(all);
    free(lens);
    free(mine);
    return rc;
}
