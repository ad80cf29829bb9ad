/* Benchmark of the SM model: simulated warp instructions per host CPU-second on each
 * shipped profile with the default configuration (ideal technique, all-fast map, every
 * SM of the default chip; per profile the median of 5 slices of >= 0.2 CPU-s and their
 * range), and with --ipc-table the IPC of every technique on an
 * all-fast and on a 70 % stand-in storage map (docs/performance.md, docs/model.md). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse_sim_cache.h"
#include "dse_sweep.h"
#include "sm_design.h"
#include "sm.h"
#include "sm_internal.h" /* --load-use draws the streams itself (gen.c) */

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The stand-in map of `rfdse sm` (dse/cli/cmd_sm.c) with `slow` of the sub-banks slow. */
static void standin_map(const dse_sweep *s, const dse_technique *t, int slow, sm_rf_map *m)
{
    const var_floorplan *fp = &s->var.floorplan;
    sm_rf_map_all_fast(m, fp->n_banks, fp->entries_per_bank, fp->sub_banks);
    int total = fp->n_banks * fp->sub_banks, vectors = fp->n_banks * fp->entries_per_bank;
    if (!t->freq.variation || slow <= 0)
        return;
    if (t->freq.granularity == VAR_GRAN_SUB_BANK && t->freq.bro)
        sm_rf_map_mark_last_slow(m, slow);
    else if (t->freq.granularity == VAR_GRAN_SUB_BANK)
        sm_rf_map_mark_spread_slow(m, slow);
    else if (t->freq.granularity == VAR_GRAN_VECTOR_ARRAY)
        sm_rf_map_mark_last_entries_slow(m, vectors * slow / total / 32 * 32);
    else if (t->freq.granularity == VAR_GRAN_REGISTER)
        sm_rf_map_mark_last_entries_slow(m, vectors);
}

/* Mean IPC over the SMs of the chip (what the driver reports for a chip). */
static double chip_ipc(sm_sim *sim, const dse_sweep *s, const sm_profile *w,
                       const dse_technique *t, const sm_rf_map *m, uint64_t *insts)
{
    static sm_stats st;
    int n = s->var.floorplan.n_sms;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (sm_sim_run(sim, &s->sm, w, &t->ipc, m, i, n, &st)) {
            fprintf(stderr, "model_bench: %s failed on SM %d: %s\n", w->name, i,
                    sm_sim_diagnostic(sim));
            return -1;
        }
        sum += sm_stats_ipc(&st);
        *insts += st.warp_insts;
    }
    return sum / n;
}

#define SLICES 5        /* rate measured per slice: the VM's clock wanders 10-15 % */
#define SLICE_CPU_S 0.2 /* at least this much CPU time per slice                   */

typedef struct slice {
    double rate, ipc, insts, seconds; /* rate in warp instructions per CPU-second */
    int runs;
} slice;

/* Whole chips (every SM) of one profile until the slice has SLICE_CPU_S of CPU time. */
static int measure_slice(sm_sim *sim, const dse_sweep *s, const sm_profile *w,
                         const dse_technique *t, const sm_rf_map *m, slice *out)
{
    uint64_t insts = 0;
    double t0 = cpu_seconds(), dt;
    out->runs = 0;
    do {
        out->ipc = chip_ipc(sim, s, w, t, m, &insts);
        out->runs += s->var.floorplan.n_sms;
        dt = cpu_seconds() - t0;
    } while (dt < SLICE_CPU_S && out->ipc >= 0);
    out->insts = (double)insts, out->seconds = dt, out->rate = (double)insts / dt;
    return out->ipc < 0 ? -1 : 0;
}

static int by_rate(const void *a, const void *b)
{
    double x = ((const slice *)a)->rate, y = ((const slice *)b)->rate;
    return (x > y) - (x < y);
}

/* Per profile the median of SLICES slices, with their range, so one slow slice on a
 * noisy host neither hides nor decides a result. */
static int speed(const dse_sweep *s, sm_sim *sim)
{
    dse_technique ideal;
    dse_technique_preset("ideal", &ideal);
    static sm_rf_map m;
    standin_map(s, &ideal, 0, &m);
    printf("%-16s %8s %10s %8s %14s %15s\n", "profile", "ipc", "insts/SM", "ms/SM",
           "Minst/cpu-s", "(min - max)");
    double total_i = 0, total_t = 0;
    for (int wi = 0; wi < s->n_workloads; wi++) {
        slice sl[SLICES];
        for (int k = 0; k < SLICES; k++)
            if (measure_slice(sim, s, &s->workloads[wi], &ideal, &m, &sl[k]))
                return 1;
        qsort(sl, SLICES, sizeof sl[0], by_rate);
        const slice *md = &sl[SLICES / 2];
        printf("%-16s %8.3f %10.0f %8.3f %14.2f %7.2f - %5.2f\n", s->workloads[wi].name,
               md->ipc, md->insts / md->runs, 1e3 * md->seconds / md->runs, md->rate / 1e6,
               sl[0].rate / 1e6, sl[SLICES - 1].rate / 1e6);
        for (int k = 0; k < SLICES; k++)
            total_i += sl[k].insts, total_t += sl[k].seconds;
    }
    printf("%-16s %8s %10s %8s %14.2f\n", "all", "", "", "", total_i / total_t / 1e6);
    return 0;
}

