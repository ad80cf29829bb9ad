/* Synthetic instruction streams (model.md section 6, docs/workloads.md).
 *
 * Each warp owns a splitmix64 stream seeded from (profile seed, block ordinal, warp
 * in block), so a warp's instructions do not depend on scheduling, on other warps or
 * on the technique: the techniques are compared on identical instruction streams.
 * The block ordinal is the block's position in this SM's share (0 for the first block
 * the SM runs), not its grid index: SMs with equal shares then run identical kernels,
 * which is what lets the sweep driver reuse one SM run for many SMs (sm.h,
 * sm_sim_share).  Which grid blocks an SM would run is of no consequence to a
 * synthetic kernel whose blocks are statistically alike.  What kind of instruction a
 * position is (an operation class or a barrier) is the kernel's, not the warp's: its
 * warps run one program (prog_setup), as a kernel's warps run one code.  Distributions
 * are precomputed into small lookup tables at launch so that drawing an instruction
 * costs two 64-bit draws, the program's permutation and a few loads. */
#include <math.h>
#include <string.h>

#include "sm_internal.h"

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t draw(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ULL;
    return mix64(*state);
}

/* c ? a : b without a branch (GCC turns the ternary into a jump when it deems the
 * condition predictable; the generator's conditions are random by design). */
static inline uint8_t sel8(int c, uint8_t a, uint8_t b)
{
    return (uint8_t)(b ^ ((a ^ b) & -(unsigned)c));
}

static uint32_t prob32(double p)
{
    if (p <= 0)
        return 0;
    if (p >= 1)
        return UINT32_MAX;
    return (uint32_t)(p * 4294967296.0);
}

/* The point entry i of an n-entry table stands for, of a total weight `total`. */
static double entry_at(int i, int n, double total) { return (i + 0.5) / n * total; }

/* Fills tab[n] so that a uniform index picks value v with probability w[v] / sum(w):
 * entry i takes the first v whose cumulative weight reaches entry_at(i).  Each value's
 * run of entries is found from an estimate of its end, corrected with the same
 * comparisons (so the table is the entry-by-entry one), and filled at once: the
 * entry-by-entry walk was most of a kernel launch's cost on short kernels. */
static void fill_table(uint8_t *tab, int n, const double *w, int n_values, int offset)
{
    double total = 0;
    for (int v = 0; v < n_values; v++)
        total += w[v];
    double cum = 0;
    int i = 0;
    for (int v = 0; v < n_values - 1 && i < n; v++) {
        double hi = cum + w[v]; /* entries at or below it take v */
        double guess = total > 0 ? hi / total * n + 0.5 : n;
        int j = guess < i ? i : guess > n ? n : (int)guess;
        while (j > i && hi < entry_at(j - 1, n, total))
            j--;
        while (j < n && !(hi < entry_at(j, n, total)))
            j++;
        memset(tab + i, v + offset, (size_t)(j - i));
        i = j;
        cum += w[v];
    }
    memset(tab + i, n_values - 1 + offset, (size_t)(n - i));
}

