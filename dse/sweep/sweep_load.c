/* The sweep loader: libconfig text -> one resolved, range-checked dse_sweep.
 *
 * The only code in rfdse that reads libconfig.  Every user mistake ends in one line
 * "FILE:LINE: key 'K': what is wrong (accepted: RANGE)" and a NULL return. */
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dse_embedded.h"
#include "dse_quote.h"
#include "dse_sweep.h"
#include "out.h"
#include "sweep_schema.h"
#include "sweep_text.h"
#include "sm.h"
#include "sm_design.h"
#include "var.h"

typedef struct loader {
    const char *file; /* for messages */
    FILE *err;
    /* Chip-model knobs whose fields were already built and accepted (the base sweep's
     * and earlier design points'), n_fields_ok of them: a point with one of these fields
     * skips the embedding, which costs up to a second per point on a large grid. */
    const var_params *fields_ok;
    int n_fields_ok;
} loader;

static int fail(const loader *ld, const config_setting_t *s, const char *key, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    dse__sweep_vfail(ld->err, ld->file, s ? config_setting_source_line(s) : 0, key, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *type_name(int type)
{
    switch (type) {
    case CONFIG_TYPE_GROUP: return "a group";
    case CONFIG_TYPE_INT: return "an integer";
    case CONFIG_TYPE_INT64: return "a 64-bit integer";
    case CONFIG_TYPE_FLOAT: return "a number";
    case CONFIG_TYPE_STRING: return "a string";
    case CONFIG_TYPE_BOOL: return "a boolean";
    case CONFIG_TYPE_ARRAY: return "an array";
    case CONFIG_TYPE_LIST: return "a list";
    default: return "nothing";
    }
}

static bool in_range(const dse__key *k, double v)
{
    if (isnan(v))
        return false;
    return (k->min_open ? v > k->min : v >= k->min) && v <= k->max;
}

static int bad_range(const loader *ld, const config_setting_t *s, const char *path,
                     const dse__key *k, const char *got)
{
    char range[256];
    dse__key_range(k, range, sizeof range);
    return fail(ld, s, path, "got %s, accepted: %s", got, range);
}

static int read_number(const loader *ld, const config_setting_t *s, const char *path,
                       const dse__key *k, double *v)
{
    int t = config_setting_type(s);
    bool integer_key = k->type == DSE__INT || k->type == DSE__INT64 || k->type == DSE__INT_LIST;
    if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) {
        long long i = config_setting_get_int64(s);
        *v = (double)i;
        /* beyond 2^53 a double would round what was written: an integer key's range
         * refuses it (quoting it exactly), a real-valued key says why */
        bool inexact = (double)i >= 0x1p63 || (long long)*v != i;
        if (inexact && integer_key) {
            char got[32];
            snprintf(got, sizeof got, "%lld", i);
            return bad_range(ld, s, path, k, got);
        }
        if (inexact)
            return fail(ld, s, path, "%lld is not exactly a double, accepted: an integer of "
                        "at most 2^53 in magnitude", i);
    }
    else if (t == CONFIG_TYPE_FLOAT && !integer_key)
        *v = config_setting_get_float(s);
    else
        return fail(ld, s, path, "expected %s, got %s", integer_key ? "an integer" : "a number",
                    type_name(t));
    if (!in_range(k, *v)) {
        char got[64];
        dse__format_double(got, sizeof got, *v);
        return bad_range(ld, s, path, k, got);
    }
    return 0;
}

static int read_list(const loader *ld, const config_setting_t *s, const char *path,
                     const dse__key *k, void *dst)
{
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
        return fail(ld, s, path, "expected an array like [0, 1], got %s", type_name(t));
    int n = config_setting_length(s);
    if (n > k->len) /* empty is the default of every list (printed back as []) */
        return fail(ld, s, path, "expected at most %d elements, got %d", k->len, n);
    for (int i = 0; i < n; i++) {
        double v;
        if (read_number(ld, config_setting_get_elem(s, (unsigned)i), path, k, &v))
            return -1;
        if (k->type == DSE__INT_LIST)
            ((int *)((char *)dst + k->offset))[i] = (int)v;
        else
            ((double *)((char *)dst + k->offset))[i] = v;
    }
    *(int *)((char *)dst + k->count_offset) = n;
    return 0;
}

static int read_enum(const loader *ld, const config_setting_t *s, const char *path,
                     const dse__key *k, int *v)
{
    const char *str = config_setting_get_string(s);
    if (!str)
        return fail(ld, s, path, "expected a string, got %s", type_name(config_setting_type(s)));
    for (int i = 0; k->enum_names[i]; i++)
        if (!strcmp(k->enum_names[i], str)) {
            *v = i;
            return 0;
        }
    char got[96];
    snprintf(got, sizeof got, "\"%.80s\"", str);
    return bad_range(ld, s, path, k, got);
}

/* 64-bit keys (seeds, sm.max_cycles) compared as integers: a double holds their bounds
 * exactly, but not every value near them. */
static int read_int64(const loader *ld, const config_setting_t *s, const char *path,
                      const dse__key *k, int64_t *field)
{
    int64_t v = config_setting_get_int64(s);
    if (v < (int64_t)k->min || v > (int64_t)k->max) {
        char got[32];
        snprintf(got, sizeof got, "%lld", (long long)v);
        return bad_range(ld, s, path, k, got);
    }
    *field = v;
    return 0;
}

/* Reads one setting into field k of the struct at dst. */
static int read_key(const loader *ld, const config_setting_t *s, const char *path,
                    const dse__key *k, void *dst)
{
    void *field = (char *)dst + k->offset;
    double v;
    switch (k->type) {
    case DSE__INT:
        if (read_number(ld, s, path, k, &v)) return -1;
        *(int *)field = (int)v;
        return 0;
    case DSE__INT64:
        if (config_setting_type(s) != CONFIG_TYPE_INT && config_setting_type(s) != CONFIG_TYPE_INT64)
            return fail(ld, s, path, "expected an integer, got %s",
                        type_name(config_setting_type(s)));
        return read_int64(ld, s, path, k, (int64_t *)field);
    case DSE__DOUBLE:
        if (read_number(ld, s, path, k, &v)) return -1;
        *(double *)field = v;
        return 0;
    case DSE__BOOL:
        if (config_setting_type(s) != CONFIG_TYPE_BOOL)
            return fail(ld, s, path, "expected true or false, got %s",
                        type_name(config_setting_type(s)));
        *(bool *)field = config_setting_get_bool(s);
        return 0;
    case DSE__ENUM:
        return read_enum(ld, s, path, k, (int *)field);
    case DSE__STRING: {
        const char *str = config_setting_get_string(s);
        if (!str)
            return fail(ld, s, path, "expected a string, got %s",
                        type_name(config_setting_type(s)));
        if ((int)strlen(str) >= k->len || !*str)
            return fail(ld, s, path, "expected 1 to %d characters, got %zu", k->len - 1,
                        strlen(str));
        if (out_text_check(str, NULL))
            return fail(ld, s, path, "a control character (a line break?) is not allowed here");
        snprintf((char *)field, (size_t)k->len, "%s", str);
        return 0;
    }
    case DSE__DOUBLE_LIST:
    case DSE__INT_LIST:
        return read_list(ld, s, path, k, dst);
    }
    return -1;
}

static const dse__key *find_key(const dse__key *keys, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(keys[i].name, name))
            return &keys[i];
    return NULL;
}

