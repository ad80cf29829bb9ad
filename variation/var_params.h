/* var_params.h - the knobs of the variation module (floorplan, process variation,
 * timing, NBTI aging) as plain structs with documented defaults.
 *
 * These structs are filled by the sweep loader (dse/) and read by everything in
 * variation/; this module never parses configuration files itself.  Every default lives
 * in var_params_default() and nowhere else: the loader, `rfdse validate` and the
 * --help text all take their defaults from it.
 */
#ifndef RFDSE_VAR_PARAMS_H
#define RFDSE_VAR_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

#define VAR_MAX_YEARS 64 /* time points of an aging schedule */

/* Enumerations: X(VALUE, name, doc), one line each; the value is the line's position
 * (from 0) and `name` what a sweep file writes (dse/sweep/sweep_schema.c takes the names
 * from the same list with VAR_ENUM_NAMES, so they cannot fall out of step). */
#define VAR__ENUM_VALUE(VALUE, name, doc) VALUE,
#define VAR_ENUM_NAME(VALUE, name, doc) #name,
#define VAR_ENUM_NAMES(LIST) { LIST(VAR_ENUM_NAME) NULL }

#define VAR_DOMAINS(X)                                                                      \
    X(VAR_DOMAIN_SM, sm, "one field per SM register file")                                 \
    X(VAR_DOMAIN_CHIP, chip, "one field over the die")
typedef enum { VAR_DOMAINS(VAR__ENUM_VALUE) } var_domain;

#define VAR_FIELD_METHODS(X)                                                                \
    X(VAR_FIELD_CIRCULANT, circulant, "circulant embedding (FFT)")                         \
    X(VAR_FIELD_CHOLESKY, cholesky, "Cholesky factor of the covariance")
typedef enum { VAR_FIELD_METHODS(VAR__ENUM_VALUE) } var_field_method;

#define VAR_CELL_MODELS(X) X(VAR_CELL_READ_PATH, read_path, "alpha-power read path")
typedef enum { VAR_CELL_MODELS(VAR__ENUM_VALUE) } var_cell_model;

#define VAR_DUTY_MODELS(X)                                                                  \
    X(VAR_DUTY_ACCESS, access, "stress duty from accesses")                                \
    X(VAR_DUTY_OCCUPANCY, occupancy, "stress duty from occupancy")
typedef enum { VAR_DUTY_MODELS(VAR__ENUM_VALUE) } var_duty_model;

/* What dVth_t0 in the NBTI law is (model.md section 7, docs/nbti.md section 1). */
#define VAR_INITIAL_SHIFTS(X)                                                               \
    X(VAR_SHIFT_ACCUMULATED, accumulated, "the source's (Bhardwaj 2006): NBTI shift "      \
      "accumulated so far, zero at manufacture, continued interval by interval")           \
    X(VAR_SHIFT_PV, pv, "the core paper's wording: the device's PV deviation")
typedef enum { VAR_INITIAL_SHIFTS(VAR__ENUM_VALUE) } var_initial_shift;

/* How storage is classified into fast and slow (model.md section 5). */
#define VAR_GRANULARITIES(X)                                                                \
    X(VAR_GRAN_NONE, none, "every register counts (baseline, ideal)")                      \
    X(VAR_GRAN_REGISTER, register, "vl_rf: per 32-bit register")                           \
    X(VAR_GRAN_VECTOR_ARRAY, vector_array, "vl_rv: per array of 32 neighbouring vectors")  \
    X(VAR_GRAN_SUB_BANK, sub_bank, "vl_sb and everything built on it")
typedef enum { VAR_GRANULARITIES(VAR__ENUM_VALUE) } var_granularity;

