/* Copying storage maps from the variation module's layout to the model's. */
#include "dse_rf_map.h"

#include <string.h>

#include "var.h"

_Static_assert(sizeof(var_rf_map) == sizeof(sm_rf_map), "var_rf_map and sm_rf_map differ");
_Static_assert(VAR_MAX_BANKS == SM_MAX_BANKS && VAR_MAX_ENTRIES == SM_MAX_ENTRIES &&
                   VAR_MAX_SUBS_PER_BANK == SM_MAX_SUBS_PER_BANK,
               "map capacities differ");

void dse_rf_map_from_var(const var_rf_map *v, sm_rf_map *m)
{
    m->n_banks = v->n_banks;
    m->n_entries = v->n_entries;
    m->subs_per_bank = v->subs_per_bank;
    memcpy(m->sub_id, v->sub_id, sizeof m->sub_id);
    memcpy(m->sub_slow, v->sub_slow, sizeof m->sub_slow);
    memcpy(m->entry_slow, v->entry_slow, sizeof m->entry_slow);
}
