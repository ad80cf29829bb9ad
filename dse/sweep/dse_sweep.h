/* dse_sweep.h - the fully resolved description of one sweep.
 *
 * The sweep loader (sweep_load.c) is the only code in rfdse that reads libconfig.  It
 * returns one dse_sweep with every knob resolved (defaults filled, presets expanded,
 * ranges checked); the rest of the program reads it through a const pointer and never
 * changes it.  dse_sweep_write() prints it back as libconfig text that loads again to
 * an identical description (the round trip `rfdse validate` relies on).
 */
#ifndef RFDSE_DSE_SWEEP_H
#define RFDSE_DSE_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dse_axes.h"
#include "out.h"
#include "sm_params.h"
#include "var_params.h"

#define DSE_NAME_MAX 32
#define DSE_PATH_MAX 4096 /* PATH_MAX: output paths are checked against OUT_PATH_MAX */
#define DSE_MAX_TECHNIQUES 64
#define DSE_MAX_WORKLOADS 64
#define DSE_MAX_TRACE_CHIPS 16

/* One technique: a named, composable option set (model.md section 5).  `ideal` is the
 * technique whose freq.variation is false. */
typedef struct dse_technique {
    char name[DSE_NAME_MAX];
    var_technique freq; /* frequency side: classification, BRO, NBTI reorganisation */
    sm_technique ipc;   /* IPC side: scheduler, FBA-RM, hybrid, NBTI renaming        */
    bool rfc_rotation;  /* a register-file cache's partitions rotate over its banks,
                           evening their NBTI duty (docs/model.md, "cache clock")    */
    double rfc_cell_area; /* its cells' area relative to the RF's (1): Pelgrom       */
} dse_technique;

typedef struct dse_chips {
    int count;     /* Monte Carlo chips                 100 */
    uint64_t seed; /* root of every random stream       1   */
} dse_chips;

typedef struct dse_output {
    char file[OUT_PATH_MAX + 1];             /* results file, "results/<sweep>.h5" */
    int n_trace_chips;                       /* chips whose sub-banks are traced   */
    int trace_chips[DSE_MAX_TRACE_CHIPS];    /* default: chip 0                    */
} dse_output;

/* The register-file energy model (docs/model.md, "Energy"): defaults from CACTI for a
 * 4 KB register-file array at 40 nm, the size of one sub-bank (16 lanes x 64 rows x
 * 32 bits). */
typedef struct dse_energy {
    double access_pj;   /* dynamic energy of one access to a whole sub-bank, pJ  4.68 */
    double leakage_mw;  /* leakage power of one powered sub-bank, mW              2.8  */
    double clock_mhz;   /* SM clock at normalised frequency 1.0, MHz              1401 */
} dse_energy;

void dse_energy_default(dse_energy *e);

/* The energy of one SM run: `lane_accesses` register reads and writes x the lanes they
 * touch, over `cycles` cycles at normalised frequency `freq`, with the SM's `n_subs`
 * sub-banks powered for a share `powered` of their storage x time (1 without power
 * gating; gated storage leaks nothing); joules. */
void dse_energy_of(const dse_energy *e, int lanes_per_sub, int n_subs, double lane_accesses,
                   double cycles, double freq, double powered, double *dynamic_j,
                   double *leakage_j);

/* The energy of a register-file cache (ltrf, rfc_demand) over SM runs lasting `seconds`
 * in all (the sum of the runs' cycles / (freq x clock_mhz)): `lane_accesses` cache reads
 * and writes x the lanes they touch, each charged as a main-RF lane access; its cells,
 * `sub_banks` main-RF sub-banks' worth, always powered; every cell of area `cell_area`
 * (rfc_cell_area) x the RF cell's, which scales both (docs/model.md, "Energy"); joules. */
void dse_energy_cache_of(const dse_energy *e, int lanes_per_sub, double sub_banks,
                         double cell_area, double lane_accesses, double seconds,
                         double *dynamic_j, double *leakage_j);

typedef struct dse_sweep {
    char name[DSE_NAME_MAX];   /* sweep name (file stem unless set)     */
    char source[DSE_PATH_MAX]; /* file it was loaded from, for messages */
    dse_chips chips;
    var_params var;            /* floorplan, variation, timing, aging   */
    sm_config sm;
    int n_techniques;
    dse_technique techniques[DSE_MAX_TECHNIQUES];
    int n_workloads;
    sm_profile workloads[DSE_MAX_WORKLOADS];
    dse_output output;
    dse_energy energy;
    dse_axes axes;             /* design points over knobs (dse_axes.h); none: a plain sweep */
    /* The decoded streams of trace workloads, by the loaded sweep's workload index
     * (docs/traces.md); the profiles point into them.  Owned by the sweep the loader
     * returned (trace_owner == itself): copies of it (dse_sweep_select, design points)
     * share them and must not outlive it. */
    struct sm_trace *traces[DSE_MAX_WORKLOADS];
    const struct dse_sweep *trace_owner;
} dse_sweep;

/* Loads and resolves a sweep file.  On a user error, writes one line
 * "FILE:LINE: key 'K': message" to `err` (if not NULL), returns NULL. */
dse_sweep *dse_sweep_load_file(const char *path, FILE *err);

/* Same from text in memory; `name` is used for messages and as the default sweep name. */
dse_sweep *dse_sweep_load_string(const char *text, const char *name, FILE *err);

