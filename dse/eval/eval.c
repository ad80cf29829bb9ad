/* One chip, every requested technique and workload (see dse_eval.h): time-zero maps,
 * IPC and stress duties here; then the aging loop (dse/aging/), which this calls with the
 * time-zero results and which never calls back here by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse_aging.h"
#include "dse_rf_map.h"
#include "eval_internal.h"

void dse_eval_free(dse_eval *e)
{
    if (!e)
        return;
    var_chip_free(e->chip);
    sm_sim_free(e->sim);
    dse_sim_cache_free(e->cache);
    free(e->maps);
    free(e->sm_freq);
    free(e->ideal_ipc);
    free(e->ideal_energy);
    free(e->ideal_duty);
    free(e->duty);
    free(e->cache_duty);
    free(e->ipc);
    dse_aging_free(e->aging);
    free(e->run);
    free(e->stats);
    free(e);
}

static int alloc_arrays(dse_eval *e)
{
    size_t sms = (size_t)e->n_sms, subs = (size_t)e->n_subs, per_chip = sms * subs;
    size_t all_w = (size_t)e->n_w * per_chip;
    e->maps = malloc(sizeof *e->maps * sms);
    e->sm_freq = malloc(sizeof(double) * sms);
    e->ideal_ipc = malloc(sizeof(double) * (size_t)e->n_w);
    e->ideal_energy = malloc(sizeof(double) * (size_t)e->n_w);
    e->ideal_duty = malloc(sizeof(double) * all_w);
    e->duty = malloc(sizeof(double) * all_w);
    size_t banks = sms * (size_t)e->s->var.floorplan.n_banks;
    e->cache_duty = malloc(sizeof(double) * banks * (size_t)e->n_w);
    e->ipc = malloc(sizeof *e->ipc * sms);
    e->aging = dse_aging_alloc(e->s);
    e->run = malloc(sizeof *e->run);
    e->stats = malloc(sizeof *e->stats);
    return e->maps && e->sm_freq && e->ideal_ipc && e->ideal_energy && e->ideal_duty && e->duty &&
                   e->cache_duty && e->ipc && e->aging && e->run && e->stats
               ? 0 : -1;
}

dse_eval *dse_eval_alloc(const dse_sweep *s, bool reuse, char *err, size_t n)
{
    return dse_eval_alloc_store(s, reuse, NULL, err, n);
}

/* A register-file cache of other cells than the RF's has tables of its own, which the
 * first rank to use it builds alone, lazily (dse/aging/clock_cache.c).  With a store
 * and a split, the parts build them here together and save them, and that first use
 * loads them (a table not made here is left to that first use). */
static void prefetch_cell_tables(const dse_sweep *s, const var_table_cache *tc)
{
    double done[DSE_MAX_TECHNIQUES];
    int n_done = 0;
    for (int t = 0; t < s->n_techniques; t++) {
        const dse_technique *tech = &s->techniques[t];
        bool seen = tech->rfc_cell_area == 1.0 || dse_technique_cache_entries(s, tech) <= 0;
        for (int i = 0; i < n_done && !seen; i++)
            seen = done[i] == tech->rfc_cell_area;
        if (seen)
            continue;
        done[n_done++] = tech->rfc_cell_area;
        var_cache_free(var_cache_alloc_tables(&s->var, tech->rfc_cell_area, tc, NULL));
    }
}

dse_eval *dse_eval_alloc_store(const dse_sweep *s, bool reuse, dse_run_store *st, char *err,
                               size_t n)
{
    return dse_eval_alloc_split(s, reuse, st, NULL, err, n);
}

