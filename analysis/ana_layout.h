/* ana_layout.h - the one description of a results file's datasets (docs/results-format.md).
 *
 * Where each dataset lives, its dimensions, its element type, the attribute that says
 * what a value is and its description.  `rfdse run` creates the file from it
 * (dse/results/: the dataset table, the dimension scales, the shapes); `rfdse analyze`
 * finds and checks the datasets with it (analysis/results_load.c, trace_load.c,
 * checksum.c).  The per-unit metrics, /results/NAME, are the other list
 * (ana_metrics.h), laid out by their axis.  Header only, no dependencies (as
 * ana_metrics.h), so analysis/ links nothing of the driver. */
#ifndef RFDSE_ANA_LAYOUT_H
#define RFDSE_ANA_LAYOUT_H

/* The groups of the per-unit metrics, /results/NAME (ana_metrics.h), and of the NBTI
 * traces, present only when chips are traced. */
#define RFDSE_FILE_RESULTS "/results"
#define RFDSE_FILE_TRACE "/chips/trace"

/* The dimensions: name (the netCDF dimension), the dataset of its coordinates (its
 * dimension scale), their units and description.  A file with design points has [point]
 * before every other dimension. */
#define RFDSE_FILE_DIMS(X)                                                                 \
    X(point, "/axes/point", "index",                                                       \
      "design point (rfdse validate --point K FILE.h5 prints its sweep)")                   \
    X(chip, "/axes/chip", "chip index",                                                    \
      "Monte Carlo chip index (chip k is the same for any run)")                           \
    X(technique, "/axes/technique", "name",                                                \
      "register-file technique (resolved options in the sweep_config attribute)")          \
    X(benchmark, "/axes/benchmark", "name", "workload profile")                            \
    X(year, "/axes/year", "years", "aging time points")                                    \
    X(sm, "/axes/sm", "index", "SM index on the chip")                                     \
    X(sub_bank, "/axes/sub_bank", "index",                                                 \
      "physical sub-bank index in an SM (bank x sub-banks per bank + sub-bank)")           \
    X(trace, RFDSE_FILE_TRACE "/chip", "chip index",                                       \
      "the traced chips (output.trace_chips)") /* named "chip" inside /chips/trace */

typedef enum {
#define ANA__DIM_ENUM(name, ...) ANA_DIM_##name,
    RFDSE_FILE_DIMS(ANA__DIM_ENUM)
#undef ANA__DIM_ENUM
    ANA_N_DIMS
} ana_dim;

/* The shapes, outermost dimension first (after [point]): NAME, rank, dimensions (the
 * last repeated to fill five). */
#define RFDSE_FILE_SHAPES(X)                                                               \
    X(C, 1, chip, chip, chip, chip, chip)                                                  \
    X(CS, 2, chip, sm, sm, sm, sm)                                                         \
    X(CT, 2, chip, technique, technique, technique, technique)                             \
    X(CTY, 3, chip, technique, year, year, year)                                           \
    X(CTB, 3, chip, technique, benchmark, benchmark, benchmark)                            \
    X(TTYS, 4, trace, technique, year, sub_bank, sub_bank)                                 \
    X(TTBYS, 5, trace, technique, benchmark, year, sub_bank)

typedef enum {
#define ANA__SHAPE_ENUM(name, ...) ANA_SHAPE_##name,
    RFDSE_FILE_SHAPES(ANA__SHAPE_ENUM)
#undef ANA__SHAPE_ENUM
    ANA_N_SHAPES
} ana_shape;

/* A metric's shape from its axis in ana_metrics.h: [chip][technique][year or benchmark]. */
#define ANA_SHAPE_OF_year ANA_SHAPE_CTY
#define ANA_SHAPE_OF_benchmark ANA_SHAPE_CTB

