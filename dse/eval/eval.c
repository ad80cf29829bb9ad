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
    free(e->counted0);
    dse_aging_free(e->aging);
    free(e->main_lat);
    free(e->lat_end);
    free(e->rfc_delay);
    free(e->rfc_leff);
    free(e->rfc_duty);
    for (int t = 0; t < DSE_MAX_TECHNIQUES; t++)
        var_cache_free(e->rfc_cells[t]);
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
    e->counted0 = malloc(sizeof(double) * per_chip);
    e->aging = dse_aging_alloc(e->s);
    e->run = malloc(sizeof *e->run);
    e->stats = malloc(sizeof *e->stats);
    size_t banks = sms * (size_t)e->s->var.floorplan.n_banks;
    e->main_lat = calloc(sms, sizeof(int));
    e->lat_end = calloc(sms, sizeof(int));
    e->rfc_delay = malloc(sizeof(double) * banks);
    e->rfc_leff = malloc(sizeof(double) * banks);
    e->rfc_duty = malloc(sizeof(double) * banks * (size_t)e->n_w);
    return e->maps && e->sm_freq && e->ideal_ipc && e->ideal_energy && e->ideal_duty && e->duty &&
                   e->counted0 && e->aging && e->run && e->stats && e->main_lat && e->lat_end &&
                   e->rfc_delay && e->rfc_leff && e->rfc_duty
               ? 0 : -1;
}

dse_eval *dse_eval_alloc(const dse_sweep *s, bool reuse, char *err, size_t n)
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
    e->chip = var_chip_alloc_err(&s->var, &verr);
    e->sim = sm_sim_alloc(&s->sm);
    e->cache = dse_sim_cache_alloc(16);
    if (!e->chip || !e->sim || !e->cache || alloc_arrays(e))
        goto fail;
    for (int w = 0; w < e->n_w; w++)
        e->ideal_ipc[w] = NAN; /* computed on first use */
    return e;
fail:
    snprintf(err, n, "cannot set up the chip model: %s",
             verr ? var_strerror(verr) : "out of memory");
    dse_eval_free(e);
    return NULL;
}

/* One SM run, through the cache unless reuse is off; at the SM's main-RF latency when
 * a register-file cache sets its clock. */
