/* The run store on disk (see dse_run_store.h): files of segments of records, and the two
 * tables a process looks runs up in, the shared runs (all in memory) and the current
 * chip's (read when the chip starts).
 *
 * A file:    header (48 bytes): "rfdse run store\n", version, byte order, binary id,
 *            check; then segments, each written by one write() at the end of a chip.
 * A segment: header (48 bytes): magic, records, payload bytes, seed, chip (-1: shared),
 *            payload check, header check; then the payload, its records one after the
 *            other.
 * A record:  key (16 bytes), values the run has, values written (trailing values whose
 *            bits are all zero are left out: a run without a register-file cache has 64
 *            zero cache-bank duties), the values as written (native doubles).
 * Checks are the first 8 bytes of SHA-256.  Files are read with pread and written by
 * their one owner; a file is made under a hidden name and renamed when its header and
 * first segments are written, so a reader never meets a file without its header. */
#ifdef __linux__
#include <gnu/libc-version.h>
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dse_run_store.h"

#define FILE_MAGIC "rfdse run store\n"
#define VERSION 1u
#define ORDER 0x01020304u /* read back otherwise: a file of a host of another byte order */
#define SEG_MAGIC 0x52534547u
#define HEAD 48           /* bytes of a file header and of a segment header */
#define REC_HEAD (DSE_RUN_STORE_ID + 8)
#define MAX_VALUES (1u << 16)
#define PENDING_MAX ((size_t)8 << 20) /* a chip's runs written early past this */
#define PATH_LEN 4096

typedef struct segment {
    uint64_t seed;
    int64_t chip;
    uint64_t at, size; /* of the payload in the file */
    uint32_t file;
    bool bad;          /* its payload failed its check once: not read again */
} segment;

/* Open addressing over records (pointers to their bytes), by the key's first 8 bytes. */
typedef struct table {
    const uint8_t **rec;
    size_t mask, used;
} table;

typedef struct buffer {
    uint8_t *p;
    size_t len, cap;
    uint32_t records;
} buffer;

struct dse_run_store {
    char dir[PATH_LEN];
    uint8_t id[DSE_RUN_STORE_ID];
    int rank;
    FILE *warn;
    char **file;            /* [n_files]: the files indexed, this process's own last */
    uint32_t n_files;
    segment *seg;           /* chip segments: [0, n_sorted) by (seed, chip), then own */
    size_t n_seg, cap_seg, n_sorted;
    table shared, chip;
    uint8_t **blocks;       /* memory the tables point into: shared ones first */
    size_t n_blocks, cap_blocks, n_shared_blocks;
    uint64_t seed;
    int64_t chip_now;       /* -1: none yet */
    buffer pending[2];      /* runs to write: [0] the chip's, [1] shared */
    buffer out;             /* a write's bytes */
    int fd;                 /* own file, -1 until the first write */
    uint64_t own_size;
    bool write_failed;
    dse__chip_files chips;  /* chip files (run_store_chips.c) */
};

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static bool check_ok(const void *p, size_t n, const uint8_t *want)
{
    uint8_t c[8];
    dse__sha256_check(p, n, c);
    return !memcmp(c, want, 8);
}

/* ---- identity ------------------------------------------------------------------- */

int dse_run_store_binary_id(uint8_t id[DSE_RUN_STORE_ID], char *err, size_t n)
{
    int fd = open("/proc/self/exe", O_RDONLY);
    if (fd < 0) {
        snprintf(err, n, "cannot read this executable (/proc/self/exe): %s", strerror(errno));
        return -1;
    }
    dse__sha256 s;
    dse__sha256_init(&s);
    uint8_t buf[1 << 16], h[32];
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0)
        dse__sha256_add(&s, buf, (size_t)got);
    close(fd);
    if (got < 0) {
        snprintf(err, n, "cannot read this executable (/proc/self/exe): %s", strerror(errno));
        return -1;
    }
#ifdef __linux__
    const char *libc = gnu_get_libc_version();
    dse__sha256_add(&s, libc, strlen(libc) + 1);
#endif
    dse__sha256_end(&s, h);
    memcpy(id, h, DSE_RUN_STORE_ID);
    return 0;
}

const char *dse__run_store_dir(const dse_run_store *st) { return st->dir; }

