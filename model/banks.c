/* The register file as the SM sees it: the working bank table built at kernel launch
 * from the storage map (hybrid banks, fast-bank-aware order), the register-to-bank
 * mapping through the block's renaming table (filled by a design such as
 * nbti_rename.c, identity otherwise) and the latency of each access.
 *
 * Path of a register r of warp slot w (model.md section 6):
 *   logical bank = (w + r) mod n          (n and offset depend on fba_rm / hybrid)
 *   virtual bank = block's rename[logical]
 *   sub-banks    = working table[virtual bank].parts, a subset touched per access. */
#include <string.h>

#include "sm_internal.h"

enum { CLS_FAST = 0, CLS_SLOW = 1, CLS_HYBRID = 2 };

/* Map virtual banks by speed class of their parts (0 fast, 1 all slow, 2 mixed). */
static int map_class(const sm_rf_map *m, int b)
{
    int n_slow = 0;
    for (int p = 0; p < m->subs_per_bank; p++)
        n_slow += m->sub_slow[b][p] != 0;
    return n_slow == 0 ? 0 : n_slow == m->subs_per_bank ? 1 : 2;
}

static void copy_bank(sm__kernel *k, int to, const sm_rf_map *m, int from, uint8_t cls)
{
    for (int p = 0; p < k->subs; p++) {
        k->sub_id[to][p] = m->sub_id[from][p];
        k->sub_slow[to][p] = m->sub_slow[from][p];
    }
    k->origin[to] = (uint8_t)from;
    k->cls[to] = cls;
}

/* A hybrid bank keeps its fast half at lanes [0, 16), so register vectors whose active
 * lanes are fixed inside that half touch only fast storage. */
static void set_part(sm__kernel *k, int to, int part, const sm_rf_map *m, int b, int p)
{
    k->sub_id[to][part] = m->sub_id[b][p];
    k->sub_slow[to][part] = m->sub_slow[b][p];
}

/* Shares of the register vectors of the resident blocks: fixed-lane vectors (partial
 * warps whose lanes fit the fast half, and the registers only touched under
 * thread-ID branches) and full-width ones, plus the share of accesses to fixed-lane
 * vectors.  These are what a launch-time policy knows from the compiler. */
typedef struct footprint {
    double fixed_vec, full_vec, fixed_share;
} footprint;

static footprint kernel_footprint(const sm__kernel *k, const sm_profile *p)
{
    footprint f;
    int half = 32 / 2;
    double partial = 0; /* fixed-lane warps per block */
    if (k->tail_lanes <= half)
        partial += 1;
    if (k->partial_lanes <= half)
        partial += p->partial_warps * (k->warps_per_block - (k->tail_lanes < 32));
    double full = k->warps_per_block - partial;
    double n_div = k->regs - k->first_div;
    f.fixed_vec = k->resident * (partial * k->regs + full * n_div);
    f.full_vec = k->resident * (double)k->warps_per_block * k->regs - f.fixed_vec;
    double pw = partial / k->warps_per_block;
    f.fixed_share = pw + (1 - pw) * (n_div > 0 ? p->tid_divergence : 0);
    return f;
}

/* Hybrid banks come from mixed virtual banks as they are, then from pairs of one fast
 * and one slow virtual bank (FF + SS -> FS + FS).  Auto: the count that minimises the
 * expected share of slow accesses while every vector still has room; fixed: the
 * technique's count, rounded down to what the map can build. */
