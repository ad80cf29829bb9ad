/* rfdse: parallel design-space exploration of GPU register files under process
 * variation and NBTI aging.  This file only dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "dse_cli.h"
#include "dse_quote.h"
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
            "`rfdse COMMAND --help` describes each command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return DSE_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        print_help(stdout);
        return DSE_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("rfdse %s (git %s)\n", DSE_VERSION, DSE_GIT_REVISION);
        return DSE_EXIT_OK;
    }
    for (const dse_command *c = dse_cli_commands(); c->name; c++)
        if (!strcmp(argv[1], c->name))
            return c->main(argc - 1, argv + 1);
    fputs("rfdse: unknown command '", stderr);
    dse__fput_escaped(stderr, argv[1]);
    fputs("' (see rfdse --help)\n", stderr);
    return DSE_EXIT_USAGE;
}
