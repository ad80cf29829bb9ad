/* sweep_text.h - internal: the sweep file as text, before libconfig sees it.
 *
 * libconfig 1.5 (Debian's) has three ways to escape the one-line rule or the time
 * budget: an `@include` of a directory or an unreadable file makes its flex scanner
 * print "input in flex scanner failed" and exit(2) without a file name; a group's
 * duplicate-name check is linear, so a group of n keys parses in O(n^2) (20 000 keys:
 * 6 s); a string literal grows by realloc in small steps, O(n^2) (10 MB: 110 s).  So the
 * loader reads the file itself and this pre-scan refuses, with FILE:LINE, what would
 * reach those paths.  The limits are documented in docs/sweep-format.md.
 */
#ifndef RFDSE_DSE_SWEEP_TEXT_H
#define RFDSE_DSE_SWEEP_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define DSE_SWEEP_MAX_BYTES (1L << 20)  /* a sweep file: 1 MiB (the largest real one: ~80 KB) */
#define DSE_SWEEP_MAX_GROUP_KEYS 64     /* settings in one group (the largest section: 25) */
#define DSE_SWEEP_MAX_STRING 8192       /* bytes of one string value (output.file: 4000)  */
#define DSE_SWEEP_MAX_DEPTH 32          /* nesting of groups, lists and arrays           */

/* One line "FILE:LINE: key 'KEY': message" (no key part when key is NULL), control
 * characters escaped, to err if not NULL: the loader's and the axes reader's refusals. */
void dse__sweep_vfail(FILE *err, const char *file, int line, const char *key, const char *fmt,
                      va_list ap);

/* Reads a sweep file into a NUL-terminated malloc'ed string of *len bytes (which may
 * hold NUL bytes of its own: the pre-scan refuses them).  On failure (not a regular
 * file, unreadable, over DSE_SWEEP_MAX_BYTES) writes "FILE:0: ..." to err if not NULL. */
char *dse__sweep_read(const char *path, size_t *len, FILE *err);

/* Checks text (len bytes) against the limits above and refuses `@include` and NUL
 * bytes; on the first violation writes "FILE:LINE: ..." to err if not NULL, returns -1. */
int dse__sweep_prescan(const char *text, size_t len, const char *file, FILE *err);

#endif
