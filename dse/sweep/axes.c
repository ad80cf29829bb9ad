/* Design points of a sweep with axes: the grid's mixed-radix order, the Sobol
 * sequence, setting a knob in a copy of the sweep, and writing the axes back. */
#include <gsl/gsl_qrng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dse_axes.h"
#include "dse_quote.h"
#include "dse_sweep.h"
#include "sweep_schema.h"

static const dse__key *axis_key(const dse_axis *a)
{
    switch (a->kind) {
    case DSE_KNOB_GLOBAL: return &dse__sections[a->section].keys[a->key];
    case DSE_KNOB_TECHNIQUE: return &dse__technique_keys[a->key];
    default: return &dse__workload_keys[a->key];
    }
}

bool dse_axes_is_name(const dse_axis *a)
{
    dse__key_type t = axis_key(a)->type;
    return t == DSE__ENUM || t == DSE__BOOL;
}

int dse_axes_points(const dse_sweep *s)
{
    return s->axes.design == DSE_DESIGN_NONE ? 0 : s->axes.n_points;
}

static bool is_integer(const dse__key *k) { return k->type == DSE__INT || k->type == DSE__INT64; }

/* Sobol coordinate u in [0, 1) -> the knob's value. */
static double sobol_value(const dse_axis *a, double u)
{
    const dse__key *k = axis_key(a);
    if (a->n_values) { /* names, or a list to draw from: uniform over the list */
        int i = (int)floor(u * a->n_values);
        return a->values[i < a->n_values ? i : a->n_values - 1];
    }
    if (k->type == DSE__ENUM || k->type == DSE__BOOL) { /* every name */
        int n = 0;
        while (k->type == DSE__ENUM ? k->enum_names[n] != NULL : n < 2)
            n++;
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
    /* Sobol: GSL's sequence from its start, point k is the (k+1)-th draw.  Regenerated
     * here (k draws of at most 16 dimensions: microseconds) so nothing is stored. */
    gsl_qrng *q = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)ax->n_knobs);
    double u[DSE_AXES_MAX_KNOBS] = { 0 };
    for (int i = 0; q && i <= k; i++)
        gsl_qrng_get(q, u);
    gsl_qrng_free(q);
    for (int j = 0; j < ax->n_knobs; j++)
        v[j] = sobol_value(&ax->knobs[j], u[j]);
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
    const dse__key *k = axis_key(a);
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

dse_sweep *dse_axes_point_sweep(const dse_sweep *s, int k)
{
    dse_sweep *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    memcpy(p, s, sizeof *p);
    memset(&p->axes, 0, sizeof p->axes);
    double v[DSE_AXES_MAX_KNOBS];
    dse_axes_point_values(s, k, v);
    for (int j = 0; j < s->axes.n_knobs; j++)
        apply(p, &s->axes.knobs[j], v[j]);
    return p;
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
    const dse__key *k = axis_key(a);
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
    char buf[64];
    dse_axes_value_text(a, v, buf, sizeof buf);
    if (axis_key(a)->type == DSE__ENUM)
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
            ax->design == DSE_DESIGN_GRID ? "grid" : "sobol");
    if (ax->design == DSE_DESIGN_SOBOL)
        fprintf(out, "  points = %d;\n", ax->n_points);
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
        if (ax->design == DSE_DESIGN_SOBOL && !a->n_values && !dse_axes_is_name(a)) {
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

bool dse_axes_equal(const dse_axes *a, const dse_axes *b)
{
    if (a->design != b->design || a->n_knobs != b->n_knobs ||
        (a->design != DSE_DESIGN_NONE && a->n_points != b->n_points))
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
