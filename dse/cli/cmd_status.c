/* rfdse status: how far a results file is, and whether a run is writing it now. */
#include <hdf5.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ana_checksum.h"
#include "dse_cli.h"
#include "dse_quote.h"
#include "dse_results_status.h"
#include "dse_run.h"
#include "out.h"

static const char help[] =
    "Usage: rfdse status OUT.h5 [MORE.h5 ...] [--json]\n"
    "\n"
    "How far a results file is: units (chip, technique) done of all, per technique\n"
    "(with axes: units (point, chip, technique)), and whether a run holds the file's\n"
    "lock (is writing it now); for a running file\n"
    "also the rate (units/s since that run started) and an estimate of the time left.\n"
    "It checks every unit done against its checksum and names damaged ones (which\n"
    "`rfdse run --resume` computes again).\n"
    "Safe on a file a run is writing: it reads read-only, with HDF5's file locking off,\n"
    "and never takes or waits for the lock.  The counts may be one write step (10 s by\n"
    "default, --flush-interval) behind the run's own progress line.\n"
    "\n"
    "Options:\n"
    "  --json       one JSON object per file, one per line, for scripts: file, chips,\n"
    "               techniques, points (with axes), units_done, units_total, created,\n"
    "               git_revision, selection, done_per_technique, damaged_units,\n"
    "               damaged, running, holder, units_per_second,\n"
    "               seconds_left (null when unknown); error instead for an unreadable file\n"
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

/* What the running run's note (DSE_RUN_NOTE_FORMAT) says: 0 with the rate known, 1
 * noted but no unit finished yet, -1 no usable note. */
typedef struct note {
    double t0, t, now, rate, eta; /* wall-clock s; units/s; s left (estimate) */
    long d0, d, total;
} note;

static int read_note(const char *lock_text, note *n)
{
    const char *line = strchr(lock_text, '\n');
    if (!line || sscanf(line + 1, DSE_RUN_NOTE_SCAN, &n->t0, &n->d0, &n->t, &n->d, &n->total) != 5 ||
        n->t < n->t0 || n->d < n->d0 || n->total < n->d || n->t0 <= 0)
        return -1;
    n->now = wall_now();
    double span = n->t - n->t0;
    n->rate = span > 0 ? (double)(n->d - n->d0) / span : 0;
    if (n->rate <= 0)
        return 1;
    /* time since the note already went by: counted off, never below zero */
    n->eta = fmax(0.0, (double)(n->total - n->d) / n->rate - fmax(0.0, n->now - n->t));
    return 0;
}

static void print_rate(const char *lock_text)
{
    note n;
    int k = read_note(lock_text, &n);
    char since[32], left[32];
    if (k < 0) {
        printf("  rate:       not known yet (the run has not noted its progress)\n");
        return;
    }
    format_duration(n.now - n.t0, since, sizeof since);
    if (k > 0) {
        printf("  rate:       not known yet (the run started %s ago; it notes its progress "
               "at each write)\n", since);
        return;
    }
    format_duration(n.eta, left, sizeof left);
    printf("  rate:       %.2f units/s (%ld units in the %.0f s from the run's start to its "
           "last write; started %s ago)\n", n.rate, n.d - n.d0, n.t - n.t0, since);
    printf("  time left:  about %s, an estimate at that rate (%ld units to go)\n", left,
           n.total - n.d);
}

/* --json: one object per file, one line each (JSON Lines); null for what is unknown. */
static void json_status(const char *path, const dse_results_status *st, int held,
                        const char *lock_text, const char *error, long damaged,
                        const char *damaged_msg)
{
    FILE *out = stdout;
    fputs("{\"file\": ", out);
    dse_cli_json_string(out, path);
    if (error) {
        fputs(", \"error\": ", out);
        dse_cli_json_string(out, error);
        fputs("}\n", out);
        return;
    }
    fprintf(out, ", \"chips\": %d, \"techniques\": %d, ", st->n_chips, st->n_tech);
    if (st->n_points > 0)
        fprintf(out, "\"points\": %d, ", st->n_points);
    fprintf(out, "\"units_done\": %ld, \"units_total\": %ld, \"created\": ", st->done,
            st->total);
    dse_cli_json_string(out, st->created);
    fputs(", \"git_revision\": ", out);
    dse_cli_json_string(out, st->git_revision);
    fputs(", \"selection\": ", out);
    dse_cli_json_string(out, st->selection);
    fputs(", \"done_per_technique\": {", out);
    for (int t = 0; t < st->n_tech; t++) {
        fputs(t ? ", " : "", out);
        dse_cli_json_string(out, st->tech[t]);
        fprintf(out, ": %ld", st->done_per_tech[t]);
    }
    fputs("}, \"damaged_units\": ", out);
    if (damaged >= 0)
        fprintf(out, "%ld", damaged);
    else
        fputs("null", out);
    fputs(", \"damaged\": ", out);
    dse_cli_json_string(out, damaged ? damaged_msg : "");
    fprintf(out, ", \"running\": %s, \"holder\": ", held > 0 ? "true" : "false");
    char line[512];
    size_t len = strcspn(lock_text, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1),
             lock_text);
    if (held > 0)
        dse_cli_json_string(out, line);
    else
        fputs("null", out);
    note n;
    if (held > 0 && read_note(lock_text, &n) == 0)
        fprintf(out, ", \"units_per_second\": %.6g, \"seconds_left\": %.1f}\n", n.rate, n.eta);
    else
        fputs(", \"units_per_second\": null, \"seconds_left\": null}\n", out);
}

