/* ana_checksum.h - the per-unit checksums of a results file (docs/results-format.md,
 * "/progress/checksum"): written by `rfdse run` (dse/results/results_write.c), verified
 * by `rfdse analyze`, by `rfdse run --resume` (which recomputes damaged units) and by
 * anything else that reads a results file and wants to know its numbers are the ones
 * that were written.
 *
 * A unit's checksum is FNV-1a (64 bit) over, in this order: its row of every /results
 * dataset of the metric list (ana_metrics.h, in the list's order; those the file has),
 * its chip's rows of /chips/sm_frequency, /chips/within_sm_ratio and
 * /chips/sm_to_sm_ratio, and, for a traced chip, its blocks of /chips/trace/
 * sub_bank_delay, sub_bank_slow and sub_bank_utilisation: float64 values as their 8
 * little-endian bytes (the file's own), flags as one byte each.  FNV-1a changes its
 * state bijectively with every byte, so any one changed byte changes the checksum. */
#ifndef RFDSE_ANA_CHECKSUM_H
#define RFDSE_ANA_CHECKSUM_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ANA_CHECKSUM_START 14695981039346656037ull /* FNV-1a's offset basis */

/* The checksum h continued over n doubles (as their little-endian bytes) or n bytes. */
uint64_t ana_checksum_doubles(uint64_t h, const double *v, size_t n);
uint64_t ana_checksum_bytes(uint64_t h, const uint8_t *v, size_t n);

/* Verifies the units of rows [lo, hi) of an open results file whose done[row * T +
 * technique] is set (T techniques): bad[row * T + technique] = 1 where the stored
 * checksum is not the values' (others are left as they are).  A row is a chip, or in a
 * file with design points (a leading point dimension, /progress/checksum [point][chip]
 * [technique]) a (point, chip): row = point * n_chips + chip, the order of
 * /progress/done.  Reads blocks of chips (of one point) with `dxpl` (H5P_DEFAULT, or an
 * MPI-IO transfer list), so memory stays bounded whatever the chip and point counts.
 * Returns ANA_EOK, ANA_ENOTRFDSE when the file has no /progress/checksum (written before
 * checksums existed: nothing to verify), ANA_ENOMEM, or ANA_ECORRUPT when a dataset
 * cannot be read. */
int ana_checksum_verify(hid_t file, hid_t dxpl, int lo, int hi, const uint8_t *done,
                        uint8_t *bad);

/* "chip 3 baseline, chip 7 vl_rf and 2 more" for the units bad[] marks (n_chips x
 * n_tech, technique names from /axes/technique of `file`) into buf; with design points
 * (n_points > 0; bad[] is then n_points x n_chips x n_tech) "point 3 chip 0 pv_opt, ...".
 * Returns how many are marked. */
long ana_checksum_describe(hid_t file, int n_points, int n_chips, int n_tech,
                           const uint8_t *bad, char *buf, size_t n);

/* The whole check of a results file by name (read-only, without taking its lock, so it
 * works on a file a run is writing: units not yet marked done are not checked).  Returns
 * the number of damaged units, with "N damaged units (checksum mismatch): chip 3
 * baseline, ..." in msg when there are any; 0 when none or when the file predates
 * checksums; -1 with msg set when the file cannot be read.  For `rfdse status` and
 * `rfdse analyze`. */
long ana_results_damaged(const char *path, char *msg, size_t n);

#endif
