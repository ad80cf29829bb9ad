/* Defaults of every variation knob; the only place they are written down. */
#include "var_params.h"

#include <string.h>

void var_params_default(var_params *p)
{
    memset(p, 0, sizeof *p);
    p->floorplan = (var_floorplan){
        .n_sms = 15, .sm_cols = 5, .sm_rows = 3,
        .n_banks = 16, .bank_cols = 1, .entries_per_bank = 64,
        .bits_per_entry = 1024, .sub_banks = 2,
        .die_width_mm = 23.0, .rf_fraction = 0.15, .cell_aspect = 2.0,
        .lane_interleave = 1, /* each register's bits side by side (section 12) */
    };
    p->variation = (var_variation){
        .domain = VAR_DOMAIN_SM, .phi = 0.5,
        .vth_sigma = 0.12, .leff_sigma = 0.06, .sigma_ratio = 1.0,
        .grid_cols = 128, .method = VAR_FIELD_CIRCULANT,
    };
    p->timing = (var_timing){ .vdd = 0.9, .vth0 = 0.30, .alpha = 1.3, .cell = VAR_CELL_READ_PATH };
    /* kv (V^3 s^-1/2 at n = 1/6): a continuously stressed cell at nominal Vth and Leff
     * loses 25 % of its speed in 3 years (exact value 1.73679e-7, computed in
     * tests/variation/test_nbti.c; docs/nbti.md): a 137 mV shift after 7 years. */
    p->aging = (var_aging){
        .n_years = 8, .kv = 1.7368e-7, .temperature = 358.0, .eta = 0.35,
        .time_exponent = 1.0 / 6.0, .duty = VAR_DUTY_ACCESS,
        .initial_shift = VAR_SHIFT_ACCUMULATED,
    };
    for (int y = 0; y < p->aging.n_years; y++)
        p->aging.years[y] = y;
}

void var_technique_default(var_technique *t)
{
    *t = (var_technique){
        .variation = true, .granularity = VAR_GRAN_NONE,
        .fast_percent = 70.0, .bro = false, .nbti_reorg = false,
    };
}