static void op_table(sm__kernel *k, const sm_profile *p)
{
    double w[SM__N_OPS] = { 0 };
    /* barriers take their share of the positions (placed, not drawn: draw_inst); the
     * table draws the rest in the profile's proportions */
    double alu = fmax(0.0, 1.0 - p->frac_sfu - p->frac_mem - p->frac_shared - p->frac_barrier);
    double plain = fmax(0.0, 1.0 - p->frac_mad - p->frac_div);
    double fp32 = fmax(0.0, p->frac_fp - p->frac_fp64), rest = 1.0 - k->lat1_share;
    w[SM__OP_FP] = alu * rest * fp32 * plain;
    w[SM__OP_FP_MAD] = alu * rest * fp32 * p->frac_mad;
    w[SM__OP_FP_DIV] = alu * rest * fp32 * p->frac_div;
    w[SM__OP_DP] = alu * rest * p->frac_fp64;
    w[SM__OP_INT] = alu * rest * (1 - p->frac_fp) * plain;
    w[SM__OP_INT_MAD] = alu * rest * (1 - p->frac_fp) * p->frac_mad;
    w[SM__OP_INT_DIV] = alu * rest * (1 - p->frac_fp) * p->frac_div;
    w[SM__OP_LAT1] = alu * k->lat1_share;
    w[SM__OP_SFU] = p->frac_sfu;
    w[SM__OP_LD_GLOBAL] = p->frac_mem * (1 - p->store_share);
    w[SM__OP_ST_GLOBAL] = p->frac_mem * p->store_share;
    w[SM__OP_LD_SHARED] = p->frac_shared * (1 - p->smem_store_share);
    w[SM__OP_ST_SHARED] = p->frac_shared * p->smem_store_share;
    /* constant loads (sm.const_cache, frac_const): measured among the integer ALU
     * instructions (ld.param and ld.const have no fp, mad or div type), and at latency
     * 1 in GPGPU-Sim's table (bench/gpgpusim/measure lat1), so they leave the
     * latency-1 share first under latency_table, then the plain integer one */
    double cst = 0;
    if (k->cprof_frac > 0) {
        double from_lat1 = fmin(k->cprof_frac, w[SM__OP_LAT1]);
        double from_int = fmin(k->cprof_frac - from_lat1, w[SM__OP_INT]);
        w[SM__OP_LAT1] -= from_lat1;
        w[SM__OP_INT] -= from_int;
        cst = from_lat1 + from_int;
    }
    double wc[SM__N_OPS + 1];
    memcpy(wc, w, sizeof w);
    wc[SM__OP_CONST_DRAWN] = cst;
    fill_table(k->op_tab, 1024, wc, cst > 0 ? SM__N_OPS + 1 : SM__N_OPS, 0);

    /* ALU instructions take the source operands that loads (1), stores (2) and SFU
     * instructions (1) leave over from the profile's mean; a constant load reads no
     * register (its address is the parameter's offset). */
    double other = p->frac_sfu + p->frac_mem * (1 + p->store_share) +
                   p->frac_shared * (1 + p->smem_store_share);
    double m = alu - cst > 0 ? (p->src_operands - other) / (alu - cst) : 0;
    m = fmin(fmax(m, 0.0), (double)SM__MAX_SRC);
    k->alu_src_thresh = prob32(m - floor(m));
    for (int op = 0; op < SM__N_OPS; op++) {
        k->src_drawn[op] = sm__ops[op].is_store == 0 && sm__ops[op].unit == SM__UNIT_SP;
        k->src_base[op] = (uint8_t)(sm__ops[op].is_store ? 2 : k->src_drawn[op] ? (int)floor(m) : 1);
    }
}

/* Small register IDs dominate: P(r) ~ exp(-reg_skew * r) within each register set. */
static void reg_table(uint8_t *tab, int lo, int hi, double skew)
{
    double w[SM__MAX_REGS];
    for (int r = lo; r < hi; r++)
        w[r - lo] = exp(-skew * (r - lo));
    fill_table(tab, 1024, w, hi - lo, lo);
}

/* Distance to the producer of the first source: geometric with mean dep_distance,
 * truncated to the SM__RING most recent destinations.  With dep_at1 > 0 (measured:
 * real kernels are chains, most sources made by the instruction just before, the rest
 * far; a geometric of the same mean puts 1/mean at 1) the distance is 1 with that
 * share and otherwise 2 + a geometric whose mean keeps the overall mean dep_distance
 * (all at 2 when the mean leaves no room: mean <= 2 - at1). */
static void dep_table(uint8_t *tab, double mean, double at1)
{
    double w[SM__RING];
    if (at1 <= 0.0) {
        double q = 1.0 - 1.0 / mean;
        for (int d = 0; d < SM__RING; d++)
            w[d] = pow(q, d);
    } else {
        double rest = at1 < 1.0 ? (mean - at1) / (1.0 - at1) : 2.0; /* mean of d >= 2 */
        double q = rest > 2.0 ? 1.0 - 1.0 / (rest - 1.0) : 0.0;
        w[0] = at1;
        for (int d = 1; d < SM__RING; d++)
            w[d] = (1.0 - at1) * (1.0 - q) * pow(q, d - 1);
    }
    fill_table(tab, 256, w, SM__RING, 1);
}

/* same_bank_share: for each register, other registers in its bank under the plain
 * mapping (number = r * reg_span / regs, bank = (warp + number) mod n_banks: the warp
 * shifts every register alike, so bank mates are mates in every warp; fba_rm, hybrid
 * banks and renaming may separate them). */
