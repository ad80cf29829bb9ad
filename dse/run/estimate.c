/* `rfdse run --dry-run`'s time estimate: a short calibration on this process. */
#include "dse_run.h"

#include <string.h>

#include "dse_batch.h"
#include "dse_eval.h"
#include "dse_progress.h"

/* Stops the calibration at the next SM run when a signal came. */
static int poll_stop(void *arg)
{
    volatile sig_atomic_t *stop = arg;
    return stop && *stop;
}

/* Seconds to evaluate chip `chip` for every technique, or a negative status. */
static double time_chip(dse_eval *e, dse_batch *b, int chip, int n_tech,
                        volatile sig_atomic_t *stop, char *err, size_t n)
{
    uint8_t want[DSE_MAX_TECHNIQUES];
    memset(want, 1, sizeof want);
    dse_chip_info *info;
    dse_batch_clear(b);
    dse_unit *units = dse_batch_reserve(b, n_tech, &info);
    if (!units) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    double t = dse_now();
    int k = dse_eval_chip(e, chip, want, units, info, poll_stop, (void *)stop, err, n);
    if (k == DSE_EVAL_ABANDONED)
        snprintf(err, n, "stopped");
    return k < 0 ? -1 : dse_now() - t;
}

/* Each rank that gets a chip sets up once; the first chip with an empty SM-run cache is
 * the slowest (later chips reuse its runs), and the ranks simulate what it has more
 * than a second chip together, before any chip (share_runs.c); then each rank's share
 * goes about as fast as a second chip.  Chips go to whichever rank asks first, so the
 * busiest rank gets ceil(chips / ranks). */
int dse_run_estimate(const dse_sweep *s, int ranks, volatile sig_atomic_t *stop,
                     dse_estimate *est, char *err, size_t n)
{
    memset(est, 0, sizeof *est);
    int busy = ranks < s->chips.count ? ranks : s->chips.count;
    est->chips_per_rank = (s->chips.count + busy - 1) / busy;
    double t = dse_now();
    dse_eval *e = dse_eval_alloc(s, true, err, n);
    if (!e)
        return -1;
    est->setup = dse_now() - t;
    dse_dims d;
    dse_dims_of(s, &d);
    dse_batch b;
    dse_batch_init(&b, &d);
    est->first = time_chip(e, &b, 0, s->n_techniques, stop, err, n);
    est->next = est->first;
    est->chips_timed = 1;
    if (est->first >= 0 && est->chips_per_rank > 1) {
        est->next = time_chip(e, &b, 1, s->n_techniques, stop, err, n);
        est->chips_timed = 2;
    }
    dse_batch_free(&b);
    dse_eval_free(e);
    if (est->first < 0 || est->next < 0)
        return -1;
    est->total = est->setup + (est->first - est->next) / busy + est->chips_per_rank * est->next;
    return 0;
}
