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
 * (the best alignment per pair); "upper" any two accesses (the bound of the arbiter).
 *
 * Byte slices under variation (docs/model.md, "Byte slices under variation and aging").
 * The storage map's parts of a bank are its byte slices: with four sub-banks (the
 * dissertation's 4 x 32-byte sub-banks) part s is slice s, the bank's column quarter s,
 * which in the variation model is sub-bank s with its own delay, Leff and NBTI shift;
 * with S parts, part p holds the bytes whose column range it overlaps.  An access is
 * slow iff a part holding one of its bytes is slow (its lanes do not matter: a slice
 * holds its byte of all 32 lanes), so each register's latency follows its value's
 * width: the warp hook and the issue hook rewrite the warp's latency table and the
 * write's slot.  A zero-width value touches no slice and is never slow.  Accesses
 * count for NBTI duty and energy in the parts their bytes touch (sub_reads ...,
 * rewritten by the stats hook), and each part's share of constant bits (the bytes a
 * live narrow value leaves unwritten: no write refreshes them, so one device of each
 * of their cells is under stress with no recovery) is sub_const, from the widths of
 * the values written to its bank.  coalesce_placement: "bank" puts each bank's fast
 * parts at the byte positions narrow values use (0 and 3, then 1, then 2); "bro"
 * re-deals the fast parts of all the SM's virtual banks so (rf_bro's crossbar composes
 * a virtual bank of any sub-banks).
 *
 * The collector write port (coalesce_collector): an operand collector takes one
 * 128-byte write per cycle, and the split crossbar ("split") lets the two reads of one
 * coalesced access into one collector share it; "whole" writes them one a cycle;
 * "free" is rfdse without the design (any number a cycle).  co_collector_writes counts
 * the 128-byte transfers into the collectors: one per physical read access that
 * delivers operands (a read-read pair is one, a zero-width read none). */
#include <string.h>

#include "sm_internal.h" /* the port rules' tag (s->port_tag) and the slots' dst */

/* coalesce_align: which two accesses of a bank may share one physical access */
enum { ALIGN_FIXED, ALIGN_IDEAL, ALIGN_UPPER };
static const char *const align_names[] = { "fixed", "ideal", "upper", NULL };
/* coalesce_placement: which byte positions a bank's fast slices take */
enum { PLACE_PLAIN, PLACE_BANK, PLACE_BRO };
static const char *const place_names[] = { "plain", "bank", "bro", NULL };
/* coalesce_collector: the operand collectors' write port */
enum { COLL_SPLIT, COLL_WHOLE, COLL_FREE };
static const char *const coll_names[] = { "split", "whole", "free", NULL };

typedef struct co_knobs {
    int coalesce_align;
    int coalesce_placement;
    int coalesce_collector;
} co_knobs;
_Static_assert(sizeof(co_knobs) <= SM_DESIGN_KNOB_BYTES, "knob block too small");

static const sm_knob knobs[] = {
    SM_KNOB_ENUM(co_knobs, coalesce_align, align_names, ALIGN_FIXED,
                 "coalesce: which two accesses share one: parity (fixed), best alignment, any"),
    SM_KNOB_ENUM(co_knobs, coalesce_placement, place_names, PLACE_PLAIN,
                 "coalesce: fast byte slices where narrow values live: no, per bank, "
                 "over rf_bro's virtual banks"),
    SM_KNOB_ENUM(co_knobs, coalesce_collector, coll_names, COLL_SPLIT,
                 "coalesce: one 128-byte write per collector a cycle, a coalesced read "
                 "pair sharing it (split), not (whole), or no limit (free)"),
};

enum { PAIRS_RR, PAIRS_WW, PAIRS_RW, ZERO_SKIPS, READ_BYTES, WRITE_BYTES, COLL_WRITES,
       COLL_WAITS, N_STATS };
