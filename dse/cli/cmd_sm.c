/* rfdse sm: one SM simulation of one workload under one technique; prints IPC and the
 * statistics of model.md section 6 as a table for people (scripts should read the
 * results file, not this output). */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse_aging.h"
#include "dse_cli.h"
#include "dse_embedded.h"
#include "dse_rf_map.h"
#include "dse_sweep.h"
#include "sm.h"
#include "sm_design.h"

static const char help[] =
    "Usage: rfdse sm [SWEEP.cfg] --benchmark NAME --technique NAME [--chip K] [--sm I]\n"
    "                [--slow-subbanks N] [--all | --json]\n"
    "\n"
    "Simulates one SM running its share of a workload's blocks under a technique and\n"
    "prints IPC, the CPU time the simulation took (sim_cpu_seconds), the non-zero\n"
    "counters grouped (issue, register file, memory, design), stall causes and\n"
    "per-bank / per-sub-bank accesses.\n"
    "The workload and technique come from the sweep file (the built-in default sweep\n"
    "without one); a workload not in the sweep may be any shipped one (rfdse list\n"
    "workloads), a technique not in the sweep any preset name (rfdse list techniques).\n"
    "\n"
    "Options:\n"
    "  --benchmark NAME    workload profile (e.g. hotspot)\n"
    "  --technique NAME    technique (e.g. rf_bro, fwas, pv_opt)\n"
    "  --chip K            chip whose storage map to use (default 0)\n"
    "  --sm I              SM of the chip (default 0)\n"
    "  --slow-subbanks N   instead of the chip's map, a stand-in with N slow\n"
    "                      sub-banks (a what-if experiment independent of any chip)\n"
    "  --all               every counter, the zero ones too, and every per-bank,\n"
    "                      per-sub-bank and per-row-group array\n"
    "  --json              every number as one JSON object for scripts: the\n"
    "                      statistics by their table names, the per-bank and\n"
    "                      per-sub-bank arrays cut to n_banks and n_sub_banks\n"
    "  -h, --help          show this help\n";

typedef struct sm_opts {
    const char *path, *bench, *tech;
    int chip, sm, slow_subs;
    bool json, all;
} sm_opts;

static int parse_int(const char *s, int lo, int *out)
{
    long long v;
    if (dse_cli_parse_ll(s, lo, 1000000000, &v))
        return -1;
    *out = (int)v;
    return 0;
}

static int parse(int argc, char **argv, sm_opts *o)
{
    static const struct option longopts[] = {
        { "benchmark", required_argument, NULL, 'b' }, { "technique", required_argument, NULL, 't' },
        { "chip", required_argument, NULL, 'c' },      { "sm", required_argument, NULL, 's' },
        { "slow-subbanks", required_argument, NULL, 'n' }, { "json", no_argument, NULL, 'j' },
        { "all", no_argument, NULL, 'a' }, { NULL, 0, NULL, 0 },
    };
    *o = (sm_opts){ .chip = 0, .sm = 0, .slow_subs = -1 };
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        int *num = c == 'c' ? &o->chip : c == 's' ? &o->sm : c == 'n' ? &o->slow_subs : NULL;
        if (c == 'b')
            o->bench = optarg;
        else if (c == 't')
            o->tech = optarg;
        else if (c == 'j')
            o->json = true;
        else if (c == 'a')
            o->all = true;
        else if (num && parse_int(optarg, 0, num))
            return dse_cli_usage_error("sm", "option '%s' needs a non-negative integer, got '%s'",
                                       argv[optind - 1], optarg);
        else if (c == ':')
            return dse_cli_usage_error("sm", "option '%s' needs a value", argv[optind - 1]);
        else if (!num)
            return dse_cli_usage_error("sm", "unknown option '%s'", argv[optind - 1]);
    }
    if (optind < argc)
        o->path = argv[optind++];
    if (optind < argc)
        return dse_cli_usage_error("sm", "expected one sweep file, got '%s' and '%s'", o->path,
                                   argv[optind]);
    if (!o->bench || !o->tech)
        return dse_cli_usage_error("sm", "--benchmark and --technique are required");
    return 0;
}

/* A stand-in storage map for what-if runs (--slow-subbanks): ideal and baseline run on
 * an all-fast map (their accesses are 1-cycle by definition); sub-bank techniques get
 * `slow` slow sub-banks,
 * the last ones of the bank organisation table with rf_bro (pairs of slow sub-banks)
 * and spread evenly over the banks without it; vl_rv marks the last arrays of 32
 * register vectors slow; vl_rf marks every register vector that holds a slow
 * register, which with spatially correlated variation is nearly all of them. */