void sm__gen_mates(sm__kernel *k, const sm_profile *p)
{
    k->mate_thresh = prob32(p->same_bank_share);
    k->mate_srcs = p->same_bank_srcs;
    if (!k->mate_thresh)
        return;
    for (int r = 0; r < k->regs; r++) {
        int n = 0, num = r * k->reg_span / k->regs;
        for (int q = 0; q < k->regs && n < SM__MAX_MATES; q++)
            if (q != r && (q * k->reg_span / k->regs - num) % k->n_banks == 0)
                k->mates[r][n++] = (uint8_t)q;
        k->n_mates[r] = (uint8_t)n;
    }
}

/* A bank mate of register r chosen by `bits`, or `other` if r has none. */
static uint8_t mate_of(const sm__kernel *k, uint8_t r, uint64_t bits, uint8_t other)
{
    int n = k->n_mates[r];
    return n ? k->mates[r][bits % (uint64_t)n] : other;
}

/* Uneven warps (warp_weights, docs/workloads.md): warp j of a block runs
 * insts_per_warp x its weight over the block's mean weight instructions, at least 2,
 * so the mean warp keeps the profile's length.  k.insts_per_warp becomes the longest:
 * stored streams are that long and every index stays below it. */
static void warp_lengths(sm__kernel *k, const sm_profile *p)
{
    int wpb = k->warps_per_block, n = p->n_warp_weights;
    k->uneven = n > 0;
    k->len_min = k->insts_per_warp;
    k->block_insts = (int64_t)k->insts_per_warp * wpb;
    if (!k->uneven)
        return;
    double mean = 0;
    for (int j = 0; j < wpb; j++)
        mean += p->warp_weights[j % n] / wpb;
    int longest = 2, shortest = INT32_MAX;
    k->block_insts = 0;
    for (int j = 0; j < wpb; j++) {
        double len = fmax(2.0, round(k->insts_per_warp * p->warp_weights[j % n] / mean));
        k->warp_len[j] = len > 1e8 ? 100000000 : (int32_t)len;
        longest = k->warp_len[j] > longest ? k->warp_len[j] : longest;
        shortest = k->warp_len[j] < shortest ? k->warp_len[j] : shortest;
        k->block_insts += k->warp_len[j];
    }
    k->insts_per_warp = longest;
    k->len_min = shortest;
}

/* The kernel's program: the warps of a kernel run one code, so position q of every
 * warp of every block is the same kind of instruction, a barrier or an operation class
 * (registers, dependencies, hits and lanes stay each warp's draws).  Positions [0,
 * prog_len) of the shortest warp (all but its last) are permuted by a bijection keyed
 * by the seed (prog_slot); the first n_bar images are barriers, the rest take the op
 * table's entries evenly spaced, so the kernel has its share of each class to one
 * instruction, not a binomial draw of it.  Uneven warps: as many barriers as
 * frac_barrier of the mean warp. */
static void prog_setup(sm__kernel *k, const sm_profile *p)
{
    k->prog_len = k->len_min > 1 ? k->len_min - 1 : 0;
    double bars = round(p->frac_barrier * (double)k->block_insts / k->warps_per_block);
    k->n_bar = bars < k->prog_len ? (int)bars : k->prog_len;
    k->prog_bits = 0;
    while (((int64_t)1 << k->prog_bits) < k->prog_len)
        k->prog_bits++;
    for (int r = 0; r < SM__PROG_ROUNDS; r++)
        k->prog_key[r] = mix64(k->seed ^ 0x50C0DE0000ULL ^ (uint64_t)(r + 1) << 44);
}

/* Load-use placement (load_use_distance, shared_use_distance; docs/workloads.md,
 * "Load-use distance"): a class's mean m >= 1 gives each of its loads a first reader
 * floor(m) instructions later, one more with m's fraction (the measured distances are
 * mostly one or two values per kernel, not a geometric spread); 0 leaves the class to
 * the drawn dependencies, as before. */
static void lu_setup(sm__kernel *k, const sm_profile *p)
{
    const double mean[2] = { p->load_use_distance, p->shared_use_distance };
    k->lu_on = false;
    for (int c = 0; c < 2; c++) {
        double m = mean[c] < 1 ? 0.0 : fmin(mean[c], 64.0);
        k->lu_base[c] = (uint8_t)floor(m);
        k->lu_thresh[c] = m > 0 ? prob32(m - floor(m)) : 0;
        k->lu_on |= k->lu_base[c] > 0;
    }
}

