/* rfdse submit: a Slurm batch script for a sweep, written next to the job logs and
 * handed to sbatch.  Everything is checked here, before anything reaches the queue: the
 * sweep file (the loader's one-line error), every option, every path. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dse_cli.h"
#include "out.h"
#include "submit_job.h"

#define SCRIPT_PATH_MAX (DSE_PATH_MAX + DSE_NAME_MAX + 16)
#define DEFAULT_LEAD 300 /* s: one chip in flight plus the final write, with margin */
#define MAX_COUNT 100000L

static const char help[] =
    "Usage: rfdse submit SWEEP.cfg [--nodes N] [--ntasks-per-node M] [--time T]\n"
    "                    [--partition P] [--account A] [--job-name J] [--output-dir D]\n"
    "                    [-o OUT.h5] [--chips N] [--seed S] [--techniques A,B]\n"
    "                    [--workloads X,Y] [--sbatch-line LINE ...]\n"
    "                    [--launcher srun|mpirun|auto]\n"
    "                    [--signal-before S] [--dry-run]\n"
    "       rfdse submit --print-template\n"
    "\n"
    "Checks the sweep file, writes a Slurm batch script for it into the output directory\n"
    "(kept as the record of the job) and submits it with `sbatch --parsable`, printing the\n"
    "job id.  The job runs `rfdse run SWEEP -o OUT` on all its tasks, with --resume when\n"
    "OUT exists, so a requeued or resubmitted job continues where the last one stopped.\n"
    "It runs copies kept next to the script, NAME.rfdse (this executable) and\n"
    "NAME.resolved.cfg (the sweep as `rfdse validate` prints it), so a rebuild or an\n"
    "edited sweep file does not change a queued or requeued job.\n"
    "Slurm signals the job S seconds before the time limit; the ranks finish the chip in\n"
    "flight, write it, stop, and the job requeues itself.  See slurm/README.md.\n"
    "\n"
    "Options:\n"
    "  -N, --nodes N            nodes (default 1)\n"
    "      --ntasks-per-node M  MPI ranks per node (default 1)\n"
    "  -t, --time T             time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS\n"
    "                           or UNLIMITED (default: the partition's)\n"
    "  -p, --partition P        partition (default: the site's)\n"
    "  -A, --account A          account to charge (default: yours)\n"
    "  -J, --job-name J         job name (default rfdse-SWEEPNAME)\n"
    "      --output-dir D       directory for the script and the logs (default: the\n"
    "                           results file's directory)\n"
    "  -o, --output FILE        results file (default: the sweep's output.file)\n"
    "      --chips N            override chips.count in the job's `rfdse run`\n"
    "      --seed S             override chips.seed in the job's `rfdse run`\n"
    "      --techniques A,B     the job runs only these techniques of the sweep\n"
    "      --workloads X,Y      ... and these workloads (`rfdse run --help`)\n"
    "      --sbatch-line LINE   an extra #SBATCH line, verbatim (\"--mem=8G\"); repeatable\n"
    "      --launcher L         srun, mpirun, or auto (default): srun when Slurm and\n"
    "                           Open MPI share PMIx, else mpirun; decided in the job\n"
    "      --signal-before S    seconds before the time limit for SIGUSR1 (default 300,\n"
    "                           at most half the time limit)\n"
    "      --dry-run            print the script, write and submit nothing\n"
    "      --print-template     print the script template (slurm/rfdse.sbatch.in)\n"
    "  -h, --help               show this help\n"
    "\n"
    "A failed submission (sbatch missing or refusing) leaves no file behind.\n"
    "Exit status: 0 submitted, 1 sbatch failed or is missing, 2 bad input.\n";

typedef struct submit_args {
    const char *sweep, *output, *dir, *job_name, *time, *partition, *account, *launcher;
    long nodes, ntasks, lead; /* lead < 0: not given */
    long chips;               /* 0: not given */
    long long seed;
    const char *techniques, *workloads; /* NULL: not given */
    bool has_seed, dry_run, print_template;
    int n_lines;
    const char *lines[DSE_SUBMIT_MAX_LINES];
} submit_args;

#define USAGE(...) dse_cli_usage_error("submit", __VA_ARGS__)

static int parse_count(const char *opt, const char *s, long lo, long hi, long *v)
{
    long long x;
    if (dse_cli_parse_ll(s, lo, hi, &x))
        return USAGE("%s expects an integer in [%ld, %ld], got '%s'", opt, lo, hi, s);
    *v = (long)x;
    return 0;
}

