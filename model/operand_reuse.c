/* operand_reuse: operand reuse buffers (docs/model.md, "Operand reuse").  NVIDIA's
 * Maxwell and later SMs keep, per source-operand position of a scheduler's dispatch,
 * the value the last instruction read there; an instruction that reads the same
 * register in the same position right after it (the compiler's "reuse" flag) takes the
 * value from the buffer and no bank is read (Jia et al., "Dissecting the NVIDIA Volta
 * GPU architecture via microbenchmarking", 2018, on the reuse cache; Gebhart et al.,
 * ISCA 2011, on operand locality).
 *
 * Here it is an accounting design, like zero_gating: it counts the source reads the
 * buffers would serve and the lane accesses they would save; timing is unchanged (the
 * bank reads stay in the run, so the IPC is the conservative one) and the energy of
 * dse/sweep/energy.c still counts those reads.  Rules of a hit: the scheduler's
 * previous issue was the same warp in the same lane mode (a warp switch or a
 * thread-ID branch changes the lanes the buffer holds), the same register sits in the
 * same position, and that instruction did not write it (its result would leave the
 * buffer stale).  Knob: reuse_slots, the positions that have a buffer (1 to 3, from
 * the first).
 *
 * The design is the recipe of docs/architecture.md, "Extending rfdse": this file, its
 * registry line (model/sm_designs.h), its preset row and its docs; it includes only the
 * public design header. */
#include <string.h>

#include "sm_design.h"

typedef struct reuse_knobs {
    int reuse_slots; /* source positions with a reuse buffer, from the first */
} reuse_knobs;
_Static_assert(sizeof(reuse_knobs) <= SM_DESIGN_KNOB_BYTES, "knob block too small");

static const sm_knob knobs[] = {
    SM_KNOB_INT(reuse_knobs, reuse_slots, 1, 3, 3,
                "operand_reuse: source-operand positions with a reuse buffer (from the first)"),
};

enum { HITS, LANES, N_STATS };
static const sm_design_stat stats_decl[N_STATS] = {
    [HITS] = { "reuse_hits", "accesses",
               "operand_reuse: source reads a reuse buffer serves (bank read saved)" },
    [LANES] = { "reuse_lanes", "lane accesses",
                "operand_reuse: those reads x active lanes (energy a bank would spend)" },
};

typedef struct buffer {
    int warp;                  /* whose operands it holds; -1: none           */
    int div;                   /* their lane mode                             */
    uint8_t reg[SM__MAX_SRC];  /* register per position; SM__NO_REG: empty    */
} buffer;

typedef struct reuse_state {
    int slots, n_sched;
    uint64_t hits, lanes;
    buffer buf[];              /* one per scheduler */
} reuse_state;

static size_t state_size(const sm_config *cap)
{
    return sizeof(reuse_state) + (size_t)cap->n_schedulers * sizeof(buffer);
}

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    (void)p;
    reuse_state *z = st;
    z->slots = ((const reuse_knobs *)sm_design_knobs(s, SM_DESIGN_operand_reuse))->reuse_slots;
    z->n_sched = sm_design_config(s)->n_schedulers;
    z->hits = z->lanes = 0;
    for (int q = 0; q < z->n_sched; q++) {
        z->buf[q].warp = -1;
        memset(z->buf[q].reg, SM__NO_REG, sizeof z->buf[q].reg);
    }
    return SM_OK;
}

/* Warps are dealt to schedulers by w mod n_schedulers (sm_config.n_schedulers). */
static void issue(sm_sim *s, void *st, int w, uint16_t slot, const sm__inst *in)
{
    (void)slot;
    reuse_state *z = st;
    buffer *b = &z->buf[w % z->n_sched];
    bool same = b->warp == w && b->div == in->div;
    int lanes = sm_design_warp_lanes(s, w, in->div);
    for (int i = 0; i < z->slots; i++) {
        uint8_t r = i < in->n_src ? in->src[i] : SM__NO_REG;
        if (same && r != SM__NO_REG && b->reg[i] == r) {
            z->hits++;
            z->lanes += (uint64_t)lanes;
        }
        /* it holds what this instruction read, unless this instruction writes it */
        b->reg[i] = r == in->dst ? SM__NO_REG : r;
    }
    b->warp = w;
    b->div = in->div;
}

static void stats(const sm_sim *s, const void *st, sm_stats *out)
{
    (void)s;
    const reuse_state *z = st;
    uint64_t *mine = sm_design_stats(out, SM_DESIGN_operand_reuse);
    mine[HITS] = z->hits;
    mine[LANES] = z->lanes;
}

const sm__rf_design sm__design_operand_reuse = {
    .info = { .doc = "operand reuse buffers: a source read again in the same position "
                     "right after is not read from a bank (accounting only)",
              .knobs = knobs, .n_knobs = 1, .stats = stats_decl, .n_stats = N_STATS },
    .state_size = state_size, .kernel = kernel, .issue = issue, .stats = stats,
};
