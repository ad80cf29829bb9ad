/* Design points of a sweep with axes: the grid's mixed-radix order, the Sobol
 * sequence, setting a knob in a copy of the sweep, and writing the axes back. */
#include <gsl/gsl_qrng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dse_axes.h"
#include "dse_quote.h"
#include "ana_metrics.h"
#include "dse_sweep.h"
#include "sweep_schema.h"

/* The key of axis a; a technique key is copied into *tk (key indices are stable). */
static const dse__key *axis_key(const dse_axis *a, dse__keyset *tk)
{
    switch (a->kind) {
    case DSE_KNOB_GLOBAL: return &dse__sections[a->section].keys[a->key];
    case DSE_KNOB_TECHNIQUE: dse__technique_keys(tk); return &tk->key[a->key];
    default: return &dse__workload_keys[a->key];
    }
}

bool dse_axes_is_name(const dse_axis *a)
{
    dse__keyset tk;
    dse__key_type t = axis_key(a, &tk)->type;
    return t == DSE__ENUM || t == DSE__BOOL;
}

int dse_axes_points(const dse_sweep *s)
{
    return s->axes.design == DSE_DESIGN_NONE ? 0 : s->axes.n_points;
}

static bool is_integer(const dse__key *k) { return k->type == DSE__INT || k->type == DSE__INT64; }

/* Names of an enumeration or a switch. */
static int n_names(const dse__key *k)
{
    int n = 0;
    while (k->type == DSE__ENUM ? k->enum_names[n] != NULL : n < 2)
        n++;
    return n;
}

/* Sobol coordinate u in [0, 1) -> the knob's value. */
double dse_axes_from_unit(const dse_axis *a, double u)
{
    dse__keyset tk;
    const dse__key *k = axis_key(a, &tk);
    if (a->n_values) { /* names, or a list to draw from: uniform over the list */
        int i = (int)floor(u * a->n_values);
        return a->values[i < a->n_values ? i : a->n_values - 1];
    }
    if (k->type == DSE__ENUM || k->type == DSE__BOOL) { /* every name */
        int n = n_names(k);
        int i = (int)floor(u * n);
        return i < n ? i : n - 1;
    }
    if (is_integer(k)) { /* uniform over the integers low..high (log: over their logs) */
        double v = a->log ? exp(log(a->low) + u * (log(a->high) - log(a->low)))
                          : a->low - 0.5 + u * (a->high - a->low + 1.0);
        v = floor(v + 0.5);
        return fmin(fmax(v, a->low), a->high);
    }
    if (a->log)
        return exp(log(a->low) + u * (log(a->high) - log(a->low)));
    return a->low + u * (a->high - a->low);
}

/* The middle of the value's share of [0, 1] for lists and names; else the inverse map. */
double dse_axes_to_unit(const dse_axis *a, double v)
{
    dse__keyset tk;
    const dse__key *k = axis_key(a, &tk);
    if (a->n_values) {
        int i = 0;
        while (i + 1 < a->n_values && a->values[i] != v)
            i++;
        return (i + 0.5) / a->n_values;
    }
    if (k->type == DSE__ENUM || k->type == DSE__BOOL)
        return (v + 0.5) / n_names(k);
    if (a->high == a->low)
        return 0.5;
    if (is_integer(k) && !a->log)
        return fmin(1.0, fmax(0.0, (v - a->low + 0.5) / (a->high - a->low + 1.0)));
    if (a->log)
        return (log(v) - log(a->low)) / (log(a->high) - log(a->low));
    return (v - a->low) / (a->high - a->low);
}

void dse_axes_objective_text(const dse_objective *o, char *buf, size_t n)
{
    static const char *const stat[] = { "mean", "p5", "p50", "p95" };
    static const char *const metric[] = {
#define AX_METRIC_NAME(name, ...) #name,
        RFDSE_UNIT_METRICS(AX_METRIC_NAME)
#undef AX_METRIC_NAME
    };
    snprintf(buf, n, "%s %s (%s)", stat[o->stat], metric[o->metric], o->maximise ? "max" : "min");
}

