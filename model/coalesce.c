/* A narrow-width coalescing register file (Radaideh's dissertation, ch. 3; docs/model.md,
 * "The coalescing register file").  A register-file design (sm_designs.h).
 *
 * Each bank is four byte slices (sub-bank s holds byte s of all 32 threads, with its own
 * row decoder).  A value needs 0-4 bytes; even registers are right-aligned (bytes 0..w-1)
 * and odd ones left-aligned (bytes 4-w..3), so two accesses of opposite parity whose
 * slice masks do not overlap share one physical access of the bank: any two of reads and
 * writes, from any warps.  A zero-width value (every active lane zero) is neither
 * written nor read from the array: its width mask says so.
 *
 * Timing: the bank ports grant on arrival (sm_internal.h).  A request may join any
 * access booked on its bank that has not started yet and has no partner (the oldest
 * that fits: the arbiter pairs over the pending requests), taking its cycle and no port
 * time of its own; an access takes two requests at most.  The bank remembers its
 * CO_OPEN latest unpaired accesses (a deeper queue loses pairs with its oldest ones:
 * docs/model.md).  The join is done by the port rules
 * (slow_access.c) with the request's tag, set by the client (collector.c,
 * writeback.c) through sm__coalesce_read_tag / _write_tag.
 *
 * Widths are drawn per written value from a hash of the warp's stream state and the
 * instruction's index (reproducible, the stream untouched, as zero_gating does) from the
 * profile's width_0..width_3 shares (the rest full width).  coalesce_align: "fixed" the
 * parity alignment above; "ideal" any two values whose widths sum to at most 4 bytes
 * (the best alignment per pair); "upper" any two accesses (the bound of the arbiter). */
#include <string.h>

#include "sm_internal.h" /* the port rules' tag (s->port_tag) and the slots' dst */

/* coalesce_align: which two accesses of a bank may share one physical access */
enum { ALIGN_FIXED, ALIGN_IDEAL, ALIGN_UPPER };
static const char *const align_names[] = { "fixed", "ideal", "upper", NULL };

typedef struct co_knobs {
    int coalesce_align;
} co_knobs;
_Static_assert(sizeof(co_knobs) <= SM_DESIGN_KNOB_BYTES, "knob block too small");

static const sm_knob knobs[] = {
    SM_KNOB_ENUM(co_knobs, coalesce_align, align_names, ALIGN_FIXED,
                 "coalesce: which two accesses share one: parity (fixed), best alignment, any"),
};

enum { PAIRS_RR, PAIRS_WW, PAIRS_RW, ZERO_SKIPS, N_STATS };
static const sm_design_stat stats_decl[N_STATS] = {
    [PAIRS_RR] = { "co_pairs_rr", "accesses",
                   "coalesce: read pairs sharing one physical bank access" },
    [PAIRS_WW] = { "co_pairs_ww", "accesses",
                   "coalesce: write pairs sharing one physical bank access" },
    [PAIRS_RW] = { "co_pairs_rw", "accesses",
                   "coalesce: read-write pairs sharing one physical bank access" },
    [ZERO_SKIPS] = { "co_zero_skips", "accesses",
                     "coalesce: zero-width values read or written with no array access" },
};

enum { CO_OPEN = 8 }; /* unpaired booked accesses a bank remembers */

typedef struct co_open {
    int64_t at;    /* grant cycle (-1: none) */
    uint8_t tag, write, slow;
} co_open;

typedef struct co_state {
    uint32_t thresh[4];     /* cumulative width_0..width_3 shares, of 2^32 */
    int align;              /* coalesce_align */
    co_open open[SM_MAX_BANKS][CO_OPEN]; /* per bank, oldest first */
    uint8_t n_open[SM_MAX_BANKS];
    uint64_t pairs[3];      /* read-read, write-write, read-write */
    uint64_t zero_skips;    /* accesses of zero-width values: no array access */
    uint64_t rd_bytes, wr_bytes, rd_lanes, wr_lanes; /* accesses x lanes x bytes; x lanes */
    uint8_t *slot_w;        /* per in-flight slot: the width of the value it writes */
    uint8_t width[][SM__MAX_REGS]; /* per warp slot and register: its value's width */
} co_state;