static int sm_run(dse_eval *e, int w, const sm_technique *t, int sm)
{
    const dse_sweep *s = e->s;
    sm_technique at_latency;
    if (e->main_lat[sm] > 0) {
        at_latency = *t;
        at_latency.main_rf_latency = e->main_lat[sm];
        t = &at_latency;
    }
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
static void add_rfc_duty(const dse_eval *e, int sm, double weight, double *acc)
{
    int banks = e->s->var.floorplan.n_banks;
    bool occupancy = e->s->var.aging.duty == VAR_DUTY_OCCUPANCY;
    double *row = acc + (size_t)sm * (size_t)banks;
    for (int b = 0; b < banks; b++)
        row[b] += weight * (occupancy ? 1.0 : e->run->rfc_duty[b]);
}

int dse__eval_runs(dse_eval *e, int w, const sm_technique *t, double weight, double *duty_acc,
                   double *rfc_acc, const double *sm_freq, dse__runs *out, char *err, size_t n)
{
    const var_floorplan *f = &e->s->var.floorplan;
    int lanes_per_sub = f->bits_per_entry / 32 / f->sub_banks;
    double sum = 0;
    *out = (dse__runs){ 0 };
    for (int sm = 0; sm < e->n_sms; sm++) {
        int rc = sm_run(e, w, t, sm);
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
        if (rfc_acc)
            add_rfc_duty(e, sm, weight, rfc_acc);
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

/* IPC and duties of the ideal chip (no variation, every access one cycle, base
 * scheduler) for every workload: the IPC normaliser, and the baseline's duties (the
 * baseline runs the same all-fast map).  The same for all chips: once per rank. */
static int ensure_ideal(dse_eval *e, char *err, size_t n)
{
    const var_floorplan *f = &e->s->var.floorplan;
    if (!isnan(e->ideal_ipc[0]))
        return 0;
    sm_technique t;
    sm_technique_default(&t);
    for (int sm = 0; sm < e->n_sms; sm++)
        sm_rf_map_all_fast(&e->maps[sm], f->n_banks, f->entries_per_bank, f->sub_banks);
    memset(e->main_lat, 0, sizeof(int) * (size_t)e->n_sms);
    memset(e->ideal_duty, 0, sizeof(double) * (size_t)e->n_w * (size_t)e->n_sms * (size_t)e->n_subs);
    for (int w = 0; w < e->n_w; w++) {
        dse__runs runs;
        if (dse__eval_runs(e, w, &t, 1.0, duty_of_workload(e->ideal_duty, e, w), NULL, NULL,
                           &runs, err, n))
            return -1;
        e->ideal_ipc[w] = runs.ipc;
        e->ideal_energy[w] = runs.dynamic_j + runs.leakage_j;
    }
    return 0;
}

static int technique_maps(dse_eval *e, const dse_technique *t, double *freq, double *freq_min,
                          char *err, size_t n)
{
    int entries = dse_technique_cache_entries(e->s, t);
    if (entries)
        return dse__rfc_maps(e, t, entries, freq, freq_min, err, n);
    memset(e->main_lat, 0, sizeof(int) * (size_t)e->n_sms);
    double sum = 0, min = INFINITY;
    for (int sm = 0; sm < e->n_sms; sm++) {
        var_rf_map vm;
        int rc = var_technique_apply(e->chip, &e->s->var, &t->freq, sm, &vm, &e->sm_freq[sm]);
        if (rc) {
            snprintf(err, n, "technique %s on SM %d: %s", t->name, sm, var_strerror(rc));
            return -1;
        }
        dse_rf_map_from_var(&vm, &e->maps[sm]);
        sum += e->sm_freq[sm];
        min = fmin(min, e->sm_freq[sm]);
    }
    *freq = sum / e->n_sms;
    *freq_min = min;
    return 0;
}

/* Per sub-bank, the slowest time-zero register delay among the storage technique t
 * counts for frequency (0 where it counts none).  Aging keeps the order of a sub-bank's
 * registers (variation/age.c), so aging these maxima ages the technique's fast set. */
static void counted_registers(dse_eval *e, const dse_technique *t, int sm, double *out)
{
    const var_floorplan *f = &e->s->var.floorplan;
    const double *reg = var_chip_register_delays(e->chip, sm);
    const sm_rf_map *m = &e->maps[sm];
    int lanes = f->bits_per_entry / 32, per_sub = lanes / f->sub_banks;
    double thr = 1.0 / e->sm_freq[sm];
    for (int b = 0; b < f->n_banks; b++)
        for (int en = 0; en < f->entries_per_bank; en++) {
            const double *r = reg + ((size_t)b * (size_t)f->entries_per_bank + (size_t)en) * (size_t)lanes;
            bool array_fast = !m->entry_slow[b][en];
            for (int l = 0; l < lanes; l++) {
                bool counted = t->freq.granularity == VAR_GRAN_REGISTER ? r[l] <= thr : array_fast;
                int sub = b * f->sub_banks + l / per_sub;
                if (counted && r[l] > out[sub])
                    out[sub] = r[l];
            }
        }
}

/* Per sub-bank, the slowest time-zero register delay among the storage technique t
 * counts for frequency (0 where it counts none).  Aging keeps the order of a sub-bank's
 * registers (variation/age.c), so aging these maxima ages the technique's fast set. */
static void counted_maxima(dse_eval *e, const dse_technique *t, int sm, double *out)
{
    const double *sub = var_chip_sub_bank_delays(e->chip, sm);
    const sm_rf_map *m = &e->maps[sm];
    memset(out, 0, sizeof(double) * (size_t)e->n_subs);
    switch (t->freq.granularity) {
    case VAR_GRAN_NONE:
        memcpy(out, sub, sizeof(double) * (size_t)e->n_subs);
        break;
    case VAR_GRAN_SUB_BANK:
        for (int b = 0; b < m->n_banks; b++)
            for (int p = 0; p < m->subs_per_bank; p++)
                if (!m->sub_slow[b][p])
                    out[m->sub_id[b][p]] = sub[m->sub_id[b][p]];
        break;
    default:
        counted_registers(e, t, sm, out);
        break;
    }
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
    if (technique_maps(e, t, &freq, &freq_min, err, n))
        return -1;
    u->frequency[0] = freq;
    u->frequency_min[0] = freq_min;
    memset(e->duty, 0, sizeof(double) * (size_t)e->n_w * (size_t)e->n_sms * (size_t)e->n_subs);
    size_t rfc_per_w = (size_t)e->n_sms * (size_t)s->var.floorplan.n_banks;
    memset(e->rfc_duty, 0, sizeof(double) * (size_t)e->n_w * rfc_per_w);
    for (int w = 0; w < e->n_w; w++) {
        dse__runs runs;
        if (dse__eval_runs(e, w, &t->ipc, 1.0, duty_of_workload(e->duty, e, w),
                           e->rfc_duty + (size_t)w * rfc_per_w,
                           t->freq.variation ? e->sm_freq : NULL, &runs, err, n))
            return -1;
        u->ipc[w] = runs.ipc / e->ideal_ipc[w];
        u->performance_t0[w] = u->ipc[w] * freq;
        energy(e, t, &runs, u, w);
    }
    for (int sm = 0; sm < e->n_sms && t->freq.variation; sm++)
        counted_maxima(e, t, sm, e->counted0 + (size_t)sm * (size_t)e->n_subs);
    return 0;
}

/* model.md section 8: with aging the headline performance is IPC x the frequency the
 * chip holds for its whole life, the end-of-schedule one (after the guardband, under the
 * workload mix's stress: /results/frequency at the last year); without aging it is the
 * time-zero value.  The IPC is the one at that clock: the time-zero IPC, except where a
 * register-file cache sets the clock, whose main-RF latencies follow it (ipc_lifetime:
 * the SM runs again at the end-of-schedule latencies). */
static int lifetime_performance(dse_eval *e, const dse_technique *t, dse_unit *u, char *err,
                                size_t n)
{
    const dse_sweep *s = e->s;
    int years = s->var.aging.n_years;
    double f_end = u->frequency[years - 1];
    bool rerun = dse_technique_cache_entries(s, t) && years > 1;
    if (rerun)
        memcpy(e->main_lat, e->lat_end, sizeof(int) * (size_t)e->n_sms);
    for (int w = 0; w < s->n_workloads; w++) {
        dse__runs runs;
        u->ipc_lifetime[w] = u->ipc[w];
        if (rerun) {
            if (dse__eval_runs(e, w, &t->ipc, 1.0, NULL, NULL, NULL, &runs, err, n))
                return -1;
            u->ipc_lifetime[w] = runs.ipc / e->ideal_ipc[w];
        }
        u->performance[w] = u->ipc_lifetime[w] * f_end;
    }
    return 0;
}

/* The aging loop's SM runs (dse_aging_run_fn): the same runs as time zero's, on the maps
 * the loop re-paired in e->maps. */
static int aging_runs(void *arg, int w, const sm_technique *t, double weight, double *duty_acc,
                      char *err, size_t n)
{
    dse__runs runs;
    return dse__eval_runs(arg, w, t, weight, duty_acc, NULL, NULL, &runs, err, n);
}

/* The aging loop of technique ti from its time-zero results (e->duty, e->counted0,
 * u->frequency[0]) into u's per-year frequency and guardbands. */
static int eval_aging(dse_eval *e, int ti, dse_unit *u, const double *base_raw, char *err,
                      size_t n)
{
    const dse_technique *t = &e->s->techniques[ti];
    dse_rfc_in rfc = dse__rfc_in(e, t);
    dse_aging_in in = {
        .chip = e->chip, .technique = ti, .duty = e->duty, .counted0 = e->counted0,
        .rfc = dse_technique_cache_entries(e->s, t) ? &rfc : NULL,
        .frequency0 = u->frequency[0], .frequency_min0 = u->frequency_min[0],
        .base_raw = base_raw, .maps = e->maps, .run = aging_runs, .run_arg = e,
    };
    dse_aging_out out = {
        .frequency = u->frequency, .frequency_min = u->frequency_min,
        .main_latency = u->main_latency,
        .guardband_raw = u->guardband_raw, .guardband = u->guardband, .trace = u->trace,
        .trace_delay = u->trace_delay, .trace_slow = u->trace_slow, .trace_util = u->trace_util,
    };
    for (int y = 0; y < e->s->var.aging.n_years; y++) /* the rfc loop overwrites it */
        u->main_latency[y] = t->ipc.main_rf_latency;
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
    int rc = var_chip_generate(e->chip, &s->var, s->chips.seed, chip);
    e->chip_index = chip;
    e->rfc_chip = -1;
    if (rc) {
        snprintf(err, n, "chip %d: %s", chip, var_strerror(rc));
        return -1;
    }
    chip_info(e, chip, info);
    if (ensure_ideal(e, err, n))
        return -1;
    double base_raw[DSE_MAX_WORKLOADS], base_mix[VAR_MAX_YEARS];
    dse_aging_baseline_guardband(e->aging, e->chip, e->ideal_duty, base_raw, base_mix);
    int k = 0;
    for (int t = 0; t < s->n_techniques; t++) {
        if (!want[t])
            continue;
        units[k].chip = chip;
        units[k].technique = t;
        units[k].trace = trace_index(s, chip);
        if (eval_time_zero(e, t, &units[k], err, n) ||
            eval_aging(e, t, &units[k], base_raw, err, n) ||
            lifetime_performance(e, &s->techniques[t], &units[k], err, n))
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

void dse_eval_counts(const dse_eval *e, long *reused, long *simulated)
{
    dse_sim_cache_counts(e->cache, reused, simulated);
    *simulated += e->direct_runs;
}

/* Keep in step with eval_time_zero, ensure_ideal and dse/aging/aging.c's measure_duty:
 * tests/check_run_select.sh compares this with a real run's count. */
static long unit_runs(const dse_sweep *s, const dse_technique *t, bool traced)
{
    int years = s->var.aging.n_years, weighted = 0;
    for (int w = 0; w < s->n_workloads; w++)
        weighted += s->workloads[w].weight > 0;
    long runs = s->n_workloads; /* time zero */
    if (dse_technique_cache_entries(s, t) && years > 1)
        runs += s->n_workloads; /* at the end-of-schedule main-RF latencies */
    if (t->freq.variation && t->freq.nbti_reorg) {
        runs += (long)(years - 1) * weighted; /* the mix, one interval at a time */
        if (years > 1 || traced)              /* each workload alone (its guardband) */
            runs += (long)(traced ? years : years - 1) * weighted;
    }
    return runs * s->var.floorplan.n_sms;
}

long dse_eval_planned_runs(const dse_sweep *s, int ranks)
{
    int busy = ranks < s->chips.count ? ranks : s->chips.count;
    long total = (long)busy * s->n_workloads * s->var.floorplan.n_sms; /* ensure_ideal */
    for (int c = 0; c < s->chips.count; c++)
        for (int t = 0; t < s->n_techniques; t++)
            total += unit_runs(s, &s->techniques[t], trace_index(s, c) >= 0);
    return total;
}
