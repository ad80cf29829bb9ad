/* run_store_bench write|read DIR CHIPS FILES RECORDS VALUES: the run store's memory and
 * time against the chip count (docs/performance.md, "Run store").  write: FILES store
 * files (as FILES processes would: the sweeps of a study, their ranks), each with a
 * segment of RECORDS runs of VALUES values for every one of CHIPS chips.  read (another
 * process, as a later run): opens the store and walks every chip, looking every run
 * up; prints the peak resident memory before the open, after it and after the walk,
 * and the seconds each took. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "dse_run_store.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static void key(int file, int chip, int r, uint8_t h[DSE_RUN_STORE_ID])
{
    memset(h, 0, DSE_RUN_STORE_ID);
    memcpy(h, &chip, sizeof chip);
    memcpy(h + 4, &file, sizeof file);
    memcpy(h + 8, &r, sizeof r);
}

int main(int argc, char **argv)
{
    if (argc != 7 || (strcmp(argv[1], "write") && strcmp(argv[1], "read"))) {
        fprintf(stderr, "usage: run_store_bench write|read DIR CHIPS FILES RECORDS VALUES\n");
        return 2;
    }
    bool write = !strcmp(argv[1], "write");
    const char *dir = argv[2];
    int chips = atoi(argv[3]), files = atoi(argv[4]), records = atoi(argv[5]);
    size_t nv = (size_t)atoi(argv[6]);
    static const uint8_t id[DSE_RUN_STORE_ID] = "run_store_bench";
    char err[512];
    double *v = malloc(sizeof *v * nv);
    uint8_t h[DSE_RUN_STORE_ID];
    if (!v || chips < 1 || files < 1 || records < 1)
        return 2;
    for (size_t i = 0; i < nv; i++)
        v[i] = 1.0 / (double)(i + 3);
    double t0 = now();
    for (int f = 0; write && f < files; f++) {
        dse_run_store *st = dse_run_store_open(dir, id, f, stderr, err, sizeof err);
        if (!st) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        for (int c = 0; c < chips; c++) {
            dse_run_store_chip(st, 1, c);
            for (int r = 0; r < records; r++) {
                key(f, c, r, h);
                dse_run_store_put(st, h, v, nv, false);
            }
        }
        dse_run_store_close(st);
    }
    if (write) {
        printf("wrote %d files of %d chips x %d runs of %zu values in %.1f s\n", files, chips,
               records, nv, now() - t0);
        free(v);
        return 0;
    }
    double t1 = now(), before = peak_mib();
    dse_run_store *st = dse_run_store_open(dir, id, 0, stderr, err, sizeof err);
    if (!st)
        return 1;
    double t2 = now(), opened = peak_mib();
    long found = 0;
    for (int c = 0; c < chips; c++) {
        dse_run_store_chip(st, 1, c);
        for (int f = 0; f < files; f++)
            for (int r = 0; r < records; r++) {
                key(f, c, r, h);
                found += dse_run_store_get(st, h, v, nv) == DSE_RUN_STORE_CHIP;
            }
    }
    double t3 = now();
    dse_run_store_close(st);
    printf("chips %d, files %d, runs per chip and file %d, values %zu: open %.2f s, walk "
           "%.1f s, runs found %ld of %ld; peak memory %.1f MiB before the open, %.1f MiB "
           "after it, %.1f MiB after the walk\n",
           chips, files, records, nv, t2 - t1, t3 - t2, found,
           (long)chips * files * records, before, opened, peak_mib());
    free(v);
    return found == (long)chips * files * records ? 0 : 1;
}
