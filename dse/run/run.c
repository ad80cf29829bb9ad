/* The sweep driver: open the results file, distribute chips, evaluate, write. */
#include "dse_run.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "dse_batch.h"
#include "dse_eval.h"
#include "dse_progress.h"
#include "dse_quote.h"
#include "dse_results.h"
#include "dse_run_store.h"
#include "dse_sched.h"
#include "out.h"
#include "search.h"
#include "share_runs.h"
#include "table_split.h"

typedef struct run_state {
    const dse_sweep *whole;  /* as given: the file's sweep_config */
    const dse_sweep *s;      /* what the file stores: the selected part of `whole` */
    dse_sweep *stored;       /* owned copy behind s when a part was selected */
    dse_sweep *evaluated;    /* owned; NULL when it is s (see select_part) */
    char selection[2 * DSE_MAX_TECHNIQUES * (DSE_NAME_MAX + 1) + 64];
    int w_map[DSE_MAX_WORKLOADS]; /* stored workload i is evaluated workload w_map[i] */
    dse_batch scratch;       /* units of `evaluated`, before dse_unit_project */
    const dse_run_opts *o;
    MPI_Comm comm;
    int rank;
    dse_dims dims;
    uint8_t *done;          /* [chip][technique] as read at start */
    dse_results *results;
    dse_sched *sched;
    dse_eval *eval;
    dse_run_store *store;   /* --run-store, or NULL */
    int eval_point;         /* with axes: the design point `eval` evaluates, or -1 */
    dse_sweep *point_sweep; /* with axes: that point's plain sweep (owned) */
    double *values;         /* with axes: [point][knob], every rank the same (a search:
                               NaN for the generations not drawn yet) */
    dse_batch batch;
    dse_progress progress;
    out_lock *lock;         /* rank 0: the output's write lock */
    long units_left;        /* when this run started       */
    long units_computed;    /* by this rank                */
    long units_written;     /* by this rank, written and marked done */
    bool write_failed;      /* every rank agrees on it (dse_results_write) */
    bool failed;            /* this rank could not compute a chip: the run stops */
    double wall_start;      /* rank 0: CLOCK_REALTIME at the first progress note */
    char fail_msg[1024];
    char write_err[DSE_PATH_MAX + 256];
} run_state;

/* A failure every rank can survive (a model error on one chip, no memory for a batch):
 * this rank computes nothing more and its next request stops the run; the others
 * finish their chips and join the last write; the message comes at the end, with the
 * count of units saved, on one line and without MPI_Abort's banner. */
static void fail_rank(run_state *st, const char *msg)
{
    if (!st->failed)
        snprintf(st->fail_msg, sizeof st->fail_msg, "%s", msg);
    st->failed = true;
}

/* Only for states the ranks cannot agree their way out of (no memory at start-up). */
static void fatal(run_state *st, const char *msg)
{
    fprintf(stderr, "rfdse run: rank %d: %s\n", st->rank, msg);
    MPI_Abort(st->comm, 1);
}

/* The stop flag holds the signal.  SIGUSR1 (Slurm's warning, which mpirun and srun pass
 * on unchanged) lets the chips in flight finish.  SIGINT and SIGTERM abandon them at
 * their next SM run: mpirun answers either by sending SIGTERM to every rank and SIGKILL
 * one second later (Open MPI's odls_base_sigkill_timeout), too soon to finish a chip. */
static bool stop_seen(const run_state *st)
{
    return st->failed || (st->o->stop && *st->o->stop);
}
static bool stop_now(const run_state *st) { return stop_seen(st) && *st->o->stop != SIGUSR1; }

/* Between SM runs: rank 0 answers the others; a stop request is noticed.  Nonzero:
 * abandon the chip in flight. */
static int poll(void *arg)
{
    run_state *st = arg;
    if (stop_seen(st))
        dse_sched_stop(st->sched);
    dse_sched_poll(st->sched);
    return stop_now(st);
}

/* Rank 0 takes the output's write lock, so a second run on the same file (--force or
 * --resume) is refused while this one works, and removes what a killed run left beside
 * the file (Open MPI's shared file pointer files); everyone learns the verdict. */
