/* A part of a sweep: `rfdse run --techniques a,b --workloads x,y`. */
#include <stdlib.h>
#include <string.h>

#include "dse_sweep.h"

static const char *name_of(const dse_sweep *s, bool technique, int i)
{
    return technique ? s->techniques[i].name : s->workloads[i].name;
}

/* "accepted: a, b, c" for the one-line error. */
static void accepted(const dse_sweep *s, bool technique, char *err, size_t n, size_t used)
{
    int k = technique ? s->n_techniques : s->n_workloads;
    for (int i = 0; i < k && used < n; i++)
        used += (size_t)snprintf(err + used, n - used, "%s%s", i ? ", " : "",
                                 name_of(s, technique, i));
}

/* Marks the names of one comma-separated list (NULL: every name). */
static int mark(const dse_sweep *s, bool technique, const char *list, bool *on, char *err,
                size_t n)
{
    int k = technique ? s->n_techniques : s->n_workloads;
    for (int i = 0; i < k; i++)
        on[i] = list == NULL;
    for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL) {
        size_t len = strcspn(p, ",");
        int hit = -1;
        for (int i = 0; i < k && hit < 0; i++)
            if (strlen(name_of(s, technique, i)) == len && !strncmp(p, name_of(s, technique, i), len))
                hit = i;
        if (hit < 0) {
            dse_suggest sg;
            char hint[96];
            dse_suggest_init(&sg, p, len);
            for (int i = 0; i < k; i++)
                dse_suggest_offer(&sg, name_of(s, technique, i));
            size_t used = (size_t)snprintf(err, n, "--%s: '%.*s' is not in the sweep%s accepted: ",
                                           technique ? "techniques" : "workloads",
                                           (int)(len < 64 ? len : 64), p,
                                           sg.best ? dse_suggest_format(&sg, hint, sizeof hint)
                                                   : ",");
            accepted(s, technique, err, n, used < n ? used : n);
            return -1;
        }
        on[hit] = true;
    }
    return 0;
}

int dse_selection_parse(const dse_sweep *s, const char *techniques, const char *workloads,
                        dse_selection *sel, char *err, size_t n)
{
    memset(sel, 0, sizeof *sel);
    return mark(s, true, techniques, sel->technique, err, n) ||
                   mark(s, false, workloads, sel->workload, err, n) ? -1 : 0;
}

bool dse_selection_all_workloads(const dse_sweep *s, const dse_selection *sel)
{
    for (int i = 0; i < s->n_workloads; i++)
        if (!sel->workload[i])
            return false;
    return true;
}

/* One option of the selection's text, in the sweep's order; nothing when it names all. */
static size_t option_text(const dse_sweep *s, bool technique, const bool *on, char *buf,
                          size_t n, size_t used)
{
    int k = technique ? s->n_techniques : s->n_workloads, count = 0;
    for (int i = 0; i < k; i++)
        count += on[i];
    if (count == k)
        return used;
    used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s--%s ", used ? " " : "",
                             technique ? "techniques" : "workloads");
    for (int i = 0, first = 1; i < k; i++)
        if (on[i]) {
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s",
                                     first ? "" : ",", name_of(s, technique, i));
            first = 0;
        }
    return used;
}

int dse_selection_text(const dse_sweep *s, const dse_selection *sel, char *buf, size_t n)
{
    buf[0] = '\0';
    size_t used = option_text(s, true, sel->technique, buf, n, 0);
    used = option_text(s, false, sel->workload, buf, n, used);
    return used < n ? 0 : -1;
}

dse_sweep *dse_sweep_select(const dse_sweep *s, const dse_selection *sel, bool all_workloads)
{
    dse_sweep *out = malloc(sizeof *out);
    if (!out)
        return NULL;
    *out = *s;
    out->n_techniques = out->n_workloads = 0;
    for (int i = 0; i < s->n_techniques; i++)
        if (sel->technique[i])
            out->techniques[out->n_techniques++] = s->techniques[i];
    for (int i = 0; i < s->n_workloads; i++)
        if (all_workloads || sel->workload[i])
            out->workloads[out->n_workloads++] = s->workloads[i];
    return out;
}
