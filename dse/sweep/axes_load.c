/* Reading the `axes` section of a sweep file (docs/sweep-format.md, "Axes over knobs").
 *
 * Part of the sweep loader (sweep_load.c calls it once the rest of the file is read,
 * because technique and workload names and chips.count are needed here): each mistake
 * is one line "FILE:LINE: key 'axes...': what, accepted: ...". */
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ana_metrics.h"
#include "dse_axes.h"
#include "dse_quote.h"
#include "dse_sweep.h"
#include "sweep_schema.h"
#include "sweep_text.h"

typedef struct ctx {
    const char *file;
    FILE *err;
    const dse_sweep *sw;
} ctx;

static int fail(const ctx *c, const config_setting_t *s, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dse__sweep_vfail(c->err, c->file, s ? config_setting_source_line(s) : 0, key, fmt, ap);
    va_end(ap);
    return -1;
}

static const char knob_forms[] =
    "SECTION.KEY, techniques[].KEY, techniques[NAME].KEY, workloads[].KEY or "
    "workloads[NAME].KEY, as `rfdse list knobs` lists them";

/* Why a key cannot be an axis, or NULL when it can. */
static const char *not_an_axis(const char *section, const dse__key *k)
{
    if (!strcmp(section, "chips"))
        return !strcmp(k->name, "seed")
                   ? "every point draws the same chips from one seed (common random numbers)"
                   : "the chips are the Monte Carlo population of every point, not a design "
                     "knob";
    if (!strcmp(section, "output"))
        return "it says where results go, not what they are";
    if (k->type == DSE__DOUBLE_LIST || k->type == DSE__INT_LIST)
        return "a list: aging.years is already the year dimension of the results";
    if (!strcmp(section, "floorplan") && !strcmp(k->name, "n_sms"))
        return "it sets the sm dimension of /chips/sm_frequency, which the points share";
    if (!strcmp(section, "floorplan") &&
        (!strcmp(k->name, "n_banks") || !strcmp(k->name, "sub_banks")))
        return "it sets the sub_bank dimension of the trace datasets, which the points share";
    if (k->type == DSE__STRING)
        return "a string, not a design knob";
    return NULL;
}

static int find_key(const dse__key *keys, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(keys[i].name, name))
            return (int)i;
    return -1;
}

/* "techniques[NAME].KEY" -> target NAME ("" for []), key KEY; -1 if not of that form. */
static int split_group_knob(const char *knob, const char *group, char *target, size_t tn,
                            const char **key)
{
    size_t g = strlen(group);
    if (strncmp(knob, group, g) || knob[g] != '[')
        return -1;
    const char *close = strchr(knob + g, ']');
    if (!close || close[1] != '.' || (size_t)(close - knob - (ptrdiff_t)g - 1) >= tn)
        return -1;
    snprintf(target, tn, "%.*s", (int)(close - knob - (ptrdiff_t)g - 1), knob + g + 1);
    *key = close + 2;
    return 0;
}

static int resolve(const ctx *c, const config_setting_t *s, const char *path, dse_axis *a)
{
    const char *key = NULL;
    char section[DSE_AXES_KNOB_MAX];
    if (!split_group_knob(a->knob, "techniques", a->target, sizeof a->target, &key)) {
        a->kind = DSE_KNOB_TECHNIQUE;
        dse__keyset tk;
        dse__technique_keys(&tk);
        a->key = find_key(tk.key, tk.n, key);
        if (a->target[0] && dse_sweep_technique_index(c->sw, a->target) < 0)
            return fail(c, s, path, "technique \"%s\" is not in the sweep's techniques",
                        a->target);
    } else if (!split_group_knob(a->knob, "workloads", a->target, sizeof a->target, &key)) {
        a->kind = DSE_KNOB_WORKLOAD;
        a->key = find_key(dse__workload_keys, dse__n_workload_keys, key);
        if (a->target[0] && dse_sweep_workload_index(c->sw, a->target) < 0)
            return fail(c, s, path, "workload \"%s\" is not in the sweep's workloads",
                        a->target);
    } else {
        const char *dot = strchr(a->knob, '.');
        a->kind = DSE_KNOB_GLOBAL;
        a->key = -1;
        snprintf(section, sizeof section, "%.*s", dot ? (int)(dot - a->knob) : 0, a->knob);
        const dse__section *sec = dot ? dse__section_find(section) : NULL;
        if (sec) {
            a->section = (int)(sec - dse__sections);
            a->key = find_key(sec->keys, sec->n_keys, dot + 1);
        }
        if (a->key >= 0) {
            const char *why = not_an_axis(section, &sec->keys[a->key]);
            if (why)
                return fail(c, s, path, "%s cannot be an axis: %s", a->knob, why);
        }
    }
    if (a->key < 0)
        return fail(c, s, path, "unknown knob \"%s\", accepted: %s", a->knob, knob_forms);
    return 0;
}

