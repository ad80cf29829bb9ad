/* reg_release: register release, renaming and power gating (Jeon & Annavaram, "GPGPU
 * register file management by hardware co-operated register reallocation", USC
 * CENG-2014-05) as a register-file design; docs/model.md, "Register release and power
 * gating".
 *
 * Liveness comes from the stream's own def-use, not from a drawn flag: each warp keeps a
 * copy of its stream state and draws up to rr_horizon instructions ahead of the one it
 * issues (sm__gen_ahead), so the warp's stream is untouched.  A read is its value's last
 * use when the window holds a write of the register before any other read of it, or
 * ends with the warp; a value whose next access lies beyond the window is kept (the
 * compiler cannot release a value live across a loop back edge).  A value never read is
 * freed as it is written.
 *
 * Allocation: a physical register (bank, row) from a free map, per warp and register.
 * The bank and latency of a write are fixed at issue (sm__slot.wbank/wslow), so the
 * register for instruction i+1's destination is chosen and reserved when instruction i
 * issues, from the look-ahead, and the warp's bank[]/slow[][] tables point at it before
 * i+1 issues (invariant 4); it counts as allocated from i+1's issue, after i+1's
 * last-use reads have freed theirs.  A write to a register that holds a value reuses its
 * physical register (the report allocates at the first write after a release only).
 * Registers [0, n_static) keep the slot their first write gets (the renaming table's
 * cap), and the profile's long-lived registers are never released: both are freed with
 * the warp.
 *
 * Accounting: per row group (rr_row_groups rows of one bank, all its sub-bank parts)
 * the registers allocated and holding a value, integrated piecewise over time (events
 * of an issue count from the next cycle, when its reads happen).  Power: nothing gated,
 * a register while allocated, or a row group while one of its registers is; a wake-up is
 * the one cycle the report hides in the operand collector, so it costs no time here. */
#include <string.h>

#include "sm_internal.h"

#define RING 512           /* look-ahead ring: rr_horizon (at most 256) + 1, power of 2 */
#define PENDING 128        /* delayed releases per warp: 3 per instruction x (32 + 1)   */
#define NONE 0xFFFF
#define MAX_GROUPS 16      /* row groups per bank (SM_STATS_MAX_ROW_GROUPS)             */

enum { PH_FREE, PH_RESERVED, PH_HELD, PH_LIVE }; /* a physical register's state */

typedef struct group {
    uint64_t free;          /* free rows, bit e - first row of the group */
    int n_held, n_live;     /* registers allocated / holding a value     */
    int64_t t;              /* cycle the integrals below run to          */
    uint64_t held, live, on, allocs; /* vector-cycles; cycles with n_held > 0; count */
} group;

/* The registers one instruction of the look-ahead names, each with what its next access
 * in the window is: the liveness test reads it instead of scanning the window. */
typedef struct access {
    uint8_t n;                     /* distinct registers (sources, then destination) */
    uint8_t reg[SM__MAX_SRC + 1];
    int8_t next[SM__MAX_SRC + 1];  /* -1: none in the window (yet); 1: a read; 0: a write */
} access;

typedef struct rwarp {
    sm__warp ahead;          /* copy of the stream state: n_issued is the next to draw */
    sm__inst ring[RING];     /* the instructions from the one issuing next */
    access acc[RING];        /* their registers' next accesses, by ring slot */
    int head, n, left;       /* ring start, valid entries, still to draw   */
    int32_t base;            /* the warp's instruction at the ring start, counted from 0 */
    int32_t last[SM__MAX_REGS]; /* the last instruction drawn that names the register */
    uint8_t last_at[SM__MAX_REGS]; /* ... and where in its access entry */
    int n_pend, pend_head;
    uint16_t pend_phys[PENDING];
    int32_t pend_due[PENDING]; /* n_issued at which the release takes effect */
    uint16_t map[SM__MAX_REGS];  /* register -> physical (NONE)         */
    uint8_t dies[SM__MAX_REGS];  /* the value being written dies at its write */
    uint8_t home[SM__MAX_REGS];  /* the bank the plain mapping gives it */
    uint16_t cand;               /* reserved for the next destination, or NONE */
} rwarp;

/* Its knobs (Jeon & Annavaram's defaults: 1 KB sub-arrays and table, a flag
 * instruction every 18; 64 instructions of look-ahead stand for the compiler's liveness
 * within a loop body). */
typedef struct rr_knobs {
    int rr_policy;              /* sm_rr_policy: placement of a new value  */
    int rr_gating;              /* sm_rr_gating: power gating              */
    bool rr_release;            /* release at the last read                */
    int rr_row_groups, rr_table_bytes, rr_flag_every, rr_horizon;
} rr_knobs;
_Static_assert(sizeof(rr_knobs) <= SM_DESIGN_KNOB_BYTES, "knob block too small");

