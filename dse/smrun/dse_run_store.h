/* dse_run_store.h - SM runs kept on disk, for later processes (`rfdse run --run-store DIR`,
 * docs/driver.md "The run store").
 *
 * The run cache (dse_sim_cache.h) reuses runs inside one process; the store hands the
 * runs one process simulated to the next: a later sweep with the same chips, a re-run,
 * a resumed or grown sweep, another Slurm job.  A record is the result of one run under
 * a 128-bit key: the first 16 bytes of SHA-256 over this executable's identity and the
 * run cache's complete key of the run, so a record is found only by the same model code
 * with the same inputs (the collision argument is in docs/driver.md).
 *
 * On disk: DIR holds one file per process that simulated something (HOST-PID-rRANK-
 * TIME.runs), written by that process alone, appended a segment at a time, each with
 * checksums; nothing is locked, so ranks and jobs on other nodes (NFS) share one DIR.
 * A segment holds the runs simulated while one chip (seed, chip) was evaluated, or the
 * "shared" runs that more than one chip used (the ideal chip, baseline, rf_bro's fixed
 * patterns).  A process indexes the segments of the files present when it opens the
 * store, keeps the shared runs in memory, and reads a chip's segments when it starts
 * that chip: memory grows with the runs of one chip, not with the store.
 */
#ifndef RFDSE_DSE_RUN_STORE_H
#define RFDSE_DSE_RUN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "var.h"

typedef struct dse_run_store dse_run_store;

#define DSE_RUN_STORE_ID 16 /* bytes of a binary identity and of a record's key */

/* The identity of this executable's model code: SHA-256 of /proc/self/exe's bytes and of
 * the C library's version (libm's exp, log, pow come with it).  0, or -1 with err set. */
int dse_run_store_binary_id(uint8_t id[DSE_RUN_STORE_ID], char *err, size_t n);

/* Opens (creating it if missing) the store in `dir` for a process of binary `id`; `rank`
 * names the file it will write.  Files of other binaries are skipped; a damaged or
 * foreign file gets one line on `warn` (NULL: silent), at open from rank 0 only, and is
 * otherwise ignored.  NULL with err set when dir cannot be made or read. */
dse_run_store *dse_run_store_open(const char *dir, const uint8_t id[DSE_RUN_STORE_ID], int rank,
                                  FILE *warn, char *err, size_t n);
/* Writes what is pending and frees; NULL is a no-op. */
void dse_run_store_close(dse_run_store *st);

/* The chip whose runs come next: writes the previous chip's, reads this one's. */
void dse_run_store_chip(dse_run_store *st, uint64_t seed, int chip);

/* A run's key in the store, from the run cache's key of `len` bytes. */
void dse_run_store_key(const dse_run_store *st, const uint8_t *key, size_t len,
                       uint8_t h[DSE_RUN_STORE_ID]);

/* SHA-256 for the store (sha256.c). */
typedef struct dse__sha256 {
    uint32_t h[8];
    uint64_t bytes;
    uint8_t buf[64];
    size_t fill;
    bool ni; /* the processor's SHA extensions take the blocks (set by init) */
} dse__sha256;

/* The same key in two steps, for keys that share a long prefix (the run cache's inputs):
 * start hashes the prefix into *at once; finish continues a copy of it over the rest.
 * dse_run_store_key(key) == finish(start(key[0, p)), key[p, len)) for any p. */
void dse_run_store_key_start(const dse_run_store *st, const uint8_t *prefix, size_t len,
                             dse__sha256 *at);
void dse_run_store_key_finish(const dse__sha256 *at, const uint8_t *rest, size_t len,
                              uint8_t h[DSE_RUN_STORE_ID]);

/* Where dse_run_store_get found a run. */
enum { DSE_RUN_STORE_NONE, DSE_RUN_STORE_CHIP, DSE_RUN_STORE_SHARED };

/* The n values stored under key h, into v: DSE_RUN_STORE_NONE (v untouched), or where
 * they were found (the current chip's runs or the shared ones). */
int dse_run_store_get(dse_run_store *st, const uint8_t h[DSE_RUN_STORE_ID], double *v, size_t n);

/* Keeps n values under key h: with the current chip's runs, or `shared` (found useful
 * on more than one chip: kept in memory, read by every later process at open).  A
 * write that fails is said once and storing stops: the run goes on. */
void dse_run_store_put(dse_run_store *st, const uint8_t h[DSE_RUN_STORE_ID], const double *v,
                       size_t n, bool shared);

/* The variation model's tables kept beside the runs (run_store_tables.c): callbacks
 * for var_chip_alloc_tables and var_cache_alloc_tables that load a table this binary
 * saved in the store's directory, or save the one just built.  st stays the caller's and
 * must outlive every use of tc. */
void dse_run_store_tables(dse_run_store *st, var_table_cache *tc);
/* The store's directory and binary identity, for run_store_tables.c. */
const char *dse__run_store_dir(const dse_run_store *st);
const uint8_t *dse__run_store_id(const dse_run_store *st);
/* DIR/NAME.EXT of the object named id (a table's or a chip's) into path, NAME the first
 * DSE_RUN_STORE_ID bytes of SHA-256 over (the binary's identity, id) in hex; those bytes
 * into key too unless key is NULL. */
void dse__run_store_path(const dse_run_store *st, const uint8_t *id, size_t id_len,
                         const char *ext, uint8_t *key, char *path, size_t n);
/* Opens the hidden temporary DIR/.NAME.HOST-PID.tmp of path DIR/NAME for writing (its
 * name into tmp), to be renamed to path when whole; -1 if it cannot be made. */
int dse__run_store_open_temp(const char *path, char *tmp, size_t n);

/* Chips kept beside the runs (run_store_chips.c, docs/driver.md "Chips in the run
 * store"): callbacks for var_chip_generate_kept that load a chip this binary saved in
 * the store's directory, or save the one just generated, for chips whose index is below
 * the store's cap; chips at or above it are neither read nor written.  A chip is the
 * file DIR/NAME.chip, NAME the first 16 bytes of SHA-256 over the binary's identity and
 * the chip's id (var.h), 4.7 MiB at the default floorplan.  st stays the caller's and must
 * outlive every use of k. */
#define DSE_RUN_STORE_CHIPS 256 /* the cap when not set: about 1.2 GiB per chip population */
void dse_run_store_chips(dse_run_store *st, var_chip_keep *k);
/* The cap (0: no chip kept; at most 2^32); DSE_RUN_STORE_CHIPS until set. */
void dse_run_store_set_chip_cap(dse_run_store *st, long cap);
/* The chip files' state inside the store, for run_store_chips.c. */
typedef struct dse__chip_files {
    long cap;         /* chips with index < cap are kept                        */
    bool failed;      /* a write failed (said once): no more chips are written   */
    long loaded, saved; /* chips read from and written to the store so far        */
} dse__chip_files;
dse__chip_files *dse__run_store_chip_files(dse_run_store *st);
/* The store's warning stream (NULL: silent), for run_store_chips.c. */
FILE *dse__run_store_warn(const dse_run_store *st);

void dse__sha256_init(dse__sha256 *s);
void dse__sha256_add(dse__sha256 *s, const void *data, size_t n);
void dse__sha256_end(dse__sha256 *s, uint8_t out[32]);
/* The first 8 bytes of SHA-256(p, n): the checksum of a store record or table file. */
void dse__sha256_check(const void *p, size_t n, uint8_t out[8]);

#endif