static int choose_hybrid(const sm__kernel *k, const sm_profile *p, const sm_technique *t,
                         int n_ff, int n_ss, int n_mx, int *use_mx, int *use_pairs)
{
    *use_mx = *use_pairs = 0;
    if (k->subs != 2)
        return 0;
    int max_pairs = n_ff < n_ss ? n_ff : n_ss;
    if (t->hybrid_policy == SM_HYBRID_FIXED) {
        int h = t->hybrid_banks;
        *use_mx = h < n_mx ? h : n_mx;
        *use_pairs = (h - *use_mx) / 2 < max_pairs ? (h - *use_mx) / 2 : max_pairs;
        return *use_mx + 2 * *use_pairs;
    }
    footprint f = kernel_footprint(k, p);
    if (f.fixed_vec <= 0)
        return 0;
    double best = 2;
    for (int m = 0; m <= n_mx; m++)
        for (int j = 0; j <= max_pairs; j++) {
            int h = m + 2 * j, rest = k->n_banks - h;
            int slow_rest = n_ss - j + n_mx - m;
            if (h > 0 && f.fixed_vec > (double)h * k->n_entries)
                continue;
            if (rest <= 0 || f.full_vec > (double)rest * k->n_entries)
                continue;
            double cost = h > 0 ? (1 - f.fixed_share) * slow_rest / rest
                                : (double)(n_ss + n_mx) / k->n_banks;
            if (cost < best - 1e-12) {
                best = cost;
                *use_mx = m;
                *use_pairs = j;
            }
        }
    return *use_mx + 2 * *use_pairs;
}

/* fba_rm and hybrid reorder the table: hybrid banks, fast banks, slow banks, each in
 * map order.  Without them the table is the map's (virtual bank b is map bank b). */
int sm__banks_setup(sm_sim *s, const sm_rf_map *m, const sm_technique *t, const sm_profile *p)
{
    sm__kernel *k = &s->k;
    k->n_banks = m->n_banks;
    k->subs = m->subs_per_bank;
    k->n_entries = m->n_entries;
    k->map = m;
    k->t = t;
    k->extra_lat = t->main_rf_latency > 1 ? t->main_rf_latency - 1 : 0;
    k->slow_cycles = s->c->slow_access == SM_SLOW_REPLAY ? 2 : 1; /* slow_access.c */
    sm__port_rules_setup(s);
    int cls[SM_MAX_BANKS], n_ff = 0, n_ss = 0, n_mx = 0;
    for (int b = 0; b < k->n_banks; b++) {
        cls[b] = map_class(m, b);
        n_ff += cls[b] == 0;
        n_ss += cls[b] == 1;
        n_mx += cls[b] == 2;
    }
    k->n_hybrid = 0;
    k->n_fast = n_ff;
    if (!t->fba_rm && !t->hybrid) {
        for (int b = 0; b < k->n_banks; b++)
            copy_bank(k, b, m, b, cls[b] ? CLS_SLOW : CLS_FAST);
        return 0;
    }
    int use_mx = 0, use_pairs = 0;
    if (t->hybrid)
        k->n_hybrid = choose_hybrid(k, p, t, n_ff, n_ss, n_mx, &use_mx, &use_pairs);
    int next = 0, ff_used = 0, ss_used = 0, mx_used = 0;
    int ff[SM_MAX_BANKS], ss[SM_MAX_BANKS], nf = 0, ns = 0;
    for (int b = 0; b < k->n_banks; b++) {
        if (cls[b] == 0)
            ff[nf++] = b;
        else if (cls[b] == 1)
            ss[ns++] = b;
    }
    for (int b = 0; b < k->n_banks && mx_used < use_mx; b++)
        if (cls[b] == 2) {
            int fp = m->sub_slow[b][0] ? 1 : 0; /* its fast part goes to lanes [0, 16) */
            set_part(k, next, 0, m, b, fp);
            set_part(k, next, 1, m, b, 1 - fp);
            k->origin[next] = (uint8_t)b;
            k->cls[next++] = CLS_HYBRID;
            cls[b] = -1;
            mx_used++;
        }
    /* pair the last fast banks (slowest of the fast ones in a BRO table) with the first
     * slow ones, leaving the fastest banks whole */
    for (int j = 0; j < use_pairs; j++) {
        int f = ff[nf - 1 - j], sl = ss[j];
        for (int h = 0; h < 2; h++) {
            set_part(k, next, 0, m, f, h);
            set_part(k, next, 1, m, sl, 1 - h);
            k->origin[next] = (uint8_t)f;
            k->cls[next++] = CLS_HYBRID;
        }
        cls[f] = cls[sl] = -1;
        ff_used++;
        ss_used++;
    }
    k->n_fast = 0;
    for (int c = 0; c <= 2; c++) /* fast, then slow and leftover mixed banks */
        for (int b = 0; b < k->n_banks; b++)
            if ((c == 0 && cls[b] == 0) || (c == 1 && cls[b] == 1) || (c == 2 && cls[b] == 2)) {
                copy_bank(k, next++, m, b, c == 0 ? CLS_FAST : CLS_SLOW);
                k->n_fast += c == 0;
            }
    (void)ff_used;
    (void)ss_used;
    int rest = k->n_banks - k->n_hybrid;
    footprint fp = kernel_footprint(k, p);
    double vec = k->n_hybrid ? fp.full_vec : fp.full_vec + fp.fixed_vec;
    int warps = k->resident * k->warps_per_block;
    k->fba_fit = vec <= (double)k->n_fast * k->n_entries;
    k->fba_low = warps ? k->n_fast * k->n_entries / warps : 0;
    if (k->n_fast == 0 || k->n_fast == rest)
        k->fba_fit = true; /* nothing to choose: plain mapping over the rest */
    return 0;
}

