/* Unit tests of the analysis module: statistics and histograms against hand-computed
 * values, a small synthetic results file end to end, every figure, and the errors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "ana.h"
#include "synth.h"

#define TOL 1e-12
#define assert_near(a, b, tol)                                                             \
    do {                                                                                   \
        double a_ = (a), b_ = (b);                                                         \
        if (!(fabs(a_ - b_) <= (tol))) {                                                   \
            print_error("%s = %.17g, expected %.17g (tol %g)\n", #a, a_, b_, (double)(tol)); \
            fail();                                                                        \
        }                                                                                  \
    } while (0)

/* A per-test scratch directory, removed afterwards. */
static int setup_dir(void **state)
{
    char *dir = malloc(64);
    snprintf(dir, 64, "/tmp/ana_test_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    *state = dir;
    return 0;
}

static int teardown_dir(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", (char *)*state);
    int rc = system(cmd);
    free(*state);
    return rc;
}

static void path_in(void **state, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", (char *)*state, name);
}

/* ---- statistics ---------------------------------------------------------------------- */

static void stats_hand_computed(void **state)
{
    (void)state;
    const double x[] = { 4, NAN, 1, 3, 2 };
    double work[5];
    ana_stats s;
    ana_stats_compute(x, 5, 1, work, &s);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.n_nan, 1);
    assert_near(s.mean, 2.5, TOL);
    assert_near(s.std, 1.2909944487358056, TOL); /* sqrt(5/3) */
    assert_near(s.min, 1.0, 0);
    assert_near(s.max, 4.0, 0);
    /* Linear interpolation: p at index p (n - 1) of the sorted sample 1 2 3 4. */
    assert_near(s.p5, 1.15, TOL);
    assert_near(s.p50, 2.5, TOL);
    assert_near(s.p95, 3.85, TOL);
    /* mean -+ t(0.975, 3) std / 2, t = 3.182446305284263 */
    assert_near(s.ci_low, 0.445739743239121, 1e-9);
    assert_near(s.ci_high, 4.5542602567608785, 1e-9);
}

static void stats_stride(void **state)
{
    (void)state;
    /* Every other element: 10 30 50 = the chips of one technique in [chip][tech]. */
    const double x[] = { 10, -1, 30, -1, 50, -1 };
    double work[3];
    ana_stats s;
    ana_stats_compute(x, 3, 2, work, &s);
    assert_int_equal(s.n, 3);
    assert_near(s.mean, 30.0, TOL);
    assert_near(s.std, 20.0, TOL);
    assert_near(s.p50, 30.0, TOL);
}

static void stats_all_nan_and_single(void **state)
{
    (void)state;
    const double nan3[] = { NAN, NAN, NAN }, one[] = { 0.7 };
    double work[3];
    ana_stats s;
    ana_stats_compute(nan3, 3, 1, work, &s);
    assert_int_equal(s.n, 0);
    assert_int_equal(s.n_nan, 3);
    assert_true(isnan(s.mean) && isnan(s.min) && isnan(s.p50) && isnan(s.ci_low));
    ana_stats_compute(one, 1, 1, work, &s);
    assert_int_equal(s.n, 1);
    assert_near(s.mean, 0.7, 0);
    assert_near(s.p95, 0.7, 0);
    assert_true(isnan(s.std) && isnan(s.ci_low) && isnan(s.ci_high));
}

/* ---- bins and histograms ------------------------------------------------------------- */

static void bins_rule(void **state)
{
    (void)state;
    assert_int_equal(ana_bins_count(100), 10); /* ceil(2 * 4.64) */
    assert_int_equal(ana_bins_count(20), 6);
    assert_int_equal(ana_bins_count(1), ANA_BINS_MIN);
    assert_int_equal(ana_bins_count(1000000), ANA_BINS_MAX);
    assert_near(ana_bins_nice(0.03), 0.05, TOL);
    assert_near(ana_bins_nice(0.02), 0.02, TOL);
    assert_near(ana_bins_nice(0.021), 0.025, TOL);
    assert_near(ana_bins_nice(7.0), 10.0, TOL);
    assert_near(ana_bins_nice(0.1), 0.1, TOL);
}