/* An unknown member of a group, with the nearest of its keys (and of the caller's,
 * `skip`) as a suggestion. */
static int unknown_key(const loader *ld, const config_setting_t *s, const char *path,
                       const dse__key *keys, size_t n, const char *const *skip)
{
    const char *name = config_setting_name(s);
    dse_suggest sg;
    char hint[96];
    dse_suggest_init(&sg, name, strlen(name));
    for (int j = 0; skip && skip[j]; j++)
        dse_suggest_offer(&sg, skip[j]);
    for (size_t i = 0; i < n; i++)
        dse_suggest_offer(&sg, keys[i].name);
    return fail(ld, s, path, "unknown key%s (see docs/sweep-format.md)",
                dse_suggest_format(&sg, hint, sizeof hint));
}

/* Reads every member of a group; members named in `skip` are the caller's. */
static int read_group(const loader *ld, const config_setting_t *g, const char *prefix,
                      const dse__key *keys, size_t n, void *dst, const char *const *skip)
{
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return fail(ld, g, prefix, "expected a group { ... }, got %s",
                    type_name(config_setting_type(g)));
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(s);
        char path[160];
        snprintf(path, sizeof path, "%s.%s", prefix, name);
        bool skipped = false;
        for (int j = 0; skip && skip[j]; j++)
            skipped |= !strcmp(skip[j], name);
        if (skipped)
            continue;
        const dse__key *k = find_key(keys, n, name);
        if (!k)
            return unknown_key(ld, s, path, keys, n, skip);
        if (read_key(ld, s, path, k, dst))
            return -1;
    }
    return 0;
}

/* ---- techniques ----------------------------------------------------------------------- */

/* Applies preset `name` on top of *t: the options in which the preset differs from the
 * baseline are set, everything else is left alone, so presets compose. */
static bool compose_preset(dse_technique *t, const char *name)
{
    dse_technique base, p;
    if (!dse_technique_preset(name, &p))
        return false;
    dse_technique_preset("baseline", &base);
    dse__keyset tk;
    dse__technique_keys(&tk);
    for (size_t i = 0; i < tk.n; i++)
        if (!dse__key_equal(&tk.key[i], &p, &base))
            dse__key_copy(&tk.key[i], t, &p);
    return true;
}

