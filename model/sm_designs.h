/* sm_designs.h - the registry of register-file designs: one line each.
 *
 * A register-file design is a plug-in of the SM model (docs/architecture.md, "Extending
 * rfdse"): its file model/NAME.c defines `const sm__rf_design sm__design_NAME`
 * (sm_design.h), which declares its doc, traits, knobs and statistics and fills its
 * hooks.  Its line here, X(NAME), registers it: sm_technique.design[SM_DESIGN_NAME],
 * the sweep-file key `NAME = true`, its knob rows as sweep keys and its statistics all
 * come from the entry.  Designs of a run run their hooks in this order.
 */
#ifndef RFDSE_SM_DESIGNS_H
#define RFDSE_SM_DESIGNS_H

#define SM_RF_DESIGNS(X)                                                                    \
    X(nbti_rename)                                                                          \
    X(zero_gating)                                                                          \
    X(ltrf)                                                                                 \
    X(rfc_demand)                                                                           \
    X(reg_release)                                                                          \
    X(operand_reuse)

/* A build may append designs of its own (tests/model/CMakeLists.txt builds the model
 * with a toy design this way); the shipped program has none. */
#ifdef SM_RF_DESIGNS_EXTRA
#define SM__RF_DESIGNS_ALL(X) SM_RF_DESIGNS(X) SM_RF_DESIGNS_EXTRA(X)
#else
#define SM__RF_DESIGNS_ALL(X) SM_RF_DESIGNS(X)
#endif

typedef enum {
#define SM__DESIGN_ENUM(name) SM_DESIGN_##name,
    SM__RF_DESIGNS_ALL(SM__DESIGN_ENUM)
#undef SM__DESIGN_ENUM
    SM_N_DESIGNS
} sm_rf_design_id;

#endif
