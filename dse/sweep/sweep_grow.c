/* Sweeps that grow: does a sweep extend the one a results file was made with (more
 * chips, points, techniques or workloads, nothing else changed)?  `rfdse run --resume`
 * then extends the file (dse/results/results_grow.c); anything else is refused with one
 * line naming the key and its two values. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dse_sweep.h"
#include "sweep_schema.h"

static int say(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

static void value_text(const dse__key *k, const void *base, char *buf, size_t n)
{
    FILE *f = fmemopen(buf, n, "w");
    if (!f) {
        snprintf(buf, n, "?");
        return;
    }
    dse__key_write(f, k, base);
    fclose(f);
    buf[n - 1] = '\0';
}

/* Is key k of this kind (target: technique or workload name) an axis of s? */
static bool is_axis(const dse_sweep *s, dse_knob_kind kind, int section, int key, const char *target)
{
    for (int j = 0; j < s->axes.n_knobs; j++) {
        const dse_axis *a = &s->axes.knobs[j];
        if (a->kind == kind && a->key == key && (kind != DSE_KNOB_GLOBAL || a->section == section) &&
            (kind == DSE_KNOB_GLOBAL || !a->target[0] || !strcmp(a->target, target)))
            return true;
    }
    return false;
}

static int compare_keys(const dse__key *keys, size_t nk, const void *a, const void *b,
                        const dse_sweep *s, dse_knob_kind kind, int section, const char *owner,
                        char *why, size_t n)
{
    for (size_t i = 0; i < nk; i++) {
        if (dse__key_equal(&keys[i], a, b) || is_axis(s, kind, section, (int)i, owner))
            continue;
        char va[128], vb[128];
        value_text(&keys[i], a, va, sizeof va);
        value_text(&keys[i], b, vb, sizeof vb);
        if (kind == DSE_KNOB_GLOBAL)
            return say(why, n, "a different sweep: key '%s.%s' is %s in the file and %s here",
                       dse__sections[section].name, keys[i].name, va, vb);
        return say(why, n, "a different sweep: %s '%s': key '%s' is %s in the file and %s here",
                   kind == DSE_KNOB_TECHNIQUE ? "technique" : "workload", owner, keys[i].name,
                   va, vb);
    }
    return 0;
}

static int compare_sections(const dse_sweep *old, const dse_sweep *s, char *why, size_t n)
{
    for (size_t i = 0; i < dse__n_sections; i++) {
        const dse__section *sec = &dse__sections[i];
        if (!strcmp(sec->name, "chips") || !strcmp(sec->name, "output"))
            continue;
        if (compare_keys(sec->keys, sec->n_keys, (const char *)old + sec->offset,
                         (const char *)s + sec->offset, s, DSE_KNOB_GLOBAL, (int)i, "", why, n))
            return -1;
    }
    if (old->output.n_trace_chips != s->output.n_trace_chips ||
        memcmp(old->output.trace_chips, s->output.trace_chips,
               sizeof(int) * (size_t)old->output.n_trace_chips))
        return say(why, n, "a different sweep: key 'output.trace_chips' differs (the traced "
                   "chips cannot change)");
    return 0;
}

static int compare_techniques(const dse_sweep *old, const dse_sweep *s, char *why, size_t n)
{
    dse__keyset tk;
    dse__technique_keys(&tk);
    for (int t = 0; t < old->n_techniques; t++) {
        int u = dse_sweep_technique_index(s, old->techniques[t].name);
        if (u < 0)
            return say(why, n, "a different sweep: technique '%s' of the file is not in this "
                       "sweep (a sweep grows, it does not shrink)", old->techniques[t].name);
        if (compare_keys(tk.key, tk.n, &old->techniques[t],
                         &s->techniques[u], s, DSE_KNOB_TECHNIQUE, 0, old->techniques[t].name,
                         why, n))
            return -1;
    }
    return 0;
}

static int compare_workloads(const dse_sweep *old, const dse_sweep *s, char *why, size_t n)
{
    for (int w = 0; w < old->n_workloads; w++) {
        int u = dse_sweep_workload_index(s, old->workloads[w].name);
        if (u < 0)
            return say(why, n, "a different sweep: workload '%s' of the file is not in this "
                       "sweep (a sweep grows, it does not shrink)", old->workloads[w].name);
        if (compare_keys(dse__workload_keys, dse__n_workload_keys, &old->workloads[w],
                         &s->workloads[u], s, DSE_KNOB_WORKLOAD, 0, old->workloads[w].name,
                         why, n))
            return -1;
    }
    /* With aging every unit's frequency is under the whole mix's stress: a new workload
     * would change the results already in the file. */
    if (s->n_workloads > old->n_workloads && old->var.aging.n_years > 1)
        return say(why, n, "a different sweep: new workloads change the aging stress (the "
                   "workload mix) of every unit already in the file; an aging sweep cannot "
                   "gain workloads, start a new file");
    return 0;
}