static int unknown_preset(const loader *ld, const config_setting_t *s, const char *path,
                          const char *name)
{
    char list[512] = "", hint[96];
    size_t used = 0;
    dse_suggest sg;
    dse_suggest_init(&sg, name, strlen(name));
    for (const char *const *p = dse_technique_preset_names(); *p; p++) {
        dse_suggest_offer(&sg, *p);
        if (used < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", *p);
    }
    return fail(ld, s, path, "unknown technique \"%.64s\"%s accepted: %s", name,
                sg.best ? dse_suggest_format(&sg, hint, sizeof hint) : ",", list);
}

static int read_technique_base(const loader *ld, const config_setting_t *b, const char *path,
                               dse_technique *t)
{
    if (config_setting_type(b) == CONFIG_TYPE_STRING) {
        if (!compose_preset(t, config_setting_get_string(b)))
            return unknown_preset(ld, b, path, config_setting_get_string(b));
        return 0;
    }
    if (config_setting_type(b) != CONFIG_TYPE_ARRAY && config_setting_type(b) != CONFIG_TYPE_LIST)
        return fail(ld, b, path, "expected a technique name or an array of names");
    for (int i = 0; i < config_setting_length(b); i++) {
        const config_setting_t *e = config_setting_get_elem(b, (unsigned)i);
        const char *name = config_setting_get_string(e);
        if (!name)
            return fail(ld, e, path, "expected a technique name, got %s",
                        type_name(config_setting_type(e)));
        if (!compose_preset(t, name))
            return unknown_preset(ld, e, path, name);
    }
    return 0;
}

static int read_name(const loader *ld, const config_setting_t *g, const char *path, char *dst,
                     size_t n)
{
    const config_setting_t *s = config_setting_get_member(g, "name");
    if (!s)
        return fail(ld, g, path, "a group here needs a name = \"...\"");
    const char *str = config_setting_get_string(s);
    if (!str || !*str || strlen(str) >= n)
        return fail(ld, s, path, "name must be a string of 1 to %zu characters", n - 1);
    for (const char *c = str; *c; c++)
        if (!(*c == '_' || *c == '-' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
              (*c >= 'A' && *c <= 'Z')))
            return fail(ld, s, path, "name \"%s\" may use only letters, digits, '_' and '-'",
                        str);
    snprintf(dst, n, "%s", str);
    return 0;
}

/* The first option of the technique that relies on rf_bro's virtual banks of
 * same-speed sub-banks, or NULL.  Designs say so in their entry (needs_bro,
 * model/sm_design.h), schedulers in their registry line (model/sm_params.h). */
static const char *needs_bro(const dse_technique *t)
{
    const sm_technique *i = &t->ipc;
    static const struct { bool needs; const char *name; } scheds[] = {
#define NEEDS(name, NAME, needs, doc) [SM_SCHED_##NAME] = { needs, "scheduler = \"" #name "\"" },
        SM_SCHEDULERS(NEEDS)
#undef NEEDS
    };
    for (int d = 0; d < SM_N_DESIGNS; d++)
        if (i->design[d] && sm_design_get((sm_rf_design_id)d)->needs_bro)
            return sm_design_name((sm_rf_design_id)d);
    if (scheds[i->scheduler].needs)
        return scheds[i->scheduler].name;
    return i->fba_rm ? "fba_rm" : i->hybrid ? "hybrid" : t->freq.nbti_reorg ? "nbti_reorg" : NULL;
}

static bool places(const sm_design_info *in) { return in->places_registers; }
static bool is_cache(const sm_design_info *in) { return in->cache_entries != NULL; }

/* The designs with a trait, as "a", "a and b" or "a, b and c" (conj: "and" or "or"). */
static void designs_with(char *buf, size_t n, bool (*has)(const sm_design_info *),
                         const char *conj)
{
    int total = 0, k = 0;
    for (int d = 0; d < SM_N_DESIGNS; d++)
        total += has(sm_design_get((sm_rf_design_id)d));
    size_t used = 0;
    buf[0] = '\0';
    for (int d = 0; d < SM_N_DESIGNS && used < n; d++)
        if (has(sm_design_get((sm_rf_design_id)d))) {
            used += (size_t)snprintf(buf + used, n - used, "%s%s%s%s",
                                     k == 0 ? "" : k + 1 < total ? ", " : " ",
                                     k == 0 || k + 1 < total ? "" : conj,
                                     k == 0 || k + 1 < total ? "" : " ",
                                     sm_design_name((sm_rf_design_id)d));
            k++;
        }
}

static int check_technique(const loader *ld, const config_setting_t *s, const char *path,
                           const dse_technique *t)
{
    if (t->freq.bro && t->freq.granularity != VAR_GRAN_SUB_BANK)
        return fail(ld, s, path, "bro = true needs granularity = \"sub_bank\"");
    const char *opt = needs_bro(t);
    if (opt && !t->freq.bro)
        return fail(ld, s, path, "%s needs bro = true (compose with base = \"rf_bro\")", opt);
    /* designs that place the registers rewrite the warps' bank tables: two at once
     * would overwrite each other's placement (their entries say so: places_registers) */
    int n_placing = 0;
    bool cache = false;
    for (int d = 0; d < SM_N_DESIGNS; d++) {
        n_placing += t->ipc.design[d] && places(sm_design_get((sm_rf_design_id)d));
        cache |= t->ipc.design[d] && is_cache(sm_design_get((sm_rf_design_id)d));
    }
    char placers[160], caches[160];
    designs_with(placers, sizeof placers, places, "and");
    designs_with(caches, sizeof caches, is_cache, "or");
    if (n_placing > 1)
        return fail(ld, s, path, "%s each place the registers: turn on at most one of them",
                    placers);
    if (cache && t->freq.nbti_reorg)
        return fail(ld, s, path, "with %s the cache sets the clock: nbti_reorg, "
                                 "which re-pairs the main RF's sub-banks, does not apply",
                    caches);
    if (t->rfc_rotation && !cache)
        return fail(ld, s, path, "rfc_rotation = true needs a register-file cache (%s)", caches);
    if (t->rfc_cell_area != 1.0 && !cache)
        return fail(ld, s, path, "rfc_cell_area needs a register-file cache (%s)", caches);
    return 0;
}

static int read_technique(const loader *ld, const config_setting_t *e, int idx, dse_technique *t)
{
    char path[64];
    snprintf(path, sizeof path, "techniques[%d]", idx);
    if (config_setting_type(e) == CONFIG_TYPE_STRING) {
        if (!dse_technique_preset(config_setting_get_string(e), t))
            return unknown_preset(ld, e, path, config_setting_get_string(e));
        return 0;
    }
    if (config_setting_type(e) != CONFIG_TYPE_GROUP)
        return fail(ld, e, path, "expected a technique name or a group { name = ...; }");
    dse_technique_preset("baseline", t);
    if (read_name(ld, e, path, t->name, sizeof t->name))
        return -1;
    const config_setting_t *b = config_setting_get_member(e, "base");
    if (b && read_technique_base(ld, b, path, t))
        return -1;
    static const char *const skip[] = { "name", "base", NULL };
    dse__keyset tk;
    dse__technique_keys(&tk);
    if (read_group(ld, e, path, tk.key, tk.n, t, skip))
        return -1;
    return check_technique(ld, e, path, t);
}

/* ---- workloads ------------------------------------------------------------------------ */

static int read_workload(const loader *ld, const config_setting_t *e, int idx, sm_profile *w);

/* Loads an embedded profile (sweeps/workloads/NAME.cfg compiled in) by name. */
static int builtin_profile(const loader *ld, const config_setting_t *at, const char *path,
                           const char *name, sm_profile *w)
{
    const char *text = dse_embedded_find_workload(name);
    if (!text) {
        char list[768] = "", hint[96];
        size_t used = 0;
        dse_suggest sg;
        dse_suggest_init(&sg, name, strlen(name));
        for (const char *const *p = dse_embedded_workload_names(); *p; p++) {
            dse_suggest_offer(&sg, *p);
            if (used < sizeof list)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                         used ? ", " : "", *p);
        }
        return fail(ld, at, path, "unknown workload \"%.64s\"%s accepted: %s", name,
                    sg.best ? dse_suggest_format(&sg, hint, sizeof hint) : ",", list);
    }
    config_t cfg;
    config_init(&cfg);
    int rc = -1;
    char file[96];
    snprintf(file, sizeof file, "<built-in sweeps/workloads/%s.cfg>", name);
    loader inner = { file, ld->err, NULL, 0 };
    if (config_read_string(&cfg, text) != CONFIG_TRUE)
        fail(&inner, NULL, NULL, "line %d: %s", config_error_line(&cfg), config_error_text(&cfg));
    else if (!config_lookup(&cfg, "workload"))
        fail(&inner, NULL, NULL, "no `workload` group");
    else
        rc = read_workload(&inner, config_lookup(&cfg, "workload"), 0, w);
    config_destroy(&cfg);
    return rc;
}

