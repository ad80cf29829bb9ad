/* The cache clock: an SM whose register-file cache sets its clock (ltrf, rfc_demand;
 * docs/model.md, "The cache clock"; issue 18 item 3).
 *
 * Every operand is read from the cache in one cycle, so the cache's slowest register,
 * not the main RF's, sets the SM clock: f = 1 / max over cache banks of its delay.  The
 * main RF is pipelined behind it at L cycles per access, L = ceil(L0 x d_main x f),
 * where L0 = main_rf_latency is its latency at the nominal clock without variation and
 * d_main its slowest register delay (every register counts: no classification, the
 * latency covers the slowest).  Both arrays age under their own duties: the cache's
 * banks under their accesses (or, with rfc_rotation, all at the banks' mean: rotating
 * the partitions over the banks evens their wear), the main RF's sub-banks under
 * theirs.  A constant duty makes the aged delay the one-shot law of the sub-bank's
 * slowest register (variation/age.c, var_register_delay_aged), as for fixed maps.
 *
 * Time zero draws the cache's timing per SM from the chip and gives every SM an all-fast
 * map (with a cache the main RF is not classified: every access takes the SM's latency)
 * and the main-RF latency of its clock; the aging gives the frequency and main-RF
 * latency per year under the mix and each workload's guardband; the end state is the
 * main-RF latencies at the end-of-schedule clock, at which the SM runs are redone. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aging_internal.h"

typedef struct cache {
    double *delay, *leff;  /* [n_sms][n_banks]: cache banks' slowest delay and its Leff, t = 0 */
    var_reg_age *age;      /* [n_sms][n_banks]: the same prepared for aging               */
    var_cache *cells[DSE_MAX_TECHNIQUES]; /* caches of other cells, built on first use */
    double cell_area[DSE_MAX_TECHNIQUES];  /* their rfc_cell_area (a table depends on it
                                              and the sweep's variation only)         */
    int n_cells;
    /* what delay/leff hold: techniques with the same cache share them per chip */
    bool drawn;
    unsigned chip_serial;
    int entries;
    double area;
    double *mix;           /* [n_sms][n_banks]: the cache banks' duties under a stress */
    int *latency_end;      /* [n_sms]: main-RF latency at the end-of-schedule clock    */
} cache;

/* The one question that selects this clock: does technique t have a cache, and how
 * big (docs/architecture.md: a trait of the technique's designs). */
static int entries_of(const dse_sweep *s, const dse_technique *t)
{
    return dse_technique_cache_entries(s, t);
}

static bool selects(const dse_sweep *s, const dse_technique *t) { return entries_of(s, t) > 0; }

static void free_state(void *state)
{
    cache *c = state;
    if (!c)
        return;
    free(c->delay);
    free(c->leff);
    free(c->age);
    for (int t = 0; t < DSE_MAX_TECHNIQUES; t++)
        var_cache_free(c->cells[t]);
    free(c->mix);
    free(c->latency_end);
    free(c);
}

static void *alloc(const dse_sweep *s)
{
    cache *c = calloc(1, sizeof *c);
    size_t banks = (size_t)s->var.floorplan.n_sms * (size_t)s->var.floorplan.n_banks;
    if (!c)
        return NULL;
    c->delay = malloc(sizeof(double) * banks);
    c->leff = malloc(sizeof(double) * banks);
    c->age = malloc(sizeof *c->age * banks);
    c->mix = malloc(sizeof(double) * banks);
    c->latency_end = calloc((size_t)s->var.floorplan.n_sms, sizeof(int));
    if (!c->delay || !c->leff || !c->age || !c->mix || !c->latency_end) {
        free_state(c);
        return NULL;
    }
    return c;
}

/* Slowest delay of n arrays after t seconds at duties duty[] (one duty for all when
 * `even`: their mean).  At t = 0 the duties are not read (and may be NULL).  age: the
 * arrays prepared (var_reg_age_prep of d0, leff), or NULL. */
static double slowest_aged(const var_params *p, int n, const double *d0, const double *leff,
                           const var_reg_age *age, const double *duty, bool even, double t)
{
    double mean = 0, worst = 0;
    for (int i = 0; i < n && t > 0 && even; i++)
        mean += duty[i] / n;
    for (int i = 0; i < n; i++) {
        double d = d0[i];
        if (t > 0) {
            double u = even ? mean : duty[i];
            d = age ? var_reg_age_delay(p, &age[i], u * t, (1.0 - u) * t)
                    : var_register_delay_aged(p, d0[i], leff[i], u * t, (1.0 - u) * t);
        }
        worst = fmax(worst, d);
    }
    return worst;
}

