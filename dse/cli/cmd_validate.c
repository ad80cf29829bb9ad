/* rfdse validate: check a sweep file and print it fully resolved. */
#include <string.h>

#include "dse_cli.h"
#include "dse_sweep.h"

static const char help[] =
    "Usage: rfdse validate [SWEEP.cfg | --default-sweep]\n"
    "\n"
    "Checks a sweep file and prints it fully resolved: every knob explicit, presets\n"
    "expanded, defaults filled in.  The output is itself a sweep file that loads to the\n"
    "same sweep.  Errors name FILE:LINE, the key and the accepted range; exit status 2.\n"
    "\n"
    "Without SWEEP.cfg, prints the defaults: the sweep a file that sets nothing resolves\n"
    "to (every key a file leaves out gets the value printed here).  The built-in default\n"
    "sweep that `rfdse run` runs without a file (sweeps/default.cfg) sets a few keys of\n"
    "its own (chips, techniques): --default-sweep prints it.\n"
    "\n"
    "Options:\n"
    "      --default-sweep  print the built-in default sweep resolved, not the defaults\n"
    "  -h, --help           show this help\n";

/* The defaults are what an empty sweep file resolves to: one source, the loader's. */
#define DEFAULTS_NAME "defaults"

int dse_cmd_validate(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    const char *path = NULL;
    int builtin = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--default-sweep")) {
            builtin = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1])
            return dse_cli_usage_error("validate", "unknown option '%s'", argv[i]);
        if (path)
            return dse_cli_usage_error("validate", "expected one sweep file, got '%s' and '%s'",
                                       path, argv[i]);
        path = argv[i];
    }
    if (path && builtin)
        return dse_cli_usage_error("validate", "--default-sweep takes no sweep file, got '%s'",
                                   path);
    dse_sweep *s = path      ? dse_sweep_load_file(path, stderr)
                   : builtin ? dse_sweep_load_default(stderr)
                             : dse_sweep_load_string("", DEFAULTS_NAME, stderr);
    if (!s)
        return DSE_EXIT_USAGE;
    int rc = dse_sweep_write(s, stdout) ? DSE_EXIT_FAILURE : DSE_EXIT_OK;
    dse_sweep_free(s);
    return rc;
}