static void stand_in_map(const dse_sweep *s, const dse_technique *t, int slow, sm_rf_map *m)
{
    const var_floorplan *fp = &s->var.floorplan;
    sm_rf_map_all_fast(m, fp->n_banks, fp->entries_per_bank, fp->sub_banks);
    if (!t->freq.variation || slow <= 0)
        return;
    int total = fp->n_banks * fp->sub_banks, vectors = fp->n_banks * fp->entries_per_bank;
    switch (t->freq.granularity) {
    case VAR_GRAN_SUB_BANK:
        if (t->freq.bro)
            sm_rf_map_mark_last_slow(m, slow);
        else
            sm_rf_map_mark_spread_slow(m, slow);
        break;
    case VAR_GRAN_VECTOR_ARRAY: /* whole arrays of 32 vectors */
        sm_rf_map_mark_last_entries_slow(m, (int)((long)vectors * slow / total) / 32 * 32);
        break;
    case VAR_GRAN_REGISTER:
        sm_rf_map_mark_last_entries_slow(m, vectors);
        break;
    default:
        break;
    }
}

/* The groups of the table, by statistic name: "NAME" exactly or "PREFIX*".  A
 * statistic no pattern names (a new one) is printed under "other", never dropped. */
static const struct stat_group {
    const char *title;
    const char *const *names;
} groups[] = {
    { "Issue", (const char *const[]){ "cycles", "warp_insts", "thread_insts", "blocks",
                                      "resident_blocks", "block_cycles", "fast_insts",
                                      "stall_*", "dispatch_stalls", "barriers", NULL } },
    { "Register file", (const char *const[]){ "n_banks", "n_sub_banks", "hybrid_banks", "reads",
                                              "writes", "slow_*", "bank_*", "read_lanes",
                                              "write_lanes", NULL } },
    { "Memory", (const char *const[]){ "mshr_stalls", "l1_misses", "mem_*", "replay*", "icache_*",
                                       "tracker_holds", "predictions*", NULL } },
};
#define N_GROUPS ((int)(sizeof groups / sizeof groups[0]))
/* After the groups above, one per register-file design: the statistics its entry
 * declares (model/sm_design.h), its own or, for older designs, its names in sm.h's
 * lists; then "other". */
#define N_TITLES (N_GROUPS + SM_N_DESIGNS)

static bool matches(const char *pattern, const char *name)
{
    size_t n = strlen(pattern);
    return pattern[n - 1] == '*' ? !strncmp(pattern, name, n - 1) : !strcmp(pattern, name);
}

/* Index into groups[], N_GROUPS + design, or N_TITLES for "other". */
static int group_of(int stat, const char *name)
{
    int d = sm_stats_design_of(stat);
    if (d >= 0)
        return N_GROUPS + d;
    for (int g = 0; g < N_GROUPS; g++)
        for (const char *const *p = groups[g].names; *p; p++)
            if (matches(*p, name))
                return g;
    for (d = 0; d < SM_N_DESIGNS; d++) {
        const char *const *own = sm_design_get((sm_rf_design_id)d)->core_stats;
        for (const char *const *p = own; p && *p; p++)
            if (matches(*p, name))
                return N_GROUPS + d;
    }
    return N_TITLES;
}

static void print_title(int g)
{
    if (g < N_GROUPS)
        printf("\n%s\n", groups[g].title);
    else if (g < N_TITLES) { /* with the designs that share its statistics (the caches) */
        const sm_design_info *in = sm_design_get((sm_rf_design_id)(g - N_GROUPS));
        printf("\nDesign %s", sm_design_name((sm_rf_design_id)(g - N_GROUPS)));
        for (int d = g - N_GROUPS + 1; in->core_stats && d < SM_N_DESIGNS; d++)
            if (sm_design_get((sm_rf_design_id)d)->core_stats == in->core_stats)
                printf(" / %s", sm_design_name((sm_rf_design_id)d));
        printf("\n");
    }
    else
        printf("\nOther\n");
}

static void print_scalar(const sm_stat_info *i, uint64_t v)
{
    printf("  %-22s %14llu  %-20s %s\n", i->name, (unsigned long long)v, i->unit,
           i->description);
}

/* Scalars by group; without `all` only the non-zero ones (most are zero for most
 * designs), and a line saying how many were left out.  The arrays with --all. */
