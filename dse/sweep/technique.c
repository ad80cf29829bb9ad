/* The named register-file techniques of model.md section 5: one registry.
 *
 * Each preset is one row: its name, one line of what it is, the presets it is composed
 * from (applied first, in order, exactly as a user composes them in a sweep file with
 * `base = ["vl_sb", "fwas"]`) and the options it adds on top.  The preset list, `rfdse
 * list techniques`, the unknown-name messages and docs/sweep-format.md's table come
 * from this table.  Adding a preset is one row (and, for a new option, its setter). */
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dse_sweep.h"
#include "sm_design.h"

/* The figures' colours (docs/results-format.md, technique_colours): black and grey for
 * the two references, which no other technique gets, and twelve qualitative colours
 * from Paul Tol's schemes (bright, muted, vibrant, high-contrast), in the order a
 * technique without a colour of its own takes the free ones. */
enum { BLACK = -2, GREY = -1, BLUE, ORANGE, TEAL, RED, PURPLE, LIGHT_CYAN, GOLD, WINE, GREEN,
       MAGENTA, INDIGO, OLIVE, N_COLOURS };
static const char *const palette[N_COLOURS] = {
    "#0077bb", "#ee7733", "#009988", "#cc3311", "#aa4499", "#88ccee",
    "#ddaa33", "#882255", "#117733", "#ee3377", "#332288", "#999933",
};
static const char *const reference_colour[2] = { "#000000", "#777777" }; /* BLACK, GREY */

typedef struct preset {
    const char *name, *doc;
    const char *base[3];             /* composed from these first, NULL-terminated */
    void (*set)(dse_technique *t);   /* its own options on top, or NULL            */
    int colour;                      /* BLACK, GREY or an index into palette       */
} preset;

static void no_variation(dse_technique *t) { t->freq.variation = false; }
static void per_register(dse_technique *t) { t->freq.granularity = VAR_GRAN_REGISTER; }
static void per_vector_array(dse_technique *t) { t->freq.granularity = VAR_GRAN_VECTOR_ARRAY; }
static void per_sub_bank(dse_technique *t) { t->freq.granularity = VAR_GRAN_SUB_BANK; }
static void bank_org(dse_technique *t) { t->freq.bro = true; }
static void fast_bank_mapping(dse_technique *t) { t->ipc.fba_rm = true; }
static void two_level_sched(dse_technique *t) { t->ipc.scheduler = SM_SCHED_TWO_LEVEL; }
static void fast_warp_sched(dse_technique *t) { t->ipc.scheduler = SM_SCHED_FWAS; }
static void hybrid_banks(dse_technique *t) { t->ipc.hybrid = true; }
static void zero_gate(dse_technique *t) { t->ipc.design[SM_DESIGN_zero_gating] = true; }
static void interval_rfc(dse_technique *t) { t->ipc.design[SM_DESIGN_ltrf] = true; }
static void demand_rfc(dse_technique *t) { t->ipc.design[SM_DESIGN_rfc_demand] = true; }
static void reuse_buffers(dse_technique *t) { t->ipc.design[SM_DESIGN_operand_reuse] = true; }

/* reg_release with its defaults: renaming, consolidation, row-group gating. */
static void reg_release(dse_technique *t) { t->ipc.design[SM_DESIGN_reg_release] = true; }
/* A design's knob, by the name its own file declares (model/sm_design.h). */
static void knob(dse_technique *t, const char *name, double v)
{
    int rc = sm_technique_knob_set(&t->ipc, name, v);
    assert(rc == 0); /* every preset is applied by tests/dse/test_sweep.c */
    (void)rc;
}
static void rr_first_touch(dse_technique *t)
{
    reg_release(t);
    knob(t, "rr_release", false);
    knob(t, "rr_gating", SM_RR_GATE_REGISTER);
}
static void rr_register_gating(dse_technique *t) { knob(t, "rr_gating", SM_RR_GATE_REGISTER); }
static void rr_wear_level(dse_technique *t) { knob(t, "rr_policy", SM_RR_WEAR_LEVEL); }
static void rr_fast_first(dse_technique *t) { knob(t, "rr_policy", SM_RR_FAST_FIRST); }
static void rr_fast_spread(dse_technique *t) { knob(t, "rr_policy", SM_RR_FAST_SPREAD); }

