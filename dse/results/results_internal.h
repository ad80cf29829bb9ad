/* results_internal.h - internal: the results file's datasets, shared by
 * results_file.c (create, resume) and results_write.c (collective writes). */
#ifndef RFDSE_DSE_RESULTS_INTERNAL_H
#define RFDSE_DSE_RESULTS_INTERNAL_H

#include <hdf5.h>

#include "ana_layout.h"
#include "dse_results.h"

/* The datasets: first one per unit metric (analysis/ana_metrics.h, in its order, so
 * dataset m is metric m), [chip][technique][year or benchmark]; then the others, in the
 * order of the file's layout (analysis/ana_layout.h; the trace datasets exist only with
 * trace chips). */
typedef enum {
#define DSE__DS_UNIT(name, ...) DSE__DS_##name,
    RFDSE_UNIT_METRICS(DSE__DS_UNIT)
#undef DSE__DS_UNIT
#define DSE__DS_FILE(name, ...) DSE__DS_##name,
    RFDSE_FILE_DATASETS(DSE__DS_FILE)
#undef DSE__DS_FILE
    DSE__DS_COUNT
} dse__ds;

typedef struct dse__ds_spec {
    const char *path;
    ana_shape shape;
    bool is_flag;            /* uint8 with fill 0, else float64 with fill NaN */
    const char *norm_attr;   /* "units" or "normalised_to"                    */
    const char *norm_value;
    const char *description;
    bool is_u64;             /* uint64 with fill 0 (the checksums)            */
} dse__ds_spec;

extern const dse__ds_spec dse__ds_specs[DSE__DS_COUNT];

struct dse_results {
    char path[DSE_PATH_MAX]; /* for messages */
    MPI_Comm comm;
    int rank;
    hid_t file;
    hid_t dxpl;
    hid_t dset[DSE__DS_COUNT];
    dse_dims dims;
    long n_damaged;          /* units --resume found damaged (checksum mismatch) */
    char damaged[1024];      /* which, for the note                              */
};

/* The size of dimension k of the file: dims' count (n_trace for ANA_DIM_trace). */
int dse__dim_size(const dse_dims *d, ana_dim k);

/* Values per row of a [chip]... shape: per (chip, technique) or per chip (1 for [chip],
 * [chip][t]; n_sms for [chip][sm]). */
int dse__shape_inner(const dse_dims *d, ana_shape shape);

/* Most dimensions of a dataset: [point] + 5 for the trace utilisation. */
#define DSE__MAX_RANK 6

/* Dimensions of a dataset of this shape, [point] first when the sweep has axes; returns
 * the rank (at most DSE__MAX_RANK). */
int dse__shape_dims(const dse_dims *d, ana_shape shape, hsize_t *dims);

/* Makes the datasets of /axes dimension scales (adding /axes/sm and /axes/sub_bank),
 * links them into the groups that use them and attaches them to every dataset
 * (results_scales.c).  Serial only: called on
 * the in-memory file rank 0 builds.  0 or -1. */
int dse__results_scales(hid_t file, const dse_dims *d);

/* With axes (after dse__results_scales): the dimension scale /axes/point (0..n_points-1)
 * attached to dimension 0 of every dataset, one coordinate dataset per knob
 * /axes/knob/KNOB[point], both linked into each dataset's group, and the knobs named in
 * each dataset's `coordinates` attribute, so xarray shows them as coordinates
 * (results_knobs.c).  Nothing without axes.  0 or -1. */
int dse__results_knobs(hid_t file, const dse_sweep *s, const dse_dims *d);

/* Builds a new results file at tmp (results_file.c): 0, an errno value, or -1. */
int dse__results_build(const char *tmp, const dse_results_of *of, const dse_dims *d);

/* Sweeps that grow (results_grow.c, collective): when the file at path was made by a
 * sweep that of->sweep extends (dse_sweep_extends), rank 0 rebuilds it for the grown
 * sweep, every finished unit copied to its place, and renames it over path; a file of
 * the same sweep is left alone.  0, or -1 with one line in err (a sweep that does not
 * extend the file's: the key and its two values). */
int dse__results_grow(const char *path, const dse_results_of *of, MPI_Comm comm,
                      bool force_revision, char *err, size_t n);

/* True for the trace datasets, which exist only when chips are traced. */
bool dse__ds_is_trace(int ds);

#endif
