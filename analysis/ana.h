/* ana.h - analysis of rfdse results files: summary statistics, histograms, figures.
 *
 * The module reads results files only through HDF5 (docs/results-format.md): it knows
 * nothing of the sweep machinery, so any file that follows the format can be analysed,
 * including one written by another tool.  Prefix ana_; internal names ana__. */
#ifndef RFDSE_ANA_H
#define RFDSE_ANA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ana_metrics.h"

/* ---- errors ------------------------------------------------------------------------- */

/* One list generates the codes and their messages (libuv's UV_ERRNO_MAP). */
#define ANA_ERRNO_MAP(X)                                                         \
    X(OK, "success")                                                             \
    X(NOFILE, "cannot open the file")                                            \
    X(NOTRFDSE, "not an rfdse results or chipmap file")                          \
    X(CORRUPT, "unreadable or inconsistent HDF5 file")                           \
    X(IO, "I/O error")                                                           \
    X(NOMEM, "out of memory")                                                    \
    X(PLOT, "gnuplot failed")

typedef enum {
#define ANA__ERR(name, msg) ANA_E##name,
    ANA_ERRNO_MAP(ANA__ERR)
#undef ANA__ERR
} ana_err;

const char *ana_strerror(int err);

/* True for errors that are the input's fault (a bad file): the CLI exits with 2. */
int ana_err_is_input(int err);

/* ---- summary statistics ------------------------------------------------------------- */

/* Statistics of one sample; NaN entries are skipped and counted in n_nan.  With n = 0
 * every value is NaN; std and the confidence interval need n >= 2 and are NaN below. */
typedef struct ana_stats {
    size_t n;     /* finite values used        */
    size_t n_nan; /* NaN values skipped        */
    double mean, std; /* std: sample (n - 1)   */
    double p5, p50, p95; /* GSL quantile_from_sorted_data (linear interpolation) */
    double min, max;
    double ci_low, ci_high; /* 95 % CI of the mean, Student t with n - 1 dof */
} ana_stats;

/* Statistics of x[0], x[stride], ..., x[(n-1)*stride].  work holds n doubles. */
void ana_stats_compute(const double *x, size_t n, size_t stride, double *work, ana_stats *out);

/* ---- histogram bins ----------------------------------------------------------------- */

/* Number of bins for a sample of n values: Rice's rule ceil(2 n^(1/3)), clamped to
 * [ANA_BINS_MIN, ANA_BINS_MAX].  A function of n only, so every technique of a file
 * gets the same number of bins. */
enum { ANA_BINS_MIN = 5, ANA_BINS_MAX = 50 };
int ana_bins_count(size_t n);

/* A "nice" bin width (1, 2, 2.5 or 5 x 10^k), the smallest not below raw. */
double ana_bins_nice(double raw);

/* n_bins + 1 edges covering [min, max] with the data maximum strictly inside: width
 * w = nice((max - min) / (n_bins - 1)), first edge floor(min / w) * w, edge i = first
 * + i w.  A zero range (all values equal) uses w = nice(1e-3 |min|) (1e-3 if min = 0).
 * Non-finite min or max: every edge NaN. */
void ana_bins_edges(double min, double max, int n_bins, double *edges);

/* Counts of the finite values of x (with stride) into the bins of edges, through a GSL
 * histogram (lower edge inclusive).  Returns ANA_EOK or ANA_ENOMEM. */
int ana_hist_fill(const double *x, size_t n, size_t stride, const double *edges, int n_bins,
                  uint64_t *counts);

/* ---- a results file in memory ------------------------------------------------------- */

enum { ANA_NAME_MAX = 64 };
typedef char ana_name[ANA_NAME_MAX];

/* NBTI sub-bank traces (/chips/trace); absent when the sweep traced none. */
typedef struct ana_trace {
    int n_trace, n_sub_bank;
    int *chip;             /* [trace]                                  */
    double *delay;         /* [trace][tech][year][sub_bank]            */
    uint8_t *slow;         /* [trace][tech][year][sub_bank]            */
    double *utilisation;   /* [trace][tech][bench][year][sub_bank]     */
} ana_trace;