void sm__gen_setup(sm__kernel *k, const sm_profile *p)
{
    k->seed = p->seed;
    int n_div = 0;
    if (p->tid_divergence > 0 && k->regs > 1) {
        n_div = (int)lround(p->tid_divergence * k->regs);
        n_div = n_div < 1 ? 1 : n_div > k->regs - 1 ? k->regs - 1 : n_div;
    }
    k->first_div = k->regs - n_div;
    k->div_thresh = n_div ? prob32(p->tid_divergence) : 0;
    k->partial_thresh = prob32(p->partial_warps);
    k->partial_lanes = p->partial_lanes;
    k->hit_thresh = (uint32_t)lround(p->l1_hit_rate * 4096);
    warp_lengths(k, p);
    prog_setup(k, p);
    double ways = p->smem_ways < 1 ? 1.0 : p->smem_ways;
    k->smem_base = (int)floor(ways);
    k->smem_thresh = prob32(ways - k->smem_base);
    k->atomic_thresh = prob32(p->frac_atomic);
    k->atomic_cycles = 2 * (p->atomic_ways < 1 ? 1 : p->atomic_ways);
    k->smem_on = k->smem_base > 1 || k->smem_thresh || k->atomic_thresh;
    op_table(k, p);
    reg_table(k->reg_tab[0], 0, k->first_div, p->reg_skew);
    if (n_div)
        reg_table(k->reg_tab[1], k->first_div, k->regs, p->reg_skew);
    else
        memcpy(k->reg_tab[1], k->reg_tab[0], sizeof k->reg_tab[1]);
    dep_table(k->dep_tab, p->dep_distance, p->dep_at1);
    lu_setup(k, p);
}

static uint64_t warp_key(const sm__kernel *k, int ordinal, int warp_in_block)
{
    return mix64(k->seed ^ mix64(((uint64_t)ordinal << 16 | (uint64_t)warp_in_block) + 1));
}

/* A function of the warp's key alone, so the renaming at block launch can know every
 * warp's lanes before the warps exist. */
int sm__gen_lanes(const sm__kernel *k, int ordinal, int warp_in_block)
{
    if (warp_in_block == k->warps_per_block - 1 && k->tail_lanes < 32)
        return k->tail_lanes;
    uint64_t key = warp_key(k, ordinal, warp_in_block);
    if ((uint32_t)mix64(key ^ 0xA5A5A5A5ULL) < k->partial_thresh)
        return k->partial_lanes;
    return 32;
}

static void stream_fill(const sm__kernel *k, uint64_t *out, int ordinal, int warp_in_block,
                        const int32_t *prog);
static const int32_t *prog_table(const sm__kernel *k);

void sm__gen_warp(const sm__kernel *k, sm__warp *wp, int ordinal, int warp_in_block)
{
    wp->rng = warp_key(k, ordinal, warp_in_block);
    wp->lanes = (uint8_t)sm__gen_lanes(k, ordinal, warp_in_block);
    wp->ring_pos[0] = wp->ring_pos[1] = 0;
    wp->ring_fill[0] = wp->ring_fill[1] = 0;
    wp->lu_n = 0;
    wp->micro_row = (uint16_t)(ordinal * k->warps_per_block + warp_in_block);
    wp->wib = (uint8_t)warp_in_block;
    wp->next.smem_ways = 1; /* synth() writes it only when the kernel has conflicts */
    if (k->trace)
        sm__trace_warp(k, wp, ordinal, warp_in_block); /* its row and length */
    wp->stream = NULL;
    bool fresh;
    uint64_t *st = k->streams ? sm__streams_slot(k->streams, wp->micro_row, &fresh) : NULL;
    if (st && fresh)
        stream_fill(k, st, ordinal, warp_in_block, prog_table(k));
    wp->stream = st;
}

/* A shared access's conflict degree: smem_ways' floor, one more with its fraction; an
 * atomic (frac_atomic of them) reads and writes each of its atomic_ways serialised
 * lanes.  From a hash of the instruction's two draws, not further draws: the stream
 * is the one every other setting sees. */
static uint8_t smem_degree(const sm__kernel *k, uint64_t a, uint64_t b)
{
    uint64_t c = mix64(a ^ (b << 1) ^ 0x5AE3B4C7ULL);
    int ways = k->smem_base + ((uint32_t)c < k->smem_thresh);
    ways = (uint32_t)(c >> 32) < k->atomic_thresh ? k->atomic_cycles : ways;
    return (uint8_t)ways;
}

