/* The subcommand table and helpers shared by the subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dse_cli.h"
#include "dse_quote.h"

/* Only commands that exist are listed: adding one is adding a row and a cmd_*.c file. */
static const dse_command commands[] = {
    { "run", "run a sweep under MPI into an HDF5 results file", dse_cmd_run },
    { "validate", "check a sweep file and print it fully resolved", dse_cmd_validate },
    { "analyze", "summarise results files: statistics, histograms, CSV, figures", dse_cmd_analyze },
    { "sm", "simulate one SM: IPC, stall causes and per-bank statistics", dse_cmd_sm },
    { "chipmap", "one chip's Vth/Leff maps and register delays as HDF5 and PNG", dse_cmd_chipmap },
    { "submit", "write a Slurm batch script for a sweep and submit it", dse_cmd_submit },
    { "list", "list the technique presets, shipped workloads or sweep-file knobs", dse_cmd_list },
    { NULL, NULL, NULL },
};

const dse_command *dse_cli_commands(void) { return commands; }

const dse_command *dse_cli_command(const char *name)
{
    for (const dse_command *c = commands; c->name; c++)
        if (!strcmp(name, c->name))
            return c;
    return NULL;
}

int dse_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "rfdse %s: ", cmd);
    va_start(ap, fmt);
    dse__vfput_escaped(stderr, fmt, ap); /* it quotes the command line */
    va_end(ap);
    fprintf(stderr, " (see rfdse %s --help)\n", cmd);
    return DSE_EXIT_USAGE;
}

int dse_cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return 1;
    return 0;
}

int dse_cli_parse_ll(const char *s, long long lo, long long hi, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}