static void bins_edges_nice_and_covering(void **state)
{
    (void)state;
    double e[6];
    ana_bins_edges(0.81, 0.93, 5, e); /* w = nice(0.12 / 4) = 0.05, from 0.80 */
    const double want[] = { 0.80, 0.85, 0.90, 0.95, 1.00, 1.05 };
    for (int i = 0; i < 6; i++)
        assert_near(e[i], want[i], 1e-12);
    ana_bins_edges(1.0, 1.0, 5, e); /* all equal: w = 1e-3 */
    assert_near(e[0], 1.0, 1e-12);
    assert_near(e[5], 1.005, 1e-12);
    ana_bins_edges(NAN, NAN, 5, e);
    assert_true(isnan(e[0]) && isnan(e[5]));
    /* Max strictly inside the last edge for many ranges, including exact multiples. */
    for (int k = 1; k < 200; k++) {
        double lo = 0.5 + 0.01 * k, hi = lo + 0.003 * k;
        ana_bins_edges(lo, hi, 5, e);
        assert_true(e[0] <= lo);
        assert_true(e[5] > hi);
    }
}

static void hist_counts_skip_nan(void **state)
{
    (void)state;
    const double e[] = { 0.80, 0.85, 0.90, 0.95, 1.00, 1.05 };
    const double x[] = { 0.81, 0.85, 0.849, NAN, 0.93 };
    uint64_t c[5];
    assert_int_equal(ana_hist_fill(x, 5, 1, e, 5, c), ANA_EOK);
    /* Lower edges inclusive: 0.85 belongs to the second bin. */
    const uint64_t want[] = { 2, 1, 1, 0, 0 };
    for (int i = 0; i < 5; i++)
        assert_int_equal(c[i], want[i]);
}

/* ---- a small file end to end --------------------------------------------------------- */

/* 5 chips x 2 techniques x 2 years / 3 benchmarks with hand-picked values. */
static const char *const tech2[] = { "baseline", "rf_bro" };
static const char *const bench3[] = { "nn", "srad", "nw" };
static const double year2[] = { 0.0, 7.0 };
/* frequency [chip][tech][year] */
static const double freq[5 * 2 * 2] = {
    0.80, 0.78, 0.90, 0.89, /* chip 0 */
    0.82, 0.80, 0.92, 0.91, /* chip 1 */
    0.84, 0.82, 0.94, NAN,  /* chip 2: one NaN */
    0.86, 0.84, 0.96, 0.95, /* chip 3 */
    0.88, 0.86, 0.98, 0.97, /* chip 4: rf_bro not done */
};
/* ipc [chip][tech][bench] */
static const double ipc[5 * 2 * 3] = {
    1, 1, 1, 0.9, 0.8, 0.7,  1, 1, 1, 0.9, 0.9, 0.9,  1, 1, 1, NAN, 0.9, 0.9,
    1, 1, 1, 0.8, 0.8, 0.8,  1, 1, 1, 0.5, 0.5, 0.5,
};
static const uint8_t done[5 * 2] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };

static void small_file(const char *path)
{
    synth_data d = { .n_chip = 5, .n_tech = 2, .n_bench = 3, .n_year = 2, .tech = tech2,
                     .bench = bench3, .year = year2, .done = done, .sigma_ratio = 1.0 };
    d.metric[ANA_M_frequency] = freq;
    d.metric[ANA_M_ipc] = ipc;
    assert_int_equal(synth_write(path, &d), 0);
}

static void read2(const char *path, const char *ds, double *buf)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, ds, H5P_DEFAULT);
    assert_true(d >= 0);
    assert_true(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Dclose(d);
    H5Fclose(f);
}

