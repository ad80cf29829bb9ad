/* h5util.h - internal: small HDF5 helpers shared by the results-file code. */
#ifndef RFDSE_DSE_H5UTIL_H
#define RFDSE_DSE_H5UTIL_H

#include <hdf5.h>
#include <mpi.h>
#include <stdbool.h>

/* Fixed-length strings: parallel HDF5 cannot write variable-length data. */
#define DSE__H5_STR_LEN 32

/* Attributes (collective in parallel HDF5: every rank calls with the same value). */
int dse__h5_attr_str(hid_t obj, const char *name, const char *value);
int dse__h5_attr_double(hid_t obj, const char *name, double value);
int dse__h5_attr_int(hid_t obj, const char *name, int value);
int dse__h5_attr_u64(hid_t obj, const char *name, unsigned long long value);
/* Reads a string attribute into a malloc'ed buffer, or NULL. */
char *dse__h5_attr_read_str(hid_t obj, const char *name);

/* A file-access list for MPI-IO on comm with collective metadata operations. */
hid_t dse__h5_fapl_mpio(MPI_Comm comm);
/* A transfer list for independent raw-data I/O: a rank's write failure stays its own
 * and returns, instead of leaving the other ranks inside a collective call; the
 * caller agrees on the outcome (results_write.c). */
hid_t dse__h5_dxpl_independent(void);

/* Free bytes (for unprivileged users) on the file system of path's directory, or -1. */
double dse__h5_free_bytes(const char *path);

/* The fixed-length string type (caller closes). */
hid_t dse__h5_str_type(void);

#endif