/* The metric arrays: the one list of analysis/ana_metrics.h, shared with the writer. */
#define ANA_METRIC_MAP(X) RFDSE_UNIT_METRICS(X)

typedef enum {
#define ANA__M(name, ...) ANA_M_##name,
    ANA_METRIC_MAP(ANA__M)
#undef ANA__M
    ANA_N_METRICS
} ana_metric;

typedef enum { ANA_AXIS_YEAR, ANA_AXIS_BENCHMARK } ana_axis;

const char *ana_metric_name(ana_metric m);
const char *ana_metric_doc(ana_metric m);
/* "normalised_to" or "units", and its value. */
const char *ana_metric_norm_attr(ana_metric m);
const char *ana_metric_norm(ana_metric m);
ana_axis ana_metric_axis(ana_metric m);

typedef struct ana_results {
    char path[1024];
    char version[ANA_NAME_MAX];
    int n_chip, n_tech, n_bench, n_year;
    int *chip;            /* [chip]                                          */
    ana_name *tech;       /* [tech]                                          */
    ana_name *bench;      /* [bench]; NULL when the file has no benchmark axis */
    double *year;         /* [year]                                          */
    double sigma_ratio;   /* sigma_rand / sigma_sys; NaN when unknown         */
    char nbti_law[ANA_NAME_MAX]; /* aging.initial_shift of the sweep; "" when unknown */
    char duty[ANA_NAME_MAX];     /* aging.duty: "access" or "occupancy"; "" when unknown */
    char (*colour)[8];    /* [tech]: "#rrggbb", the file's technique_colours or, for
                             a file without them, analysis's own palette by index   */
    double *metric[ANA_N_METRICS]; /* [chip][tech][axis]; NULL when absent  */
    size_t n_not_done;    /* entries masked to NaN because /progress/done = 0 */
    ana_trace *trace;     /* NULL when absent                                 */
} ana_results;

/* Reads a results file.  A file without the rfdse layout gives ANA_ENOTRFDSE, a broken
 * one ANA_ECORRUPT, each with one line on err (no trailing HDF5 error stack).  Results
 * of chip x technique pairs that /progress/done marks unfinished read as NaN. */
int ana_results_load(const char *path, ana_results **out, FILE *err);
void ana_results_free(ana_results *r);

/* Axis length of a metric in r. */
int ana_results_axis_len(const ana_results *r, ana_metric m);

/* True when r's /results/performance is the lifetime performance (model.md section 8):
 * the sweep aged (more than one year) and wrote /results/performance_t0 beside it.
 * Files from before performance_t0 hold the time-zero value there. */
int ana_results_perf_is_lifetime(const ana_results *r);

/* What /results/performance of r is, for titles: "lifetime performance (IPC x frequency
 * after Y years of NBTI aging)" or "performance at time zero (IPC x frequency)". */
void ana_results_perf_label(const ana_results *r, char *buf, size_t n);

/* One SM's register-file maps from `rfdse chipmap`. */
typedef struct ana_chipmap {
    char path[1024];
    int rows, cols;
    double *vth;          /* [row][col] */
    char vth_units[ANA_NAME_MAX];
    long chip, sm;        /* -1 when the attribute is absent */
    /* /delay/sub_bank [n_banks][sub_banks], to mark banks and the slowest sub-banks;
     * NULL (n_banks 0) when absent.  Bank b holds rows [b E, (b + 1) E), E = rows / n_banks;
     * its sub-bank p the columns [p C, (p + 1) C), C = cols / sub_banks. */
    int n_banks, sub_banks;
    double *sub_delay;
} ana_chipmap;

int ana_chipmap_load(const char *path, ana_chipmap **out, FILE *err);
void ana_chipmap_free(ana_chipmap *m);

/* What kind of file path is: 1 results, 2 chipmap, 0 neither (or unreadable). */
enum { ANA_FILE_NONE = 0, ANA_FILE_RESULTS = 1, ANA_FILE_CHIPMAP = 2 };
int ana_file_kind(const char *path);

/* ---- statistics of a whole file ----------------------------------------------------- */

