/* One chip, every requested technique and workload (see dse_eval.h). */
#include "dse_eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse_rf_map.h"
#include "dse_sim_cache.h"
#include "sm.h"
#include "var.h"

struct dse_eval {
    const dse_sweep *s;
    var_chip *chip;
    sm_sim *sim;
    dse_sim_cache *cache;
    sm_rf_map *maps;      /* [n_sms]: the current technique's map of every SM */
    double *sm_freq;      /* [n_sms]                                          */
    double *ideal_ipc;    /* [n_workloads]: chip IPC without variation        */
    bool reuse;           /* false: simulate every run (to verify the cache)   */
    long direct_runs;     /* runs simulated with reuse off                    */
};

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
    free(e);
}

dse_eval *dse_eval_alloc(const dse_sweep *s, bool reuse, char *err, size_t n)
{
    dse_eval *e = calloc(1, sizeof *e);
    int n_sms = s->var.floorplan.n_sms, verr = 0;
    if (!e)
        goto fail;
    e->s = s;
    e->reuse = reuse;
    e->chip = var_chip_alloc_err(&s->var, &verr);
    e->sim = sm_sim_alloc(&s->sm);
    e->cache = dse_sim_cache_alloc(16);
    e->maps = malloc(sizeof *e->maps * (size_t)n_sms);
    e->sm_freq = malloc(sizeof(double) * (size_t)n_sms);
    e->ideal_ipc = malloc(sizeof(double) * (size_t)s->n_workloads);
    if (!e->chip || !e->sim || !e->cache || !e->maps || !e->sm_freq || !e->ideal_ipc)
        goto fail;
    for (int w = 0; w < s->n_workloads; w++)
        e->ideal_ipc[w] = NAN; /* computed on first use */
    return e;
fail:
    snprintf(err, n, "cannot set up the chip model: %s",
             verr ? var_strerror(verr) : "out of memory");
    dse_eval_free(e);
    return NULL;
}

/* One SM run, through the cache unless reuse is off. */
static int sm_run_ipc(dse_eval *e, int w, const sm_technique *t, int sm, double *ipc)
{
    const dse_sweep *s = e->s;
    int n_sms = s->var.floorplan.n_sms;
    if (e->reuse)
        return dse_sim_cache_ipc(e->cache, e->sim, &s->sm, &s->workloads[w], w, t, &e->maps[sm],
                                 sm, n_sms, ipc);
    sm_stats st;
    int rc = sm_sim_run(e->sim, &s->sm, &s->workloads[w], t, &e->maps[sm], sm, n_sms, &st);
    e->direct_runs++;
    *ipc = sm_stats_ipc(&st);
    return rc;
}

/* Mean IPC over the SMs of workload w with technique t on the maps in e->maps. */
static int chip_ipc(dse_eval *e, int w, const sm_technique *t, double *ipc, dse_poll_fn poll,
                    void *arg, char *err, size_t n)
{
    const dse_sweep *s = e->s;
    int n_sms = s->var.floorplan.n_sms;
    double sum = 0;
    for (int sm = 0; sm < n_sms; sm++) {
        double v;
        int rc = sm_run_ipc(e, w, t, sm, &v);
        if (rc != SM_OK) {
            snprintf(err, n, "SM model failed on workload %s, SM %d: %s (%s)",
                     s->workloads[w].name, sm, sm_strerror(rc), sm_sim_diagnostic(e->sim));
            return -1;
        }
        sum += v;
        if (poll)
            poll(arg);
    }
    *ipc = sum / n_sms;
    return 0;
}

/* IPC of the ideal chip (no variation, every access one cycle, base scheduler) for
 * every workload: the normaliser of every IPC.  The same for all chips, so computed
 * once per rank, before any technique's maps occupy e->maps. */
static int ensure_ideal_ipc(dse_eval *e, dse_poll_fn poll, void *arg, char *err, size_t n)
{
    const var_floorplan *f = &e->s->var.floorplan;
    if (!isnan(e->ideal_ipc[0]))
        return 0;
    sm_technique t;
    sm_technique_default(&t);
    for (int sm = 0; sm < f->n_sms; sm++)
        sm_rf_map_all_fast(&e->maps[sm], f->n_banks, f->entries_per_bank, f->sub_banks);
    for (int w = 0; w < e->s->n_workloads; w++)
        if (chip_ipc(e, w, &t, &e->ideal_ipc[w], poll, arg, err, n))
            return -1;
    return 0;
}

static int technique_maps(dse_eval *e, const dse_technique *t, double *freq, double *freq_min,
                          char *err, size_t n)
{
    int n_sms = e->s->var.floorplan.n_sms;
    double sum = 0, min = INFINITY;
    for (int sm = 0; sm < n_sms; sm++) {
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
    *freq = sum / n_sms;
    *freq_min = min;
    return 0;
}

static int eval_technique(dse_eval *e, int ti, dse_unit *u, dse_poll_fn poll, void *arg,
                          char *err, size_t n)
{
    const dse_sweep *s = e->s;
    const dse_technique *t = &s->techniques[ti];
    double freq, freq_min;
    for (int y = 0; y < s->var.aging.n_years; y++)
        u->frequency[y] = u->frequency_min[y] = NAN; /* aging years: the NBTI loop */
    if (technique_maps(e, t, &freq, &freq_min, err, n))
        return -1;
    u->frequency[0] = freq;
    u->frequency_min[0] = freq_min;
    for (int w = 0; w < s->n_workloads; w++) {
        double ipc;
        if (chip_ipc(e, w, &t->ipc, &ipc, poll, arg, err, n))
            return -1;
        u->ipc[w] = ipc / e->ideal_ipc[w];
        u->performance[w] = u->ipc[w] * freq;
        u->guardband[w] = u->guardband_raw[w] = NAN;
    }
    return 0;
}

static int chip_info(dse_eval *e, int chip, dse_chip_info *info)
{
    info->chip = chip;
    for (int sm = 0; sm < e->s->var.floorplan.n_sms; sm++) {
        info->sm_frequency[sm] = var_chip_sm_frequency(e->chip, sm);
        info->within_sm_ratio[sm] = var_chip_within_sm_ratio(e->chip, sm);
    }
    info->sm_to_sm_ratio = var_chip_sm_to_sm_ratio(e->chip);
    return 0;
}

int dse_eval_chip(dse_eval *e, int chip, const uint8_t *want, dse_unit *units,
                  dse_chip_info *info, dse_poll_fn poll, void *poll_arg, char *err, size_t n)
{
    const dse_sweep *s = e->s;
    int rc = var_chip_generate(e->chip, &s->var, s->chips.seed, chip);
    if (rc) {
        snprintf(err, n, "chip %d: %s", chip, var_strerror(rc));
        return -1;
    }
    chip_info(e, chip, info);
    if (ensure_ideal_ipc(e, poll, poll_arg, err, n))
        return -1;
    int k = 0;
    for (int t = 0; t < s->n_techniques; t++) {
        if (!want[t])
            continue;
        units[k].chip = chip;
        units[k].technique = t;
        if (eval_technique(e, t, &units[k], poll, poll_arg, err, n))
            return -1;
        k++;
    }
    return k;
}

void dse_eval_counts(const dse_eval *e, long *reused, long *simulated)
{
    dse_sim_cache_counts(e->cache, reused, simulated);
    *simulated += e->direct_runs;
}