void dse_axes_point_values(const dse_sweep *s, int k, double *v)
{
    const dse_axes *ax = &s->axes;
    if (ax->design == DSE_DESIGN_GRID) { /* the last knob varies fastest */
        int rest = k;
        for (int j = ax->n_knobs - 1; j >= 0; j--) {
            const dse_axis *a = &ax->knobs[j];
            v[j] = a->values[rest % a->n_values];
            rest /= a->n_values;
        }
        return;
    }
    if (ax->design == DSE_DESIGN_NSGA2 && k >= ax->population) {
        for (int j = 0; j < ax->n_knobs; j++)
            v[j] = NAN; /* from the search's results (dse/run/nsga2.c) */
        return;
    }
    /* Sobol: GSL's sequence from its start, point k is the (k+1)-th draw.  Regenerated
     * here (k draws of at most 16 dimensions: microseconds) so nothing is stored. */
    gsl_qrng *q = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)ax->n_knobs);
    double u[DSE_AXES_MAX_KNOBS] = { 0 };
    for (int i = 0; q && i <= k; i++)
        gsl_qrng_get(q, u);
    gsl_qrng_free(q);
    for (int j = 0; j < ax->n_knobs; j++)
        v[j] = dse_axes_from_unit(&ax->knobs[j], u[j]);
}

static void set_field(const dse__key *k, void *base, double v)
{
    char *f = (char *)base + k->offset;
    switch (k->type) {
    case DSE__INT:
    case DSE__ENUM: *(int *)f = (int)llround(v); break;
    case DSE__INT64: *(int64_t *)f = (int64_t)llround(v); break;
    case DSE__DOUBLE: *(double *)f = v; break;
    case DSE__BOOL: *(bool *)f = v != 0.0; break;
    default: break; /* lists and strings are never axes (axes_load.c) */
    }
}

static void apply(dse_sweep *p, const dse_axis *a, double v)
{
    dse__keyset tk;
    const dse__key *k = axis_key(a, &tk);
    if (a->kind == DSE_KNOB_GLOBAL) {
        set_field(k, (char *)p + dse__sections[a->section].offset, v);
    } else if (a->kind == DSE_KNOB_TECHNIQUE) {
        for (int t = 0; t < p->n_techniques; t++)
            if (!a->target[0] || !strcmp(a->target, p->techniques[t].name))
                set_field(k, &p->techniques[t], v);
    } else {
        for (int w = 0; w < p->n_workloads; w++)
            if (!a->target[0] || !strcmp(a->target, p->workloads[w].name))
                set_field(k, &p->workloads[w], v);
    }
}

dse_sweep *dse_axes_values_sweep(const dse_sweep *s, const double *v)
{
    dse_sweep *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    memcpy(p, s, sizeof *p);
    memset(&p->axes, 0, sizeof p->axes);
    for (int j = 0; j < s->axes.n_knobs; j++)
        apply(p, &s->axes.knobs[j], v[j]);
    return p;
}

dse_sweep *dse_axes_point_sweep(const dse_sweep *s, int k)
{
    double v[DSE_AXES_MAX_KNOBS];
    dse_axes_point_values(s, k, v);
    return dse_axes_values_sweep(s, v);
}

/* The shortest %.15g..%.17g that reads back to v, with a '.' (libconfig's float). */
static void double_text(double v, char *buf, size_t n)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (!strpbrk(buf, ".eEni"))
        strncat(buf, ".0", n - strlen(buf) - 1);
}

void dse_axes_value_text(const dse_axis *a, double v, char *buf, size_t n)
{
    dse__keyset tk;
    const dse__key *k = axis_key(a, &tk);
    if (isnan(v)) { /* a search's point not drawn yet */
        snprintf(buf, n, "%s", dse_axes_is_name(a) ? "" : "nan");
        return;
    }
    switch (k->type) {
    case DSE__ENUM: snprintf(buf, n, "%s", k->enum_names[(int)v]); break;
    case DSE__BOOL: snprintf(buf, n, "%s", v != 0.0 ? "true" : "false"); break;
    case DSE__INT: snprintf(buf, n, "%d", (int)v); break;
    case DSE__INT64: snprintf(buf, n, "%lldL", (long long)v); break;
    default: double_text(v, buf, n); break;
    }
}

static void write_value(FILE *out, const dse_axis *a, double v)
{
    dse__keyset tk;
    char buf[64];
    dse_axes_value_text(a, v, buf, sizeof buf);
    if (axis_key(a, &tk)->type == DSE__ENUM)
        dse__fput_dquoted(out, buf);
    else
        fputs(buf, out);
}

