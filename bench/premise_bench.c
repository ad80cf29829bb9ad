/* premise_bench: the core paper's frequency premise measured in rfdse's variation model
 * (issue 34, docs/variation.md section 12).
 *
 *   premise_bench [--chips N] [--seed S] [--only NAME] [--list]
 *
 * For each scenario (the defaults, then one physically argued change at a time) it
 * generates N chips and reports, pooled over chips and SMs:
 *   - where the spread of register delay sits: the share of the within-SM variance of
 *     ln(register delay) that lies between rows (register vectors: between banks, and
 *     between the entries of a bank; vertical in the default floorplan), between lanes
 *     (between the lane groups of the sub-banks, and between the lanes of one group;
 *     horizontal) and in neither (row x lane interaction and the per-cell random part),
 *     from a balanced two-way decomposition (the three add up to 1); the same for the
 *     systematic part alone (each register at the field value of its slowest grid
 *     square, no random part);
 *   - the share of the variance that lies between sub-banks (what sub-bank classification
 *     can see);
 *   - the mean SM frequency of baseline, vl_rf, vl_sb and rf_bro at 70 % (the paper's
 *     premise (1) is vl_sb close to vl_rf) and the share of register vectors vl_rf makes
 *     slow (premise (2): almost all).
 * Deterministic (seed 1 unless told).  Links variation/ only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "var_internal.h"

typedef struct scenario {
    const char *name;
    const char *why; /* the assumption, one line */
    void (*set)(var_params *p);
} scenario;

static void s_default(var_params *p) { (void)p; }
static void s_ratio_025(var_params *p) { p->variation.sigma_ratio = 0.25; }
static void s_ratio_4(var_params *p) { p->variation.sigma_ratio = 4.0; }
static void s_ratio_0(var_params *p) { p->variation.sigma_ratio = 0.0; }
static void s_phi_01(var_params *p) { p->variation.phi = 0.1; }
static void s_phi_2(var_params *p) { p->variation.phi = 2.0; }
static void s_chip(var_params *p) { p->variation.domain = VAR_DOMAIN_CHIP; }
static void s_chip_sys(var_params *p)
{
    p->variation.domain = VAR_DOMAIN_CHIP;
    p->variation.sigma_ratio = 0.25;
}
static void s_bank_cols_4(var_params *p) { p->floorplan.bank_cols = 4; }
static void s_bank_cols_16(var_params *p) { p->floorplan.bank_cols = 16; }
static void s_aspect_1(var_params *p) { p->floorplan.cell_aspect = 1.0; }
static void s_subs_8(var_params *p) { p->floorplan.sub_banks = 8; }
static void s_interleave(var_params *p) { p->floorplan.lane_interleave = 32; }
static void s_ratio_0_bc16(var_params *p)
{
    p->variation.sigma_ratio = 0.0;
    p->floorplan.bank_cols = 16;
}

static const scenario SCENARIOS[] = {
    { "default", "rfdse's defaults: SM domain, phi 0.5, rand:sys 1:1, 16 banks in a column",
      s_default },
    { "ratio_0.25", "rand:sys 1:4 (the paper's sensitivity study, mostly systematic)",
      s_ratio_025 },
    { "ratio_4", "rand:sys 4:1 (mostly random)", s_ratio_4 },
    { "ratio_0", "no random part at all (limit, not physical at 32 nm)", s_ratio_0 },
    { "phi_0.1", "correlation range 0.1 of the RF width", s_phi_01 },
    { "phi_2", "correlation range 2 RF widths", s_phi_2 },
    { "chip", "domain chip: one field over the die, phi 0.5 die widths (VARIUS)", s_chip },
    { "chip_0.25", "domain chip and rand:sys 1:4", s_chip_sys },
    { "bank_cols_4", "banks 4 x 4 in the RF region", s_bank_cols_4 },
    { "bank_cols_16", "16 banks side by side (RF 64 rows tall)", s_bank_cols_16 },
    { "aspect_1", "square bit cells", s_aspect_1 },
    { "sub_banks_8", "8 sub-banks per bank (4 lanes each)", s_subs_8 },
    { "interleave_32", "lanes bit-interleaved across the whole row (column mux 32)",
      s_interleave },
    { "ratio_0_bc16", "no random part and 16 banks side by side", s_ratio_0_bc16 },
};
#define N_SCENARIOS ((int)(sizeof SCENARIOS / sizeof SCENARIOS[0]))

