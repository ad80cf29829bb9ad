/* Synthetic files for the analysis tests.  Strings are fixed-length 32-byte null-padded,
 * as the sweep driver writes them. */
#include "synth.h"

#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { STR = 32 };

static int attr_str(hid_t obj, const char *name, const char *v)
{
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(t, strlen(v) ? strlen(v) : 1);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 || H5Awrite(a, t, v) < 0 ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    return rc;
}

static int attr_num(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *v)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 || H5Awrite(a, mtype, v) < 0 ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    return rc;
}

static int dset(hid_t f, const char *path, hid_t ftype, hid_t mtype, int rank,
                const hsize_t *dims, const void *buf, const char *desc, const char *nattr,
                const char *nval)
{
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t d = H5Dcreate2(f, path, ftype, sp, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 || H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0 ||
             attr_str(d, "description", desc) || attr_str(d, nattr, nval) ? -1 : 0;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(sp);
    H5Pclose(lcpl);
    return rc;
}

static int names(hid_t f, const char *path, const char *const *v, int n)
{
    char *buf = calloc((size_t)n, STR);
    for (int i = 0; i < n; i++)
        strncpy(buf + (size_t)i * STR, v[i], STR);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, STR);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    hsize_t dim = (hsize_t)n;
    int rc = dset(f, path, t, t, 1, &dim, buf, "names", "units", "name");
    H5Tclose(t);
    free(buf);
    return rc;
}

static const char *const metric_names[] = {
#define M(name, ...) #name,
    ANA_METRIC_MAP(M)
#undef M
};

int synth_write(const char *path, const synth_data *d)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return -1;
    int rc = 0, one = 1;
    uint64_t seed = 42;
    rc |= attr_str(f, "rfdse_version", "0.1.0");
    rc |= attr_str(f, "git_revision", "synthetic");
    rc |= attr_str(f, "created", "2026-01-01T00:00:00Z");
    rc |= attr_num(f, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &seed);
    rc |= attr_num(f, "n_chips", H5T_STD_I32LE, H5T_NATIVE_INT, &d->n_chip);
    rc |= attr_str(f, "sweep_config", "name = \"synthetic\";\n");
    if (!isnan(d->sigma_ratio))
        rc |= attr_num(f, "sigma_ratio", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &d->sigma_ratio);
    int *chips = malloc((size_t)d->n_chip * sizeof *chips);
    for (int i = 0; i < d->n_chip; i++)
        chips[i] = i;
    hsize_t n = (hsize_t)d->n_chip;
    rc |= dset(f, "/axes/chip", H5T_STD_I32LE, H5T_NATIVE_INT, 1, &n, chips, "chip", "units",
               "chip index");
    free(chips);
    rc |= names(f, "/axes/technique", d->tech, d->n_tech);
    if (d->bench)
        rc |= names(f, "/axes/benchmark", d->bench, d->n_bench);
    n = (hsize_t)d->n_year;
    if (d->year)
        rc |= dset(f, "/axes/year", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &n, d->year, "years",
                   "units", "years");
    for (int m = 0; m < ANA_N_METRICS; m++) {
        if (!d->metric[m])
            continue;
        char p[64];
        snprintf(p, sizeof p, "/results/%s", metric_names[m]);
        hsize_t dims[3] = { (hsize_t)d->n_chip, (hsize_t)d->n_tech,
                            (hsize_t)(ana_metric_axis(m) == ANA_AXIS_YEAR ? d->n_year : d->n_bench) };
        rc |= dset(f, p, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, dims, d->metric[m], "metric",
                   "normalised_to", "something");
    }
    if (d->done) {
        hsize_t dims[2] = { (hsize_t)d->n_chip, (hsize_t)d->n_tech };
        rc |= dset(f, "/progress/done", H5T_STD_U8LE, H5T_NATIVE_UINT8, 2, dims, d->done, "done",
                   "units", "flag");
    }
    if (d->sm_frequency) {
        hsize_t dims[2] = { (hsize_t)d->n_chip, (hsize_t)d->n_sm };
        rc |= dset(f, "/chips/sm_frequency", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims,
                   d->sm_frequency, "sm", "normalised_to", "no-PV SM");
    }
    if (d->n_trace) {
        hsize_t nt = (hsize_t)d->n_trace;
        hsize_t dd[4] = { nt, (hsize_t)d->n_tech, (hsize_t)d->n_year, (hsize_t)d->n_sub_bank };
        hsize_t du[5] = { nt, (hsize_t)d->n_tech, (hsize_t)d->n_bench, (hsize_t)d->n_year,
                          (hsize_t)d->n_sub_bank };
        rc |= dset(f, "/chips/trace/chip", H5T_STD_I32LE, H5T_NATIVE_INT, 1, &nt, d->trace_chip,
                   "traced chips", "units", "chip index");
        rc |= dset(f, "/chips/trace/sub_bank_delay", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 4, dd,
                   d->delay, "delay", "normalised_to", "nominal sub-bank");
        rc |= dset(f, "/chips/trace/sub_bank_slow", H5T_STD_U8LE, H5T_NATIVE_UINT8, 4, dd,
                   d->slow, "slow", "units", "flag");
        rc |= dset(f, "/chips/trace/sub_bank_utilisation", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 5,
                   du, d->utilisation, "utilisation", "units", "fraction of accesses");
    }
    (void)one;
    return H5Fclose(f) < 0 || rc ? -1 : 0;
}

