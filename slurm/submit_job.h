/* submit_job.h - what `rfdse submit` knows about one batch job, shared by its files:
 * cmd_submit.c (options, checks), submit_time.c (Slurm time limits), submit_script.c
 * (quoting, rendering the template), the template (slurm/rfdse.sbatch.in, compiled in
 * by cmake/embed_text.cmake), submit_sbatch.c
 * (running sbatch). */
#ifndef RFDSE_DSE_SUBMIT_JOB_H
#define RFDSE_DSE_SUBMIT_JOB_H

#include <stdbool.h>
#include <stdio.h>

#include "dse_sweep.h"

#define DSE_SUBMIT_MAX_LINES 32

/* Every path is absolute; every string is free of newlines (checked by cmd_submit.c).
 * NULL for an optional directive that is left to the site's defaults. */
typedef struct dse_submit_job {
    char rfdse[DSE_PATH_MAX];      /* the job's copy of this executable        */
    char sweep[DSE_PATH_MAX];      /* the job's copy of the resolved sweep     */
    char rfdse_built[DSE_PATH_MAX]; /* this executable (/proc/self/exe)        */
    char output[DSE_PATH_MAX];     /* the results file                         */
    char dir[DSE_PATH_MAX];        /* script and logs                          */
    char stem[DSE_NAME_MAX];       /* file-name-safe sweep name                */
    char job_name[DSE_PATH_MAX];
    const char *time, *partition, *account; /* as given (time already checked) */
    const char *launcher;          /* "srun", "mpirun" or "auto"               */
    long nodes, ntasks_per_node;
    long signal_lead;              /* s before the time limit for SIGUSR1      */
    long chips;                    /* --chips for `rfdse run`, 0: none         */
    long long seed;                /* --seed for `rfdse run` when has_seed     */
    bool has_seed;
    char select[DSE_PATH_MAX];     /* "--techniques a,b --workloads x" for     *
                                    * `rfdse run` (sweep names only), or ""     */
    int n_lines;                   /* extra "#SBATCH ..." lines, verbatim      */
    const char *lines[DSE_SUBMIT_MAX_LINES];
} dse_submit_job;

/* Seconds in a Slurm time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or
 * -1 for UNLIMITED/INFINITE.  Returns 0, or -1 when `s` is malformed or zero. */
int dse__submit_time_parse(const char *s, long *seconds);

/* The batch script template (slurm/rfdse.sbatch.in). */
const char *dse__submit_template(void);

/* `s` as one shell word in single quotes. */
void dse__submit_shell_quote(FILE *out, const char *s);

/* `s` as one argument of an #SBATCH line: double quotes, backslash before " and \. */
void dse__submit_sbatch_quote(FILE *out, const char *s);

/* Renders the template for `job` (the script `rfdse submit` writes).  Returns 0 or -1
 * on a write error. */
int dse__submit_script_write(const dse_submit_job *job, FILE *out);

/* The log file pattern of the job ("DIR/STEM-%j.out" or ".err"), '%' in DIR doubled
 * so Slurm does not read it as a pattern. */
void dse__submit_log_path(const dse_submit_job *job, const char *ext, char *buf, size_t n);

/* True when `sbatch` is an executable file in a directory of PATH (as execvp looks):
 * checked before anything is written, so a login node without Slurm leaves nothing. */
bool dse__submit_sbatch_found(void);
#define DSE_SUBMIT_NO_SBATCH \
    "sbatch not found: is this a Slurm login node? nothing written (--dry-run prints the " \
    "script without submitting)"

/* Runs `sbatch --parsable SCRIPT`; on success writes the job id into `id`, returns 0;
 * otherwise writes one line into `err` and returns -1 when no job was queued, -2 when
 * sbatch succeeded but printed no job id (a job may exist).  sbatch's own stderr
 * passes through. */
int dse__submit_sbatch(const char *script, char *id, size_t n, char *err, size_t en);

#endif