int dse_sweep_point_map(const dse_sweep *old, const dse_sweep *s, int *map, char *why, size_t n)
{
    int po = dse_axes_points(old), ps = dse_axes_points(s);
    if ((po > 0) != (ps > 0))
        return say(why, n, "a different sweep: %s; a file without a point dimension and one "
                   "with cannot become each other, start a new file",
                   po ? "the file has axes and this sweep none" : "this sweep has axes and the file none");
    if (po == 0) {
        map[0] = 0;
        return 0;
    }
    if (old->axes.n_knobs != s->axes.n_knobs)
        return say(why, n, "a different sweep: key 'axes.knobs': %d knobs in the file, %d here",
                   old->axes.n_knobs, s->axes.n_knobs);
    for (int j = 0; j < old->axes.n_knobs; j++)
        if (strcmp(old->axes.knobs[j].knob, s->axes.knobs[j].knob))
            return say(why, n, "a different sweep: key 'axes.knobs[%d].knob' is %s in the file "
                       "and %s here", j, old->axes.knobs[j].knob, s->axes.knobs[j].knob);
    double *vs = malloc(sizeof(double) * DSE_AXES_MAX_KNOBS * (size_t)ps);
    if (!vs)
        return say(why, n, "out of memory");
    for (int k = 0; k < ps; k++)
        dse_axes_point_values(s, k, vs + (size_t)k * DSE_AXES_MAX_KNOBS);
    int rc = 0;
    for (int k = 0; k < po && !rc; k++) {
        double v[DSE_AXES_MAX_KNOBS];
        dse_axes_point_values(old, k, v);
        map[k] = -1;
        for (int q = 0; q < ps && map[k] < 0; q++)
            if (!memcmp(v, vs + (size_t)q * DSE_AXES_MAX_KNOBS,
                        sizeof(double) * (size_t)old->axes.n_knobs))
                map[k] = q;
        if (map[k] >= 0)
            continue;
        /* name the knob that moved: against the point at the same index, if any */
        const double *w = k < ps ? vs + (size_t)k * DSE_AXES_MAX_KNOBS : NULL;
        int j = 0;
        while (w && j + 1 < old->axes.n_knobs && v[j] == w[j])
            j++;
        char a[64], b[64] = "absent";
        dse_axes_value_text(&old->axes.knobs[j], v[j], a, sizeof a);
        if (w)
            dse_axes_value_text(&s->axes.knobs[j], w[j], b, sizeof b);
        rc = say(why, n, "a different sweep: design point %d of the file is not a point of "
                 "this sweep: key '%s' is %s in the file and %s here (a changed knob value)",
                 k, old->axes.knobs[j].knob, a, b);
    }
    free(vs);
    return rc;
}

int dse_sweep_extends(const dse_sweep *old, const dse_sweep *s, char *why, size_t n)
{
    if (old->chips.seed != s->chips.seed)
        return say(why, n, "a different seed: key 'chips.seed' is %llu in the file and %llu here",
                   (unsigned long long)old->chips.seed, (unsigned long long)s->chips.seed);
    if (s->chips.count < old->chips.count)
        return say(why, n, "a different sweep: key 'chips.count' is %d in the file and %d here "
                   "(a sweep grows, it does not shrink)", old->chips.count, s->chips.count);
    if ((old->axes.design == DSE_DESIGN_NSGA2 || s->axes.design == DSE_DESIGN_NSGA2) &&
        !dse_axes_equal(&old->axes, &s->axes))
        return say(why, n, "a different sweep: key 'axes' differs and a search (design = "
                   "\"nsga2\") cannot grow: its later points depend on all before");
    int po = dse_axes_points(old);
    int *map = malloc(sizeof(int) * (size_t)(po > 0 ? po : 1));
    int rc = !map ? say(why, n, "out of memory")
             : compare_sections(old, s, why, n) || compare_techniques(old, s, why, n) ||
                       compare_workloads(old, s, why, n) ||
                       dse_sweep_point_map(old, s, map, why, n) ? -1 : 0;
    free(map);
    return rc;
}