/* SM sm's clock alone: dse_rfc_clock's, without the main RF. */
static double rfc_freq(const var_params *p, int sm, const dse_rfc_in *rfc,
                       const double *cache_duty, double t)
{
    size_t off = (size_t)sm * (size_t)rfc->banks;
    return 1.0 / slowest_aged(p, rfc->banks, rfc->delay + off, rfc->leff + off,
                              rfc->age ? rfc->age + off : NULL, cache_duty, rfc->rotation, t);
}

double dse_rfc_clock(const var_params *p, const var_chip *chip, int sm, const dse_rfc_in *rfc,
                     const double *cache_duty, const double *main_duty, double t, int *latency)
{
    const var_floorplan *f = &p->floorplan;
    size_t subs = (size_t)f->n_banks * (size_t)f->sub_banks;
    double freq = rfc_freq(p, sm, rfc, cache_duty, t);
    double d_main = slowest_aged(p, (int)subs, var_chip_sub_bank_delays(chip, sm),
                                 var_chip_sub_bank_leff(chip, sm),
                                 rfc->main_age ? rfc->main_age + (size_t)sm * subs : NULL,
                                 main_duty, false, t);
    /* the tolerance keeps the ideal chip's L0 x 1 x 1 at L0 through any rounding */
    double cycles = ceil(rfc->latency0 * d_main * freq - 1e-9);
    *latency = cycles < 1.0 ? 1 : cycles > 255.0 ? 255 : (int)cycles;
    return freq;
}

/* The cache's timing of technique t on the current chip. */
static dse_rfc_in rfc_in(const dse_aging *a, const cache *c, const dse_technique *t)
{
    return (dse_rfc_in){
        .banks = a->s->var.floorplan.n_banks, .latency0 = t->ipc.main_rf_latency,
        .rotation = t->rfc_rotation, .delay = c->delay, .leff = c->leff,
        .age = c->age, .main_age = a->sub0_age,
    };
}

/* The cells of a cache of rfc_cell_area `area` into *cells: NULL for the RF's own
 * (area 1), else a table built on first use and shared by techniques of that area (it
 * depends on the area and the sweep's variation only).  0 or a var_err code. */
static int cells_of(const dse_aging *a, cache *c, double area, var_cache **cells)
{
    int rc = 0;
    *cells = NULL;
    for (int k = 0; k < c->n_cells && area != 1.0; k++)
        if (c->cell_area[k] == area)
            *cells = c->cells[k];
    if (area == 1.0 || *cells)
        return 0;
    assert(c->n_cells < DSE_MAX_TECHNIQUES); /* at most one area per technique */
    if (!(*cells = var_cache_alloc_tables(&a->s->var, area, a->tables, &rc)))
        return rc ? rc : VAR_ENOMEM;
    c->cells[c->n_cells] = *cells;
    c->cell_area[c->n_cells++] = area;
    return 0;
}

/* Cache timing of SM sm from the technique's cells. */
static int cache_timing(dse_aging *a, cache *c, const dse_technique *t, int entries, int sm,
                        char *err, size_t n)
{
    const var_floorplan *f = &a->s->var.floorplan;
    size_t off = (size_t)sm * (size_t)f->n_banks;
    var_cache *cells;
    int rc = cells_of(a, c, t->rfc_cell_area, &cells);
    if (!rc)
        rc = var_cache_draw(cells, a->chip, sm, entries, f->n_banks, c->delay + off,
                            c->leff + off);
    for (int b = 0; !rc && b < f->n_banks; b++)
        var_reg_age_prep(&a->s->var, c->delay[off + (size_t)b], c->leff[off + (size_t)b],
                         &c->age[off + (size_t)b]);
    if (rc)
        snprintf(err, n, "technique %s on SM %d: %s", t->name, sm, var_strerror(rc));
    return rc ? -1 : 0;
}

static int time_zero(dse_aging *a, void *state, const dse_technique *t, dse__t0 *out,
                     char *err, size_t n)
{
    cache *c = state;
    const var_floorplan *f = &a->s->var.floorplan;
    int entries = entries_of(a->s, t);
    dse_rfc_in rfc = rfc_in(a, c, t);
    double sum = 0, min = 1e300;
    bool drawn = c->drawn && c->chip_serial == a->chip_serial && c->entries == entries &&
                 c->area == t->rfc_cell_area; /* the same cache on this chip */
    c->drawn = false; /* until every SM is drawn */
    for (int sm = 0; sm < a->n_sms; sm++) {
        int latency;
        if (!drawn && cache_timing(a, c, t, entries, sm, err, n))
            return -1;
        sm_rf_map_all_fast(&out->maps[sm], f->n_banks, f->entries_per_bank, f->sub_banks);
        out->sm_freq[sm] = dse_rfc_clock(&a->s->var, a->chip, sm, &rfc, NULL, NULL, 0.0, &latency);
        out->ipc[sm] = t->ipc;
        out->ipc[sm].main_rf_latency = latency;
        sum += out->sm_freq[sm];
        min = out->sm_freq[sm] < min ? out->sm_freq[sm] : min;
    }
    out->freq = sum / a->n_sms;
    out->freq_min = min;
    c->drawn = true, c->chip_serial = a->chip_serial, c->entries = entries;
    c->area = t->rfc_cell_area;
    return 0;
}

