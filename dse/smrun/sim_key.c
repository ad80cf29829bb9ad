/* The run-cache key by construction: every input of an SM run serialised from the same
 * key tables the sweep loader uses (sweep_schema.c), so a knob added to the IPC side of
 * a technique, to the SM configuration or to a workload profile is part of the key the
 * moment it becomes a sweep key; nothing is listed twice.  tests/dse/test_sweep.c
 * changes every such key in turn and requires a different key, and checks that the
 * tables cover every byte of the three structs but their padding. */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "dse_sim_cache.h"
#include "dse_sweep.h"
#include "sweep_schema.h"

/* One field, canonically: fixed-size values as their bytes, strings up to their NUL,
 * lists as the count and the elements in use (never padding or unused capacity). */
static size_t put_field(const dse__key *k, const char *field, const char *base, uint8_t *out)
{
    size_t n = dse__key_size(k);
    if (k->type == DSE__STRING) {
        n = strnlen(field, (size_t)k->len) + 1;
    } else if (k->type == DSE__INT_LIST || k->type == DSE__DOUBLE_LIST) {
        int count = *(const int *)(base + k->count_offset);
        memcpy(out, &count, sizeof count);
        n = n / (size_t)k->len * (size_t)count; /* the elements in use */
        memcpy(out + sizeof count, field, n);
        return sizeof count + n;
    }
    memcpy(out, field, n);
    return n;
}

/* The keys of `keys` whose field lies in [lo, lo + size) of the table's struct at
 * `base`, read from the struct at `s` (which starts at offset lo). */
static size_t put_range(const dse__key *keys, size_t n_keys, size_t lo, size_t size,
                        const void *s, uint8_t *out)
{
    size_t n = 0;
    const char *base = (const char *)s - lo;
    for (size_t i = 0; i < n_keys; i++)
        if (keys[i].offset >= lo && keys[i].offset < lo + size)
            n += put_field(&keys[i], base + keys[i].offset, base, out + n);
    return n;
}

size_t dse__sim_inputs_key(const sm_config *cfg, const sm_profile *w, const sm_technique *t,
                           uint8_t *out)
{
    const dse__section *sm = dse__section_find("sm");
    dse__keyset tk;
    dse__technique_keys(&tk);
    size_t n = put_range(tk.key, tk.n,
                         offsetof(dse_technique, ipc), sizeof *t, t, out);
    n += put_range(sm->keys, sm->n_keys, 0, sizeof *cfg, cfg, out + n);
    n += put_range(dse__workload_keys, dse__n_workload_keys, 0, sizeof *w, w, out + n);
    assert(n <= DSE_SIM_INPUTS_KEY_MAX);
    return n;
}
