/* ana_h5.h - rfdse's one HDF5 helper layer: the results file's writer (dse/results/, the
 * run summary, rfdse validate) and its readers (analysis/) both use it, so an attribute
 * is written and read one way (docs/architecture.md, "Modules and dependencies").
 * Every function has one exit; handles start invalid and only opened ones are closed
 * (HDF5 src/H5Pdxpl.c style).  Readers return ANA_EOK or an ana_err code; writers 0 or
 * -1. */
#ifndef RFDSE_ANA_H5_H
#define RFDSE_ANA_H5_H

#include <hdf5.h>
#include <mpi.h>

#include "ana.h"

/* ---- reading ----------------------------------------------------------------------- */

/* Opens path read-only (or read-write) with the HDF5 error stack silenced: a file that is
 * not HDF5 is an expected outcome.  A negative handle when it cannot. */
hid_t ana_h5_open(const char *path, int writable);

/* True if the link path (absolute, may be nested) exists and names an object. */
int ana_h5_exists(hid_t file, const char *path);

/* Rank and dimensions of a dataset (at most 8); ANA_ECORRUPT if unreadable. */
int ana_h5_shape(hid_t file, const char *path, int *rank, hsize_t dims[8]);

/* Reads a whole dataset converted to double / int / uint8; buf must be large enough. */
int ana_h5_read_double(hid_t file, const char *path, double *buf);
int ana_h5_read_int(hid_t file, const char *path, int *buf);
int ana_h5_read_u8(hid_t file, const char *path, uint8_t *buf);

/* Reads a 1-D dataset of strings (fixed or variable length) into names[n]. */
int ana_h5_read_names(hid_t file, const char *path, ana_name *names, int n);

/* A string attribute of the object at obj_path (fixed or variable length), truncated
 * to size - 1.  ANA_ENOTRFDSE when absent. */
int ana_h5_attr_string(hid_t file, const char *obj_path, const char *name, char *buf,
                       size_t size);
/* A numeric attribute read as double; ANA_ENOTRFDSE when absent. */
int ana_h5_attr_double(hid_t file, const char *obj_path, const char *name, double *v);
/* A string attribute of obj, whole, in a malloc'ed buffer; NULL when absent or not a
 * string (sweep_config has no length limit). */
char *ana_h5_attr_dup(hid_t obj, const char *name);

/* ---- writing ----------------------------------------------------------------------- */

/* Scalar attributes, replacing one of the same name (collective in parallel HDF5: every
 * rank calls with the same value).  A string is fixed-length and null-terminated, or
 * variable-length beyond what an object header holds (ana_h5_set_str). */
int ana_h5_set_str(hid_t obj, const char *name, const char *value);
int ana_h5_set_double(hid_t obj, const char *name, double value);
int ana_h5_set_int(hid_t obj, const char *name, int value);
int ana_h5_set_u64(hid_t obj, const char *name, unsigned long long value);

/* A dataset of rank dims with the given memory type (stored little-endian), and its
 * description and units (units "normalised_to=X" writes that attribute instead).
 * ANA_EOK or ANA_EIO. */
int ana_h5_write(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims,
                 const void *buf, const char *description, const char *units);

/* Fixed-length strings of datasets: parallel HDF5 cannot write variable-length data. */
#define ANA_H5_STR_LEN 32
/* The fixed-length, null-padded string type of ANA_H5_STR_LEN (caller closes). */
hid_t ana_h5_str_type(void);

/* ---- parallel I/O (the writer's) ---------------------------------------------------- */

/* A file-access list for MPI-IO on comm with collective metadata operations. */
hid_t ana_h5_fapl_mpio(MPI_Comm comm);
/* A transfer list for independent raw-data I/O: a rank's write failure stays its own
 * and returns, instead of leaving the other ranks inside a collective call; the
 * caller agrees on the outcome (dse/results/results_write.c). */
hid_t ana_h5_dxpl_independent(void);

/* Free bytes (for unprivileged users) on the file system of path's directory, or -1. */
double ana_h5_free_bytes(const char *path);

#endif
