/* chip_store_bench DIR CHIPS [--evict]: chips kept in the run store against chips
 * generated (docs/performance.md, "Chips in the run store").  At the default parameters,
 * seed 2026, chips 0..CHIPS-1, per chip, CPU and wall milliseconds of:
 *   generate   var_chip_generate alone;
 *   cold       var_chip_generate_kept with the store's callbacks, nothing kept yet: the
 *              chip generated and written to DIR;
 *   warm       the same again: the chip read from DIR (from the page cache, as a later
 *              sweep on the same host finds it; --evict first drops each chip file's
 *              pages, posix_fadvise, so it comes from the disk);
 * and, in memory without files, what a load recomputes against keeping the whole state:
 *   minimal    copy the fields and register delays in, then var__chip_aggregate and
 *              var__chip_split_leff per SM (what var_chip_generate_kept does);
 *   whole      copy every array generate leaves behind (fields, register, entry,
 *              sub-bank and bank delays, frequencies, ratios, sub-bank Leffs).
 * Every warm chip is compared with the generated one, array by array (exit 1 if any bit
 * differs).  DIR should be empty or missing: its chips would make "cold" warm. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dse_run_store.h"
#include "var_internal.h"

typedef struct clocks {
    double cpu, wall;
} clocks;

static clocks now(void)
{
    struct timespec c, w;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    clock_gettime(CLOCK_MONOTONIC, &w);
    return (clocks){ c.tv_sec + 1e-9 * c.tv_nsec, w.tv_sec + 1e-9 * w.tv_nsec };
}

static void add(clocks *sum, clocks t0)
{
    clocks t1 = now();
    sum->cpu += t1.cpu - t0.cpu;
    sum->wall += t1.wall - t0.wall;
}

/* The arrays a generated chip holds, as (pointer, doubles). */
#define N_ARRAYS 8
static void arrays(var_chip *c, double **p, size_t *n)
{
    size_t S = (size_t)c->n_sms, np = (size_t)c->plan.grid_rows * c->plan.grid_cols;
    double *a[N_ARRAYS] = { c->g, c->reg, c->entry, c->sub, c->bank, c->sm_freq, c->sm_ratio,
                            c->sub_leff };
    size_t m[N_ARRAYS] = { np * (size_t)c->plan.n_fields, S * c->n_regs, S * c->n_entries,
                           S * c->n_subs, S * c->n_banks, S, S, S * c->n_subs };
    memcpy(p, a, sizeof a);
    memcpy(n, m, sizeof m);
}

static void evict(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[8192];
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 5, ".chip"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            fdatasync(fd);
            posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
            close(fd);
        }
    }
    if (d)
        closedir(d);
}

static void row(const char *what, clocks t, int chips)
{
    printf("%-9s %8.2f ms CPU %8.2f ms wall per chip\n", what, 1e3 * t.cpu / chips,
           1e3 * t.wall / chips);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--evict"))) {
        fprintf(stderr, "usage: chip_store_bench DIR CHIPS [--evict]\n");
        return 2;
    }
    const char *dir = argv[1];
    int chips = atoi(argv[2]), err = 0;
    bool do_evict = argc == 4;
    var_params p;
    var_params_default(&p);
    var_chip *c = var_chip_alloc_err(&p, &err), *ref = var_chip_alloc_err(&p, &err);
    static const uint8_t id[DSE_RUN_STORE_ID] = "chip_store_bench";
    char msg[512];
    dse_run_store *st = dse_run_store_open(dir, id, 0, stderr, msg, sizeof msg);
    if (!c || !ref || !st || chips < 1) {
        fprintf(stderr, "chip_store_bench: %s\n", st ? var_strerror(err) : msg);
        return 1;
    }
    var_chip_keep k;
    dse_run_store_chips(st, &k);
    dse_run_store_set_chip_cap(st, chips);
    double *pa[N_ARRAYS], *pr[N_ARRAYS];
    size_t n[N_ARRAYS], bytes = 0;
    arrays(c, pa, n);
    arrays(ref, pr, n);
    for (int i = 0; i < N_ARRAYS; i++)
        bytes += 8 * n[i];
    clocks gen = { 0 }, cold = { 0 }, warm = { 0 }, minimal = { 0 }, whole = { 0 };
    long differ = 0;
    for (int ch = 0; ch < chips; ch++) {
        clocks t = now();
        var_chip_generate(ref, &p, 2026, ch);
        add(&gen, t);
        t = now();
        var_chip_generate_kept(c, &p, 2026, ch, &k);
        add(&cold, t);
    }
    if (do_evict)
        evict(dir);
    for (int ch = 0; ch < chips; ch++) {
        var_chip_generate(ref, &p, 2026, ch);
        clocks t = now();
        var_chip_generate_kept(c, &p, 2026, ch, &k);
        add(&warm, t);
        differ += !var_chip_loaded(c);
        for (int i = 0; i < N_ARRAYS; i++)
            differ += memcmp(pa[i], pr[i], 8 * n[i]) != 0;
        /* in memory: the two parts and the recomputation, against every array */
        t = now();
        memcpy(pa[0], pr[0], 8 * n[0]);
        memcpy(pa[1], pr[1], 8 * n[1]);
        for (int sm = 0; sm < c->n_sms; sm++) {
            var__chip_aggregate(c, sm);
            var__chip_split_leff(c, sm);
        }
        add(&minimal, t);
        t = now();
        for (int i = 0; i < N_ARRAYS; i++)
            memcpy(pa[i], pr[i], 8 * n[i]);
        add(&whole, t);
    }
    const dse__chip_files *cf = dse__run_store_chip_files(st);
    printf("chips %d, default floorplan: kept parts %.2f MB a chip (whole state %.2f MB); "
           "written %ld, read %ld%s\n",
           chips, 8e-6 * (double)(n[0] + n[1]), 1e-6 * (double)bytes, cf->saved, cf->loaded,
           do_evict ? ", read from the disk (pages evicted)" : "");
    row("generate", gen, chips);
    row("cold", cold, chips);
    row("warm", warm, chips);
    row("minimal", minimal, chips);
    row("whole", whole, chips);
    printf("chips loaded that differ from generated ones: %ld\n", differ);
    dse_run_store_close(st);
    var_chip_free(c);
    var_chip_free(ref);
    return differ ? 1 : 0;
}
