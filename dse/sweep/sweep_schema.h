/* sweep_schema.h - internal: the one table of every sweep-file key.
 *
 * The loader, the writer (`rfdse validate`), the equality check and the reference in
 * docs/sweep-format.md all come from these tables, so they cannot drift apart.
 * Defaults are not in the table: they come from the modules' *_default() functions.
 */
#ifndef RFDSE_DSE_SWEEP_SCHEMA_H
#define RFDSE_DSE_SWEEP_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sm_params.h"

typedef enum {
    DSE__INT,         /* int                                  */
    DSE__INT64,       /* int64_t / uint64_t (non-negative)    */
    DSE__DOUBLE,      /* double; integers accepted            */
    DSE__BOOL,        /* bool                                 */
    DSE__ENUM,        /* int-valued enum written as a string  */
    DSE__STRING,      /* char[len]                            */
    DSE__DOUBLE_LIST, /* double[len] with an int count        */
    DSE__INT_LIST     /* int[len] with an int count           */
} dse__key_type;

typedef struct dse__key {
    const char *name;
    dse__key_type type;
    size_t offset;       /* of the value inside the section's struct */
    size_t count_offset; /* lists: of the int element count          */
    double min, max;     /* accepted range (numbers, list elements)   */
    bool min_open;       /* range is (min, max] rather than [min, max] */
    const char *const *enum_names; /* DSE__ENUM: names by value, NULL-terminated */
    int len;             /* strings: buffer size; lists: capacity      */
    const char *doc;
} dse__key;

typedef struct dse__section {
    const char *name;     /* group name in the sweep file      */
    size_t offset;        /* of the section struct in dse_sweep */
    const dse__key *keys;
    size_t n_keys;
    const char *doc;
} dse__section;

/* Groups at the top level of a sweep file, in the order they are written. */
extern const dse__section dse__sections[];
extern const size_t dse__n_sections;

/* The keys of a technique group (offsets into dse_technique): the fixed rows, then for
 * every register-file design of the model's registry its switch `NAME = true` and its
 * knob rows, as its own file declares them (model/sm_design.h).  Built into a value,
 * so no table is shared or mutable; the order is fixed (key indices are stable). */
#define DSE__MAX_TECHNIQUE_KEYS 96
typedef struct dse__keyset {
    size_t n;
    dse__key key[DSE__MAX_TECHNIQUE_KEYS];
} dse__keyset;
void dse__technique_keys(dse__keyset *out);

/* Keys of a workload group (offsets into sm_profile); `name` and `base` of a technique
 * are handled by the loader. */
extern const dse__key dse__workload_keys[];
extern const size_t dse__n_workload_keys;

/* The accepted range of a key as text, e.g. "(0, 100]" or "one of: sm, chip". */
void dse__key_range(const dse__key *k, char *buf, size_t n);

/* The shortest of %.15g..%.17g that reads back to the same double: 0.15, not
 * 0.14999999999999999, and 0.24999999999999997, not 0.25. */
void dse__format_double(char *buf, size_t n, double v);

/* True when field k of structs a and b holds the same value. */
bool dse__key_equal(const dse__key *k, const void *a, const void *b);

/* Bytes a key's field takes in its struct (lists: their whole capacity). */
size_t dse__key_size(const dse__key *k);

/* Writes field k of the struct at base as the sweep file writes it (sweep_write.c). */
void dse__key_write(FILE *out, const dse__key *k, const void *base);

/* The top-level section called name, or NULL. */
const dse__section *dse__section_find(const char *name);

/* Copies field k from src to dst. */
void dse__key_copy(const dse__key *k, void *dst, const void *src);

/* Reads the `axes` section into sw->axes (axes_load.c), once the rest of the file is
 * loaded; one line on err and -1 on a mistake. */
struct config_setting_t;
struct dse_sweep;
int dse__axes_read(const struct config_setting_t *sec, const char *file, FILE *err,
                   struct dse_sweep *sw);

/* A trace workload's trace (sweep_trace.c): reads and decodes w->trace into *out, sets
 * the shape keys and trace_hash from it (a stated trace_hash must match).  0, or -1 with
 * the key and message in key/msg, or with key "" when the trace reader's own line
 * already went to err. */
struct sm_trace;
int dse__trace_workload(sm_profile *w, struct sm_trace **out, FILE *err, char *key,
                        size_t key_len, char *msg, size_t msg_len);
/* Frees the decoded traces of a sweep the loader returned (not of a copy). */
void dse__sweep_free_traces(struct dse_sweep *s);

#endif