/* Geometry (model.md section 2).  Default: Fermi-like, 32 nm. */
typedef struct var_floorplan {
    int n_sms;            /* SMs per chip                                   15   */
    int sm_cols;          /* SM tile grid on the die: columns                5   */
    int sm_rows;          /*                          rows                   3   */
    int n_banks;          /* RF banks per SM                                16   */
    int bank_cols;        /* banks side by side in the RF region (1 = one column) 1 */
    int entries_per_bank; /* register vectors per bank                      64   */
    int bits_per_entry;   /* bits per register vector (32 threads x 32 bit) 1024 */
    int sub_banks;        /* vertical column groups per bank                 2   */
    double die_width_mm;  /* die width                                     23.0 */
    double rf_fraction;   /* fraction of the SM tile area the RF occupies  0.15 */
    double cell_aspect;   /* bit-cell width / height                        2.0 */
    int lane_interleave;  /* lanes whose bits alternate along a row (column    1
                             multiplexing, docs/variation.md section 12): lanes
                             [g m, g m + m) share 32 m columns, bit b of lane
                             g m + j at column 32 m g + m b + j; 1 = each lane's
                             32 bits side by side                                */
} var_floorplan;

/* VARIUS-style variation (model.md section 3). */
typedef struct var_variation {
    var_domain domain;       /* "sm": one field per SM RF; "chip": one over the die   */
    double phi;              /* correlation range, fraction of the domain width  0.5 */
    double vth_sigma;        /* total sigma/mu of Vth                            0.12 */
    double leff_sigma;       /* total sigma/mu of Leff                           0.06 */
    double sigma_ratio;      /* sigma_rand / sigma_sys (1:4 -> 0.25)             1.0 */
    int grid_cols;           /* systematic-field grid points across the domain  128  */
    var_field_method method; /* circulant (production) or cholesky (reference)       */
} var_variation;

/* Device and cell timing (model.md section 4). */
typedef struct var_timing {
    double vdd;            /* supply voltage, V                      0.9  */
    double vth0;           /* nominal threshold voltage, V           0.30 */
    double alpha;          /* alpha-power-law exponent               1.3  */
    var_cell_model cell;   /* which cell delay model                 read_path */
} var_timing;

/* NBTI aging (model.md section 7). */
typedef struct var_aging {
    int n_years;                  /* time points in years[]                  8        */
    double years[VAR_MAX_YEARS];  /* schedule, years of use          0,1,...,7         */
    double kv;                    /* NBTI prefactor Kv, V / s^(1/6) scale (docs/)     */
    double temperature;           /* K, scales Kv as documented in docs/nbti.md  358  */
    double eta;                   /* recovery constant                         0.35   */
    double time_exponent;         /* n                                          1/6   */
    var_duty_model duty;          /* access-based (default) or occupancy-based        */
    var_initial_shift initial_shift; /* dVth_t0 of the law                  accumulated  */
} var_aging;

/* The frequency side of one technique (model.md section 5). */
typedef struct var_technique {
    bool variation;            /* false only for `ideal` (no PV, no NBTI)            */
    var_granularity granularity;
    double fast_percent;       /* n: share of storage classified fast, (0,100]  70   */
    bool bro;                  /* rf_bro: virtual banks from same-speed sub-banks    */
    bool nbti_reorg;           /* nbti_opt (b): re-pair sub-banks by current delay   */
} var_technique;

typedef struct var_params {
    var_floorplan floorplan;
    var_variation variation;
    var_timing timing;
    var_aging aging;
} var_params;

/* Fills every knob with its documented default. */
void var_params_default(var_params *p);

/* Checks the relations between knobs that single-key ranges cannot express (sub-banks
 * divide the entry, the SM grid holds every SM, the field grid resolves a sub-bank, ...).
 * Returns 0, or -1 with the offending knob's path ("floorplan.sub_banks", the member
 * path inside var_params) in `key` and the reason in `msg`. */
int var_params_check(const var_params *p, char *key, size_t key_len, char *msg, size_t msg_len);

/* The frequency side of the `baseline` technique. */
void var_technique_default(var_technique *t);

#endif
