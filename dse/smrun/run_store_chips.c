/* Chips kept in the run store's directory (dse_run_store.h, var_chip_keep in var.h): a
 * later process of the same binary loads a chip instead of generating it (14 ms of CPU
 * at the default floorplan, every chip of every sweep that shares the chips).
 *
 * A chip is the file DIR/NAME.chip, NAME the first 16 bytes of SHA-256 over the binary's
 * identity and the chip's id (every input of its values: var.h), in hex: another binary,
 * other knobs, another seed or chip never find it.  The file: header (64 bytes):
 * "rfdse chip\n", version, byte order, parts, NAME's 16 bytes again, the payload's
 * bytes, the payload's check, the header's check (the first 8 bytes of SHA-256 of the
 * 56 before it); then the parts' doubles one after the other.  The payload's check is
 * check64 below, not SHA-256: 4.7 MiB at SHA-256's 300 MB/s would cost more than
 * generating the chip; it is there against damage (a torn or truncated file, a bad
 * disk block), not against anyone, and the name already binds the contents to their
 * inputs.  A file of the wrong size, a header or payload that fails its check is not
 * used: the chip is generated and the file replaced (one warning line).
 *
 * Written under a hidden name of its own (host and pid) and renamed, so a reader meets a
 * whole file or none; ranks or jobs (NFS too: the writer closes before the rename) that
 * make the same chip at once write the same bytes, and the last rename wins.  Only chips
 * with index < the cap are read or written (docs/driver.md, "Chips in the run store"). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dse_run_store.h"

#define MAGIC "rfdse chip\n\0\0\0\0\0"
#define VERSION 1u
#define ORDER 0x01020304u
#define HEAD 64
#define MAX_PARTS 8
#define PATH_MAX_ 4400

/* A checksum of n 64-bit words: four lanes, each step h = rotl(h ^ w, 29) * K, a
 * bijection of h for a given word and of the word for a given h, so one damaged word
 * always changes its lane; the lanes overlap in the pipeline (8 bytes a cycle or so). */
#define K1 0x9e3779b97f4a7c15ULL
#define K2 0xc2b2ae3d27d4eb4fULL
static uint64_t rotl(uint64_t x, int r) { return x << r | x >> (64 - r); }

static void check64_add(uint64_t h[4], const double *v, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint64_t w[4];
        memcpy(w, v + i, sizeof w);
        for (int j = 0; j < 4; j++)
            h[j] = rotl(h[j] ^ w[j], 29) * K1;
    }
    for (; i < n; i++) {
        uint64_t w;
        memcpy(&w, v + i, sizeof w);
        h[0] = rotl(h[0] ^ w, 29) * K1;
    }
    h[1] = rotl(h[1] ^ n, 29) * K1; /* where one part ends and the next starts */
}

static uint64_t check64(const double *const *part, const size_t *n, int n_parts)
{
    uint64_t h[4] = { K1, K2, ~K1, ~K2 }, out = 0;
    for (int i = 0; i < n_parts; i++)
        check64_add(h, part[i], n[i]);
    for (int j = 0; j < 4; j++) {
        uint64_t x = h[j];
        x ^= x >> 31, x *= K2, x ^= x >> 29;
        out = rotl(out, 17) ^ x;
    }
    return out;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }


/* The header of a chip file: 0 magic, 16 version, 20 byte order, 24 parts, 28 zero,
 * 32 key (NAME's 16 bytes), 48 payload check, 56 header check (of bytes 0-55).  The
 * payload's size is the parts' (the id fixes them), checked against the file's. */
static void header(uint8_t *h, const uint8_t *key, int n_parts, uint64_t check)
{
    memset(h, 0, HEAD);
    memcpy(h, MAGIC, 16);
    put32(h + 16, VERSION);
    put32(h + 20, ORDER);
    put32(h + 24, (uint32_t)n_parts);
    memcpy(h + 32, key, DSE_RUN_STORE_ID);
    put64(h + 48, check);
    dse__sha256_check(h, HEAD - 8, h + HEAD - 8);
}

static bool read_all(int fd, void *p, size_t n, uint64_t at)
{
    uint8_t *b = p;
    while (n) {
        ssize_t got = pread(fd, b, n, (off_t)at);
        if (got <= 0)
            return false;
        b += got, n -= (size_t)got, at += (uint64_t)got;
    }
    return true;
}

