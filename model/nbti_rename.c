/* nbti_rename: block-level bank renaming, nbti_opt (a) of model.md section 7, as a
 * register-file design with one hook: at block launch it rewrites the block's renaming
 * table (logical -> virtual bank), which sm__banks_warp then applies to the block's
 * warps.
 *
 * The walk: registers of the block's last warp from R0 up; the bank holding each is
 * renamed to the fastest free virtual bank of its speed class, and banks holding none
 * of them fill the remaining slots.  With SM_RENAME_ALL_WARPS the walk takes R0 of
 * every warp of the block (last warp first), then R1, ...: the spec's walk puts the
 * banks that hold other warps' R0 (through the (warp + reg) mod n wrap-around) last in
 * their class, i.e. on the near-boundary banks (docs/nbti.md section 5). */
#include "sm_internal.h"

typedef struct rename_knobs {
    int nbti_rename_order; /* sm_rename_order */
} rename_knobs;
_Static_assert(sizeof(rename_knobs) <= SM_DESIGN_KNOB_BYTES, "knob block too small");

static const char *const order_names[] = SM_ENUM_NAMES(SM_RENAME_ORDERS);
static const sm_knob knobs[] = {
    SM_KNOB_ENUM(rename_knobs, nbti_rename_order, order_names,
                 SM_RENAME_ALL_WARPS, /* model.md section 7: the intent */
                 "registers that order the renaming: the last warp's, or every warp's"),
};

/* Renames logical bank `from` to the first still-unassigned virtual bank of its speed
 * class, unless it already has one.  "First" is "fastest" because rf_bro tables are
 * sorted fastest to slowest. */
static void rename_next(const sm__kernel *k, uint8_t *rename, bool *taken, bool *done,
                        int from)
{
    if (done[from])
        return;
    for (int to = 0; to < k->n_banks; to++)
        if (!taken[to] && k->cls[to] == k->cls[from]) {
            rename[from] = (uint8_t)to;
            taken[to] = done[from] = true;
            return;
        }
}

static void rename_block(sm_sim *s, void *st, sm__block *blk, int first_warp)
{
    (void)st;
    const sm__kernel *k = &s->k;
    bool taken[SM_MAX_BANKS] = { false }, done[SM_MAX_BANKS] = { false };
    const rename_knobs *kn = sm_design_knobs(s, SM_DESIGN_nbti_rename);
    int n_walk = kn->nbti_rename_order == SM_RENAME_ALL_WARPS ? k->warps_per_block : 1;
    int last = k->warps_per_block - 1, lanes[SM__MAX_WARPS];
    for (int j = 0; j < n_walk; j++)
        lanes[j] = sm__gen_lanes(k, blk->ordinal, last - j);
    for (int r = 0; r < k->regs; r++)
        for (int j = 0; j < n_walk; j++)
            rename_next(k, blk->rename, taken, done,
                        sm__banks_logical(k, first_warp + last - j, r, lanes[j]));
    for (int b = 0; b < k->n_banks; b++)
        rename_next(k, blk->rename, taken, done, b);
}

const sm__rf_design sm__design_nbti_rename = {
    .info = { .doc = "nbti_opt: block-level bank renaming", .needs_bro = true,
              .knobs = knobs, .n_knobs = 1 },
    .block = rename_block,
};
