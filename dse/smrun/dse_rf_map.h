/* dse_rf_map.h - the storage map crossing from variation/ (var_rf_map) to model/
 * (sm_rf_map): the two modules define the same plain layout and never include each
 * other, so dse/ copies one into the other. */
#ifndef RFDSE_DSE_RF_MAP_H
#define RFDSE_DSE_RF_MAP_H

#include <stddef.h>

#include "dse_sweep.h"
#include "sm_rf_map.h"
#include "var_rf_map.h"

void dse_rf_map_from_var(const var_rf_map *v, sm_rf_map *m);

#endif