/* The dimensions of shape s into dims[5]; returns the rank. */
static inline int ana_shape_dims(ana_shape s, ana_dim dims[5])
{
    static const struct { int rank; ana_dim dim[5]; } shapes[ANA_N_SHAPES] = {
#define ANA__SHAPE_ROW(name, rank, a, b, c, d, e)                                          \
    [ANA_SHAPE_##name] = { rank, { ANA_DIM_##a, ANA_DIM_##b, ANA_DIM_##c, ANA_DIM_##d,     \
                                   ANA_DIM_##e } },
        RFDSE_FILE_SHAPES(ANA__SHAPE_ROW)
#undef ANA__SHAPE_ROW
    };
    for (int i = 0; i < 5; i++)
        dims[i] = shapes[s].dim[i];
    return shapes[s].rank;
}

/* The datasets besides the metrics: NAME, path, shape, element type (F64: float64 with
 * fill NaN; U8: a uint8 flag, fill 0; U64: uint64, fill 0), what the checksum of a unit
 * covers of it (CHIP: its chip's row; TRACE: its trace block; NONE), the attribute
 * saying what a value is (units or normalised_to), its value, and the description. */
#define RFDSE_FILE_DATASETS(X)                                                             \
    X(SM_FREQUENCY, "/chips/sm_frequency", CS, F64, CHIP, normalised_to,                   \
      "an SM without variation (1.0)",                                                     \
      "per-SM frequency with every register counted (baseline), time zero")                \
    X(WITHIN_SM, "/chips/within_sm_ratio", CS, F64, CHIP, units,                           \
      "ratio (fastest / slowest register delay)",                                          \
      "spread of register delays inside each SM, time zero")                               \
    X(SM_TO_SM, "/chips/sm_to_sm_ratio", C, F64, CHIP, units,                              \
      "ratio (fastest / slowest SM frequency)", "spread of SM frequencies on each chip")   \
    X(DONE, "/progress/done", CT, U8, NONE, units, "flag (1 = computed and written)",      \
      "finished (chip, technique) units: what --resume skips")                             \
    X(CHECKSUM, "/progress/checksum", CT, U64, NONE, units,                                \
      "FNV-1a 64 (docs/results-format.md)",                                                \
      "checksum of each finished unit's values as stored: its /results rows, its chip's "  \
      "/chips rows and its trace blocks; 0 until done")                                    \
    X(TRACE_DELAY, RFDSE_FILE_TRACE "/sub_bank_delay", TTYS, F64, TRACE, normalised_to,         \
      "a cell without variation (1.0)",                                                    \
      "SM 0 of each traced chip: delay of every physical sub-bank per technique and year " \
      "(under the technique's workload-mix stress)")                                       \
    X(TRACE_SLOW, RFDSE_FILE_TRACE "/sub_bank_slow", TTYS, U8, TRACE, units,                    \
      "flag (1 = slow, 2-cycle)",                                                          \
      "SM 0 of each traced chip: speed class of every physical sub-bank per technique "    \
      "and year (0 everywhere for techniques that classify registers, not sub-banks)")     \
    X(TRACE_UTIL, RFDSE_FILE_TRACE "/sub_bank_utilisation", TTBYS, F64, TRACE, units,           \
      "stress duty (fraction of time; aging.duty says access- or occupancy-based)",        \
      "SM 0 of each traced chip: stress duty of every physical sub-bank per technique, "   \
      "workload and year (the interval that starts at that year)")

typedef enum {
#define ANA__DS_ENUM(name, ...) ANA_DS_##name,
    RFDSE_FILE_DATASETS(ANA__DS_ENUM)
#undef ANA__DS_ENUM
    ANA_N_DATASETS
} ana_dataset;

/* What of a dataset the checksum of a unit covers (ana_checksum.h), in list order. */
typedef enum { ANA_SUM_NONE, ANA_SUM_CHIP, ANA_SUM_TRACE } ana_sum;

/* A dimension's name (the netCDF dimension) and the path of its coordinates. */
static inline const char *ana_dim_name(ana_dim d)
{
    static const char *const name[ANA_N_DIMS] = {
#define ANA__DIM_NAME(name, ...) [ANA_DIM_##name] = #name,
        RFDSE_FILE_DIMS(ANA__DIM_NAME)
#undef ANA__DIM_NAME
    };
    return name[d];
}

static inline const char *ana_dim_path(ana_dim d)
{
    static const char *const path[ANA_N_DIMS] = {
#define ANA__DIM_PATH(name, p, ...) [ANA_DIM_##name] = p,
        RFDSE_FILE_DIMS(ANA__DIM_PATH)
#undef ANA__DIM_PATH
    };
    return path[d];
}

/* Its coordinates' units and description. */
static inline const char *ana_dim_units(ana_dim d)
{
    static const char *const units[ANA_N_DIMS] = {
#define ANA__DIM_UNITS(name, p, units, doc) [ANA_DIM_##name] = units,
        RFDSE_FILE_DIMS(ANA__DIM_UNITS)
#undef ANA__DIM_UNITS
    };
    return units[d];
}

static inline const char *ana_dim_doc(ana_dim d)
{
    static const char *const doc[ANA_N_DIMS] = {
#define ANA__DIM_DOC(name, p, units, doc) [ANA_DIM_##name] = doc,
        RFDSE_FILE_DIMS(ANA__DIM_DOC)
#undef ANA__DIM_DOC
    };
    return doc[d];
}

static inline const char *ana_dataset_path(ana_dataset ds)
{
    static const char *const path[ANA_N_DATASETS] = {
#define ANA__DS_PATH(name, p, ...) [ANA_DS_##name] = p,
        RFDSE_FILE_DATASETS(ANA__DS_PATH)
#undef ANA__DS_PATH
    };
    return path[ds];
}

static inline ana_shape ana_dataset_shape(ana_dataset ds)
{
    static const ana_shape shape[ANA_N_DATASETS] = {
#define ANA__DS_SHAPE(name, p, shape, ...) [ANA_DS_##name] = ANA_SHAPE_##shape,
        RFDSE_FILE_DATASETS(ANA__DS_SHAPE)
#undef ANA__DS_SHAPE
    };
    return shape[ds];
}

static inline ana_sum ana_dataset_sum(ana_dataset ds)
{
    static const ana_sum sum[ANA_N_DATASETS] = {
#define ANA__DS_SUM(name, p, shape, type, sum, ...) [ANA_DS_##name] = ANA_SUM_##sum,
        RFDSE_FILE_DATASETS(ANA__DS_SUM)
#undef ANA__DS_SUM
    };
    return sum[ds];
}

#endif