const uint8_t *dse__run_store_id(const dse_run_store *st) { return st->id; }

void dse__run_store_path(const dse_run_store *st, const uint8_t *id, size_t id_len,
                         const char *ext, uint8_t *key, char *path, size_t n)
{
    dse__sha256 s;
    uint8_t h[32];
    char hex[2 * DSE_RUN_STORE_ID + 1];
    dse__sha256_init(&s);
    dse__sha256_add(&s, st->id, DSE_RUN_STORE_ID);
    dse__sha256_add(&s, id, id_len);
    dse__sha256_end(&s, h);
    if (key)
        memcpy(key, h, DSE_RUN_STORE_ID);
    for (int i = 0; i < DSE_RUN_STORE_ID; i++)
        snprintf(hex + 2 * i, 3, "%02x", h[i]);
    snprintf(path, n, "%s/%s.%s", st->dir, hex, ext);
}

dse__chip_files *dse__run_store_chip_files(dse_run_store *st) { return &st->chips; }

FILE *dse__run_store_warn(const dse_run_store *st) { return st->warn; }

void dse_run_store_set_chip_cap(dse_run_store *st, long cap) { st->chips.cap = cap; }

void dse_run_store_key(const dse_run_store *st, const uint8_t *key, size_t len,
                       uint8_t h[DSE_RUN_STORE_ID])
{
    dse__sha256 s;
    dse_run_store_key_start(st, key, len, &s);
    dse_run_store_key_finish(&s, NULL, 0, h);
}

void dse_run_store_key_start(const dse_run_store *st, const uint8_t *prefix, size_t len,
                             dse__sha256 *at)
{
    dse__sha256_init(at);
    dse__sha256_add(at, st->id, DSE_RUN_STORE_ID);
    dse__sha256_add(at, prefix, len);
}

void dse_run_store_key_finish(const dse__sha256 *at, const uint8_t *rest, size_t len,
                              uint8_t h[DSE_RUN_STORE_ID])
{
    dse__sha256 s = *at;
    uint8_t full[32];
    if (len)
        dse__sha256_add(&s, rest, len);
    dse__sha256_end(&s, full);
    memcpy(h, full, DSE_RUN_STORE_ID);
}

/* ---- tables --------------------------------------------------------------------- */

static size_t slot_of(const table *t, const uint8_t *h)
{
    size_t i = (size_t)get64(h) & t->mask;
    while (t->rec[i] && memcmp(t->rec[i], h, DSE_RUN_STORE_ID))
        i = (i + 1) & t->mask;
    return i;
}

static void table_clear(table *t)
{
    free(t->rec);
    *t = (table){ 0 };
}

/* Adds a record unless its key is there (the same run stored twice); false: no memory. */
static bool table_add(table *t, const uint8_t *rec)
{
    if (4 * (t->used + 1) > 3 * (t->mask + 1) || !t->rec) {
        size_t n = t->rec ? 2 * (t->mask + 1) : 1024;
        table bigger = { calloc(n, sizeof *bigger.rec), n - 1, 0 };
        if (!bigger.rec)
            return false;
        for (size_t i = 0; t->rec && i <= t->mask; i++)
            if (t->rec[i])
                bigger.rec[slot_of(&bigger, t->rec[i])] = t->rec[i], bigger.used++;
        free(t->rec);
        *t = bigger;
    }
    size_t i = slot_of(t, rec);
    if (!t->rec[i])
        t->rec[i] = rec, t->used++;
    return true;
}

static const uint8_t *table_find(const table *t, const uint8_t *h)
{
    return t->rec ? t->rec[slot_of(t, h)] : NULL;
}

static bool keep_block(dse_run_store *st, uint8_t *p)
{
    if (st->n_blocks == st->cap_blocks) {
        size_t cap = st->cap_blocks ? 2 * st->cap_blocks : 16;
        uint8_t **b = realloc(st->blocks, cap * sizeof *b);
        if (!b)
            return false;
        st->blocks = b;
        st->cap_blocks = cap;
    }
    st->blocks[st->n_blocks++] = p;
    return true;
}

/* ---- reading -------------------------------------------------------------------- */

static void warn(const dse_run_store *st, const char *file, const char *what, uint64_t at)
{
    if (st->warn)
        fprintf(st->warn, "rfdse: warning: run store %s/%s: %s at byte %llu, ignored\n",
                st->dir, file, what, (unsigned long long)at);
}