/* nbti_opt: kernel-level re-pairing and block-level renaming by intent (model.md section
 * 7): R0 of every warp first, so the banks that hold any warp's small register IDs go to
 * the fastest virtual banks; the text's last-warp walk is nbti_rename_order = "last_warp". */
static void nbti_both(dse_technique *t)
{
    t->freq.nbti_reorg = true;
    t->ipc.design[SM_DESIGN_nbti_rename] = true;
    knob(t, "nbti_rename_order", SM_RENAME_ALL_WARPS);
}

/* One row per preset: name, what it is, its setter (or NULL), up to two presets it is
 * composed from (or NULL). */
#define PRESETS(X)                                                                         \
    X(baseline, "every register counts: frequency set by the slowest one; 1-cycle accesses", \
      NULL, NULL, NULL, GREY)                                                              \
    X(ideal, "no process variation and no aging: the normaliser of IPC and performance",   \
      no_variation, NULL, NULL, BLACK)                                                     \
    X(vl_rf, "slowest registers (100 - fast_percent %) ignored for frequency, 2-cycle",    \
      per_register, NULL, NULL, LIGHT_CYAN)                                                \
    X(vl_rv, "as vl_rf, classified per array of 32 neighbouring register vectors",         \
      per_vector_array, NULL, NULL, INDIGO)                                                \
    X(vl_sb, "as vl_rf, classified per sub-bank (vertical half of a bank)", per_sub_bank,  \
      NULL, NULL, TEAL)                                                                    \
    X(rf_bro, "vl_sb + virtual banks of same-speed sub-banks, fastest first", bank_org,    \
      "vl_sb", NULL, BLUE)                                                                 \
    X(fba_rm, "rf_bro + fast-bank-aware register mapping at kernel launch",                \
      fast_bank_mapping, "rf_bro", NULL, GREEN)                                            \
    X(two_level, "rf_bro + two-level warp scheduling (groups of 8 warps)", two_level_sched, \
      "rf_bro", NULL, OLIVE)                                                               \
    X(fwas, "rf_bro + fast-warp-aware scheduling: all-fast instructions first",            \
      fast_warp_sched, "rf_bro", NULL, GOLD)                                               \
    X(hybrid, "rf_bro + hybrid fast/slow banks for fixed-lane register vectors",           \
      hybrid_banks, "rf_bro", NULL, WINE)                                                  \
    X(pv_opt, "fwas + hybrid: the core paper's process-variation technique", NULL, "fwas", \
      "hybrid", RED)                                                                       \
    X(nbti_opt, "rf_bro + re-pairing by current delay and block-level bank renaming",      \
      nbti_both, "rf_bro", NULL, ORANGE)                                                   \
    X(pv_opt_nbti_opt, "pv_opt + nbti_opt", NULL, "pv_opt", "nbti_opt", MAGENTA)           \
    X(zero_gating, "inactive and zero-valued lanes neither written nor read (compose it)", \
      zero_gate, NULL, NULL, LIGHT_CYAN)                                                   \
    X(ltrf, "two_level + register-file cache filled by register-interval prefetch",        \
      interval_rfc, "two_level", NULL, PURPLE)                                             \
    X(rfc_demand, "two_level + register-file cache filled on write (LTRF's comparison)",   \
      demand_rfc, "two_level", NULL, GOLD)                                                 \
    X(reg_release, "registers freed at their last read, renamed, row groups power-gated",  \
      reg_release, NULL, NULL, GREEN)                                                      \
    X(rr_first_touch, "registers powered from their first write to the warp's end",        \
      rr_first_touch, NULL, NULL, OLIVE)                                                   \
    X(rr_reg_gating, "reg_release gating each register instead of row groups",             \
      rr_register_gating, "reg_release", NULL, INDIGO)                                     \
    X(rr_wear_level, "reg_release placing values to spread allocations over row groups",   \
      rr_wear_level, "reg_release", NULL, WINE)                                            \
    X(rr_fast_first, "reg_release placing values in fast storage first (composes with PV)", \
      rr_fast_first, "reg_release", NULL, GOLD)                                            \
    X(rr_fast_spread, "reg_release in fast storage first, spread over the fast banks",     \
      rr_fast_spread, "reg_release", NULL, TEAL)                                           \
    X(pv_opt_rr, "pv_opt + reg_release with fast_first", NULL, "pv_opt", "rr_fast_first", INDIGO) \
    X(nbti_opt_rr, "nbti_opt + reg_release", NULL, "nbti_opt", "reg_release", OLIVE)      \
    X(operand_reuse, "operand reuse buffers counted: bank reads a reuse cache saves (compose it)", \
      reuse_buffers, NULL, NULL, BLUE)