dse_eval *dse_eval_alloc_split(const dse_sweep *s, bool reuse, dse_run_store *st,
                               const var_table_split *split, char *err, size_t n)
{
    dse_eval *e = calloc(1, sizeof *e);
    int verr = 0;
    if (!e)
        goto fail;
    e->s = s;
    e->reuse = reuse;
    e->n_sms = s->var.floorplan.n_sms;
    e->n_subs = s->var.floorplan.n_banks * s->var.floorplan.sub_banks;
    e->n_w = s->n_workloads;
    if (st) {
        dse_run_store_tables(st, &e->tables);
        dse_run_store_chips(st, &e->keep);
        e->has_keep = true;
    }
    /* the split for the tables built now only: one built lazily is built by one rank */
    var_table_cache chip_tables = e->tables;
    chip_tables.split = split;
    e->chip = var_chip_alloc_tables(&s->var, st || split ? &chip_tables : NULL, &verr);
    /* collective: every rank has a store or none (dse/run/run.c, open_store) */
    if (e->chip && st && split && split->n_parts > 1)
        prefetch_cell_tables(s, &chip_tables);
    e->sim = sm_sim_alloc(&s->sm);
    e->cache = dse_sim_cache_alloc(16);
    if (!e->chip || !e->sim || !e->cache || alloc_arrays(e))
        goto fail;
    dse_sim_cache_set_store(e->cache, st);
    dse_aging_set_tables(e->aging, st ? &e->tables : NULL);
    for (int w = 0; w < e->n_w; w++)
        e->ideal_ipc[w] = NAN; /* computed on first use */
    return e;
fail:
    snprintf(err, n, "cannot set up the chip model: %s",
             verr ? var_strerror(verr) : "out of memory");
    dse_eval_free(e);
    return NULL;
}

/* One SM run with the SM's IPC side, through the cache unless reuse is off. */
static int sm_run(dse_eval *e, int w, int sm)
{
    const dse_sweep *s = e->s;
    const sm_technique *t = &e->ipc[sm];
    if (e->reuse)
        return dse_sim_cache_run(e->cache, e->sim, &s->sm, &s->workloads[w], w, t, &e->maps[sm],
                                 sm, e->n_sms, e->run);
    int rc = sm_sim_run(e->sim, &s->sm, &s->workloads[w], t, &e->maps[sm], sm, e->n_sms,
                        e->stats);
    e->direct_runs++;
    if (rc == SM_OK)
        dse_sm_result_of(e->stats, &e->maps[sm], e->run);
    return rc;
}

const double *dse__eval_duty_of(const dse_eval *e, const dse_sm_result *r)
{
    return e->s->var.aging.duty == VAR_DUTY_OCCUPANCY ? r->occupancy_duty : r->access_duty;
}

/* Under the occupancy duty model a cache's banks count as always holding values: the
 * active group's partitions are kept full by design (docs/model.md, "The cache clock"). */
static void add_cache_duty(const dse_eval *e, int sm, double weight, double *acc)
{
    int banks = e->s->var.floorplan.n_banks;
    bool occupancy = e->s->var.aging.duty == VAR_DUTY_OCCUPANCY;
    double *row = acc + (size_t)sm * (size_t)banks;
    for (int b = 0; b < banks; b++)
        row[b] += weight * (occupancy ? 1.0 : e->run->rfc_duty[b]);
}

int dse__eval_runs(dse_eval *e, int w, double weight, double *duty_acc, double *cache_acc,
                   const double *sm_freq, dse__runs *out, char *err, size_t n)
{
    const var_floorplan *f = &e->s->var.floorplan;
    int lanes_per_sub = f->bits_per_entry / 32 / f->sub_banks;
    double sum = 0;
    *out = (dse__runs){ 0 };
    for (int sm = 0; sm < e->n_sms; sm++) {
        int rc = sm_run(e, w, sm);
        if (rc != SM_OK) {
            snprintf(err, n, "SM model failed on workload %s, SM %d: %s (%s)",
                     e->s->workloads[w].name, sm, sm_strerror(rc), sm_sim_diagnostic(e->sim));
            return -1;
        }
        sum += e->run->ipc;
        double dyn, leak;
        dse_energy_of(&e->s->energy, lanes_per_sub, e->n_subs, e->run->lane_accesses,
                      e->run->cycles, sm_freq ? sm_freq[sm] : 1.0, e->run->powered, &dyn,
                      &leak);
        out->dynamic_j += dyn;
        out->leakage_j += leak;
        out->rfc_lanes += e->run->rfc_lanes;
        out->seconds += e->run->cycles /
                        ((sm_freq ? sm_freq[sm] : 1.0) * e->s->energy.clock_mhz * 1e6);
        if (duty_acc) {
            const double *d = dse__eval_duty_of(e, e->run);
            for (int i = 0; i < e->n_subs; i++)
                duty_acc[(size_t)sm * (size_t)e->n_subs + (size_t)i] += weight * d[i];
        }
        if (cache_acc)
            add_cache_duty(e, sm, weight, cache_acc);
        if (e->poll && e->poll(e->poll_arg)) {
            e->abandoned = true;
            snprintf(err, n, "chip abandoned at a stop request");
            return -1;
        }
    }
    out->ipc = sum / e->n_sms;
    return 0;
}

