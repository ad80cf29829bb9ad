/* rfdse list: what a sweep file can name, with one line each, from the tables that
 * define them (the technique registry, the shipped workloads, the key tables). */
#include <stdio.h>
#include <string.h>

#include "dse_cli.h"
#include "dse_embedded.h"
#include "dse_sweep.h"
#include "sweep_schema.h"

static const char help[] =
    "Usage: rfdse list techniques|workloads|knobs\n"
    "\n"
    "Lists what a sweep file can name, one line each:\n"
    "  techniques  the technique presets (techniques = ( \"NAME\", ... ) or base = \"NAME\")\n"
    "  workloads   the shipped workload profiles (workloads = ( \"NAME\", ... ))\n"
    "  knobs       every key: SECTION.KEY, what it is, its accepted range; the keys of a\n"
    "              technique or workload group as techniques[].KEY and workloads[].KEY\n"
    "`rfdse validate` prints the default value of every knob.\n"
    "\n"
    "Options:\n"
    "  -h, --help   show this help\n";

static void techniques(void)
{
    for (const char *const *p = dse_technique_preset_names(); *p; p++)
        printf("%-16s %s\n", *p, dse_technique_preset_doc(*p));
}

/* A shipped profile's first comment line is its one-line description. */
static void workloads(void)
{
    for (const char *const *p = dse_embedded_workload_names(); *p; p++) {
        const char *text = dse_embedded_find_workload(*p);
        const char *doc = text && text[0] == '#' ? text + 1 : "";
        doc += strspn(doc, " ");
        int len = (int)strcspn(doc, "\n");
        const char *colon = memchr(doc, ':', (size_t)len); /* "# nn: ..." -> "..." */
        if (colon && !strncmp(doc, *p, (size_t)(colon - doc))) {
            len -= (int)(colon + 1 - doc);
            doc = colon + 1 + strspn(colon + 1, " ");
            len = (int)strcspn(doc, "\n");
        }
        printf("%-16s %.*s\n", *p, len, doc);
    }
}

static void keys(const char *prefix, const dse__key *k, size_t n)
{
    char range[256], name[96];
    for (size_t i = 0; i < n; i++) {
        dse__key_range(&k[i], range, sizeof range);
        snprintf(name, sizeof name, "%s.%s", prefix, k[i].name);
        printf("%-28s %s; %s\n", name, k[i].doc, range);
    }
}

static void knobs(void)
{
    for (size_t i = 0; i < dse__n_sections; i++)
        keys(dse__sections[i].name, dse__sections[i].keys, dse__sections[i].n_keys);
    dse__keyset tk;
    dse__technique_keys(&tk);
    keys("techniques[]", tk.key, tk.n);
    keys("workloads[]", dse__workload_keys, dse__n_workload_keys);
}

int dse_cmd_list(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    const char *what = argc == 2 ? argv[1] : "";
    if (!strcmp(what, "techniques"))
        techniques();
    else if (!strcmp(what, "workloads"))
        workloads();
    else if (!strcmp(what, "knobs"))
        knobs();
    else
        return dse_cli_usage_error("list", "expected one of: techniques, workloads, knobs%s%s",
                                   argc > 1 ? "; got " : "", argc > 1 ? argv[1] : "");
    return DSE_EXIT_OK;
}
