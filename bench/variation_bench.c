/* variation_bench: how fast variation/ makes chips, and its field against R RandomFields.
 *
 *   variation_bench [--chips N] [--rscript PATH] [--rfile variation_field.R]
 *   variation_bench --generate N      chip generation alone, N chips (for callgrind)
 *   variation_bench --digest N        a hash of every generated value, N chips of each of
 *                                     several floorplans (bit-identity of var_chip_generate)
 *
 * Also times the fast NBTI aging path (var_chip_age_registers) per SM.
 * Times are CPU time of this process (the build machines are shared, wall time is noise).
 * Prints a table meant to be pasted into docs/performance.md ("## Variation"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "var_internal.h"

#define VG_LAGS 64

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Fast NBTI aging (var_chip_age_registers): the first call per SM after a generate also
 * saves the SM's time-zero state; the driver then calls it once per SM per time point. */
static void bench_aging(var_chip *c, const var_params *p)
{
    enum { CHIPS = 4, POINTS = 7 };
    double ts[512], tr[512], first = 0, later = 0;
    int n_subs = p->floorplan.n_banks * p->floorplan.sub_banks;
    for (int k = 0; k < CHIPS; k++) {
        var_chip_generate(c, p, 1, k);
        for (int sm = 0; sm < c->n_sms; sm++)
            for (int y = 1; y <= POINTS; y++) {
                for (int i = 0; i < n_subs; i++) /* duty 0.2 .. 0.8 across sub-banks */
                    ts[i] = (0.2 + 0.6 * i / (n_subs - 1)) * y * VAR_YEAR_S,
                    tr[i] = y * VAR_YEAR_S - ts[i];
                double t0 = cpu_now();
                var_chip_age_registers(c, p, sm, ts, tr);
                double dt = cpu_now() - t0;
                *(y == 1 ? &first : &later) += dt;
            }
    }
    double n_sm = (double)CHIPS * c->n_sms;
    printf("  aging, var_chip_age_registers         %8.2f ms per SM, first call per chip\n",
           1e3 * first / n_sm);
    printf("                                        %8.2f ms per SM per later time point\n",
           1e3 * later / (n_sm * (POINTS - 1)));
}

/* The register-file cache of ltrf (var_chip_cache, 128 vectors in 16 banks), per SM
 * per technique; and the tables of larger cells (var_cache_alloc), once per technique. */
static void bench_cache(var_chip *c, const var_params *p)
{
    enum { CHIPS = 4 };
    double d[16], l[16], draw = 0, sum = 0;
    for (int k = 0; k < CHIPS; k++) {
        var_chip_generate(c, p, 1, k);
        double t0 = cpu_now();
        for (int sm = 0; sm < c->n_sms; sm++) {
            var_chip_cache(c, sm, 128, 16, d, l);
            sum += d[0];
        }
        draw += cpu_now() - t0;
    }
    double t1 = cpu_now();
    var_cache *big = var_cache_alloc(p, 2.0, NULL);
    double t2 = cpu_now();
    var_cache_free(big);
    printf("  register-file cache (128 vectors)     %8.2f ms per SM%s\n",
           1e3 * draw / (CHIPS * c->n_sms), sum > 0 ? "" : " ");
    printf("  cache of other cells: tables          %8.1f ms once per technique\n",
           1e3 * (t2 - t1));
}

static void bench_chips(int n_chips)
{
    var_params p;
    var_params_default(&p);
    double t0 = cpu_now();
    int err;
    var_chip *c = var_chip_alloc_err(&p, &err);
    if (!c) {
        fprintf(stderr, "variation_bench: %s\n", var_strerror(err));
        exit(1);
    }
    double t1 = cpu_now(), fsum = 0;
    for (int k = 0; k < n_chips; k++) {
        var_chip_generate(c, &p, 1, k);
        fsum += var_chip_frequency(c);
    }
    double t2 = cpu_now();
    double cells = (double)p.floorplan.n_sms * p.floorplan.n_banks *
                   p.floorplan.entries_per_bank * p.floorplan.bits_per_entry;
    double per_chip = (t2 - t1) / n_chips;
    printf("chips: %d of the default floorplan (%d SMs x %.0f cells, %d registers per SM)\n",
           n_chips, p.floorplan.n_sms, cells / p.floorplan.n_sms,
           p.floorplan.n_banks * p.floorplan.entries_per_bank * p.floorplan.bits_per_entry / 32);
    printf("  allocation (plans, FFT, max tables)   %8.1f ms once\n", 1e3 * (t1 - t0));
    printf("  generate                              %8.2f ms per chip\n", 1e3 * per_chip);
    printf("                                        %8.2f ns per cell\n", 1e9 * per_chip / cells);
    printf("  mean chip frequency                   %8.4f\n", fsum / n_chips);

    /* brute force for comparison: two normals and one delay per cell */
    var__stream s = var__stream_make(1, 0, VAR__P_BRUTE, 0);
    const int nb = 2000000;
    double t3 = cpu_now(), acc = 0;
    for (int i = 0; i < nb; i++) {
        double z[2];
        var__normal2(s, 0, (uint32_t)i, z);
        acc += var__log_delay(&c->dist, 0.0, z[0], z[1]);
    }
    double t4 = cpu_now();
    printf("  brute force per-cell draws (estimate) %8.0f ms per chip  (%.1f ns per cell%s)\n",
           1e3 * (t4 - t3) / nb * cells, 1e9 * (t4 - t3) / nb, acc == 0 ? " " : "");

    double *vth = malloc(sizeof(double) * (size_t)(cells / p.floorplan.n_sms) * 2);
    double t5 = cpu_now();
    var_chip_cells(c, &p, 0, vth, vth + (size_t)(cells / p.floorplan.n_sms));
    double t6 = cpu_now();
    printf("  per-cell maps of one SM (chipmap)     %8.0f ms\n", 1e3 * (t6 - t5));
    free(vth);
    bench_aging(c, &p);
    bench_cache(c, &p);
    var_chip_free(c);
}