static double *duty_of_workload(double *duty, const dse_eval *e, int w)
{
    return duty + (size_t)w * (size_t)e->n_sms * (size_t)e->n_subs;
}

void dse__eval_ideal_maps(dse_eval *e)
{
    const var_floorplan *f = &e->s->var.floorplan;
    sm_technique t;
    sm_technique_default(&t);
    for (int sm = 0; sm < e->n_sms; sm++) {
        sm_rf_map_all_fast(&e->maps[sm], f->n_banks, f->entries_per_bank, f->sub_banks);
        e->ipc[sm] = t;
    }
}

/* IPC and duties of the ideal chip (no variation, every access one cycle, base
 * scheduler) for every workload: the IPC normaliser, and the baseline's duties (the
 * baseline runs the same all-fast map).  The same for all chips: once per rank. */
static int ensure_ideal(dse_eval *e, char *err, size_t n)
{
    if (!isnan(e->ideal_ipc[0]))
        return 0;
    dse__eval_ideal_maps(e);
    memset(e->ideal_duty, 0, sizeof(double) * (size_t)e->n_w * (size_t)e->n_sms * (size_t)e->n_subs);
    for (int w = 0; w < e->n_w; w++) {
        dse__runs runs;
        if (dse__eval_runs(e, w, 1.0, duty_of_workload(e->ideal_duty, e, w), NULL, NULL, &runs,
                           err, n))
            return -1;
        e->ideal_ipc[w] = runs.ipc;
        e->ideal_energy[w] = runs.dynamic_j + runs.leakage_j;
    }
    return 0;
}

/* Workload w's register-file energy of technique t from its runs: the main RF's, plus
 * a register-file cache's (its accesses, and its cells' leakage over the same run time;
 * docs/model.md, "Energy"). */
static void energy(const dse_eval *e, const dse_technique *t, const dse__runs *runs,
                   dse_unit *u, int w)
{
    const var_floorplan *f = &e->s->var.floorplan;
    double dyn = runs->dynamic_j, leak = runs->leakage_j, cdyn = 0, cleak = 0;
    int entries = dse_technique_cache_entries(e->s, t);
    if (entries) {
        /* a sub-bank holds entries_per_bank vectors' share 1 / sub_banks */
        double subs = (double)entries * f->sub_banks / f->entries_per_bank;
        dse_energy_cache_of(&e->s->energy, f->bits_per_entry / 32 / f->sub_banks, subs,
                            t->rfc_cell_area, runs->rfc_lanes, runs->seconds, &cdyn, &cleak);
    }
    double ideal = e->ideal_energy[w];
    u->rf_energy_dynamic[w] = dyn + cdyn;
    u->rf_energy_leakage[w] = leak + cleak;
    u->rfc_energy[w] = cdyn + cleak;
    u->rf_dynamic[w] = (dyn + cdyn) / ideal;
    u->rf_leakage[w] = (leak + cleak) / ideal;
    u->rf_energy[w] = (dyn + cdyn + leak + cleak) / ideal;
}