static void file_statistics(void **state)
{
    char path[256];
    path_in(state, "small.h5", path, sizeof path);
    small_file(path);
    ana_results *r;
    ana_summary *s;
    assert_int_equal(ana_results_load(path, &r, stderr), ANA_EOK);
    assert_int_equal(r->n_not_done, 1);
    assert_int_equal(ana_summary_compute(r, &s), ANA_EOK);
    const ana_view *f = ana_summary_find(s, "frequency");
    assert_non_null(f);
    assert_int_equal(f->n_x, 2);
    /* baseline, t = 0: 0.80 .. 0.88 */
    assert_near(f->stats[0].mean, 0.84, 1e-12);
    assert_near(f->stats[0].std, sqrt(0.001), 1e-12); /* sum of squares 0.004 / 4 */
    /* rf_bro, t = 7: 0.89 0.91 NaN 0.95 and chip 4 masked (not done) */
    const ana_stats *rb7 = &f->stats[1 * 2 + 1];
    assert_int_equal(rb7->n, 3);
    assert_int_equal(rb7->n_nan, 2);
    assert_near(rb7->mean, (0.89 + 0.91 + 0.95) / 3, 1e-12);
    /* Histogram of baseline t = 0 holds all 5 chips, edges on multiples of 0.01. */
    uint64_t total = 0;
    for (int b = 0; b < f->n_bins; b++)
        total += f->counts[b];
    assert_int_equal(total, 5);
    assert_near(f->edges[0], 0.80, 1e-12);
    /* chip_ipc: mean over benchmarks, NaN if any benchmark is NaN. */
    const ana_view *ci = ana_summary_find(s, "chip_ipc");
    assert_non_null(ci);
    assert_null(ci->x_axis);
    /* rf_bro chips: 0.8, 0.9, NaN, 0.8, masked */
    assert_int_equal(ci->stats[1].n, 3);
    assert_int_equal(ci->stats[1].n_nan, 2);
    assert_near(ci->stats[1].mean, (0.8 + 0.9 + 0.8) / 3, 1e-12);
    assert_null(ana_summary_find(s, "guardband"));

    /* Written back: /analysis holds the same numbers. */
    assert_int_equal(ana_summary_write(path, r, s, "test", stderr), ANA_EOK);
    double mean[4], nnan[4];
    read2(path, "/analysis/frequency/mean", mean);
    read2(path, "/analysis/frequency/n_nan", nnan);
    assert_near(mean[0], 0.84, 1e-12);
    assert_near(mean[3], rb7->mean, 1e-15);
    assert_near(nnan[3], 2, 0);
    ana_summary_free(s);
    ana_results_free(r);
}

static void rewrite_replaces_analysis(void **state)
{
    char path[256];
    path_in(state, "small.h5", path, sizeof path);
    small_file(path);
    ana_options o = { .out = fopen("/dev/null", "w"), .err = stderr, .tool_version = "t" };
    const char *p[] = { path };
    assert_int_equal(ana_analyze(p, 1, &o), ANA_EOK);
    assert_int_equal(ana_analyze(p, 1, &o), ANA_EOK);
    fclose(o.out);
    double mean[4];
    read2(path, "/analysis/frequency/mean", mean);
    assert_near(mean[0], 0.84, 1e-12);
    /* No temporary file left next to it. */
    char cmd[300];
    snprintf(cmd, sizeof cmd, "test $(ls '%s' | wc -l) -eq 1", (char *)*state);
    assert_int_equal(system(cmd), 0);
}

/* ---- figures --------------------------------------------------------------------------- */

static void expect_png(const char *dir, const char *prefix, ana_figure f)
{
    char path[512];
    uint32_t w = 0, h = 0;
    snprintf(path, sizeof path, "%s/%s%s.png", dir, prefix, ana_figure_get(f)->name);
    if (ana_png_size(path, &w, &h) != ANA_EOK) {
        print_error("%s: missing or not a PNG\n", path);
        fail();
    }
    assert_int_equal(w, ana_figure_get(f)->width);
    assert_int_equal(h, ana_figure_get(f)->height);
}

static void every_figure(void **state)
{
    char a[256], b[256], c[256], m[256], figs[256];
    path_in(state, "sens-1to4.h5", a, sizeof a);
    path_in(state, "sens-1to1.h5", b, sizeof b);
    path_in(state, "sens-4to1.h5", c, sizeof c);
    path_in(state, "map.h5", m, sizeof m);
    path_in(state, "figures", figs, sizeof figs);
    const double ratios[] = { 0.25, 1.0, 4.0 };
    const char *files[] = { a, b, c, m };
    for (int i = 0; i < 3; i++) {
        synth_data d;
        synth_storage *st = synth_realistic(&d, 40, ratios[i], 99 + (uint64_t)i);
        assert_int_equal(synth_write(files[i], &d), 0);
        synth_free(st);
    }
    assert_int_equal(synth_chipmap(m, 256, 128, 5), 0);
    ana_options o = { .figures_dir = figs, .out = fopen("/dev/null", "w"), .err = stderr };
    assert_int_equal(ana_analyze(files, 4, &o), ANA_EOK);
    fclose(o.out);
    const ana_figure per_file[] = { ANA_FIG_freq_dist, ANA_FIG_perf_dist, ANA_FIG_overview,
                                    ANA_FIG_ipc, ANA_FIG_guardband, ANA_FIG_nbti_trace };
    for (size_t i = 0; i < sizeof per_file / sizeof per_file[0]; i++)
        expect_png(figs, "sens-1to1_", per_file[i]);
    expect_png(figs, "", ANA_FIG_sensitivity);
    expect_png(figs, "map_", ANA_FIG_vth_map);
}