static int read_workload(const loader *ld, const config_setting_t *e, int idx, sm_profile *w)
{
    char path[64];
    snprintf(path, sizeof path, "workloads[%d]", idx);
    sm_profile_default(w);
    if (config_setting_type(e) == CONFIG_TYPE_STRING)
        return builtin_profile(ld, e, path, config_setting_get_string(e), w);
    if (config_setting_type(e) != CONFIG_TYPE_GROUP)
        return fail(ld, e, path, "expected a workload name or a group { name = ...; }");
    const config_setting_t *b = config_setting_get_member(e, "base");
    if (b) {
        if (!config_setting_get_string(b))
            return fail(ld, b, path, "base must be a workload name");
        if (builtin_profile(ld, b, path, config_setting_get_string(b), w))
            return -1;
    }
    if (read_name(ld, e, path, w->name, sizeof w->name))
        return -1;
    static const char *const skip[] = { "name", "base", "trace", NULL };
    return read_group(ld, e, path, dse__workload_keys, dse__n_workload_keys, w, skip);
}

/* `trace = "FILE"` (docs/traces.md, "Running a trace"): the kernel's shape comes from
 * the trace; a shape key stated beside it must agree. */
static int read_trace(const loader *ld, const config_setting_t *e, int idx, dse_sweep *sw)
{
    sm_profile *w = &sw->workloads[idx];
    char path[64], key[96];
    snprintf(path, sizeof path, "workloads[%d].trace", idx);
    const config_setting_t *s =
        config_setting_type(e) == CONFIG_TYPE_GROUP ? config_setting_get_member(e, "trace") : NULL;
    if (!s) {
        snprintf(key, sizeof key, "workloads[%d].trace_hash", idx);
        if (w->trace_hash)
            return fail(ld, e, key, "is set by the loader for a workload with `trace = "
                        "\"FILE\"`, accepted: 0 without one");
        return 0;
    }
    const char *str = config_setting_get_string(s);
    if (!str || !*str || strlen(str) >= sizeof w->trace || out_text_check(str, NULL))
        return fail(ld, s, path, "expected a file name of 1 to %zu characters, no control "
                    "characters", sizeof w->trace - 1);
    snprintf(w->trace, sizeof w->trace, "%s", str);
    sm_profile stated = *w;
    char which[32], msg[512];
    if (dse__trace_workload(w, &sw->traces[idx], ld->err, which, sizeof which, msg, sizeof msg)) {
        snprintf(key, sizeof key, "workloads[%d].%s", idx, which);
        return which[0] ? fail(ld, s, key, "%s", msg) : -1;
    }
    static const struct { const char *name; size_t off; } shape[] = {
        { "grid_blocks", offsetof(sm_profile, grid_blocks) },
        { "block_threads", offsetof(sm_profile, block_threads) },
        { "regs_per_thread", offsetof(sm_profile, regs_per_thread) },
        { "insts_per_warp", offsetof(sm_profile, insts_per_warp) },
    };
    for (size_t i = 0; i < sizeof shape / sizeof *shape; i++) {
        const config_setting_t *k = config_setting_get_member(e, shape[i].name);
        int was = *(const int *)((const char *)&stated + shape[i].off);
        int now = *(const int *)((const char *)w + shape[i].off);
        snprintf(key, sizeof key, "workloads[%d].%s", idx, shape[i].name);
        if (k && was != now)
            return fail(ld, k, key, "%d, but the trace %s gives %d (a trace workload's shape "
                        "is its trace's), accepted: %d", was, w->trace, now, now);
    }
    return 0;
}

