/* A trace workload's instruction source (docs/traces.md, "Running a trace"): the warps
 * run the decoded instructions of sm_trace instead of drawing them (gen.c calls here in
 * place of its synthetic stream).
 *
 * Block k of this SM's share runs kept block k mod n_blocks: like the drawn streams, the
 * warps' instructions are keyed by the block's ordinal in the share, never by the SM
 * index, so SMs with equal shares run identical kernels (sm.h's contract, which the run
 * cache relies on).  Everything address-dependent was decided by the decoder, so the
 * stream is the same for every technique and schedule. */
#include "sm_internal.h"

_Static_assert(SM__MAX_PSRC == SM_TRACE_MAX_PSRC, "a trace's predicate reads fit sm__warp.psrc");

/* sm_trace_op -> sm__op, by whether the instruction has a result, a register or a
 * predicate: one without (a branch, an exit) takes an SP slot and writes nothing back
 * (the decoder makes a load without one a store); a compare that sets only a predicate
 * runs at its class's latency and writes no register (writeback.c). */
static const uint8_t op_of[SM_TRACE_N_OPS][2] = {
    [SM_TRACE_INT] = { SM__OP_NORES, SM__OP_INT },
    [SM_TRACE_INT_MAD] = { SM__OP_NORES, SM__OP_INT_MAD },
    [SM_TRACE_FP] = { SM__OP_NORES, SM__OP_FP },
    [SM_TRACE_FP_MAD] = { SM__OP_NORES, SM__OP_FP_MAD },
    [SM_TRACE_DP] = { SM__OP_NORES, SM__OP_DP },
    [SM_TRACE_SFU] = { SM__OP_NORES, SM__OP_SFU },
    [SM_TRACE_LD_GLOBAL] = { SM__OP_ST_GLOBAL, SM__OP_LD_GLOBAL },
    [SM_TRACE_ST_GLOBAL] = { SM__OP_ST_GLOBAL, SM__OP_ST_GLOBAL },
    [SM_TRACE_LD_SHARED] = { SM__OP_ST_SHARED, SM__OP_LD_SHARED },
    [SM_TRACE_ST_SHARED] = { SM__OP_ST_SHARED, SM__OP_ST_SHARED },
    [SM_TRACE_CONTROL] = { SM__OP_NORES, SM__OP_LAT1 },
    [SM_TRACE_BARRIER] = { SM__OP_BAR, SM__OP_BAR },
    [SM_TRACE_FP_DIV] = { SM__OP_NORES, SM__OP_FP_DIV },
    [SM_TRACE_INT_DIV] = { SM__OP_NORES, SM__OP_INT_DIV },
};

/* sm_trace_gsim -> sm__op of an instruction with a result (sm.latency_table =
 * "gpgpusim"); SAME keeps op_of's.  The rfdse classes whose latency and interval
 * GPGPU-Sim's SM2_GTX480 shares (int and fp add 4, mads 5, interval 1) are reused, so
 * sm.lat_int, lat_fp, lat_int_mad, lat_fp_mad, lat_dp, lat_fp_div and lat_int_div
 * still set them. */
static const uint8_t op_of_gsim[SM_TRACE_G_N] = {
    [SM_TRACE_G_SAME] = SM__OP_END, /* op_of's */
    [SM_TRACE_G_LAT1] = SM__OP_LAT1,     [SM_TRACE_G_INT] = SM__OP_INT,
    [SM_TRACE_G_FP] = SM__OP_FP,         [SM_TRACE_G_IMUL] = SM__OP_G_IMUL,
    [SM_TRACE_G_MAX] = SM__OP_G_MAX,     [SM_TRACE_G_IMAD] = SM__OP_INT_MAD,
    [SM_TRACE_G_FMAD] = SM__OP_FP_MAD,   [SM_TRACE_G_DP] = SM__OP_G_DP,
    [SM_TRACE_G_DP_MAX] = SM__OP_G_DP_MAX, [SM_TRACE_G_DIV] = SM__OP_G_DIV,
    [SM_TRACE_G_IDIV] = SM__OP_G_IDIV,   [SM_TRACE_G_DDIV] = SM__OP_G_DDIV,
    [SM_TRACE_G_SFU] = SM__OP_G_SFU,     [SM_TRACE_G_SHFL] = SM__OP_G_SHFL,
};

