/* Reading a results file (docs/results-format.md) into memory. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ana_internal.h"

/* One error line and the code to return. */
static int fail(FILE *err, const char *path, int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(err, ANA__PREFIX "%s: ", path);
    va_start(ap, fmt);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fputc('\n', err);
    return code;
}

int ana_results_axis_len(const ana_results *r, ana_metric m)
{
    return ana_metric_axis(m) == ANA_AXIS_YEAR ? r->n_year : r->n_bench;
}

int ana_results_perf_is_lifetime(const ana_results *r)
{
    return r->n_year > 1 && r->metric[ANA_M_performance_t0] != NULL;
}

void ana_results_perf_label(const ana_results *r, char *buf, size_t n)
{
    if (ana_results_perf_is_lifetime(r))
        snprintf(buf, n, "lifetime performance (IPC x frequency after %g years of NBTI aging)",
                 r->year[r->n_year - 1]);
    else
        snprintf(buf, n, "performance at time zero (IPC x frequency)");
}

void ana_results_free(ana_results *r)
{
    if (!r)
        return;
    free(r->chip);
    free(r->tech);
    free(r->colour);
    free(r->bench);
    free(r->year);
    for (int m = 0; m < ANA_N_METRICS; m++)
        free(r->metric[m]);
    if (r->trace) {
        free(r->trace->chip);
        free(r->trace->delay);
        free(r->trace->slow);
        free(r->trace->utilisation);
        free(r->trace);
    }
    free(r);
}

/* Length of a 1-D dataset, -1 when absent, -2 when not 1-D. */
static long axis_len(hid_t f, const char *path)
{
    int rank;
    hsize_t d[8];
    if (!ana_h5_exists(f, path))
        return -1;
    if (ana_h5_shape(f, path, &rank, d) || rank != 1)
        return -2;
    return (long)d[0];
}

static int load_axes(hid_t f, ana_results *r, FILE *err)
{
    const char *chip = ana_dim_path(ANA_DIM_chip), *tech = ana_dim_path(ANA_DIM_technique);
    const char *bench = ana_dim_path(ANA_DIM_benchmark), *year = ana_dim_path(ANA_DIM_year);
    long nc = axis_len(f, chip), nt = axis_len(f, tech);
    long nb = axis_len(f, bench), ny = axis_len(f, year);
    if (nc < 0 || nt < 0)
        return fail(err, r->path, ANA_ENOTRFDSE,
                    "no /axes/chip or /axes/technique: not an rfdse results file");
    if (nc == 0 || nt == 0 || nb == -2 || ny == -2 || nb == 0 || ny == 0)
        return fail(err, r->path, ANA_ECORRUPT, "an axis under /axes is empty or not 1-D");
    r->n_chip = (int)nc;
    r->n_tech = (int)nt;
    r->n_bench = nb > 0 ? (int)nb : 0;
    r->n_year = ny > 0 ? (int)ny : 0;
    r->chip = malloc((size_t)nc * sizeof *r->chip);
    r->tech = malloc((size_t)nt * sizeof *r->tech);
    r->bench = nb > 0 ? malloc((size_t)nb * sizeof *r->bench) : NULL;
    r->year = ny > 0 ? malloc((size_t)ny * sizeof *r->year) : NULL;
    if (!r->chip || !r->tech || (nb > 0 && !r->bench) || (ny > 0 && !r->year))
        return fail(err, r->path, ANA_ENOMEM, "out of memory reading the axes");
    if (ana_h5_read_int(f, chip, r->chip) || ana_h5_read_names(f, tech, r->tech, r->n_tech) ||
        (r->bench && ana_h5_read_names(f, bench, r->bench, r->n_bench)) ||
        (r->year && ana_h5_read_double(f, year, r->year)))
        return fail(err, r->path, ANA_ECORRUPT, "cannot read the axes under /axes");
    return ANA_EOK;
}

