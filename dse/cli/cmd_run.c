/* rfdse run: the Monte Carlo sweep under MPI. */
#include <getopt.h>
#include <hdf5.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "dse_cli.h"
#include "dse_eval.h"
#include "dse_quote.h"
#include "dse_run.h"
#include "dse_run_store.h"
#include "dse_sweep.h"
#include "out.h"

static const char help[] =
    "Usage: rfdse run [SWEEP.cfg] [-o OUT.h5] [--chips N] [--seed S] [--resume] [--force]\n"
    "                 [--force-revision] [--quiet] [--techniques A,B] [--workloads X,Y]\n"
    "                 [--dry-run] [--run-store DIR [--store-chips N]]\n"
    "\n"
    "Runs a sweep: every (chip, technique, workload) of the sweep file, distributed over\n"
    "the MPI ranks (`mpirun -n K rfdse run ...`; one process without mpirun works too),\n"
    "into one HDF5 results file.  Without SWEEP.cfg, runs the built-in default sweep.\n"
    "Results depend only on the sweep and the seed, never on the rank count.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE     results file (default: the sweep's output.file)\n"
    "      --chips N         override chips.count\n"
    "      --seed S          override chips.seed\n"
    "      --techniques A,B  run only these techniques of the sweep (comma-separated)\n"
    "      --workloads X,Y   store only these workloads; the file holds only the names\n"
    "                        chosen, with values bit-identical to a whole run's.  An\n"
    "                        aging sweep still simulates every workload: the frequency\n"
    "                        over the years is the one under the whole mix's stress\n"
    "                        (a sweep file with fewer workloads changes the mix).\n"
    "                        --resume needs the same two options as the run it continues\n"
    "      --dry-run         print chips x techniques x workloads, the units, the SM runs,\n"
    "                        a warning when ranks exceed chips, and an estimate of the\n"
    "                        run's time (rank 0 times the set-up and the first two chips;\n"
    "                        seconds for small sweeps); write nothing\n"
    "      --resume          continue an interrupted results file of the same sweep,\n"
    "                        computed by this build (the same git revision)\n"
    "      --force-revision  with --resume: continue a file computed by another git\n"
    "                        revision; the file's git_revisions lists every one\n"
    "      --force           replace an existing results file\n"
    "  -q, --quiet           no progress lines; the closing line (units, time, SM runs,\n"
    "                        memory) and the summary table still print\n"
    "      --flush-interval S  seconds between collective writes (default 10); work\n"
    "                        finished since the last write is redone after a crash\n"
    "      --no-reuse        simulate every SM run, even one whose inputs equal an earlier\n"
    "                        run's (the results are the same; for verification); no run\n"
    "                        store either\n"
    "      --run-store DIR   keep the SM runs simulated in DIR (made if missing) and reuse\n"
    "                        those earlier runs of this same rfdse binary kept there: later\n"
    "                        sweeps with the same chips, re-runs, resumed or grown sweeps,\n"
    "                        other jobs; many ranks and jobs may share one DIR (NFS too).\n"
    "                        Results are bit-identical with or without it.  Default: the\n"
    "                        environment variable RFDSE_RUN_STORE, else none\n"
    "      --store-chips N   keep in the run store, and take from it, the chips whose index\n"
    "                        is below N (4.7 MiB each at the default floorplan: 1.2 GiB\n"
    "                        per population of 256 chips); 0: none.  Default: the\n"
    "                        environment variable RFDSE_STORE_CHIPS, else 256\n"
    "  -h, --help            show this help\n"
    "\n"
    "Stopping: SIGINT (Ctrl-C) or SIGTERM, to mpirun or to the ranks, make every rank\n"
    "abandon its chip in flight at the next SM run (milliseconds: mpirun kills the ranks\n"
    "one second after it passes the signal on), write every finished unit and say\n"
    "\"N units saved; rerun with --resume\".  SIGUSR1 (what Slurm sends before the time\n"
    "limit) lets the chips in flight finish first.  The ranks exit with status 3; mpirun\n"
    "itself exits with 1 after SIGINT or SIGTERM, with 3 after SIGUSR1.  Should mpirun\n"
    "die (SIGKILL), its ranks stop as after SIGTERM, at once (Linux).\n"
    "Exit status: 0 done, 1 failed, 2 bad input, 3 stopped early (resumable).\n";

/* The one piece of global mutable state: a signal handler can reach nothing else. */
static volatile sig_atomic_t stop_requested;

/* Keeps the signal: SIGUSR1 and SIGINT/SIGTERM stop differently (dse/run/run.c). */
static void on_signal(int sig)
{
    stop_requested = sig;
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
}