int dse_sweep_shipped_workload(const char *name, const sm_config *sm, sm_profile *w, FILE *err)
{
    if (!dse_embedded_find_workload(name))
        return 1;
    loader ld = { "<built-in workloads>", err, NULL, 0 };
    char key[64], msg[256];
    sm_profile_default(w);
    if (builtin_profile(&ld, NULL, "workload", name, w))
        return -1;
    if (sm_profile_check(w, sm, key, sizeof key, msg, sizeof msg))
        return fail(&ld, NULL, key, "shipped workload %s does not fit this sweep's SM: %s",
                    name, msg);
    return 0;
}

/* ---- top level ------------------------------------------------------------------------ */

static int read_list_of(const loader *ld, const config_setting_t *s, const char *what, int max,
                        int *count)
{
    if (config_setting_type(s) != CONFIG_TYPE_LIST && config_setting_type(s) != CONFIG_TYPE_ARRAY)
        return fail(ld, s, what, "expected a list ( ... ), got %s",
                    type_name(config_setting_type(s)));
    int n = config_setting_length(s);
    if (n < 1 || n > max)
        return fail(ld, s, what, "expected 1 to %d entries, got %d", max, n);
    *count = n;
    return 0;
}

static int check_unique(const loader *ld, const config_setting_t *s, const char *what,
                        const char *name, int idx, const char *(*name_of)(const dse_sweep *, int),
                        const dse_sweep *sw)
{
    for (int j = 0; j < idx; j++)
        if (!strcmp(name_of(sw, j), name))
            return fail(ld, s, what, "duplicate name \"%s\"", name);
    return 0;
}

static const char *technique_name(const dse_sweep *s, int i) { return s->techniques[i].name; }
static const char *workload_name(const dse_sweep *s, int i) { return s->workloads[i].name; }

static int read_techniques(const loader *ld, const config_setting_t *l, dse_sweep *sw)
{
    if (read_list_of(ld, l, "techniques", DSE_MAX_TECHNIQUES, &sw->n_techniques))
        return -1;
    for (int i = 0; i < sw->n_techniques; i++) {
        const config_setting_t *e = config_setting_get_elem(l, (unsigned)i);
        if (read_technique(ld, e, i, &sw->techniques[i]) ||
            check_unique(ld, e, "techniques", sw->techniques[i].name, i, technique_name, sw))
            return -1;
    }
    return 0;
}

static int read_workloads(const loader *ld, const config_setting_t *l, dse_sweep *sw)
{
    if (read_list_of(ld, l, "workloads", DSE_MAX_WORKLOADS, &sw->n_workloads))
        return -1;
    for (int i = 0; i < sw->n_workloads; i++) {
        const config_setting_t *e = config_setting_get_elem(l, (unsigned)i);
        if (read_workload(ld, e, i, &sw->workloads[i]) || read_trace(ld, e, i, sw) ||
            check_unique(ld, e, "workloads", sw->workloads[i].name, i, workload_name, sw))
            return -1;
    }
    return 0;
}

static void sweep_defaults(dse_sweep *sw, const char *name)
{
    memset(sw, 0, sizeof *sw);
    snprintf(sw->name, sizeof sw->name, "%s", name);
    sw->chips = (dse_chips){ .count = 100, .seed = 1 };
    var_params_default(&sw->var);
    sm_config_default(&sw->sm);
    sw->output = (dse_output){ .n_trace_chips = 1, .trace_chips = { 0 } };
    dse_energy_default(&sw->energy);
}

/* An unknown top-level key, with the nearest section or list name as a suggestion. */
static int unknown_top_key(const loader *ld, const config_setting_t *s)
{
    static const char *const lists[] = { "name", "techniques", "workloads" };
    const char *name = config_setting_name(s);
    dse_suggest sg;
    char hint[96];
    dse_suggest_init(&sg, name, strlen(name));
    for (size_t i = 0; i < dse__n_sections; i++)
        dse_suggest_offer(&sg, dse__sections[i].name);
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        dse_suggest_offer(&sg, lists[i]);
    return fail(ld, s, name, "unknown key%s (see docs/sweep-format.md)",
                dse_suggest_format(&sg, hint, sizeof hint));
}