static int take_lock(run_state *st, char *err, size_t n)
{
    int ok = 1;
    if (st->rank == 0) {
        st->lock = out_lock_take(st->o->output, "rfdse run", err, n);
        ok = st->lock != NULL;
        if (ok)
            out_leftovers_remove(st->o->output);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, st->comm);
    return ok ? 0 : -1;
}

/* Returns 0, or the exit status (2 bad target or another sweep's file, 1 failure). */
static int open_results(run_state *st)
{
    char err[DSE_PATH_MAX + 512] = "";
    int status = 2;
    size_t n = (size_t)dse_dims_units(&st->dims);
    st->done = calloc(n ? n : 1, 1);
    if (!st->done)
        return 1;
    dse_results_of of = { st->whole, st->s, st->selection };
    if (take_lock(st, err, sizeof err) == 0)
        st->results = st->o->resume ? dse_results_resume(st->o->output, &of, st->comm,
                                                         st->o->force_revision, st->done,
                                                         err, sizeof err)
                                    : dse_results_create(st->o->output, &of, st->o->force,
                                                         st->comm, err, sizeof err, &status);
    if (!st->results && st->rank == 0) { /* err may quote the file's attributes */
        fputs("rfdse run: ", stderr);
        dse__fput_escaped(stderr, err);
        fputc('\n', stderr);
    }
    long n_bad;
    const char *bad = st->results ? dse_results_damaged(st->results, &n_bad) : NULL;
    if (bad && st->rank == 0) {
        fprintf(stderr, "rfdse run: note: %ld damaged unit%s in ", n_bad, n_bad == 1 ? "" : "s");
        dse__fput_escaped(stderr, st->o->output);
        fprintf(stderr, " (checksum mismatch), computed again: %s\n", bad);
    }
    return st->results ? 0 : status;
}

/* --run-store: every rank opens the store (and this binary's identity) before the
 * results file is touched; the lowest rank that cannot says why, and the run is a bad
 * input (2).  --no-reuse simulates every run: no store. */
static int open_store(run_state *st)
{
    char err[4400] = "";
    uint8_t id[DSE_RUN_STORE_ID];
    int size, mine, first;
    if (st->o->run_store && !st->o->no_reuse && !dse_run_store_binary_id(id, err, sizeof err))
        st->store = dse_run_store_open(st->o->run_store, id, st->rank, stderr, err, sizeof err);
    if (st->store)
        dse_run_store_set_chip_cap(st->store, st->o->store_chips);
    MPI_Comm_size(st->comm, &size);
    mine = *err ? st->rank : size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, st->comm);
    if (first == st->rank) {
        fputs("rfdse run: --run-store ", stderr);
        dse__fput_escaped(stderr, err);
        fputc('\n', stderr);
    }
    return first < size ? 2 : 0;
}

/* Chips with at least one technique not done among rows row0..row1-1; counts the units
 * already done.  With axes a "chip" handed out is a row point x n_chips + chip of
 * /progress/done. */
static int *todo_chips(run_state *st, int row0, int row1, int *n_todo, long *n_done)
{
    int T = st->dims.n_techniques;
    int *todo = malloc(sizeof(int) * (size_t)(row1 > row0 ? row1 - row0 : 1));
    *n_todo = 0;
    *n_done = 0;
    for (int c = row0; todo && c < row1; c++) {
        int k = 0;
        for (int t = 0; t < T; t++)
            k += st->done[(size_t)c * (size_t)T + (size_t)t] != 0;
        *n_done += k;
        if (k < T)
            todo[(*n_todo)++] = c;
    }
    return todo;
}

/* Units of the evaluated sweep: the batch's own, or scratch ones to project from. */
static dse_unit *eval_units(run_state *st, dse_unit *units, int n)
{
    dse_chip_info *unused;
    if (!st->evaluated || !units)
        return units;
    dse_batch_clear(&st->scratch);
    return dse_batch_reserve(&st->scratch, n, &unused);
}

/* With axes: the evaluator of design point p, built from the point's plain sweep (so a
 * point's results are a plain run's), keeping the run cache of the point before. */
