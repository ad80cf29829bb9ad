/* rfdse validate: check a sweep file and print it fully resolved. */
#include <string.h>

#include "dse_cli.h"
#include "dse_sweep.h"

static const char help[] =
    "Usage: rfdse validate [SWEEP.cfg]\n"
    "\n"
    "Checks a sweep file and prints it fully resolved: every knob explicit, presets\n"
    "expanded, defaults filled in.  The output is itself a sweep file that loads to the\n"
    "same sweep.  Without SWEEP.cfg, validates the built-in default sweep.\n"
    "Errors name FILE:LINE, the key and the accepted range; exit status 2.\n"
    "\n"
    "Options:\n"
    "  -h, --help   show this help\n";

int dse_cmd_validate(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            return dse_cli_usage_error("validate", "unknown option '%s'", argv[i]);
        if (path)
            return dse_cli_usage_error("validate", "expected one sweep file, got '%s' and '%s'",
                                       path, argv[i]);
        path = argv[i];
    }
    dse_sweep *s = path ? dse_sweep_load_file(path, stderr) : dse_sweep_load_default(stderr);
    if (!s)
        return DSE_EXIT_USAGE;
    int rc = dse_sweep_write(s, stdout) ? DSE_EXIT_FAILURE : DSE_EXIT_OK;
    dse_sweep_free(s);
    return rc;
}
