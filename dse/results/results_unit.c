/* A unit's metric arrays by index (dse_results.h): where dse_unit keeps the array of
 * metric m and how long it is, from the one list (analysis/ana_metrics.h). */
#include <stdbool.h>
#include <stddef.h>

#include "dse_results.h"

static const size_t slot_offset[DSE_N_METRICS] = {
#define SLOT(name, ...) offsetof(dse_unit, name),
    RFDSE_UNIT_METRICS(SLOT)
#undef SLOT
};

static const bool by_year[DSE_N_METRICS] = {
#define BY_YEAR(name, axis, ...) [DSE_METRIC_##name] = DSE__IS_##axis,
#define DSE__IS_year true
#define DSE__IS_benchmark false
    RFDSE_UNIT_METRICS(BY_YEAR)
#undef BY_YEAR
#undef DSE__IS_year
#undef DSE__IS_benchmark
};

double **dse_unit_metric_slot(dse_unit *u, int m)
{
    return (double **)((char *)u + slot_offset[m]);
}

double *dse_unit_metric(const dse_unit *u, int m)
{
    return *(double *const *)((const char *)u + slot_offset[m]);
}

bool dse_unit_metric_by_year(int m) { return by_year[m]; }

int dse_unit_metric_len(const dse_dims *d, int m) { return by_year[m] ? d->n_years : d->n_benchmarks; }
