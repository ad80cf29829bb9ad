/* The register-file energy model (docs/model.md, "Energy").  Dynamic energy scales with
 * the lanes an access touches in each sub-bank (an access to a whole 16-lane sub-bank
 * costs access_pj); leakage with the time every sub-bank is powered, which a slower
 * clock (process variation, the guardband) makes longer; power-gated storage (reg_release)
 * leaks nothing, so leakage scales with the share of storage x time powered. */
#include "dse_sweep.h"

void dse_energy_default(dse_energy *e)
{
    /* CACTI 6.5, 40 nm, 4 KB register-file bank: 4.68 pJ per access, 2.8 mW leakage
     * (the figures GPU register-file studies quote for that array); GTX480 shader clock
     * 1401 MHz. */
    *e = (dse_energy){ .access_pj = 4.68, .leakage_mw = 2.8, .clock_mhz = 1401.0 };
}

void dse_energy_of(const dse_energy *e, int lanes_per_sub, int n_subs, double lane_accesses,
                   double cycles, double freq, double powered, double *dynamic_j,
                   double *leakage_j)
{
    double seconds = cycles / (freq * e->clock_mhz * 1e6);
    *dynamic_j = lane_accesses * e->access_pj * 1e-12 / lanes_per_sub;
    *leakage_j = n_subs * e->leakage_mw * 1e-3 * seconds * powered;
}

void dse_energy_cache_of(const dse_energy *e, int lanes_per_sub, double sub_banks,
                         double cell_area, double lane_accesses, double seconds,
                         double *dynamic_j, double *leakage_j)
{
    /* a cell of area a: a x the RF cell's transistor width, so a x its bit-line load and
     * a x its leakage current; the cache's shorter bit lines are not credited (an upper
     * bound on its dynamic energy) */
    *dynamic_j = lane_accesses * e->access_pj * 1e-12 / lanes_per_sub * cell_area;
    *leakage_j = sub_banks * e->leakage_mw * 1e-3 * seconds * cell_area;
}
