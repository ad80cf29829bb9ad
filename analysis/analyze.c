/* `rfdse analyze`: every file is read before anything is written, so one bad file on the
 * command line leaves all of them untouched. */
#include <stdlib.h>
#include <string.h>

#include <stdbool.h>
#include <unistd.h>

#include "ana_design.h"
#include "ana_checksum.h"
#include "ana_internal.h"

typedef struct input {
    int kind;
    ana_results *res;
    ana_chipmap *map;
    ana_summary *sum;
    char stem[256];
} input;

/* "results/default.h5" -> "default". */
static void stem_of(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    snprintf(buf, size, "%s", base ? base + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
}

/* A results file (with design points or not) whose finished units fail their checksums
 * is refused: its numbers are not the ones written. */
static int check_damage(const char *path, FILE *err)
{
    char msg[1400];
    long bad = ana_results_damaged(path, msg, sizeof msg);
    if (bad > 0) { /* numbers not as they were written */
        fprintf(err, ANA__PREFIX "%s: %s; `rfdse run SWEEP --resume -o %s` recomputes %s\n",
                path, msg, path, bad == 1 ? "it" : "them");
        return ANA_ECORRUPT;
    }
    return ANA_EOK;
}

static int load(input *in, const char *path, FILE *err)
{
    stem_of(path, in->stem, sizeof in->stem);
    in->kind = ana_file_kind(path);
    if (in->kind == ANA_FILE_CHIPMAP)
        return ana_chipmap_load(path, &in->map, err);
    /* Not recognisably either kind: the results loader says precisely why. */
    in->kind = ANA_FILE_RESULTS;
    if (check_damage(path, err))
        return ANA_ECORRUPT;
    int rc = ana_results_load(path, &in->res, err);
    if (!rc)
        rc = ana_summary_compute(in->res, &in->sum);
    if (rc == ANA_ENOMEM)
        fprintf(err, ANA__PREFIX "%s: out of memory\n", path);
    return rc;
}

static void report(FILE *out, const char *dir, const char *prefix, ana_figure f, int skipped)
{
    char path[2048];
    if (skipped)
        return;
    ana__figure_path(dir, prefix, f, path, sizeof path);
    fprintf(out, "  figure: %s  (%s)\n", path, ana_figure_get(f)->doc);
}

static int figures(const input *in, const char *dir, ana_mean mean, FILE *out, FILE *err)
{
    char prefix[300];
    snprintf(prefix, sizeof prefix, "%s_", in->stem); /* DIR/STEM_NAME: as the CSV files */
    if (in->kind == ANA_FILE_CHIPMAP) {
        int rc = ana_fig_vth_map(dir, prefix, in->map, err);
        report(out, dir, prefix, ANA_FIG_vth_map, rc);
        return rc;
    }
    const ana_results *r = in->res;
    const ana_summary *s = in->sum;
    int rc = ANA_EOK, sk;
#define FIG(call, f)                                                                      \
    sk = 0;                                                                               \
    if (!rc && !(rc = (call)))                                                            \
        report(out, dir, prefix, f, sk);
    FIG(ana_fig_freq_dist(dir, prefix, r, s, err, &sk), ANA_FIG_freq_dist)
    FIG(ana_fig_perf_dist(dir, prefix, r, s, err, &sk), ANA_FIG_perf_dist)
    FIG(ana_fig_overview(dir, prefix, r, s, err, &sk), ANA_FIG_overview)
    FIG(ana_fig_ipc(dir, prefix, r, mean, s, err, &sk), ANA_FIG_ipc)
    FIG(ana_fig_guardband(dir, prefix, r, mean, s, err, &sk), ANA_FIG_guardband)
    FIG(ana_fig_energy(dir, prefix, r, mean, s, err, &sk), ANA_FIG_energy)
    FIG(ana_fig_nbti_trace(dir, prefix, r, err, &sk), ANA_FIG_nbti_trace)
#undef FIG
    return rc;
}

static int sensitivity(const input *in, int n, const char *dir, FILE *out, FILE *err)
{
    const ana_results *res[64];
    const ana_summary *sum[64];
    int k = 0;
    for (int i = 0; i < n && k < 64; i++)
        if (in[i].kind == ANA_FILE_RESULTS) {
            res[k] = in[i].res;
            sum[k++] = in[i].sum;
        }
    if (k < 2)
        return ANA_EOK; /* one results file: nothing to compare, nothing to say */
    int sk = 0, rc = ana_fig_sensitivity(dir, res, sum, k, err, &sk);
    if (!rc)
        report(out, dir, "", ANA_FIG_sensitivity, sk);
    return rc;
}

/* A results file analyze cannot replace: the file or its directory is not writable
 * (access() also sees a read-only mount, for root too). */
static bool read_only(const char *path)
{
    char dir[OUT_PATH_MAX + 1];
    out_dir_of(path, dir, sizeof dir);
    return access(path, W_OK) != 0 || access(dir, W_OK) != 0;
}

int ana_analyze(const char *const *paths, int n, const ana_options *opt)
{
    int rc = ANA_EOK, first = 1;
    input *in = calloc((size_t)(n > 0 ? n : 1), sizeof *in);
    if (!in)
        return ANA_ENOMEM;
    /* Files with design points (a sweep with axes) have their own analysis (design.c). */
    bool *design = calloc((size_t)(n > 0 ? n : 1), sizeof *design);
    if (!design) {
        free(in);
        return ANA_ENOMEM;
    }
    for (int i = 0; i < n && !rc; i++)
        rc = !(design[i] = ana_design_is(paths[i])) ? load(&in[i], paths[i], opt->err)
                                                    : check_damage(paths[i], opt->err);
    for (int i = 0; i < n && !rc; i++) {
        if (design[i]) {
            stem_of(paths[i], in[i].stem, sizeof in[i].stem);
            if (!first)
                fputc('\n', opt->out);
            first = 0;
            rc = ana_design_analyze(paths[i], in[i].stem, opt);
            continue;
        }
        if (in[i].kind != ANA_FILE_RESULTS)
            continue;
        if (read_only(paths[i]) && (opt->csv_dir || opt->figures_dir))
            fprintf(opt->err, ANA__PREFIX "%s is read-only: /analysis not written (the %s "
                    "are)\n", paths[i], opt->csv_dir && opt->figures_dir ? "CSV and figures"
                                         : opt->csv_dir ? "CSV files" : "figures");
        else
            rc = ana_summary_write(paths[i], in[i].res, in[i].sum, opt->tool_version, opt->err);
        if (rc)
            break;
        if (!first)
            fputc('\n', opt->out);
        first = 0;
        ana_table_print(opt->out, in[i].res, in[i].sum);
        if (opt->csv_dir)
            rc = ana_csv_write(opt->csv_dir, in[i].stem, in[i].res, in[i].sum,
                               opt->csv_histograms, opt->err);
    }
    for (int i = 0; i < n && !rc && opt->figures_dir; i++)
        if (!design[i])
            rc = figures(&in[i], opt->figures_dir, opt->mean, opt->out, opt->err);
    if (!rc && opt->figures_dir)
        rc = sensitivity(in, n, opt->figures_dir, opt->out, opt->err);
    for (int i = 0; i < n; i++) {
        ana_results_free(in[i].res);
        ana_summary_free(in[i].sum);
        ana_chipmap_free(in[i].map);
    }
    free(in);
    free(design);
    return rc;
}
