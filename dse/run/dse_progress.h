/* dse_progress.h - rank 0's progress display: one live line on a terminal, a log line
 * every few seconds otherwise, nothing with --quiet. */
#ifndef RFDSE_DSE_PROGRESS_H
#define RFDSE_DSE_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

typedef struct dse_progress {
    FILE *out;
    bool live;          /* a terminal: rewrite one line                 */
    bool quiet;
    long total;         /* units in the whole sweep                      */
    long at_start;      /* already done when this run started (resume)   */
    long done;
    double t0, last_print;
} dse_progress;

void dse_progress_init(dse_progress *p, FILE *out, long total, long at_start, bool quiet);
void dse_progress_add(dse_progress *p, long units);
void dse_progress_finish(dse_progress *p);

/* Seconds on a monotonic clock. */
double dse_now(void);

#endif