enum { TAG_ON = 0x80, TAG_ODD = 0x10, TAG_W = 0x07 };

static size_t state_size(const sm_config *cap)
{
    size_t slots = (size_t)cap->max_warps * SM__WARP_INFLIGHT;
    return sizeof(co_state) + (size_t)cap->max_warps * sizeof(uint8_t[SM__MAX_REGS]) + slots;
}

static co_state *state(const sm_sim *s) { return s->design_state[SM_DESIGN_coalesce]; }

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    co_state *c = st;
    double w[4] = { p->width_0, p->width_1, p->width_2, p->width_3 }, acc = 0;
    for (int i = 0; i < 4; i++) {
        acc += w[i];
        c->thresh[i] = acc >= 1 ? UINT32_MAX : (uint32_t)(acc * 4294967296.0);
    }
    c->align = ((const co_knobs *)sm_design_knobs(s, SM_DESIGN_coalesce))->coalesce_align;
    memset(c->pairs, 0, sizeof c->pairs);
    c->zero_skips = c->rd_bytes = c->wr_bytes = c->rd_lanes = c->wr_lanes = 0;
    memset(c->n_open, 0, sizeof c->n_open);
    c->slot_w = (uint8_t *)c + sizeof(co_state) +
                (size_t)s->cap.max_warps * sizeof(uint8_t[SM__MAX_REGS]);
    s->k.coalesce = true;
    s->k.port_rules = true; /* the joins are made in the port rules (slow_access.c) */
    return SM_OK;
}

static uint8_t draw_width(const co_state *c, uint64_t key)
{
    uint32_t u = (uint32_t)(sm__mix64(key) >> 32);
    uint8_t w = 0;
    while (w < 4 && u >= c->thresh[w])
        w++;
    return w;
}

/* A new warp's registers hold values of the profile's widths. */
static void warp(sm_sim *s, void *st, int w)
{
    co_state *c = st;
    uint64_t key = s->warps[w].rng ^ 0x5851f42d4c957f2dull;
    for (int r = 0; r < SM__MAX_REGS; r++)
        c->width[w][r] = draw_width(c, key + (uint64_t)r);
}

/* The write's width is drawn at issue (its reads were requested with the old widths). */
static void issue(sm_sim *s, void *st, int w, uint16_t slot, const sm__inst *in)
{
    co_state *c = st;
    if (in->dst == SM__NO_REG)
        return;
    const sm__warp *wp = &s->warps[w];
    uint64_t key = wp->rng ^ ((uint64_t)wp->n_issued * 0x9e3779b97f4a7c15ull) ^ 0xc0a1e5ceull;
    c->slot_w[slot] = c->width[w][in->dst] = draw_width(c, key);
}

static uint8_t tag(uint8_t width, int reg) { return (uint8_t)(TAG_ON | (reg & 1 ? TAG_ODD : 0) | width); }

uint8_t sm__coalesce_read_tag(const sm_sim *s, int w, int reg)
{
    return tag(state(s)->width[w][reg], reg);
}

uint8_t sm__coalesce_write_tag(const sm_sim *s, uint16_t slot)
{
    return tag(state(s)->slot_w[slot], s->slots[slot].dst);
}

/* Byte slices an access touches: even registers from byte 0 up, odd ones from byte 3 down. */
static unsigned slices(uint8_t t)
{
    unsigned w = t & TAG_W, m = (1u << w) - 1;
    return t & TAG_ODD ? m << (4 - w) : m;
}

static bool compatible(const co_state *c, uint8_t a, uint8_t b)
{
    switch (c->align) {
    case ALIGN_UPPER:
        return true;
    case ALIGN_IDEAL:
        return (a & TAG_W) + (b & TAG_W) <= 4;
    default:
        return ((a ^ b) & TAG_ODD) && !(slices(a) & slices(b));
    }
}

