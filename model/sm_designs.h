/* sm_designs.h - the registry of register-file designs: one line each.
 *
 * A register-file design is a plug-in of the SM model (docs/architecture.md, "Adding a
 * register-file design"): a const table of hooks in its own file, model/NAME.c, that
 * defines `const sm__rf_design sm__design_NAME` (sm_internal.h).  Its line here
 *   X(NAME, needs_bro, doc)
 * makes it a technique option: sm_technique.design[SM_DESIGN_NAME], the sweep-file key
 * `NAME = true` with `doc` as its description (dse/sweep/sweep_schema.c), and, with needs_bro,
 * the loader's rule that it needs rf_bro's virtual banks.  Designs of a run run their
 * hooks in this order.
 */
#ifndef RFDSE_SM_DESIGNS_H
#define RFDSE_SM_DESIGNS_H

#define SM_RF_DESIGNS(X)                                                                    \
    X(nbti_rename, 1, "nbti_opt: block-level bank renaming")                                \
    X(zero_gating, 0,                                                                       \
      "zero lanes neither written nor read: a per-register zero mask (energy only)")       \
    X(ltrf, 0, "LTRF: register-file cache filled by register-interval prefetch")           \
    X(rfc_demand, 0, "register-file cache filled on write, LRU (Gebhart et al. 2011)") \
    X(reg_release, 0,                                                                       \
      "register release at the last read, renaming to a physical pool, power gating")      \
    X(coalesce, 0, "narrow-width coalescing register file: byte slices, parity alignment " \
                   "(Radaideh ch. 3)")

/* A build may append designs of its own (tests/model/CMakeLists.txt builds the model
 * with a toy design this way); the shipped program has none. */
#ifdef SM_RF_DESIGNS_EXTRA
#define SM__RF_DESIGNS_ALL(X) SM_RF_DESIGNS(X) SM_RF_DESIGNS_EXTRA(X)
#else
#define SM__RF_DESIGNS_ALL(X) SM_RF_DESIGNS(X)
#endif

typedef enum {
#define SM__DESIGN_ENUM(name, needs_bro, doc) SM_DESIGN_##name,
    SM__RF_DESIGNS_ALL(SM__DESIGN_ENUM)
#undef SM__DESIGN_ENUM
    SM_N_DESIGNS
} sm_rf_design_id;

#endif
