/* The SM runs every rank would simulate on its first chip, divided among the ranks
 * (dse_eval_prefetch in dse_eval.h).
 *
 * Each rank keeps its own run cache, so a run that every chip needs (the ideal chip's,
 * and the fixed patterns of rf_bro and the techniques built on it) was simulated once per
 * rank: with 2 ranks the default sweep simulated 4.3 % more runs than with one, with 10
 * ranks 31 % more (docs/performance.md).  Those runs are met on any chip, so one chip's
 * time-zero runs stand for them: the ranks walk the same chip's runs in the same order,
 * number the distinct ones by their key's hash, and each simulates every n_parts-th.
 * The caller then hands each rank's new runs to the others (dse/run/share_runs.c). */
#include <stdio.h>
#include <stdlib.h>

#include "dse_aging.h"
#include "eval_internal.h"

/* The hashes of the runs numbered so far: open addressing, 0 marks a free slot (a run
 * whose hash is 0 is numbered anew each time it is met: at worst simulated twice). */
typedef struct seen_set {
    uint64_t *h;
    size_t mask;
    long n;
} seen_set;

static bool seen_add(seen_set *s, uint64_t h)
{
    size_t i = h & s->mask;
    for (; s->h[i]; i = (i + 1) & s->mask)
        if (s->h[i] == h)
            return false;
    if (h)
        s->h[i] = h;
    return true;
}

/* What prefetch_runs returns when poll asked to stop: not an error, the walk ends. */
enum { STOPPED = 1 };

/* The runs of workload w on every SM's map in e->maps: the k-th distinct one is this
 * part's when k mod n_parts is part.  SM_OK, STOPPED or the model's error code. */
static int prefetch_runs(dse_eval *e, int w, seen_set *seen, int part, int n_parts)
{
    const dse_sweep *s = e->s;
    for (int sm = 0; sm < e->n_sms; sm++) {
        uint64_t h;
        int rc = dse_sim_cache_key_hash(e->cache, &s->sm, &s->workloads[w], &e->ipc[sm],
                                        &e->maps[sm], sm, e->n_sms, &h);
        if (rc != SM_OK)
            return rc;
        if (!seen_add(seen, h) || seen->n++ % n_parts != part)
            continue;
        if (e->poll && e->poll(e->poll_arg))
            return STOPPED;
        rc = dse_sim_cache_run(e->cache, e->sim, &s->sm, &s->workloads[w], w, &e->ipc[sm],
                               &e->maps[sm], sm, e->n_sms, e->run);
        if (rc != SM_OK)
            return rc;
    }
    return SM_OK;
}

/* The ideal chip's maps and IPC side (ensure_ideal's), then each wanted technique's time
 * zero on the chip: every workload's runs on them. */
static int walk(dse_eval *e, const uint8_t *want, seen_set *seen, int part, int n_parts,
                char *err, size_t n)
{
    const dse_sweep *s = e->s;
    dse__eval_ideal_maps(e);
    for (int t = -1; t < s->n_techniques; t++) {
        double freq, freq_min;
        if (t >= 0 && !want[t])
            continue;
        if (t >= 0 && dse_aging_time_zero(e->aging, t, e->maps, e->sm_freq, e->ipc, &freq,
                                          &freq_min, err, n))
            return -1;
        for (int w = 0; w < e->n_w; w++) {
            int rc = prefetch_runs(e, w, seen, part, n_parts);
            if (rc == STOPPED)
                return 0;
            if (rc != SM_OK) {
                snprintf(err, n, "SM model failed on workload %s: %s", s->workloads[w].name,
                         sm_strerror(rc));
                return -1;
            }
        }
    }
    return 0;
}

int dse_eval_prefetch(dse_eval *e, int chip, const uint8_t *want, int part, int n_parts,
                      dse_poll_fn poll, void *poll_arg, char *err, size_t n)
{
    const dse_sweep *s = e->s;
    if (!e->reuse || n_parts < 2)
        return 0;
    /* generated, not through the run store's chips: the chip is the first one's owner's
     * to keep or load, and the closing line's counts of chips stay the chips done */
    int rc = var_chip_generate_kept(e->chip, &s->var, s->chips.seed, chip, NULL);
    if (rc) {
        snprintf(err, n, "chip %d: %s", chip, var_strerror(rc));
        return -1;
    }
    dse_sim_cache_chip(e->cache, s->chips.seed, chip);
    dse_aging_set_chip(e->aging, e->chip);
    size_t runs = (size_t)e->n_w * (size_t)e->n_sms * (size_t)(s->n_techniques + 1), cap = 64;
    while (cap < 2 * runs)
        cap *= 2;
    seen_set seen = { calloc(cap, sizeof(uint64_t)), cap - 1, 0 };
    if (!seen.h) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    e->poll = poll;
    e->poll_arg = poll_arg;
    dse_sim_cache_record(e->cache, true);
    rc = walk(e, want, &seen, part, n_parts, err, n);
    dse_sim_cache_record(e->cache, false);
    e->poll = NULL;
    free(seen.h);
    return rc;
}

uint8_t *dse_eval_take_prefetched(dse_eval *e, size_t *len)
{
    return dse_sim_cache_take_record(e->cache, len);
}

int dse_eval_add_prefetched(dse_eval *e, const uint8_t *buf, size_t len)
{
    return dse_sim_cache_add_record(e->cache, buf, len);
}