/* Time zero of technique ti: maps, frequency, IPC and duties per workload. */
static int eval_time_zero(dse_eval *e, int ti, dse_unit *u, char *err, size_t n)
{
    const dse_sweep *s = e->s;
    const dse_technique *t = &s->techniques[ti];
    double freq, freq_min;
    if (dse_aging_time_zero(e->aging, ti, e->maps, e->sm_freq, e->ipc, &freq, &freq_min, err, n))
        return -1;
    u->frequency[0] = freq;
    u->frequency_min[0] = freq_min;
    memset(e->duty, 0, sizeof(double) * (size_t)e->n_w * (size_t)e->n_sms * (size_t)e->n_subs);
    size_t cache_per_w = (size_t)e->n_sms * (size_t)s->var.floorplan.n_banks;
    memset(e->cache_duty, 0, sizeof(double) * (size_t)e->n_w * cache_per_w);
    for (int w = 0; w < e->n_w; w++) {
        dse__runs runs;
        if (dse__eval_runs(e, w, 1.0, duty_of_workload(e->duty, e, w),
                           e->cache_duty + (size_t)w * cache_per_w, e->sm_freq, &runs, err,
                           n)) /* the ideal clock's frequencies are 1 */
            return -1;
        u->ipc[w] = runs.ipc / e->ideal_ipc[w];
        u->performance_t0[w] = u->ipc[w] * freq;
        energy(e, t, &runs, u, w);
    }
    return 0;
}

/* model.md section 8: with aging the headline performance is IPC x the frequency the
 * chip holds for its whole life, the end-of-schedule one (after the guardband, under the
 * workload mix's stress: /results/frequency at the last year); without aging it is the
 * time-zero value.  The IPC is the one at that clock: the time-zero IPC, unless the
 * technique's clock moves the SMs' IPC side by then (a register-file cache's main-RF
 * latencies follow its clock; dse_aging_end_state): ipc_lifetime, the SM runs again. */
static int lifetime_performance(dse_eval *e, dse_unit *u, char *err, size_t n)
{
    const dse_sweep *s = e->s;
    int years = s->var.aging.n_years;
    double f_end = u->frequency[years - 1];
    bool rerun = dse_aging_end_state(e->aging, e->ipc);
    for (int w = 0; w < s->n_workloads; w++) {
        dse__runs runs;
        u->ipc_lifetime[w] = u->ipc[w];
        if (rerun) {
            if (dse__eval_runs(e, w, 1.0, NULL, NULL, NULL, &runs, err, n))
                return -1;
            u->ipc_lifetime[w] = runs.ipc / e->ideal_ipc[w];
        }
        u->performance[w] = u->ipc_lifetime[w] * f_end;
    }
    return 0;
}

/* The aging loop's SM runs (dse_aging_run_fn): the same runs as time zero's, on the maps
 * the loop re-paired in e->maps. */
static int aging_runs(void *arg, int w, double weight, double *duty_acc, char *err, size_t n)
{
    dse__runs runs;
    return dse__eval_runs(arg, w, weight, duty_acc, NULL, NULL, &runs, err, n);
}

/* The aging loop of the technique of the last time zero from its results (e->duty,
 * e->cache_duty, u->frequency[0]) into u's per-year frequency and guardbands. */
static int eval_aging(dse_eval *e, dse_unit *u, const double *base_raw, char *err, size_t n)
{
    dse_aging_in in = {
        .duty = e->duty, .cache_duty = e->cache_duty,
        .frequency0 = u->frequency[0], .frequency_min0 = u->frequency_min[0],
        .base_raw = base_raw, .maps = e->maps, .run = aging_runs, .run_arg = e,
    };
    dse_aging_out out = {
        .frequency = u->frequency, .frequency_min = u->frequency_min,
        .main_latency = u->main_latency,
        .guardband_raw = u->guardband_raw, .guardband = u->guardband, .trace = u->trace,
        .trace_delay = u->trace_delay, .trace_slow = u->trace_slow, .trace_util = u->trace_util,
    };
    return dse_aging_run(e->aging, &in, &out, err, n);
}

/* The guardband lifetime performance pays: the frequency lost by each year under the
 * workload mix (u->frequency), raw and normalised to the baseline's (base_mix [year]). */
static void guardband_mix(const dse_sweep *s, dse_unit *u, const double *base_mix)
{
    for (int y = 0; y < s->var.aging.n_years; y++) {
        u->guardband_mix_raw[y] = 1.0 - u->frequency[y] / u->frequency[0];
        u->guardband_mix[y] = y > 0 && base_mix[y] > 0 ? u->guardband_mix_raw[y] / base_mix[y] : NAN;
    }
}