static bool write_all(int fd, const void *p, size_t n, uint64_t at)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t put = pwrite(fd, b, n, (off_t)at);
        if (put <= 0)
            return false;
        b += put, n -= (size_t)put, at += (uint64_t)put;
    }
    return true;
}

static void warn_damaged(dse_run_store *st, const char *path, const char *what)
{
    FILE *w = dse__run_store_warn(st);
    if (w)
        fprintf(w, "rfdse: warning: run store %s: %s, the chip generated again\n", path, what);
}

/* The parts from the file, checked; what is wrong with it otherwise (NULL: missing). */
static bool read_chip(int fd, const uint8_t *key, double *const *part, const size_t *n,
                      int n_parts, const char **bad)
{
    uint8_t h[HEAD], want[HEAD];
    uint64_t size = HEAD;
    struct stat sb;
    for (int i = 0; i < n_parts; i++)
        size += 8 * (uint64_t)n[i];
    *bad = "not a chip file of this size";
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || (uint64_t)sb.st_size != size ||
        !read_all(fd, h, HEAD, 0))
        return false;
    uint64_t at = HEAD, check;
    for (int i = 0; i < n_parts; i++) {
        if (!read_all(fd, part[i], 8 * n[i], at))
            return false;
        at += 8 * (uint64_t)n[i];
    }
    check = check64((const double *const *)part, n, n_parts);
    header(want, key, n_parts, check);
    *bad = "damaged chip file (header or contents fail their check)";
    return !memcmp(h, want, HEAD);
}

static int load(void *arg, const uint8_t *id, size_t id_len, int64_t chip, double *const *part,
                const size_t *n, int n_parts)
{
    dse_run_store *st = arg;
    dse__chip_files *cf = dse__run_store_chip_files(st);
    char path[PATH_MAX_];
    uint8_t key[DSE_RUN_STORE_ID];
    if (chip >= cf->cap || n_parts > MAX_PARTS)
        return 0;
    dse__run_store_path(st, id, id_len, "chip", key, path, sizeof path);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0; /* not kept yet (or removed): generated and saved */
    const char *bad;
    bool ok = read_chip(fd, key, part, n, n_parts, &bad);
    close(fd);
    if (!ok)
        warn_damaged(st, path, bad);
    cf->loaded += ok;
    return ok;
}

static void save(void *arg, const uint8_t *id, size_t id_len, int64_t chip,
                 const double *const *part, const size_t *n, int n_parts)
{
    dse_run_store *st = arg;
    dse__chip_files *cf = dse__run_store_chip_files(st);
    char path[PATH_MAX_], tmp[PATH_MAX_ + 64];
    uint8_t key[DSE_RUN_STORE_ID], h[HEAD];
    if (chip >= cf->cap || cf->failed || n_parts > MAX_PARTS)
        return;
    dse__run_store_path(st, id, id_len, "chip", key, path, sizeof path);
    int fd = dse__run_store_open_temp(path, tmp, sizeof tmp);
    bool ok = fd >= 0;
    header(h, key, n_parts, check64(part, n, n_parts));
    uint64_t at = HEAD;
    ok = ok && write_all(fd, h, HEAD, 0);
    for (int i = 0; ok && i < n_parts; at += 8 * (uint64_t)n[i], i++)
        ok = write_all(fd, part[i], 8 * n[i], at);
    if (fd >= 0)
        ok = !close(fd) && ok;
    if (ok && !rename(tmp, path)) {
        cf->saved++;
        return;
    }
    int e = errno;
    if (fd >= 0)
        unlink(tmp);
    cf->failed = true; /* a full disk: said once, the run goes on */
    FILE *w = dse__run_store_warn(st);
    if (w)
        fprintf(w, "rfdse: warning: run store %s: cannot write a chip (%s): chips are no "
                   "longer kept by this process\n", dse__run_store_dir(st), strerror(e));
}

void dse_run_store_chips(dse_run_store *st, var_chip_keep *k)
{
    *k = (var_chip_keep){ .load = load, .save = save, .arg = st };
}
