/* The variation model's tables built by the ranks together (var.h, var_table_split).
 *
 * A cold start builds the chip's tables (about 0.5 s of CPU per table, several per sweep:
 * docs/performance.md) on every rank at once, each the whole table.  A table's columns
 * are independent, so each rank builds its block of them and an all-gather hands every
 * rank the rest: the same floats, in about 1 / ranks of the time.  The evaluator
 * allocates its chip at start-up on every rank (run.c), which is what makes these calls
 * collective; a table a rank builds lazily later (a register-file cache's cells) is
 * built alone. */
#include "table_split.h"

#include <stdlib.h>

static int all_have(void *arg, int have)
{
    MPI_Comm comm = *(const MPI_Comm *)arg;
    int all = 0;
    MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_LAND, comm);
    return all;
}

/* Every rank's block of columns to every rank, in place. */
static void gather(void *arg, float *q, int n_cols, size_t col_floats)
{
    MPI_Comm comm = *(const MPI_Comm *)arg;
    int size = 1;
    MPI_Comm_size(comm, &size);
    int *counts = malloc(sizeof(int) * 2 * (size_t)size), *displs = counts + size;
    if (!counts) /* the others wait in the collective: nothing to agree on */
        MPI_Abort(comm, 1);
    for (int p = 0; p < size; p++) {
        int first = var_table_split_first(n_cols, p, size);
        displs[p] = (int)((size_t)first * col_floats);
        counts[p] = (int)((size_t)(var_table_split_first(n_cols, p + 1, size) - first) * col_floats);
    }
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, q, counts, displs, MPI_FLOAT, comm);
    free(counts);
}

void dse__table_split_init(var_table_split *sp, const MPI_Comm *comm)
{
    MPI_Comm_rank(*comm, &sp->part);
    MPI_Comm_size(*comm, &sp->n_parts);
    sp->all = all_have;
    sp->gather = gather;
    sp->arg = (void *)comm;
}