/* Whether a payload holds exactly `records` well-formed records. */
static bool records_fit(const uint8_t *p, uint64_t size, uint32_t records)
{
    uint64_t at = 0;
    for (uint32_t r = 0; r < records; r++) {
        if (size - at < REC_HEAD)
            return false;
        uint32_t n = get32(p + at + DSE_RUN_STORE_ID), written = get32(p + at + DSE_RUN_STORE_ID + 4);
        if (n > MAX_VALUES || written > n || size - at - REC_HEAD < 8 * (uint64_t)written)
            return false;
        at += REC_HEAD + 8 * (uint64_t)written;
    }
    return at == size;
}

static size_t record_size(const uint8_t *r)
{
    return REC_HEAD + 8 * (size_t)get32(r + DSE_RUN_STORE_ID + 4);
}

/* A checked chip payload's records, kept (p is the store's from here) and added to t. */
static void add_records(dse_run_store *st, table *t, uint8_t *p, uint32_t records)
{
    if (!keep_block(st, p)) {
        free(p);
        return;
    }
    for (size_t at = 0; records--; at += record_size(p + at))
        if (!table_add(t, p + at))
            return; /* no memory: fewer runs to reuse */
}

/* A copy of record r in the shared runs, unless they hold its key: memory holds each
 * shared run once, however many files hold it (every rank of a job that met it). */
static void add_shared(dse_run_store *st, const uint8_t *r)
{
    if (table_find(&st->shared, r))
        return;
    uint8_t *copy = malloc(record_size(r));
    if (!copy || !keep_block(st, copy)) {
        free(copy);
        return;
    }
    memcpy(copy, r, record_size(r));
    /* the shared blocks come first, before the current chip's: swap it down */
    st->blocks[st->n_blocks - 1] = st->blocks[st->n_shared_blocks];
    st->blocks[st->n_shared_blocks++] = copy;
    table_add(&st->shared, copy);
}

/* A segment's payload, checked, or NULL (with one warning when damaged). */
static uint8_t *read_payload(dse_run_store *st, int fd, uint32_t file, uint64_t at,
                             const uint8_t *head)
{
    uint64_t size = get64(head + 8);
    uint8_t *p = malloc(size ? size : 1);
    if (!p)
        return NULL;
    if (pread(fd, p, size, (off_t)at) != (ssize_t)size || !check_ok(p, size, head + 32) ||
        !records_fit(p, size, get32(head + 4))) {
        warn(st, st->file[file], "damaged segment", at - HEAD);
        free(p);
        return NULL;
    }
    return p;
}

static bool add_segment(dse_run_store *st, segment s)
{
    if (st->n_seg == st->cap_seg) {
        size_t cap = st->cap_seg ? 2 * st->cap_seg : 64;
        segment *g = realloc(st->seg, cap * sizeof *g);
        if (!g)
            return false;
        st->seg = g;
        st->cap_seg = cap;
    }
    st->seg[st->n_seg++] = s;
    return true;
}

/* Shared segments are read at once into the shared table; chip segments indexed. */
static void scan_segments(dse_run_store *st, int fd, uint32_t file, uint64_t size)
{
    uint64_t at = HEAD;
    uint8_t h[HEAD];
    while (at < size) {
        if (size - at < HEAD || pread(fd, h, HEAD, (off_t)at) != HEAD) {
            warn(st, st->file[file], "incomplete segment (a crash, or being written)", at);
            return;
        }
        uint64_t len = get64(h + 8);
        if (get32(h) != SEG_MAGIC || !check_ok(h, HEAD - 8, h + HEAD - 8)) {
            warn(st, st->file[file], "damaged segment header (and the rest of the file)", at);
            return;
        }
        if (len > size - at - HEAD) {
            warn(st, st->file[file], "incomplete segment (a crash, or being written)", at);
            return;
        }
        segment s = { get64(h + 16), (int64_t)get64(h + 24), at + HEAD, len, file, false };
        if (s.chip >= 0) {
            add_segment(st, s);
        } else {
            uint8_t *p = read_payload(st, fd, file, s.at, h);
            for (size_t r = 0, off = 0; p && r < get32(h + 4); r++, off += record_size(p + off))
                add_shared(st, p + off);
            free(p);
        }
        at += HEAD + len;
    }
}