static const char *const policy_names[] = SM_ENUM_NAMES(SM_RR_POLICIES);
static const char *const gating_names[] = SM_ENUM_NAMES(SM_RR_GATINGS);
static const sm_knob knobs[] = {
    SM_KNOB_ENUM(rr_knobs, rr_policy, policy_names, SM_RR_CONSOLIDATE,
                 "reg_release: placement of a new value"),
    SM_KNOB_ENUM(rr_knobs, rr_gating, gating_names, SM_RR_GATE_ROW,
                 "reg_release: power gating of unallocated storage"),
    SM_KNOB_BOOL(rr_knobs, rr_release, 1,
                 "reg_release: free a register at its last read (false: at the warp's end)"),
    SM_KNOB_INT(rr_knobs, rr_row_groups, 1, 16, 8,
                "reg_release: row groups (gating sub-arrays) per bank"),
    SM_KNOB_INT(rr_knobs, rr_table_bytes, 0, 1048576, 1024,
                "reg_release: renaming-table bytes (2 per entry); the rest keep static slots"),
    SM_KNOB_INT(rr_knobs, rr_flag_every, 0, 100000, 18,
                "reg_release: one release-flag instruction per this many (0: free flags)"),
    SM_KNOB_INT(rr_knobs, rr_horizon, 1, 256, 64,
                "reg_release: instructions the liveness analysis looks ahead"),
};

/* Its statistics in sm.h's lists (older than the designs' own statistics). */
static const char *const core_stats[] = { "rf_vectors", "n_row_groups", "rr_*", "bank_live",
                                          "bank_powered", "sub_powered", "group_*", NULL };

/* Placement summaries (choose): kept up to date with every change of a group's free map,
 * so a choice reads a few masks instead of keying every group of every bank.  "Fast"
 * here is the entry's own bit (entry_slow); the sub-bank parts a warp's lanes touch are
 * the mask lane_fast[parts], per bank. */
typedef struct summary {
    bool ready;                            /* built at the kernel's first warp        */
    uint64_t banks_free, banks_fast;       /* banks with a free row / a free fast row */
    uint16_t groups_free[SM_MAX_BANKS];    /* groups of bank b with a free row        */
    uint16_t groups_fast[SM_MAX_BANKS];    /* ... with a free row of a fast entry     */
    uint64_t fast_rows[SM_MAX_BANKS][MAX_GROUPS]; /* fast entries, as group.free  */
    uint64_t lane_fast[SM_MAX_SUBS_PER_BANK + 1]; /* banks whose first parts are fast */
    uint64_t bank_allocs[SM_MAX_BANKS];    /* allocations so far, over the bank's groups */
} summary;

typedef struct rr_state {
    const rr_knobs *kn;     /* the running technique's knobs */
    int groups, rows, n_static, long_lived, delay, horizon, n_held, peak;
    uint64_t wakeups, releases, flags, flag_lanes, fast, slow;
    uint8_t ph[SM_MAX_BANKS * SM_MAX_ENTRIES];
    group g[SM_MAX_BANKS][MAX_GROUPS];
    summary sum;
    rwarp w[];
} rr_state;

static size_t state_size(const sm_config *cap)
{
    return sizeof(rr_state) + (size_t)cap->max_warps * sizeof(rwarp);
}

/* ---- row groups: piecewise integration ------------------------------------------- */

static group *group_of(rr_state *z, const sm__kernel *k, int p)
{
    return &z->g[p / k->n_entries][(p % k->n_entries) / z->rows];
}

static void flush(group *g, int64_t at)
{
    assert(at >= g->t); /* events come in cycle order */
    uint64_t dt = (uint64_t)(at - g->t);
    g->held += (uint64_t)g->n_held * dt;
    g->live += (uint64_t)g->n_live * dt;
    g->on += (uint64_t)(g->n_held > 0) * dt;
    g->t = at;
}

/* Group (b, gi)'s free map changed: its bits in the placement summaries follow. */
static void summarize(rr_state *z, int b, int gi)
{
    summary *m = &z->sum;
    const group *g = &z->g[b][gi];
    unsigned gbit = 1u << gi;
    uint64_t bbit = 1ULL << b;
    m->groups_free[b] = (uint16_t)(g->free ? m->groups_free[b] | gbit : m->groups_free[b] & ~gbit);
    m->groups_fast[b] = (uint16_t)(g->free & m->fast_rows[b][gi] ? m->groups_fast[b] | gbit
                                                                  : m->groups_fast[b] & ~gbit);
    m->banks_free = m->groups_free[b] ? m->banks_free | bbit : m->banks_free & ~bbit;
    m->banks_fast = m->groups_fast[b] ? m->banks_fast | bbit : m->banks_fast & ~bbit;
}

