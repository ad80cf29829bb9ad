/* dse_results.h - the results file (HDF5 layout of interface.md, docs/results-format.md).
 *
 * Written with parallel HDF5 by every rank of the run.  Crash safety rests on one
 * property: every dataset is created up front, contiguous, with early allocation and
 * its fill value (NaN, or 0 for /progress/done), and the file is flushed before
 * anything is computed.  After that, writing results changes raw data only, never
 * metadata, so a process killed at any moment leaves a file whose metadata is intact;
 * /progress/done is written (and flushed) only after the results it vouches for.
 */
#ifndef RFDSE_DSE_RESULTS_H
#define RFDSE_DSE_RESULTS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "ana_metrics.h"
#include "dse_sweep.h"

typedef struct dse_results dse_results;

typedef struct dse_dims {
    int n_points; /* design points (docs/sweep-format.md, "Axes over knobs"); 0: a plain
                     sweep, whose datasets have no point dimension */
    int n_chips, n_techniques, n_benchmarks, n_years, n_sms;
    int n_trace, n_subs; /* traced chips (output.trace_chips); sub-banks per SM */
} dse_dims;

void dse_dims_of(const dse_sweep *s, dse_dims *d);

/* Rows of /progress/done: points (1 without axes) x chips x techniques. */
long dse_dims_units(const dse_dims *d);

/* Points with at least one: 1 without axes. */
int dse_dims_points(const dse_dims *d);

/* The results of one (chip, technique) unit: arrays laid out as in the file.  One
 * array per metric of analysis/ana_metrics.h (frequency, ipc, performance, ...), of
 * n_years or n_benchmarks values as the metric's axis says. */
typedef struct dse_unit {
    int point, chip, technique; /* point: 0 without axes */
#define DSE__UNIT_FIELD(name, ...) double *name;
    RFDSE_UNIT_METRICS(DSE__UNIT_FIELD)
#undef DSE__UNIT_FIELD
    /* A look inside SM 0, for traced chips only (trace >= 0: the index in
     * output.trace_chips): per year and sub-bank. */
    int trace;
    double *trace_delay;   /* [n_years][n_subs] normalised sub-bank delay          */
    uint8_t *trace_slow;   /* [n_years][n_subs] 1 = classified slow                */
    double *trace_util;    /* [n_benchmarks][n_years][n_subs] stress duty          */
} dse_unit;

/* The unit metrics, in the order of the list; the array of metric m of u, where u keeps
 * it (to set it), whether its axis is the year (else the benchmark) and its length
 * (n_years or n_benchmarks).  results_unit.c. */
enum {
#define DSE__UNIT_ENUM(name, ...) DSE_METRIC_##name,
    RFDSE_UNIT_METRICS(DSE__UNIT_ENUM)
#undef DSE__UNIT_ENUM
    DSE_N_METRICS
};
double *dse_unit_metric(const dse_unit *u, int m);
double **dse_unit_metric_slot(dse_unit *u, int m);
bool dse_unit_metric_by_year(int m);
int dse_unit_metric_len(const dse_dims *d, int m);

/* Per-chip data independent of the technique. */
typedef struct dse_chip_info {
    int point, chip;
    double *sm_frequency;    /* [n_sms] */
    double *within_sm_ratio; /* [n_sms] */
    double sm_to_sm_ratio;
} dse_chip_info;

/* What a results file holds: `sweep` as given (its sweep_config attribute, which
 * resume compares), `stored` the part on its axes (the sweep itself, or the techniques
 * and workloads `rfdse run --techniques/--workloads` kept, dse_sweep_select), and
 * `selection` those options as text ("" for the whole sweep; the selection attribute). */
typedef struct dse_results_of {
    const dse_sweep *sweep, *stored;
    const char *selection;
} dse_results_of;

/* Creates a new results file at `path` (collective).  Rank 0 builds the file with
 * serial HDF5 under a temporary name (PATH.partial) and renames it into place only when
 * complete, so a crash or a full disk leaves no half-made results file and no rank
 * waiting in a collective call.  Fails if `path` exists and !force, if it is not a
 * regular file, or if its file system has less room than the file's raw data.  On error
 * returns NULL with one line in err and the exit status in *status (2 bad target, 1
 * failure). */
dse_results *dse_results_create(const char *path, const dse_results_of *of, bool force,
                                MPI_Comm comm, char *err, size_t err_len, int *status);

/* Opens an interrupted results file to resume it (collective): checks that it is an
 * rfdse results file of the same sweep and seed and the same selection (a file of
 * techniques a,b resumed as b,c would put c's values in a's place), computed by this
 * git revision (or force_revision: then this revision joins the file's git_revisions if
 * work is left); reads /progress/done into done[(point * n_chips + chip) * n_techniques +
 * technique], clearing the units whose checksum fails (dse_results_damaged).  When work is
 * left it deletes /analysis, which `rfdse analyze` computed from the results as they were. */
dse_results *dse_results_resume(const char *path, const dse_results_of *of, MPI_Comm comm,
                                bool force_revision, uint8_t *done, char *err, size_t err_len);

/* After dse_results_resume: the finished units whose checksum did not match their
 * values (silent corruption of the file), which it marked not done so the run computes
 * them again; NULL when there were none, else "chip 3 baseline, ..." and *n. */
const char *dse_results_damaged(const dse_results *r, long *n);

/* Writes this rank's finished units and chips (collective: every rank calls it, with
 * n = 0 when it has nothing), flushes, then marks the units done and flushes again.
 * Raw data is written independently and the ranks agree on the outcome after every
 * step, so a failure on any rank (a full disk) returns -1 on every rank, with one line
 * in err naming the file, the failing rank and the cause, before anything else
 * collective happens.  Units and chips need not be sorted. */
int dse_results_write(dse_results *r, dse_unit *units, int n_units, dse_chip_info *chips,
                      int n_chips, char *err, size_t err_len);

/* A search (design = "nsga2"): writes the knob values v[n][n_knobs] of points
 * first..first+n-1 into their coordinates /axes/knob/KNOB, flushed (collective: every
 * rank passes the same values; results_knobs.c). */
int dse_results_write_knobs(dse_results *r, const dse_sweep *s, int first, int n,
                            const double *v);

/* Reads the knob values of every point from the file's coordinates into v[P][n_knobs]
 * (NaN for a search's points not drawn yet); every rank, independently. */
int dse_results_read_knobs(dse_results *r, const dse_sweep *s, double *v);

/* Reads metric m of points first..first+n-1: [n][chips][techniques][its axis], every
 * rank independently. */
int dse_results_read_metric(dse_results *r, int m, int first, int n, double *out);

/* Serial (one process, the file closed elsewhere): the knob values of design point
 * `point` of the results file at path, as recorded in its coordinates, into
 * v[n_knobs].  0, or -1 (not drawn yet: a search stopped before it). */
int dse_results_point_values(const char *path, const dse_sweep *s, int point, double *v);

/* Closes the file (collective); NULL is ignored. */
void dse_results_close(dse_results *r);

#endif