static void print_scalars(const sm_stats *st, bool all)
{
    int n = sm_stats_count(), hidden = 0;
    for (int g = 0; g <= N_TITLES; g++) {
        bool titled = false;
        for (int i = 0; i < n; i++) {
            sm_stat_info in = sm_stats_at(i);
            uint64_t v = in.length == 1 ? sm_stats_get(st, &in, 0) : 0;
            if (in.length != 1 || group_of(i, in.name) != g)
                continue;
            if (!v && !all) {
                hidden++;
                continue;
            }
            if (!titled)
                print_title(g);
            titled = true;
            print_scalar(&in, v);
        }
    }
    if (hidden)
        printf("\n(%d counters are zero and not shown; --all prints every one, --json too)\n",
               hidden);
}

/* --all: every array statistic, cut to the length its extent scalar gives. */
static void print_arrays(const sm_stats *st)
{
    int n;
    const sm_stat_info *info = sm_stats_info(&n);
    printf("\nArrays (by index; %s)\n", "virtual bank, physical sub-bank or row group");
    for (int i = 0; i < n; i++) {
        if (info[i].length == 1)
            continue;
        int len = 0;
        for (int k = 0; k < n; k++)
            if (info[k].length == 1 && !strcmp(info[k].name, info[i].extent))
                len = (int)sm_stats_get(st, &info[k], 0);
        printf("  %s (%s; %s):", info[i].name, info[i].unit, info[i].description);
        for (int k = 0; k < len; k++)
            printf(" %llu", (unsigned long long)sm_stats_get(st, &info[i], k));
        printf(len ? "\n" : " (none)\n");
    }
}

static void print_stalls(const sm_stats *st, int n_sched)
{
    double total = (double)st->cycles * n_sched;
    const struct { const char *name; uint64_t v; } rows[] = {
        { "issued", st->warp_insts },
        { "idle (no warp)", st->stall_idle },
        { "memory", st->stall_memory },
        { "dependency", st->stall_dependency },
        { "operand collector", st->stall_collector },
        { "in-flight limit", st->stall_inflight },
        { "barrier", st->stall_barrier },
    };
    printf("\nScheduler cycles (%d schedulers x %llu cycles)\n", n_sched,
           (unsigned long long)st->cycles);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        printf("  %-20s %12llu  %6.2f %%\n", rows[i].name, (unsigned long long)rows[i].v,
               total > 0 ? 100.0 * (double)rows[i].v / total : 0.0);
}

/* Whether physical sub-bank `id` is slow in the map (its speed class). */
static int sub_bank_slow(const sm_rf_map *m, uint64_t id)
{
    int slow = 0;
    for (int b = 0; b < m->n_banks; b++)
        for (int p = 0; p < m->subs_per_bank; p++)
            if ((uint64_t)m->sub_id[b][p] == id)
                slow = m->sub_slow[b][p];
    return slow;
}