/* The summaries from the kernel's storage map and free maps, at its first warp (after
 * every design's kernel hook: coalesce re-deals the sub-bank parts in its own).  A row
 * is fast for a warp exactly when sm__banks_slow() is 0 for it: no slow cycles at all,
 * or its entry and the first parts its lanes touch are fast. */
static void summaries_build(rr_state *z, const sm__kernel *k)
{
    summary *m = &z->sum;
    memset(m->lane_fast, 0, sizeof m->lane_fast);
    for (int b = 0; b < k->n_banks; b++) {
        int fast_parts = 0; /* the leading fast sub-bank parts */
        while (fast_parts < k->subs && !k->sub_slow[b][fast_parts])
            fast_parts++;
        for (int parts = 0; parts <= k->subs; parts++)
            if (!k->slow_cycles || parts <= fast_parts)
                m->lane_fast[parts] |= 1ULL << b;
        for (int gi = 0; gi < z->groups; gi++) {
            uint64_t fast = 0;
            for (int i = 0; i < z->rows && gi * z->rows + i < k->n_entries; i++)
                fast |= (uint64_t)(!k->slow_cycles ||
                                   !k->map->entry_slow[k->origin[b]][gi * z->rows + i]) << i;
            m->fast_rows[b][gi] = fast;
            summarize(z, b, gi);
        }
    }
    m->ready = true;
}

/* Physical register p changes state at cycle `at`. */
static void set_state(rr_state *z, const sm__kernel *k, int p, int to, int64_t at)
{
    group *g = group_of(z, k, p);
    int from = z->ph[p];
    flush(g, at);
    g->n_held += (to >= PH_HELD) - (from >= PH_HELD);
    g->n_live += (to == PH_LIVE) - (from == PH_LIVE);
    z->n_held += (to >= PH_HELD) - (from >= PH_HELD);
    z->peak = z->n_held > z->peak ? z->n_held : z->peak;
    if (to == PH_FREE) {
        g->free |= 1ULL << (p % k->n_entries % z->rows);
        summarize(z, p / k->n_entries, p % k->n_entries / z->rows);
    }
    z->ph[p] = (uint8_t)to;
}

/* ---- placement -------------------------------------------------------------------- */

#ifndef NDEBUG
/* The placement by its definition, which choose() computes from the summaries: debug
 * builds (the sanitizer run of the tests) check every choice against it. */

/* The row of group (b, gi) a value of a warp with `lanes` lanes takes: the first free
 * one, or with fast_first the first free fast one; *slow gets its latency - 1. */
static int pick_row(const rr_state *z, const sm__kernel *k, int b, int gi, int lanes,
                    bool want_fast, int *slow)
{
    int first = -1;
    for (uint64_t f = z->g[b][gi].free; f; f &= f - 1) {
        int e = gi * z->rows + __builtin_ctzll(f);
        int sl = sm__banks_slow(k, b, e, lanes);
        if (first < 0 || (want_fast && !sl)) {
            first = e;
            *slow = sl;
            if (!want_fast || !sl)
                break;
        }
    }
    return first;
}

/* Allocations made so far in bank b, over its row groups (capped for the key). */
static uint64_t bank_allocs(const rr_state *z, int b)
{
    uint64_t n = 0;
    for (int gi = 0; gi < z->groups; gi++)
        n += z->g[b][gi].allocs;
    return n < 0xffffffffffULL ? n : 0xffffffffffULL;
}

/* Lexicographic key of group (b, gi) under the policy; smaller is better (see choose). */
static uint64_t key_of(const rr_state *z, const sm__kernel *k, int policy, int b, int gi,
                       int home, int slow)
{
    const group *g = &z->g[b][gi];
    uint64_t dist = (uint64_t)((b - home + k->n_banks) % k->n_banks);
    uint64_t fill = (uint64_t)(SM_MAX_ENTRIES - g->n_held);
    uint64_t allocs = g->allocs < 0xffffffffULL ? g->allocs : 0xffffffffULL;
    switch (policy) {
    case SM_RR_WEAR_LEVEL:
        return dist << 48 | allocs << 8 | (uint64_t)gi;
    case SM_RR_FAST_FIRST:
        return (uint64_t)slow << 60 | dist << 48 | fill << 8 | (uint64_t)gi;
    case SM_RR_FAST_SPREAD: /* no distance: any fast bank, the least used first */
        return (uint64_t)slow << 60 | bank_allocs(z, b) << 8 | (uint64_t)gi;
    default:
        return dist << 48 | fill << 8 | (uint64_t)gi;
    }
}