static int ipc_table(const dse_sweep *s, sm_sim *sim, int slow, const char *const *only, int n_only)
{
    static const char *const all[] = { "ideal", "baseline", "vl_rf", "vl_rv", "vl_sb",
                                       "rf_bro", "fba_rm", "two_level", "fwas", "hybrid",
                                       "pv_opt", "nbti_opt" };
    const char *const *names = n_only ? only : all;
    const int n_tech = n_only ? (n_only < 16 ? n_only : 16) : (int)(sizeof all / sizeof all[0]);
    printf("IPC (mean over %d SMs), %d of %d sub-banks slow\n%-16s", s->var.floorplan.n_sms, slow,
           s->var.floorplan.n_banks * s->var.floorplan.sub_banks, "profile");
    for (int t = 0; t < n_tech; t++)
        printf(" %9s", names[t]);
    printf("\n");
    double mean[16] = { 0 };
    for (int wi = 0; wi < s->n_workloads; wi++) {
        printf("%-16s", s->workloads[wi].name);
        for (int t = 0; t < n_tech; t++) {
            dse_technique tech;
            dse_technique_preset(names[t], &tech);
            static sm_rf_map m;
            standin_map(s, &tech, slow, &m);
            uint64_t insts = 0;
            double ipc = chip_ipc(sim, s, &s->workloads[wi], &tech, &m, &insts);
            if (ipc < 0)
                return 1;
            mean[t] += ipc / s->n_workloads;
            printf(" %9.4f", ipc);
        }
        printf("\n");
    }
    printf("%-16s", "mean");
    for (int t = 0; t < n_tech; t++)
        printf(" %9.4f", mean[t]);
    printf("\n");
    return 0;
}

/* IPC against the main register file's latency L (issue 18's report): per profile,
 * L = 1..8 with no cache (every access takes L), the demand-filled cache and LTRF, on
 * all-fast maps (no variation: L alone), two-level scheduling for all three; and the
 * largest L whose IPC is within 5 % of L = 1's. */
static int latency_table(const dse_sweep *s, sm_sim *sim)
{
    static const char *const designs[] = { "two_level", "rfc_demand", "ltrf" };
    printf("IPC (mean over %d SMs) against main-RF latency L; all-fast maps\n",
           s->var.floorplan.n_sms);
    printf("%-16s %-10s", "profile", "design");
    for (int L = 1; L <= 8; L++)
        printf("   L=%d ", L);
    printf(" L@-5%%\n");
    for (int wi = 0; wi < s->n_workloads; wi++)
        for (int d = 0; d < 3; d++) {
            dse_technique tech;
            dse_technique_preset(designs[d], &tech);
            tech.freq.variation = false;
            static sm_rf_map m;
            standin_map(s, &tech, 0, &m);
            printf("%-16s %-10s", s->workloads[wi].name, d ? designs[d] : "no cache");
            double ipc1 = 0;
            int within = 0;
            for (int L = 1; L <= 8; L++) {
                tech.ipc.main_rf_latency = L;
                uint64_t insts = 0;
                double ipc = chip_ipc(sim, s, &s->workloads[wi], &tech, &m, &insts);
                if (ipc < 0)
                    return 1;
                ipc1 = L == 1 ? ipc : ipc1;
                within = ipc >= 0.95 * ipc1 && within == L - 1 ? L : within;
                printf(" %6.3f", ipc);
            }
            printf(" %5d\n", within);
        }
    return 0;
}

/* Memory hazards and replay (docs/replay.md): per profile, chip IPC of Turner's design
 * points relative to stalling with a unified collector pool, and the bound that the
 * stalling run predicts for replay.  Options after --replay-table: slow=N sub-banks
 * slow (stand-in map), tech=NAME (default ideal, rf_bro with slow), sites=N, bias=B,
 * requests=R (profile overrides), interval=K (sm.miss_interval), oc=N (oc_unified),
 * mshrs=N (sm.max_misses), memory=partitions (sm.memory), seed=K (every profile's seed
 * + K: another sample of the same kernels), hazards (the table of what the runs met
 * instead of the design points' IPC). */
typedef struct hz_point {
    const char *name;
    sm_collectors coll;
    sm_mem_hazard hz;
    sm_mshr_tracker tr;
    sm_hit_predictor pr;
} hz_point;

static const hz_point hz_points[] = {
    { "per_unit", SM_COLLECTORS_PER_UNIT, SM_HAZARD_STALL, SM_TRACKER_NONE, 0 },
    { "stall", SM_COLLECTORS_UNIFIED, SM_HAZARD_STALL, SM_TRACKER_NONE, 0 },
    { "st/cr/am", SM_COLLECTORS_UNIFIED, SM_HAZARD_STALL, SM_TRACKER_CREDIT, SM_PREDICT_ALWAYS_MISS },
    { "st/cr/or", SM_COLLECTORS_UNIFIED, SM_HAZARD_STALL, SM_TRACKER_CREDIT, SM_PREDICT_ORACLE },
    { "replay", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_NONE, 0 },
    { "na/hur", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_NAIVE, SM_PREDICT_HIT_UNLESS_REPLAYED },
    { "na/am", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_NAIVE, SM_PREDICT_ALWAYS_MISS },
    { "na/pc", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_NAIVE, SM_PREDICT_PC },
    { "na/or", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_NAIVE, SM_PREDICT_ORACLE },
    { "cr/hur", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_CREDIT, SM_PREDICT_HIT_UNLESS_REPLAYED },
    { "cr/am", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_CREDIT, SM_PREDICT_ALWAYS_MISS },
    { "cr/pc", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_CREDIT, SM_PREDICT_PC },
    { "cr/or", SM_COLLECTORS_UNIFIED, SM_HAZARD_REPLAY, SM_TRACKER_CREDIT, SM_PREDICT_ORACLE },
};
#define N_HZ_POINTS ((int)(sizeof hz_points / sizeof hz_points[0]))

/* What a design point's chip run met, summed over its SMs (--replay-table hazards). */
typedef struct hz_sum {
    uint64_t cycles, insts, reads, mshr_stalls, held_div, held_queue, replays_mshr,
        repeats, replays_div, replays_queue, replay_reads, l1_misses;
    double mshr_busy; /* mean over SMs of MSHRs in use, by Little's law */
} hz_sum;

/* Adds one SM's run.  MSHRs in use, on average: every missing request holds one for
 * its latency, so MSHR-cycles are the requests' latencies summed (partitions:
 * mem_miss_cycles; fixed: the kernel's one miss latency per miss). */
