/* Benchmark of the SM model in trace mode (docs/performance.md, "Trace workloads"):
 * simulated warp instructions per host CPU-second running Accel-Sim traces, SM 0 of one
 * (its share: every block of the grid up to three waves), default configuration, all-fast
 * map; per trace the median of 5 slices of >= 0.2 CPU-s and their range.  --blocks N
 * runs N blocks (block k runs kept block k mod the trace's, sm_trace.h), so a one-block
 * trace is also timed as the steady state of a larger grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse_sweep.h"
#include "dse_trace.h"
#include "sm.h"

#define SLICES 5
#define SLICE_CPU_S 0.2

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_rate(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int bench(const char *path, const dse_sweep *s, const dse_technique *t, int blocks)
{
    dse_trace *tr = dse_trace_read(path, stderr);
    sm_trace *st = tr ? dse_trace_stream_of(tr, path, stderr, NULL) : NULL;
    if (!st) {
        dse_trace_free(tr);
        return 2;
    }
    const dse_trace_header *h = dse_trace_header_of(tr);
    sm_profile w;
    sm_profile_default(&w);
    snprintf(w.name, sizeof w.name, "trace");
    snprintf(w.trace, sizeof w.trace, "%s", path);
    w.grid_blocks = blocks > 0 ? blocks : h->grid[0] * h->grid[1] * h->grid[2];
    w.block_threads = h->block[0] * h->block[1] * h->block[2];
    w.regs_per_thread = st->regs;
    w.trace_stream = st;
    dse_trace_free(tr);
    const var_floorplan *fp = &s->var.floorplan;
    static sm_rf_map m;
    sm_rf_map_all_fast(&m, fp->n_banks, fp->entries_per_bank, fp->sub_banks);
    sm_sim *sim = sm_sim_alloc(&s->sm);
    static sm_stats stats;
    double rate[SLICES];
    int rc = sim ? 0 : 1;
    uint64_t per_run = 0;
    for (int k = 0; k < SLICES && !rc; k++) {
        double t0 = cpu_seconds(), dt, insts = 0;
        do {
            rc = sm_sim_run(sim, &s->sm, &w, &t->ipc, &m, 0, 1, &stats);
            insts += (double)stats.warp_insts;
            dt = cpu_seconds() - t0;
        } while (dt < SLICE_CPU_S && !rc);
        rate[k] = insts / dt;
        per_run = stats.warp_insts;
    }
    if (rc)
        fprintf(stderr, "trace_bench: %s: %s (%s)\n", path, sm_strerror(rc),
                sim ? sm_sim_diagnostic(sim) : "out of memory");
    else {
        qsort(rate, SLICES, sizeof rate[0], by_rate);
        const char *base = strrchr(path, '/');
        printf("%-28s %7d %10llu %8.3f %12.2f %7.2f - %5.2f\n", base ? base + 1 : path,
               w.grid_blocks > 0 ? sm_sim_share(&s->sm, &w, 0, 1) : 0,
               (unsigned long long)per_run, sm_stats_ipc(&stats), rate[SLICES / 2] / 1e6,
               rate[0] / 1e6, rate[SLICES - 1] / 1e6);
    }
    sm_sim_free(sim);
    dse_trace_stream_free(st);
    return rc ? 1 : 0;
}

static const char usage[] =
    "Usage: trace_bench [--technique NAME] [--blocks N] TRACE.traceg|TRACE.h5 ...\n"
    "  simulated warp instructions per CPU-second running each trace on SM 0 of 1\n"
    "  --technique NAME  a preset (default ideal)\n"
    "  --blocks N        run N blocks (block k runs the trace's block k mod its blocks)\n"
    "  --pending         with sm.pending_hits and sm.const_cache (docs/model.md)\n";

int main(int argc, char **argv)
{
    const char *tech = "ideal";
    int blocks = 0, first = 1;
    bool pending = false;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--technique") && first + 1 < argc)
            tech = argv[++first];
        else if (!strcmp(argv[first], "--blocks") && first + 1 < argc)
            blocks = atoi(argv[++first]);
        else if (!strcmp(argv[first], "--pending"))
            pending = true;
        else {
            fputs(usage, !strcmp(argv[first], "-h") || !strcmp(argv[first], "--help") ? stdout
                                                                                        : stderr);
            return strcmp(argv[first], "-h") && strcmp(argv[first], "--help") ? 2 : 0;
        }
    }
    if (first == argc) {
        fputs(usage, stderr);
        return 2;
    }
    dse_sweep *s = dse_sweep_load_default(stderr);
    dse_technique t;
    if (!s || !dse_technique_preset(tech, &t)) {
        fprintf(stderr, "trace_bench: unknown technique %s\n", tech);
        dse_sweep_free(s);
        return 2;
    }
    if (s && pending)
        s->sm.pending_hits = s->sm.const_cache = true;
    printf("%-28s %7s %10s %8s %12s %15s\n", "trace", "blocks", "insts/run", "ipc",
           "Minst/cpu-s", "(min - max)");
    int rc = 0;
    for (int i = first; i < argc; i++)
        rc |= bench(argv[i], s, &t, blocks);
    dse_sweep_free(s);
    return rc;
}
