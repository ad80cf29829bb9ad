/* Time zero of a technique whose register-file cache sets the clock (ltrf, rfc_demand;
 * docs/model.md, "The cache clock"): the cache's timing per SM from the chip, the SM
 * clock and the main RF's latency from it (dse/aging/rfc_clock.c), and an all-fast map:
 * with a cache the main RF is not classified, every access takes the SM's latency. */
#include <stdbool.h>
#include <stdio.h>

#include "dse_rf_map.h"
#include "eval_internal.h"

/* Cache timing of SM sm: the chip's own cells, or (rfc_cell_area != 1) the technique's
 * cells, whose tables are built on first use. */
static int cache_timing(dse_eval *e, const dse_technique *t, int entries, int sm, char *err,
                        size_t n)
{
    const var_floorplan *f = &e->s->var.floorplan;
    size_t off = (size_t)sm * (size_t)f->n_banks, ti = (size_t)(t - e->s->techniques);
    int rc = 0;
    if (t->rfc_cell_area != 1.0 && !e->rfc_cells[ti])
        e->rfc_cells[ti] = var_cache_alloc(&e->s->var, t->rfc_cell_area, &rc);
    if (!rc) /* rfc_cells[ti] NULL: the RF's own cells */
        rc = var_cache_draw(e->rfc_cells[ti], e->chip, sm, entries, f->n_banks,
                            e->rfc_delay + off, e->rfc_leff + off);
    if (rc)
        snprintf(err, n, "technique %s on SM %d: %s", t->name, sm, var_strerror(rc));
    return rc ? -1 : 0;
}

int dse__rfc_maps(dse_eval *e, const dse_technique *t, int entries, double *freq,
                  double *freq_min, char *err, size_t n)
{
    const var_floorplan *f = &e->s->var.floorplan;
    dse_rfc_in rfc = dse__rfc_in(e, t);
    double sum = 0, min = 1e300;
    bool drawn = e->rfc_chip == e->chip_index && e->rfc_entries == entries &&
                 e->rfc_area == t->rfc_cell_area; /* the same cache on this chip */
    e->rfc_chip = -1; /* until every SM is drawn */
    for (int sm = 0; sm < e->n_sms; sm++) {
        if (!drawn && cache_timing(e, t, entries, sm, err, n))
            return -1;
        sm_rf_map_all_fast(&e->maps[sm], f->n_banks, f->entries_per_bank, f->sub_banks);
        e->sm_freq[sm] = dse_rfc_clock(&e->s->var, e->chip, sm, &rfc, NULL, NULL, 0.0,
                                       &e->main_lat[sm]);
        sum += e->sm_freq[sm];
        min = e->sm_freq[sm] < min ? e->sm_freq[sm] : min;
    }
    *freq = sum / e->n_sms;
    *freq_min = min;
    e->rfc_chip = e->chip_index, e->rfc_entries = entries, e->rfc_area = t->rfc_cell_area;
    return 0;
}

dse_rfc_in dse__rfc_in(const dse_eval *e, const dse_technique *t)
{
    return (dse_rfc_in){
        .banks = e->s->var.floorplan.n_banks, .latency0 = t->ipc.main_rf_latency,
        .rotation = t->rfc_rotation, .delay = e->rfc_delay, .leff = e->rfc_leff,
        .duty = e->rfc_duty, .latency_end = e->lat_end,
    };
}