static void hz_add(hz_sum *a, const sm_stats *st, const sm_config *c, const sm_profile *w)
{
    a->cycles += st->cycles, a->insts += st->warp_insts, a->reads += st->reads;
    a->mshr_stalls += st->mshr_stalls, a->held_div += st->mem_stall_divergence;
    a->held_queue += st->mem_stall_queue, a->replays_mshr += st->replays_mshr;
    a->repeats += st->replays_mshr_repeat, a->replays_div += st->replays_divergence;
    a->replays_queue += st->replays_queue, a->replay_reads += st->replay_reads;
    a->l1_misses += st->l1_misses;
    double lat = w->miss_latency ? w->miss_latency : c->lat_miss;
    double held = c->memory == SM_MEMORY_PARTITIONS ? (double)st->mem_miss_cycles
                                                    : (double)st->l1_misses * lat;
    a->mshr_busy += st->cycles ? held / (double)st->cycles : 0;
}

/* Chip IPC of one design point; *bound gets the mean over SMs of the stalling run's
 * bound, *rf_reads the register reads (replays' included) per warp instruction;
 * *sum (if not NULL) what the SMs met. */
static double hz_chip(sm_sim *sim, const dse_sweep *s, sm_config c, const sm_profile *w,
                      const dse_technique *t, const sm_rf_map *m, const hz_point *pt,
                      double *bound, double *rf_reads, double *accuracy, hz_sum *sum_st)
{
    c.collectors = pt->coll, c.mem_hazard = pt->hz, c.mshr_tracker = pt->tr;
    c.hit_predictor = pt->pr;
    static sm_stats st;
    int n = s->var.floorplan.n_sms;
    double sum = 0, b = 0;
    uint64_t reads = 0, insts = 0, pred = 0, right = 0;
    for (int i = 0; i < n; i++) {
        if (sm_sim_run(sim, &c, w, &t->ipc, m, i, n, &st)) {
            fprintf(stderr, "model_bench: %s %s failed on SM %d: %s\n", w->name, pt->name, i,
                    sm_sim_diagnostic(sim));
            return -1;
        }
        sum += sm_stats_ipc(&st);
        b += sm_stats_replay_bound(&st);
        reads += st.reads, insts += st.warp_insts;
        pred += st.predictions, right += st.predictions_correct;
        if (sum_st)
            hz_add(sum_st, &st, &c, w);
    }
    if (sum_st)
        sum_st->mshr_busy /= n;
    *accuracy = pred ? (double)right / (double)pred : 0;
    *bound = b / n;
    *rf_reads = insts ? (double)reads / (double)insts : 0;
    return sum / n;
}

/* --replay-table hazards: per profile, what the stalling run (unified collectors) met
 * and what plain replay and Turner's pair (credit tracker, hit-unless-replayed) did
 * with it, summed over the chip's SMs: per 1000 cycles (per SM), MSHR-full and
 * divergence cycles held; MSHRs in use on average (of max_misses); per 1000 warp
 * instructions, replays by cause and MSHR replays of a load already replayed for one;
 * the replays' share of the register reads; IPC over stalling. */
static void hz_detail_header(void)
{
    printf("%-15s %6s %6s %7s %7s %6s | %7s %7s %7s %6s %7s | %7s %7s %6s %7s\n", "profile",
           "stall", "busy", "mshr/kc", "div/kc", "bound", "replay", "mshr/ki", "rep/ki",
           "div/ki", "rd%", "cr/hur", "mshr/ki", "rep/ki", "rd%");
}

static void hz_detail_row(const char *name, double ipc0, double bound, const hz_sum *st,
                          double ipc_r, const hz_sum *r, double ipc_c, const hz_sum *cr)
{
    double kc = (double)st->cycles / 1000;
    printf("%-15s %6.3f %6.1f %7.1f %7.1f %6.3f | %7.4f %7.1f %7.1f %6.1f %7.2f | %7.4f %7.1f "
           "%6.1f %7.2f\n",
           name, ipc0, st->mshr_busy, (double)st->mshr_stalls / kc, (double)st->held_div / kc,
           bound, ipc_r / ipc0, 1000.0 * (double)r->replays_mshr / (double)r->insts,
           1000.0 * (double)r->repeats / (double)r->insts,
           1000.0 * (double)r->replays_div / (double)r->insts,
           100.0 * (double)r->replay_reads / (double)r->reads, ipc_c / ipc0,
           1000.0 * (double)cr->replays_mshr / (double)cr->insts,
           1000.0 * (double)cr->repeats / (double)cr->insts,
           100.0 * (double)cr->replay_reads / (double)cr->reads);
}