/* The key of axis a; a technique key is copied into *tk (key indices are stable). */
static const dse__key *key_of(const dse_axis *a, dse__keyset *tk)
{
    if (a->kind == DSE_KNOB_TECHNIQUE)
        dse__technique_keys(tk);
    return a->kind == DSE_KNOB_GLOBAL ? &dse__sections[a->section].keys[a->key]
           : a->kind == DSE_KNOB_TECHNIQUE ? &tk->key[a->key]
                                           : &dse__workload_keys[a->key];
}

/* One value of knob a from setting e, checked against the key's range. */
static int read_value(const ctx *c, const config_setting_t *e, const char *path,
                      const dse_axis *a, double *v)
{
    dse__keyset tk;
    const dse__key *k = key_of(a, &tk);
    char range[256];
    dse__key_range(k, range, sizeof range);
    int t = config_setting_type(e);
    if (k->type == DSE__BOOL) {
        if (t != CONFIG_TYPE_BOOL)
            return fail(c, e, path, "expected true or false for %s", a->knob);
        *v = config_setting_get_bool(e) ? 1.0 : 0.0;
        return 0;
    }
    if (k->type == DSE__ENUM) {
        const char *str = config_setting_get_string(e);
        for (int i = 0; str && k->enum_names[i]; i++)
            if (!strcmp(k->enum_names[i], str)) {
                *v = i;
                return 0;
            }
        return fail(c, e, path, "%s: got %s%.80s%s, accepted: %s", a->knob, str ? "\"" : "a ",
                    str ? str : "non-string", str ? "\"" : "", range);
    }
    bool integer = k->type == DSE__INT || k->type == DSE__INT64;
    if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
        *v = (double)config_setting_get_int64(e);
    else if (t == CONFIG_TYPE_FLOAT && !integer)
        *v = config_setting_get_float(e);
    else
        return fail(c, e, path, "%s expects %s", a->knob, integer ? "an integer" : "a number");
    bool ok = !isnan(*v) && (k->min_open ? *v > k->min : *v >= k->min) && *v <= k->max;
    if (!ok)
        return fail(c, e, path, "%s: got %.15g, accepted: %s", a->knob, *v, range);
    return 0;
}

static int read_values(const ctx *c, const config_setting_t *l, const char *path, dse_axis *a)
{
    int t = config_setting_type(l);
    if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
        return fail(c, l, path, "expected a list of values like [1, 2]");
    int n = config_setting_length(l);
    if (n < 1 || n > DSE_AXES_MAX_VALUES)
        return fail(c, l, path, "%s needs 1 to %d values, got %d", a->knob,
                    DSE_AXES_MAX_VALUES, n);
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(l, (unsigned)i);
        if (read_value(c, e, path, a, &a->values[i]))
            return -1;
        for (int j = 0; j < i; j++)
            if (a->values[j] == a->values[i]) {
                char buf[64];
                dse_axes_value_text(a, a->values[i], buf, sizeof buf);
                return fail(c, e, path, "%s: value %s appears twice (values %d and %d)",
                            a->knob, buf, j, i);
            }
    }
    a->n_values = n;
    return 0;
}

