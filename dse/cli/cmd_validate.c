/* rfdse validate: check a sweep file and print it fully resolved. */
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

#include "dse_cli.h"
#include "dse_results.h"
#include "dse_sweep.h"
#include "ana_h5.h"

static const char help[] =
    "Usage: rfdse validate [SWEEP.cfg | --default-sweep] [--point K]\n"
    "       rfdse validate --point K RESULTS.h5\n"
    "\n"
    "Checks a sweep file and prints it fully resolved: every knob explicit, presets\n"
    "expanded, defaults filled in.  The output is itself a sweep file that loads to the\n"
    "same sweep.  A sweep with axes (docs/sweep-format.md, \"Axes over knobs\") also gets\n"
    "one comment line per design point: \"# point K: knob = value, ...\".\n"
    "Errors name FILE:LINE, the key and the accepted range; exit status 2.\n"
    "\n"
    "Without SWEEP.cfg, prints the defaults: the sweep a file that sets nothing resolves\n"
    "to (every key a file leaves out gets the value printed here).  The built-in default\n"
    "sweep that `rfdse run` runs without a file (sweeps/default.cfg) sets a few keys of\n"
    "its own (chips, techniques): --default-sweep prints it.\n"
    "\n"
    "Options:\n"
    "      --default-sweep  print the built-in default sweep resolved, not the defaults\n"
    "      --point K        print design point K as the plain sweep (no axes) whose run\n"
    "                       gives point K's results, bit for bit; from a sweep file, or\n"
    "                       from the sweep_config a results file keeps (provenance)\n"
    "  -h, --help           show this help\n";

/* The defaults are what an empty sweep file resolves to: one source, the loader's. */
#define DEFAULTS_NAME "defaults"

/* The sweep a results file was run with (its sweep_config attribute). */
static dse_sweep *load_results(const char *path)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    char *text = f >= 0 ? ana_h5_attr_dup(f, "sweep_config") : NULL;
    if (f >= 0)
        H5Fclose(f);
    if (!text) {
        dse_cli_usage_error("validate", "%s: not an rfdse results file (no sweep_config)", path);
        return NULL;
    }
    dse_sweep *s = dse_sweep_load_string(text, path, stderr);
    free(text);
    return s;
}

static bool is_hdf5(const char *path)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    return H5Fis_hdf5(path) > 0;
}

int dse_cmd_validate(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    const char *path = NULL;
    long long point = -1;
    int builtin = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--default-sweep")) {
            builtin = 1;
            continue;
        }
        if (!strcmp(argv[i], "--point")) {
            if (i + 1 >= argc || dse_cli_parse_ll(argv[i + 1], 0, 1 << 30, &point))
                return dse_cli_usage_error("validate", "--point expects a point index K >= 0");
            i++;
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
    dse_sweep *s = path && is_hdf5(path) ? load_results(path)
                   : path                ? dse_sweep_load_file(path, stderr)
                   : builtin             ? dse_sweep_load_default(stderr)
                                         : dse_sweep_load_string("", DEFAULTS_NAME, stderr);
    if (!s)
        return DSE_EXIT_USAGE;
    int rc;
    if (point >= 0) {
        int n = dse_axes_points(s);
        /* a results file: the values it recorded (a search's come from its results) */
        double v[DSE_AXES_MAX_KNOBS];
        bool from_file = path && point < n && is_hdf5(path);
        if (from_file && dse_results_point_values(path, s, (int)point, v)) {
            dse_sweep_free(s);
            return dse_cli_usage_error("validate", "--point %lld: %s has no values for it "
                                       "(a search stopped before drawing it?)", point, path);
        }
        dse_sweep *p = point >= n ? NULL : from_file ? dse_axes_values_sweep(s, v)
                                                     : dse_axes_point_sweep(s, (int)point);
        if (point >= n)
            rc = dse_cli_usage_error("validate", "--point %lld: the sweep has %d design points",
                                     point, n);
        else
            rc = !p || dse_sweep_write(p, stdout) ? DSE_EXIT_FAILURE : DSE_EXIT_OK;
        dse_sweep_free(p);
    } else {
        rc = dse_sweep_write(s, stdout) ? DSE_EXIT_FAILURE : DSE_EXIT_OK;
        dse_axes_write_points(s, stdout);
    }
    dse_sweep_free(s);
    return rc;
}