static int read_sections(const loader *ld, const config_setting_t *root, dse_sweep *sw)
{
    for (int i = 0; i < config_setting_length(root); i++) {
        const config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
        const char *name = config_setting_name(s);
        const dse__section *sec = dse__section_find(name);
        int rc;
        if (sec)
            rc = read_group(ld, s, name, sec->keys, sec->n_keys, (char *)sw + sec->offset, NULL);
        else if (!strcmp(name, "name")) {
            const char *str = config_setting_get_string(s);
            rc = (!str || !*str || strlen(str) >= sizeof sw->name)
                     ? fail(ld, s, "name", "expected a string of 1 to %zu characters",
                            sizeof sw->name - 1)
                 : out_text_check(str, NULL)
                     ? fail(ld, s, "name", "a control character (a line break?) is not allowed "
                            "in the sweep's name")
                     : (snprintf(sw->name, sizeof sw->name, "%s", str), 0);
        } else if (!strcmp(name, "techniques"))
            rc = read_techniques(ld, s, sw);
        else if (!strcmp(name, "workloads") || !strcmp(name, "axes"))
            rc = 0; /* workloads after `sm`, whose knobs the profile checks need; axes last */
        else
            rc = unknown_top_key(ld, s);
        if (rc)
            return -1;
    }
    const config_setting_t *w = config_setting_get_member(root, "workloads");
    return w ? read_workloads(ld, w, sw) : 0;
}

/* The setting a cross-check names, or the closest enclosing group, for its line. */
static const config_setting_t *setting_for(const config_t *cfg, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    for (;;) {
        const config_setting_t *s = config_lookup(cfg, buf);
        if (s)
            return s;
        char *dot = strrchr(buf, '.');
        if (!dot)
            return NULL;
        *dot = '\0';
    }
}

/* The first of these settings present in the file, else the closest group, for a line. */
static const config_setting_t *first_setting(const config_t *cfg, const char *const *paths)
{
    for (int i = 0; paths[i]; i++)
        if (config_lookup(cfg, paths[i]))
            return config_lookup(cfg, paths[i]);
    return setting_for(cfg, paths[0]);
}

static int field_known(const var_params *fields, int n, const var_params *v)
{
    for (int i = 0; i < n; i++)
        if (var_params_same_field(&fields[i], v))
            return 1;
    return 0;
}

/* The chip model is built once here, as every rank will build it: what it refuses (a
 * circulant embedding over 2^22 points, a covariance that stays indefinite, a Cholesky
 * grid too large) is a user error with a line, not an MPI_Abort mid-run. */
static int check_chip_model(const loader *ld, const config_t *cfg, const dse_sweep *sw)
{
    int rc;
    if (field_known(ld->fields_ok, ld->n_fields_ok, &sw->var)) {
        char key[64], msg[256]; /* the field is known good: the knobs' ranges remain */
        rc = var_params_check(&sw->var, key, sizeof key, msg, sizeof msg) ? VAR_EINVAL : 0;
    } else
        rc = var_params_check_field(&sw->var);
    if (!rc)
        return 0;
    static const char *const where[] = { "variation.phi", "variation.grid_cols",
                                         "variation.method", "floorplan", NULL };
    return fail(ld, first_setting(cfg, where), "variation", "%s", var_strerror(rc));
}

/* A lower bound on the cycles of one SM run: each scheduler issues at most one
 * instruction a cycle, and a warp at most one.  A workload over sm.max_cycles by this
 * bound can only fail; one under it may still hit the limit, which ends the run with
 * one line (docs/driver.md). */
static double min_cycles(const dse_sweep *sw, const sm_profile *w, double *issue)
{
    int share = sm_sim_share(&sw->sm, w, 0, sw->var.floorplan.n_sms); /* SM 0's is largest */
    double warps = (double)(share > 0 ? share : 0) * ((w->block_threads + 31) / 32);
    *issue = warps * w->insts_per_warp / sw->sm.n_schedulers;
    return fmax(*issue, (double)w->insts_per_warp);
}

static int check_cycle_budget(const loader *ld, const config_t *cfg, const dse_sweep *sw)
{
    for (int i = 0; i < sw->n_workloads; i++) {
        double issue, need = min_cycles(sw, &sw->workloads[i], &issue);
        if (need <= (double)sw->sm.max_cycles)
            continue;
        char wpath[32];
        snprintf(wpath, sizeof wpath, "workloads.[%d]", i);
        const char *const where[] = { "sm.max_cycles", wpath, NULL };
        return fail(ld, first_setting(cfg, where), "sm.max_cycles",
                    "workload %s needs at least %.0f cycles on one SM (%s), more than "
                    "sm.max_cycles = %lld", sw->workloads[i].name, need,
                    need == issue ? "its instructions over the warp schedulers"
                                  : "one warp's instructions, one a cycle",
                    (long long)sw->sm.max_cycles);
    }
    return 0;
}

/* Each workload against the SM (a block must fit it), once every section is read: the
 * sm section may follow the workloads, and built-in workloads have no setting of their
 * own (the line is then that of the SM key that refuses them). */
static int check_workloads(const loader *ld, const config_t *cfg, const dse_sweep *sw)
{
    const config_setting_t *list = config_lookup(cfg, "workloads");
    for (int i = 0; i < sw->n_workloads; i++) {
        char key[64], msg[256], path[96];
        if (!sm_profile_check(&sw->workloads[i], &sw->sm, key, sizeof key, msg, sizeof msg))
            continue;
        const config_setting_t *e = list ? config_setting_get_elem(list, (unsigned)i) : NULL;
        const config_setting_t *at = e && config_setting_type(e) == CONFIG_TYPE_GROUP
                                         ? config_setting_get_member(e, key) : NULL;
        const char *sm_key = !strcmp(key, "regs_per_thread") ? "sm.n_registers"
                             : !strcmp(key, "block_threads") ? "sm.max_threads" : NULL;
        const char *const where[] = { sm_key ? sm_key : "sm", NULL };
        if (!at && !e)
            at = first_setting(cfg, where);
        snprintf(path, sizeof path, "workloads[%d].%s", i, key);
        return fail(ld, at ? at : e, path, "%s (workload %s)", msg, sw->workloads[i].name);
    }
    return 0;
}

