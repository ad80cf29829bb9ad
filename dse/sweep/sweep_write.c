/* Writes a resolved sweep back as libconfig text, every knob explicit, and compares
 * sweeps; both walk the same key tables the loader reads with. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dse_quote.h"
#include "dse_sweep.h"
#include "sweep_schema.h"

/* libconfig needs a '.' or an exponent to read a float. */
static void write_double(FILE *out, double v)
{
    char buf[40];
    dse__format_double(buf, sizeof buf, v);
    fputs(buf, out);
    if (!strpbrk(buf, ".eE"))
        fputs(".0", out);
}

static void write_value(FILE *out, const dse__key *k, const void *base)
{
    const char *field = (const char *)base + k->offset;
    switch (k->type) {
    case DSE__INT: fprintf(out, "%d", *(const int *)field); break;
    case DSE__INT64: fprintf(out, "%lldL", (long long)*(const int64_t *)field); break;
    case DSE__DOUBLE: write_double(out, *(const double *)field); break;
    case DSE__BOOL: fputs(*(const bool *)field ? "true" : "false", out); break;
    case DSE__ENUM: dse__fput_dquoted(out, k->enum_names[*(const int *)field]); break;
    case DSE__STRING: dse__fput_dquoted(out, field); break;
    case DSE__DOUBLE_LIST:
    case DSE__INT_LIST: {
        int n = *(const int *)((const char *)base + k->count_offset);
        fputc('[', out);
        for (int i = 0; i < n; i++) {
            if (i)
                fputs(", ", out);
            if (k->type == DSE__INT_LIST)
                fprintf(out, "%d", ((const int *)field)[i]);
            else
                write_double(out, ((const double *)field)[i]);
        }
        fputc(']', out);
        break;
    }
    }
}

void dse__key_write(FILE *out, const dse__key *k, const void *base) { write_value(out, k, base); }

static void write_keys(FILE *out, const dse__key *keys, size_t n, const void *base,
                       const char *indent)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s%s = ", indent, keys[i].name);
        write_value(out, &keys[i], base);
        fprintf(out, ";  # %s\n", keys[i].doc);
    }
}

int dse_sweep_write(const dse_sweep *s, FILE *out)
{
    fprintf(out, "# rfdse sweep, fully resolved: every knob explicit.\n");
    fputs("name = ", out);
    dse__fput_dquoted(out, s->name);
    fputs(";\n", out);
    for (size_t i = 0; i < dse__n_sections; i++) {
        const dse__section *sec = &dse__sections[i];
        fprintf(out, "\n# %s\n%s = {\n", sec->doc, sec->name);
        write_keys(out, sec->keys, sec->n_keys, (const char *)s + sec->offset, "  ");
        fputs("};\n", out);
    }
    fputs("\ntechniques = (\n", out);
    for (int t = 0; t < s->n_techniques; t++) {
        fputs("  {\n    name = ", out);
        dse__fput_dquoted(out, s->techniques[t].name);
        fputs(";\n", out);
        dse__keyset tk;
        dse__technique_keys(&tk);
        write_keys(out, tk.key, tk.n, &s->techniques[t], "    ");
        fprintf(out, "  }%s\n", t + 1 < s->n_techniques ? "," : "");
    }
    fputs(");\n\nworkloads = (\n", out);
    for (int w = 0; w < s->n_workloads; w++) {
        fputs("  {\n    name = ", out);
        dse__fput_dquoted(out, s->workloads[w].name);
        fputs(";\n", out);
        if (s->workloads[w].trace[0]) { /* not a key of the table: the hash keys it */
            fputs("    trace = ", out);
            dse__fput_dquoted(out, s->workloads[w].trace);
            fputs(";  # the trace it runs (docs/traces.md)\n", out);
        }
        write_keys(out, dse__workload_keys, dse__n_workload_keys, &s->workloads[w], "    ");
        fprintf(out, "  }%s\n", w + 1 < s->n_workloads ? "," : "");
    }
    fputs(");\n", out);
    dse_axes_write(s, out);
    return ferror(out) ? -1 : 0;
}

char *dse_sweep_to_string(const dse_sweep *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = dse_sweep_write(s, f);
    if (fclose(f) || rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

static bool keys_equal(const dse__key *keys, size_t n, const void *a, const void *b)
{
    for (size_t i = 0; i < n; i++)
        if (!dse__key_equal(&keys[i], a, b))
            return false;
    return true;
}

bool dse_sweep_equal(const dse_sweep *a, const dse_sweep *b)
{
    for (size_t i = 0; i < dse__n_sections; i++) {
        const dse__section *sec = &dse__sections[i];
        if (!keys_equal(sec->keys, sec->n_keys, (const char *)a + sec->offset,
                        (const char *)b + sec->offset))
            return false;
    }
    if (a->n_techniques != b->n_techniques || a->n_workloads != b->n_workloads)
        return false;
    dse__keyset tk;
    dse__technique_keys(&tk);
    for (int t = 0; t < a->n_techniques; t++)
        if (strcmp(a->techniques[t].name, b->techniques[t].name) ||
            !keys_equal(tk.key, tk.n, &a->techniques[t],
                        &b->techniques[t]))
            return false;
    for (int w = 0; w < a->n_workloads; w++)
        if (strcmp(a->workloads[w].name, b->workloads[w].name) ||
            !keys_equal(dse__workload_keys, dse__n_workload_keys, &a->workloads[w],
                        &b->workloads[w]))
            return false;
    return dse_axes_equal(&a->axes, &b->axes);
}

int dse_sweep_technique_index(const dse_sweep *s, const char *name)
{
    for (int i = 0; i < s->n_techniques; i++)
        if (!strcmp(s->techniques[i].name, name))
            return i;
    return -1;
}

int dse_sweep_workload_index(const dse_sweep *s, const char *name)
{
    for (int i = 0; i < s->n_workloads; i++)
        if (!strcmp(s->workloads[i].name, name))
            return i;
    return -1;
}