/* The smallest key over every group with a free row (the first such in bank-major
 * order on a tie): its register, or -1 if none is free. */
static int choice_by_scan(const rr_state *z, const sm_sim *s, int w, int r)
{
    const sm__kernel *k = &s->k;
    int policy = z->kn->rr_policy, lanes = s->warps[w].tlanes[0], best = -1;
    uint64_t best_key = UINT64_MAX;
    for (int b = 0; b < k->n_banks; b++)
        for (int gi = 0; gi < z->groups; gi++) {
            int slow = 0, e;
            if (!z->g[b][gi].free ||
                (e = pick_row(z, k, b, gi, lanes,
                              policy == SM_RR_FAST_FIRST || policy == SM_RR_FAST_SPREAD,
                              &slow)) < 0)
                continue;
            uint64_t key = key_of(z, k, policy, b, gi, z->w[w].home[r], slow);
            if (key < best_key) {
                best_key = key;
                best = b * k->n_entries + e;
            }
        }
    return best;
}
#endif

/* The first bank of `banks` at or after `home`, cyclically (the nearest to it). */
static int nearest(uint64_t banks, int home)
{
    uint64_t after = banks >> home;
    return after ? home + __builtin_ctzll(after) : __builtin_ctzll(banks);
}

/* Of the groups of bank b in `groups`, the one with the most registers allocated
 * (consolidate, fast_first) or, with `worn`, the fewest allocations so far
 * (wear_level); the lowest on a tie. */
static int best_group(const rr_state *z, int b, unsigned groups, bool worn)
{
    int best = -1;
    uint64_t best_v = UINT64_MAX;
    for (; groups; groups &= groups - 1) {
        int gi = __builtin_ctz(groups);
        const group *g = &z->g[b][gi];
        uint64_t v = worn ? (g->allocs < 0xffffffffULL ? g->allocs : 0xffffffffULL)
                          : (uint64_t)(SM_MAX_ENTRIES - g->n_held);
        if (v < best_v) {
            best_v = v;
            best = gi;
        }
    }
    return best;
}

/* fast_spread's bank: among banks with a free fast row for the warp (else among all with
 * a free row), the fewest allocations so far, then the lowest first group with such a
 * row, then the lowest bank.  *fast: whether the row is fast. */
static int spread_bank(const rr_state *z, uint64_t fast_banks, int slow_cycles, bool *fast)
{
    const summary *m = &z->sum;
    int best = -1;
    uint64_t best_key = UINT64_MAX;
    for (uint64_t bs = m->banks_free; bs; bs &= bs - 1) {
        int b = __builtin_ctzll(bs);
        bool f = fast_banks >> b & 1;
        uint64_t n = m->bank_allocs[b] < 0xffffffffffULL ? m->bank_allocs[b] : 0xffffffffffULL;
        uint64_t key = (uint64_t)(f ? 0 : slow_cycles) << 60 | n << 8 |
                       (uint64_t)__builtin_ctz(f ? m->groups_fast[b] : m->groups_free[b]);
        if (key < best_key) {
            best_key = key;
            best = b;
            *fast = f;
        }
    }
    return best;
}

/* Chooses a free physical register for register r of warp w and reserves it; NONE if
 * the register file is full.  The policy's order, lexicographic (smaller is better): the
 * bank first: consolidate and wear_level keep a value in the bank the plain mapping
 * gives its register (moving it would change the bank conflicts, not only the power),
 * and look elsewhere only when that bank is full; fast_first takes the nearest bank with
 * fast storage for the warp's lanes.  Within the bank: the group with the most
 * registers allocated (consolidate, fast_first) or the fewest allocations so far
 * (wear_level), then the lowest group; its first free row (fast_first: its first fast
 * one).  fast_spread ignores the home bank: among banks with fast storage, the one with
 * the fewest allocations so far, so the writes (and the NBTI stress they bring) spread
 * over every fast sub-bank, at the price of more bank conflicts than a value kept in
 * its own bank.  Ties between banks go to the lowest. */