/* Frequency (mean and min over SMs) and main-RF latency (mean) after t seconds under
 * stress st's duties; per-SM latencies into lat (may be NULL). */
static void clock_at(dse_aging *a, cache *c, const dse_rfc_in *rfc, dse__stress st, double t,
                     double *mean, double *min, double *lat_mean, int *lat)
{
    size_t per_w = (size_t)a->n_sms * (size_t)rfc->banks;
    dse__aging_mix(a, a->in->cache_duty, per_w, st, c->mix);
    dse__aging_load_duty(a, st);
    double sum = 0, lo = INFINITY, lsum = 0;
    for (int sm = 0; sm < a->n_sms; sm++) {
        int L;
        double f = dse_rfc_clock(&a->s->var, a->chip, sm, rfc,
                                 c->mix + (size_t)sm * (size_t)rfc->banks,
                                 a->loop_duty + (size_t)sm * (size_t)a->n_subs, t, &L);
        sum += f;
        lo = fmin(lo, f);
        lsum += L;
        if (lat)
            lat[sm] = L;
    }
    *mean = sum / a->n_sms;
    *min = lo;
    *lat_mean = lsum / a->n_sms;
}

/* The mean frequency over SMs after t seconds under stress st's duties: clock_at's,
 * without the main RF's latencies (a workload's guardband reads the clock only). */
static double freq_at(dse_aging *a, cache *c, const dse_rfc_in *rfc, dse__stress st, double t)
{
    dse__aging_mix(a, a->in->cache_duty, (size_t)a->n_sms * (size_t)rfc->banks, st, c->mix);
    dse__aging_load_duty(a, st); /* a->loop_duty as clock_at leaves it */
    double sum = 0;
    for (int sm = 0; sm < a->n_sms; sm++)
        sum += rfc_freq(&a->s->var, sm, rfc, c->mix + (size_t)sm * (size_t)rfc->banks, t);
    return sum / a->n_sms;
}

/* Per year the frequency and main-RF latency under the mix, the latencies at the end of
 * the schedule, and each workload's guardband from its own duties. */
static int age(dse_aging *a, void *state, const dse_technique *t, dse_aging_out *u, char *err,
               size_t n)
{
    (void)err, (void)n;
    cache *c = state;
    dse_rfc_in rfc = rfc_in(a, c, t);
    int last = a->s->var.aging.n_years - 1;
    for (int y = 0; y <= last; y++)
        clock_at(a, c, &rfc, (dse__stress){ .mix = true }, dse__aging_seconds(a, y),
                 &u->frequency[y], &u->frequency_min[y], &u->main_latency[y],
                 y == last ? c->latency_end : NULL);
    for (int w = 0; w < a->n_w; w++)
        dse__aging_guardband(a, u, w,
                             freq_at(a, c, &rfc, (dse__stress){ .workload = w },
                                     dse__aging_seconds(a, last)));
    if (u->trace >= 0) { /* the main RF's sub-banks of SM 0 */
        dse__aging_load_duty(a, (dse__stress){ .mix = true });
        dse__aging_trace_fixed(a, u);
    }
    return 0;
}

/* With aging, the SM runs again at the main-RF latencies of the end-of-schedule clock. */
static bool end_state(const dse_aging *a, const void *state, sm_technique *ipc)
{
    const cache *c = state;
    if (a->s->var.aging.n_years < 2)
        return false;
    for (int sm = 0; sm < a->n_sms; sm++)
        ipc[sm].main_rf_latency = c->latency_end[sm];
    return true;
}

/* Per SM: every workload again at the end-of-schedule latencies. */
static long runs(const dse_sweep *s, bool traced)
{
    (void)traced;
    return s->var.aging.n_years > 1 ? s->n_workloads : 0;
}

const dse__clock dse__clock_cache = { .name = "cache", .selects = selects, .alloc = alloc,
                                      .free = free_state, .time_zero = time_zero, .age = age,
                                      .end_state = end_state, .runs = runs };