static void print_banks(const sm_stats *st, const sm_rf_map *m)
{
    printf("\nVirtual banks (order of the bank organisation table; hybrid banks first)\n");
    printf("  %4s %12s %12s\n", "bank", "reads", "writes");
    for (uint64_t b = 0; b < st->n_banks; b++)
        printf("  %4llu %12llu %12llu\n", (unsigned long long)b,
               (unsigned long long)st->bank_reads[b], (unsigned long long)st->bank_writes[b]);
    printf("\nPhysical sub-banks (sm_rf_map.sub_id)\n");
    printf("  %4s %5s %12s %12s %16s\n", "sub", "slow", "reads", "writes", "occupancy");
    for (uint64_t i = 0; i < st->n_sub_banks; i++) {
        int slow = sub_bank_slow(m, i);
        printf("  %4llu %5s %12llu %12llu %16llu\n", (unsigned long long)i, slow ? "yes" : "no",
               (unsigned long long)st->sub_reads[i], (unsigned long long)st->sub_writes[i],
               (unsigned long long)st->sub_occupancy[i]);
    }
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void print_report(const dse_sweep *s, const sm_opts *o, const dse_technique *tech,
                         const sm_rf_map *map, const sm_stats *st, double freq, int total,
                         double sim_cpu)
{
    printf("rfdse sm: benchmark %s, technique %s, chip %d, SM %d of %d\n", o->bench, tech->name,
           o->chip, o->sm, s->var.floorplan.n_sms);
    if (o->slow_subs >= 0)
        printf("storage map: stand-in, %d of %d sub-banks slow\n\n",
               tech->freq.variation ? o->slow_subs : 0, total);
    else
        printf("storage map: chip %d (seed %llu), SM %d; SM frequency %.4f (normalised)%s\n",
               o->chip, (unsigned long long)s->chips.seed, o->sm, freq,
               dse_technique_cache_entries(s, tech) ? ", set by the register-file cache" : "");
    printf("main register file: %d cycles per access (fast storage)\n\n",
           tech->ipc.main_rf_latency);
    printf("  %-22s %14.4f  %-20s %s\n", "ipc", sm_stats_ipc(st), "warp instr./cycle",
           "warp instructions per cycle");
    printf("  %-22s %14.4f  %-20s %s\n", "avg_live_blocks", sm_stats_avg_live_blocks(st),
           "blocks", "resident blocks, averaged over cycles");
    printf("  %-22s %14.6f  %-20s %s\n", "sim_cpu_seconds", sim_cpu, "s",
           "CPU time of this simulation (sm_sim_run), not a statistic of the SM");
    print_scalars(st, o->all);
    print_stalls(st, s->sm.n_schedulers);
    print_banks(st, map);
    if (o->all)
        print_arrays(st);
}

/* A double that reads back exactly (JSON has no NaN: null). */
static void json_double(FILE *out, const char *key, double v)
{
    fprintf(out, isfinite(v) ? ",\n  \"%s\": %.17g" : ",\n  \"%s\": null", key, v);
}

/* Every statistic by its name; arrays to the length their extent scalar gives. */
static void json_stats(FILE *out, const sm_stats *st)
{
    int n;
    const sm_stat_info *info = sm_stats_info(&n);
    for (int i = 0; i < sm_stats_count(); i++) { /* the lists', then the designs' own */
        sm_stat_info in = sm_stats_at(i);
        fprintf(out, ",\n  \"%s\": ", in.name);
        if (in.length == 1) {
            fprintf(out, "%llu", (unsigned long long)sm_stats_get(st, &in, 0));
            continue;
        }
        int len = 0;
        for (int k = 0; k < n; k++)
            if (info[k].length == 1 && !strcmp(info[k].name, in.extent))
                len = (int)sm_stats_get(st, &info[k], 0);
        for (int k = 0; k < len; k++)
            fprintf(out, "%s%llu", k ? ", " : "[", (unsigned long long)sm_stats_get(st, &in, k));
        fputs(len ? "]" : "[]", out);
    }
}

/* The physical sub-banks' speed classes, as the table's "slow" column. */
static void json_slow(FILE *out, const sm_stats *st, const sm_rf_map *m)
{
    fputs(",\n  \"sub_bank_slow\": [", out);
    for (uint64_t i = 0; i < st->n_sub_banks; i++)
        fprintf(out, "%s%d", i ? ", " : "", sub_bank_slow(m, i));
    fputc(']', out);
}

static void print_json(const dse_sweep *s, const sm_opts *o, const dse_technique *tech,
                       const sm_rf_map *map, const sm_stats *st, double freq, double sim_cpu)
{
    FILE *out = stdout;
    fputs("{\n  \"benchmark\": ", out);
    dse_cli_json_string(out, o->bench);
    fputs(",\n  \"technique\": ", out);
    dse_cli_json_string(out, tech->name);
    fprintf(out, ",\n  \"chip\": %d,\n  \"sm\": %d,\n  \"n_sms\": %d,\n  \"seed\": %llu",
            o->chip, o->sm, s->var.floorplan.n_sms, (unsigned long long)s->chips.seed);
    if (o->slow_subs >= 0)
        fprintf(out, ",\n  \"stand_in_slow_subbanks\": %d", tech->freq.variation ? o->slow_subs : 0);
    else
        json_double(out, "sm_frequency", freq);
    fprintf(out, ",\n  \"main_rf_latency\": %d", tech->ipc.main_rf_latency);
    json_double(out, "ipc", sm_stats_ipc(st));
    json_double(out, "avg_live_blocks", sm_stats_avg_live_blocks(st));
    json_double(out, "sim_cpu_seconds", sim_cpu);
    json_stats(out, st);
    json_slow(out, st, map);
    fputs("\n}\n", out);
}

static size_t add_name(dse_suggest *sg, char *buf, size_t n, size_t used, const char *name)
{
    dse_suggest_offer(sg, name);
    if (used < n)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", name);
    return used;
}

/* The names a user may give: the sweep's workloads, or its techniques and the presets;
 * the nearest to `got` in *sg. */
static const char *names(const dse_sweep *s, bool techniques, const char *got, dse_suggest *sg,
                         char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    dse_suggest_init(sg, got, strlen(got));
    int k = techniques ? s->n_techniques : s->n_workloads;
    for (int i = 0; i < k; i++)
        used = add_name(sg, buf, n, used,
                        techniques ? s->techniques[i].name : s->workloads[i].name);
    for (const char *const *p = dse_technique_preset_names(); techniques && *p; p++)
        if (dse_sweep_technique_index(s, *p) < 0)
            used = add_name(sg, buf, n, used, *p);
    for (const char *const *p = dse_embedded_workload_names(); !techniques && *p; p++)
        if (dse_sweep_workload_index(s, *p) < 0)
            used = add_name(sg, buf, n, used, *p);
    return buf;
}

/* The sweep's workload `name`, else the shipped one into *own; NULL after a message. */
static const sm_profile *workload(const dse_sweep *s, const char *name, sm_profile *own)
{
    char list[2048], hint[96];
    int wi = dse_sweep_workload_index(s, name);
    if (wi >= 0)
        return &s->workloads[wi];
    int rc = dse_sweep_shipped_workload(name, &s->sm, own, stderr);
    dse_suggest sg;
    if (rc > 0) {
        names(s, false, name, &sg, list, sizeof list);
        dse_cli_usage_error("sm", "unknown benchmark '%s'%s accepted (the sweep's, then the "
                            "shipped ones): %s", name,
                            sg.best ? dse_suggest_format(&sg, hint, sizeof hint) : ",", list);
    }
    return rc ? NULL : own;
}

static int simulate(const dse_sweep *s, const sm_opts *o, sm_profile *own)
{
    char list[1024], hint[96];
    dse_suggest sg;
    const sm_profile *wl = workload(s, o->bench, own);
    if (!wl)
        return DSE_EXIT_USAGE;
    dse_technique tech;
    int ti = dse_sweep_technique_index(s, o->tech);
    if (ti >= 0)
        tech = s->techniques[ti];
    else if (!dse_technique_preset(o->tech, &tech)) {
        names(s, true, o->tech, &sg, list, sizeof list);
        return dse_cli_usage_error("sm", "unknown technique '%s'%s accepted: %s", o->tech,
                                   sg.best ? dse_suggest_format(&sg, hint, sizeof hint) : ",",
                                   list);
    }
    const var_floorplan *fp = &s->var.floorplan;
    if (o->sm >= fp->n_sms)
        return dse_cli_usage_error("sm", "--sm %d: the chip has %d SMs", o->sm, fp->n_sms);
    int total = fp->n_banks * fp->sub_banks;
    if (o->slow_subs > total)
        return dse_cli_usage_error("sm", "--slow-subbanks %d: the RF has %d sub-banks",
                                   o->slow_subs, total);
    if (o->chip >= s->chips.count)
        return dse_cli_usage_error("sm", "--chip %d: the sweep has %d chips", o->chip,
                                   s->chips.count);
    sm_rf_map *map = malloc(sizeof *map);
    sm_stats *st = malloc(sizeof *st);
    sm_sim *sim = sm_sim_alloc(&s->sm);
    int rc = DSE_EXIT_FAILURE;
    char err[256];
    double freq = 1.0;
    if (!map || !st || !sim) {
        fprintf(stderr, "rfdse sm: out of memory\n");
        goto done;
    }
    if (o->slow_subs >= 0)
        stand_in_map(s, &tech, o->slow_subs, map);
    else if (dse_aging_sm_of_chip(s, &tech, o->chip, o->sm, map, &freq, &tech.ipc, err,
                                  sizeof err)) { /* by its clock (a cache sets the latency) */
        fprintf(stderr, "rfdse sm: %s\n", err);
        goto done;
    }
    double t0 = cpu_seconds();
    int sim_rc = sm_sim_run(sim, &s->sm, wl, &tech.ipc, map, o->sm, fp->n_sms, st);
    double sim_cpu = cpu_seconds() - t0;
    if (sim_rc) {
        fprintf(stderr, "rfdse sm: %s: %s\n", sm_strerror(sim_rc), sm_sim_diagnostic(sim));
        goto done;
    }
    if (o->json)
        print_json(s, o, &tech, map, st, freq, sim_cpu);
    else
        print_report(s, o, &tech, map, st, freq, total, sim_cpu);
    rc = DSE_EXIT_OK;
done:
    sm_sim_free(sim);
    free(st);
    free(map);
    return rc;
}

int dse_cmd_sm(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    sm_opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    dse_sweep *s = o.path ? dse_sweep_load_file(o.path, stderr) : dse_sweep_load_default(stderr);
    if (!s)
        return DSE_EXIT_USAGE;
    sm_profile *own = malloc(sizeof *own); /* a shipped workload the sweep lacks */
    rc = own ? simulate(s, &o, own) : DSE_EXIT_FAILURE;
    free(own);
    dse_sweep_free(s);
    return rc;
}