/* Whether register r awaits its placed reader (a load's destination in lu_reg). */
static bool lu_pending(const sm__warp *wp, uint8_t r)
{
    for (int i = 0; i < wp->lu_n; i++)
        if (wp->lu_reg[i] == r)
            return true;
    return false;
}

/* r, or if it awaits its placed reader the next register of its lane mode's set (in
 * cyclic order) that does not: nothing reads or writes a placed load's result before
 * its reader, as a compiled kernel leaves it alone (a write would also wait for the
 * load at the scoreboard). */
static uint8_t lu_avoid(const sm__kernel *k, const sm__warp *wp, uint8_t r, int div)
{
    if (r == SM__NO_REG || !lu_pending(wp, r))
        return r;
    int lo = div ? k->first_div : 0, hi = div ? k->regs : k->first_div;
    for (int i = 1; i < hi - lo; i++) {
        uint8_t q = (uint8_t)(lo + (r - lo + i) % (hi - lo));
        if (!lu_pending(wp, q))
            return q;
    }
    return r; /* every register of the set awaits a reader: leave it */
}

/* Load-use placement for instruction `index` (k.lu_on): the loads whose reader is due
 * (their distance reached; a barrier defers them to the next instruction) become its
 * first sources, earliest first, as many as it has sources (an ALU instruction takes up
 * to SM__MAX_SRC: `fma d, a, b, c` after two loads reads both); no other source nor
 * the destination touches a load still waiting; a load of a placed class then waits
 * for its own reader (up to SM__LU_SLOTS at once: a further one is left to the drawn
 * dependencies). */
static void __attribute__((noinline)) lu_place(const sm__kernel *k, sm__warp *wp, int index,
                                               int op, int *n_src, int div, uint64_t h,
                                               uint8_t *dst, uint8_t src[3])
{
    int n = *n_src, room = k->src_drawn[op] ? SM__MAX_SRC : n, used = 0;
    while (used < room) {
        int due = -1;
        for (int i = 0; i < wp->lu_n; i++)
            if (wp->lu_due[i] <= index && (due < 0 || wp->lu_due[i] < wp->lu_due[due]))
                due = i;
        if (due < 0)
            break;
        src[used++] = wp->lu_reg[due];
        wp->lu_n--;
        wp->lu_reg[due] = wp->lu_reg[wp->lu_n];
        wp->lu_due[due] = wp->lu_due[wp->lu_n];
    }
    *n_src = n = n > used ? n : used;
    for (int i = used; i < n; i++)
        src[i] = lu_avoid(k, wp, src[i], div);
    *dst = lu_avoid(k, wp, *dst, div);
    int c = op == SM__OP_LD_GLOBAL ? 0 : op == SM__OP_LD_SHARED ? 1 : -1;
    if (c < 0 || !k->lu_base[c] || *dst == SM__NO_REG || wp->lu_n >= SM__LU_SLOTS)
        return;
    int d = k->lu_base[c] + ((uint32_t)mix64(h ^ 0x10AD05E5ULL) < k->lu_thresh[c]);
    wp->lu_reg[wp->lu_n] = *dst;
    wp->lu_due[wp->lu_n] = index + d;
    wp->lu_n++;
}

/* Draws the next instruction.  Written without data-dependent branches where it costs
 * nothing (selects instead of ifs): the operation mix makes them unpredictable. */