/* Runs analyze on one file capturing the notes; returns the status. */
static int analyze_capture(const char *path, const char *figs, char *notes, size_t n)
{
    FILE *err = tmpfile(), *out = fopen("/dev/null", "w");
    ana_options o = { .figures_dir = figs, .out = out, .err = err };
    const char *p[] = { path };
    int rc = ana_analyze(p, 1, &o);
    rewind(err);
    size_t got = fread(notes, 1, n - 1, err);
    notes[got] = '\0';
    fclose(err);
    fclose(out);
    return rc;
}

static void missing_axis_skips_figures(void **state)
{
    char path[256], figs[256], notes[4096], png[512];
    path_in(state, "nobench.h5", path, sizeof path);
    path_in(state, "figures", figs, sizeof figs);
    synth_data d;
    synth_storage *st = synth_realistic(&d, 20, 1.0, 3);
    d.bench = NULL; /* no /axes/benchmark: IPC, performance, guardband cannot be read */
    assert_int_equal(synth_write(path, &d), 0);
    synth_free(st);
    assert_int_equal(analyze_capture(path, figs, notes, sizeof notes), ANA_EOK);
    expect_png(figs, "nobench_", ANA_FIG_freq_dist);
    assert_non_null(strstr(notes, "skipped figure ipc: the file has no /results/ipc with "
                                  "/axes/benchmark (produced by sweeps/reference/ipc.cfg)"));
    assert_non_null(strstr(notes, "skipped figure perf_dist"));
    assert_non_null(strstr(notes, "skipped figure guardband"));
    snprintf(png, sizeof png, "%s/nobench_ipc.png", figs);
    assert_int_equal(access(png, F_OK), -1);
}

static void no_aging_skips_guardband(void **state)
{
    char path[256], figs[256], notes[4096];
    path_in(state, "noaging.h5", path, sizeof path);
    path_in(state, "figures", figs, sizeof figs);
    synth_data d;
    synth_storage *st = synth_realistic(&d, 20, 1.0, 4);
    d.metric[ANA_M_guardband] = NULL;
    d.metric[ANA_M_guardband_raw] = NULL;
    d.n_trace = 0;
    assert_int_equal(synth_write(path, &d), 0);
    synth_free(st);
    assert_int_equal(analyze_capture(path, figs, notes, sizeof notes), ANA_EOK);
    expect_png(figs, "noaging_", ANA_FIG_ipc);
    assert_non_null(strstr(notes, "skipped figure guardband"));
    assert_non_null(strstr(notes, "skipped figure nbti_trace: the file has no /chips/trace"));
}

/* ---- errors ---------------------------------------------------------------------------- */

static int one_line(const char *s) { return strchr(s, '\n') == s + strlen(s) - 1; }

static void bad_files(void **state)
{
    char path[256], notes[4096];
    path_in(state, "foreign.h5", path, sizeof path);
    assert_int_equal(synth_foreign(path), 0);
    assert_int_equal(analyze_capture(path, NULL, notes, sizeof notes), ANA_ENOTRFDSE);
    assert_true(one_line(notes));
    assert_non_null(strstr(notes, "not an rfdse results file"));

    path_in(state, "text.h5", path, sizeof path);
    FILE *f = fopen(path, "w");
    fputs("not hdf5\n", f);
    fclose(f);
    assert_int_equal(analyze_capture(path, NULL, notes, sizeof notes), ANA_ENOTRFDSE);
    assert_true(one_line(notes));

    path_in(state, "missing.h5", path, sizeof path);
    assert_int_equal(analyze_capture(path, NULL, notes, sizeof notes), ANA_ENOFILE);
    assert_true(one_line(notes));
    assert_true(ana_err_is_input(ANA_ENOFILE) && ana_err_is_input(ANA_ECORRUPT));
    assert_false(ana_err_is_input(ANA_EIO));
}