static void scan_file(dse_run_store *st, const char *name)
{
    char path[2 * PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", st->dir, name);
    int fd = open(path, O_RDONLY);
    struct stat sb;
    uint8_t h[HEAD];
    if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
        if (fd >= 0)
            close(fd);
        return;
    }
    char **f = realloc(st->file, (st->n_files + 1) * sizeof *f);
    if (f)
        st->file = f;
    if (!f || !(f[st->n_files] = strdup(name))) {
        close(fd);
        return;
    }
    uint32_t file = st->n_files++;
    if (sb.st_size < HEAD || pread(fd, h, HEAD, 0) != HEAD || memcmp(h, FILE_MAGIC, 16) ||
        get32(h + 16) != VERSION || get32(h + 20) != ORDER || !check_ok(h, HEAD - 8, h + HEAD - 8))
        warn(st, name, "not a run store file of this version and byte order", 0);
    else if (!memcmp(h + 24, st->id, DSE_RUN_STORE_ID)) /* another build's: not ours to read */
        scan_segments(st, fd, file, (uint64_t)sb.st_size);
    close(fd);
}

static int by_chip(const void *a, const void *b)
{
    const segment *x = a, *y = b;
    if (x->seed != y->seed)
        return x->seed < y->seed ? -1 : 1;
    return (x->chip > y->chip) - (x->chip < y->chip);
}

static bool is_store_file(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n > 5 && !strcmp(name + n - 5, ".runs");
}

dse_run_store *dse_run_store_open(const char *dir, const uint8_t id[DSE_RUN_STORE_ID], int rank,
                                  FILE *warn_to, char *err, size_t n)
{
    if (strlen(dir) >= PATH_LEN - 256) {
        snprintf(err, n, "%s: path too long", dir);
        return NULL;
    }
    if (mkdir(dir, 0777) && errno != EEXIST) {
        snprintf(err, n, "%s: cannot create it: %s", dir, strerror(errno));
        return NULL;
    }
    DIR *d = opendir(dir);
    if (!d || access(dir, W_OK | X_OK)) {
        snprintf(err, n, "%s: not a writable directory: %s", dir, strerror(errno));
        if (d)
            closedir(d);
        return NULL;
    }
    dse_run_store *st = calloc(1, sizeof *st);
    if (!st) {
        closedir(d);
        snprintf(err, n, "%s: out of memory", dir);
        return NULL;
    }
    snprintf(st->dir, sizeof st->dir, "%s", dir);
    memcpy(st->id, id, DSE_RUN_STORE_ID);
    st->rank = rank;
    st->warn = rank == 0 ? warn_to : NULL; /* every rank reads the same files */
    st->fd = -1;
    st->chip_now = -1;
    st->chips.cap = DSE_RUN_STORE_CHIPS;
    struct dirent *e;
    while ((e = readdir(d)))
        if (is_store_file(e->d_name))
            scan_file(st, e->d_name);
    closedir(d);
    st->warn = warn_to; /* a chip's segments: read by one rank, which says so */
    if (st->n_seg)
        qsort(st->seg, st->n_seg, sizeof *st->seg, by_chip);
    st->n_sorted = st->n_seg;
    return st;
}

/* ---- the current chip ----------------------------------------------------------- */

static void read_segment(dse_run_store *st, segment *s)
{
    char path[2 * PATH_LEN];
    uint8_t h[HEAD];
    snprintf(path, sizeof path, "%s/%s", st->dir, st->file[s->file]);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return; /* removed since: nothing to reuse */
    uint8_t *p = NULL;
    if (pread(fd, h, HEAD, (off_t)(s->at - HEAD)) != HEAD || get64(h + 8) != s->size ||
        !check_ok(h, HEAD - 8, h + HEAD - 8))
        warn(st, st->file[s->file], "damaged segment", s->at - HEAD);
    else
        p = read_payload(st, fd, s->file, s->at, h);
    close(fd);
    if (p)
        add_records(st, &st->chip, p, get32(h + 4));
    else
        s->bad = true;
}

static void flush(dse_run_store *st);