void dse_axes_write(const dse_sweep *s, FILE *out)
{
    const dse_axes *ax = &s->axes;
    if (ax->design == DSE_DESIGN_NONE)
        return;
    fprintf(out, "\n# design points over knobs (docs/sweep-format.md, \"Axes over knobs\")\n"
                 "axes = {\n  design = \"%s\";\n",
            ax->design == DSE_DESIGN_GRID ? "grid" : ax->design == DSE_DESIGN_SOBOL ? "sobol"
                                                                             : "nsga2");
    if (ax->design == DSE_DESIGN_SOBOL)
        fprintf(out, "  points = %d;\n", ax->n_points);
    if (ax->design == DSE_DESIGN_NSGA2) {
        static const char *const stat[] = { "mean", "p5", "p50", "p95" };
        static const char *const metric[] = {
#define AX_METRIC_NAME2(name, ...) #name,
            RFDSE_UNIT_METRICS(AX_METRIC_NAME2)
#undef AX_METRIC_NAME2
        };
        fprintf(out, "  population = %d;\n  generations = %d;\n  technique = ", ax->population,
                ax->generations);
        dse__fput_dquoted(out, s->techniques[ax->technique].name);
        fputs(";\n  objectives = (\n", out);
        for (int i = 0; i < ax->n_objectives; i++) {
            const dse_objective *o = &ax->objectives[i];
            fprintf(out, "    { metric = \"%s\"; statistic = \"%s\"; goal = \"%s\"; }%s\n",
                    metric[o->metric], stat[o->stat], o->maximise ? "max" : "min",
                    i + 1 < ax->n_objectives ? "," : "");
        }
        fputs("  );\n", out);
    }
    fputs("  knobs = (\n", out);
    for (int j = 0; j < ax->n_knobs; j++) {
        const dse_axis *a = &ax->knobs[j];
        fputs("    { knob = ", out);
        dse__fput_dquoted(out, a->knob);
        fputs(";", out);
        if (a->n_values) {
            fputs(" values = [", out);
            for (int i = 0; i < a->n_values; i++) {
                if (i)
                    fputs(", ", out);
                write_value(out, a, a->values[i]);
            }
            fputs("];", out);
        }
        if (ax->design != DSE_DESIGN_GRID && !a->n_values && !dse_axes_is_name(a)) {
            char lo[40], hi[40];
            dse_axes_value_text(a, a->low, lo, sizeof lo);
            dse_axes_value_text(a, a->high, hi, sizeof hi);
            fprintf(out, " low = %s; high = %s; log = %s;", lo, hi, a->log ? "true" : "false");
        }
        fprintf(out, " }%s\n", j + 1 < ax->n_knobs ? "," : "");
    }
    fputs("  );\n};\n", out);
}

void dse_axes_write_points(const dse_sweep *s, FILE *out)
{
    int n = dse_axes_points(s);
    double v[DSE_AXES_MAX_KNOBS];
    if (s->axes.design == DSE_DESIGN_NSGA2) {
        fprintf(out, "# points %d..%d: generations 1..%d, drawn by the search from the results "
                     "(rfdse validate --point K RESULTS.h5)\n", s->axes.population, n - 1,
                s->axes.generations - 1);
        n = s->axes.population;
    }
    for (int k = 0; k < n; k++) {
        dse_axes_point_values(s, k, v);
        fprintf(out, "# point %d:", k);
        for (int j = 0; j < s->axes.n_knobs; j++) {
            char buf[64];
            dse_axes_value_text(&s->axes.knobs[j], v[j], buf, sizeof buf);
            fprintf(out, "%s %s = %s", j ? "," : "", s->axes.knobs[j].knob, buf);
        }
        fputc('\n', out);
    }
}

int dse_axes_value_parse(const dse_axis *a, const char *text, double *v)
{
    dse__keyset tk;
    const dse__key *k = axis_key(a, &tk);
    if (k->type == DSE__BOOL) {
        *v = !strcmp(text, "true") ? 1.0 : !strcmp(text, "false") ? 0.0 : NAN;
        return isnan(*v) ? -1 : 0;
    }
    if (k->type == DSE__ENUM) {
        for (int i = 0; k->enum_names[i]; i++)
            if (!strcmp(k->enum_names[i], text)) {
                *v = i;
                return 0;
            }
        return -1;
    }
    char *end;
    *v = strtod(text, &end);
    return end == text ? -1 : 0;
}

bool dse_axes_equal(const dse_axes *a, const dse_axes *b)
{
    if (a->design != b->design || a->n_knobs != b->n_knobs ||
        (a->design != DSE_DESIGN_NONE && a->n_points != b->n_points) ||
        a->population != b->population || a->generations != b->generations ||
        a->technique != b->technique || a->n_objectives != b->n_objectives ||
        memcmp(a->objectives, b->objectives, sizeof(dse_objective) * (size_t)a->n_objectives))
        return false;
    for (int j = 0; j < a->n_knobs; j++) {
        const dse_axis *x = &a->knobs[j], *y = &b->knobs[j];
        if (strcmp(x->knob, y->knob) || x->n_values != y->n_values || x->low != y->low ||
            x->high != y->high || x->log != y->log ||
            memcmp(x->values, y->values, sizeof(double) * (size_t)x->n_values))
            return false;
    }
    return true;
}
