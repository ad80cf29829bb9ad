/* rfdse analyze: thin wrapper over the analysis module (analysis/ana.h). */
#include <getopt.h>
#include <string.h>

#include "ana.h"
#include "dse_cli.h"
#include "dse_version.h"

static const char help[] =
    "Usage: rfdse analyze OUT.h5 [MORE.h5 ...] [--figures DIR] [--csv DIR]\n"
    "                     [--csv-histograms] [--mean=arithmetic|geometric]\n"
    "\n"
    "Summarises results files: per technique (and per benchmark or aging year) the\n"
    "distribution over chips of frequency, IPC, performance and guardband: mean, standard\n"
    "deviation, 5th/50th/95th percentiles, min, max, 95 % confidence interval of the mean,\n"
    "and a histogram with its bin edges.  Writes them back into each file under /analysis\n"
    "(replacing an earlier /analysis; /results is never modified) and prints a summary\n"
    "table, techniques as rows.  NaN entries (not computed) are skipped and counted.\n"
    "\n"
    "Files from `rfdse chipmap` may be given too: they give the Vth-map figure.  Two or\n"
    "more results files with different sigma_rand:sigma_sys give the sensitivity figure.\n"
    "Figures whose data a file lacks are skipped with a note naming the sweep that makes\n"
    "them.  Layout of /analysis: docs/results-format.md; figures: docs/reproducing.md.\n"
    "\n"
    "Options:\n"
    "  --figures DIR  write the figures as PNG into DIR (needs gnuplot)\n"
    "  --csv DIR      write two tidy CSV tables per results file into DIR:\n"
    "                 STEM_per_chip.csv (every value of /results) and STEM_stats.csv\n"
    "                 (every statistic of /analysis)\n"
    "  --csv-histograms  with --csv, also STEM_hist.csv (every histogram bin)\n"
    "  --mean=KIND    the last group of the IPC, energy and guardband bar figures: the\n"
    "                 mean over chips of each chip's arithmetic (default) or geometric\n"
    "                 mean over workloads (the figures say which)\n"
    "  -h, --help     show this help\n"
    "\n"
    "Exit status: 0 success, 1 I/O or gnuplot failure, 2 bad usage or a file that is not\n"
    "a readable rfdse results or chipmap file (nothing is written then).\n";

int dse_cmd_analyze(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    static const struct option longopts[] = {
        { "figures", required_argument, NULL, 'f' }, { "csv", required_argument, NULL, 'c' },
        { "mean", required_argument, NULL, 'm' }, { "csv-histograms", no_argument, NULL, 'H' },
        { NULL, 0, NULL, 0 },
    };
    ana_options opt = { .tool_version = DSE_VERSION, .out = stdout, .err = stderr };
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        if (c == 'H')
            opt.csv_histograms = true;
        else if (c == 'f' || c == 'c')
            *(c == 'f' ? &opt.figures_dir : &opt.csv_dir) = optarg;
        else if (c == 'm' && (!strcmp(optarg, "arithmetic") || !strcmp(optarg, "geometric")))
            opt.mean = optarg[0] == 'g' ? ANA_MEAN_GEOMETRIC : ANA_MEAN_ARITHMETIC;
        else if (c == 'm')
            return dse_cli_usage_error("analyze", "--mean '%s': accepted: arithmetic, geometric",
                                       optarg);
        else if (c == ':')
            return dse_cli_usage_error("analyze", "%s needs a directory", argv[optind - 1]);
        else
            return dse_cli_usage_error("analyze", "unknown option '%s'", argv[optind - 1]);
    }
    if (opt.csv_histograms && !opt.csv_dir)
        return dse_cli_usage_error("analyze", "--csv-histograms goes with --csv DIR");
    const char **paths = (const char **)argv + optind; /* getopt_long moved files last */
    int n = argc - optind;
    if (n == 0)
        return dse_cli_usage_error("analyze", "expected at least one results file");
    int rc = ana_analyze(paths, n, &opt);
    if (rc == ANA_EOK)
        return DSE_EXIT_OK;
    return ana_err_is_input(rc) ? DSE_EXIT_USAGE : DSE_EXIT_FAILURE;
}
