/* results_internal.h - internal: the results file's datasets, shared by
 * results_file.c (create, resume) and results_write.c (collective writes). */
#ifndef RFDSE_DSE_RESULTS_INTERNAL_H
#define RFDSE_DSE_RESULTS_INTERNAL_H

#include <hdf5.h>

#include "dse_results.h"

/* The datasets: first one per unit metric (analysis/ana_metrics.h, in its order, so
 * dataset m is metric m), [chip][technique][year or benchmark]; then the others. */
typedef enum {
#define DSE__DS_UNIT(name, ...) DSE__DS_##name,
    RFDSE_UNIT_METRICS(DSE__DS_UNIT)
#undef DSE__DS_UNIT
    DSE__DS_SM_FREQUENCY, DSE__DS_WITHIN_SM, DSE__DS_SM_TO_SM, /* [chip][...]            */
    DSE__DS_DONE, DSE__DS_CHECKSUM,                           /* [chip][technique]      */
    DSE__DS_TRACE_DELAY, DSE__DS_TRACE_SLOW, DSE__DS_TRACE_UTIL, /* [trace][technique]..., */
    DSE__DS_COUNT                                                /* only with trace chips  */
} dse__ds;

/* Shapes: the last dimension after [chip] or [chip][technique]. */
typedef enum {
    DSE__SHAPE_CTY, DSE__SHAPE_CTB, DSE__SHAPE_CS, DSE__SHAPE_C, DSE__SHAPE_CT,
    DSE__SHAPE_TTYS,  /* [trace][technique][year][sub-bank]            */
    DSE__SHAPE_TTBYS  /* [trace][technique][benchmark][year][sub-bank] */
} dse__shape;

typedef struct dse__ds_spec {
    const char *path;
    dse__shape shape;
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

/* Length of the last dimension of a dataset of this shape (1 for [chip], [chip][t]). */
int dse__shape_inner(const dse_dims *d, dse__shape shape);

/* Dimensions of a dataset of this shape; returns the rank (at most 5). */
int dse__shape_dims(const dse_dims *d, dse__shape shape, hsize_t *dims);

/* Makes the datasets of /axes dimension scales (adding /axes/sm and /axes/sub_bank),
 * links them into the groups that use them and attaches them to every dataset
 * (results_scales.c).  Serial only: called on
 * the in-memory file rank 0 builds.  0 or -1. */
int dse__results_scales(hid_t file, const dse_dims *d);

/* True for the trace datasets, which exist only when chips are traced. */
bool dse__ds_is_trace(int ds);

#endif