/* ---- plausible data ------------------------------------------------------------------ */

typedef struct rng {
    uint64_t s;
} rng;

static double uniform(rng *g)
{
    /* splitmix64: good enough for test data, and the state is explicit. */
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return ((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

static double gauss(rng *g)
{
    double u = uniform(g), v = uniform(g);
    return sqrt(-2.0 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}

static const char *const techs[] = { "ideal", "baseline", "vl_rf", "vl_rv", "vl_sb", "rf_bro",
                                     "fba_rm", "two_level", "fwas", "hybrid", "pv_opt",
                                     "nbti_opt", "pv_opt_nbti_opt" };
static const char *const benches[] = { "backprop", "binomialoptions", "blackscholes",
                                       "histogram64", "hotspot", "lavamd", "matrixmul", "nn",
                                       "nw", "pathfinder", "pns", "scanlargearray", "srad",
                                       "stencil" };
static const double years[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
/* Per technique: mean frequency, its spread, mean IPC loss, NBTI guardband vs baseline. */
static const double t_freq[] = { 1.0, 0.78, 0.83, 0.86, 0.90, 0.90, 0.90, 0.90,
                                 0.90, 0.90, 0.90, 0.90, 0.90 };
static const double t_ipc[] = { 1.0, 1.0, 0.90, 0.92, 0.94, 0.955, 0.965, 0.968,
                                0.975, 0.97, 0.985, 0.955, 0.985 };
static const double t_gb[] = { NAN, 1.0, 0.95, 0.93, 0.9, 0.88, 0.88, 0.88,
                               0.88, 0.88, 0.88, 0.55, 0.5 };

struct synth_storage {
    double *m[ANA_N_METRICS];
    double *delay, *util, *sm;
    uint8_t *slow, *done;
    int trace_chip;
};

void synth_free(synth_storage *s)
{
    if (!s)
        return;
    for (int m = 0; m < ANA_N_METRICS; m++)
        free(s->m[m]);
    free(s->delay);
    free(s->util);
    free(s->slow);
    free(s->sm);
    free(s->done);
    free(s);
}

static void fill_trace(synth_storage *st, rng *g, int nt, int nb, int ny, int ns)
{
    st->delay = malloc(sizeof(double) * (size_t)(nt * ny * ns));
    st->slow = malloc((size_t)(nt * ny * ns));
    st->util = malloc(sizeof(double) * (size_t)(nt * nb * ny * ns));
    double d0[64], u[64];
    for (int s = 0; s < ns; s++)
        d0[s] = 1.05 + 0.05 * gauss(g);
    for (int t = 0; t < nt; t++) {
        int nbti = strstr(techs[t], "nbti") != NULL;
        double usum = 0;
        for (int s = 0; s < ns; s++)
            usum += u[s] = nbti ? 1.0 + 0.1 * uniform(g) : exp(-0.12 * s);
        for (int s = 0; s < ns; s++)
            u[s] /= usum;
        for (int y = 0; y < ny; y++) {
            double sorted[64];
            for (int s = 0; s < ns; s++) {
                double d = d0[s] + 0.9 * u[s] * pow(years[y], 0.4) * (t > 0);
                st->delay[(t * ny + y) * ns + s] = d;
                sorted[s] = d;
            }
            /* The slowest 30 % are slow. */
            for (int i = 0; i < ns; i++)
                for (int j = i + 1; j < ns; j++)
                    if (sorted[j] < sorted[i]) {
                        double x = sorted[i];
                        sorted[i] = sorted[j];
                        sorted[j] = x;
                    }
            double cut = sorted[(int)(0.7 * ns)];
            for (int s = 0; s < ns; s++)
                st->slow[(t * ny + y) * ns + s] = st->delay[(t * ny + y) * ns + s] >= cut;
            for (int b = 0; b < nb; b++)
                for (int s = 0; s < ns; s++)
                    st->util[((t * nb + b) * ny + y) * ns + s] = u[s] * (1.0 + 0.05 * b / nb);
        }
    }
}

synth_storage *synth_realistic(synth_data *d, int n_chip, double sigma_ratio, uint64_t seed)
{
    synth_storage *st = calloc(1, sizeof *st);
    rng g = { seed };
    int nt = 13, nb = 14, ny = 8, ns = 32;
    memset(d, 0, sizeof *d);
    *d = (synth_data){ .n_chip = n_chip, .n_tech = nt, .n_bench = nb, .n_year = ny,
                       .tech = techs, .bench = benches, .year = years,
                       .sigma_ratio = sigma_ratio };
    for (int m = 0; m < ANA_N_METRICS; m++)
        st->m[m] = malloc(sizeof(double) * (size_t)(n_chip * nt *
                          (ana_metric_axis(m) == ANA_AXIS_YEAR ? ny : nb)));
    /* More random variation (larger ratio) averages out: narrower, higher. */
    double spread = 0.035 / (1.0 + 0.5 * log2(sigma_ratio + 1.0));
    for (int c = 0; c < n_chip; c++) {
        double chip = gauss(&g);
        for (int t = 0; t < nt; t++) {
            double f0 = t == 0 ? 1.0 : t_freq[t] + spread * (0.7 * chip + 0.7 * gauss(&g)) -
                                       0.01 * log2(sigma_ratio);
            for (int y = 0; y < ny; y++) {
                double aged = t == 0 ? 1.0 : f0 * (1.0 - 0.03 * t_gb[t] * pow(years[y] / 7.0, 0.3));
                st->m[ANA_M_frequency][(c * nt + t) * ny + y] = aged;
                st->m[ANA_M_frequency_min][(c * nt + t) * ny + y] = t == 0 ? 1.0 : aged - 0.03;
            }
            for (int b = 0; b < nb; b++) {
                double sens = 0.4 + 0.6 * (double)((b * 7) % nb) / nb;
                double ipc = t <= 1 ? 1.0 : 1.0 - (1.0 - t_ipc[t]) * 2.0 * sens + 0.004 * gauss(&g);
                size_t i = (size_t)(c * nt + t) * (size_t)nb + (size_t)b;
                st->m[ANA_M_ipc][i] = ipc;
                st->m[ANA_M_performance_t0][i] = ipc * f0; /* lifetime: end of the schedule */
                st->m[ANA_M_performance][i] =
                    ipc * (t == 0 ? 1.0 : f0 * (1.0 - 0.03 * t_gb[t]));
                double gb = t_gb[t] * (1.0 + 0.05 * gauss(&g)) * (0.9 + 0.2 * sens);
                st->m[ANA_M_guardband][i] = t == 0 ? NAN : t == 1 ? 1.0 : gb;
                st->m[ANA_M_guardband_raw][i] = t == 0 ? NAN : 0.03 * gb;
            }
        }
    }
    for (int m = 0; m < ANA_N_METRICS; m++)
        d->metric[m] = st->m[m];
    size_t nct = (size_t)(n_chip > 0 ? n_chip : 0) * (size_t)nt;
    st->done = malloc(nct);
    memset(st->done, 1, nct);
    d->done = st->done;
    d->n_sm = 15;
    st->sm = malloc(sizeof(double) * (size_t)(n_chip * d->n_sm));
    for (int i = 0; i < n_chip * d->n_sm; i++)
        st->sm[i] = 0.8 + 0.03 * gauss(&g);
    d->sm_frequency = st->sm;
    fill_trace(st, &g, nt, nb, ny, ns);
    d->n_trace = 1;
    d->n_sub_bank = ns;
    d->trace_chip = &st->trace_chip;
    d->delay = st->delay;
    d->slow = st->slow;
    d->utilisation = st->util;
    return st;
}

int synth_chipmap(const char *path, int rows, int cols, uint64_t seed)
{
    rng g = { seed };
    double *v = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
    /* A smooth systematic part plus white noise: what a VARIUS map looks like. */
    double a = uniform(&g) * 6.28, b = uniform(&g) * 6.28;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            v[(size_t)r * cols + c] = 0.3 + 0.02 * sin(a + 3.0 * r / rows) * cos(b + 4.0 * c / cols) +
                                      0.012 * gauss(&g);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims[2] = { (hsize_t)rows, (hsize_t)cols };
    long chip = 3, sm = 0;
    int rc = f < 0 || dset(f, "/map/vth", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, v,
                           "threshold voltage per cell", "units", "V") ||
             dset(f, "/map/leff", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, v,
                  "effective channel length per cell", "units", "nm") ||
             attr_num(f, "chip", H5T_STD_I64LE, H5T_NATIVE_LONG, &chip) ||
             attr_num(f, "sm", H5T_STD_I64LE, H5T_NATIVE_LONG, &sm) ||
             attr_num(f, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &seed) ? -1 : 0;
    if (f >= 0 && H5Fclose(f) < 0)
        rc = -1;
    free(v);
    return rc;
}

int synth_foreign(const char *path)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    double x[3] = { 1, 2, 3 };
    hsize_t n = 3;
    int rc = f < 0 || dset(f, "/data", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &n, x, "x", "units",
                           "none") ? -1 : 0;
    if (f >= 0 && H5Fclose(f) < 0)
        rc = -1;
    return rc;
}
