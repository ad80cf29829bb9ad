/* out.h - where rfdse writes (prefix out_): the rules every command that writes a file
 * follows, in one place.
 *
 *  - Only regular files are replaced.  A device, directory, FIFO, socket or symbolic
 *    link at an output path is refused with one line, never renamed over: as root,
 *    `-o /dev/full` would otherwise replace the device with a results file.
 *  - Output paths are at most OUT_PATH_MAX bytes, refused up front beyond that (never
 *    cut short), so the temporary ".partial"/".lock" names next to them fit PATH_MAX.
 *  - A results file that a run is writing carries an advisory lock (a "FILE.lock"
 *    beside it, holding who took it); a second writer is refused and told who.
 *
 * Depends on nothing of ours (POSIX only), so analysis/ and dse/ both use it. */
#ifndef RFDSE_OUT_H
#define RFDSE_OUT_H

#include <stddef.h>

/* Longest output path accepted (bytes, without the NUL): PATH_MAX (4096) less room
 * for the suffixes rfdse adds (".partial", ".lock", ".tmp.PID"). */
#define OUT_PATH_MAX 4000

/* 0 when `path` may be written: short enough, and absent or a regular file.
 * Otherwise -1 with one line in err ("PATH is a character device: ..."). */
int out_target_check(const char *path, char *err, size_t err_len);

/* What `path` is, in words ("a directory", "a character device", ...), or NULL when
 * it is a regular file or does not exist. */
const char *out_target_kind(const char *path);

/* 0 when `s` has no control characters (bytes below 0x20, or 0x7f); otherwise -1 and
 * *bad is the offset of the first one.  Values that reach a script or a one-line
 * message must pass this. */
int out_text_check(const char *s, size_t *bad);

/* The directory part of `path` into buf ("." for a bare name, "/" for "/x"). */
void out_dir_of(const char *path, char *buf, size_t n);

typedef struct out_lock out_lock;

/* Takes the advisory write lock of `path` (the file PATH.lock, an fcntl lock on it,
 * and "pid P on HOST since TIME: WHAT" written inside).  Never waits: when another
 * process holds it, returns NULL with one line in err naming the holder.  Also NULL
 * with err set when the lock file cannot be created. */
out_lock *out_lock_take(const char *path, const char *what, char *err, size_t err_len);

/* Removes the lock file and releases the lock; NULL is ignored. */
void out_lock_release(out_lock *lock);

/* Replaces the lock file's second line (the first is the holder's identity) with
 * `note`, one line: what the holder says of itself, its progress for `rfdse status`.
 * NULL is ignored; a failed write is ignored (the note is advice). */
void out_lock_note(out_lock *lock, const char *note);

/* Whether a process holds the lock of `path`, asked without taking it or waiting:
 * 1 held, 0 not (no lock file, or one left by a run that was killed), -1 cannot tell
 * (one line in buf).  For 1 and 0, buf receives the lock file's text (lines of the
 * holder: identity, note), control characters but line breaks replaced. */
int out_lock_query(const char *path, char *buf, size_t n);

/* Removes what a killed MPI-IO writer of `path` left beside it (Open MPI's shared file
 * pointer files PATH.data.N and PATH.metadata.N, regular files only).  Call it holding
 * the lock of `path`.  Returns how many were removed. */
int out_leftovers_remove(const char *path);

#endif