/* The range `rfdse run --seed` accepts, so the job cannot fail on it later. */
static int parse_seed(const char *s, long long *v)
{
    if (dse_cli_parse_ll(s, 0, DSE_CLI_MAX_SEED, v))
        return USAGE("--seed expects an integer in [0, %lld], got '%s'", DSE_CLI_MAX_SEED, s);
    return 0;
}

/* A value that goes into the script: not empty, no control characters (a line break
 * would end the #SBATCH block and start a command of its own). */
static int check_text(const char *opt, const char *s)
{
    size_t bad;
    if (!*s)
        return USAGE("%s needs a non-empty value", opt);
    if (out_text_check(s, &bad))
        return USAGE("%s must not contain a control character such as a line break "
                     "(byte %zu)", opt, bad + 1);
    return 0;
}

static int add_line(submit_args *a, const char *line)
{
    if (check_text("--sbatch-line", line))
        return DSE_EXIT_USAGE;
    if (line[0] != '-')
        return USAGE("--sbatch-line expects an sbatch option such as \"--mem=8G\", got '%s'",
                     line);
    if (a->n_lines == DSE_SUBMIT_MAX_LINES)
        return USAGE("at most %d --sbatch-line options", DSE_SUBMIT_MAX_LINES);
    a->lines[a->n_lines++] = line;
    return 0;
}

static int option(submit_args *a, int c, const char *arg, const char *given)
{
    switch (c) {
    case 'N': return parse_count("--nodes", arg, 1, MAX_COUNT, &a->nodes);
    case 'n': return parse_count("--ntasks-per-node", arg, 1, MAX_COUNT, &a->ntasks);
    case 'S': return parse_count("--signal-before", arg, 1, 65535, &a->lead);
    case 'c': return parse_count("--chips", arg, 1, DSE_CLI_MAX_CHIPS, &a->chips);
    case 's': a->has_seed = true; return parse_seed(arg, &a->seed);
    case 't': a->time = arg; return check_text("--time", arg);
    case 'p': a->partition = arg; return check_text("--partition", arg);
    case 'A': a->account = arg; return check_text("--account", arg);
    case 'J': a->job_name = arg; return check_text("--job-name", arg);
    case 'D': a->dir = arg; return check_text("--output-dir", arg);
    case 'o': a->output = arg; return check_text("--output", arg);
    case 'L': a->launcher = arg; return check_text("--launcher", arg);
    case 'E': a->techniques = arg; return check_text("--techniques", arg);
    case 'W': a->workloads = arg; return check_text("--workloads", arg);
    case 'l': return add_line(a, arg);
    case 'd': a->dry_run = true; return 0;
    case 'T': a->print_template = true; return 0;
    case ':': return USAGE("option '%s' needs a value", given);
    default: return USAGE("unknown option '%s'", given);
    }
}

static int parse(int argc, char **argv, submit_args *a)
{
    static const struct option longopts[] = {
        { "nodes", required_argument, NULL, 'N' },
        { "ntasks-per-node", required_argument, NULL, 'n' },
        { "time", required_argument, NULL, 't' },
        { "partition", required_argument, NULL, 'p' },
        { "account", required_argument, NULL, 'A' },
        { "job-name", required_argument, NULL, 'J' },
        { "output-dir", required_argument, NULL, 'D' },
        { "output", required_argument, NULL, 'o' },
        { "sbatch-line", required_argument, NULL, 'l' },
        { "launcher", required_argument, NULL, 'L' },
        { "signal-before", required_argument, NULL, 'S' },
        { "chips", required_argument, NULL, 'c' },
        { "seed", required_argument, NULL, 's' },
        { "techniques", required_argument, NULL, 'E' },
        { "workloads", required_argument, NULL, 'W' },
        { "dry-run", no_argument, NULL, 'd' },
        { "print-template", no_argument, NULL, 'T' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":N:t:p:A:J:o:", longopts, NULL)) != -1)
        if (option(a, c, optarg, argv[optind - 1]))
            return DSE_EXIT_USAGE;
    if (optind < argc)
        a->sweep = argv[optind++];
    if (optind < argc)
        return USAGE("expected one sweep file, got also '%s'", argv[optind]);
    if (!a->sweep && !a->print_template)
        return USAGE("missing the sweep file");
    const char *l = a->launcher;
    if (strcmp(l, "srun") && strcmp(l, "mpirun") && strcmp(l, "auto"))
        return USAGE("--launcher expects srun, mpirun or auto, got '%s'", a->launcher);
    return 0;
}