static void chip_info(dse_eval *e, int chip, dse_chip_info *info)
{
    info->chip = chip;
    for (int sm = 0; sm < e->n_sms; sm++) {
        info->sm_frequency[sm] = var_chip_sm_frequency(e->chip, sm);
        info->within_sm_ratio[sm] = var_chip_within_sm_ratio(e->chip, sm);
    }
    info->sm_to_sm_ratio = var_chip_sm_to_sm_ratio(e->chip);
}

/* The chip's row in the trace datasets, or -1. */
static int trace_index(const dse_sweep *s, int chip)
{
    for (int i = 0; i < s->output.n_trace_chips; i++)
        if (s->output.trace_chips[i] == chip)
            return i;
    return -1;
}

static int eval_chip(dse_eval *e, int chip, const uint8_t *want, dse_unit *units,
                     dse_chip_info *info, char *err, size_t n)
{
    const dse_sweep *s = e->s;
    int rc = var_chip_generate_kept(e->chip, &s->var, s->chips.seed, chip,
                                    e->has_keep ? &e->keep : NULL);
    if (rc) {
        snprintf(err, n, "chip %d: %s", chip, var_strerror(rc));
        return -1;
    }
    chip_info(e, chip, info);
    dse_sim_cache_chip(e->cache, s->chips.seed, chip);
    if (ensure_ideal(e, err, n))
        return -1;
    double base_raw[DSE_MAX_WORKLOADS], base_mix[VAR_MAX_YEARS];
    dse_aging_set_chip(e->aging, e->chip);
    dse_aging_baseline_guardband(e->aging, e->ideal_duty, base_raw, base_mix);
    int k = 0;
    for (int t = 0; t < s->n_techniques; t++) {
        if (!want[t])
            continue;
        units[k].chip = chip;
        units[k].technique = t;
        units[k].trace = trace_index(s, chip);
        if (eval_time_zero(e, t, &units[k], err, n) ||
            eval_aging(e, &units[k], base_raw, err, n) ||
            lifetime_performance(e, &units[k], err, n))
            return -1;
        guardband_mix(s, &units[k], base_mix);
        k++;
    }
    return k;
}

int dse_eval_chip(dse_eval *e, int chip, const uint8_t *want, dse_unit *units,
                  dse_chip_info *info, dse_poll_fn poll, void *poll_arg, char *err, size_t n)
{
    e->poll = poll;
    e->poll_arg = poll_arg;
    e->abandoned = false;
    int k = eval_chip(e, chip, want, units, info, err, n);
    if (k < 0 && e->abandoned) {
        /* the ideal chip may be half computed: start it again if ever asked */
        e->ideal_ipc[0] = NAN;
        return DSE_EVAL_ABANDONED;
    }
    return k;
}

void dse_eval_take_cache(dse_eval *to, dse_eval *from)
{
    dse_sim_cache *c = to->cache;
    to->cache = from->cache;
    from->cache = c;
    to->direct_runs += from->direct_runs;
    from->direct_runs = 0;
}

void dse_eval_counts(const dse_eval *e, long *reused, long *simulated, long *from_store)
{
    dse_sim_cache_counts(e->cache, reused, simulated);
    *simulated += e->direct_runs;
    *from_store = dse_sim_cache_stored(e->cache);
}

void dse_eval_set_store(dse_eval *e, dse_run_store *st)
{
    dse_sim_cache_set_store(e->cache, st);
}

long dse_eval_planned_runs(const dse_sweep *s, int ranks)
{
    int busy = ranks < s->chips.count ? ranks : s->chips.count;
    long total = (long)busy * s->n_workloads * s->var.floorplan.n_sms; /* ensure_ideal */
    for (int c = 0; c < s->chips.count; c++)
        for (int t = 0; t < s->n_techniques; t++)
            total += dse_aging_unit_runs(s, &s->techniques[t], trace_index(s, c) >= 0);
    return total;
}