void dse_run_store_chip(dse_run_store *st, uint64_t seed, int chip)
{
    if (seed == st->seed && chip == st->chip_now)
        return;
    flush(st);
    table_clear(&st->chip);
    for (size_t i = st->n_shared_blocks; i < st->n_blocks; i++)
        free(st->blocks[i]);
    st->n_blocks = st->n_shared_blocks;
    st->seed = seed;
    st->chip_now = chip;
    segment key = { .seed = seed, .chip = chip };
    segment *s = st->n_sorted ? bsearch(&key, st->seg, st->n_sorted, sizeof *s, by_chip) : NULL;
    while (s && s > st->seg && !by_chip(s - 1, &key))
        s--;
    for (; s && s < st->seg + st->n_sorted && !by_chip(s, &key); s++)
        if (!s->bad)
            read_segment(st, s);
    for (size_t i = st->n_sorted; i < st->n_seg; i++) /* this process's own */
        if (!by_chip(&st->seg[i], &key))
            read_segment(st, &st->seg[i]);
}

int dse_run_store_get(dse_run_store *st, const uint8_t h[DSE_RUN_STORE_ID], double *v, size_t n)
{
    int where = DSE_RUN_STORE_SHARED;
    const uint8_t *r = table_find(&st->shared, h);
    if (!r) {
        where = DSE_RUN_STORE_CHIP;
        r = table_find(&st->chip, h);
    }
    if (!r || get32(r + DSE_RUN_STORE_ID) != n)
        return DSE_RUN_STORE_NONE;
    size_t written = get32(r + DSE_RUN_STORE_ID + 4);
    memcpy(v, r + REC_HEAD, 8 * written);
    memset(v + written, 0, 8 * (n - written));
    return where;
}

/* ---- writing -------------------------------------------------------------------- */

static bool reserve(buffer *b, size_t more)
{
    if (b->len + more <= b->cap)
        return true;
    size_t cap = b->cap ? 2 * b->cap : 1 << 16;
    while (cap < b->len + more)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p)
        return false;
    b->p = p;
    b->cap = cap;
    return true;
}

void dse_run_store_put(dse_run_store *st, const uint8_t h[DSE_RUN_STORE_ID], const double *v,
                       size_t n, bool shared)
{
    static const double zero = 0.0; /* +0.0 only: -0.0 must come back as -0.0 */
    size_t written = n;
    while (written && !memcmp(&v[written - 1], &zero, sizeof zero))
        written--;
    size_t size = REC_HEAD + 8 * written;
    buffer *b = &st->pending[shared];
    if (st->write_failed || n > MAX_VALUES || !reserve(b, size))
        return;
    uint8_t *r = b->p + b->len;
    memcpy(r, h, DSE_RUN_STORE_ID);
    put32(r + DSE_RUN_STORE_ID, (uint32_t)n);
    put32(r + DSE_RUN_STORE_ID + 4, (uint32_t)written);
    memcpy(r + REC_HEAD, v, 8 * written);
    b->len += size;
    b->records++;
    if (shared) /* later chips of this process find it too */
        add_shared(st, r);
    if (st->pending[0].len > PENDING_MAX)
        flush(st);
}

static void segment_out(dse_run_store *st, const buffer *b, uint64_t seed, int64_t chip)
{
    uint8_t *h = st->out.p + st->out.len;
    memset(h, 0, HEAD);
    put32(h, SEG_MAGIC);
    put32(h + 4, b->records);
    put64(h + 8, b->len);
    put64(h + 16, seed);
    put64(h + 24, (uint64_t)chip);
    dse__sha256_check(b->p, b->len, h + 32);
    dse__sha256_check(h, HEAD - 8, h + HEAD - 8);
    memcpy(h + HEAD, b->p, b->len);
    st->out.len += HEAD + b->len;
}

/* This host's name for file names: characters other than letters, digits, '-' and '.'
 * become '_'. */
static void host_name(char *host, size_t n)
{
    snprintf(host, n, "host");
    gethostname(host, n - 1);
    host[n - 1] = '\0';
    for (char *c = host; *c; c++)
        if (!(*c == '-' || *c == '.' || (*c >= '0' && *c <= '9') || ((*c | 32) >= 'a' && (*c | 32) <= 'z')))
            *c = '_';
}

/* The hidden temporary of DIR/NAME: DIR/.NAME.HOST-PID.tmp, a name no other live process
 * has, on this node or another sharing DIR (NFS); one left by a killed process of the
 * same host and pid is its own to replace.  Its descriptor, or -1. */
