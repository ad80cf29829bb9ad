/* The variation model's tables kept in the run store's directory (dse_run_store.h,
 * var_table_cache in var.h): a later process of the same binary loads a table instead of
 * building it (about 0.5 s of CPU per table and rank: the chip's, and one per cell area
 * of a register-file cache).
 *
 * A table is the file DIR/NAME.tab, NAME the first 16 bytes of SHA-256 over the binary's
 * identity and the table's name (every input of its values), in hex: another binary or
 * other parameters never find it.  The file: header (48 bytes): "rfdse table\n",
 * version, byte order, floats, the payload's check, the header's check (first 8 bytes
 * of SHA-256 each); then the floats.  Written under a hidden name and renamed, so a
 * reader meets a whole file or none; ranks that build the same table at once write the
 * same bytes, and the last rename wins.  A file that fails a check is not used: the
 * table is built again and the file replaced.  The run store's own files (*.runs) are
 * untouched; the tables are a few hundred kB each. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dse_run_store.h"

#define MAGIC "rfdse table\n\0\0\0"
#define VERSION 1u
#define ORDER 0x01020304u
#define HEAD 48
#define MAX_FLOATS ((size_t)1 << 26)


static void header(uint8_t *h, const float *q, size_t n)
{
    uint32_t v[2] = { VERSION, ORDER };
    uint64_t count = n;
    memset(h, 0, HEAD);
    memcpy(h, MAGIC, 16);
    memcpy(h + 16, v, sizeof v);
    memcpy(h + 24, &count, sizeof count);
    dse__sha256_check(q, n * sizeof *q, h + 32);
    dse__sha256_check(h, HEAD - 8, h + HEAD - 8);
}

static int load(void *arg, const uint8_t *id, size_t id_len, float *q, size_t n)
{
    const dse_run_store *st = arg;
    char path[4400];
    uint8_t h[HEAD], want[HEAD];
    if (n > MAX_FLOATS)
        return 0;
    dse__run_store_path(st, id, id_len, "tab", NULL, path, sizeof path);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    float *buf = malloc(n * sizeof *buf);
    bool ok = buf && pread(fd, h, HEAD, 0) == HEAD &&
              pread(fd, buf, n * sizeof *buf, HEAD) == (ssize_t)(n * sizeof *buf);
    close(fd);
    if (ok) {
        header(want, buf, n); /* the header this payload would have */
        ok = !memcmp(h, want, HEAD);
    }
    if (ok)
        memcpy(q, buf, n * sizeof *buf);
    free(buf);
    return ok;
}

static void save(void *arg, const uint8_t *id, size_t id_len, const float *q, size_t n)
{
    const dse_run_store *st = arg;
    char path[4400], tmp[4500];
    uint8_t h[HEAD];
    if (n > MAX_FLOATS)
        return;
    dse__run_store_path(st, id, id_len, "tab", NULL, path, sizeof path);
    int fd = dse__run_store_open_temp(path, tmp, sizeof tmp);
    if (fd < 0)
        return; /* not kept: the next process builds it again */
    header(h, q, n);
    bool ok = pwrite(fd, h, HEAD, 0) == HEAD &&
              pwrite(fd, q, n * sizeof *q, HEAD) == (ssize_t)(n * sizeof *q);
    ok = !close(fd) && ok;
    if (!ok || rename(tmp, path))
        unlink(tmp);
}

void dse_run_store_tables(dse_run_store *st, var_table_cache *tc)
{
    *tc = (var_table_cache){ .load = load, .save = save, .arg = st };
}