/* A rank started by a launcher (mpirun, srun, hydra) is the child of the launcher or
 * of its node daemon.  When that dies (SIGKILL of mpirun) nothing tells the rank for a
 * second or more (Open MPI's ranks ended 1.0-1.3 s later, keeping the output's lock), so
 * the kernel sends it SIGTERM at once: the stop of a Ctrl-C (abandon the chip in flight,
 * write what is finished, release the lock).  Called before MPI_Init, when SIGTERM
 * still ends the process outright: nothing is held yet.  Not for a lone process, whose
 * parent (a shell that started it with nohup) may rightly go first. */
static void stop_with_launcher(void)
{
#ifdef __linux__
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK"))
        return;
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) == 0 && getppid() != parent)
        raise(SIGTERM); /* it died before the request took effect */
#endif
}

typedef struct run_args {
    const char *sweep, *output;
    long chips;
    long long seed;
    bool has_seed;
    const char *techniques, *workloads; /* --techniques, --workloads: NULL = all */
    bool dry_run;
    dse_run_opts opts;
} run_args;

/* A usage error, printed only where `err` is a stream (rank 0). */
static int usage(FILE *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        fputs("rfdse run: ", err);
        va_start(ap, fmt);
        dse__vfput_escaped(err, fmt, ap); /* it quotes the command line */
        va_end(ap);
        fputs(" (see rfdse run --help)\n", err);
    }
    return DSE_EXIT_USAGE;
}

static int parse_number(FILE *err, const char *opt, const char *s, long long lo, long long hi, long long *v)
{
    if (dse_cli_parse_ll(s, lo, hi, v))
        return usage(err, "%s expects an integer in [%lld, %lld], got '%s'", opt, lo, hi, s);
    return 0;
}

#define STORE_CHIPS_MAX 4294967296LL /* chip indices are below 2^32 */

static int parse(int argc, char **argv, run_args *a, FILE *err)
{
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' }, { "chips", required_argument, NULL, 'c' },
        { "seed", required_argument, NULL, 's' },   { "resume", no_argument, NULL, 'r' },
        { "force", no_argument, NULL, 'f' },        { "quiet", no_argument, NULL, 'q' },
        { "flush-interval", required_argument, NULL, 'i' }, { "no-reuse", no_argument, NULL, 'n' },
        { "force-revision", no_argument, NULL, 'R' }, { "dry-run", no_argument, NULL, 'd' },
        { "techniques", required_argument, NULL, 'T' }, { "workloads", required_argument, NULL, 'W' },
        { "run-store", required_argument, NULL, 'S' },
        { "store-chips", required_argument, NULL, 'K' }, { NULL, 0, NULL, 0 },
    };
    long long v;
    int c;
    bool store_chips = false; /* --store-chips given: the environment does not count */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:q", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': a->output = optarg; break;
        case 'c': if (parse_number(err, "--chips", optarg, 1, DSE_CLI_MAX_CHIPS, &v)) return -1;
                  a->chips = (long)v; break;
        case 's': if (parse_number(err, "--seed", optarg, 0, DSE_CLI_MAX_SEED, &v)) return -1;
                  a->seed = v, a->has_seed = true; break;
        case 'r': a->opts.resume = true; break;
        case 'f': a->opts.force = true; break;
        case 'q': a->opts.quiet = true; break;
        case 'n': a->opts.no_reuse = true; break;
        case 'R': a->opts.force_revision = true; break;
        case 'd': a->dry_run = true; break;
        case 'T': a->techniques = optarg; break;
        case 'W': a->workloads = optarg; break;
        case 'S': a->opts.run_store = optarg; break;
        case 'K': if (parse_number(err, "--store-chips", optarg, 0, STORE_CHIPS_MAX, &v)) return -1;
                  a->opts.store_chips = (long)v, store_chips = true; break;
        case 'i': if (parse_number(err, "--flush-interval", optarg, 0, 86400, &v)) return -1;
                  a->opts.flush_interval = (double)v; break;
        case ':': return usage(err, "option '%s' needs a value", argv[optind - 1]);
        default: return usage(err, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        a->sweep = argv[optind++];
    if (optind < argc)
        return usage(err, "expected one sweep file, got also '%s'", argv[optind]);
    if (a->opts.resume && a->opts.force)
        return usage(err, "--resume and --force exclude each other");
    if (a->opts.force_revision && !a->opts.resume)
        return usage(err, "--force-revision goes with --resume");
    const char *env = getenv("RFDSE_RUN_STORE");
    if (!a->opts.run_store && env && *env)
        a->opts.run_store = env;
    if (a->opts.run_store && !*a->opts.run_store)
        return usage(err, "--run-store expects a directory, got ''");
    env = getenv("RFDSE_STORE_CHIPS");
    if (!store_chips && env && *env) {
        if (parse_number(err, "RFDSE_STORE_CHIPS", env, 0, STORE_CHIPS_MAX, &v))
            return -1;
        a->opts.store_chips = (long)v;
    }
    return 0;
}