static uint16_t choose(rr_state *z, const sm_sim *s, int w, int r)
{
    const sm__kernel *k = &s->k;
    const summary *m = &z->sum;
    assert(m->ready);
    if (!m->banks_free) {
        assert(choice_by_scan(z, s, w, r) < 0);
        return NONE;
    }
    int policy = z->kn->rr_policy, home = z->w[w].home[r], b, gi;
    int parts = sm__parts_for(s->warps[w].tlanes[0], k->subs);
    assert(parts >= 0 && parts <= k->subs);
    uint64_t fast_banks = m->banks_fast & m->lane_fast[parts];
    bool fast = false;
    switch (policy) {
    case SM_RR_FAST_SPREAD:
        b = spread_bank(z, fast_banks, k->slow_cycles, &fast);
        gi = __builtin_ctz(fast ? m->groups_fast[b] : m->groups_free[b]);
        break;
    case SM_RR_FAST_FIRST:
        fast = fast_banks != 0;
        b = nearest(fast ? fast_banks : m->banks_free, home);
        gi = best_group(z, b, fast ? m->groups_fast[b] : m->groups_free[b], false);
        break;
    default:
        b = nearest(m->banks_free, home);
        gi = best_group(z, b, m->groups_free[b], policy == SM_RR_WEAR_LEVEL);
    }
    group *g = &z->g[b][gi];
    uint64_t rows = g->free & (fast ? m->fast_rows[b][gi] : ~0ULL);
    int e = __builtin_ctzll(rows);
    int p = b * k->n_entries + gi * z->rows + e;
    assert(p == choice_by_scan(z, s, w, r));
    g->free &= ~(1ULL << e);
    summarize(z, b, gi);
    z->ph[p] = PH_RESERVED;
    return (uint16_t)p;
}

/* The first free row of bank b (a value whose bank is already fixed), or NONE. */
static uint16_t choose_in_bank(rr_state *z, const sm__kernel *k, int b)
{
    if (!z->sum.groups_free[b])
        return NONE;
    int gi = __builtin_ctz(z->sum.groups_free[b]);
    group *g = &z->g[b][gi];
    int p = b * k->n_entries + gi * z->rows + __builtin_ctzll(g->free);
    g->free &= g->free - 1;
    summarize(z, b, gi);
    z->ph[p] = PH_RESERVED;
    return (uint16_t)p;
}

/* Points warp w's tables for register r at physical register p: accesses issued from
 * now on go to its bank with its latency.  Its home bank and live_vec follow, so
 * retirement (which counts home banks) balances. */
static void point(sm_sim *s, int w, int r, int p)
{
    sm__warp *wp = &s->warps[w];
    int b = p / s->k.n_entries, e = p % s->k.n_entries;
    if (wp->home[r] != b) { /* the vector now lives in bank b (sm__warp.home) */
        sm__occupancy_flush(s);
        s->live_vec[wp->home[r]]--;
        s->live_vec[b]++;
        wp->home[r] = (uint8_t)b;
    }
    wp->bank[r] = (uint8_t)b;
    wp->slow[0][r] = sm__banks_slow(&s->k, b, e, wp->tlanes[0]);
    wp->slow[1][r] = sm__banks_slow(&s->k, b, e, wp->tlanes[1]);
}

/* ---- liveness from the look-ahead -------------------------------------------------- */

static const sm__inst *ahead(const rwarp *rw, int i) { return &rw->ring[(rw->head + i) & (RING - 1)]; }

static bool reads(const sm__inst *in, int r)
{
    return in->src[0] == r || in->src[1] == r || in->src[2] == r;
}

/* Instruction `at` of the warp (its ring slot's look-ahead entry) names its registers;
 * the previous instruction in the window naming each learns what this access is. */
static void record(rwarp *rw, int32_t at, const sm__inst *in)
{
    access *a = &rw->acc[at & (RING - 1)];
    a->n = 0;
    for (int i = 0; i <= SM__MAX_SRC; i++) {
        uint8_t r = i < SM__MAX_SRC ? in->src[i] : in->dst;
        /* named twice (read and written: a read, as the scan sees it), or no register */
        if (r == SM__NO_REG || rw->last[r] == at)
            continue;
        if (rw->last[r] >= rw->base)
            rw->acc[rw->last[r] & (RING - 1)].next[rw->last_at[r]] = i < SM__MAX_SRC;
        rw->last[r] = at;
        rw->last_at[r] = a->n;
        a->reg[a->n] = r;
        a->next[a->n++] = -1;
    }
}

#ifndef NDEBUG
/* The scan read_later() replaces (checked against it in debug builds). */
static bool read_later_by_scan(const rwarp *rw, int r)
{
    for (int i = 1; i < rw->n; i++) {
        const sm__inst *in = ahead(rw, i);
        if (reads(in, r))
            return true;
        if (in->dst == r)
            return false;
    }
    return rw->left > 0;
}
#endif

/* After the instruction issuing (which names r), is the value in r read again?  A
 * write of r before any read ends it; so does the warp's end; past the window, it is
 * kept. */