static int ensure_point(run_state *st, int p, char *err, size_t n)
{
    if (st->dims.n_points <= 0 || p == st->eval_point)
        return st->eval ? 0 : -1;
    dse_sweep *ps = dse_axes_values_sweep(st->s, st->values + (size_t)p * DSE_AXES_MAX_KNOBS);
    dse_eval *e = ps ? dse_eval_alloc_store(ps, !st->o->no_reuse, st->store, err, n) : NULL;
    if (!e) {
        if (!ps)
            snprintf(err, n, "out of memory for design point %d", p);
        dse_sweep_free(ps);
        return -1;
    }
    if (st->eval)
        dse_eval_take_cache(e, st->eval);
    dse_eval_free(st->eval);
    dse_sweep_free(st->point_sweep);
    st->eval = e;
    st->point_sweep = ps;
    st->eval_point = p;
    return 0;
}

static int compute_chip(run_state *st, int row)
{
    int point = row / st->dims.n_chips, chip = row % st->dims.n_chips;
    char err[1024];
    if (ensure_point(st, point, err, sizeof err)) {
        fail_rank(st, err);
        return 0;
    }
    const uint8_t *want_done = st->done + (size_t)row * (size_t)st->dims.n_techniques;
    uint8_t want[DSE_MAX_TECHNIQUES];
    int n_want = 0;
    for (int t = 0; t < st->dims.n_techniques; t++)
        n_want += (want[t] = !want_done[t]);
    dse_chip_info *info;
    dse_unit *units = dse_batch_reserve(&st->batch, n_want, &info);
    dse_unit *ev = eval_units(st, units, n_want);
    int k = ev ? dse_eval_chip(st->eval, chip, want, ev, info, poll, st, err, sizeof err) : -1;
    for (int i = 0; ev != units && i < k; i++)
        dse_unit_project(&ev[i], &st->scratch.dims, st->w_map, &units[i], &st->dims);
    if (!ev)
        snprintf(err, sizeof err, "out of memory for chip %d's results", chip);
    if (k == DSE_EVAL_ABANDONED)
        return 0; /* reserved, never committed: the chip stays to do */
    if (k < 0) {
        fail_rank(st, err);
        return 0;
    }
    for (int i = 0; i < k; i++)
        units[i].point = point;
    info->point = point;
    dse_batch_commit(&st->batch, k);
    return k;
}

/* Rank 0 keeps a note of the progress in the output's lock file, for `rfdse status`
 * (dse/cli/cmd_status.c reads it): the run's start and the units finished then and now,
 * on the wall clock (status may run on another host).  The format is docs/driver.md's. */
static void note_progress(run_state *st)
{
    if (st->rank != 0 || !st->lock)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    if (st->wall_start == 0)
        st->wall_start = now;
    char note[256];
    snprintf(note, sizeof note, DSE_RUN_NOTE_FORMAT, st->wall_start, st->progress.at_start, now,
             st->progress.done, st->progress.total);
    out_lock_note(st->lock, note);
}

/* Collective.  A failure is agreed by every rank inside dse_results_write; rank 0
 * says it once, at the end.  The scheduler has no message in flight at a write, so every rank can
 * leave the loop here together. */
static int write_batch(run_state *st)
{
    if (dse_results_write(st->results, st->batch.units, st->batch.n_units, st->batch.chips,
                          st->batch.n_chips, st->write_err, sizeof st->write_err)) {
        st->write_failed = true;
        return -1;
    }
    st->units_written += st->batch.n_units;
    dse_batch_clear(&st->batch);
    note_progress(st);
    return 0;
}

static void work_loop(run_state *st)
{
    int units = 0;
    for (;;) {
        if (stop_seen(st))
            dse_sched_stop(st->sched);
        int next = dse_sched_next(st->sched, units, stop_seen(st));
        units = 0;
        if (next >= 0 && st->failed) {
            units = 0; /* handed out before rank 0 heard of the failure: left to do */
        } else if (next >= 0) {
            units = compute_chip(st, next);
            st->units_computed += units;
        } else if (write_batch(st) || next == DSE_SCHED_DONE) {
            return;
        }
    }
}

/* Units of rows row0..row1-1 (all ranks): a scheduler over the chips left, the work
 * loop, its last write.  0, or -1 when out of memory. */
