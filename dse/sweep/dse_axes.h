/* dse_axes.h - axes over any knob: the design points of a sweep (docs/sweep-format.md,
 * "Axes over knobs").
 *
 * A sweep with an `axes` section is a family of plain sweeps, one per design point:
 * the sweep file's own values with each axis knob set to the point's value.  The point
 * sweep (dse_axes_point_sweep) has no axes and is exactly the sweep a plain file with
 * those values resolves to, so a point's results equal a plain run's, bit for bit.
 * The design is a pure function of the sweep file: every rank computes the same points.
 */
#ifndef RFDSE_DSE_AXES_H
#define RFDSE_DSE_AXES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define DSE_AXES_MAX_KNOBS 16
#define DSE_AXES_MAX_VALUES 64
#define DSE_AXES_KNOB_MAX 96     /* "techniques[NAME].KEY" */
/* Limits of a design (docs/sweep-format.md): points, and units = points x chips x
 * techniques, the rows of /progress/done. */
#define DSE_AXES_MAX_POINTS 4096
#define DSE_AXES_MAX_UNITS 10000000L

typedef enum { DSE_DESIGN_NONE = 0, DSE_DESIGN_GRID, DSE_DESIGN_SOBOL, DSE_DESIGN_NSGA2 } dse_design;

#define DSE_AXES_MAX_OBJECTIVES 4

/* An objective of a search: a statistic over chips of a unit metric, the chip's value
 * being its mean over workloads (a per-year metric: its value at the end of the aging
 * schedule), for the search's technique. */
typedef enum { DSE_STAT_MEAN, DSE_STAT_P5, DSE_STAT_P50, DSE_STAT_P95 } dse_stat;
typedef struct dse_objective {
    int metric;    /* index in RFDSE_UNIT_METRICS (analysis/ana_metrics.h) */
    dse_stat stat;
    bool maximise;
} dse_objective;

/* Where an axis knob lives. */
typedef enum {
    DSE_KNOB_GLOBAL,    /* a key of a top-level section: SECTION.KEY              */
    DSE_KNOB_TECHNIQUE, /* techniques[].KEY (every technique) or techniques[N].KEY */
    DSE_KNOB_WORKLOAD   /* workloads[].KEY or workloads[N].KEY                     */
} dse_knob_kind;

typedef struct dse_axis {
    char knob[DSE_AXES_KNOB_MAX]; /* as written: "variation.vth_sigma"            */
    dse_knob_kind kind;
    int section;                  /* DSE_KNOB_GLOBAL: index in dse__sections      */
    int key;                      /* index in its key table                       */
    char target[32];              /* technique or workload name; "" = all         */
    int n_values;                 /* grid values; sobol: enum/bool choices (or 0)  */
    double values[DSE_AXES_MAX_VALUES]; /* enums, bools: the value's index        */
    double low, high;             /* sobol: numeric range                          */
    bool log;                     /* sobol: sample log(value) uniformly            */
} dse_axis;

typedef struct dse_axes {
    dse_design design;
    int n_knobs;
    dse_axis knobs[DSE_AXES_MAX_KNOBS];
    int n_points; /* sobol: given; grid: the product of the value counts;
                     nsga2: population x generations */
    int line;     /* of the axes section, for messages */
    /* nsga2: generation 0 is the first `population` Sobol points; each next one comes
     * from the results of those before (dse/run/nsga2.c) */
    int population, generations;
    int technique;                /* index of the technique the objectives read */
    int n_objectives;
    dse_objective objectives[DSE_AXES_MAX_OBJECTIVES];
} dse_axes;

struct dse_sweep;

/* Points of the sweep's design: 0 without axes. */
int dse_axes_points(const struct dse_sweep *s);

/* The value of every knob at point k into v[n_knobs] (enums, bools: index).  A search
 * (nsga2) knows only generation 0 from the sweep: later points come from its results,
 * and this gives NaN for them. */
void dse_axes_point_values(const struct dse_sweep *s, int k, double *v);

/* The plain sweep of the knob values v[n_knobs] (as dse_axes_point_sweep). */
struct dse_sweep *dse_axes_values_sweep(const struct dse_sweep *s, const double *v);

/* A genome u in [0, 1] of knob j -> its value (the Sobol mapping: integers rounded,
 * enumerations uniform, log scale), and a value -> its genome (the inverse up to
 * rounding). */
double dse_axes_from_unit(const dse_axis *a, double u);
double dse_axes_to_unit(const dse_axis *a, double v);

/* Text of an objective: "p5 performance (max)". */
void dse_axes_objective_text(const dse_objective *o, char *buf, size_t n);

/* The plain sweep of point k: a copy of s without axes, each knob set to the point's
 * value.  Caller frees (dse_sweep_free); NULL when out of memory. */
struct dse_sweep *dse_axes_point_sweep(const struct dse_sweep *s, int k);

/* A knob's value as text ("0.12", "gto", "true"), as a sweep file writes it. */
void dse_axes_value_text(const dse_axis *a, double v, char *buf, size_t n);

/* The value a text gives (dse_axes_value_text's inverse): 0, or -1. */
int dse_axes_value_parse(const dse_axis *a, const char *text, double *v);

/* True when the knob's values are names (enums, bools): string coordinates. */
bool dse_axes_is_name(const dse_axis *a);

/* Writes the axes section (libconfig) so that it loads back identically; nothing
 * without axes. */
void dse_axes_write(const struct dse_sweep *s, FILE *out);

/* Prints one comment line per point: "# point K: knob = value, ...". */
void dse_axes_write_points(const struct dse_sweep *s, FILE *out);

bool dse_axes_equal(const dse_axes *a, const dse_axes *b);

#endif
