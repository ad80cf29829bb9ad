/* sm_design.h - a register-file design's contract: what it declares and what it may call.
 *
 * A register-file design is a plug-in of the SM model (docs/architecture.md, "Extending
 * rfdse"): its file model/NAME.c defines `const sm__rf_design sm__design_NAME`, and one
 * line `X(NAME)` in SM_RF_DESIGNS (sm_designs.h) registers it.  The entry declares, in
 * that one file:
 *   - what it is (sm_design_info): a one-line doc, its traits (needs rf_bro, places the
 *     registers, is a register-file cache and how many entries it has), its knobs (key
 *     rows: name, type, range, default, doc) and its statistics;
 *   - its hooks (sm__rf_design below), which the SM calls at fixed points of a run.
 * From the entry come its sweep-file keys (`NAME = true` and its knob rows, in every
 * technique group), `rfdse list knobs`, the run-cache key, the loader's rules (rf_bro,
 * one design placing registers, what a cache may be composed with), its statistics in
 * `rfdse sm` and `rfdse sm --json`, and its knobs' defaults.
 *
 * This header is all a design's file needs: the hook contract, the bank ports and
 * parking warps.  Designs that rewrite the SM's own tables (the caches, reg_release,
 * nbti_rename, zero_gating) still read sm_internal.h; a design that only observes and
 * uses the calls below (model/operand_reuse.c) does not.
 */
#ifndef RFDSE_SM_DESIGN_H
#define RFDSE_SM_DESIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm.h"

/* ---- what a design declares ------------------------------------------------------- */

typedef enum { SM_KNOB_INT, SM_KNOB_BOOL, SM_KNOB_ENUM, SM_KNOB_DOUBLE } sm_knob_type;

/* One knob of a design: a sweep-file key of a technique group.  Its value lives in the
 * design's knob struct (at most SM_DESIGN_KNOB_BYTES, sm_params.h), inside
 * sm_technique.knobs[design]; INT and ENUM are `int`, BOOL `bool`, DOUBLE `double`. */
typedef struct sm_knob {
    const char *name;
    sm_knob_type type;
    size_t offset;                  /* of the value in the design's knob struct        */
    double min, max;                /* accepted range (INT, DOUBLE)                     */
    double def;                     /* default (ENUM: the value; BOOL: 0 or 1)          */
    const char *const *enum_names;  /* ENUM: NULL-terminated names by value             */
    const char *doc;                /* one line: what it is                             */
} sm_knob;

/* Knob rows: S is the design's knob struct, f its field. */
#define SM_KNOB_INT(S, f, lo, hi, def, doc) { #f, SM_KNOB_INT, offsetof(S, f), lo, hi, def, NULL, doc }
#define SM_KNOB_BOOL(S, f, def, doc) { #f, SM_KNOB_BOOL, offsetof(S, f), 0, 1, def, NULL, doc }
#define SM_KNOB_ENUM(S, f, names, def, doc) { #f, SM_KNOB_ENUM, offsetof(S, f), 0, 0, def, names, doc }
#define SM_KNOB_DOUBLE(S, f, lo, hi, def, doc) { #f, SM_KNOB_DOUBLE, offsetof(S, f), lo, hi, def, NULL, doc }

/* One statistic of a design, a counter in sm_stats.design[design][i] (at most
 * SM_DESIGN_MAX_STATS, sm.h); zero when the design is off. */
typedef struct sm_design_stat {
    const char *name; /* unique among all statistics (tests/model/test_design_registry.c) */
    const char *unit;
    const char *description;
} sm_design_stat;

typedef struct sm_design_info {
    const char *doc;         /* one line: `rfdse list knobs`, the key `NAME = true`     */
    bool needs_bro;          /* relies on rf_bro's virtual banks (bro = true)            */
    bool places_registers;   /* rewrites the warps' bank tables: at most one such design *
                              * per technique (they would overwrite each other)          */
    /* A register-file cache that sets the SM clock (docs/model.md, "The cache clock"):
     * its register vectors under configuration c and its knobs; NULL: not a cache. */
    int (*cache_entries)(const sm_config *c, const void *knobs);
    /* Knob rows; designs that point at the same table share one knob block and one set
     * of keys, the first of them in registry order owns them (ltrf and rfc_demand). */
    const sm_knob *knobs;
    int n_knobs;
    const sm_design_stat *stats; /* its statistics (sm_stats.design[id]) */
    int n_stats;
    /* Older designs' statistics are fields of sm.h's lists (the digests hash them in
     * that order): their names or "PREFIX*", NULL-terminated, so the printer groups
     * them under the design; new designs declare `stats` instead. */
    const char *const *core_stats;
} sm_design_info;

/* The registry, for dse/: name and declaration of design d, the design that owns d's
 * knob block (d itself unless it shares one), and the block inside a technique. */
const char *sm_design_name(sm_rf_design_id d);
const sm_design_info *sm_design_get(sm_rf_design_id d);
sm_rf_design_id sm_design_knob_owner(sm_rf_design_id d);
void *sm_technique_knobs(sm_technique *t, sm_rf_design_id d);
const void *sm_technique_knobs_const(const sm_technique *t, sm_rf_design_id d);
/* The design knob called `name` in t, by name (presets, tests): set it (-1 if no design
 * declares it) or read it (NAN if none does); bools and enums as 0/1 and their value. */
