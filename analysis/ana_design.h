/* ana_design.h - analysis of a results file with design points (a sweep with axes:
 * docs/sweep-format.md, "Axes over knobs"; layout in docs/results-format.md, "Design
 * points"): statistics per (point, technique), paired differences against baseline,
 * the table, CSV with knob columns, figures against the knobs, the Pareto front. */
#ifndef RFDSE_ANA_DESIGN_H
#define RFDSE_ANA_DESIGN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ana.h"

#define ANA_DESIGN_MAX_KNOBS 16
#define ANA_DESIGN_KNOB_MAX 96

/* The chip-level quantities summarised per (point, technique): a chip's value is its
 * mean over workloads (performance, ipc, rf_energy) or its time-zero value (frequency). */
#define ANA_DESIGN_QUANTITIES(X)                                                         \
    X(performance, "performance", "chip performance (lifetime with aging), mean over workloads") \
    X(ipc, "ipc", "chip IPC, mean over workloads")                                       \
    X(frequency, "frequency", "chip frequency at time zero")                              \
    X(rf_energy, "rf_energy", "register-file energy / ideal's, mean over workloads")
typedef enum {
#define ANA__DQ(id, name, doc) ANA_DQ_##id,
    ANA_DESIGN_QUANTITIES(ANA__DQ)
#undef ANA__DQ
    ANA_N_DQ
} ana_dq;

/* Statistics over the chips of one (point, technique). */
typedef struct ana_dstat {
    int n;
    double mean, sd, ci_low, ci_high, p5, p50, p95;
    double gain, gain_low, gain_high; /* paired: mean of (this - baseline) over chips */
} ana_dstat;

typedef struct ana_design {
    char path[4096];
    int P, C, T, B, Y;
    int n_knobs;
    char knob[ANA_DESIGN_MAX_KNOBS][ANA_DESIGN_KNOB_MAX];
    bool knob_text[ANA_DESIGN_MAX_KNOBS]; /* enumerations, switches                */
    double *kval;                         /* [P][n_knobs]; text knobs: category index */
    ana_name *ktext;                      /* [P][n_knobs]: every value as text       */
    ana_name *tech;                       /* [T]                                     */
    char (*colour)[8];                    /* [T]: "#rrggbb", as ana_results'          */
    int baseline;                         /* index of "baseline", or -1              */
    bool aged;                            /* performance is lifetime performance     */
    double *chip[ANA_N_DQ];               /* [P][C][T]                               */
    ana_dstat *stat[ANA_N_DQ];            /* [P][T]                                  */
    int *generation;                      /* [P]: a search's generations, or NULL    */
    int search_tech;                      /* a search: the technique it optimises     */
    char objectives[256];                 /* a search: its objectives, as text        */
} ana_design;

/* True when path is a results file with a point dimension (/axes/point). */
bool ana_design_is(const char *path);

/* Loads and summarises; ANA_EOK, or an ana_err with one line on err. */
int ana_design_load(const char *path, ana_design **out, FILE *err);
void ana_design_free(ana_design *d);

const char *ana_dq_name(ana_dq q);

/* The table: one row per (point, technique) with the knob values. */
void ana_design_table(FILE *out, const ana_design *d);

/* DIR/STEM_points.csv (statistics per point, technique and quantity, knob columns) and
 * DIR/STEM_per_chip.csv (every value of /results, tidy, knob columns). */
int ana_design_csv(const char *dir, const char *stem, const ana_design *d, FILE *err);

/* Figures (fig_axes.c): each quantity against a 1-D knob (a line per technique with its
 * 95 % band); a heat map per technique for a 2-D grid; the Pareto front of p5
 * performance against mean rf_energy over (point x technique), with DIR/STEM_pareto.csv. */
int ana_design_figures(const char *dir, const char *stem, const ana_design *d, FILE *out,
                       FILE *err);

/* Internal: writes DIR/NAME.csv with fn (under a temporary name, renamed). */
int ana__design_csv_file(const char *dir, const char *name, const ana_design *d,
                         int (*fn)(FILE *, const ana_design *, const void *), const void *arg,
                         FILE *err);

/* `rfdse analyze` on such a file: table, CSV and figures as asked. */
int ana_design_analyze(const char *path, const char *stem, const ana_options *opt);

#endif
