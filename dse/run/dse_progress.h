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
    double t0;          /* the run's start: elapsed counts from here     */
    double t_work;      /* the first chip handed out: the rate from here */
    double last_print;
} dse_progress;

/* t0: when the run started (dse_now()), the one start point of every time it prints;
 * the rate counts from dse_progress_begin(), after the set-up, so the ETA is not
 * skewed by it. */
void dse_progress_init(dse_progress *p, FILE *out, long total, long at_start, bool quiet,
                       double t0);
void dse_progress_begin(dse_progress *p, double now);
void dse_progress_add(dse_progress *p, long units);
/* The last line, at `now`: the same instant the run's closing line reports. */
void dse_progress_finish(dse_progress *p, double now);

/* Seconds on a monotonic clock. */
double dse_now(void);

#endif