static void synth(const sm__kernel *k, sm__warp *wp, sm__inst *in, int op, int index)
{
    uint64_t a = draw(&wp->rng), b = draw(&wp->rng);
    /* a constant load (op table only): a global load with no register source, whose
     * line issue looks up (pending.c sm__pend_const) */
    int cst = op == SM__OP_CONST_DRAWN;
    op = cst ? SM__OP_LD_GLOBAL : op;
    int div = (uint32_t)a < k->div_thresh;
    const uint8_t *rt = k->reg_tab[div];
    /* sources: loads and SFU 1, stores 2, ALU from the profile's mean */
    int n = cst ? 0 : k->src_base[op] + (k->src_drawn[op] & ((uint32_t)b < k->alu_src_thresh));
    in->op = (uint8_t)op;
    in->div = (uint8_t)div;
    if (__builtin_expect(k->smem_on, 0)) /* else it stays 1 (sm__gen_warp) */
        in->smem_ways = ((op == SM__OP_LD_SHARED) | (op == SM__OP_ST_SHARED))
                            ? smem_degree(k, a, b) : 1;
    uint8_t dst = rt[(a >> 42) & 1023];
    in->dst = sel8(sm__ops[op].is_store, SM__NO_REG, dst);
    in->miss = (op == SM__OP_LD_GLOBAL) & (((b >> 52) & 4095) >= k->hit_thresh);
    if (__builtin_expect(cst, 0)) /* its line: from a hash of the draws, not a further draw */
        in->miss = (uint8_t)(SM__MISS_CONST |
                             mix64(a ^ (b << 1) ^ 0xC0257ULL) % (uint64_t)k->cprof_lines);
    int d = k->dep_tab[(a >> 52) & 255];
    uint8_t s0 = d <= wp->ring_fill[div] ? wp->ring[div][(uint8_t)(wp->ring_pos[div] - d) % SM__RING]
                                        : rt[(b >> 32) & 1023];
    uint8_t s1 = rt[(b >> 42) & 1023], s2 = rt[(a >> 20) & 1023];
    if (k->mate_thresh && (uint32_t)draw(&wp->rng) < k->mate_thresh) { /* one bank */
        uint64_t c = draw(&wp->rng);
        if (k->mate_srcs == 3) {
            s1 = mate_of(k, s0, c, s1);
            s2 = mate_of(k, s0, c >> 32, s2);
            s2 = s2 == s1 && k->n_mates[s0] > 1 ? mate_of(k, s0, (c >> 32) + 1, s2) : s2;
        } else {
            s2 = mate_of(k, s1, c, s2);
            s2 = s2 == s0 && k->n_mates[s1] > 1 ? mate_of(k, s1, c + 1, s2) : s2;
        }
    }
    if (__builtin_expect(k->lu_on, 0)) { /* load-use placement (lu_place) */
        uint8_t src[3] = { s0, s1, s2 };
        /* a constant load as an SFU one: no drawn sources, not placed (measure's
         * lu_global has no constant loads) */
        lu_place(k, wp, index, cst ? SM__OP_SFU : op, &n, div, a ^ (b << 1), &dst, src);
        s0 = src[0], s1 = src[1], s2 = src[2];
        in->dst = sel8(sm__ops[op].is_store, SM__NO_REG, dst);
    }
    /* a register read twice is read once; unused slots get SM__NO_REG */
    int k1 = (n > 1) & (s1 != s0), k2 = (n > 2) & (s2 != s0) & (s2 != s1);
    in->src[0] = sel8(n > 0, s0, SM__NO_REG);
    in->src[1] = sel8(k1, s1, sel8(k2, s2, SM__NO_REG));
    in->src[2] = sel8(k1 & k2, s2, SM__NO_REG);
    in->n_src = (uint8_t)((n > 0) + k1 + k2);
    /* sm.latency_table = "gpgpusim": a DP instruction is GPGPU-Sim's DP_OP, on the SFU
     * (sim.c, dp_gsim); drawn as SM__OP_DP, so the draws are the same */
    if (__builtin_expect(k->dp_gsim, 0) && op == SM__OP_DP)
        in->op = SM__OP_G_DP;
    if (in->dst != SM__NO_REG) {
        wp->ring[div][wp->ring_pos[div] % SM__RING] = in->dst;
        wp->ring_pos[div]++;
        if (wp->ring_fill[div] < SM__RING)
            wp->ring_fill[div]++;
    }
}

/* A hand-written instruction (tests), with its unused source slots set as synth()
 * leaves them.  `index` is the warp's position in its own instructions (release
 * flags left out, gen.c draw_inst).  With micro_rows, warp g of the share (block
 * ordinal x warps per block + warp in block) runs row g: insts_per_warp instructions
 * from g x insts_per_warp, so a test can give each warp its own program. */
static void micro(const sm__kernel *k, const sm__warp *wp, int index, sm__inst *in)
{
    int at = k->micro_rows ? wp->micro_row * k->insts_per_warp + index : index;
    *in = k->micro[at % k->n_micro];
    in->smem_ways = in->smem_ways > 1 && sm__ops[in->op].unit == SM__UNIT_MEM ? in->smem_ways : 1;
    for (int i = in->n_src; i < SM__MAX_SRC; i++)
        in->src[i] = SM__NO_REG;
}

/* reg_release's flag instruction: no registers, and no draw from the stream, so the
 * warp's other instructions are the ones it would run without them. */
