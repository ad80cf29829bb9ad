/* Register-file designs: the registry of entries (from sm_designs.h), what they
 * declare (knobs, statistics, traits), their state, the calls that run the hooks of the
 * designs a technique turns on, and the calls a design's hooks may make.
 *
 * The contract is in sm_design.h; why the SM calls the hooks where it does is in
 * docs/architecture.md, "Extending rfdse". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"

static const sm__rf_design *const registry[SM_N_DESIGNS] = {
#define ENTRY(name) [SM_DESIGN_##name] = &sm__design_##name,
    SM__RF_DESIGNS_ALL(ENTRY)
#undef ENTRY
};

static const char *const names[SM_N_DESIGNS] = {
#define NAME(name) [SM_DESIGN_##name] = #name,
    SM__RF_DESIGNS_ALL(NAME)
#undef NAME
};

/* ---- the registry, for dse/ ------------------------------------------------------ */

const char *sm_design_name(sm_rf_design_id d) { return names[d]; }

const sm_design_info *sm_design_get(sm_rf_design_id d) { return &registry[d]->info; }

sm_rf_design_id sm_design_knob_owner(sm_rf_design_id d)
{
    for (int i = 0; i < (int)d; i++)
        if (registry[d]->info.knobs && registry[i]->info.knobs == registry[d]->info.knobs)
            return (sm_rf_design_id)i;
    return d;
}

void *sm_technique_knobs(sm_technique *t, sm_rf_design_id d)
{
    return t->knobs[sm_design_knob_owner(d)].bytes;
}

const void *sm_technique_knobs_const(const sm_technique *t, sm_rf_design_id d)
{
    return t->knobs[sm_design_knob_owner(d)].bytes;
}

static void knob_put(void *block, const sm_knob *k, double v)
{
    char *at = (char *)block + k->offset;
    switch (k->type) {
    case SM_KNOB_BOOL: {
        bool b = v != 0.0;
        memcpy(at, &b, sizeof b);
        break;
    }
    case SM_KNOB_DOUBLE:
        memcpy(at, &v, sizeof v);
        break;
    default: {
        int i = (int)v;
        memcpy(at, &i, sizeof i);
    }
    }
}

/* Every knob of every design at the default its row declares (sm_technique_default). */
void sm__designs_knob_defaults(sm_technique *t)
{
    memset(t->knobs, 0, sizeof t->knobs);
    for (int d = 0; d < SM_N_DESIGNS; d++) {
        const sm_design_info *in = &registry[d]->info;
        if ((int)sm_design_knob_owner((sm_rf_design_id)d) != d)
            continue;
        for (int i = 0; i < in->n_knobs; i++)
            knob_put(t->knobs[d].bytes, &in->knobs[i], in->knobs[i].def);
    }
}

/* The row and block of the design knob called `name`, or NULL. */
static const sm_knob *knob_find(const char *name, int *owner)
{
    for (int d = 0; d < SM_N_DESIGNS; d++) {
        const sm_design_info *in = &registry[d]->info;
        for (int i = 0; (int)sm_design_knob_owner((sm_rf_design_id)d) == d && i < in->n_knobs; i++)
            if (!strcmp(in->knobs[i].name, name)) {
                *owner = d;
                return &in->knobs[i];
            }
    }
    return NULL;
}

double sm_technique_knob(const sm_technique *t, const char *name)
{
    int d;
    const sm_knob *k = knob_find(name, &d);
    if (!k)
        return NAN;
    const char *at = (const char *)t->knobs[d].bytes + k->offset;
    switch (k->type) {
    case SM_KNOB_BOOL: {
        bool b;
        memcpy(&b, at, sizeof b);
        return b;
    }
    case SM_KNOB_DOUBLE: {
        double v;
        memcpy(&v, at, sizeof v);
        return v;
    }
    default: {
        int i;
        memcpy(&i, at, sizeof i);
        return i;
    }
    }
}

int sm_technique_knob_set(sm_technique *t, const char *name, double v)
{
    int d;
    const sm_knob *k = knob_find(name, &d);
    if (!k)
        return -1;
    knob_put(t->knobs[d].bytes, k, v);
    return 0;
}

/* ---- what a design's hooks may call -------------------------------------------------- */