/* SIGUSR1 lead: as given (shorter than the limit), else the default capped at half the
 * limit, so a short test job still gets its warning while it runs. */
static int signal_lead(const submit_args *a, long *lead)
{
    long limit = -1;
    if (a->time && dse__submit_time_parse(a->time, &limit))
        return USAGE("--time '%s' is not a Slurm time limit: use MM, MM:SS, HH:MM:SS, D-HH, "
                     "D-HH:MM, D-HH:MM:SS (not zero) or UNLIMITED", a->time);
    if (a->lead > 0 && limit > 0 && a->lead >= limit)
        return USAGE("--signal-before %ld is not shorter than --time %s", a->lead, a->time);
    *lead = a->lead > 0 ? a->lead : DEFAULT_LEAD;
    if (a->lead <= 0 && limit > 0 && *lead > limit / 2)
        *lead = limit / 2 > 0 ? limit / 2 : 1;
    return 0;
}

/* `path` made absolute against the working directory ("./" prefixes dropped). */
static int absolute(const char *opt, const char *path, char *buf, size_t n)
{
    char cwd[PATH_MAX];
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    int len = path[0] == '/' ? snprintf(buf, n, "%s", path)
              : getcwd(cwd, sizeof cwd) ? snprintf(buf, n, "%s/%s", cwd, path) : -1;
    if (len < 0 || (size_t)len >= n)
        return USAGE("%s: path too long or working directory unknown: %s", opt, path);
    while (len > 1 && buf[len - 1] == '/')
        buf[--len] = '\0';
    if ((size_t)len > OUT_PATH_MAX)
        return USAGE("%s: path too long (%d bytes, at most %d)", opt, len, OUT_PATH_MAX);
    return 0;
}

static void file_stem(const char *name, char *buf, size_t n)
{
    size_t k = 0;
    for (; name[k] && k + 1 < n; k++) {
        char ch = name[k];
        bool safe = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
        buf[k] = safe ? ch : '_';
    }
    buf[k] = '\0';
    if (!k || buf[0] == '.')
        snprintf(buf, n, "rfdse");
}

/* Every value that reaches the script, from the command line or the sweep file, checked
 * in this one place before anything is written; the template's fields quote them
 * (submit_script.c). */
