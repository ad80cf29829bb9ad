/* dse_cli.h - the `rfdse` command line: one table of subcommands, each in its own file. */
#ifndef RFDSE_DSE_CLI_H
#define RFDSE_DSE_CLI_H

#include <stdio.h>

/* Exit statuses shared by every subcommand. */
enum {
    DSE_EXIT_OK = 0,
    DSE_EXIT_FAILURE = 1, /* the run failed (I/O, MPI, a model error)          */
    DSE_EXIT_USAGE = 2    /* the user's input is wrong (options, sweep file)   */
};

typedef struct dse_command {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv); /* argv[0] is the subcommand name */
} dse_command;

/* The subcommands, NULL-name terminated. */
const dse_command *dse_cli_commands(void);
/* The command called name, or NULL. */
const dse_command *dse_cli_command(const char *name);

/* Subcommands. */
int dse_cmd_validate(int argc, char **argv);
int dse_cmd_chipmap(int argc, char **argv);
int dse_cmd_sm(int argc, char **argv);
int dse_cmd_run(int argc, char **argv);
int dse_cmd_analyze(int argc, char **argv);
int dse_cmd_submit(int argc, char **argv);
int dse_cmd_list(int argc, char **argv);
int dse_cmd_status(int argc, char **argv);
int dse_cmd_trace(int argc, char **argv);

/* rfdse run --dry-run on a sweep with axes (dry_axes.c). */
struct dse_sweep;
void dse_cli_dry_run_axes(const struct dse_sweep *s, int ranks);

/* Shared helpers: print "rfdse CMD: message" to stderr, return DSE_EXIT_USAGE. */
int dse_cli_usage_error(const char *cmd, const char *fmt, ...);

/* A JSON string: quotes, backslashes and control characters escaped. */
void dse_cli_json_string(FILE *out, const char *s);

/* True if argv holds -h or --help. */
int dse_cli_wants_help(int argc, char **argv);

/* A whole decimal integer in [lo, hi] into *v: 0, or -1 (nothing stored) for anything
 * else; the caller says what was wrong in its own words. */
int dse_cli_parse_ll(const char *s, long long lo, long long hi, long long *v);

/* What `rfdse run` accepts for --chips and --seed; `rfdse submit` passes them on, so it
 * checks the same ranges before a job is queued. */
#define DSE_CLI_MAX_CHIPS 1000000LL
#define DSE_CLI_MAX_SEED 9000000000000000000LL

#endif