static bool read_later(const rwarp *rw, int r)
{
    const access *a = &rw->acc[rw->base & (RING - 1)];
    int next = -1;
    for (int j = 0; j < a->n; j++)
        if (a->reg[j] == r)
            next = a->next[j];
    assert(r != SM__NO_REG);
    bool later = next < 0 ? rw->left > 0 : next == 1;
    assert(later == read_later_by_scan(rw, r));
    return later;
}

static void draw_ahead(rwarp *rw, const sm__kernel *k, int horizon)
{
    while (rw->left > 0 && rw->n < horizon + 1) {
        sm__inst *in = (sm__inst *)ahead(rw, rw->n);
        sm__gen_ahead(k, &rw->ahead, in);
        record(rw, rw->base + rw->n, in);
        rw->n++;
        rw->left--;
    }
}

/* ---- hooks ----------------------------------------------------------------------- */

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    rr_state *z = st;
    sm__kernel *k = &s->k;
    /* the pool must hold every register of the resident warps (the loader's storage
     * rule guarantees it for sweeps; this guards direct callers of the model) */
    if ((long)k->n_banks * k->n_entries < (long)k->resident * k->warps_per_block * k->regs)
        return SM_E_INVALID;
    const rr_knobs *kn = sm_design_knobs(s, SM_DESIGN_reg_release);
    int groups = kn->rr_row_groups < MAX_GROUPS ? kn->rr_row_groups : MAX_GROUPS;
    while (groups > 1 && (k->n_entries % groups || k->n_entries / groups > 64))
        groups--; /* the largest count that divides the rows, 64 rows a group at most */
    int rows = k->n_entries / groups;
    if (rows > 64) { /* no divisor does (a prime count of rows over 64): a shorter last group */
        groups = (k->n_entries + 63) / 64;
        rows = (k->n_entries + groups - 1) / groups;
    }
    memset(z, 0, offsetof(rr_state, w));
    z->kn = kn;
    z->groups = groups;
    z->rows = rows;
    int warps = k->resident * k->warps_per_block, entries = kn->rr_table_bytes / 2;
    int renamed = warps ? entries / warps : k->regs;
    z->n_static = k->regs > renamed ? k->regs - renamed : 0;
    z->long_lived = p->long_lived_regs < k->regs ? p->long_lived_regs : k->regs;
    z->delay = p->release_delay < 32 ? p->release_delay : 32;
    z->horizon = kn->rr_horizon < RING - 1 ? kn->rr_horizon : RING - 1;
    for (int gi = 0; gi < groups; gi++) {
        int n = k->n_entries - gi * rows < rows ? k->n_entries - gi * rows : rows;
        uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1;
        for (int b = 0; b < k->n_banks; b++)
            z->g[b][gi].free = all;
    }
    z->sum.ready = false; /* the storage map may still change (summaries_build) */
    k->flag_every = kn->rr_flag_every;
    return SM_OK;
}

/* Chooses the register the next instruction's destination will be written to, unless
 * it holds a value (written in place) or the instruction also reads it. */
static void prepare_next(rr_state *z, sm_sim *s, int w)
{
    rwarp *rw = &z->w[w];
    rw->cand = NONE;
    if (rw->n == 0)
        return;
    const sm__inst *in = ahead(rw, 0);
    if (in->dst == SM__NO_REG || rw->map[in->dst] != NONE || reads(in, in->dst))
        return;
    rw->cand = choose(z, s, w, in->dst);
    if (rw->cand != NONE)
        point(s, w, in->dst, rw->cand);
}

static void warp(sm_sim *s, void *st, int w)
{
    rr_state *z = st;
    rwarp *rw = &z->w[w];
    sm__warp *wp = &s->warps[w];
    if (!z->sum.ready)
        summaries_build(z, &s->k);
    if (s->k.flag_every) /* the flag instructions come on top of the kernel's own */
        wp->n_left += (wp->n_left + s->k.flag_every - 1) / s->k.flag_every;
    rw->ahead = *wp;
    rw->head = rw->n = rw->n_pend = rw->pend_head = rw->base = 0;
    memset(rw->last, 0xff, sizeof rw->last); /* -1: none */
    rw->left = wp->n_left;
    memset(rw->map, 0xff, sizeof rw->map);
    memset(rw->dies, 0, sizeof rw->dies);
    memcpy(rw->home, wp->bank, sizeof rw->home);
    draw_ahead(rw, &s->k, z->horizon);
    prepare_next(z, s, w);
}

static bool releasable(const rr_state *z, const sm_sim *s, int r)
{
    (void)s;
    return z->kn->rr_release && r >= z->n_static && r >= z->long_lived;
}

static void free_phys(rr_state *z, const sm__kernel *k, int p, int64_t at)
{
    set_state(z, k, p, PH_FREE, at);
}