static int run_rows(run_state *st, int row0, int row1)
{
    int n_todo;
    long n_done;
    int *todo = todo_chips(st, row0, row1, &n_todo, &n_done);
    if (!todo)
        return -1;
    st->sched = dse_sched_alloc(st->comm, todo, n_todo, st->o->flush_interval,
                                st->rank == 0 ? &st->progress : NULL);
    free(todo);
    if (!st->sched)
        return -1;
    work_loop(st);
    dse_sched_free(st->sched);
    st->sched = NULL;
    return 0;
}

/* The knob values of every point: from the design, or for a search from the file. */
static int point_values(run_state *st)
{
    int P = st->dims.n_points;
    if (P <= 0)
        return 0;
    st->values = malloc(sizeof(double) * DSE_AXES_MAX_KNOBS * (size_t)P);
    if (!st->values)
        return -1;
    if (st->s->axes.design == DSE_DESIGN_NSGA2) {
        double *v = malloc(sizeof(double) * (size_t)st->s->axes.n_knobs * (size_t)P);
        int rc = !v || dse_results_read_knobs(st->results, st->s, v);
        for (int p = 0; !rc && p < P; p++)
            memcpy(st->values + (size_t)p * DSE_AXES_MAX_KNOBS, v + (size_t)p * (size_t)st->s->axes.n_knobs,
                   sizeof(double) * (size_t)st->s->axes.n_knobs);
        free(v);
        return rc ? -1 : 0;
    }
    for (int p = 0; p < P; p++)
        dse_axes_point_values(st->s, p, st->values + (size_t)p * DSE_AXES_MAX_KNOBS);
    return 0;
}

static bool anyone(run_state *st, bool mine)
{
    int a = mine, all = 0;
    MPI_Allreduce(&a, &all, 1, MPI_INT, MPI_MAX, st->comm);
    return all != 0;
}

/* A search, generation by generation: draw it (unless the file has it: a resumed
 * search), evaluate its points over the ranks, read its objectives back. */
static void run_search(run_state *st)
{
    const dse_axes *ax = &st->s->axes;
    int N = ax->population, K = ax->n_knobs, O = ax->n_objectives, C = st->dims.n_chips;
    double *f = malloc(sizeof(double) * (size_t)st->dims.n_points * (size_t)O);
    double *next = malloc(sizeof(double) * (size_t)N * (size_t)K);
    for (int g = 0; f && next && g < ax->generations; g++) {
        double *v = st->values + (size_t)g * (size_t)N * DSE_AXES_MAX_KNOBS;
        if (g > 0 && isnan(v[0])) {
            double *all = malloc(sizeof(double) * (size_t)g * (size_t)N * (size_t)K);
            for (int i = 0; all && i < g * N; i++)
                memcpy(all + (size_t)i * (size_t)K, st->values + (size_t)i * DSE_AXES_MAX_KNOBS,
                       sizeof(double) * (size_t)K);
            int rc = !all || dse__search_next(st->s, g - 1, all, f, next);
            free(all);
            for (int i = 0; !rc && i < N; i++)
                memcpy(v + (size_t)i * DSE_AXES_MAX_KNOBS, next + (size_t)i * (size_t)K,
                       sizeof(double) * (size_t)K);
            if (rc || dse_results_write_knobs(st->results, st->s, g * N, N, next)) {
                fail_rank(st, "cannot draw or record the next generation of the search");
                break;
            }
        }
        if (run_rows(st, g * N * C, (g + 1) * N * C) ||
            anyone(st, stop_seen(st) || st->write_failed))
            break; /* the generation is not complete: --resume continues it */
        if (dse__search_objectives(st->results, st->s, &st->dims, g * N, N,
                                   f + (size_t)g * (size_t)N * (size_t)O)) {
            fail_rank(st, "cannot read the search's objectives back");
            break;
        }
        double hv = dse__search_hypervolume(st->s, g, f);
        if (st->rank == 0 && !st->o->quiet && !isnan(hv))
            printf("rfdse: search generation %d of %d: hypervolume %.6g (%d points so far)\n",
                   g, ax->generations, hv, (g + 1) * N);
    }
    free(f);
    free(next);
}

/* Before any chip: any stop request ends the start-up walk (no chip is in flight, and
 * after a stop none is handed out). */
static int stop_poll(void *arg) { return stop_seen(arg); }

/* The runs every chip needs, simulated once for all ranks before the first chip
 * (share_runs.c): on row `first`'s chip and techniques (-1: nothing to do).  Every rank
 * is here at once (setup); a sweep of design points has an evaluator per point, and no
 * shared start. */