/* Sums of squares of one SM's values x[row][lane] (row = bank * entries + entry). */
typedef struct decomp {
    double total, row, bank, lane, sub, sub_between;
} decomp;

static void decompose(const double *x, int n_banks, int entries, int lanes, int subs,
                      double *rowm, double *lanem, decomp *d)
{
    int rows = n_banks * entries;
    double m = 0;
    for (int r = 0; r < rows; r++) {
        double s = 0;
        for (int l = 0; l < lanes; l++)
            s += x[(size_t)r * lanes + l];
        rowm[r] = s / lanes;
        m += s;
    }
    m /= (double)rows * lanes;
    for (int l = 0; l < lanes; l++) {
        double s = 0;
        for (int r = 0; r < rows; r++)
            s += x[(size_t)r * lanes + l];
        lanem[l] = s / rows;
    }
    decomp o = { 0 };
    for (size_t i = 0; i < (size_t)rows * lanes; i++)
        o.total += (x[i] - m) * (x[i] - m);
    for (int r = 0; r < rows; r++)
        o.row += lanes * (rowm[r] - m) * (rowm[r] - m);
    for (int l = 0; l < lanes; l++)
        o.lane += rows * (lanem[l] - m) * (lanem[l] - m);
    int per_sub = lanes / subs;
    for (int g = 0; g < subs; g++) { /* lane-group (sub-bank column) means over all rows */
        double s = 0;
        for (int l = g * per_sub; l < (g + 1) * per_sub; l++)
            s += lanem[l];
        s /= per_sub;
        o.sub += (double)rows * per_sub * (s - m) * (s - m);
    }
    for (int b = 0; b < n_banks; b++) {
        double bm = 0;
        for (int e = 0; e < entries; e++)
            bm += rowm[b * entries + e];
        bm /= entries;
        o.bank += (double)entries * lanes * (bm - m) * (bm - m);
        for (int g = 0; g < subs; g++) { /* sub-bank (b, g) mean */
            double s = 0;
            for (int e = 0; e < entries; e++)
                for (int l = g * per_sub; l < (g + 1) * per_sub; l++)
                    s += x[(size_t)(b * entries + e) * lanes + l];
            s /= (double)entries * per_sub;
            o.sub_between += (double)entries * per_sub * (s - m) * (s - m);
        }
    }
    d->total += o.total, d->row += o.row, d->bank += o.bank, d->lane += o.lane;
    d->sub += o.sub, d->sub_between += o.sub_between;
}

/* ln of each register's systematic delay: the cell without a random part at the field
 * value of the register's slowest grid square. */
static void systematic_part(const var_chip *c, int sm, double *x)
{
    for (int r = 0; r < c->n_regs; r++) {
        int n;
        const var__piece *pc = var__chip_pieces(c, sm, r, &n);
        double gmax = -INFINITY;
        for (int q = 0; q < n; q++)
            gmax = fmax(gmax, var__chip_piece_g(c, sm, r, pc + q));
        x[r] = var__log_delay(&c->dist, gmax, 0.0, 0.0);
    }
}

static void print_decomp(const char *what, const decomp *d)
{
    double t = d->total > 0 ? d->total : 1;
    printf("  %-11s rows %5.3f (banks %5.3f, entries %5.3f)  lanes %5.3f "
           "(sub-bank halves %5.3f, within %5.3f)  rest %5.3f | between sub-banks %5.3f\n",
           what, d->row / t, d->bank / t, (d->row - d->bank) / t, d->lane / t, d->sub / t,
           (d->lane - d->sub) / t, (d->total - d->row - d->lane) / t, d->sub_between / t);
}