/* The embedded default sweep (sweeps/default.cfg compiled into the binary). */
dse_sweep *dse_sweep_load_default(FILE *err);

void dse_sweep_free(dse_sweep *s);

/* The command-line overrides of `rfdse run` and `rfdse submit`: chips.count when
 * count > 0, chips.seed when has_seed.  Returns 0, or the first traced chip
 * (output.trace_chips) the new count leaves out, as -1 - chip, changing nothing. */
int dse_sweep_override_chips(dse_sweep *s, long count, bool has_seed, uint64_t seed);

/* Prints the resolved sweep as libconfig text that loads back to an identical sweep. */
int dse_sweep_write(const dse_sweep *s, FILE *out);

/* Returns the resolved sweep as a malloc'ed string (for the results file). */
char *dse_sweep_to_string(const dse_sweep *s);

/* True when two sweeps describe the same computation (ignores name and source). */
bool dse_sweep_equal(const dse_sweep *a, const dse_sweep *b);

/* Sweeps that grow (sweep_grow.c): 0 when `grown` extends `old` (the sweep a results
 * file was made with): the same seed and knobs, at least its chips, every technique and
 * workload of it with the same options, every design point of it; new workloads only
 * without aging.  Else -1 and one line in why naming the key and its two values ("a
 * different seed: ..." or "a different sweep: ..."). */
int dse_sweep_extends(const dse_sweep *old, const dse_sweep *grown, char *why, size_t n);

/* map[k] = the index in `grown` of design point k of `old` (map[0] = 0 without axes);
 * -1 with why when a point of old is not one of grown. */
int dse_sweep_point_map(const dse_sweep *old, const dse_sweep *grown, int *map, char *why,
                        size_t n);

/* Index of a technique / workload by name, or -1. */
int dse_sweep_technique_index(const dse_sweep *s, const char *name);
int dse_sweep_workload_index(const dse_sweep *s, const char *name);

/* The shipped workload profile `name` (sweeps/workloads/NAME.cfg, compiled in) into *w,
 * checked against the SM configuration sm: 0; 1 if no shipped workload has that name;
 * -1 with one line on err if it does not fit sm. */
int dse_sweep_shipped_workload(const char *name, const sm_config *sm, sm_profile *w, FILE *err);

/* The preset technique `name` (baseline, ideal, vl_rf, ... pv_opt_nbti_opt) into *t;
 * returns false for an unknown name.  dse_technique_preset_names() lists them,
 * NULL-terminated. */
bool dse_technique_preset(const char *name, dse_technique *t);
const char *const *dse_technique_preset_names(void);

/* Figure colours "#rrggbb" of the techniques names[n] of one results file
 * (docs/results-format.md, technique_colours): each preset's own from the registry
 * unless an earlier name took it, ideal black and baseline grey, the others distinct
 * for up to 12 techniques besides those two. */
void dse_technique_colours(const char *const *names, int n, char (*colour)[8]);
/* Register vectors of the register-file cache that sets technique t's clock (ltrf,
 * rfc_demand: the active group's partitions, sm.group_size x rfc_regs), or 0 when
 * no cache does and the register file's classification sets it (technique.c). */
int dse_technique_cache_entries(const dse_sweep *s, const dse_technique *t);
/* One line on what preset `name` is, or NULL for an unknown name (dse/sweep/technique.c). */
const char *dse_technique_preset_doc(const char *name);

/* The nearest of offered names to a mistyped one, for "did you mean 'vth_sigma'?":
 * edit distance (a swap of neighbours counts one) at most DSE_SUGGEST_MAX, the first
 * offered of equally near ones; an exact match is never suggested (dse/sweep/suggest.c). */
#define DSE_SUGGEST_MAX 2
typedef struct dse_suggest {
    const char *got;  /* not NUL-terminated: len bytes */
    size_t len;
    const char *best; /* NULL: nothing near enough */
    int dist;
} dse_suggest;
void dse_suggest_init(dse_suggest *s, const char *got, size_t len);
void dse_suggest_offer(dse_suggest *s, const char *name);
/* ", did you mean 'NAME'?" in buf, or "" when nothing is near: buf. */
const char *dse_suggest_format(const dse_suggest *s, char *buf, size_t n);

/* A part of a sweep's techniques and workloads (rfdse run --techniques/--workloads):
 * flags by index in the sweep. */
typedef struct dse_selection {
    bool technique[DSE_MAX_TECHNIQUES];
    bool workload[DSE_MAX_WORKLOADS];
} dse_selection;

/* The names of two comma-separated lists (NULL selects every name).  A name not in
 * the sweep: one line in err listing the accepted ones, -1. */
int dse_selection_parse(const dse_sweep *s, const char *techniques, const char *workloads,
                        dse_selection *sel, char *err, size_t n);

/* True when the selection keeps every workload of s. */
bool dse_selection_all_workloads(const dse_sweep *s, const dse_selection *sel);

/* The selection as the options that make it, in the sweep's order ("--techniques a,b
 * --workloads x"); "" when it keeps everything.  -1 if buf is too small. */
int dse_selection_text(const dse_sweep *s, const dse_selection *sel, char *buf, size_t n);

/* A copy of s (malloc'ed, dse_sweep_free) with only the selected techniques and, unless
 * all_workloads, the selected workloads, in the sweep's order. */
dse_sweep *dse_sweep_select(const dse_sweep *s, const dse_selection *sel, bool all_workloads);

#endif