static const preset presets[] = {
#define ROW(name, doc, set, b1, b2, colour) { #name, doc, { b1, b2, NULL }, set, colour },
    PRESETS(ROW)
#undef ROW
};
#define N_PRESETS (sizeof presets / sizeof presets[0])

static const char *const preset_names[] = {
#define NAME(name, ...) #name,
    PRESETS(NAME)
#undef NAME
    NULL,
};

const char *const *dse_technique_preset_names(void) { return preset_names; }

static const preset *find(const char *name)
{
    for (size_t i = 0; i < N_PRESETS; i++)
        if (!strcmp(presets[i].name, name))
            return &presets[i];
    return NULL;
}

const char *dse_technique_preset_doc(const char *name)
{
    const preset *p = find(name);
    return p ? p->doc : NULL;
}

/* The bases' options, then the preset's own; bases may not form a cycle (checked by
 * tests/dse/test_sweep.c, every preset resolves). */
static void apply(const preset *p, dse_technique *t)
{
    for (int i = 0; i < 3 && p->base[i]; i++)
        apply(find(p->base[i]), t);
    if (p->set)
        p->set(t);
}

bool dse_technique_preset(const char *name, dse_technique *t)
{
    const preset *p = find(name);
    memset(t, 0, sizeof *t);
    var_technique_default(&t->freq);
    sm_technique_default(&t->ipc);
    t->rfc_cell_area = 1.0;
    snprintf(t->name, sizeof t->name, "%s", name);
    if (p)
        apply(p, t);
    return p != NULL;
}

/* The one definition of "is a register-file cache": a design turned on whose entry
 * declares cache_entries (model/sm_design.h). */
int dse_technique_cache_entries(const dse_sweep *s, const dse_technique *t)
{
    for (int d = 0; t->freq.variation && d < SM_N_DESIGNS; d++) {
        const sm_design_info *in = sm_design_get((sm_rf_design_id)d);
        if (t->ipc.design[d] && in->cache_entries)
            return in->cache_entries(&s->sm, sm_technique_knobs_const(&t->ipc,
                                                                      (sm_rf_design_id)d));
    }
    return 0;
}

/* Each technique its preset's colour when no earlier one of the list took it, then the
 * rest the free palette colours in order: distinct for up to N_COLOURS techniques
 * besides ideal and baseline (beyond, the palette repeats). */
void dse_technique_colours(const char *const *names, int n, char (*colour)[8])
{
    bool taken[N_COLOURS] = { false };
    int want[DSE_MAX_TECHNIQUES], next = 0;
    assert(n <= DSE_MAX_TECHNIQUES);
    for (int i = 0; i < n; i++) {
        const preset *p = find(names[i]);
        want[i] = p ? p->colour : N_COLOURS; /* N_COLOURS: none of its own */
        if (want[i] >= 0 && want[i] < N_COLOURS && !taken[want[i]])
            taken[want[i]] = true;
        else if (want[i] >= 0)
            want[i] = N_COLOURS;
    }
    for (int i = 0; i < n; i++) {
        if (want[i] == N_COLOURS) {
            while (next < N_COLOURS && taken[next])
                next++;
            want[i] = next < N_COLOURS ? next : i % N_COLOURS;
            if (next < N_COLOURS)
                taken[next] = true;
        }
        snprintf(colour[i], 8, "%s",
                 want[i] < 0 ? reference_colour[want[i] - BLACK] : palette[want[i]]);
    }
}