static void print_techniques(const dse_results_status *st)
{
    bool p = st->n_points > 0; /* with axes: (point, chip) rows */
    printf("  %-20s %10s\n", "technique", p ? "(point, chip) done" : "chips done");
    for (int t = 0; t < st->n_tech; t++)
        printf("  %-20s %5ld of %ld\n", st->tech[t], st->done_per_tech[t],
               (long)(p ? st->n_points : 1) * st->n_chips);
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

/* The per-unit checksums (analysis/ana_checksum.h) of the units marked done. */
static void print_damaged(const char *path, long damaged, const char *msg)
{
    if (damaged == 0) {
        printf("  checksums:  every unit done matches its checksum (or the file predates "
               "them)\n");
        return;
    }
    size_t len = strlen(path); /* a failure's message starts "PATH: " */
    if (damaged < 0 && !strncmp(msg, path, len) && !strncmp(msg + len, ": ", 2))
        msg += len + 2;
    fputs(damaged > 0 ? "  checksums:  " : "  checksums:  not checked: ", stdout);
    dse__fput_escaped(stdout, msg);
    fputs(damaged > 0 ? "; `rfdse run SWEEP.cfg --resume -o FILE` computes them again\n" : "\n",
          stdout);
}

static int status_of(const char *path, bool json)
{
    char err[512], lock_text[1024];
    int held = out_lock_query(path, lock_text, sizeof lock_text);
    dse_results_status st;
    bool exists = access(path, F_OK) == 0;
    if (!exists && held > 0 && !json) { /* a run builds it under PATH.partial */
        dse__fput_escaped(stdout, path);
        fputs(": being created: ", stdout);
        print_holder(lock_text);
        fputc('\n', stdout);
        return DSE_EXIT_OK;
    }
    int rc = !exists ? DSE_EXIT_USAGE
             : dse_results_status_read(path, &st, err, sizeof err) == 0 ? DSE_EXIT_OK
             : strstr(err, "not an rfdse") || strstr(err, "damaged") ? DSE_EXIT_USAGE
                                                                     : DSE_EXIT_FAILURE;
    if (!exists)
        snprintf(err, sizeof err, "%s", held > 0 ? "being created" : "no such file");
    if (!exists && held > 0)
        rc = DSE_EXIT_OK;
    char dmsg[1200] = "";
    long damaged = exists && !rc ? ana_results_damaged(path, dmsg, sizeof dmsg) : 0;
    if (json) {
        json_status(path, &st, held, lock_text, exists && !rc ? NULL : err, damaged, dmsg);
        return rc;
    }
    if (rc) {
        fputs("rfdse status: ", stderr);
        dse__fput_escaped(stderr, path);
        fprintf(stderr, ": %s\n", err);
        return rc;
    }
    dse__fput_escaped(stdout, path);
    printf("\n  units:      %ld of %ld done (%.1f %%): ", st.done, st.total,
           st.total ? 100.0 * (double)st.done / (double)st.total : 100.0);
    if (st.n_points > 0)
        printf("%d points x ", st.n_points);
    printf("%d chips x %d techniques\n", st.n_chips, st.n_tech);
    printf("  created:    %s by git revision %s%s%s\n", st.created, st.git_revision,
           st.selection[0] ? "; part of a sweep: " : "", st.selection);
    print_damaged(path, damaged, dmsg);
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
    bool json = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return dse_cli_usage_error("status", "unknown option '%s'", argv[i]);
        else
            n++;
    if (!n)
        return dse_cli_usage_error("status", "expected at least one results file");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* one line of ours instead of HDF5's stack */
    /* The checksum check opens the file its own way: without HDF5's file lock too, so it
     * neither waits for nor is refused by a writer holding the file (this process only). */
    setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1);
    int rc = DSE_EXIT_OK;
    bool first = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            continue;
        if (!first && !json)
            fputc('\n', stdout);
        first = false;
        int r = status_of(argv[i], json);
        rc = r > rc ? r : rc;
    }
    return rc;
}