static void count_bytes(co_state *c, uint8_t t, int lanes, bool write)
{
    uint64_t w = t & TAG_ON ? (uint64_t)(t & TAG_W) : 4;
    *(write ? &c->wr_bytes : &c->rd_bytes) += (uint64_t)lanes * w;
    *(write ? &c->wr_lanes : &c->rd_lanes) += (uint64_t)lanes;
}

/* Drops the bank's open accesses that have started. */
static void prune(co_state *c, int b, int64_t first)
{
    int n = 0;
    for (int i = 0; i < c->n_open[b]; i++)
        if (c->open[b][i].at >= first)
            c->open[b][n++] = c->open[b][i];
    c->n_open[b] = (uint8_t)n;
}

/* The port rules' first step for an access of bank b tagged `t` (0: untagged, full
 * width): true, with the grant in *grant, if it needs no port time of its own (a zero-
 * width value, or a join with an open access of the bank).  The caller books the port
 * otherwise and then calls sm__coalesce_booked. */
bool sm__coalesce_join(sm_sim *s, int b, uint8_t t, int slow, int lanes, bool write,
                       int64_t *grant)
{
    co_state *c = state(s);
    count_bytes(c, t, lanes, write);
    if ((t & TAG_ON) && (t & TAG_W) == 0) {
        c->zero_skips++;
        *grant = s->now + 1; /* the width mask answers: no array access */
        return true;
    }
    prune(c, b, s->now + 1);
    uint8_t me = t ? t : TAG_ON | 4;
    for (int i = 0; i < c->n_open[b]; i++) {
        co_open *o = &c->open[b][i];
        if (!compatible(c, o->tag ? o->tag : TAG_ON | 4, me))
            continue;
        c->pairs[o->write == write ? (write ? 1 : 0) : 2]++;
        *grant = o->at;
        if (slow > o->slow) /* the pair takes the slower one's time */
            s->read_next[b] += slow - o->slow;
        memmove(o, o + 1, (size_t)(c->n_open[b] - i - 1) * sizeof *o);
        c->n_open[b]--;
        return true;
    }
    return false;
}

void sm__coalesce_booked(sm_sim *s, int b, uint8_t t, int slow, bool write, int64_t grant)
{
    co_state *c = state(s);
    if (c->n_open[b] == CO_OPEN) { /* forget the oldest */
        memmove(&c->open[b][0], &c->open[b][1], (CO_OPEN - 1) * sizeof(co_open));
        c->n_open[b]--;
    }
    c->open[b][c->n_open[b]++] = (co_open){ grant, t, write, (uint8_t)slow };
}

/* Energy: an access reads or writes only the byte slices its width needs, so the lane
 * counts of every earlier design are scaled by the bytes moved per 4 bytes. */
static void stats(const sm_sim *s, const void *st, sm_stats *out)
{
    (void)s;
    const co_state *c = st;
    uint64_t *mine = sm_design_stats(out, SM_DESIGN_coalesce);
    mine[PAIRS_RR] = c->pairs[0];
    mine[PAIRS_WW] = c->pairs[1];
    mine[PAIRS_RW] = c->pairs[2];
    mine[ZERO_SKIPS] = c->zero_skips;
    if (c->rd_lanes)
        out->read_lanes = (uint64_t)((double)out->read_lanes * (double)c->rd_bytes /
                                     (4.0 * (double)c->rd_lanes) + 0.5);
    if (c->wr_lanes)
        out->write_lanes = (uint64_t)((double)out->write_lanes * (double)c->wr_bytes /
                                      (4.0 * (double)c->wr_lanes) + 0.5);
}

const sm__rf_design sm__design_coalesce = {
    .info = { .doc = "narrow-width coalescing register file: byte slices, parity alignment "
                     "(Radaideh ch. 3)",
              .knobs = knobs, .n_knobs = 1, .stats = stats_decl, .n_stats = N_STATS },
    .state_size = state_size, .kernel = kernel, .warp = warp, .issue = issue, .stats = stats,
};