static int load_metric(hid_t f, ana_results *r, ana_metric m, FILE *err)
{
    char path[128];
    ana__metric_path(m, path, sizeof path);
    int nx = ana_results_axis_len(r, m);
    /* A metric whose axis is missing cannot be interpreted: left out, and the figures
     * that need it say so. */
    if (!ana_h5_exists(f, path) || nx == 0)
        return ANA_EOK;
    long size[ANA_N_DIMS];
    ana__dim_sizes(r, size);
    if (!ana__shape_is(f, path, ana_metric_axis(m) == ANA_AXIS_YEAR ? ANA_SHAPE_CTY : ANA_SHAPE_CTB,
                       size))
        return fail(err, r->path, ANA_ECORRUPT, "%s is not [chip %d][technique %d][%s %d]",
                    path, r->n_chip, r->n_tech,
                    ana_metric_axis(m) == ANA_AXIS_YEAR ? "year" : "benchmark", nx);
    size_t n = (size_t)r->n_chip * (size_t)r->n_tech * (size_t)nx;
    if (!(r->metric[m] = malloc(n * sizeof(double))))
        return fail(err, r->path, ANA_ENOMEM, "out of memory reading %s", path);
    if (ana_h5_read_double(f, path, r->metric[m]))
        return fail(err, r->path, ANA_ECORRUPT, "cannot read %s", path);
    return ANA_EOK;
}

/* Pairs /progress/done marks unfinished hold fill values, not results: read as NaN. */
static int mask_not_done(hid_t f, ana_results *r, FILE *err)
{
    const char *path = ana_dataset_path(ANA_DS_DONE);
    long size[ANA_N_DIMS];
    ana__dim_sizes(r, size);
    if (!ana_h5_exists(f, path))
        return ANA_EOK;
    if (!ana__shape_is(f, path, ana_dataset_shape(ANA_DS_DONE), size))
        return fail(err, r->path, ANA_ECORRUPT, "%s is not [chip][technique]", path);
    size_t n = (size_t)r->n_chip * (size_t)r->n_tech;
    uint8_t *done = malloc(n);
    if (!done)
        return fail(err, r->path, ANA_ENOMEM, "out of memory");
    int rc = ana_h5_read_u8(f, path, done);
    if (rc) {
        free(done);
        return fail(err, r->path, ANA_ECORRUPT, "cannot read /progress/done");
    }
    for (size_t ct = 0; ct < n; ct++) {
        if (done[ct])
            continue;
        r->n_not_done++;
        for (int m = 0; m < ANA_N_METRICS; m++) {
            int nx = ana_results_axis_len(r, m);
            for (int x = 0; r->metric[m] && x < nx; x++)
                r->metric[m][ct * (size_t)nx + (size_t)x] = NAN;
        }
    }
    free(done);
    return ANA_EOK;
}

/* sigma_rand / sigma_sys: the numeric root attribute, else `sigma_ratio = X;` in the
 * resolved sweep text (files written before the attribute existed). */
static double sigma_ratio(hid_t f)
{
    double v;
    if (ana_h5_attr_double(f, "/", "sigma_ratio", &v) == ANA_EOK)
        return v;
    size_t size = 1 << 20;
    char *cfg = malloc(size);
    v = NAN;
    if (cfg && ana_h5_attr_string(f, "/", "sweep_config", cfg, size) == ANA_EOK) {
        const char *p = strstr(cfg, "sigma_ratio");
        if (p && (p = strchr(p, '=')))
            v = strtod(p + 1, NULL);
    }
    free(cfg);
    return v;
}

/* aging.initial_shift from the sweep_config text ("accumulated" or "pv"), so figures can
 * say under which reading of the NBTI law they were made; "" when the file predates the
 * key or has no config. */
static void nbti_law(hid_t f, char *out, size_t n)
{
    size_t size = 1 << 20;
    char *cfg = malloc(size);
    out[0] = '\0';
    if (cfg && ana_h5_attr_string(f, "/", "sweep_config", cfg, size) == ANA_EOK) {
        const char *p = strstr(cfg, "initial_shift");
        if (p && (p = strchr(p, '"'))) {
            size_t len = strcspn(p + 1, "\"");
            snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), p + 1);
        }
    }
    free(cfg);
}

/* aging.duty: the root attribute aging_duty, else `duty = "..."` in the sweep_config
 * text; "" when neither says. */