/* Command-line overrides, applied before the sweep is frozen for the run. */
static int apply_overrides(dse_sweep *s, const run_args *a, FILE *err)
{
    int lost = dse_sweep_override_chips(s, a->chips, a->has_seed, (uint64_t)a->seed);
    if (lost)
        return usage(err, "--chips %ld leaves out traced chip %d (output.trace_chips)",
                     a->chips, -1 - lost);
    if (a->output && strlen(a->output) > OUT_PATH_MAX)
        return usage(err, "-o: output path too long (%zu bytes, at most %d)", strlen(a->output),
                     OUT_PATH_MAX);
    if (a->output)
        snprintf(s->output.file, sizeof s->output.file, "%s", a->output);
    return 0;
}

/* --techniques and --workloads: the names must be the sweep's. */
static int apply_selection(const dse_sweep *s, run_args *a, dse_selection *sel, FILE *err)
{
    char msg[4096];
    if (!a->techniques && !a->workloads)
        return 0;
    if (dse_axes_points(s) > 0)
        return usage(err, "--techniques and --workloads are not for a sweep with axes: "
                     "list the techniques and workloads in its file");
    if (dse_selection_parse(s, a->techniques, a->workloads, sel, msg, sizeof msg))
        return usage(err, "%s", msg);
    a->opts.select = sel;
    return 0;
}

