/* ana_internal.h - helpers shared by the analysis files; not part of the interface. */
#ifndef RFDSE_ANA_INTERNAL_H
#define RFDSE_ANA_INTERNAL_H

#include <signal.h>

#include <hdf5.h>

#include "ana.h"
#include "ana_h5.h"
#include "ana_layout.h"
#include "out.h"

/* Prefix of every message the module prints. */
#define ANA__PREFIX "rfdse analyze: "

/* ---- the results file's layout (layout.c) ------------------------------------------- */

/* The sizes of r's dimensions into size[ANA_N_DIMS] (the trace's when loaded, else 0). */
void ana__dim_sizes(const ana_results *r, long size[ANA_N_DIMS]);
/* True if the dataset at path has exactly shape s with dimensions of sizes size[] (from
 * ana__dim_sizes; [point] not allowed). */
int ana__shape_is(hid_t file, const char *path, ana_shape s, const long size[ANA_N_DIMS]);
/* The path of metric m, /results/NAME, into buf. */
void ana__metric_path(ana_metric m, char *buf, size_t size);

/* ---- CSV (csv.c) ---------------------------------------------------------------------- */

/* csv.c: writes DIR/NAME.csv through fn (created with DIR if need be) under a temporary
 * name and renames it: never a half-written table; ANA_EOK or ANA_EIO, said in one line. */
int ana__csv_atomic(const char *dir, const char *name, int (*fn)(FILE *, const void *),
                    const void *arg, FILE *err);

/* ---- gnuplot (gnuplot.c) ------------------------------------------------------------ */

/* A pipe to gnuplot rendering one figure. */
typedef struct ana__plot {
    FILE *gp;
    char path[OUT_PATH_MAX + 1];
    char tmp[OUT_PATH_MAX + 32]; /* gnuplot writes here; renamed to path when valid */
    ana_figure fig;
    struct sigaction old_pipe;
} ana__plot;

/* Opens gnuplot set up for a pngcairo figure of the figure's size at DIR/PREFIX+name.png,
 * with the house style (font, grid, borders) already sent.  SIGPIPE is ignored while the
 * pipe is open so a gnuplot that dies early gives an error, not a killed rfdse.
 * ANA_EOK or ANA_EPLOT (message on err). */
int ana__plot_open(ana__plot *p, const char *dir, const char *prefix, ana_figure f, FILE *err);
/* The same at a path the caller chose (rfdse chipmap --png); no directory is created. */
int ana__plot_open_at(ana__plot *p, const char *path, ana_figure f, FILE *err);
/* Closes the pipe, checks the PNG and renames it into place; ANA_EPLOT when gnuplot
 * failed (nothing is left at the figure's path then). */
int ana__plot_close(ana__plot *p, FILE *err);

/* /analysis view coordinates as dimension scales (h5scales.c): technique, year or
 * benchmark, bin and edge datasets in view group g; then attach them to a dataset of g
 * by name, one per dimension.  ANA_EOK or ANA_EIO. */
int ana__scales_write(hid_t g, const ana_results *r, const ana_view *v);
int ana__scales_attach(hid_t g, const char *dataset, const char *const *dims, int n);

/* gnuplot's enhanced-text escape of a name (underscores would subscript). */
void ana__plot_escape(const char *in, char *out, size_t size);

/* Writes DIR/PREFIX+name.png path into buf. */
void ana__figure_path(const char *dir, const char *prefix, ana_figure f, char *buf,
                      size_t size);

/* Technique t's colour, the same in every figure of a file: the file's own
 * (technique_colours, from the preset registry; docs/results-format.md). */
const char *ana__colour(const ana_results *r, int t);

/* The colours of techniques tech[n_tech] of open file f, into a new array *colour
 * (the file's technique_colours, else analysis's own palette).  ANA_EOK or ANA_ENOMEM. */
int ana__technique_colours(hid_t f, const ana_name *tech, int n_tech, char (**colour)[8]);

/* Index of name in r->tech, or -1. */
int ana__tech_find(const ana_results *r, const char *name);

/* "1:4" / "1:1" / "4:1" for a sigma ratio. */
void ana__ratio_label(double ratio, char *buf, size_t size);

/* The per-chip values behind view v at technique t and axis point x (a chip_ view: each
 * chip's mean over benchmarks, computed as the summary does), into out[n_chip]. */
void ana__view_values(const ana_results *r, const ana_view *v, int t, int x, double *out);

/* The mean group of the per-workload figures (fig_bars.c): per technique tech[n], the
 * chip view cv's statistics (each chip's arithmetic mean over workloads) or those of
 * each chip's geometric mean of view v, into last[n].  ANA_EOK or ANA_ENOMEM. */
int ana__mean_stats(const ana_results *r, const ana_view *v, const ana_view *cv,
                    const int *tech, int n, ana_mean mean, ana_stats *last);

/* Prints "  skipped FIG: WHY (produced by SWEEP)" on note and sets *skipped. */
void ana__skip(FILE *note, ana_figure f, const char *why, int *skipped);

#endif