int sm__trace_setup(sm__kernel *k, const sm_trace *tr)
{
    k->trace = tr;
    if (!tr)
        return SM_OK;
    if (tr->n_blocks < 1 || tr->warps_per_block != k->warps_per_block || tr->regs > k->regs ||
        !tr->first || !tr->insts)
        return SM_E_INVALID;
    /* the drawn stream's knobs do not apply: no thread-ID branches, bank mates, barriers
     * by position or partial warps beyond the block's tail */
    k->first_div = k->regs;
    k->div_thresh = k->partial_thresh = k->mate_thresh = 0;
    k->n_bar = k->prog_len = 0;
    return SM_OK;
}

void sm__trace_warp(const sm__kernel *k, sm__warp *wp, int ordinal, int warp_in_block)
{
    const sm_trace *tr = k->trace;
    int row = ordinal % tr->n_blocks * tr->warps_per_block + warp_in_block;
    wp->micro_row = (uint16_t)row; /* ordinal < SM_SIM_WAVES x 32 blocks: row < 2^16 */
    wp->n_left = (int32_t)(tr->first[row + 1] - tr->first[row]);
}

void sm__trace_inst(const sm__kernel *k, sm__warp *wp, int index, sm__inst *in)
{
    const sm_trace *tr = k->trace;
    uint64_t at = tr->first[wp->micro_row] + (uint64_t)index;
    const sm_trace_inst *t = &tr->insts[at];
    wp->tinst = (uint32_t)at; /* its lines (pending.c) */
    int res = (t->dst != SM_TRACE_NO_REG) | (t->pdst != 0);
    in->op = op_of[t->op][res];
    if (__builtin_expect(k->trace_gsim, 0) && res && t->gsim != SM_TRACE_G_SAME &&
        t->gsim < SM_TRACE_G_N)
        in->op = op_of_gsim[t->gsim];
    in->dst = t->dst;
    /* predicates: a result only where the operation has one (never on a store or a
     * barrier, whose slot is not released: the decoder promises it, this keeps it) */
    wp->pdst = sm__ops[in->op].is_store ? 0 : t->pdst;
    wp->psrc[0] = t->psrc[0];
    wp->psrc[1] = t->psrc[1];
    wp->psrc[2] = t->psrc[2];
    in->n_src = t->n_src;
    in->src[0] = t->src[0];
    in->src[1] = t->src[1];
    in->src[2] = t->src[2];
    in->miss = t->miss != 0;
    in->hit_reqs = t->miss ? (uint8_t)(t->miss - 1) : 0;
    in->site = t->site;
    in->reqs = t->reqs;
    in->smem_ways = t->smem_ways;
    in->redirect = t->redirect;
    /* Lanes: an instruction whose active lanes all lie in [0, SM__DIV_LANES) takes the
     * half-warp lane mode (its accesses touch the sub-bank parts of those lanes, as a
     * thread-ID branch's), any other the warp's.  The mode sets timing and the parts
     * touched; the lanes counted (thread instructions, energy) are the mask's own. */
    int div = (t->mask >> SM__DIV_LANES) == 0;
    int lanes = __builtin_popcount(t->mask);
    int cap = div ? (wp->lanes < SM__DIV_LANES ? wp->lanes : SM__DIV_LANES) : wp->lanes;
    in->div = (uint8_t)div;
    wp->tlanes[div] = (uint8_t)(lanes < cap ? lanes : cap);
}

uint32_t sm__trace_pc(const sm__kernel *k, const sm__warp *wp, int index)
{
    const sm_trace *tr = k->trace;
    uint64_t first = tr->first[wp->micro_row], n = tr->first[wp->micro_row + 1] - first;
    uint64_t i = index < 0 ? 0 : (uint64_t)index < n ? (uint64_t)index : n - 1;
    return tr->insts[first + i].pc;
}
