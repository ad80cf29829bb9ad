/* rfdse status: how far a results file is, and whether a run is writing it now. */
#include <hdf5.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dse_cli.h"
#include "dse_quote.h"
#include "dse_results_status.h"
#include "dse_run.h"
#include "out.h"

static const char help[] =
    "Usage: rfdse status OUT.h5 [MORE.h5 ...]\n"
    "\n"
    "How far a results file is: units (chip, technique) done of all, per technique,\n"
    "and whether a run holds the file's lock (is writing it now); for a running file\n"
    "also the rate (units/s since that run started) and an estimate of the time left.\n"
    "Safe on a file a run is writing: it reads read-only, with HDF5's file locking off,\n"
    "and never takes or waits for the lock.  The counts may be one write step (10 s by\n"
    "default, --flush-interval) behind the run's own progress line.\n"
    "\n"
    "Options:\n"
    "  -h, --help   show this help\n"
    "\n"
    "Exit status: 0 read (whatever the state), 1 a file could not be read now (caught\n"
    "mid-write: try again), 2 bad usage, a missing file or not an rfdse results file.\n";

static void format_duration(double s, char *buf, size_t n)
{
    if (s < 0 || !isfinite(s))
        snprintf(buf, n, "--");
    else if (s < 120)
        snprintf(buf, n, "%.0f s", s);
    else if (s < 7200)
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The first line of the lock file (the holder), escaped: one line whatever it holds. */
static void print_holder(const char *lock_text)
{
    size_t len = strcspn(lock_text, "\n");
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1),
             lock_text);
    dse__fput_escaped(stdout, line[0] ? line : "unknown process");
}

/* Rate and time left from the running run's note (DSE_RUN_NOTE_FORMAT). */
static void print_rate(const char *lock_text)
{
    const char *note = strchr(lock_text, '\n');
    double t0, t;
    long d0, d, total;
    if (!note || sscanf(note + 1, DSE_RUN_NOTE_SCAN, &t0, &d0, &t, &d, &total) != 5 ||
        t < t0 || d < d0 || total < d || t0 <= 0) {
        printf("  rate:       not known yet (the run has not noted its progress)\n");
        return;
    }
    double now = wall_now(), span = t - t0, rate = span > 0 ? (double)(d - d0) / span : 0;
    char since[32], left[32];
    format_duration(now - t0, since, sizeof since);
    if (rate <= 0) {
        printf("  rate:       not known yet (the run started %s ago; it notes its progress "
               "at each write)\n", since);
        return;
    }
    /* time since the note already went by: counted off, never below zero */
    double eta = fmax(0.0, (double)(total - d) / rate - fmax(0.0, now - t));
    format_duration(eta, left, sizeof left);
    printf("  rate:       %.2f units/s (%ld units in the %.0f s from the run's start to its "
           "last write; started %s ago)\n", rate, d - d0, span, since);
    printf("  time left:  about %s, an estimate at that rate (%ld units to go)\n", left,
           total - d);
}

static void print_techniques(const dse_results_status *st)
{
    printf("  %-20s %10s\n", "technique", "chips done");
    for (int t = 0; t < st->n_tech; t++)
        printf("  %-20s %5ld of %d\n", st->tech[t], st->done_per_tech[t], st->n_chips);
}

/* The lock's state: 1 held (lock text in buf), 0 not, -1 cannot tell. */
static void print_run(const char *path, const dse_results_status *st, int held,
                      const char *lock_text)
{
    if (held > 0) {
        fputs("  run:        writing now: ", stdout);
        print_holder(lock_text);
        fputc('\n', stdout);
        print_rate(lock_text);
    } else if (held < 0) {
        fputs("  run:        cannot tell (", stdout);
        dse__fput_escaped(stdout, lock_text);
        fputs(")\n", stdout);
    } else if (st->done == st->total) {
        printf("  run:        none; complete\n");
    } else {
        printf("  run:        none holds the lock%s; %ld units left: `rfdse run SWEEP.cfg "
               "--resume -o ", lock_text[0] ? " (a lock file of a run that was killed is "
               "left: the next run takes it over)" : "", st->total - st->done);
        dse__fput_escaped(stdout, path);
        printf("%s%s` continues it\n", st->selection[0] ? " " : "", st->selection);
    }
}

static int status_of(const char *path)
{
    char err[512], lock_text[1024];
    int held = out_lock_query(path, lock_text, sizeof lock_text);
    dse_results_status st;
    if (access(path, F_OK) != 0 && held > 0) { /* a run builds it under PATH.partial */
        dse__fput_escaped(stdout, path);
        fputs(": being created: ", stdout);
        print_holder(lock_text);
        fputc('\n', stdout);
        return DSE_EXIT_OK;
    }
    if (access(path, F_OK) != 0) {
        fputs("rfdse status: ", stderr);
        dse__fput_escaped(stderr, path);
        fputs(": no such file\n", stderr);
        return DSE_EXIT_USAGE;
    }
    if (dse_results_status_read(path, &st, err, sizeof err)) {
        fputs("rfdse status: ", stderr);
        dse__fput_escaped(stderr, path);
        fprintf(stderr, ": %s\n", err);
        return strstr(err, "not an rfdse") || strstr(err, "damaged") ? DSE_EXIT_USAGE
                                                                     : DSE_EXIT_FAILURE;
    }
    dse__fput_escaped(stdout, path);
    printf("\n  units:      %ld of %ld done (%.1f %%): %d chips x %d techniques\n", st.done,
           st.total, st.total ? 100.0 * (double)st.done / (double)st.total : 100.0, st.n_chips,
           st.n_tech);
    printf("  created:    %s by git revision %s%s%s\n", st.created, st.git_revision,
           st.selection[0] ? "; part of a sweep: " : "", st.selection);
    /* TODO(issue 33 item 17): when per-unit checksums exist, verify the units marked
     * done here and name the damaged ones (see docs/driver.md, "rfdse status"). */
    print_techniques(&st);
    print_run(path, &st, held, lock_text);
    return DSE_EXIT_OK;
}

int dse_cmd_status(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    int n = 0;
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1])
            return dse_cli_usage_error("status", "unknown option '%s'", argv[i]);
        else
            n++;
    if (!n)
        return dse_cli_usage_error("status", "expected at least one results file");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* one line of ours instead of HDF5's stack */
    int rc = DSE_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (i > 1)
            fputc('\n', stdout);
        int r = status_of(argv[i]);
        rc = r > rc ? r : rc;
    }
    return rc;
}
