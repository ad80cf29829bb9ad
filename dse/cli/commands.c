/* The subcommand table (dse_cli.h).  Compiled into the rfdse executable, not into
 * rfdse_dse_cli: it names every subcommand, `rfdse submit` (slurm/) included, and
 * slurm/ uses rfdse_dse_cli's helpers, so the table sits above both. */
#include <string.h>

#include "dse_cli.h"

/* Only commands that exist are listed: adding one is adding a row and a cmd_*.c file. */
static const dse_command commands[] = {
    { "run", "run a sweep under MPI into an HDF5 results file", dse_cmd_run },
    { "validate", "check a sweep file and print it fully resolved", dse_cmd_validate },
    { "analyze", "summarise results files: statistics, histograms, CSV, figures", dse_cmd_analyze },
    { "sm", "simulate one SM: IPC, stall causes and per-bank statistics", dse_cmd_sm },
    { "chipmap", "one chip's Vth/Leff maps and register delays as HDF5 and PNG", dse_cmd_chipmap },
    { "submit", "write a Slurm batch script for a sweep and submit it", dse_cmd_submit },
    { "list", "list the technique presets, shipped workloads or sweep-file knobs", dse_cmd_list },
    { "status", "how far a results file is, and whether a run is writing it", dse_cmd_status },
    { "trace", "import an Accel-Sim kernel trace to HDF5, print its shape and mix", dse_cmd_trace },
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
