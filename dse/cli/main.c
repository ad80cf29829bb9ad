/* rfdse: parallel design-space exploration of GPU register files under process
 * variation and NBTI aging.  This file only dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "dse_cli.h"
#include "dse_quote.h"
#include "dse_sweep.h"
#include "dse_version.h"

static void print_help(FILE *out)
{
    fprintf(out,
            "Usage: rfdse COMMAND [OPTIONS]\n"
            "\n"
            "Monte Carlo design-space exploration of GPU register files under process\n"
            "variation and NBTI aging.\n"
            "\n"
            "Commands:\n");
    for (const dse_command *c = dse_cli_commands(); c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out,
            "\n"
            "Options:\n"
            "  -h, --help     show this help\n"
            "  --version      print version and git revision\n"
            "\n"
            "`rfdse help COMMAND` (or `rfdse COMMAND --help`) describes each command.\n");
}

static int unknown(const char *name)
{
    dse_suggest sg;
    char hint[96];
    dse_suggest_init(&sg, name, strlen(name));
    for (const dse_command *c = dse_cli_commands(); c->name; c++)
        dse_suggest_offer(&sg, c->name);
    fputs("rfdse: unknown command '", stderr);
    dse__fput_escaped(stderr, name); /* one line whatever the argument holds */
    fprintf(stderr, "'%s accepted:", sg.best ? dse_suggest_format(&sg, hint, sizeof hint) : ",");
    for (const dse_command *c = dse_cli_commands(); c->name; c++)
        fprintf(stderr, " %s", c->name);
    fprintf(stderr, " (see rfdse --help)\n");
    return DSE_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return DSE_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "help") && argc > 2) { /* rfdse help CMD = rfdse CMD --help */
        char *args[] = { argv[2], "--help", NULL };
        const dse_command *c = dse_cli_command(argv[2]);
        return c ? c->main(2, args) : unknown(argv[2]);
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        print_help(stdout);
        return DSE_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("rfdse %s (git %s)\n", DSE_VERSION, DSE_GIT_REVISION);
        return DSE_EXIT_OK;
    }
    const dse_command *c = dse_cli_command(argv[1]);
    return c ? c->main(argc - 1, argv + 1) : unknown(argv[1]);
}