/* The SM model keeps n_banks x entries_per_bank register vectors of 32 lanes: every
 * design that places registers (reg_release's physical pool, the caches' banks after
 * the main RF's) needs them to hold the registers the SM allocates blocks from. */
static int check_storage(const loader *ld, const config_t *cfg, const dse_sweep *sw)
{
    const var_floorplan *f = &sw->var.floorplan;
    long vectors = (long)f->n_banks * f->entries_per_bank;
    const char *const where[] = { "floorplan.entries_per_bank", "floorplan.n_banks",
                                  "sm.n_registers", NULL };
    if (vectors * 32 < sw->sm.n_registers)
        return fail(ld, first_setting(cfg, where), "floorplan.entries_per_bank",
                    "the register file must hold sm.n_registers = %d: n_banks x "
                    "entries_per_bank x 32 lanes = %d x %d x 32 = %ld, accepted: "
                    "entries_per_bank >= %ld", sw->sm.n_registers, f->n_banks,
                    f->entries_per_bank, vectors * 32,
                    ((long)sw->sm.n_registers / 32 + f->n_banks - 1) / f->n_banks);
    for (int i = 0; i < sw->n_techniques; i++)
        if (dse_technique_cache_entries(sw, &sw->techniques[i]) &&
            2 * f->n_banks > SM_MAX_BANKS) {
            const char *const nb[] = { "floorplan.n_banks", NULL };
            return fail(ld, first_setting(cfg, nb), "floorplan.n_banks",
                        "technique '%s': its register-file cache takes as many banks as the "
                        "main RF, got %d, accepted: [1, %d]", sw->techniques[i].name,
                        f->n_banks, SM_MAX_BANKS / 2);
        }
    return 0;
}

static int check_sweep(const loader *ld, const config_t *cfg, dse_sweep *sw)
{
    char key[64], msg[256];
    if (var_params_check(&sw->var, key, sizeof key, msg, sizeof msg))
        return fail(ld, setting_for(cfg, key), key, "%s", msg);
    if (sm_config_check(&sw->sm, key, sizeof key, msg, sizeof msg)) {
        char path[96];
        snprintf(path, sizeof path, "sm.%s", key);
        return fail(ld, setting_for(cfg, path), path, "%s", msg);
    }
    for (int i = 0; i < sw->output.n_trace_chips; i++)
        if (sw->output.trace_chips[i] >= sw->chips.count)
            return fail(ld, setting_for(cfg, "output.trace_chips"), "output.trace_chips",
                        "chip %d does not exist (chips.count = %d)", sw->output.trace_chips[i],
                        sw->chips.count);
    for (int i = 0; i < sw->n_techniques; i++) {
        int entries = dse_technique_cache_entries(sw, &sw->techniques[i]);
        if (entries && entries < sw->var.floorplan.n_banks)
            return fail(ld, setting_for(cfg, "sm.group_size"), "sm.group_size",
                        "technique '%s': its register-file cache (group_size x rfc_regs = %d "
                        "register vectors) needs one per bank (floorplan.n_banks = %d)",
                        sw->techniques[i].name, entries, sw->var.floorplan.n_banks);
    }
    return check_workloads(ld, cfg, sw) || check_storage(ld, cfg, sw) ||
                   check_cycle_budget(ld, cfg, sw) || check_chip_model(ld, cfg, sw)
               ? -1 : 0;
}

/* A workload knob must leave every profile valid for the SM (read_workloads' check). */
static int check_point_profiles(const loader *ld, const dse_sweep *p)
{
    char key[64], msg[256];
    for (int i = 0; i < p->n_workloads; i++)
        if (sm_profile_check(&p->workloads[i], &p->sm, key, sizeof key, msg, sizeof msg))
            return fail(ld, NULL, key, "workload %s: %s", p->workloads[i].name, msg);
    return 0;
}

/* Every design point must be a sweep the loader accepts: the cross-checks of
 * check_sweep on each point's values, said as one line naming the point's values. */
static int check_points(const loader *ld, const config_t *cfg, const dse_sweep *sw)
{
    enum { FIELDS = 64 }; /* distinct accepted fields remembered; more are checked anew */
    var_params fields[FIELDS] = { sw->var };
    int n_fields = 1;
    int n = sw->axes.design == DSE_DESIGN_NSGA2 ? sw->axes.population : dse_axes_points(sw);
    for (int k = 0; k < n; k++) { /* a search: its first generation (the rest come later) */
        dse_sweep *p = dse_axes_point_sweep(sw, k);
        char *msg = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&msg, &len);
        loader quiet = { ld->file, mem, fields, n_fields };
        int rc = !p || !mem ? -1 : check_point_profiles(&quiet, p) || check_sweep(&quiet, cfg, p);
        if (mem)
            fclose(mem);
        if (!rc && n_fields < FIELDS && !field_known(fields, n_fields, &p->var))
            fields[n_fields++] = p->var;
        dse_sweep_free(p);
        if (rc && ld->err) {
            double v[DSE_AXES_MAX_KNOBS];
            dse_axes_point_values(sw, k, v);
            fprintf(ld->err, "%s:%d: key 'axes': point %d (", ld->file, sw->axes.line, k);
            for (int j = 0; j < sw->axes.n_knobs; j++) {
                char buf[64];
                dse_axes_value_text(&sw->axes.knobs[j], v[j], buf, sizeof buf);
                fprintf(ld->err, "%s%s = %s", j ? ", " : "", sw->axes.knobs[j].knob, buf);
            }
            const char *why = msg ? strstr(msg, ": ") : NULL; /* drop FILE:LINE */
            fprintf(ld->err, ") is not a valid sweep: %.*s\n",
                    why ? (int)strcspn(why + 2, "\n") : 13, why ? why + 2 : "out of memory");
        }
        free(msg);
        if (rc)
            return -1;
    }
    return 0;
}