_Static_assert(N_STATS <= SM_DESIGN_MAX_STATS, "too many statistics");
static const sm_design_stat stats_decl[N_STATS] = {
    [PAIRS_RR] = { "co_pairs_rr", "accesses",
                   "coalesce: read pairs sharing one physical bank access" },
    [PAIRS_WW] = { "co_pairs_ww", "accesses",
                   "coalesce: write pairs sharing one physical bank access" },
    [PAIRS_RW] = { "co_pairs_rw", "accesses",
                   "coalesce: read-write pairs sharing one physical bank access" },
    [ZERO_SKIPS] = { "co_zero_skips", "accesses",
                     "coalesce: zero-width values read or written with no array access" },
    [READ_BYTES] = { "co_read_bytes", "lane bytes",
                     "coalesce: bytes read from the byte slices (lanes x width)" },
    [WRITE_BYTES] = { "co_write_bytes", "lane bytes",
                      "coalesce: bytes written to the byte slices (lanes x width)" },
    [COLL_WRITES] = { "co_collector_writes", "transfers",
                      "coalesce: 128-byte writes into operand collectors (a read-read pair "
                      "one, a zero-width read none)" },
    [COLL_WAITS] = { "co_collector_waits", "cycles",
                     "coalesce: cycles operands waited for their collector's write port" },
};

enum { CO_OPEN = 8 }; /* unpaired booked accesses a bank remembers */

typedef struct co_open {
    int64_t at;    /* grant cycle (-1: none) */
    uint8_t tag, write, slow;
} co_open;

