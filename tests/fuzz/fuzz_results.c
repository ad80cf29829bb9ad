/* libFuzzer target: the results reader of `rfdse analyze` (issue 20 item 8).
 *
 * Structure-aware: the input's bytes choose the axes (zero-length ones too), which
 * datasets exist, every value (NaN, infinities, negatives), names (empty, duplicate,
 * control characters), done flags and the trace's chip indices; the file is written in
 * the documented layout (tests/analysis/synth.c) and read by ana_results_load, then
 * summarised and printed as `rfdse analyze` does.  Raw byte mutation of HDF5 files would
 * mostly fuzz the HDF5 library (not instrumented, and not ours).  A refused file must
 * give one line. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "ana.h"
#include "synth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct bytes {
    const uint8_t *p;
    size_t n;
} bytes;

static unsigned take(bytes *b)
{
    if (!b->n)
        return 0;
    b->n--;
    return *b->p++;
}

/* Mostly ordinary numbers, sometimes the values that break statistics. */
static double number(bytes *b)
{
    static const double odd[] = { NAN, INFINITY, -INFINITY, 0.0, -1.0, 1e308, -1e-308, 1.0 };
    unsigned k = take(b);
    if (k < 32)
        return odd[k % 8];
    return (double)(k - 32) / 64.0 + (double)take(b) / 65536.0;
}

static double *numbers(bytes *b, size_t n)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        v[i] = number(b);
    return v;
}

/* Names of up to 3 characters from a small alphabet (with a control character and a
 * quote), so duplicates and oddities are common. */
static void name(bytes *b, char *out)
{
    static const char alphabet[] = "ab_\n\"%0";
    int len = (int)(take(b) % 4);
    for (int i = 0; i < len; i++)
        out[i] = alphabet[take(b) % (sizeof alphabet - 1)];
    out[len] = '\0';
}

typedef struct owned {
    char tech_buf[8][4], bench_buf[8][4];
    const char *tech[8], *bench[8];
    double *metric[ANA_N_METRICS], *year, *sm_frequency, *delay, *utilisation;
    uint8_t *done, *slow;
    int trace_chip[4];
} owned;

static void decode_axes(bytes *b, synth_data *d, owned *o)
{
    d->n_chip = (int)(take(b) % 6);
    d->n_tech = (int)(take(b) % 5);
    d->n_bench = (int)(take(b) % 4);
    d->n_year = (int)(take(b) % 4);
    d->n_sm = (int)(take(b) % 3);
    for (int i = 0; i < d->n_tech; i++)
        name(b, o->tech_buf[i]), o->tech[i] = o->tech_buf[i];
    for (int i = 0; i < d->n_bench; i++)
        name(b, o->bench_buf[i]), o->bench[i] = o->bench_buf[i];
    d->tech = o->tech;
    unsigned present = take(b) | take(b) << 8;
    d->bench = present & 1 ? o->bench : NULL;
    d->year = present & 2 ? (o->year = numbers(b, (size_t)d->n_year)) : NULL;
    d->sigma_ratio = present & 4 ? number(b) : NAN;
    size_t cells = (size_t)d->n_chip * (size_t)d->n_tech;
    if (present & 8) {
        o->done = malloc(cells ? cells : 1);
        for (size_t i = 0; i < cells; i++)
            o->done[i] = (uint8_t)(take(b) & 1);
        d->done = o->done;
    }
    d->sm_frequency = present & 16 ? (o->sm_frequency = numbers(b, (size_t)d->n_chip * d->n_sm))
                                   : NULL;
    for (int m = 0; m < ANA_N_METRICS; m++)
        if (present & (32u << (m % 11))) {
            size_t axis = (size_t)(ana_metric_axis(m) == ANA_AXIS_YEAR ? d->n_year : d->n_bench);
            d->metric[m] = o->metric[m] = numbers(b, cells * axis);
        }
}

static void decode_trace(bytes *b, synth_data *d, owned *o)
{
    d->n_trace = (int)(take(b) % 3);
    d->n_sub_bank = (int)(take(b) % 3) + 1;
    if (!d->n_trace)
        return;
    for (int i = 0; i < d->n_trace; i++)
        o->trace_chip[i] = (int)take(b) - 2; /* negative and out-of-range chips too */
    size_t nd = (size_t)d->n_trace * d->n_tech * d->n_year * d->n_sub_bank;
    o->delay = numbers(b, nd);
    o->slow = calloc(nd ? nd : 1, 1);
    o->utilisation = numbers(b, nd * (size_t)d->n_bench);
    d->trace_chip = o->trace_chip;
    d->delay = o->delay;
    d->slow = o->slow;
    d->utilisation = o->utilisation;
}

static void release(owned *o)
{
    for (int m = 0; m < ANA_N_METRICS; m++)
        free(o->metric[m]);
    free(o->year);
    free(o->sm_frequency);
    free(o->delay);
    free(o->utilisation);
    free(o->done);
    free(o->slow);
}

static void read_back(const char *path)
{
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    ana_results *r = NULL;
    int rc = ana_results_load(path, &r, err);
    fclose(err);
    if (rc && (len == 0 || memchr(msg, '\n', len - 1) || msg[len - 1] != '\n')) {
        fprintf(stderr, "fuzz_results: a refusal that is not one line: [%s]\n", msg);
        abort();
    }
    ana_summary *s = NULL;
    if (!rc && ana_summary_compute(r, &s) == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            ana_table_print(null, r, s);
            fclose(null);
        }
        ana_summary_free(s);
    }
    ana_results_free(r);
    free(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes b = { data, size };
    synth_data d;
    owned o;
    memset(&d, 0, sizeof d);
    memset(&o, 0, sizeof o);
    decode_axes(&b, &d, &o);
    decode_trace(&b, &d, &o);
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_results.%ld.h5", (long)getpid());
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (synth_write(path, &d) == 0)
        read_back(path);
    unlink(path);
    release(&o);
    return 0;
}