static int read_range(const ctx *c, const config_setting_t *g, const char *path, dse_axis *a,
                      dse_design design)
{
    const config_setting_t *lo = config_setting_get_member(g, "low");
    const config_setting_t *hi = config_setting_get_member(g, "high");
    const config_setting_t *lg = config_setting_get_member(g, "log");
    if (design == DSE_DESIGN_GRID && (lo || hi || lg)) /* sobol, nsga2: ranges */
        return fail(c, lo ? lo : hi ? hi : lg, path,
                    "low, high and log are for design = \"sobol\"; a grid lists its values");
    if (lg && config_setting_type(lg) != CONFIG_TYPE_BOOL)
        return fail(c, lg, path, "log expects true or false");
    a->log = lg && config_setting_get_bool(lg);
    if (dse_axes_is_name(a) || a->n_values)
        return (lo || hi) ? fail(c, lo ? lo : hi, path, "give either values or low and high")
                          : 0;
    if (!lo || !hi)
        return fail(c, g, path, "%s needs values = [...] or low and high", a->knob);
    if (read_value(c, lo, path, a, &a->low) || read_value(c, hi, path, a, &a->high))
        return -1;
    if (a->low > a->high)
        return fail(c, lo, path, "%s: low %.15g exceeds high %.15g", a->knob, a->low, a->high);
    if (a->log && a->low <= 0)
        return fail(c, lg, path, "%s: log needs low > 0, got %.15g", a->knob, a->low);
    return 0;
}

static int check_members(const ctx *c, const config_setting_t *g, const char *path,
                         const char *const *names)
{
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
        bool known = false;
        for (int j = 0; names[j]; j++)
            known |= !strcmp(names[j], config_setting_name(m));
        if (!known) {
            char accepted[128] = "";
            for (int j = 0; names[j]; j++)
                snprintf(accepted + strlen(accepted), sizeof accepted - strlen(accepted),
                         "%s%s", j ? ", " : "", names[j]);
            return fail(c, m, path, "unknown key \"%s\", accepted: %s", config_setting_name(m),
                        accepted);
        }
    }
    return 0;
}

/* Two knobs that set the same field (the same name, or techniques[] and techniques[X]). */
static bool overlap(const dse_axis *a, const dse_axis *b)
{
    if (a->kind != b->kind || a->key != b->key)
        return false;
    if (a->kind == DSE_KNOB_GLOBAL)
        return a->section == b->section;
    return !a->target[0] || !b->target[0] || !strcmp(a->target, b->target);
}

static int read_knob(const ctx *c, const config_setting_t *g, int j, dse_axes *ax)
{
    static const char *const members[] = { "knob", "values", "low", "high", "log", NULL };
    char path[64];
    snprintf(path, sizeof path, "axes.knobs[%d]", j);
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return fail(c, g, path, "expected a group { knob = \"SECTION.KEY\"; values = [...]; }");
    if (check_members(c, g, path, members))
        return -1;
    dse_axis *a = &ax->knobs[j];
    const config_setting_t *k = config_setting_get_member(g, "knob");
    const char *name = k ? config_setting_get_string(k) : NULL;
    if (!name || !*name || strlen(name) >= sizeof a->knob)
        return fail(c, k ? k : g, path, "knob = \"NAME\" is needed, accepted: %s", knob_forms);
    snprintf(a->knob, sizeof a->knob, "%s", name);
    if (resolve(c, k, path, a))
        return -1;
    for (int i = 0; i < j; i++)
        if (overlap(&ax->knobs[i], a))
            return fail(c, k, path, "%s sets what knobs[%d] (%s) sets already", a->knob, i,
                        ax->knobs[i].knob);
    const config_setting_t *v = config_setting_get_member(g, "values");
    if (v && read_values(c, v, path, a))
        return -1;
    if (v && ax->design == DSE_DESIGN_NSGA2 && !dse_axes_is_name(a))
        return fail(c, v, path, "a search varies %s between low and high, not over values",
                    a->knob);
    if (!v && ax->design == DSE_DESIGN_GRID)
        return fail(c, g, path, "%s needs values = [...] in a grid", a->knob);
    return read_range(c, g, path, a, ax->design);
}

static int read_int(const ctx *c, const config_setting_t *sec, const char *key, long long lo,
                    long long hi, int *v)
{
    const config_setting_t *s = config_setting_get_member(sec, key);
    int t = s ? config_setting_type(s) : CONFIG_TYPE_NONE;
    long long n = (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) ? config_setting_get_int64(s)
                                                                 : lo - 1;
    char path[64];
    snprintf(path, sizeof path, "axes.%s", key);
    if (n < lo || n > hi)
        return fail(c, s ? s : sec, path, "a search needs %s = N, accepted: [%lld, %lld]", key,
                    lo, hi);
    *v = (int)n;
    return 0;
}