static void flag_inst(sm__inst *in)
{
    *in = (sm__inst){ .op = SM__OP_FLAG, .dst = SM__NO_REG, .n_src = 0,
                      .src = { SM__NO_REG, SM__NO_REG, SM__NO_REG }, .smem_ways = 1 };
}

/* A bijection of [0, 2^prog_bits) keyed by the seed (rounds of an odd multiplier, an
 * addend and a right xor-shift, each one-to-one), walked until it lands in [0,
 * prog_len): one-to-one on [0, prog_len), and the walk ends as the cycle through q
 * returns to q at the latest. */
static int64_t prog_perm(const sm__kernel *k, int64_t q)
{
    uint64_t mask = ((uint64_t)1 << k->prog_bits) - 1, x = (uint64_t)q;
    int shift = k->prog_bits / 2 + 1;
    do {
        for (int r = 0; r < SM__PROG_ROUNDS; r++) {
            x = (x * (k->prog_key[r] | 1) + (k->prog_key[r] >> 40)) & mask;
            x ^= x >> shift;
        }
    } while (x >= (uint64_t)k->prog_len);
    return (int64_t)x;
}

/* The program slot (prog_perm's image) instruction `index` of warp `wib` of its block
 * runs, or -1 for an instruction of the warp's own: the last, and with uneven warps a
 * longer warp's extra ones.  A warp of length L runs position p of the shortest warp
 * (length L0) at floor(p L / L0), a map that keeps the order and, as L >= L0, never
 * joins two positions, so all warps of a block meet the same barriers in the same
 * order; never a barrier as the last instruction, whose warp would end waiting. */
static int64_t prog_slot(const sm__kernel *k, int wib, int index, const int32_t *prog)
{
    int64_t p = index;
    if (k->uneven) {
        int64_t len = k->warp_len[wib], base = k->len_min;
        p = ((int64_t)index * base + len - 1) / len; /* the least p mapping to >= index */
        if (p * len / base != index)
            return -1;
    }
    if (p >= k->prog_len)
        return -1;
    return prog ? prog[p] : prog_perm(k, p);
}

/* The operation class of a slot that is not a barrier: the op table's entries evenly
 * over the non-barrier slots; an instruction of the warp's own draws it from a hash of
 * (seed, index). */
static int prog_op(const sm__kernel *k, int64_t slot, int index)
{
    if (slot < 0)
        return k->op_tab[(mix64(k->seed ^ 0x0DD0BEEFULL ^ (uint64_t)index << 20) >> 32) & 1023];
    return k->op_tab[(slot - k->n_bar) * 1024 / (k->prog_len - k->n_bar)];
}

static void bar_inst(sm__inst *in)
{
    *in = (sm__inst){ .op = SM__OP_BAR, .dst = SM__NO_REG, .n_src = 0,
                      .src = { SM__NO_REG, SM__NO_REG, SM__NO_REG }, .smem_ways = 1 };
}

/* Stored streams (streams.c): SM__STREAM_WORDS words per instruction (sm_internal.h). */
#define GOLDEN 0x9E3779B97F4A7C15ULL

/* Instruction `index` of the warp's stream as drawn (synth or a barrier); prog: the
 * kernel's program slots (prog_table), or NULL to compute them. */
static void draw_synth(const sm__kernel *k, sm__warp *wp, int index, sm__inst *in,
                       const int32_t *prog)
{
    int64_t slot = prog_slot(k, wp->wib, index, prog);
    if (slot >= 0 && slot < k->n_bar)
        bar_inst(in);
    else
        synth(k, wp, in, prog_op(k, slot, index), index);
}

static void pack(sm__inst *in, uint64_t draws, uint64_t *out)
{
    in->unit = sm__ops[in->op].unit;
    memcpy(&out[0], in, 8);
    out[1] = (uint64_t)in->miss | draws << 8 | (uint64_t)in->smem_ways << 16;
}

/* The program slot of every position of the shortest warp, prog_perm(p) for p <
 * prog_len: the same for every warp of the kernel, so it is walked once per stored
 * set (streams.c keeps it) instead of once per warp and position.  NULL when there is
 * no set or no memory: draw_synth then walks it. */
static const int32_t *prog_table(const sm__kernel *k)
{
    bool fresh;
    int32_t *prog = sm__streams_prog(k->streams, k->prog_len, &fresh);
    if (prog && fresh)
        for (int p = 0; p < k->prog_len; p++)
            prog[p] = (int32_t)prog_perm(k, p);
    return prog;
}