static void share_first_runs(run_state *st, int first)
{
    char err[512];
    if (first < 0 || st->dims.n_points > 0 || st->o->no_reuse)
        return;
    uint8_t want[DSE_MAX_TECHNIQUES];
    for (int t = 0; t < st->dims.n_techniques; t++)
        want[t] = !st->done[(size_t)first * (size_t)st->dims.n_techniques + (size_t)t];
    if (dse__share_first_runs(st->eval, first % st->dims.n_chips, want, st->comm,
                              stop_poll, st, err, sizeof err))
        fail_rank(st, err);
}

static int setup(run_state *st, double t0)
{
    int n_todo;
    long n_done;
    int *todo = todo_chips(st, 0, dse_dims_points(&st->dims) * st->dims.n_chips, &n_todo,
                           &n_done);
    char err[512];
    int first = todo && n_todo > 0 ? todo[0] : -1;
    free(todo);
    if (!todo || point_values(st))
        return -1;
    long total = dse_dims_units(&st->dims);
    st->units_left = total - n_done;
    if (st->rank == 0)
        dse_progress_init(&st->progress, stdout, total, n_done, st->o->quiet, t0);
    const dse_sweep *ev = st->evaluated ? st->evaluated : st->s;
    st->eval_point = -1;
    var_table_split split; /* every rank is here at once: the chip's tables together */
    dse__table_split_init(&split, &st->comm);
    if (st->dims.n_points <= 0 &&
        !(st->eval = dse_eval_alloc_split(ev, !st->o->no_reuse, st->store, &split, err,
                                          sizeof err)))
        fail_rank(st, err);
    share_first_runs(st, first);
    dse_batch_init(&st->batch, &st->dims);
    dse_dims ev_dims;
    dse_dims_of(ev, &ev_dims);
    dse_batch_init(&st->scratch, &ev_dims);
    return 0;
}

/* One line for the log: throughput, reuse, and the largest peak memory of any rank.
 * Rank 0's clock: `seconds` since the run started, `working` of them computing, the
 * same span and rate as the progress line's last (they once disagreed: 3 s against
 * 1.1 s, the progress line counting the set-up and the closing line not). */
static void report(run_state *st, long computed, double seconds, double working)
{
    long counts[5] = { 0, 0, 0, 0, 0 }, sums[5];
    char stored[128] = "";
    if (st->eval)
        dse_eval_counts(st->eval, &counts[0], &counts[1], &counts[2]);
    if (st->store) {
        const dse__chip_files *cf = dse__run_store_chip_files(st->store);
        counts[3] = cf->loaded, counts[4] = cf->saved;
    }
    MPI_Reduce(counts, sums, 5, MPI_LONG, MPI_SUM, 0, st->comm);
    if (st->store)
        snprintf(stored, sizeof stored, " (%ld from the run store); chips from the run store "
                 "%ld, kept %ld", sums[2], sums[3], sums[4]);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long rss = ru.ru_maxrss, max_rss = 0; /* KiB on Linux */
    MPI_Reduce(&rss, &max_rss, 1, MPI_LONG, MPI_MAX, 0, st->comm);
    int size;
    MPI_Comm_size(st->comm, &size);
    if (st->rank == 0)
        printf("rfdse: %ld units in %.1f s (%.1f s set-up, then %.2f units/s) on %d rank%s; "
               "SM runs simulated %ld, reused %ld%s; peak memory per rank %.1f MiB\n",
               computed, seconds, seconds - working,
               working > 0 ? (double)computed / working : 0.0, size, size == 1 ? "" : "s",
               sums[1], sums[0], stored,
               (double)max_rss / 1024.0);
}

static void teardown(run_state *st)
{
    dse_batch_free(&st->batch);
    dse_batch_free(&st->scratch);
    dse_sweep_free(st->stored);
    dse_sweep_free(st->evaluated);
    dse_eval_free(st->eval);
    dse_run_store_close(st->store); /* after the evaluator: it writes the last chip's */
    dse_sweep_free(st->point_sweep);
    free(st->values);
    dse_sched_free(st->sched);
    dse_results_close(st->results);
    out_lock_release(st->lock);
    free(st->done);
}