int dse__run_store_open_temp(const char *path, char *tmp, size_t n)
{
    char host[64];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    host_name(host, sizeof host);
    snprintf(tmp, n, "%.*s.%s.%s-%ld.tmp", (int)(base - path), path, base, host, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST && !unlink(tmp))
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    return fd;
}

/* Own file: HOST-PID-rRANK-TIME.runs, made under a hidden name with its first bytes. */
static int create_own(dse_run_store *st, char *name, size_t n)
{
    char host[64], tmp[2 * PATH_LEN + 16], path[2 * PATH_LEN];
    host_name(host, sizeof host);
    for (int k = 0; k == 0 || !access(path, F_OK); k++) { /* never another's name */
        snprintf(name, n, "%s-%ld-r%d-%lld%s%.0d.runs", host, (long)getpid(), st->rank,
                 (long long)time(NULL), k ? "-" : "", k);
        snprintf(path, sizeof path, "%s/%s", st->dir, name);
    }
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", st->dir, name);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0)
        return -1;
    if (pwrite(fd, st->out.p, st->out.len, 0) != (ssize_t)st->out.len || rename(tmp, path)) {
        close(fd);
        unlink(tmp);
        return -1;
    }
    return fd;
}

/* Writes the pending runs as one or two segments (the chip's, the shared ones). */
static void flush(dse_run_store *st)
{
    buffer *chip = &st->pending[0], *shared = &st->pending[1];
    if (st->write_failed || (!chip->records && !shared->records))
        return;
    st->out.len = 0;
    uint64_t base = st->fd < 0 ? HEAD : st->own_size, chip_at = 0;
    if (!reserve(&st->out, 3 * HEAD + chip->len + shared->len))
        goto failed;
    if (st->fd < 0) {
        uint8_t *h = st->out.p;
        memset(h, 0, HEAD);
        memcpy(h, FILE_MAGIC, 16);
        put32(h + 16, VERSION);
        put32(h + 20, ORDER);
        memcpy(h + 24, st->id, DSE_RUN_STORE_ID);
        dse__sha256_check(h, HEAD - 8, h + HEAD - 8);
        st->out.len = HEAD;
    }
    if (chip->records) {
        chip_at = base + HEAD;
        segment_out(st, chip, st->seed, st->chip_now);
    }
    if (shared->records)
        segment_out(st, shared, 0, -1);
    if (st->fd < 0) {
        char name[PATH_LEN];
        char **f = realloc(st->file, (st->n_files + 1) * sizeof *f);
        if (f)
            st->file = f;
        int fd = f ? create_own(st, name, sizeof name) : -1;
        if (fd < 0)
            goto failed;
        st->fd = fd;
        st->own_size = st->out.len;
        if (!(st->file[st->n_files] = strdup(name)))
            goto failed;
        st->n_files++;
    } else {
        if (pwrite(st->fd, st->out.p, st->out.len, (off_t)st->own_size) != (ssize_t)st->out.len)
            goto failed;
        st->own_size += st->out.len;
    }
    if (chip->records)
        add_segment(st, (segment){ st->seed, st->chip_now, chip_at, chip->len, st->n_files - 1, false });
    chip->len = shared->len = 0;
    chip->records = shared->records = 0;
    return;
failed:
    if (st->warn)
        fprintf(st->warn, "rfdse: warning: run store %s: cannot write (%s): runs are no longer "
                          "stored by rank %d\n", st->dir, strerror(errno), st->rank);
    if (st->fd >= 0 && ftruncate(st->fd, (off_t)st->own_size)) {
        /* a torn tail is left: readers skip it with a warning */
    }
    st->write_failed = true;
}

void dse_run_store_close(dse_run_store *st)
{
    if (!st)
        return;
    flush(st);
    if (st->fd >= 0)
        close(st->fd);
    table_clear(&st->shared);
    table_clear(&st->chip);
    for (size_t i = 0; i < st->n_blocks; i++)
        free(st->blocks[i]);
    free(st->blocks);
    for (uint32_t i = 0; i < st->n_files; i++)
        free(st->file[i]);
    free(st->file);
    free(st->seg);
    free(st->pending[0].p);
    free(st->pending[1].p);
    free(st->out.p);
    free(st);
}