/* The last read of r: its register is freed after the read, or release_delay
 * instructions later. */
static void release(rr_state *z, sm_sim *s, int w, int r)
{
    rwarp *rw = &z->w[w];
    int p = rw->map[r];
    rw->map[r] = NONE;
    z->releases++;
    if (!z->delay) {
        free_phys(z, &s->k, p, s->now + 1);
        return;
    }
    int i = (rw->pend_head + rw->n_pend++) % PENDING;
    rw->pend_phys[i] = (uint16_t)p;
    rw->pend_due[i] = s->warps[w].n_issued + z->delay;
}

static void drain(rr_state *z, sm_sim *s, int w, bool all)
{
    rwarp *rw = &z->w[w];
    while (rw->n_pend && (all || rw->pend_due[rw->pend_head] <= s->warps[w].n_issued)) {
        free_phys(z, &s->k, rw->pend_phys[rw->pend_head], s->now + 1);
        rw->pend_head = (rw->pend_head + 1) % PENDING;
        rw->n_pend--;
    }
}

/* Takes a register for r in the bank its tables already name (a live-in read, or the
 * full register file at the previous issue). */
static void count_alloc(rr_state *z, sm_sim *s, int w, int p)
{
    const sm__kernel *k = &s->k;
    group *g = group_of(z, k, p);
    g->allocs++;
    z->sum.bank_allocs[p / k->n_entries]++;
    z->wakeups += z->kn->rr_gating == SM_RR_GATE_REGISTER ||
                  (z->kn->rr_gating == SM_RR_GATE_ROW && g->n_held == 0);
    bool slow = sm__banks_slow(k, p / k->n_entries, p % k->n_entries, s->warps[w].tlanes[0]);
    z->slow += slow;
    z->fast += !slow;
}

static void take_in_bank(rr_state *z, sm_sim *s, int w, int r)
{
    rwarp *rw = &z->w[w];
    uint16_t p = choose_in_bank(z, &s->k, s->warps[w].bank[r]);
    if (p == NONE)
        p = choose(z, s, w, r); /* bank full: the timing was fixed for the old bank */
    for (int v = 0; p == NONE && v < s->c->max_warps; v++) {
        /* the pool is full only of released registers still waiting out release_delay
         * (each warp maps at most regs, and the pool holds all of them): free them now */
        drain(z, s, v, true);
        p = choose(z, s, w, r);
    }
    assert(p != NONE);
    rw->map[r] = p;
    count_alloc(z, s, w, p);
    set_state(z, &s->k, p, PH_HELD, s->now + 1);
    point(s, w, r, p);
}

/* The issued instruction's sources (a live-in gets its register now; a last use frees
 * it) and destination (the reserved register, or its own in place). */
static void sources(rr_state *z, sm_sim *s, int w, const sm__inst *in)
{
    rwarp *rw = &z->w[w];
    for (int i = 0; i < in->n_src; i++) {
        int r = in->src[i];
        if (rw->map[r] == NONE)
            take_in_bank(z, s, w, r);
        if (r != in->dst && releasable(z, s, r) && !read_later(rw, r))
            release(z, s, w, r);
    }
}

static void destination(rr_state *z, sm_sim *s, int w, int r)
{
    rwarp *rw = &z->w[w];
    if (rw->map[r] == NONE) {
        if (rw->cand == NONE) {
            take_in_bank(z, s, w, r);
        } else {
            rw->map[r] = rw->cand;
            count_alloc(z, s, w, rw->cand);
            set_state(z, &s->k, rw->cand, PH_HELD, s->now + 1);
            rw->cand = NONE;
        }
    }
    rw->dies[r] = releasable(z, s, r) && !read_later(rw, r);
}

/* The warp's last instruction: values still held die with it, at once or as their
 * writes finish (write hook). */
static void warp_end(rr_state *z, sm_sim *s, int w)
{
    rwarp *rw = &z->w[w];
    const sm__warp *wp = &s->warps[w];
    drain(z, s, w, true);
    for (int r = 0; r < s->k.regs; r++) {
        if (rw->map[r] == NONE)
            continue;
        if (wp->pend[r]) {
            rw->dies[r] = 1;
        } else {
            free_phys(z, &s->k, rw->map[r], s->now + 1);
            rw->map[r] = NONE;
        }
    }
}