static void wrong_shape_is_corrupt(void **state)
{
    char path[256], notes[4096];
    path_in(state, "shape.h5", path, sizeof path);
    /* A consistent file with 2 benchmarks, whose axis is then replaced by 3 names. */
    synth_data d = { .n_chip = 5, .n_tech = 2, .n_bench = 2, .n_year = 1, .tech = tech2,
                     .bench = bench3, .year = year2, .sigma_ratio = NAN };
    d.metric[ANA_M_ipc] = ipc;
    assert_int_equal(synth_write(path, &d), 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/axes/benchmark", H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 32);
    hsize_t n = 3;
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t ds = H5Dcreate2(f, "/axes/benchmark", t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    char names[3][32] = { "a", "b", "c" };
    H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, names);
    H5Dclose(ds);
    H5Sclose(sp);
    H5Tclose(t);
    H5Fclose(f);
    assert_int_equal(analyze_capture(path, NULL, notes, sizeof notes), ANA_ECORRUPT);
    assert_true(one_line(notes));
    assert_non_null(strstr(notes, "/results/ipc is not [chip 5][technique 2][benchmark 3]"));
}

static void bad_file_writes_nothing(void **state)
{
    char good[256], bad[256], notes[4096];
    path_in(state, "good.h5", good, sizeof good);
    path_in(state, "bad.h5", bad, sizeof bad);
    small_file(good);
    assert_int_equal(synth_foreign(bad), 0);
    FILE *err = tmpfile(), *out = fopen("/dev/null", "w");
    ana_options o = { .out = out, .err = err };
    const char *p[] = { good, bad };
    assert_int_equal(ana_analyze(p, 2, &o), ANA_ENOTRFDSE);
    fclose(err);
    fclose(out);
    (void)notes;
    hid_t f = H5Fopen(good, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_int_equal(H5Lexists(f, "/analysis", H5P_DEFAULT), 0);
    H5Fclose(f);
}

/* ---- grouping identical distributions -------------------------------------------------- */

static void group_identical_distributions(void **state)
{
    (void)state;
    /* 5 techniques x 2 axis points x 4 chips.  Row 2 is row 0 with its chips in another
     * order (the same distribution); row 3 equals row 1 at the first point only; row 4
     * is row 1 with NaN in the same places (NaN counts as equal to NaN). */
    const double x[5][2][4] = {
        { { 0.6, 0.7, 0.8, 0.9 }, { 0.5, 0.6, 0.7, 0.8 } },
        { { 0.6, 0.7, 0.8, NAN }, { 0.5, 0.5, 0.5, 0.5 } },
        { { 0.9, 0.8, 0.7, 0.6 }, { 0.8, 0.5, 0.7, 0.6 } },
        { { 0.6, 0.7, 0.8, NAN }, { 0.5, 0.5, 0.5, 0.51 } },
        { { NAN, 0.8, 0.7, 0.6 }, { 0.5, 0.5, 0.5, 0.5 } },
    };
    int group[5];
    assert_int_equal(ana_group_identical(&x[0][0][0], 5, 2, 4, group), 3);
    const int want[5] = { 0, 1, 0, 3, 1 };
    for (int t = 0; t < 5; t++)
        assert_int_equal(group[t], want[t]);
    /* One segment only: rows 1, 3 and 4 agree there. */
    double first[5][4];
    for (int t = 0; t < 5; t++)
        memcpy(first[t], x[t][0], sizeof first[t]);
    assert_int_equal(ana_group_identical(&first[0][0], 5, 1, 4, group), 2);
    assert_int_equal(group[3], 1);
    assert_int_equal(group[4], 1);
}

static void png_checker_rejects(void **state)
{
    /* The checker the figure tests rely on must be able to fail. */
    char path[256];
    uint32_t w, h;
    path_in(state, "fake.png", path, sizeof path);
    FILE *f = fopen(path, "wb");
    fputs("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDX", f);
    fclose(f);
    assert_int_equal(ana_png_size(path, &w, &h), ANA_EIO);
    assert_int_equal(ana_png_size("/nonexistent.png", &w, &h), ANA_EIO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stats_hand_computed),
        cmocka_unit_test(stats_stride),
        cmocka_unit_test(stats_all_nan_and_single),
        cmocka_unit_test(bins_rule),
        cmocka_unit_test(bins_edges_nice_and_covering),
        cmocka_unit_test(hist_counts_skip_nan),
        cmocka_unit_test_setup_teardown(file_statistics, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(rewrite_replaces_analysis, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(every_figure, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(missing_axis_skips_figures, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(no_aging_skips_guardband, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(bad_files, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(wrong_shape_is_corrupt, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(bad_file_writes_nothing, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(png_checker_rejects, setup_dir, teardown_dir),
        cmocka_unit_test(group_identical_distributions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