static int replay_table(const dse_sweep *s, int argc, char **argv)
{
    int slow = 0, sites = -1;
    bool detail = false;
    unsigned long long reseed = 0; /* seed=K: every profile's seed + K, another sample */
    double bias = -1, requests = 0;
    char tname[DSE_NAME_MAX] = "";
    sm_config c = s->sm;
    for (int i = 0; i < argc; i++) {
        sscanf(argv[i], "slow=%d", &slow);
        sscanf(argv[i], "sites=%d", &sites);
        sscanf(argv[i], "bias=%lf", &bias);
        sscanf(argv[i], "requests=%lf", &requests);
        sscanf(argv[i], "interval=%d", &c.miss_interval);
        sscanf(argv[i], "oc=%d", &c.oc_unified);
        sscanf(argv[i], "mshrs=%d", &c.max_misses); /* GTX480's L1D has 64 */
        sscanf(argv[i], "seed=%llu", &reseed);
        sscanf(argv[i], "tech=%31s", tname);
        if (!strcmp(argv[i], "memory=partitions")) /* issue 27: L2/DRAM with bandwidth */
            c.memory = SM_MEMORY_PARTITIONS;
        detail |= !strcmp(argv[i], "hazards");
    }
    sm_config big = c;
    big.collectors = SM_COLLECTORS_UNIFIED;
    sm_sim *sim = sm_sim_alloc(&big);
    dse_technique tech;
    if (!dse_technique_preset(tname[0] ? tname : slow ? "rf_bro" : "ideal", &tech)) {
        sm_sim_free(sim);
        return 2;
    }
    static sm_rf_map m;
    standin_map(s, &tech, slow, &m);
    printf("chip IPC / unified stall (%d of 32 sub-banks slow, %s%s); bound: stall's\n", slow,
           tech.name, c.memory == SM_MEMORY_PARTITIONS ? ", memory partitions" : "");
    if (detail)
        hz_detail_header();
    else
        printf("%-15s %6s", "profile", "stall");
    for (int k = 0; k < N_HZ_POINTS && !detail; k++)
        if (k != 1)
            printf(" %8s", hz_points[k].name);
    if (!detail)
        printf(" %6s %6s %6s %7s %6s\n", "bound", "rd/i", "rd/i_r", "acc_hur", "acc_pc");
    int rc = 0;
    for (int wi = 0; wi < s->n_workloads && !rc; wi++) {
        sm_profile w = s->workloads[wi];
        w.load_sites = sites >= 0 ? sites : w.load_sites;
        w.site_bias = bias >= 0 ? bias : w.site_bias;
        w.mem_requests = requests >= 1 ? requests : w.mem_requests;
        w.seed += reseed;
        double ipc[N_HZ_POINTS], bound[N_HZ_POINTS], rd[N_HZ_POINTS], acc[N_HZ_POINTS];
        hz_sum sum[N_HZ_POINTS];
        memset(sum, 0, sizeof sum);
        for (int k = 0; k < N_HZ_POINTS && !rc; k++) {
            /* hazards: only stall (1), replay (4) and cr/hur (9) */
            if (detail && k != 1 && k != 4 && k != 9)
                continue;
            ipc[k] = hz_chip(sim, s, c, &w, &tech, &m, &hz_points[k], &bound[k], &rd[k], &acc[k],
                             &sum[k]);
            rc = ipc[k] < 0;
        }
        if (rc)
            break;
        if (detail) {
            hz_detail_row(w.name, ipc[1], bound[1], &sum[1], ipc[4], &sum[4], ipc[9], &sum[9]);
            continue;
        }
        printf("%-15s %6.3f", w.name, ipc[1]);
        for (int k = 0; k < N_HZ_POINTS; k++)
            if (k != 1)
                printf(" %8.4f", ipc[k] / ipc[1]);
        /* 1: stall, 9: cr/hur, 11: cr/pc (hz_points) */
        printf(" %6.3f %6.3f %6.3f %7.3f %6.3f\n", bound[1], rd[1], rd[9], acc[9], acc[11]);
    }
    sm_sim_free(sim);
    return rc;
}

/* One chip of each profile (or of the named one) once, printing the warp instructions
 * simulated: for instruction counting under callgrind, whose total divided by this
 * count is host instructions per warp instruction (docs/performance.md).  Ideal on the
 * all-fast map, or (--once-technique) the named preset on --digest's 70 % stand-in map,
 * so a design's cost is counted on the storage its digest line covers. */
static int once(const dse_sweep *s, sm_sim *sim, const char *only, const char *tname)
{
    dse_technique t;
    if (!dse_technique_preset(tname ? tname : "ideal", &t)) {
        fprintf(stderr, "model_bench: no preset '%s'\n", tname);
        return 2;
    }
    static sm_rf_map m;
    int total = s->var.floorplan.n_banks * s->var.floorplan.sub_banks;
    standin_map(s, &t, tname ? (int)(total * 0.3 + 0.5) : 0, &m);
    for (int wi = 0; wi < s->n_workloads; wi++) {
        if (only && strcmp(only, s->workloads[wi].name))
            continue;
        uint64_t insts = 0;
        if (chip_ipc(sim, s, &s->workloads[wi], &t, &m, &insts) < 0)
            return 1;
        printf("%-16s %12llu warp instructions\n", s->workloads[wi].name,
               (unsigned long long)insts);
    }
    return 0;
}

/* --load-use: the load-use distance of the drawn streams, the quantity measure's
 * lu_global and lu_shared give for the real kernels (bench/gpgpusim/measure): per
 * load (global, then shared) of each warp of the first LU_BLOCKS blocks, the distance
 * in the warp's instructions to the first one that reads its destination ("read"),
 * and to the first that reads or writes it ("stall": the scoreboard holds a write to
 * a pending register too, sched.c), both capped at LU_CAP as measure caps them; a
 * load whose warp ends before any reader is left out (a drawn warp's end is where its
 * length cuts it, not the kernel's code: pathfinder's last instruction is a shared
 * load in every warp).  Also the profile's dep_distance and the
 * keys, for comparison, and the register sources per instruction drawn (barriers
 * left out), which placing a reader may raise. */
#define LU_BLOCKS 4
#define LU_CAP 64

typedef struct lu_sum {
    double n, read, stall, ended; /* ended: loads whose warp ended before a reader */
} lu_sum;

static void lu_warp(const sm__kernel *k, int ordinal, int wib, lu_sum sum[2], double srcs[2])
{
    static sm__inst in[1 << 16];
    sm__warp w;
    memset(&w, 0, sizeof w);
    sm__gen_warp(k, &w, ordinal, wib);
    int len = k->uneven ? k->warp_len[wib] : k->insts_per_warp;
    len = len < (1 << 16) ? len : (1 << 16);
    for (int i = 0; i < len; i++, w.n_issued++) {
        sm__gen_next_drawn(k, &w);
        in[i] = w.next;
        srcs[0] += in[i].n_src;
        srcs[1] += in[i].op != SM__OP_BAR;
    }
    for (int i = 0; i < len; i++) {
        int kind = in[i].op == SM__OP_LD_GLOBAL ? 0 : in[i].op == SM__OP_LD_SHARED ? 1 : -1;
        if (kind < 0 || in[i].dst == SM__NO_REG)
            continue;
        int r = in[i].dst, read = LU_CAP, stall = LU_CAP, j = i + 1;
        for (int d = 1; j < len && d < LU_CAP; j++, d++) {
            bool rd = false;
            for (int q = 0; q < in[j].n_src; q++)
                rd |= in[j].src[q] == r;
            if (stall == LU_CAP && (rd || in[j].dst == r))
                stall = d;
            if (rd) {
                read = d;
                break;
            }
        }
        if (read == LU_CAP && j == len) { /* the warp ended first: no distance */
            sum[kind].ended++;
            continue;
        }
        sum[kind].n++;
        sum[kind].read += read;
        sum[kind].stall += stall;
    }
}