/* The distribution of one metric over chips, per technique and per axis point.  A
 * "chip_" view aggregates a benchmark metric first: a chip's value is the mean over the
 * benchmarks (model.md section 8), NaN if any benchmark is NaN; it has no axis (n_x = 1). */
typedef struct ana_view {
    char name[ANA_NAME_MAX];    /* group name under /analysis             */
    char source[ANA_NAME_MAX];  /* dataset it summarises                  */
    char doc[256];
    ana_metric metric;          /* the metric it summarises               */
    const char *x_axis;         /* "year", "benchmark" or NULL            */
    int n_tech, n_x, n_bins;
    ana_stats *stats;           /* [tech][x]                              */
    double *edges;              /* [tech][x][n_bins + 1]                  */
    uint64_t *counts;           /* [tech][x][n_bins]                      */
} ana_view;

typedef struct ana_summary {
    int n_views;
    ana_view *views;
} ana_summary;

/* Every view the file supports: each metric present, and chip_ipc, chip_performance,
 * chip_guardband for the benchmark metrics present. */
int ana_summary_compute(const ana_results *r, ana_summary **out);
void ana_summary_free(ana_summary *s);

/* The view named name, or NULL. */
const ana_view *ana_summary_find(const ana_summary *s, const char *name);

/* Writes /analysis into the HDF5 file path, replacing an existing /analysis, touching
 * nothing else.  The write happens on a copy next to the file that is renamed over it
 * when complete, so an interrupted run leaves the original file intact. */
int ana_summary_write(const char *path, const ana_results *r, const ana_summary *s,
                      const char *tool_version, FILE *err);

/* The summary table (techniques as rows) on out. */
void ana_table_print(FILE *out, const ana_results *r, const ana_summary *s);

/* CSV files DIR/STEM_per_chip.csv (every value of /results), DIR/STEM_stats.csv (every
 * view's statistics) and, with histograms, DIR/STEM_hist.csv (every view's bins). */
int ana_csv_write(const char *dir, const char *stem, const ana_results *r,
                  const ana_summary *s, bool histograms, FILE *err);

/* ---- figures ------------------------------------------------------------------------ */

/* Groups rows with identical distributions: x holds n_rows rows of n_seg segments of len
 * values (a technique's values over chips at n_seg axis points); two rows are identical
 * when each segment holds the same multiset of values (NaN equal to NaN).  group[r] is
 * the first row identical to r (r itself when none before is).  Returns the number of
 * groups, or -1 when out of memory. */
int ana_group_identical(const double *x, int n_rows, int n_seg, size_t len, int *group);

/* Figure name, pixel size, what it shows and which sweep produces its data. */
#define ANA_FIGURE_MAP(X)                                                                  \
    X(freq_dist, 1400, 1000, "frequency distribution over chips per technique",            \
      "sweeps/reference/frequency.cfg")                                                   \
    X(ipc, 1600, 650, "normalised IPC per workload and technique",                        \
      "sweeps/reference/ipc.cfg")                                                         \
    X(guardband, 1600, 650, "NBTI guardband per workload", "sweeps/reference/guardband.cfg") \
    X(perf_dist, 1400, 1000, "performance distribution over chips per technique",          \
      "sweeps/reference/performance.cfg")                                                 \
    X(sensitivity, 1400, 600, "mean frequency and performance vs sigma_rand:sigma_sys",     \
      "sweeps/reference/sensitivity-*.cfg (three files, analysed together)")              \
    X(vth_map, 1000, 850, "one chip's register-file Vth map", "rfdse chipmap --chip K")     \
    X(nbti_trace, 1400, 1000, "per-sub-bank delay and utilisation with and without nbti_opt", \
      "sweeps/reference/guardband.cfg (output.trace_chips)")                              \
    X(energy, 1600, 650, "register-file energy per workload and technique",               \
      "any sweep (time zero)")                                                            \
    X(overview, 1600, 700, "frequency and performance of every technique on one axis (box plots)", \
      "any sweep")                                                                        \
    X(knob, 1800, 600, "performance, paired gain over baseline and energy against the knob", \
      "sweeps/reference/vth_sigma.cfg (a sweep with one axis)")                           \
    X(heatmap, 1600, 900, "mean performance over a 2-D grid of knobs, per technique",      \
      "a sweep with a grid over two knobs")                                               \
    X(pareto, 1200, 900, "p5 performance against mean rf_energy, Pareto front marked",    \
      "sweeps/reference/pareto.cfg (any sweep with axes)")                                \
    X(hypervolume, 1000, 650, "hypervolume of the Pareto front per search generation",     \
      "sweeps/reference/pareto.cfg (design = \"nsga2\")")