/* Semivariogram along the long axis of n field samples of rows x cols. */
static void field_variogram(int rows, int cols, int pairs, double *gamma, double *sec_per_field)
{
    int err;
    var__field *f = var__field_alloc(rows, cols, 1.0 / cols, 0.5, VAR_FIELD_CIRCULANT, 4, &err);
    double *a = malloc(sizeof(double) * rows * cols * 2), *b = a + rows * cols;
    double t0 = cpu_now();
    for (int i = 0; i < pairs; i++)
        var__field_sample(f, var__stream_make(5, i, VAR__P_FIELD, 0), a, b);
    *sec_per_field = (cpu_now() - t0) / (2.0 * pairs);
    for (int d = 1; d <= VG_LAGS; d++)
        gamma[d] = 0;
    for (int i = 0; i < pairs; i++) {
        var__field_sample(f, var__stream_make(5, i, VAR__P_FIELD, 0), a, b);
        for (int d = 1; d <= VG_LAGS; d++)
            for (int r = 0; r < rows; r++)
                for (int c = 0; c + d < cols; c++) {
                    double x = a[r * cols + c + d] - a[r * cols + c];
                    double y = b[r * cols + c + d] - b[r * cols + c];
                    gamma[d] += 0.5 * (x * x + y * y);
                }
    }
    for (int d = 1; d <= VG_LAGS; d++)
        gamma[d] /= 2.0 * pairs * rows * (cols - d);
    free(a);
    var__field_free(f);
}

/* Runs the R script; returns 0 and fills gamma_r / sec_r, or -1 (skip). */
static int run_r(const char *rscript, const char *rfile, int rows, int cols, int n,
                 double *gamma_r, double *sec_r)
{
    if (!rscript || !*rscript) {
        printf("R comparison skipped: Rscript not found\n");
        return -1;
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' '%s' %d %d 0.5 %d", rscript, rfile, rows, cols, n);
    FILE *r = popen(cmd, "r");
    if (!r)
        return -1;
    char line[256];
    int got = 0;
    while (fgets(line, sizeof line, r)) {
        int d;
        double g;
        if (sscanf(line, "seconds_per_field %lf", sec_r) == 1)
            got++;
        else if (sscanf(line, "%d %lf", &d, &g) == 2 && d >= 1 && d <= VG_LAGS)
            gamma_r[d] = g, got++;
    }
    int st = pclose(r);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
        printf("R comparison skipped: R package RandomFields not installed\n");
        return -1;
    }
    if (st != 0 || got < VG_LAGS + 1) {
        printf("R comparison skipped: Rscript failed (status %d)\n", st);
        return -1;
    }
    return 0;
}

static void bench_field(const char *rscript, const char *rfile)
{
    const int rows = 64, cols = 128, pairs = 200; /* the default SM-domain grid */
    double g_c[VG_LAGS + 1], g_r[VG_LAGS + 1], sec_c, sec_r;
    field_variogram(rows, cols, pairs, g_c, &sec_c);
    printf("\nfield: %d x %d grid, spherical phi = 0.5, circulant embedding\n", rows, cols);
    printf("  rfdse                                 %8.3f ms per field\n", 1e3 * sec_c);
    int have_r = run_r(rscript, rfile, rows, cols, 2 * pairs, g_r, &sec_r) == 0;
    if (have_r)
        printf("  R RandomFields (RPcirculant)          %8.3f ms per field  (rfdse %.1fx faster)\n",
               1e3 * sec_r, sec_r / sec_c);
    printf("  semivariogram along rows (lag in grid steps, theory 1 - rho):\n");
    printf("    lag   theory    rfdse%s\n", have_r ? "        R" : "");
    double worst = 0;
    for (int d = 1; d <= VG_LAGS; d *= 2) {
        double th = 1.0 - var__spherical(d / (double)cols, 0.5);
        printf("    %3d  %7.4f  %7.4f", d, th, g_c[d]);
        if (have_r)
            printf("  %7.4f", g_r[d]);
        printf("\n");
    }
    for (int d = 1; d <= VG_LAGS && have_r; d++)
        worst = fmax(worst, fabs(g_c[d] - g_r[d]));
    if (have_r)
        printf("  max |rfdse - R| over lags 1..%d: %.4f\n", VG_LAGS, worst);
}