/* One line at the end, by one rank: the write failure, the model failure (first_failed:
 * the lowest rank that had one, or -1), or the stop. */
static void say_outcome(const run_state *st, long saved, long left, int first_failed)
{
    const char *out = st->o->output;
    long total = dse_dims_units(&st->dims);
    if (st->write_failed) {
        if (st->rank == 0)
            fprintf(stderr, "rfdse run: %s; the %ld units written before are kept: make room, "
                            "then `rfdse run ... --resume -o %s`\n", st->write_err,
                    total - left, out);
    } else if (st->rank == first_failed) {
        fprintf(stderr, "rfdse run: rank %d: ", st->rank);
        dse__fput_escaped(stderr, st->fail_msg);
        fprintf(stderr, "; %ld units saved, %ld left: fix the cause, then `rfdse run ... "
                        "--resume -o %s`\n", saved, left, out);
    } else if (st->rank == 0 && first_failed < 0 && left > 0) {
        fprintf(stderr, "rfdse run: stopped early: %ld units saved; rerun with --resume for "
                        "the %ld left (`rfdse run ... --resume -o %s`)\n", saved, left, out);
    }
}

/* The part of the sweep the file stores, and the part evaluated: the same, except that
 * an aging sweep evaluates every workload, because the frequency over the years is the
 * one under the whole workload mix's stress (dse/aging/aging.c): leaving workloads out would
 * change the selected ones' frequency and performance.  The others are dropped before
 * the write (dse_unit_project), so a part is bit-identical to the same part of a
 * whole run. */
static int select_part(run_state *st)
{
    const dse_sweep *s = st->whole;
    const dse_selection *sel = st->o->select;
    st->s = s;
    if (!sel)
        return 0;
    if (dse_axes_points(s) > 0)
        return -1; /* refused by rfdse run before: a selection of a sweep with axes */
    if (dse_selection_text(s, sel, st->selection, sizeof st->selection))
        return -1;
    st->s = st->stored = dse_sweep_select(s, sel, false);
    if (!st->stored)
        return -1;
    if (s->var.aging.n_years < 2 || dse_selection_all_workloads(s, sel))
        return 0;
    st->evaluated = dse_sweep_select(s, sel, true);
    for (int i = 0; i < st->stored->n_workloads; i++)
        st->w_map[i] = dse_sweep_workload_index(s, st->stored->workloads[i].name);
    return st->evaluated ? 0 : -1;
}

int dse_run(const dse_sweep *s, const dse_run_opts *o, MPI_Comm comm)
{
    run_state st = { .whole = s, .o = o, .comm = comm };
    MPI_Comm_rank(comm, &st.rank);
    if (select_part(&st))
        fatal(&st, "out of memory");
    double t0 = dse_now(); /* rank 0's is the one every printed time counts from */
    dse_dims_of(st.s, &st.dims);
    int status = open_store(&st);
    if (!status)
        status = open_results(&st);
    if (status) {
        teardown(&st);
        return status;
    }
    if (setup(&st, t0))
        fatal(&st, "out of memory");
    double t_work = dse_now();
    if (st.rank == 0)
        dse_progress_begin(&st.progress, t_work);
    note_progress(&st);
    if (st.s->axes.design == DSE_DESIGN_NSGA2)
        run_search(&st);
    else if (run_rows(&st, 0, dse_dims_points(&st.dims) * st.dims.n_chips))
        fatal(&st, "out of memory");
    long counts[2] = { st.units_computed, st.units_written }, sums[2];
    MPI_Allreduce(counts, sums, 2, MPI_LONG, MPI_SUM, comm);
    int size, mine, first_failed; /* the lowest failed rank speaks, once */
    MPI_Comm_size(comm, &size);
    mine = st.failed ? st.rank : size;
    MPI_Allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MIN, comm);
    if (first_failed == size)
        first_failed = -1;
    long left = st.units_left - sums[1];
    double t_end = dse_now();
    if (st.rank == 0)
        dse_progress_finish(&st.progress, t_end);
    report(&st, sums[0], t_end - t0, t_end - t_work);
    teardown(&st);
    say_outcome(&st, sums[1], left, first_failed);
    return st.write_failed || first_failed >= 0 ? 1 : left > 0 ? 3 : 0;
}