int sm_technique_knob_set(sm_technique *t, const char *name, double v);
double sm_technique_knob(const sm_technique *t, const char *name);

/* ---- the hooks ----------------------------------------------------------------------
 *
 * Each hook is optional (NULL); the SM calls the hooks of the designs a technique turns
 * on, in registry order (sm_designs.h), at these points:
 *   kernel  kernel launch, after the bank table and the streams are set up; returns
 *           SM_OK or SM_E_INVALID (the design cannot run this kernel on this map)
 *   block   block launch, before its warps: may rewrite the block's renaming table
 *   warp    warp launch, its tables filled and its scheduler set, before its
 *           first instruction is drawn: may rewrite its tables or park it
 *   issue   an instruction issued: its reads requested, its write resolved in its slot
 *           (the hook may still change the slot's wbank / wslow), before the warp's
 *           next instruction is drawn
 *   write   a result written (its write port done), as its register is released
 *   cycle   per-cycle work, after launch; returns the next cycle it needs (> now) or
 *           INT64_MAX: the idle skip never jumps past it
 *   stats   the run's end: add or correct statistics
 * What a hook may change, and what the fast paths assume, is docs/model.md's "Invariants
 * of the fast paths"; bank ports are shared through the port calls below only. */

#define SM__NO_REG 0xFF
#define SM__MAX_SRC 3

/* One decoded warp instruction, as the issue hook sees it. */
typedef struct sm__inst {
    uint8_t op;                /* sm__op (sm_internal.h)                            */
    uint8_t unit;              /* sm__unit                                          */
    uint8_t dst;               /* SM__NO_REG for stores                             */
    uint8_t n_src;             /* distinct source registers                         */
    uint8_t src[SM__MAX_SRC];  /* [n_src, SM__MAX_SRC) hold SM__NO_REG (sm__gen_next) */
    uint8_t div;               /* 1: under a thread-ID branch (fixed half-warp lanes) */
    uint8_t miss;              /* global load: misses L1                            */
    uint8_t fast;              /* every operand in fast storage (FWAS)              */
    /* set only under the hazard model (k.mem_model; docs/replay.md) */
    uint8_t site;              /* global load: load-site ID (static instruction)    */
    uint8_t reqs;              /* global load: memory requests (0 or 1: coalesced)  */
    /* set only from a trace (trace.c) */
    uint8_t smem_ways;         /* shared-memory access: bank-conflict degree 1..32  */
    uint8_t redirect;          /* control hazard after it (sm_trace_inst.redirect)  */
    uint8_t hit_reqs;          /* missing global load: of its reqs, the lines that hit *
                                * L1 (sent first; they hold no MSHR)               */
} sm__inst;

struct sm__block;

typedef struct sm__rf_design {
    sm_design_info info;
    size_t (*state_size)(const sm_config *cap); /* bytes, for the largest config */
    int (*kernel)(sm_sim *s, void *st, const sm_profile *p);
    void (*block)(sm_sim *s, void *st, struct sm__block *b, int first_warp);
    void (*warp)(sm_sim *s, void *st, int w);
    void (*issue)(sm_sim *s, void *st, int w, uint16_t slot, const sm__inst *in);
    void (*write)(sm_sim *s, void *st, uint16_t slot);
    int64_t (*cycle)(sm_sim *s, void *st);
    void (*stats)(const sm_sim *s, const void *st, sm_stats *out);
} sm__rf_design;

/* One per registry line: `const sm__rf_design sm__design_NAME` in model/NAME.c. */
#define SM__DESIGN_DECL(name) extern const sm__rf_design sm__design_##name;
SM__RF_DESIGNS_ALL(SM__DESIGN_DECL)
#undef SM__DESIGN_DECL

/* ---- what a design's hooks may call (design.c) -------------------------------------- */

/* Its knob block in the running technique (the struct its knob rows describe). */
const void *sm_design_knobs(const sm_sim *s, sm_rf_design_id d);
/* Its statistics in the run's sm_stats, for its stats hook. */
static inline uint64_t *sm_design_stats(sm_stats *out, sm_rf_design_id d)
{
    return out->design[d];
}
const sm_config *sm_design_config(const sm_sim *s);
int64_t sm_design_now(const sm_sim *s);
int sm_design_n_banks(const sm_sim *s);          /* virtual banks of the running kernel  */
int sm_design_warp_lanes(const sm_sim *s, int w, int div); /* active lanes of an access */
int sm_design_reg_bank(const sm_sim *s, int w, int reg);   /* virtual bank of a register */
/* Bank ports (the only way to a bank: operand collectors and write-back use them too):
 * a read / write of virtual bank b, `slow` cycles beyond one, `lanes` active lanes,
 * requested now; returns the grant cycle, counted in the bank's statistics. */
int64_t sm_design_port_read(sm_sim *s, int bank, int slow, int lanes);
int64_t sm_design_port_write(sm_sim *s, int bank, int slow, int lanes);
/* Holds warp w back (it is no issue candidate) until unparked.  Only a warp that is not
 * waiting on the scoreboard and has instructions left may be parked. */
void sm_design_park(sm_sim *s, int w);
void sm_design_unpark(sm_sim *s, int w);

#endif