/* --load-use TSV: each profile's load_use_distance and shared_use_distance set to a
 * measure.tsv's lu_global and lu_shared (bank set none), as compare-profiles
 * --load-use runs them; 0 if the TSV has no row for it. */
static int lu_from_tsv(dse_sweep *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "model_bench: cannot read %s\n", path);
        return 2;
    }
    static char line[1 << 16];
    int col[4] = { -1, -1, -1, -1 }; /* bench, set, lu_global, lu_shared */
    static const char *const names[4] = { "bench", "set", "lu_global", "lu_shared" };
    bool header = false;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char *field[256];
        int n = 0;
        for (char *t = strtok(line, "\t\n"); t && n < 256; t = strtok(NULL, "\t\n"))
            field[n++] = t;
        if (!header) {
            for (int i = 0; i < n; i++)
                for (int c = 0; c < 4; c++)
                    col[c] = strcmp(field[i], names[c]) ? col[c] : i;
            header = true;
            if (col[0] < 0 || col[1] < 0 || col[2] < 0 || col[3] < 0) {
                fprintf(stderr, "model_bench: %s has no lu_global and lu_shared columns\n", path);
                fclose(f);
                return 2;
            }
            continue;
        }
        if (n <= col[3] || strcmp(field[col[1]], "none"))
            continue;
        for (int wi = 0; wi < s->n_workloads; wi++)
            if (!strcmp(s->workloads[wi].name, field[col[0]])) {
                s->workloads[wi].load_use_distance = atof(field[col[2]]);
                s->workloads[wi].shared_use_distance = atof(field[col[3]]);
            }
    }
    fclose(f);
    return 0;
}

static int load_use(dse_sweep *s, const char *tsv)
{
    static sm__kernel k;
    if (tsv && lu_from_tsv(s, tsv))
        return 2;
    printf("# load-use distance of the drawn streams (cap %d; %d blocks of each profile)\n",
           LU_CAP, LU_BLOCKS);
    printf("%-16s %8s %8s %8s %8s %8s %8s %8s %8s %8s %6s\n", "profile", "dep_dist", "lu_key",
           "g_loads", "g_read", "g_stall", "lu_key", "s_loads", "s_read", "s_stall", "srcs");
    for (int wi = 0; wi < s->n_workloads; wi++) {
        const sm_profile *p = &s->workloads[wi];
        if (p->trace_stream)
            continue;
        memset(&k, 0, sizeof k);
        k.regs = p->regs_per_thread;
        k.reg_span = p->reg_span > p->regs_per_thread ? p->reg_span : p->regs_per_thread;
        k.insts_per_warp = p->insts_per_warp;
        k.warps_per_block = (p->block_threads + 31) / 32;
        k.tail_lanes = p->block_threads % 32 ? p->block_threads % 32 : 32;
        sm__gen_setup(&k, p);
        lu_sum sum[2] = { { 0 } };
        double srcs[2] = { 0, 0 };
        for (int b = 0; b < LU_BLOCKS; b++)
            for (int j = 0; j < k.warps_per_block; j++)
                lu_warp(&k, b, j, sum, srcs);
        printf("%-16s %8.2f", p->name, p->dep_distance);
        for (int c = 0; c < 2; c++)
            if (printf(" %8.2f", c ? p->shared_use_distance : p->load_use_distance), sum[c].n > 0)
                printf(" %8.0f %8.2f %8.2f", sum[c].n, sum[c].read / sum[c].n,
                       sum[c].stall / sum[c].n);
            else
                printf(" %8d %8s %8s", 0, "-", "-");
        printf(" %6.3f\n", srcs[1] > 0 ? srcs[0] / srcs[1] : 0);
    }
    return 0;
}

/* Statistics that only account (energy), never time: left out of the default digest,
 * which therefore stays comparable with the digests recorded before they existed (the
 * digest is of every other statistic, field by field in list order, the bytes the
 * whole-struct hash saw then); --digest-full has them. */
