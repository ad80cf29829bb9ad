/* Ground truth for the NBTI guardband ordering (docs/nbti.md section 5): per SM, the
 * guardband of the baseline (every register counts) against that of rf_bro's time-zero
 * fast set (70 % of the sub-banks) and of a re-sorted fast set, after uniform stress,
 * with the exact per-cell aging (var_chip_age, every cell through var_nbti_shift) and
 * with the worst-cell approximation the sweep driver uses (var_chip_age_registers).
 * Uniform stress takes duty differences out, so what remains is the NBTI law itself.
 * --law picks the reading of dVth_t0 (aging.initial_shift, docs/nbti.md section 1):
 * "accumulated" (default, the source's: every cell gets the same shift, the continued
 * law at a constant duty) or "pv" (the paper's wording: the shift depends on each cell's
 * PV deviation).
 *
 *   nbti_truth [--chips N] [--sms M] [--duty D] [--years Y] [--seed S] [--law L]
 *
 * Guardband = 1 - f(end) / f(0) = 1 - d(0) / d(end) for the slowest counted delay. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "var.h"
#include "var_nbti.h"

typedef struct stress {
    double t[2]; /* stress, recovery (s): the same for every sub-bank */
    var_aging a;
} stress;

typedef struct sums {
    double base_exact, fixed_exact, resorted_exact, base_cell, fixed_cell;
} sums;

static double shift_nbti(double dev, int sub, void *ctx)
{
    const stress *s = ctx;
    (void)sub;
    return var_nbti_shift(&s->a, dev, s->t[0], s->t[1]);
}

/* Slowest delay among the counted sub-banks (fast == NULL: all of them). */
static double slowest(const double *d, const int *fast, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; i++)
        if (!fast || fast[i])
            m = fmax(m, d[i]);
    return m;
}

static void fast_set(const var_rf_map *map, int *fast)
{
    for (int b = 0; b < map->n_banks; b++)
        for (int s = 0; s < map->subs_per_bank; s++)
            fast[map->sub_id[b][s]] = !map->sub_slow[b][s];
}

/* One SM: both aging paths from the same time zero; adds its guardbands to *acc. */
static void one_sm(var_chip *c, const var_params *p, const var_technique *t, int sm,
                   stress *st, sums *acc)
{
    int ns = p->floorplan.n_banks * p->floorplan.sub_banks, fast[VAR_MAX_BANKS * 8];
    double ts[VAR_MAX_BANKS * 8], tr[VAR_MAX_BANKS * 8], d0[VAR_MAX_BANKS * 8], f0, fr;
    var_rf_map map;
    var_technique_apply(c, p, t, sm, &map, &f0);
    fast_set(&map, fast);
    memcpy(d0, var_chip_sub_bank_delays(c, sm), sizeof(double) * (size_t)ns);
    for (int i = 0; i < ns; i++)
        ts[i] = st->t[0], tr[i] = st->t[1];
    var_chip_age_registers(c, p, sm, ts, tr);
    const double *da = var_chip_sub_bank_delays(c, sm);
    acc->base_cell += 1 - slowest(d0, NULL, ns) / slowest(da, NULL, ns);
    acc->fixed_cell += 1 - slowest(d0, fast, ns) / slowest(da, fast, ns);
    var_chip_age(c, p, sm, shift_nbti, st, NULL);
    da = var_chip_sub_bank_delays(c, sm);
    acc->base_exact += 1 - slowest(d0, NULL, ns) / slowest(da, NULL, ns);
    acc->fixed_exact += 1 - slowest(d0, fast, ns) / slowest(da, fast, ns);
    var_technique_apply(c, p, t, sm, &map, &fr);
    acc->resorted_exact += 1 - fr / f0;
    var_chip_age_reset(c, sm);
}

int main(int argc, char **argv)
{
    int chips = 1, sms = 15;
    double duty = 0.2, years = 7;
    unsigned long long seed = 42;
    const char *law = "accumulated";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--chips")) chips = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--sms")) sms = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--duty")) duty = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--years")) years = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--law")) law = argv[i + 1];
        else { fprintf(stderr, "nbti_truth: unknown option %s\n", argv[i]); return 2; }
    }
    var_params p;
    var_params_default(&p);
    if (strcmp(law, "accumulated") && strcmp(law, "pv")) {
        fprintf(stderr, "nbti_truth: --law %s: accepted: accumulated, pv\n", law);
        return 2;
    }
    p.aging.initial_shift = strcmp(law, "pv") ? VAR_SHIFT_ACCUMULATED : VAR_SHIFT_PV;
    var_technique t; /* rf_bro's frequency side */
    var_technique_default(&t);
    t.variation = true, t.granularity = VAR_GRAN_SUB_BANK, t.fast_percent = 70, t.bro = true;
    var_chip *c = var_chip_alloc(&p);
    if (!c || sms < 1 || sms > var_chip_n_sms(c) || duty < 0 || duty > 1) {
        fprintf(stderr, "nbti_truth: bad arguments\n");
        return 2;
    }
    stress st = { { duty * years * VAR_YEAR_S, (1 - duty) * years * VAR_YEAR_S }, p.aging };
    sums acc = { 0 };
    for (int k = 0; k < chips; k++) {
        var_chip_generate(c, &p, seed, k);
        for (int sm = 0; sm < sms; sm++)
            one_sm(c, &p, &t, sm, &st, &acc);
    }
    double n = chips * sms;
    printf("NBTI guardband after %.0f years at duty %.2f, %s law, mean over %d chips x %d SMs "
           "(seed %llu)\n", years, duty, law, chips, sms, seed);
    printf("  %-28s %10s %10s %8s\n", "", "baseline", "fast set", "ratio");
    printf("  %-28s %10.4f %10.4f %8.2f\n", "exact per-cell aging", acc.base_exact / n,
           acc.fixed_exact / n, acc.fixed_exact / acc.base_exact);
    printf("  %-28s %10s %10.4f %8.2f\n", "  fast set re-sorted", "", acc.resorted_exact / n,
           acc.resorted_exact / acc.base_exact);
    printf("  %-28s %10.4f %10.4f %8.2f\n", "worst-cell (the driver's)", acc.base_cell / n,
           acc.fixed_cell / n, acc.fixed_cell / acc.base_cell);
    printf("  %-28s %9.0f%% %9.0f%%\n", "  worst-cell / exact", 100 * acc.base_cell / acc.base_exact,
           100 * acc.fixed_cell / acc.fixed_exact);
    var_chip_free(c);
    return 0;
}
