/* Rendering the batch script: the #SBATCH block and the quoted values that fill the
 * template.  Every user value passes through one of the two quoting functions below,
 * so a path with spaces, quotes or '$' reaches sbatch and bash unchanged. */
#include <string.h>

#include "dse_quote.h"
#include "submit_job.h"

/* Characters that mean nothing to sbatch's #SBATCH parser. */
#define PLAIN "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:/@%+=-"

/* Single quotes keep everything literal in bash; a quote itself becomes '\''. */
void dse__submit_shell_quote(FILE *out, const char *s)
{
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
    fputc('\'', out);
}

/* sbatch reads #SBATCH lines with its own small parser: whitespace splits, quotes
 * group, a backslash escapes the next character (inside quotes too), and an unquoted
 * '#' starts a comment.  Double quotes with \" and \\ cover all of it; plain words
 * stay unquoted so the usual directives read as an admin expects. */
void dse__submit_sbatch_quote(FILE *out, const char *s)
{
    if (*s && strspn(s, PLAIN) == strlen(s)) {
        fputs(s, out);
        return;
    }
    dse__fput_dquoted(out, s);
}

void dse__submit_log_path(const dse_submit_job *job, const char *ext, char *buf, size_t n)
{
    size_t k = 0;
    for (const char *s = job->dir; *s && k + 2 < n; s++) {
        if (*s == '%')
            buf[k++] = '%'; /* "%%" is Slurm's literal '%' in a file name pattern */
        buf[k++] = *s;
    }
    buf[k] = '\0';
    snprintf(buf + k, n - k, "/%s-%%j.%s", job->stem, ext);
}

static void directive(FILE *out, const char *key, const char *value)
{
    fprintf(out, "#SBATCH --%s=", key);
    dse__submit_sbatch_quote(out, value);
    fputc('\n', out);
}

static void directives(const dse_submit_job *job, FILE *out)
{
    char buf[2 * DSE_PATH_MAX + 64];
    directive(out, "job-name", job->job_name);
    fprintf(out, "#SBATCH --nodes=%ld\n", job->nodes);
    fprintf(out, "#SBATCH --ntasks-per-node=%ld\n", job->ntasks_per_node);
    if (job->time)
        directive(out, "time", job->time);
    if (job->partition)
        directive(out, "partition", job->partition);
    if (job->account)
        directive(out, "account", job->account);
    directive(out, "chdir", job->dir);
    dse__submit_log_path(job, "out", buf, sizeof buf);
    directive(out, "output", buf);
    dse__submit_log_path(job, "err", buf, sizeof buf);
    directive(out, "error", buf);
    fputs("#SBATCH --open-mode=append\n", out); /* a requeued start adds to the same logs */
    fputs("#SBATCH --requeue\n", out);
    fprintf(out, "#SBATCH --signal=B:USR1@%ld\n", job->signal_lead);
    for (int i = 0; i < job->n_lines; i++)
        fprintf(out, "#SBATCH %s\n", job->lines[i]); /* the user's own, verbatim */
}

/* The overrides `rfdse submit --chips/--seed/--techniques/--workloads` passes on to
 * `rfdse run`: numbers, and names of the sweep (letters, digits, '_' and '-' only, as
 * the loader accepts them), checked, so they need no quoting. */
static void run_options(const dse_submit_job *job, FILE *out)
{
    const char *sep = "";
    if (job->chips > 0)
        fprintf(out, "--chips %ld", job->chips), sep = " ";
    if (job->has_seed)
        fprintf(out, "%s--seed %lld", sep, job->seed), sep = " ";
    if (job->select[0])
        fprintf(out, "%s%s", sep, job->select);
}

/* The value of a template field; returns false for an unknown name. */
static int field(const dse_submit_job *job, const char *name, size_t len, FILE *out)
{
#define IS(lit) (len == sizeof(lit) - 1 && !strncmp(name, lit, len))
    if (IS("SBATCH"))
        directives(job, out);
    else if (IS("RFDSE"))
        dse__submit_shell_quote(out, job->rfdse);
    else if (IS("SWEEP"))
        dse__submit_shell_quote(out, job->sweep);
    else if (IS("OUTPUT"))
        dse__submit_shell_quote(out, job->output);
    else if (IS("LAUNCHER"))
        dse__submit_shell_quote(out, job->launcher);
    else if (IS("RUN_OPTIONS"))
        run_options(job, out);
    else
        return 0;
    return 1;
#undef IS
}

/* Copies the template, replacing each @NAME@ it knows; the '@' of anything else
 * (none today) is copied as text. */
int dse__submit_script_write(const dse_submit_job *job, FILE *out)
{
    const char *t = dse__submit_template();
    while (*t) {
        const char *at = strchr(t, '@');
        const char *end = at ? strchr(at + 1, '@') : NULL;
        if (!end) {
            fputs(t, out);
            break;
        }
        fwrite(t, 1, (size_t)(at - t), out);
        if (field(job, at + 1, (size_t)(end - at - 1), out)) {
            t = end + 1;
            if (*t == '\n' && !strncmp(at, "@SBATCH@", 8))
                t++; /* the directive block ends with its own newline */
        } else {
            fputc('@', out);
            t = at + 1;
        }
    }
    return ferror(out) ? -1 : 0;
}