static void aging_duty(hid_t f, char *out, size_t n)
{
    size_t size = 1 << 20;
    char *cfg;
    if (ana_h5_attr_string(f, "/", "aging_duty", out, n) == ANA_EOK)
        return;
    out[0] = '\0';
    if ((cfg = malloc(size)) && ana_h5_attr_string(f, "/", "sweep_config", cfg, size) == ANA_EOK) {
        const char *p = strstr(cfg, "duty = \"");
        if (p) {
            p += strlen("duty = \"");
            size_t len = strcspn(p, "\"");
            snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), p);
        }
    }
    free(cfg);
}

/* The file's technique_colours ("#rrggbb,..." in axis order), or for a file without
 * them (or with a malformed list) a palette of analysis's own by index, references
 * black and grey.  *colour gets a new array of n (ana_design.c shares this). */
int ana__technique_colours(hid_t f, const ana_name *tech, int n_tech, char (**colour)[8])
{
    static const char *const own[] = { "#0077bb", "#ee7733", "#009988", "#cc3311",
                                       "#aa4499", "#88ccee", "#ddaa33", "#882255",
                                       "#117733", "#ee3377", "#332288", "#999933" };
    size_t n = (size_t)n_tech * 8 + 1;
    char *list = malloc(n + 1);
    char(*c8)[8] = calloc((size_t)n_tech ? (size_t)n_tech : 1, sizeof *c8);
    *colour = c8;
    if (!list || !c8) {
        free(list);
        return ANA_ENOMEM;
    }
    int ok = ana_h5_attr_string(f, "/", "technique_colours", list, n + 1) == ANA_EOK &&
             strlen(list) == n - 2;
    for (int t = 0; ok && t < n_tech; t++) {
        const char *c = list + (size_t)t * 8;
        ok = c[0] == '#' && strspn(c + 1, "0123456789abcdefABCDEF") >= 6 &&
             (c[7] == ',' || c[7] == '\0');
        if (ok)
            snprintf(c8[t], 8, "%.7s", c);
    }
    for (int t = 0, k = 0; !ok && t < n_tech; t++)
        snprintf(c8[t], 8, "%s",
                 !strcmp(tech[t], "ideal")      ? "#000000"
                 : !strcmp(tech[t], "baseline") ? "#777777"
                                                : own[k++ % (sizeof own / sizeof *own)]);
    free(list);
    return ANA_EOK;
}

static int technique_colours(hid_t f, ana_results *r)
{
    return ana__technique_colours(f, r->tech, r->n_tech, &r->colour);
}

int ana__trace_load(hid_t f, ana_results *r, FILE *err);

int ana_results_load(const char *path, ana_results **out, FILE *err)
{
    int rc;
    hid_t f = H5I_INVALID_HID;
    ana_results *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r)
        return fail(err, path, ANA_ENOMEM, "out of memory");
    snprintf(r->path, sizeof r->path, "%s", path);
    if (access(path, R_OK) != 0) {
        rc = fail(err, path, ANA_ENOFILE, "cannot open: %s", strerror(errno));
        goto done;
    }
    if ((f = ana_h5_open(path, 0)) < 0) {
        rc = fail(err, path, ANA_ENOTRFDSE, "not an HDF5 file (or a damaged one)");
        goto done;
    }
    if (ana_h5_attr_string(f, "/", "rfdse_version", r->version, sizeof r->version)) {
        rc = fail(err, path, ANA_ENOTRFDSE,
                  "no rfdse_version attribute: not an rfdse results file");
        goto done;
    }
    if ((rc = load_axes(f, r, err)))
        goto done;
    for (int m = 0; m < ANA_N_METRICS; m++)
        if ((rc = load_metric(f, r, (ana_metric)m, err)))
            goto done;
    if ((rc = mask_not_done(f, r, err)) || (rc = ana__trace_load(f, r, err)))
        goto done;
    r->sigma_ratio = sigma_ratio(f);
    nbti_law(f, r->nbti_law, sizeof r->nbti_law);
    aging_duty(f, r->duty, sizeof r->duty);
    if ((rc = technique_colours(f, r))) {
        rc = fail(err, path, rc, "out of memory");
        goto done;
    }
    *out = r;
    r = NULL;
done:
    if (f >= 0)
        H5Fclose(f);
    ana_results_free(r);
    return rc;
}