static void format_seconds(double s, char *buf, size_t n)
{
    if (s < 120)
        snprintf(buf, n, "%.1f s", s);
    else if (s < 7200)
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

/* The time estimate of --dry-run: a calibration on the evaluated sweep e. */
static void dry_run_estimate(const dse_sweep *e, int ranks, volatile sig_atomic_t *stop)
{
    dse_estimate est;
    char err[1024], total[32];
    if (dse_run_estimate(e, ranks, stop, &est, err, sizeof err)) {
        fputs("time: no estimate (the calibration failed: ", stdout);
        dse__fput_escaped(stdout, err);
        fputs(")\n", stdout);
        return;
    }
    format_seconds(est.total, total, sizeof total);
    printf("time: about %s on %d rank%s, an estimate (calibrated on this process: set-up "
           "%.2f s, chip 0 %.2f s with an empty SM-run cache", total, ranks,
           ranks == 1 ? "" : "s", est.setup, est.first);
    if (est.chips_timed > 1)
        printf(", chip 1 %.2f s reusing its runs", est.next);
    printf("; %d chip%s on the busiest rank; ranks sharing cores, other load and chips "
           "unlike these change it)\n", est.chips_per_rank, est.chips_per_rank == 1 ? "" : "s");
}

/* --dry-run: what the run would do, from the sweep alone (rank 0 prints), and a time
 * estimate from a short calibration. */
static void dry_run(const dse_sweep *whole, const dse_selection *sel, int ranks,
                    volatile sig_atomic_t *stop)
{
    dse_sweep *part = sel ? dse_sweep_select(whole, sel, false) : NULL;
    dse_sweep *ev = sel && whole->var.aging.n_years > 1 ? dse_sweep_select(whole, sel, true)
                                                        : NULL;
    const dse_sweep *s = part ? part : whole, *e = ev ? ev : s;
    if ((sel && !part) || (sel && whole->var.aging.n_years > 1 && !ev)) {
        fprintf(stderr, "rfdse run: out of memory\n");
    } else {
        long units = (long)s->chips.count * s->n_techniques;
        printf("sweep %s: %d chips x %d techniques x %d workloads\n", s->name, s->chips.count,
               s->n_techniques, s->n_workloads);
        printf("units (chip, technique): %ld\n", units);
        printf("SM runs: %ld on %d rank%s (%d SMs per chip%s; identical runs are reused, "
               "the run reports how many)\n", dse_eval_planned_runs(e, ranks), ranks,
               ranks == 1 ? "" : "s", s->var.floorplan.n_sms,
               e != s ? "; every workload of the aging mix simulated" : "");
        printf("output: %s (nothing written by --dry-run)\n", s->output.file);
        if (ranks > s->chips.count)
            printf("warning: %d ranks for %d chips: %d ranks would have nothing to do\n", ranks,
                   s->chips.count, ranks - s->chips.count);
        fflush(stdout); /* the counts first: the calibration takes a moment */
        dry_run_estimate(e, ranks, stop);
    }
    dse_sweep_free(part);
    dse_sweep_free(ev);
}

/* The other ranks wait for rank 0's calibration asleep: Open MPI's blocking barrier
 * (and MPI_Finalize's) polls, which would take a core from the ranks' shared node and
 * slow the very chips being timed. */
static void idle_barrier(MPI_Comm comm)
{
    MPI_Request req;
    int done = 0;
    MPI_Ibarrier(comm, &req);
    while (MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
}

/* Open MPI's MPI-IO components, unless the user has chosen them.  ROMIO rather than
 * OMPIO: OMPIO opens a shared file pointer with every file, and its components either
 * keep it in files beside the output (PATH.data.N, PATH.metadata.N: "individual"; a
 * lock file: "lockedfile"), left behind by a killed run, or overflow a fixed buffer on
 * output paths of about 240 bytes (a crash inside H5Fopen: "sm").  ROMIO creates a
 * shared file pointer only when one is used, and HDF5 never uses one.  Should OMPIO be
 * chosen anyway, "individual" is the component that works on every path, and the next
 * run removes its files (out_leftovers_remove).  Read by MPI_Init; harmless under
 * other MPI libraries. */
static void choose_mpi_io_components(void)
{
    setenv("OMPI_MCA_io", "^ompio", 0);
    setenv("OMPI_MCA_sharedfp", "individual", 0);
}

/* Open MPI's point-to-point layer when every rank is on this node.  With UCX installed
 * Open MPI picks pml "ucx", whose start probes every transport: 0.2-0.25 s of each
 * launch on a two-core host (docs/performance.md, "Process start"), more than a small
 * sweep's work, for the few messages a sweep sends.  On one node ob1 over shared memory
 * is Open MPI's own path: chosen when mpirun put every rank here (its
 * OMPI_COMM_WORLD_LOCAL_SIZE equals OMPI_COMM_WORLD_SIZE) or for a process started
 * without any launcher (a singleton).  A job across nodes, one started by srun (PMIx),
 * and a user's own OMPI_MCA_pml keep Open MPI's choice.  Harmless under other MPIs. */
static void choose_mpi_transport(void)
{
    const char *world = getenv("OMPI_COMM_WORLD_SIZE");
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    int one_node = world ? local && strcmp(world, local) == 0
                         : !getenv("PMIX_RANK") && !getenv("SLURM_PROCID");
    if (one_node)
        setenv("OMPI_MCA_pml", "ob1", 0);
}

/* Under srun without Slurm-aware MPI every task starts as a singleton "rank 0 of 1" and
 * all of them would write the same file.  Tasks other than Slurm's task 0 can tell and
 * step back (task 0 then runs the sweep alone, correctly, on one process). */
static int lone_slurm_task(int size, FILE *err)
{
    const char *procid = getenv("SLURM_PROCID");
    if (size != 1 || !procid || atoi(procid) == 0)
        return 0;
    fprintf(err, "rfdse run: Slurm task %s started as a lone MPI process: this srun does not "
                 "start MPI jobs (use --launcher mpirun, or srun --mpi=pmix)\n", procid);
    return 1;
}

int dse_cmd_run(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    run_args a = { .opts = { .flush_interval = 10.0, .stop = &stop_requested,
                             .store_chips = DSE_RUN_STORE_CHIPS } };
    int rank, size, rc;
    stop_with_launcher();
    choose_mpi_io_components();
    choose_mpi_transport();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (lone_slurm_task(size, stderr)) {
        MPI_Finalize();
        return DSE_EXIT_USAGE;
    }
    install_handlers();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* our own one-line errors instead of HDF5's stack */
    /* every rank parses; only rank 0 speaks */
    FILE *err = rank == 0 ? stderr : NULL;
    dse_sweep *s = parse(argc, argv, &a, err) ? NULL
                   : a.sweep ? dse_sweep_load_file(a.sweep, err) : dse_sweep_load_default(err);
    dse_selection sel;
    rc = !s || apply_overrides(s, &a, err) || apply_selection(s, &a, &sel, err)
             ? DSE_EXIT_USAGE : DSE_EXIT_OK;
    if (rc == DSE_EXIT_OK && a.dry_run) {
        if (rank == 0 && dse_axes_points(s) > 0)
            dse_cli_dry_run_axes(s, size);
        else if (rank == 0)
            dry_run(s, a.opts.select, size, &stop_requested);
        idle_barrier(MPI_COMM_WORLD);
    } else if (rc == DSE_EXIT_OK) {
        a.opts.output = s->output.file;
        rc = dse_run(s, &a.opts, MPI_COMM_WORLD);
        if (rc == 0 && rank == 0) /* --quiet hides the progress lines only */
            dse_run_summary(s->output.file, stdout);
    }
    dse_sweep_free(s);
    MPI_Finalize();
    return rc;
}
