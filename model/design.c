/* Register-file designs: the registry of hook tables (from sm_designs.h), their state,
 * and the calls that run the hooks of the designs a technique turns on.
 *
 * The hooks' contract is in sm_internal.h; why the SM calls them where it does is in
 * docs/architecture.md, "Adding a register-file design". */
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"

static const sm__rf_design *const registry[SM_N_DESIGNS] = {
#define ENTRY(name, needs_bro, doc) [SM_DESIGN_##name] = &sm__design_##name,
    SM__RF_DESIGNS_ALL(ENTRY)
#undef ENTRY
};

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