static int read_objective(const ctx *c, const config_setting_t *g, int i, dse_objective *o)
{
    static const char *const metrics[] = {
#define AXL_METRIC_NAME(name, ...) #name,
        RFDSE_UNIT_METRICS(AXL_METRIC_NAME)
#undef AXL_METRIC_NAME
        NULL,
    };
    static const char *const stats[] = { "mean", "p5", "p50", "p95", NULL };
    static const char *const members[] = { "metric", "statistic", "goal", NULL };
    char path[64], accepted[512] = "";
    snprintf(path, sizeof path, "axes.objectives[%d]", i);
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return fail(c, g, path, "expected { metric = \"performance\"; statistic = \"p5\"; "
                    "goal = \"max\"; }");
    if (check_members(c, g, path, members))
        return -1;
    const config_setting_t *m = config_setting_get_member(g, "metric");
    const char *name = m ? config_setting_get_string(m) : NULL;
    o->metric = -1;
    for (int k = 0; name && metrics[k]; k++)
        if (!strcmp(metrics[k], name))
            o->metric = k;
    for (int k = 0; metrics[k]; k++)
        snprintf(accepted + strlen(accepted), sizeof accepted - strlen(accepted), "%s%s",
                 k ? ", " : "", metrics[k]);
    if (o->metric < 0)
        return fail(c, m ? m : g, path, "%s%.60s%s is not a metric, accepted: %s",
                    name ? "\"" : "metric = ", name ? name : "NAME is needed", name ? "\"" : "",
                    accepted);
    const config_setting_t *s = config_setting_get_member(g, "statistic");
    const char *st = s ? config_setting_get_string(s) : "mean";
    int k = 0;
    while (st && stats[k] && strcmp(stats[k], st))
        k++;
    if (!st || !stats[k])
        return fail(c, s, path, "statistic over chips: got %.40s, accepted: mean, p5, p50, p95",
                    st ? st : "a non-string");
    o->stat = (dse_stat)k;
    const config_setting_t *gl = config_setting_get_member(g, "goal");
    const char *goal = gl ? config_setting_get_string(gl) : NULL;
    if (!goal || (strcmp(goal, "min") && strcmp(goal, "max")))
        return fail(c, gl ? gl : g, path, "goal = \"min\" or \"max\" is needed");
    o->maximise = !strcmp(goal, "max");
    return 0;
}

/* design = "nsga2": population, generations, the technique and the objectives. */
static int read_search(const ctx *c, const config_setting_t *sec, dse_axes *ax)
{
    if (read_int(c, sec, "population", 4, 1024, &ax->population) ||
        read_int(c, sec, "generations", 1, 1000, &ax->generations))
        return -1;
    if (ax->population % 2)
        return fail(c, config_setting_get_member(sec, "population"), "axes.population",
                    "got %d, accepted: an even number (offspring come in pairs)", ax->population);
    const config_setting_t *t = config_setting_get_member(sec, "technique");
    const char *tn = t ? config_setting_get_string(t) : NULL;
    ax->technique = tn ? dse_sweep_technique_index(c->sw, tn) : c->sw->n_techniques == 1 ? 0 : -1;
    if (ax->technique < 0)
        return fail(c, t ? t : sec, "axes.technique", "%s%.40s%s: the technique whose results "
                    "the objectives read must be one of the sweep's", tn ? "\"" : "",
                    tn ? tn : "technique = NAME is needed", tn ? "\"" : "");
    const config_setting_t *l = config_setting_get_member(sec, "objectives");
    int n = l && config_setting_type(l) == CONFIG_TYPE_LIST ? config_setting_length(l) : -1;
    if (n < 1 || n > DSE_AXES_MAX_OBJECTIVES)
        return fail(c, l ? l : sec, "axes.objectives", "expected a list of 1 to %d objectives "
                    "( { metric = ...; statistic = ...; goal = ...; }, ... )",
                    DSE_AXES_MAX_OBJECTIVES);
    ax->n_objectives = n;
    for (int i = 0; i < n; i++)
        if (read_objective(c, config_setting_get_elem(l, (unsigned)i), i, &ax->objectives[i]))
            return -1;
    ax->n_points = ax->population * ax->generations;
    return 0;
}

