/* A demand-filled register-file cache (Gebhart et al., ISCA 2011), LTRF's comparison
 * design (docs/model.md, "Register-file caches"): each warp has a partition of k
 * registers (the knob rfc_regs, rfc.c) holding the results it wrote most recently.  A
 * result is written into the partition, evicting the least recently used register
 * (written back to the main RF if dirty); a read of a cached register hits, any other
 * read goes to the main RF at its latency and does not allocate. */
#include <string.h>

#include "sm_internal.h"

typedef struct demand_warp {
    uint8_t main_slow[2][SM__MAX_REGS]; /* the main RF's latency tables (launch) */
    uint8_t lru[SM__MAX_REGS];          /* cached registers, least recent first */
    uint8_t slot[SM__MAX_REGS];         /* partition slot + 1, 0: not cached     */
    uint8_t dirty[SM__MAX_REGS];
    int n;
} demand_warp;

typedef struct demand {
    int k;
    demand_warp w[];
} demand;

static size_t state_size(const sm_config *cap)
{
    return sizeof(demand) + (size_t)cap->max_warps * sizeof(demand_warp);
}

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    (void)p;
    ((demand *)st)->k = ((const sm__rfc_knobs *)sm_design_knobs(s, SM_DESIGN_rfc_demand))->rfc_regs;
    return sm__rfc_check(s);
}

static void warp(sm_sim *s, void *st, int w)
{
    demand_warp *dw = &((demand *)st)->w[w];
    memcpy(dw->main_slow, s->warps[w].slow, sizeof dw->main_slow);
    memset(dw->slot, 0, sizeof dw->slot);
    memset(dw->dirty, 0, sizeof dw->dirty);
    dw->n = 0;
}

/* Moves cached register r to the most recent end. */
static void touch(demand_warp *dw, int r)
{
    int i = 0;
    while (dw->lru[i] != r)
        i++;
    memmove(&dw->lru[i], &dw->lru[i + 1], (size_t)(dw->n - 1 - i));
    dw->lru[dw->n - 1] = (uint8_t)r;
}

/* Caches register r, the destination of the instruction in `slot`: its write goes to
 * the partition instead of the main RF. */
static void allocate(sm_sim *s, demand *z, int w, int r, uint16_t slot)
{
    demand_warp *dw = &z->w[w];
    int free_slot;
    if (dw->n == z->k) { /* evict the least recently used */
        int v = dw->lru[0];
        if (dw->dirty[v])
            sm__rfc_writeback(s, w, v, dw->main_slow);
        free_slot = dw->slot[v] - 1;
        dw->slot[v] = dw->dirty[v] = 0;
        sm__rfc_to_main(s, w, v, dw->main_slow);
        memmove(&dw->lru[0], &dw->lru[1], (size_t)(--dw->n));
    } else {
        free_slot = dw->n;
    }
    dw->lru[dw->n++] = (uint8_t)r;
    dw->slot[r] = (uint8_t)(free_slot + 1);
    sm__rfc_to_cache(s, w, r, free_slot);
    s->slots[slot].wbank = s->warps[w].bank[r];
    s->slots[slot].wslow = 0;
}

static void issue(sm_sim *s, void *st, int w, uint16_t slot, const sm__inst *in)
{
    demand *z = st;
    demand_warp *dw = &z->w[w];
    for (int i = 0; i < in->n_src; i++) {
        int r = in->src[i];
        bool hit = dw->slot[r] != 0;
        s->st->rfc_hits += hit;
        s->st->rfc_misses += !hit;
        if (hit)
            touch(dw, r);
    }
    if (in->dst == SM__NO_REG)
        return;
    if (dw->slot[in->dst])
        touch(dw, in->dst);
    else
        allocate(s, z, w, in->dst, slot);
    dw->dirty[in->dst] = 1;
}

const sm__rf_design sm__design_rfc_demand = {
    .info = { .doc = "register-file cache filled on write, LRU (Gebhart et al. 2011)",
              .places_registers = true, .cache_entries = sm__rfc_entries,
              .knobs = sm__rfc_knob_rows, .n_knobs = SM__RFC_N_KNOBS, /* ltrf's block */
              .core_stats = sm__rfc_stats },
    .state_size = state_size, .kernel = kernel, .warp = warp,
    .issue = issue,
};