static int run_scenario(const scenario *sc, int n_chips, uint64_t seed)
{
    var_params p;
    var_params_default(&p);
    sc->set(&p);
    int err;
    var_chip *c = var_chip_alloc_err(&p, &err);
    if (!c) {
        fprintf(stderr, "premise_bench: %s: %s\n", sc->name, var_strerror(err));
        return 1;
    }
    const var_floorplan *f = &p.floorplan;
    int L = f->bits_per_entry / 32, rows = f->n_banks * f->entries_per_bank;
    double *x = malloc(sizeof(double) * (size_t)c->n_regs), *rowm = malloc(sizeof(double) * rows);
    double *lanem = malloc(sizeof(double) * L);
    decomp all = { 0 }, sys = { 0 };
    double fq[4] = { 0 }, slow_entries = 0;
    var_technique t[4];
    for (int i = 0; i < 4; i++)
        var_technique_default(&t[i]);
    t[1].granularity = VAR_GRAN_REGISTER;
    t[2].granularity = t[3].granularity = VAR_GRAN_SUB_BANK;
    t[3].bro = true;
    var_rf_map map;
    for (int k = 0; k < n_chips; k++) {
        var_chip_generate(c, &p, seed, k);
        for (int sm = 0; sm < c->n_sms; sm++) {
            const double *reg = var_chip_register_delays(c, sm);
            for (int r = 0; r < c->n_regs; r++)
                x[r] = log(reg[r]);
            decompose(x, f->n_banks, f->entries_per_bank, L, f->sub_banks, rowm, lanem, &all);
            systematic_part(c, sm, x);
            decompose(x, f->n_banks, f->entries_per_bank, L, f->sub_banks, rowm, lanem, &sys);
            for (int i = 0; i < 4; i++) {
                double fr;
                var_technique_apply(c, &p, &t[i], sm, &map, &fr);
                fq[i] += fr;
                if (i == 1) {
                    int n = 0;
                    for (int b = 0; b < map.n_banks; b++)
                        for (int e = 0; e < map.n_entries; e++)
                            n += map.entry_slow[b][e] != 0;
                    slow_entries += (double)n / rows;
                }
            }
        }
    }
    double n_sm = (double)n_chips * c->n_sms;
    printf("%s: %s\n", sc->name, sc->why);
    print_decomp("registers", &all);
    print_decomp("systematic", &sys);
    printf("  frequency   baseline %.3f  vl_rf %.3f  vl_sb %.3f  rf_bro %.3f  "
           "(vl_sb / vl_rf %.3f)  vl_rf slow vectors %.3f\n",
           fq[0] / n_sm, fq[1] / n_sm, fq[2] / n_sm, fq[3] / n_sm, fq[2] / fq[1],
           slow_entries / n_sm);
    fflush(stdout);
    free(x);
    free(rowm);
    free(lanem);
    var_chip_free(c);
    return 0;
}

int main(int argc, char **argv)
{
    int chips = 100;
    uint64_t seed = 1;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list")) {
            for (int s = 0; s < N_SCENARIOS; s++)
                printf("%-14s %s\n", SCENARIOS[s].name, SCENARIOS[s].why);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "usage: premise_bench [--chips N] [--seed S] [--only NAME] [--list]\n");
            return 2;
        }
        if (!strcmp(argv[i], "--chips"))
            chips = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--only"))
            only = argv[++i];
        else {
            fprintf(stderr, "premise_bench: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (chips < 1)
        chips = 1;
    printf("premise_bench: %d chips, seed %llu; shares of the within-SM variance of "
           "ln(register delay)\n", chips, (unsigned long long)seed);
    int rc = 0, ran = 0;
    for (int s = 0; s < N_SCENARIOS; s++)
        if (!only || !strcmp(only, SCENARIOS[s].name)) {
            rc |= run_scenario(&SCENARIOS[s], chips, seed);
            ran++;
        }
    if (!ran) {
        fprintf(stderr, "premise_bench: no scenario '%s' (--list)\n", only);
        return 2;
    }
    return rc;
}
