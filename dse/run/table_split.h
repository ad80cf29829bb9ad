/* The ranks of a run building the variation tables together (table_split.c). */
#ifndef DSE_TABLE_SPLIT_H
#define DSE_TABLE_SPLIT_H

#include <mpi.h>

#include "var.h"

/* sp for the ranks of *comm, which must outlive its use. */
void dse__table_split_init(var_table_split *sp, const MPI_Comm *comm);

#endif