static bool accounting_only(const char *name)
{
    static const char *const names[] = { "read_lanes", "write_lanes", "sub_read_lanes",
                                         "sub_write_lanes", "rfc_lanes" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

/* Statistics of designs and knobs added after the digests were recorded (ltrf,
 * rfc_demand, reg_release, memory hazards): hashed only when not all zero, so runs without the design hash as they
 * did before them. */
static bool added_later(const char *name)
{
    static const char *const names[] = {
        "rfc_hits", "rfc_misses", "rfc_fills", "rfc_writebacks", "rfc_intervals", "rfc_wait",
        "rfc_bank_accesses",
        "rf_vectors", "n_row_groups", "rr_alloc_cycles", "rr_held_cycles", "rr_live_cycles",
        "rr_powered_cycles", "rr_peak_regs", "rr_wakeups", "rr_releases", "rr_flag_insts",
        "rr_fast_allocs", "rr_slow_allocs", "bank_live", "bank_powered", "sub_powered",
        "group_live", "group_powered", "group_allocs",
        /* memory hazards (docs/replay.md): zero with the default knobs
         * (tests/model/test_replay.c checks they are) */
        "mem_requests", "mem_stall_queue", "mem_stall_divergence", "replays_mshr",
        "replays_queue", "replays_divergence", "replays_mshr_repeat", "replay_issues",
        "replay_reads", "replay_buffer_full", "tracker_holds", "predictions",
        "predictions_correct",
        /* barriers (issue 27): zero without frac_barrier */
        "stall_barrier", "barriers",
        /* memory system, shared-memory conflicts (issue 27): zero with the defaults */
        "mem_l2_requests", "mem_dram_requests", "mem_queue_cycles", "mem_miss_cycles",
        "mem_load_requests", "smem_conflict_cycles", "mem_l2_wait_cycles", "mem_eject_cycles",
        /* coalesce's byte slices (issue 31): zero without the design */
        "sub_const",
        /* the instruction cache (sm.frontend = "gpgpusim_icache"): zero without it */
        "icache_accesses", "icache_misses",
        /* pending hits (sm.pending_hits, sm.const_cache): zero without them */
        "pending_hits", "pending_cycles",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

static bool all_zero(const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i])
            return false;
    return true;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        h = (h ^ ((const unsigned char *)p)[k]) * 1099511628211ull;
    return h;
}

static uint64_t hash_stats(uint64_t h, const sm_stats *st, bool full)
{
#define HASH_SCALAR(name, unit, desc)                                                  \
    if ((full || !accounting_only(#name)) && !(added_later(#name) && !st->name))       \
        h = fnv(h, &st->name, sizeof st->name);
#define HASH_ARRAY(name, len, extent, unit, desc)                                      \
    if ((full || !accounting_only(#name)) &&                                           \
        !(added_later(#name) && all_zero(st->name, len)))                              \
        h = fnv(h, st->name, sizeof st->name);
    SM_STATS_SCALARS(HASH_SCALAR)
    SM_STATS_ARRAYS(HASH_ARRAY)
#undef HASH_SCALAR
#undef HASH_ARRAY
    /* the designs' own statistics (sm_design.h), as the added-later ones: only when
     * not all zero, so runs without those designs hash as before them; the first four
     * as when a design had at most four, the rest only when not all zero */
    for (int d = 0; full && d < SM_N_DESIGNS; d++)
        if (!all_zero(st->design[d], SM_DESIGN_MAX_STATS)) {
            h = fnv(h, st->design[d], 4 * sizeof(uint64_t));
            if (!all_zero(st->design[d] + 4, SM_DESIGN_MAX_STATS - 4))
                h = fnv(h, st->design[d] + 4, (SM_DESIGN_MAX_STATS - 4) * sizeof(uint64_t));
        }
    return h;
}

/* FNV-1a digest of every statistic of every SM run of every technique and profile on
 * the 70 % stand-in maps: a speed change that claims bit-identical results must leave
 * it unchanged (docs/performance.md).  The default digest is of the timing statistics
 * of the eleven presets it was first recorded on; `full` (--digest-full) covers every
 * statistic of every preset, so accounting-only changes are checked too.  Its first line
 * stays over the fourteen presets it was recorded on (FULL_RECORDED, in registry order);
 * the last line covers every preset, those added since too (ltrf's, reg_release's...). */
#define FULL_RECORDED 14
/* ... and a line over the 24 presets before operand_reuse (issue 29), so the every-
 * preset digest recorded then stays checkable as presets are added. */
#define ALL_RECORDED 24
static int digest(const dse_sweep *s, sm_sim *sim, bool full, bool each)
{
    static const char *const timing[] = { "ideal", "vl_rf", "vl_rv", "vl_sb", "rf_bro",
                                          "fba_rm", "two_level", "fwas", "hybrid", "pv_opt",
                                          "nbti_opt", NULL };
    const char *const *names = full ? dse_technique_preset_names() : timing;
    int n = s->var.floorplan.n_sms, total = s->var.floorplan.n_banks * s->var.floorplan.sub_banks;
    uint64_t h = 14695981039346656037ull, insts = 0;
    for (size_t t = 0; names[t]; t++) {
        if (full && t == FULL_RECORDED)
            printf("digest %016llx over %llu warp instructions\n", (unsigned long long)h,
                   (unsigned long long)insts);
        if (full && t == ALL_RECORDED && names[t])
            printf("digest (every preset to nbti_opt_rr) %016llx over %llu warp instructions\n",
                   (unsigned long long)h, (unsigned long long)insts);
        dse_technique tech;
        dse_technique_preset(names[t], &tech);
        static sm_rf_map m;
        standin_map(s, &tech, (int)(total * 0.3 + 0.5), &m);
        uint64_t own = 14695981039346656037ull;
        for (int wi = 0; wi < s->n_workloads; wi++)
            for (int i = 0; i < n; i++) {
                static sm_stats st;
                if (sm_sim_run(sim, &s->sm, &s->workloads[wi], &tech.ipc, &m, i, n, &st))
                    return 1;
                h = hash_stats(h, &st, full);
                own = hash_stats(own, &st, full);
                insts += st.warp_insts;
            }
        if (each)
            printf("%-16s %016llx\n", names[t], (unsigned long long)own);
    }
    printf("%s %016llx over %llu warp instructions\n", full ? "digest (every preset)" : "digest",
           (unsigned long long)h, (unsigned long long)insts);
    return 0;
}

/* reg_release's report (docs/model.md, "Register release and power gating"): per
 * profile, summed over the chip's SMs on the 70 % stand-in map of rf_bro, each design
 * run against rf_bro without it.  Leakage and dynamic energy from dse_energy_of at
 * frequency 1. */
typedef struct rr_sum {
    double cycles, insts, live, alloc, peak, leak, dyn;
} rr_sum;

static int rr_run(const dse_sweep *s, sm_sim *sim, const sm_profile *p, const char *name,
                  int gating, int flags, rr_sum *out)
{
    dse_technique t, bro;
    dse_technique_preset(name, &t);
    dse_technique_preset("rf_bro", &bro);
    t.freq = bro.freq; /* on rf_bro's map: the designs' IPC side composed onto rf_bro */
    if (gating >= 0)
        sm_technique_knob_set(&t.ipc, "rr_gating", gating);
    if (flags >= 0)
        sm_technique_knob_set(&t.ipc, "rr_flag_every", flags);
    static sm_rf_map m;
    int total = s->var.floorplan.n_banks * s->var.floorplan.sub_banks, n = s->var.floorplan.n_sms;
    standin_map(s, &t, (int)(total * 0.3 + 0.5), &m);
    *out = (rr_sum){ 0 };
    for (int i = 0; i < n; i++) {
        static sm_stats st;
        if (sm_sim_run(sim, &s->sm, p, &t.ipc, &m, i, n, &st))
            return 1;
        dse_sm_result r;
        dse_sm_result_of(&st, &m, &r);
        double dyn, leak;
        dse_energy_of(&s->energy, 16, total, r.lane_accesses, r.cycles, 1.0, r.powered, &dyn, &leak);
        *out = (rr_sum){ out->cycles + (double)st.cycles, out->insts + (double)st.warp_insts,
                         out->live + (double)st.rr_live_cycles, out->alloc + (double)st.rr_alloc_cycles,
                         fmax(out->peak, (double)st.rr_peak_regs), out->leak + leak, out->dyn + dyn };
    }
    return 0;
}

static int rr_report(const dse_sweep *s, sm_sim *sim)
{
    printf("%-15s %6s %6s %6s %6s %6s %6s %6s %6s %6s\n", "profile", "live", "leak_r", "leak_g",
           "r/ft_r", "g/ft_g", "dyn", "cycles", "noflag", "peak");
    for (int w = 0; w < s->n_workloads; w++) {
        const sm_profile *p = &s->workloads[w];
        rr_sum off, row, reg, ft_row, ft_reg, free_flags;
        if (rr_run(s, sim, p, "rf_bro", -1, -1, &off) ||
            rr_run(s, sim, p, "reg_release", -1, -1, &row) ||
            rr_run(s, sim, p, "reg_release", -1, 0, &free_flags) ||
            rr_run(s, sim, p, "rr_reg_gating", -1, -1, &reg) ||
            rr_run(s, sim, p, "rr_first_touch", SM_RR_GATE_ROW, -1, &ft_row) ||
            rr_run(s, sim, p, "rr_first_touch", -1, -1, &ft_reg))
            return 1;
        printf("%-15s %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f %+6.3f %+6.3f %6.0f\n", p->name,
               row.live / row.alloc, row.leak / off.leak, reg.leak / off.leak,
               row.leak / ft_row.leak, reg.leak / ft_reg.leak, row.dyn / off.dyn,
               row.cycles / off.cycles - 1, free_flags.cycles / off.cycles - 1, row.peak);
    }
    return 0;
}

/* The stopping rule against the exact run (docs/performance.md, "Stopping rule"):
 * every profile x the eleven timing presets x slow sets of 0, 15 and 30 % of the
 * sub-banks (stand-in maps), whole chips.  Per case the chip's IPC (mean over its
 * SMs) sampled and exact, and the largest difference of any SM's access and occupancy
 * duties; overall the CPU time, both ways. */
static int stop_table(const dse_sweep *s, sm_sim *sim, double rel)
{
    static const char *const names[] = { "ideal", "vl_rf", "vl_rv", "vl_sb", "rf_bro",
                                         "fba_rm", "two_level", "fwas", "hybrid", "pv_opt",
                                         "nbti_opt", NULL };
    const double slow_sets[] = { 0.0, 0.15, 0.3 };
    int n = s->var.floorplan.n_sms, total = s->var.floorplan.n_banks * s->var.floorplan.sub_banks;
    double worst = 0, sum_err = 0, worst_duty = 0, t_exact = 0, t_stop = 0;
    int cases = 0, over = 0;
    const char *worst_case = "";
    static char where[160];
    printf("%-16s %-10s %5s %10s %10s %9s %9s\n", "profile", "technique", "slow", "ipc exact",
           "ipc stop", "error %", "duty err");
    for (size_t t = 0; names[t]; t++) {
        dse_technique tech;
        dse_technique_preset(names[t], &tech);
        for (size_t k = 0; k < sizeof slow_sets / sizeof *slow_sets; k++) {
            static sm_rf_map m;
            standin_map(s, &tech, (int)(total * slow_sets[k] + 0.5), &m);
            for (int wi = 0; wi < s->n_workloads; wi++) {
                double ipc[2] = { 0, 0 }, duty = 0;
                for (int i = 0; i < n; i++) {
                    static sm_stats st[2];
                    static dse_sm_result r[2];
                    for (int mode = 0; mode < 2; mode++) {
                        sm_sim_set_stopping(sim, mode ? rel : 0);
                        double t0 = cpu_seconds();
                        if (sm_sim_run(sim, &s->sm, &s->workloads[wi], &tech.ipc, &m, i, n,
                                       &st[mode]))
                            return 1;
                        *(mode ? &t_stop : &t_exact) += cpu_seconds() - t0;
                        dse_sm_result_of(&st[mode], &m, &r[mode]);
                        ipc[mode] += r[mode].ipc / n;
                    }
                    for (int b = 0; b < m.n_banks; b++)
                        for (int p = 0; p < m.subs_per_bank; p++) {
                            int id = m.sub_id[b][p];
                            duty = fmax(duty, fabs(r[1].access_duty[id] - r[0].access_duty[id]));
                            duty = fmax(duty, fabs(r[1].occupancy_duty[id] - r[0].occupancy_duty[id]));
                        }
                }
                double err = 100 * (ipc[1] / ipc[0] - 1);
                cases++;
                over += fabs(err) >= 0.2;
                sum_err += fabs(err);
                worst_duty = fmax(worst_duty, duty);
                if (fabs(err) > worst) {
                    worst = fabs(err);
                    snprintf(where, sizeof where, "%s / %s / %.0f %%", s->workloads[wi].name,
                             names[t], 100 * slow_sets[k]);
                    worst_case = where;
                }
                printf("%-16s %-10s %4.0f%% %10.4f %10.4f %+9.3f %9.4f\n", s->workloads[wi].name,
                       names[t], 100 * slow_sets[k], ipc[0], ipc[1], err, duty);
            }
        }
    }
    sm_sim_set_stopping(sim, 0);
    printf("rel %.4g: %d cases, |IPC error| mean %.3f %%, largest %.3f %% (%s), %d at or over "
           "0.2 %%; largest duty difference %.4f; CPU %.2f s exact, %.2f s stopped (%.2fx)\n",
           rel, cases, sum_err / cases, worst, worst_case, over, worst_duty, t_exact, t_stop,
           t_exact / t_stop);
    return 0;
}

static const char usage[] =
    "usage: model_bench [--ipc-table [TECHNIQUE...] | --latency-table | --reg-release\n"
    "                    | --replay-table [OPT...] | --digest | --digest-full | --digest-each\n"
    "                    | --load-use [TSV] | --once [PROFILE]\n"
    "                    | --once-technique NAME [PROFILE]]\n"
    "  (none)         simulated warp instructions per CPU-second, per shipped profile\n"
    "  --ipc-table    IPC of every technique (or those named) on stand-in maps\n"
    "  --latency-table IPC against the main register file's latency, with and without caches\n"
    "  --digest       hash of the timing statistics of eleven presets (bit-identity check)\n"
    "  --digest-full  hash of every statistic of every preset\n"
    "  --digest-each  --digest-full's hash of each preset alone, one line each, then it\n"
    "  --reg-release  reg_release's report: live registers, energy, cycles per profile\n"
    "  --replay-table [slow=N tech=T sites=N bias=B requests=R interval=K oc=N\n"
    "                  mshrs=N seed=K memory=partitions hazards]\n"
    "                 memory hazards: IPC of Turner's design points per profile;\n"
    "                 hazards: what stall, replay and cr/hur met (docs/replay.md)\n"
    "  --once         one pass over the profiles (or PROFILE), for callgrind\n"
    "  --once-technique NAME [PROFILE]  the same with preset NAME on --digest's map\n"
    "  --load-use [TSV] load-use distance of each profile's drawn stream (measure's lu_*);\n"
    "                 with a measure.tsv, the profiles' load_use_distance and\n"
    "                 shared_use_distance set to its lu_global and lu_shared first\n"
    "  --with MECH    the speed table with a mechanism on (issue 27): memory (sm.memory =\n"
    "                 partitions), smem (every profile: smem_ways 2, frac_atomic 0.1,\n"
    "                 atomic_ways 4), const (sm.const_cache: the profiles' constant loads),\n"
    "                 icache (sm.frontend = gpgpusim_icache, the profiles' code_walk),\n"
    "                 icache-plain (the same at i mod code_insts, no walk)\n"
    "  --stop-table [REL] the stopping rule at relative error REL (0.01) against exact runs\n";

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    dse_sweep *s = dse_sweep_load_default(stderr);
    if (!s)
        return 2;
    sm_sim *sim = sm_sim_alloc(&s->sm);
    int rc = 1;
    if (sim) {
        if (argc > 1 && !strcmp(argv[1], "--ipc-table")) {
            int total = s->var.floorplan.n_banks * s->var.floorplan.sub_banks;
            /* --ipc-table [technique ...]: only those techniques, 70 % map only */
            const char *const *only = (const char *const *)argv + 2;
            if (argc == 2) {
                rc = ipc_table(s, sim, 0, NULL, 0);
                printf("\n");
            }
            rc |= ipc_table(s, sim, (int)(total * 0.3 + 0.5), only, argc - 2);
        } else if (argc > 1 && !strcmp(argv[1], "--latency-table")) {
            rc = latency_table(s, sim);
        } else if (argc > 1 && !strcmp(argv[1], "--replay-table")) {
            rc = replay_table(s, argc - 2, argv + 2);
        } else if (argc > 1 && !strcmp(argv[1], "--digest")) {
            rc = digest(s, sim, false, false);
        } else if (argc > 1 && !strcmp(argv[1], "--digest-full")) {
            rc = digest(s, sim, true, false);
        } else if (argc > 1 && !strcmp(argv[1], "--digest-each")) {
            rc = digest(s, sim, true, true);
        } else if (argc > 1 && !strcmp(argv[1], "--reg-release")) {
            rc = rr_report(s, sim);
        } else if (argc > 1 && !strcmp(argv[1], "--stop-table")) {
            rc = stop_table(s, sim, argc > 2 ? atof(argv[2]) : 0.01);
        } else if (argc > 2 && !strcmp(argv[1], "--with")) {
            rc = 0;
            if (!strcmp(argv[2], "memory")) {
                s->sm.memory = SM_MEMORY_PARTITIONS;
            } else if (!strcmp(argv[2], "icache") || !strcmp(argv[2], "icache-plain")) {
                s->sm.frontend = SM_FRONTEND_GPGPUSIM_ICACHE; /* the profiles' code_walk */
                for (int wi = 0; argv[2][6] && wi < s->n_workloads; wi++)
                    s->workloads[wi].n_code_walk = 0; /* i mod code_insts, as before */
            } else if (!strcmp(argv[2], "const")) {
                s->sm.const_cache = true; /* the profiles' frac_const, const_lines */
            } else if (!strcmp(argv[2], "smem")) {
                for (int wi = 0; wi < s->n_workloads; wi++) {
                    s->workloads[wi].smem_ways = 2.0;
                    s->workloads[wi].frac_atomic = 0.1;
                    s->workloads[wi].atomic_ways = 4;
                }
            } else {
                fputs(usage, stderr);
                rc = 2;
            }
            if (!rc)
                rc = speed(s, sim);
        } else if (argc > 1 && !strcmp(argv[1], "--load-use")) {
            rc = load_use(s, argc > 2 ? argv[2] : NULL);
        } else if (argc > 1 && !strcmp(argv[1], "--once")) {
            rc = once(s, sim, argc > 2 ? argv[2] : NULL, NULL);
        } else if (argc > 2 && !strcmp(argv[1], "--once-technique")) {
            rc = once(s, sim, argc > 3 ? argv[3] : NULL, argv[2]);
        } else {
            rc = speed(s, sim);
        }
    }
    sm_sim_free(sim);
    dse_sweep_free(s);
    return rc;
}