typedef enum {
#define ANA__F(name, w, h, doc, sweep) ANA_FIG_##name,
    ANA_FIGURE_MAP(ANA__F)
#undef ANA__F
    ANA_N_FIGURES
} ana_figure;

typedef struct ana_figure_info {
    const char *name;
    int width, height;
    const char *doc;
    const char *sweep;
} ana_figure_info;

const ana_figure_info *ana_figure_get(ana_figure f);

/* The mean group of the per-workload bar figures (ipc, energy, guardband): over chips of
 * each chip's arithmetic mean over workloads (what /analysis/chip_* hold), or of its
 * geometric mean (the usual mean of normalised ratios; NaN for a chip with a value that
 * is not positive). */
typedef enum { ANA_MEAN_ARITHMETIC, ANA_MEAN_GEOMETRIC } ana_mean;

/* Each function renders DIR/PREFIX<figure>.png when its data are present and returns
 * ANA_EOK; when they are absent it writes nothing, prints one line saying what is
 * missing and which sweep produces it on note, and sets *skipped (when non-NULL). */
int ana_fig_freq_dist(const char *dir, const char *prefix, const ana_results *r,
                      const ana_summary *s, FILE *note, int *skipped);
int ana_fig_perf_dist(const char *dir, const char *prefix, const ana_results *r,
                      const ana_summary *s, FILE *note, int *skipped);
int ana_fig_ipc(const char *dir, const char *prefix, const ana_results *r, ana_mean mean,
                const ana_summary *s, FILE *note, int *skipped);
int ana_fig_energy(const char *dir, const char *prefix, const ana_results *r, ana_mean mean,
                   const ana_summary *s, FILE *note, int *skipped);
int ana_fig_guardband(const char *dir, const char *prefix, const ana_results *r, ana_mean mean,
                      const ana_summary *s, FILE *note, int *skipped);
int ana_fig_overview(const char *dir, const char *prefix, const ana_results *r,
                     const ana_summary *s, FILE *note, int *skipped);
int ana_fig_nbti_trace(const char *dir, const char *prefix, const ana_results *r,
                       FILE *note, int *skipped);
int ana_fig_vth_map(const char *dir, const char *prefix, const ana_chipmap *m, FILE *note);
/* The same Vth map at any path (`rfdse chipmap --png`); m may point at memory the
 * caller owns (only rows, cols, vth, vth_units, chip and sm are read). */
int ana_vth_map_png(const char *path, const ana_chipmap *m, FILE *note);
/* Across files: results[i] with summaries[i]. */
int ana_fig_sensitivity(const char *dir, const ana_results *const *results,
                        const ana_summary *const *summaries, int n, FILE *note, int *skipped);

/* Width and height from a PNG's IHDR chunk; ANA_EOK, or ANA_EIO when path is not a PNG. */
int ana_png_size(const char *path, uint32_t *width, uint32_t *height);

/* ---- the whole command -------------------------------------------------------------- */

typedef struct ana_options {
    const char *figures_dir;  /* NULL: no figures    */
    const char *csv_dir;      /* NULL: no CSV        */
    bool csv_histograms;      /* also STEM_hist.csv  */
    const char *tool_version; /* recorded in /analysis */
    ana_mean mean;            /* the bar figures' mean group (default arithmetic) */
    FILE *out;                /* summary table       */
    FILE *err;                /* errors and notes    */
} ana_options;

/* `rfdse analyze`: loads every file first (nothing is written when one is bad), then per
 * results file computes and writes /analysis, prints the table, writes CSV and figures;
 * chipmap files give the Vth map; two or more results files with distinct sigma ratios
 * give the sensitivity figure.  Returns an ana_err. */
int ana_analyze(const char *const *paths, int n_paths, const ana_options *opt);

#endif
