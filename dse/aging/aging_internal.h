/* aging_internal.h - internal to dse/aging/: the frequency side of a technique as a
 * strategy (docs/architecture.md, "An aging/clock strategy").
 *
 * A clock (dse__clock) is one way a technique's storage sets the SM clock and ages:
 * its time zero (every SM's map, frequency and the IPC side its SM runs use), its aging
 * over the schedule (frequency per year, guardbands, the NBTI trace) and its end state
 * (the IPC side of the SM runs at the end-of-schedule clock).  One driver
 * (dse_aging_time_zero, dse_aging_run, dse_aging_end_state in aging.c) serves them all,
 * as GSL's gsl_odeiv2 driver serves its steppers.  A technique's clock is the first in
 * DSE__CLOCKS whose `selects` says yes (order is priority); adding one is its file
 * clock_NAME.c defining `const dse__clock dse__clock_NAME` and one line in the list. */
#ifndef RFDSE_DSE_AGING_INTERNAL_H
#define RFDSE_DSE_AGING_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dse_aging.h"

/* The clocks, first match wins: no variation, a register-file cache, re-pairing by
 * current delay, and the fixed map every other technique keeps. */
#define DSE__CLOCKS(X) X(ideal) X(cache) X(nbti_reorg) X(fixed)
/* A test build adds its own clocks ahead of these (tests/dse/toy_clock.h). */
#ifdef DSE__CLOCKS_EXTRA
#define DSE__CLOCKS_ALL(X) DSE__CLOCKS_EXTRA(X) DSE__CLOCKS(X)
#else
#define DSE__CLOCKS_ALL(X) DSE__CLOCKS(X)
#endif

/* What ages the chip over a schedule: the workload mix (each profile by its weight,
 * the frequency per year) or one workload alone (its guardband). */
typedef struct dse__stress {
    bool mix;       /* the mix; else workload `workload` alone */
    int workload;
} dse__stress;

/* Time zero's outputs (dse_aging_time_zero's arguments). */
typedef struct dse__t0 {
    sm_rf_map *maps;      /* [n_sms]: every SM's storage map              */
    double *sm_freq;      /* [n_sms]: its normalised frequency            */
    sm_technique *ipc;    /* [n_sms]: the IPC side its SM runs use        */
    double freq, freq_min;/* mean and minimum over SMs                    */
} dse__t0;

typedef struct dse__clock {
    const char *name;
    /* Whether it is technique t's frequency side. */
    bool (*selects)(const dse_sweep *s, const dse_technique *t);
    /* Its state for sweep s, once per rank (NULL hooks: it keeps none); alloc returns
     * NULL when out of memory. */
    void *(*alloc)(const dse_sweep *s);
    void (*free)(void *state);
    /* Time zero of technique t on the current chip.  0, or -1 with err set. */
    int (*time_zero)(dse_aging *a, void *state, const dse_technique *t, dse__t0 *out,
                     char *err, size_t n);
    /* The aging over the schedule from a->in: fills out.  0, or -1 with err set. */
    int (*age)(dse_aging *a, void *state, const dse_technique *t, dse_aging_out *out,
               char *err, size_t n);
    /* The IPC side of the SM runs at the end-of-schedule clock into ipc[n_sms] (NULL
     * hook or false: the time-zero runs hold all the chip's life). */
    bool (*end_state)(const dse_aging *a, const void *state, sm_technique *ipc);
    /* SM runs per SM its aging and end state add to a unit's time-zero runs (NULL: 0). */
    long (*runs)(const dse_sweep *s, bool traced);
} dse__clock;

#define DSE__CLOCK_DECLARE(name) extern const dse__clock dse__clock_##name;
DSE__CLOCKS_ALL(DSE__CLOCK_DECLARE)
#undef DSE__CLOCK_DECLARE

/* The workspace every clock shares (one per rank, dse_aging_alloc). */
struct dse_aging {
    const dse_sweep *s;
    int n_sms, n_subs, n_w;
    const var_chip *chip;  /* the current chip (dse_aging_set_chip)            */
    unsigned chip_serial;  /* changes with every dse_aging_set_chip             */
    double *sub0;          /* [n_sms][n_subs]: the chip's sub-bank delays, t = 0 */
    var_reg_age *sub0_age; /* [n_sms][n_subs]: the same with their Leff, prepared
                              for aging (var_reg_age_prep) once per chip           */
    double kv;             /* var_nbti_kv of the sweep's law                       */
    const var_table_cache *tables; /* for var_cache_alloc_tables (NULL: built)     */
    double *loop_duty;     /* [n_sms][n_subs]: the duties in use               */
    void **state;          /* [number of clocks]: each clock's own              */
    const dse_aging_in *in;/* the dse_aging_run call in progress               */
    int technique;         /* the technique of the last time zero (-1: none)    */
};

double dse__aging_seconds(const dse_aging *a, int year);
size_t dse__aging_per_chip(const dse_aging *a);

/* out[i] = the duty under stress st of duties all[w][i] of n values per workload. */
void dse__aging_mix(const dse_aging *a, const double *all, size_t n, dse__stress st,
                    double *out);
/* a->loop_duty = the time-zero sub-bank duties (a->in->duty) under stress st. */
void dse__aging_load_duty(dse_aging *a, dse__stress st);

/* Frequency (mean and min over SMs) of fixed fast sets counted[sm][sub] (the slowest
 * counted register's delay and Leff, prepared; delay0 0: none counted) after t seconds
 * under constant duties[sm][sub]. */
void dse__aging_fixed_freq(const dse_aging *a, const var_reg_age *counted, const double *duty,
                           double t, double *mean, double *min);
/* counted[sm][sub] prepared for aging from delays d0[sm][sub] and the chip's Leff
 * (after dse_aging_set_chip: a sub-bank's own delay takes the chip's prepared state). */
void dse__aging_prep(const dse_aging *a, const double *d0, var_reg_age *counted);

/* Every SM's map by var_technique_apply (time zero of the storage techniques), with the
 * technique's IPC side unchanged. */
int dse__aging_classify(dse_aging *a, const dse_technique *t, dse__t0 *out, char *err,
                        size_t n);

/* Workload w's guardband, raw and normalised to the baseline's (a->in->base_raw), from
 * its end-of-schedule frequency f_end. */
void dse__aging_guardband(const dse_aging *a, dse_aging_out *u, int w, double f_end);

/* The NBTI trace of SM 0 (dse_aging_out.trace_*): its classes from its current map into
 * row [n_subs]; workload w's utilisation row at year y. */
void dse__aging_trace_classes(const dse_aging *a, uint8_t *row);
double *dse__aging_trace_util_row(const dse_aging *a, dse_aging_out *u, int w, int y);
/* A map that never changes: SM 0's sub-bank delays aged under a->loop_duty, its
 * classes, and each workload's time-zero duties at every year. */
void dse__aging_trace_fixed(dse_aging *a, dse_aging_out *u);

#endif