const void *sm_design_knobs(const sm_sim *s, sm_rf_design_id d)
{
    return sm_technique_knobs_const(s->k.t, d);
}

const sm_config *sm_design_config(const sm_sim *s) { return s->c; }
int64_t sm_design_now(const sm_sim *s) { return s->now; }
int sm_design_n_banks(const sm_sim *s) { return s->k.n_banks; }
int sm_design_warp_lanes(const sm_sim *s, int w, int div) { return s->warps[w].tlanes[div]; }
int sm_design_reg_bank(const sm_sim *s, int w, int reg) { return s->warps[w].bank[reg]; }

int64_t sm_design_port_read(sm_sim *s, int bank, int slow, int lanes)
{
    return sm__port_read(s, bank, slow, lanes);
}

int64_t sm_design_port_write(sm_sim *s, int bank, int slow, int lanes)
{
    return sm__port_write(s, bank, slow, lanes);
}

void sm_design_park(sm_sim *s, int w) { sm__sched_park(s, w); }
void sm_design_unpark(sm_sim *s, int w) { sm__sched_unpark(s, w); }

/* ---- running the hooks ----------------------------------------------------------- */

/* State is allocated with the simulator, for every registered design, so a run
 * allocates nothing whichever designs it turns on. */
int sm__designs_alloc(sm_sim *s)
{
    for (int i = 0; i < SM_N_DESIGNS; i++) {
        size_t n = registry[i]->state_size ? registry[i]->state_size(&s->cap) : 0;
        if (n && !(s->design_state[i] = calloc(1, n)))
            return -1;
    }
    return 0;
}

void sm__designs_free(sm_sim *s)
{
    for (int i = 0; i < SM_N_DESIGNS; i++)
        free(s->design_state[i]);
}

/* Collects the designs `t` turns on and runs their kernel hooks. */
int sm__designs_kernel(sm_sim *s, const sm_technique *t, const sm_profile *p)
{
    sm__kernel *k = &s->k;
    k->n_designs = 0;
    k->hooks = 0;
    s->design_next = INT64_MAX;
    for (int i = 0; i < SM_N_DESIGNS; i++) {
        const sm__rf_design *d = registry[i];
        if (!t->design[i])
            continue;
        k->design_st[k->n_designs] = s->design_state[i];
        k->design[k->n_designs++] = d;
        k->hooks |= (d->issue ? SM__HOOK_ISSUE : 0u) | (d->write ? SM__HOOK_WRITE : 0u) |
                    (d->cycle ? SM__HOOK_CYCLE : 0u);
        if (d->kernel) {
            int rc = d->kernel(s, s->design_state[i], p);
            if (rc)
                return rc;
        }
    }
    return SM_OK;
}

/* Runs hook `h` with its arguments for every design turned on that has it. */
#define EACH_DESIGN(s, h, ...)                                                            \
    for (int i_ = 0; i_ < (s)->k.n_designs; i_++)                                         \
        if ((s)->k.design[i_]->h)                                                         \
            (s)->k.design[i_]->h((s), (s)->k.design_st[i_], __VA_ARGS__)

void sm__designs_block(sm_sim *s, sm__block *b, int first_warp)
{
    EACH_DESIGN(s, block, b, first_warp);
}

void sm__designs_warp(sm_sim *s, int w) { EACH_DESIGN(s, warp, w); }

void sm__designs_issue(sm_sim *s, int w, uint16_t slot, const sm__inst *in)
{
    EACH_DESIGN(s, issue, w, slot, in);
}

void sm__designs_write(sm_sim *s, uint16_t slot) { EACH_DESIGN(s, write, slot); }

void sm__designs_stats(const sm_sim *s, sm_stats *out) { EACH_DESIGN(s, stats, out); }

void sm__designs_cycle(sm_sim *s)
{
    int64_t next = INT64_MAX;
    for (int i = 0; i < s->k.n_designs; i++)
        if (s->k.design[i]->cycle) {
            int64_t t = s->k.design[i]->cycle(s, s->k.design_st[i]);
            assert(t > s->now); /* work due "now" would be lost to the idle skip */
            next = t < next ? t : next;
        }
    s->design_next = next;
}