static int check_job(const dse_submit_job *job)
{
    const struct { const char *what, *value; } v[] = {
        { "the rfdse executable's path", job->rfdse }, { "the sweep file's path", job->sweep },
        { "the results file (-o or output.file)", job->output }, { "--output-dir", job->dir },
        { "the job name (--job-name or the sweep's name)", job->job_name },
        { "--time", job->time }, { "--partition", job->partition }, { "--account", job->account },
        { "--techniques/--workloads", job->select[0] ? job->select : NULL },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (v[i].value && check_text(v[i].what, v[i].value))
            return DSE_EXIT_USAGE;
    for (int i = 0; i < job->n_lines; i++)
        if (check_text("--sbatch-line", job->lines[i]))
            return DSE_EXIT_USAGE;
    char err[DSE_PATH_MAX + 128];
    if (out_target_check(job->output, err, sizeof err))
        return USAGE("the results file: %s", err);
    return 0;
}

/* Every path and name the script needs, from the options and the loaded sweep. */
static int resolve(dse_submit_job *job, const submit_args *a, const dse_sweep *s)
{
    char tmp[DSE_PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", job->rfdse_built, sizeof job->rfdse_built - 1);
    if (k <= 0 || (size_t)k >= sizeof job->rfdse_built - 1) {
        fprintf(stderr, "rfdse submit: cannot find the rfdse executable (/proc/self/exe)\n");
        return DSE_EXIT_FAILURE;
    }
    job->rfdse_built[k] = '\0';
    if (absolute("the sweep file", a->sweep, job->sweep, sizeof job->sweep))
        return DSE_EXIT_USAGE;
    const char *output = a->output ? a->output : s->output.file;
    if (absolute("--output", output, job->output, sizeof job->output))
        return DSE_EXIT_USAGE;
    out_dir_of(job->output, tmp, sizeof tmp);
    if (absolute("--output-dir", a->dir ? a->dir : tmp, job->dir, sizeof job->dir))
        return DSE_EXIT_USAGE;
    if (strchr(job->dir, '\\')) /* Slurm reads a backslash in a log path as "no patterns" */
        return USAGE("--output-dir must not contain a backslash: %s", job->dir);
    file_stem(s->name, job->stem, sizeof job->stem);
    /* The job runs copies kept next to its script: a rebuild or an edited sweep file
     * cannot change what a queued or requeued job computes. */
    if (snprintf(job->rfdse, sizeof job->rfdse, "%s/%s.rfdse", job->dir, job->stem) >=
            (int)sizeof job->rfdse ||
        snprintf(job->sweep, sizeof job->sweep, "%s/%s.resolved.cfg", job->dir, job->stem) >=
            (int)sizeof job->sweep)
        return USAGE("--output-dir: path too long: %s", job->dir);
    snprintf(job->job_name, sizeof job->job_name, "%s%s", a->job_name ? "" : "rfdse-",
             a->job_name ? a->job_name : s->name);
    job->time = a->time, job->partition = a->partition, job->account = a->account;
    job->launcher = a->launcher;
    job->nodes = a->nodes, job->ntasks_per_node = a->ntasks;
    job->chips = a->chips, job->seed = a->seed, job->has_seed = a->has_seed;
    if (a->techniques || a->workloads) { /* the run's own check, now: names of the sweep */
        dse_selection sel;
        char msg[1024];
        if (dse_selection_parse(s, a->techniques, a->workloads, &sel, msg, sizeof msg))
            return USAGE("%s", msg);
        if (dse_selection_text(s, &sel, job->select, sizeof job->select))
            return USAGE("--techniques/--workloads: too many names");
    }
    job->n_lines = a->n_lines;
    memcpy(job->lines, a->lines, sizeof job->lines);
    return check_job(job) ? DSE_EXIT_USAGE : signal_lead(a, &job->signal_lead);
}

/* What one submission created, so a failed one removes it all: files that did not
 * exist before, and directories it made (removed only when empty, deepest first).  A
 * file that existed (the copies of an earlier submission of the same sweep) is
 * replaced, as a successful submission replaces it, and kept. */
typedef struct made {
    int n_files;
    char files[3][SCRIPT_PATH_MAX];
    char dir[DSE_PATH_MAX]; /* the job's directory                                    */
    char top[DSE_PATH_MAX]; /* the outermost directory made, "" if none: every one     *
                             * between it and `dir` was made too                       */
} made;

static void made_file(made *m, const char *path)
{
    if (m->n_files < 3 && access(path, F_OK))
        snprintf(m->files[m->n_files++], sizeof m->files[0], "%s", path);
}

static void made_undo(const made *m)
{
    char buf[DSE_PATH_MAX];
    for (int i = 0; i < m->n_files; i++)
        unlink(m->files[i]);
    snprintf(buf, sizeof buf, "%s", m->dir);
    for (char *slash; m->top[0]; *slash = '\0') {
        rmdir(buf); /* only when empty: a log or a file of someone else's stays */
        slash = strrchr(buf, '/');
        if (!strcmp(buf, m->top) || !slash || slash == buf)
            break;
    }
}

static int mkdir_p(const char *dir, made *m)
{
    char buf[DSE_PATH_MAX];
    snprintf(buf, sizeof buf, "%s", dir);
    snprintf(m->dir, sizeof m->dir, "%s", dir);
    for (char *p = buf + 1;; p++) {
        if (*p && *p != '/')
            continue;
        char end = *p;
        *p = '\0';
        if (mkdir(buf, 0777) == 0) {
            if (!m->top[0])
                snprintf(m->top, sizeof m->top, "%s", buf);
        } else if (errno != EEXIST)
            return -1;
        *p = end;
        if (!end)
            return 0;
    }
}

/* Copies src's bytes, or writes the resolved sweep when s is given, to path: through a
 * temporary name and only over a regular file, as the script. */
static int put_file(const char *path, const char *src, const dse_sweep *s, int mode)
{
    char tmp[DSE_PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.partial", path);
    const char *kind = out_target_kind(path);
    if (kind) {
        fprintf(stderr, "rfdse submit: %s is %s: rfdse replaces only regular files\n", path, kind);
        return -1;
    }
    unlink(tmp);
    FILE *in = src ? fopen(src, "rb") : NULL;
    FILE *out = (src && !in) ? NULL : fopen(tmp, "wb");
    int bad = !out;
    char buf[65536];
    for (size_t n; out && in && (n = fread(buf, 1, sizeof buf, in)) > 0;)
        bad |= fwrite(buf, 1, n, out) != n;
    if (in) {
        bad |= ferror(in);
        fclose(in);
    }
    if (out && s)
        bad |= dse_sweep_write(s, out) != 0;
    if (out && fclose(out))
        bad = 1;
    if (bad || chmod(tmp, (mode_t)mode) || rename(tmp, path)) {
        fprintf(stderr, "rfdse submit: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* The script under its final name only when complete: sbatch never reads half of one. */
static int write_script(const dse_submit_job *job, char *path, size_t n)
{
    char tmp[SCRIPT_PATH_MAX + 16];
    snprintf(path, n, "%s/%s.sbatch", job->dir, job->stem);
    snprintf(tmp, sizeof tmp, "%s.partial", path);
    const char *kind = out_target_kind(path);
    if (kind) {
        fprintf(stderr, "rfdse submit: %s is %s: rfdse replaces only regular files\n", path, kind);
        return -1;
    }
    unlink(tmp); /* never write through a link planted at the temporary name */
    FILE *f = fopen(tmp, "w");
    int bad = !f || dse__submit_script_write(job, f);
    if (f && fclose(f))
        bad = 1;
    if (bad || chmod(tmp, 0755) || rename(tmp, path)) {
        fprintf(stderr, "rfdse submit: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Nothing is written before sbatch is known to exist, and a submission that fails
 * takes back everything it wrote (issue 33 item 9). */
static int submit(const dse_submit_job *job, const dse_sweep *s)
{
    char script[SCRIPT_PATH_MAX], id[64], err[2 * DSE_PATH_MAX], log[2 * DSE_PATH_MAX + 64];
    made m = { 0 };
    if (!dse__submit_sbatch_found()) {
        fprintf(stderr, "rfdse submit: %s\n", DSE_SUBMIT_NO_SBATCH);
        return DSE_EXIT_FAILURE;
    }
    snprintf(script, sizeof script, "%s/%s.sbatch", job->dir, job->stem);
    if (mkdir_p(job->dir, &m)) {
        fprintf(stderr, "rfdse submit: cannot create %s: %s\n", job->dir, strerror(errno));
        made_undo(&m);
        return DSE_EXIT_FAILURE;
    }
    made_file(&m, job->rfdse);
    made_file(&m, job->sweep);
    made_file(&m, script);
    if (put_file(job->rfdse, job->rfdse_built, NULL, 0755) ||
        put_file(job->sweep, NULL, s, 0644) || write_script(job, script, sizeof script)) {
        made_undo(&m);
        return DSE_EXIT_FAILURE;
    }
    int rc = dse__submit_sbatch(script, id, sizeof id, err, sizeof err);
    if (rc) {
        if (rc == -1)
            made_undo(&m);
        fprintf(stderr, "rfdse submit: %s\n", err);
        return DSE_EXIT_FAILURE;
    }
    printf("%s\n", id);
    dse__submit_log_path(job, "out", log, sizeof log);
    fprintf(stderr, "rfdse submit: job %s (%s): script %s, log %s (%%j = job id), results %s%s\n",
            id, job->job_name, script, log, job->output,
            access(job->output, F_OK) ? "" : " (exists: the job resumes it)");
    return DSE_EXIT_OK;
}

int dse_cmd_submit(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    submit_args a = { .nodes = 1, .ntasks = 1, .lead = -1, .launcher = "auto" };
    int rc = parse(argc, argv, &a);
    if (rc || a.print_template) {
        if (!rc)
            fputs(dse__submit_template(), stdout);
        return rc;
    }
    dse_sweep *s = dse_sweep_load_file(a.sweep, stderr); /* a bad sweep stops here */
    dse_submit_job *job = s ? calloc(1, sizeof *job) : NULL;
    int lost = s ? dse_sweep_override_chips(s, a.chips, a.has_seed, (uint64_t)a.seed) : 0;
    rc = !s ? DSE_EXIT_USAGE
         : lost ? USAGE("--chips %ld leaves out traced chip %d (output.trace_chips)", a.chips,
                        -1 - lost)
         : !job ? DSE_EXIT_FAILURE : resolve(job, &a, s);
    if (rc == DSE_EXIT_OK && a.dry_run)
        rc = dse__submit_script_write(job, stdout) ? DSE_EXIT_FAILURE : DSE_EXIT_OK;
    else if (rc == DSE_EXIT_OK)
        rc = submit(job, s);
    free(job);
    dse_sweep_free(s);
    return rc;
}