/* FNV-1a over the bytes of n doubles. */
static uint64_t hash_doubles(uint64_t h, const double *x, size_t n)
{
    const unsigned char *b = (const unsigned char *)x;
    for (size_t i = 0; i < n * sizeof *x; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

/* Every value var_chip_generate leaves behind: delays at each level, frequencies, ratios,
 * the sub-bank Leffs of the aging and the fields. */
static uint64_t hash_chip(uint64_t h, const var_chip *c)
{
    size_t S = (size_t)c->n_sms, np = (size_t)c->plan.grid_rows * c->plan.grid_cols;
    h = hash_doubles(h, c->reg, S * c->n_regs);
    h = hash_doubles(h, c->entry, S * c->n_entries);
    h = hash_doubles(h, c->sub, S * c->n_subs);
    h = hash_doubles(h, c->bank, S * c->n_banks);
    h = hash_doubles(h, c->sm_freq, S);
    h = hash_doubles(h, c->sm_ratio, S);
    h = hash_doubles(h, c->sub_leff, S * c->n_subs);
    return hash_doubles(h, c->g, np * c->plan.n_fields);
}

/* The floorplans and knobs of the digest: the default, the reference sweeps' variants and
 * layouts whose pieces differ (interleaved lanes, two bank columns, the chip domain). */
static void digest_params(int i, var_params *p)
{
    var_params_default(p);
    switch (i) {
    case 1: p->variation.sigma_ratio = 0.25; break;
    case 2: p->variation.sigma_ratio = 4.0; break;
    case 3: p->variation.domain = VAR_DOMAIN_CHIP, p->variation.sigma_ratio = 0.25;
            p->variation.grid_cols = 256; break;
    case 4: p->floorplan.lane_interleave = 4; break;
    case 5: p->floorplan.bank_cols = 2, p->floorplan.n_sms = 4, p->variation.vth_sigma = 0.3;
            break;
    default: break;
    }
}
#define DIGEST_CASES 6

static int bench_digest(int n_chips)
{
    uint64_t all = 1469598103934665603ULL;
    for (int i = 0; i < DIGEST_CASES; i++) {
        var_params p;
        digest_params(i, &p);
        int err;
        var_chip *c = var_chip_alloc_err(&p, &err);
        if (!c) {
            fprintf(stderr, "variation_bench: case %d: %s\n", i, var_strerror(err));
            return 1;
        }
        uint64_t h = 1469598103934665603ULL;
        for (int k = 0; k < n_chips; k++) {
            var_chip_generate(c, &p, 2026, k);
            h = hash_chip(h, c);
        }
        printf("case %d: %016llx\n", i, (unsigned long long)h);
        all = (all ^ h) * 1099511628211ULL;
        var_chip_free(c);
    }
    printf("digest %016llx\n", (unsigned long long)all);
    return 0;
}

/* Chip generation alone, for a profiler: the allocation, then n_chips generates. */
static void bench_generate(int n_chips)
{
    var_params p;
    var_params_default(&p);
    var_chip *c = var_chip_alloc(&p);
    if (!c)
        exit(1);
    double t0 = cpu_now(), fsum = 0;
    for (int k = 0; k < n_chips; k++) {
        var_chip_generate(c, &p, 1, k);
        fsum += var_chip_frequency(c);
    }
    printf("generate %.2f ms per chip (mean frequency %.6f)\n",
           1e3 * (cpu_now() - t0) / n_chips, fsum / n_chips);
    var_chip_free(c);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--generate")) {
        bench_generate(atoi(argv[2]) > 0 ? atoi(argv[2]) : 1);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--digest"))
        return bench_digest(atoi(argv[2]) > 0 ? atoi(argv[2]) : 1);
    int chips = 100;
    const char *rscript = NULL, *rfile = "variation_field.R";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--chips"))
            chips = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rscript"))
            rscript = argv[i + 1];
        else if (!strcmp(argv[i], "--rfile"))
            rfile = argv[i + 1];
    }
    bench_chips(chips > 0 ? chips : 1);
    bench_field(rscript, rfile);
    return 0;
}
