/* The named register-file techniques of model.md section 5, as option sets.
 *
 * Each preset is built by composing smaller ones, exactly as a user composes them in a
 * sweep file (`base = ["vl_sb", "fwas"]`), so the presets document the composition. */
#include <string.h>

#include "dse_sweep.h"

static const char *const preset_names[] = {
    "baseline", "ideal", "vl_rf", "vl_rv", "vl_sb", "rf_bro", "fba_rm", "two_level",
    "fwas", "hybrid", "pv_opt", "nbti_opt", "pv_opt_nbti_opt", NULL,
};

const char *const *dse_technique_preset_names(void) { return preset_names; }

static void set_sb_bro(dse_technique *t)
{
    t->freq.granularity = VAR_GRAN_SUB_BANK;
    t->freq.bro = true;
}

static void set_fwas_hybrid(dse_technique *t)
{
    t->ipc.scheduler = SM_SCHED_FWAS;
    t->ipc.hybrid = true;
}

/* nbti_opt: kernel-level re-pairing and block-level renaming by intent (model.md section
 * 7): R0 of every warp first, so the banks that hold any warp's small register IDs go to
 * the fastest virtual banks; the text's last-warp walk is nbti_rename_order = "last_warp". */
static void set_nbti(dse_technique *t)
{
    t->freq.nbti_reorg = true;
    t->ipc.nbti_rename = true;
    t->ipc.rename_order = SM_RENAME_ALL_WARPS;
}

bool dse_technique_preset(const char *name, dse_technique *t)
{
    memset(t, 0, sizeof *t);
    var_technique_default(&t->freq);
    sm_technique_default(&t->ipc);
    snprintf(t->name, sizeof t->name, "%s", name);

    if (!strcmp(name, "baseline"))
        return true;
    if (!strcmp(name, "ideal")) {
        t->freq.variation = false;
        return true;
    }
    if (!strcmp(name, "vl_rf"))
        t->freq.granularity = VAR_GRAN_REGISTER;
    else if (!strcmp(name, "vl_rv"))
        t->freq.granularity = VAR_GRAN_VECTOR_ARRAY;
    else if (!strcmp(name, "vl_sb"))
        t->freq.granularity = VAR_GRAN_SUB_BANK;
    else if (!strcmp(name, "rf_bro"))
        set_sb_bro(t);
    else if (!strcmp(name, "fba_rm")) {
        set_sb_bro(t);
        t->ipc.fba_rm = true;
    } else if (!strcmp(name, "two_level")) {
        set_sb_bro(t);
        t->ipc.scheduler = SM_SCHED_TWO_LEVEL;
    } else if (!strcmp(name, "fwas")) {
        set_sb_bro(t);
        t->ipc.scheduler = SM_SCHED_FWAS;
    } else if (!strcmp(name, "hybrid")) {
        set_sb_bro(t);
        t->ipc.hybrid = true;
    } else if (!strcmp(name, "pv_opt")) {
        set_sb_bro(t);
        set_fwas_hybrid(t);
    } else if (!strcmp(name, "nbti_opt")) {
        set_sb_bro(t);
        set_nbti(t);
    } else if (!strcmp(name, "pv_opt_nbti_opt")) {
        set_sb_bro(t);
        set_fwas_hybrid(t);
        set_nbti(t);
    } else
        return false;
    return true;
}
