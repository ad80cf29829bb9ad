/* dse_batch.h - a rank's finished but not yet written units and chips. */
#ifndef RFDSE_DSE_BATCH_H
#define RFDSE_DSE_BATCH_H

#include "dse_results.h"

typedef struct dse_batch {
    dse_dims dims;
    dse_unit *units;
    dse_chip_info *chips;
    int n_units, n_chips, cap_units, cap_chips;
} dse_batch;

void dse_batch_init(dse_batch *b, const dse_dims *d);
/* Room for one more chip and `n_units` units of it: returns the first of the new
 * units (arrays allocated) and *info, or NULL when out of memory.  The units and
 * chip count only once dse_batch_commit() says how many were filled. */
dse_unit *dse_batch_reserve(dse_batch *b, int n_units, dse_chip_info **info);
void dse_batch_commit(dse_batch *b, int n_units);
void dse_batch_clear(dse_batch *b);
void dse_batch_free(dse_batch *b);

/* Copies unit `from` (arrays sized by `fd`) into `to` (sized by `td`), keeping of the
 * benchmark axis only from's benchmark w_map[i] as to's benchmark i: a run that stores
 * fewer workloads than it evaluates (dse/run/run.c). */
void dse_unit_project(const dse_unit *from, const dse_dims *fd, const int *w_map, dse_unit *to,
                      const dse_dims *td);

#endif