static void fill_derived_defaults(dse_sweep *sw)
{
    static const char *const techniques[] = { "ideal", "baseline", "vl_rf", "vl_sb", "rf_bro", "pv_opt" };
    if (!sw->n_techniques)
        for (size_t i = 0; i < sizeof techniques / sizeof *techniques; i++)
            dse_technique_preset(techniques[i], &sw->techniques[sw->n_techniques++]);
    if (!sw->output.file[0])
        snprintf(sw->output.file, sizeof sw->output.file, "results/%s.h5", sw->name);
}

/* Without a `workloads` key a sweep runs every shipped profile. */
static int all_builtin_workloads(const loader *ld, const config_setting_t *root, dse_sweep *sw)
{
    for (const char *const *p = dse_embedded_workload_names(); *p; p++) {
        if (sw->n_workloads == DSE_MAX_WORKLOADS)
            return fail(ld, root, "workloads", "too many built-in workloads");
        sm_profile *w = &sw->workloads[sw->n_workloads++];
        sm_profile_default(w);
        if (builtin_profile(ld, root, "workloads", *p, w))
            return -1;
    }
    return 0;
}

static dse_sweep *load_config(config_t *cfg, const loader *ld, const char *name)
{
    dse_sweep *sw = calloc(1, sizeof *sw);
    if (!sw)
        return NULL;
    sweep_defaults(sw, name);
    sw->trace_owner = sw; /* it owns the traces its workloads decode */
    snprintf(sw->source, sizeof sw->source, "%s", ld->file);
    if (read_sections(ld, config_root_setting(cfg), sw))
        goto fail;
    fill_derived_defaults(sw);
    if (!sw->n_workloads && all_builtin_workloads(ld, config_root_setting(cfg), sw))
        goto fail;
    if (check_sweep(ld, cfg, sw))
        goto fail;
    if (config_lookup(cfg, "axes") && (dse__axes_read(config_lookup(cfg, "axes"), ld->file,
                                                      ld->err, sw) || check_points(ld, cfg, sw)))
        goto fail;
    return sw;
fail:
    dse_sweep_free(sw);
    return NULL;
}

/* The default sweep name: the file's stem. */
static void stem(const char *path, char *out, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, n, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

/* libconfig's syntax error, on one line. */
static void syntax_error(const config_t *cfg, const char *path, FILE *err)
{
    if (!err)
        return;
    dse__fput_escaped(err, path);
    fprintf(err, ":%d: ", config_error_line(cfg));
    dse__fput_escaped(err, config_error_text(cfg) ? config_error_text(cfg) : "syntax error");
    fputc('\n', err);
}

/* text: the whole file, len bytes, NUL-terminated; path: for messages and the default
 * name. */
static dse_sweep *load(const char *text, size_t len, const char *path, FILE *err)
{
    if (dse__sweep_prescan(text, len, path, err))
        return NULL;
    config_t cfg;
    config_init(&cfg);
    loader ld = { path, err, NULL, 0 };
    char name[DSE_NAME_MAX];
    stem(path, name, sizeof name);
    dse_sweep *sw = NULL;
    if (config_read_string(&cfg, text) != CONFIG_TRUE)
        syntax_error(&cfg, path, err);
    else
        sw = load_config(&cfg, &ld, name);
    config_destroy(&cfg);
    return sw;
}

dse_sweep *dse_sweep_load_file(const char *path, FILE *err)
{
    size_t len = 0;
    char *text = dse__sweep_read(path, &len, err);
    dse_sweep *sw = text ? load(text, len, path, err) : NULL;
    free(text);
    return sw;
}

dse_sweep *dse_sweep_load_string(const char *text, const char *name, FILE *err)
{
    return load(text, strlen(text), name, err);
}

dse_sweep *dse_sweep_load_default(FILE *err)
{
    const char *text = dse_embedded_default_sweep();
    return load(text, strlen(text), "default.cfg", err);
}

void dse_sweep_free(dse_sweep *s)
{
    if (s)
        dse__sweep_free_traces(s);
    free(s);
}

int dse_sweep_override_chips(dse_sweep *s, long count, bool has_seed, uint64_t seed)
{
    if (count > 0)
        for (int i = 0; i < s->output.n_trace_chips; i++)
            if (s->output.trace_chips[i] >= count)
                return -1 - s->output.trace_chips[i];
    if (count > 0)
        s->chips.count = (int)count;
    if (has_seed)
        s->chips.seed = seed;
    return 0;
}
