/* Progress display on rank 0. */
#include "dse_progress.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LIVE_PERIOD 0.25 /* s between live-line updates             */
#define LOG_PERIOD 5.0   /* s between log lines when not a terminal */

double dse_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Under mpirun a rank's stdout is a pseudo-terminal even when mpirun's own output goes
 * to a file, so a terminal is believed only if the parent process (mpirun, or the
 * shell) writes to one too; where /proc cannot tell, isatty() decides. */
static bool is_live_terminal(FILE *out)
{
    if (!isatty(fileno(out)))
        return false;
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/%d/fd/1", (int)getppid());
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0)
        return true;
    target[n] = '\0';
    return !strncmp(target, "/dev/pts/", 9) || !strncmp(target, "/dev/tty", 8);
}

void dse_progress_init(dse_progress *p, FILE *out, long total, long at_start, bool quiet,
                       double t0)
{
    *p = (dse_progress){ .out = out, .live = is_live_terminal(out), .quiet = quiet,
                         .total = total, .at_start = at_start, .done = at_start };
    p->t0 = p->t_work = t0;
    p->last_print = dse_now();
}

void dse_progress_begin(dse_progress *p, double now) { p->t_work = now; }

static void format_eta(double s, char *buf, size_t n)
{
    if (s < 0 || s > 1e7)
        snprintf(buf, n, "--");
    else if (s >= 3600)
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
    else
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
}

static void print(dse_progress *p, double now, bool final)
{
    double elapsed = now - p->t0, working = now - p->t_work;
    double rate = working > 0 ? (double)(p->done - p->at_start) / working : 0;
    char eta[32];
    format_eta(rate > 0 ? (double)(p->total - p->done) / rate : -1, eta, sizeof eta);
    fprintf(p->out, "%s[%ld/%ld units] %5.1f %%  %.1f units/s  elapsed %.1f s  ETA %s%s",
            p->live ? "\r" : "rfdse: ", p->done, p->total,
            p->total ? 100.0 * (double)p->done / (double)p->total : 100.0, rate, elapsed, eta,
            p->live && !final ? "   " : "\n");
    fflush(p->out);
    p->last_print = now;
}

void dse_progress_add(dse_progress *p, long units)
{
    p->done += units;
    if (p->quiet)
        return;
    double now = dse_now();
    if (now - p->last_print >= (p->live ? LIVE_PERIOD : LOG_PERIOD))
        print(p, now, false);
}

void dse_progress_finish(dse_progress *p, double now)
{
    if (!p->quiet)
        print(p, now, true);
}