static int read_design(const ctx *c, const config_setting_t *sec, dse_axes *ax)
{
    const config_setting_t *d = config_setting_get_member(sec, "design");
    const char *name = d ? config_setting_get_string(d) : "grid";
    if (name && !strcmp(name, "grid"))
        ax->design = DSE_DESIGN_GRID;
    else if (name && !strcmp(name, "sobol"))
        ax->design = DSE_DESIGN_SOBOL;
    else if (name && !strcmp(name, "nsga2"))
        ax->design = DSE_DESIGN_NSGA2;
    else
        return fail(c, d, "axes.design", "got %s%.40s%s, accepted: grid, sobol, nsga2",
                    name ? "\"" : "", name ? name : "a non-string", name ? "\"" : "");
    const config_setting_t *p = config_setting_get_member(sec, "points");
    static const char *const search_keys[] = { "population", "generations", "technique",
                                                "objectives", NULL };
    for (int i = 0; ax->design != DSE_DESIGN_NSGA2 && search_keys[i]; i++)
        if (config_setting_get_member(sec, search_keys[i]))
            return fail(c, config_setting_get_member(sec, search_keys[i]), "axes",
                        "%s is for design = \"nsga2\"", search_keys[i]);
    if (ax->design == DSE_DESIGN_NSGA2)
        return p ? fail(c, p, "axes.points", "a search has population x generations points")
                 : read_search(c, sec, ax);
    if (ax->design == DSE_DESIGN_GRID && p)
        return fail(c, p, "axes.points",
                    "points is for design = \"sobol\"; a grid has the product of its values");
    if (ax->design == DSE_DESIGN_SOBOL) {
        int t = p ? config_setting_type(p) : CONFIG_TYPE_NONE;
        long long n = (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
                          ? config_setting_get_int64(p) : -1;
        if (n < 1 || n > DSE_AXES_MAX_POINTS)
            return fail(c, p ? p : sec, "axes.points",
                        "a Sobol design needs points = N, accepted: [1, %d]",
                        DSE_AXES_MAX_POINTS);
        ax->n_points = (int)n;
    }
    return 0;
}

/* Points and units within the documented limits. */
static int check_size(const ctx *c, const config_setting_t *sec, dse_axes *ax)
{
    double points = ax->design == DSE_DESIGN_SOBOL ? ax->n_points
                    : ax->design == DSE_DESIGN_NSGA2 ? (double)ax->population * ax->generations
                                                     : 1;
    for (int j = 0; ax->design == DSE_DESIGN_GRID && j < ax->n_knobs; j++)
        points *= ax->knobs[j].n_values;
    double units = points * c->sw->chips.count * c->sw->n_techniques;
    if (points > DSE_AXES_MAX_POINTS || units > (double)DSE_AXES_MAX_UNITS)
        return fail(c, sec, "axes",
                    "%.0f points x %d chips x %d techniques = %.0f units, accepted: at most "
                    "%d points and %ld units (docs/sweep-format.md)", points,
                    c->sw->chips.count, c->sw->n_techniques, units, DSE_AXES_MAX_POINTS,
                    DSE_AXES_MAX_UNITS);
    ax->n_points = (int)points;
    return 0;
}

int dse__axes_read(const config_setting_t *sec, const char *file, FILE *err, dse_sweep *sw)
{
    ctx c = { file, err, sw };
    dse_axes ax;
    memset(&ax, 0, sizeof ax);
    static const char *const members[] = { "design", "points", "knobs", "population",
                                           "generations", "technique", "objectives", NULL };
    if (config_setting_type(sec) != CONFIG_TYPE_GROUP)
        return fail(&c, sec, "axes", "expected a group axes = { design = ...; knobs = (...); }");
    ax.line = config_setting_source_line(sec);
    if (check_members(&c, sec, "axes", members) || read_design(&c, sec, &ax))
        return -1;
    const config_setting_t *l = config_setting_get_member(sec, "knobs");
    int n = l && (config_setting_type(l) == CONFIG_TYPE_LIST) ? config_setting_length(l) : -1;
    if (n < 1 || n > DSE_AXES_MAX_KNOBS)
        return fail(&c, l ? l : sec, "axes.knobs", "expected a list of 1 to %d knob groups "
                    "( { knob = \"SECTION.KEY\"; values = [...]; }, ... )", DSE_AXES_MAX_KNOBS);
    ax.n_knobs = n;
    for (int j = 0; j < n; j++)
        if (read_knob(&c, config_setting_get_elem(l, (unsigned)j), j, &ax))
            return -1;
    if (check_size(&c, sec, &ax))
        return -1;
    sw->axes = ax;
    return 0;
}