static void issue(sm_sim *s, void *st, int w, uint16_t slot, const sm__inst *in)
{
    (void)slot;
    rr_state *z = st;
    rwarp *rw = &z->w[w];
    assert(rw->n > 0 && ahead(rw, 0)->op == in->op && ahead(rw, 0)->dst == in->dst);
    if (in->op == SM__OP_FLAG) {
        z->flags++;
        z->flag_lanes += s->warps[w].tlanes[0];
    } else {
        drain(z, s, w, false);
        sources(z, s, w, in);
        if (in->dst != SM__NO_REG)
            destination(z, s, w, in->dst);
        if (s->warps[w].n_left == 1)
            warp_end(z, s, w);
    }
    rw->head = (rw->head + 1) & (RING - 1);
    rw->base++;
    rw->n--;
    draw_ahead(rw, &s->k, z->horizon);
    prepare_next(z, s, w);
}

/* A value written: it is held from now, or freed at once if nothing reads it. */
static void write(sm_sim *s, void *st, uint16_t slot)
{
    rr_state *z = st;
    const sm__slot *sl = &s->slots[slot];
    if (sl->dst == SM__NO_REG) /* a trace's predicate: no register */
        return;
    rwarp *rw = &z->w[sl->warp];
    int p = rw->map[sl->dst];
    set_state(z, &s->k, p, PH_LIVE, s->now);
    if (rw->dies[sl->dst]) {
        free_phys(z, &s->k, p, s->now);
        rw->map[sl->dst] = NONE;
        rw->dies[sl->dst] = 0;
    }
}

/* ---- statistics -------------------------------------------------------------------- */

static uint64_t powered(const rr_state *z, uint64_t held, uint64_t on, uint64_t cycles)
{
    switch (z->kn->rr_gating) {
    case SM_RR_GATE_REGISTER:
        return held;
    case SM_RR_GATE_ROW:
        return on * (uint64_t)z->rows;
    default:
        return cycles * (uint64_t)z->rows;
    }
}

/* Group (b, gi) up to the run's end into the per-group, per-bank and total counts. */
static void group_stats(const sm_sim *s, const rr_state *z, int b, int gi, sm_stats *out)
{
    const group *g = &z->g[b][gi];
    uint64_t dt = (uint64_t)(s->now - g->t), cycles = (uint64_t)s->now;
    uint64_t held = g->held + (uint64_t)g->n_held * dt, live = g->live + (uint64_t)g->n_live * dt;
    uint64_t on = g->on + (uint64_t)(g->n_held > 0) * dt;
    uint64_t pw = powered(z, held, on, cycles);
    int i = b * z->groups + gi;
    out->group_live[i] = live;
    out->group_powered[i] = pw;
    out->group_allocs[i] = g->allocs;
    out->bank_live[b] += live;
    out->bank_powered[b] += pw;
    out->rr_held_cycles += held;
    out->rr_live_cycles += live;
    out->rr_powered_cycles += pw;
}

/* Occupancy becomes "powered and holding a value" (what stresses a cell under NBTI):
 * each sub-bank part of a bank holds its share of the bank's live vectors. */
static void stats(const sm_sim *s, const void *st, sm_stats *out)
{
    const rr_state *z = st;
    const sm__kernel *k = &s->k;
    /* a finished kernel has freed every register: nothing leaks from the pool */
    assert(s->blocks_done < k->n_blocks || z->n_held == 0);
    out->rf_vectors = (uint64_t)(k->n_banks * k->n_entries);
    out->n_row_groups = (uint64_t)(k->n_banks * z->groups);
    for (int b = 0; b < k->n_banks; b++) {
        out->rr_alloc_cycles += s->occ[b];
        for (int gi = 0; gi < z->groups; gi++)
            group_stats(s, z, b, gi, out);
        for (int p = 0; p < k->subs; p++) {
            out->sub_occupancy[k->sub_id[b][p]] = out->bank_live[b];
            out->sub_powered[k->sub_id[b][p]] = out->bank_powered[b];
        }
    }
    out->rr_peak_regs = (uint64_t)z->peak;
    out->rr_wakeups = z->wakeups;
    out->rr_releases = z->releases;
    /* flag instructions cost issue slots but are not the kernel's work: IPC counts the
     * kernel's instructions only (they are all-fast: no operands) */
    out->rr_flag_insts = z->flags;
    out->warp_insts -= z->flags;
    out->fast_insts -= z->flags;
    out->thread_insts -= z->flag_lanes;
    out->rr_fast_allocs = z->fast;
    out->rr_slow_allocs = z->slow;
}

const sm__rf_design sm__design_reg_release = {
    .info = { .doc = "register release at the last read, renaming to a physical pool, "
                     "power gating",
              .places_registers = true, .knobs = knobs,
              .n_knobs = (int)(sizeof knobs / sizeof *knobs), .core_stats = core_stats },
    .state_size = state_size, .kernel = kernel, .warp = warp,
    .issue = issue, .write = write, .stats = stats,
};