typedef struct co_state {
    uint32_t thresh[4];     /* cumulative width_0..width_3 shares, of 2^32 */
    int align;              /* coalesce_align */
    int collector;          /* coalesce_collector */
    uint8_t part_bytes[SM_MAX_SUBS_PER_BANK]; /* byte mask each part of a bank holds */
    int last;               /* the last request: SM__CO_OWN, _SHARED or _NONE */
    /* per virtual bank and part: accesses touching it, lanes x its bytes they touch,
     * and the bytes a written value leaves unwritten there (of the part's bytes) */
    uint64_t p_rd[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK], p_wr[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK];
    uint64_t p_rd_lb[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK], p_wr_lb[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK];
    uint64_t p_pad[SM_MAX_BANKS][SM_MAX_SUBS_PER_BANK], n_vals[SM_MAX_BANKS];
    uint64_t coll_writes, coll_waits;
    /* the placement's workspace (place) */
    double dp[2 * (SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK + 1)];
    uint8_t dp_k[SM_MAX_BANKS][SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK + 1];
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

static uint8_t tag(uint8_t width, int reg) { return (uint8_t)(TAG_ON | (reg & 1 ? TAG_ODD : 0) | width); }

/* Byte slices an access touches: even registers from byte 0 up, odd ones from byte 3 down. */
static unsigned slices(uint8_t t)
{
    unsigned w = t & TAG_W, m = (1u << w) - 1;
    return t & TAG_ODD ? m << (4 - w) : m;
}

/* Bytes part p of S holds: those whose column quarter its column range overlaps. */
static uint8_t bytes_of_part(int p, int S)
{
    uint8_t m = 0;
    for (int b = 0; b < 4; b++)
        if (b * S < (p + 1) * 4 && p * 4 < (b + 1) * S)
            m |= (uint8_t)(1u << b);
    return m;
}

/* Latency table value of an access of bank `bank`, entry `entry`, touching bytes
 * `bytes`: slow iff a part holding one of them (or the entry) is slow. */
static uint8_t slice_slow(const sm_sim *s, const co_state *c, int bank, int entry, unsigned bytes)
{
    const sm__kernel *k = &s->k;
    uint8_t slow = 0;
    if (bytes) {
        slow = k->map->entry_slow[k->origin[bank]][entry];
        for (int p = 0; p < k->subs; p++)
            if (c->part_bytes[p] & bytes)
                slow |= k->sub_slow[bank][p];
    }
    return (uint8_t)((slow != 0) * k->slow_cycles + k->extra_lat);
}

/* Register r of warp w: its entry (banks.c's rule) and its latency by its width. */
static void reg_latency(sm_sim *s, const co_state *c, int w, int r)
{
    const sm__kernel *k = &s->k;
    sm__warp *wp = &s->warps[w];
    int entry = ((w * k->regs + r) / k->n_banks) % k->n_entries;
    wp->slow[0][r] = wp->slow[1][r] =
        slice_slow(s, c, wp->bank[r], entry, slices(tag(c->width[w][r], r)));
}

/* The width-aware placement.  The share of a bank's accesses that are fast when its
 * fast parts are the set P (bit p), with the kernel's width shares q[0..4] and as many
 * even as odd registers: a zero-width value is always fast, another one iff every part
 * holding one of its bytes is fast. */
static double fast_share(const co_state *c, int S, const double *q, unsigned P)
{
    double f = q[0];
    for (int w = 1; w <= 4; w++)
        for (int odd = 0; odd < 2; odd++) {
            unsigned bytes = slices(tag((uint8_t)w, odd)), need = 0;
            for (int p = 0; p < S; p++)
                need |= (c->part_bytes[p] & bytes) ? 1u << p : 0;
            f += (need & ~P) ? 0 : 0.5 * q[w];
        }
    return f;
}

/* Per count k of fast parts, the best set of positions for them (the first in subset
 * order among equals) and its fast share. */
static void best_sets(const co_state *c, int S, const double *q, unsigned *set, double *share)
{
    for (int k = 0; k <= S; k++)
        share[k] = -1;
    for (unsigned P = 0; P < 1u << S; P++) {
        int k = __builtin_popcount(P);
        double f = fast_share(c, S, q, P);
        if (f > share[k] + 1e-12) {
            share[k] = f;
            set[k] = P;
        }
    }
}

/* How many fast parts each of n banks gets, F in all, for the most fast accesses (banks
 * equally used): a knapsack over banks; among equals the fuller banks first, so with no
 * gain from spreading the fast parts stay in whole banks as rf_bro built them. */
static void split_fast(co_state *c, int n, int S, int F, const double *share, int *k_of)
{
    double *best = c->dp, *next = c->dp + SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK + 1;
    for (int f = 0; f <= F; f++)
        best[f] = f == 0 ? 0 : -1e300;
    for (int b = 0; b < n; b++) {
        for (int f = 0; f <= F; f++) {
            next[f] = -1e300;
            for (int k = S; k >= 0; k--)
                if (k <= f && best[f - k] > -1e299 && best[f - k] + share[k] > next[f] + 1e-12) {
                    next[f] = best[f - k] + share[k];
                    c->dp_k[b][f] = (uint8_t)k;
                }
        }
        memcpy(best, next, sizeof(double) * (size_t)(F + 1));
    }
    for (int b = n - 1, f = F; b >= 0; b--) {
        k_of[b] = c->dp_k[b][f];
        f -= k_of[b];
    }
    for (int i = 1; i < n; i++) /* fuller banks first, as rf_bro orders them */
        for (int j = i; j > 0 && k_of[j] > k_of[j - 1]; j--) {
            int t = k_of[j];
            k_of[j] = k_of[j - 1];
            k_of[j - 1] = t;
        }
}

/* coalesce_placement over banks [0, n): "bank" keeps each bank's fast parts and puts
 * them where the widths want them; "bro" also re-deals them among the banks (rf_bro's
 * crossbar composes a virtual bank of any sub-banks).  Stable (fast parts, then slow
 * ones, in map order), so a map's placement depends on its pattern of slow parts only,
 * as the run cache assumes. */
static void place(co_state *c, sm__kernel *k, const sm_profile *pr, bool across)
{
    int S = k->subs, n = k->n_banks, m = 0, F = 0, k_of[SM_MAX_BANKS];
    double q[5] = { pr->width_0, pr->width_1, pr->width_2, pr->width_3, 0 }, share[9];
    unsigned set[9];
    q[4] = 1 - q[0] - q[1] - q[2] - q[3];
    q[4] = q[4] > 0 ? q[4] : 0;
    best_sets(c, S, q, set, share);
    int16_t id[SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK];
    uint8_t sl[SM_MAX_BANKS * SM_MAX_SUBS_PER_BANK];
    for (int b = 0; b < n; b++) {
        k_of[b] = 0;
        for (int p = 0; p < S; p++)
            k_of[b] += !k->sub_slow[b][p];
        F += k_of[b];
    }
    if (across)
        split_fast(c, n, S, F, share, k_of);
    for (int pass = 0; across && pass < 2; pass++) /* the pool: fast, then slow, in order */
        for (int b = 0; b < n; b++)
            for (int p = 0; p < S; p++)
                if ((k->sub_slow[b][p] != 0) == pass) {
                    id[m] = k->sub_id[b][p];
                    sl[m++] = k->sub_slow[b][p];
                }
    int fi = 0, si = F; /* across: the next fast and the next slow part of the pool */
    for (int b = 0; b < n; b++) {
        int16_t own_id[SM_MAX_SUBS_PER_BANK];
        uint8_t own_sl[SM_MAX_SUBS_PER_BANK];
        int nf = 0, ns = k_of[b]; /* within: the bank's own, fast ones first */
        for (int p = 0; !across && p < S; p++) {
            int i = k->sub_slow[b][p] ? ns++ : nf++;
            own_id[i] = k->sub_id[b][p];
            own_sl[i] = k->sub_slow[b][p];
        }
        nf = 0, ns = k_of[b];
        for (int p = 0; p < S; p++) {
            bool fast = set[k_of[b]] >> p & 1;
            if (across) {
                int i = fast ? fi++ : si++;
                k->sub_id[b][p] = id[i];
                k->sub_slow[b][p] = sl[i];
            } else {
                int i = fast ? nf++ : ns++;
                k->sub_id[b][p] = own_id[i];
                k->sub_slow[b][p] = own_sl[i];
            }
        }
    }
}

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    co_state *c = st;
    double w[4] = { p->width_0, p->width_1, p->width_2, p->width_3 }, acc = 0;
    for (int i = 0; i < 4; i++) {
        acc += w[i];
        c->thresh[i] = acc >= 1 ? UINT32_MAX : (uint32_t)(acc * 4294967296.0);
    }
    const co_knobs *kn = sm_design_knobs(s, SM_DESIGN_coalesce);
    c->align = kn->coalesce_align;
    c->collector = kn->coalesce_collector;
    memset(c->pairs, 0, sizeof c->pairs);
    c->zero_skips = c->rd_bytes = c->wr_bytes = c->rd_lanes = c->wr_lanes = 0;
    c->coll_writes = c->coll_waits = 0;
    c->last = SM__CO_OWN;
    memset(c->n_open, 0, sizeof c->n_open);
    memset(c->p_rd, 0, sizeof c->p_rd);
    memset(c->p_wr, 0, sizeof c->p_wr);
    memset(c->p_rd_lb, 0, sizeof c->p_rd_lb);
    memset(c->p_wr_lb, 0, sizeof c->p_wr_lb);
    memset(c->p_pad, 0, sizeof c->p_pad);
    memset(c->n_vals, 0, sizeof c->n_vals);
    c->slot_w = (uint8_t *)c + sizeof(co_state) +
                (size_t)s->cap.max_warps * sizeof(uint8_t[SM__MAX_REGS]);
    sm__kernel *k = &s->k;
    for (int q = 0; q < k->subs; q++)
        c->part_bytes[q] = bytes_of_part(q, k->subs);
    if (kn->coalesce_placement != PLACE_PLAIN)
        place(c, k, p, kn->coalesce_placement == PLACE_BRO);
    k->coalesce = true;
    k->port_rules = true; /* the joins are made in the port rules (slow_access.c) */
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

/* A new warp's registers hold values of the profile's widths, each register's latency
 * by the slices its value touches. */
static void warp(sm_sim *s, void *st, int w)
{
    co_state *c = st;
    uint64_t key = s->warps[w].rng ^ 0x5851f42d4c957f2dull;
    for (int r = 0; r < SM__MAX_REGS; r++)
        c->width[w][r] = draw_width(c, key + (uint64_t)r);
    for (int r = 0; r < s->k.regs; r++)
        reg_latency(s, c, w, r);
}

/* The write's width is drawn at issue (its reads were requested with the old widths);
 * the write's latency and the register's for later reads follow it. */
static void issue(sm_sim *s, void *st, int w, uint16_t slot, const sm__inst *in)
{
    co_state *c = st;
    if (in->dst == SM__NO_REG)
        return;
    const sm__warp *wp = &s->warps[w];
    uint64_t key = wp->rng ^ ((uint64_t)wp->n_issued * 0x9e3779b97f4a7c15ull) ^ 0xc0a1e5ceull;
    c->slot_w[slot] = c->width[w][in->dst] = draw_width(c, key);
    reg_latency(s, c, w, in->dst);
    s->slots[slot].wslow = wp->slow[in->div][in->dst];
}

uint8_t sm__coalesce_read_tag(const sm_sim *s, int w, int reg)
{
    return tag(state(s)->width[w][reg], reg);
}

uint8_t sm__coalesce_write_tag(const sm_sim *s, uint16_t slot)
{
    return tag(state(s)->slot_w[slot], s->slots[slot].dst);
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

/* The access's bytes by part, for duty and energy; a write also leaves the bytes it
 * does not write holding what they held (constant bits). */
static void count_access(sm_sim *s, co_state *c, int b, uint8_t t, int lanes, bool write)
{
    uint64_t w = t & TAG_ON ? (uint64_t)(t & TAG_W) : 4;
    *(write ? &c->wr_bytes : &c->rd_bytes) += (uint64_t)lanes * w;
    *(write ? &c->wr_lanes : &c->rd_lanes) += (uint64_t)lanes;
    if (b >= s->k.n_banks)
        return; /* a cache's bank (rfc.c): not the byte-sliced file */
    unsigned bytes = t & TAG_ON ? slices(t) : 0xFu;
    for (int p = 0; p < s->k.subs; p++) {
        unsigned in = c->part_bytes[p] & bytes;
        uint64_t lb = (uint64_t)lanes * (uint64_t)__builtin_popcount(in);
        if (in && write) {
            c->p_wr[b][p]++;
            c->p_wr_lb[b][p] += lb;
        } else if (in) {
            c->p_rd[b][p]++;
            c->p_rd_lb[b][p] += lb;
        }
        if (write)
            c->p_pad[b][p] += (uint64_t)__builtin_popcount(c->part_bytes[p] & ~bytes);
    }
    c->n_vals[b] += write;
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
    count_access(s, c, b, t, lanes, write);
    c->last = SM__CO_OWN;
    if ((t & TAG_ON) && (t & TAG_W) == 0) {
        c->last = SM__CO_NONE;
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
        c->last = !write && !o->write ? SM__CO_SHARED : SM__CO_OWN;
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

int sm__coalesce_last(const sm_sim *s) { return state(s)->last; }

/* One instruction's operands into its collector: op[i].at the cycle operand i arrives,
 * op[i].access its physical access (-1: none, a zero-width value), op[i].shared whether
 * it joined another read's access (that transfer carries it).  One 128-byte write a
 * cycle (coalesce_collector), taken by arrival then request order; under "split" a read
 * whose access already wrote this collector shares that write.  Returns the cycle the
 * last operand is in the collector. */
int64_t sm__coalesce_collect(sm_sim *s, sm__co_operand *op, int n, int64_t ready_at)
{
    co_state *c = state(s);
    for (int i = 0; i < n; i++)
        c->coll_writes += op[i].access >= 0 && !op[i].shared;
    if (c->collector == COLL_FREE)
        return ready_at;
    int64_t last = INT64_MIN, done = ready_at;
    bool used[SM__MAX_SRC] = { false };
    for (int m = 0; m < n; m++) {
        int j = -1;
        for (int i = 0; i < n; i++)
            if (!used[i] && (j < 0 || op[i].at < op[j].at))
                j = i;
        used[j] = true;
        if (op[j].access < 0)
            continue; /* nothing to write: the collector takes zeros */
        int partner = -1;
        for (int i = 0; c->collector == COLL_SPLIT && i < n; i++)
            if (i != j && used[i] && op[i].access == op[j].access)
                partner = i;
        int64_t at = op[j].at;
        if (partner >= 0)
            at = op[partner].written > at ? op[partner].written : at;
        else if (at <= last)
            at = last + 1;
        c->coll_waits += (uint64_t)(at - op[j].at);
        op[j].written = at;
        last = at > last ? at : last;
        done = at > done ? at : done;
    }
    return done;
}

/* Energy: an access reads or writes only the byte slices its width needs, so the lane
 * counts of every earlier design are scaled by the bytes moved per 4 bytes; NBTI duty:
 * the accesses and lanes of each physical part are those its bytes saw, and sub_const
 * its register vectors x cycles holding constant bits (the bank's occupancy x the
 * share of its bytes the values written there left unwritten). */
static void stats(const sm_sim *s, const void *st, sm_stats *out)
{
    const co_state *c = st;
    const sm__kernel *k = &s->k;
    uint64_t *mine = sm_design_stats(out, SM_DESIGN_coalesce);
    mine[PAIRS_RR] = c->pairs[0];
    mine[PAIRS_WW] = c->pairs[1];
    mine[PAIRS_RW] = c->pairs[2];
    mine[ZERO_SKIPS] = c->zero_skips;
    mine[READ_BYTES] = c->rd_bytes;
    mine[WRITE_BYTES] = c->wr_bytes;
    mine[COLL_WRITES] = c->coll_writes;
    mine[COLL_WAITS] = c->coll_waits;
    if (c->rd_lanes)
        out->read_lanes = (uint64_t)((double)out->read_lanes * (double)c->rd_bytes /
                                     (4.0 * (double)c->rd_lanes) + 0.5);
    if (c->wr_lanes)
        out->write_lanes = (uint64_t)((double)out->write_lanes * (double)c->wr_bytes /
                                      (4.0 * (double)c->wr_lanes) + 0.5);
    for (int b = 0; b < k->n_banks; b++)
        for (int p = 0; p < k->subs; p++) {
            int id = k->sub_id[b][p];
            out->sub_reads[id] = out->sub_writes[id] = 0;
            out->sub_read_lanes[id] = out->sub_write_lanes[id] = 0;
            out->sub_const[id] = 0;
        }
    for (int b = 0; b < k->n_banks; b++)
        for (int p = 0; p < k->subs; p++) {
            int id = k->sub_id[b][p], nb = __builtin_popcount(c->part_bytes[p]);
            out->sub_reads[id] += c->p_rd[b][p];
            out->sub_writes[id] += c->p_wr[b][p];
            /* lanes x bytes, back to lanes of the part's width */
            out->sub_read_lanes[id] += (c->p_rd_lb[b][p] + (uint64_t)nb / 2) / (uint64_t)nb;
            out->sub_write_lanes[id] += (c->p_wr_lb[b][p] + (uint64_t)nb / 2) / (uint64_t)nb;
            if (c->n_vals[b])
                out->sub_const[id] += (uint64_t)((double)s->occ[b] * (double)c->p_pad[b][p] /
                                                 ((double)c->n_vals[b] * nb) + 0.5);
        }
}

const sm__rf_design sm__design_coalesce = {
    .info = { .doc = "narrow-width coalescing register file: byte slices, parity alignment "
                     "(Radaideh ch. 3)",
              .knobs = knobs, .n_knobs = 3, .stats = stats_decl, .n_stats = N_STATS },
    .state_size = state_size, .kernel = kernel, .warp = warp, .issue = issue, .stats = stats,
};