/* Is register r of warp wp a fixed-lane vector placed in a hybrid bank? */
static bool fixed_lane(const sm__kernel *k, int lanes, int r)
{
    if (!k->n_hybrid)
        return false;
    return lanes <= 16 || r >= k->first_div;
}

static int logical_bank(const sm__kernel *k, int w, int r, bool fixed)
{
    int n = r * k->reg_span / k->regs; /* register number: r unless the profile's reg_span */
    if (fixed)
        return (w + n) % k->n_hybrid;
    int base = k->n_hybrid, rest = k->n_banks - base;
    if (k->t->fba_rm && k->n_fast > 0 && k->n_fast < rest) {
        if (k->fba_fit || r < k->fba_low)
            return base + (w + n) % k->n_fast;
        return base + k->n_fast + (w + n) % (rest - k->n_fast);
    }
    return base + (w + n) % rest;
}

int sm__banks_logical(const sm__kernel *k, int w, int r, int lanes)
{
    return logical_bank(k, w, r, fixed_lane(k, lanes, r));
}

uint8_t sm__banks_slow(const sm__kernel *k, int bank, int entry, int lanes)
{
    int parts = sm__parts_for(lanes, k->subs);
    uint8_t slow = k->map->entry_slow[k->origin[bank]][entry];
    for (int p = 0; p < parts; p++)
        slow |= k->sub_slow[bank][p];
    return (uint8_t)((slow != 0) * k->slow_cycles); /* 2 with slow_access = replay */
}

/* Fills warp w's register-to-bank and latency tables at launch.  Entry (row) of a
 * register: the warp slot's registers are laid out contiguously, n_banks per row; it
 * only selects which entry_slow bit (vl_rf, vl_rv) applies.  The tables are a function
 * of the slot, its lanes and the block's renaming, which is the identity without
 * designs (they may also rewrite the tables): then a slot's next warp with the same
 * lanes keeps the tables of the one before. */
void sm__banks_warp(sm_sim *s, int w, const sm__block *blk)
{
    const sm__kernel *k = &s->k;
    sm__warp *wp = &s->warps[w];
    if (wp->tables_lanes == wp->lanes) {
        for (int r = 0; r < k->regs; r++)
            s->live_vec[wp->home[r]]++;
        return;
    }
    wp->tables_lanes = k->n_designs || s->exact ? 0 : wp->lanes;
    int div_lanes = wp->lanes < SM__DIV_LANES ? wp->lanes : SM__DIV_LANES;
    wp->parts[0] = (uint8_t)sm__parts_for(wp->lanes, k->subs);
    wp->parts[1] = (uint8_t)sm__parts_for(div_lanes, k->subs);
    wp->tlanes[0] = wp->lanes;
    wp->tlanes[1] = (uint8_t)div_lanes;
    for (int r = 0; r < k->regs; r++) {
        int bank = blk->rename[sm__banks_logical(k, w, r, wp->lanes)];
        int entry = ((w * k->regs + r) / k->n_banks) % k->n_entries;
        wp->bank[r] = wp->home[r] = (uint8_t)bank;
        wp->slow[0][r] = (uint8_t)(sm__banks_slow(k, bank, entry, wp->lanes) + k->extra_lat);
        wp->slow[1][r] = (uint8_t)(sm__banks_slow(k, bank, entry, div_lanes) + k->extra_lat);
        s->live_vec[bank]++;
    }
}