/* The multiplicative inverse of GOLDEN mod 2^64: a stream state advanced by n draws,
 * times it, gives n back. */
#define GOLDEN_INV 0xF1DE83E19937733DULL
_Static_assert(GOLDEN * GOLDEN_INV == 1, "GOLDEN_INV inverts GOLDEN");

/* Draws the whole stream of warp (ordinal, warp_in_block) into out[insts_per_warp];
 * prog: prog_table's, or NULL. */
static void stream_fill(const sm__kernel *k, uint64_t *out, int ordinal, int warp_in_block,
                        const int32_t *prog)
{
    sm__warp w;
    memset(&w, 0, sizeof w);
    w.rng = warp_key(k, ordinal, warp_in_block);
    w.wib = (uint8_t)warp_in_block;
    int len = k->uneven ? k->warp_len[warp_in_block] : k->insts_per_warp;
    for (int i = 0; i < len; i++) {
        sm__inst in = { .smem_ways = 1 }; /* as sm__gen_warp leaves it */
        uint64_t before = w.rng;
        draw_synth(k, &w, i, &in, prog);
        uint64_t draws = (w.rng - before) * GOLDEN_INV; /* each draw adds GOLDEN */
        pack(&in, draws, out + SM__STREAM_WORDS * i);
    }
}

/* Instruction `index` of a warp with a stored stream: read back, or (past the stored
 * length, which no caller reaches) drawn again from the warp's start. */
static void __attribute__((noinline)) stream_past(const sm__kernel *k, sm__warp *wp, int index,
                                                  sm__inst *in)
{
    sm__warp w;
    memset(&w, 0, sizeof w);
    int wpb = k->warps_per_block;
    w.rng = warp_key(k, wp->micro_row / wpb, wp->micro_row % wpb);
    w.wib = wp->wib;
    for (int i = 0; i <= index; i++)
        draw_synth(k, &w, i, in, NULL);
    wp->rng = w.rng;
}

static inline void stream_read(const sm__kernel *k, sm__warp *wp, int index, sm__inst *in)
{
    if (__builtin_expect(index >= k->insts_per_warp, 0)) {
        stream_past(k, wp, index, in);
        return;
    }
    const uint64_t *x = wp->stream + SM__STREAM_WORDS * index;
    wp->rng += (x[1] >> 8 & 0xff) * GOLDEN;
    if (__builtin_expect((uint8_t)x[0] == SM__OP_BAR, 0)) {
        bar_inst(in);
        return;
    }
    memcpy(in, x, 8);
    in->miss = (uint8_t)x[1];
    in->smem_ways = (uint8_t)(x[1] >> 16);
}

/* With flag instructions, position n of the warp's stream is a flag every flag_every +
 * 1 positions from 0; otherwise it is instruction n - (flags before and at n). */
static void draw_inst(const sm__kernel *k, sm__warp *wp, sm__inst *in)
{
    int index = wp->n_issued;
    if (__builtin_expect(k->flag_every != 0, 0)) {
        int period = k->flag_every + 1;
        if (index % period == 0) {
            flag_inst(in);
            wp->pdst = 0; /* a trace's predicates are the instruction's, not the flag's */
            memset(wp->psrc, 0, sizeof wp->psrc);
            return;
        }
        index -= index / period + 1;
    }
    if (wp->stream)
        stream_read(k, wp, index, in);
    else if (__builtin_expect(k->own_stream, 0)) {
        if (k->trace)
            sm__trace_inst(k, wp, index, in);
        else
            micro(k, wp, index, in);
    } else
        draw_synth(k, wp, index, in, NULL);
}

void sm__gen_ahead(const sm__kernel *k, sm__warp *copy, sm__inst *in)
{
    draw_inst(k, copy, in);
    copy->n_issued++;
}

void sm__gen_next_drawn(const sm__kernel *k, sm__warp *wp)
{
    sm__inst *in = &wp->next;
    draw_inst(k, wp, in);
    in->unit = sm__ops[in->op].unit;
    /* unused slots and a store's SM__NO_REG destination are never slow */
    const uint8_t *slow = wp->slow[in->div];
    in->fast = !(slow[in->dst] | slow[in->src[0]] | slow[in->src[1]] | slow[in->src[2]]);
}
