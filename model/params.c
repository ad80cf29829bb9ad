/* Defaults of every SM-model knob; the only place they are written down, but for the
 * knobs of register-file designs, which their own files declare (sm_design.h). */
#include "sm_params.h"
#include "sm_internal.h"

#include <string.h>

void sm_config_default(sm_config *c)
{
    *c = (sm_config){
        .max_warps = 48, .max_threads = 1536, .max_blocks = 8, .n_registers = 32768,
        .n_schedulers = 2, .base_policy = SM_SCHED_LRR, .group_size = 8,
        .oc_sp = 6, .oc_sfu = 8, .oc_mem = 2, .bank_ports = SM_PORTS_SEPARATE,
        /* the model of issue 2 and of GPGPU-Sim's slow-bank patch (docs/model.md) */
        .slow_access = SM_SLOW_HOLD_PORT, .bro_ports = SM_BRO_PORTS_VIRTUAL,
        .result_slots = false, .result_buses = 0, .oc_stages = 0,
        .pending_hits = false, .const_cache = false,
        .n_sp = 2, .n_sfu = 1, .n_ldst = 1,
        .lat_int = 4, .lat_int_mad = 5, .lat_fp = 4, .lat_fp_mad = 5,
        .lat_fp_div = 39, .lat_int_div = 145, .lat_sfu = 20,
        .lat_l1_hit = 35, .lat_shared = 26, .lat_miss = 450, .max_misses = 32,
        /* GPGPU-Sim's SM2_GTX480 config: -ptx_opcode_latency_dp 8,19,8,8,330 (add, max,
         * mul, mad, div) */
        .lat_dp = 8, .latency_table = SM_LATENCY_RFDSE,
        .max_cycles = 50000000, .max_insts = 0,
        /* Turner's design space, off: per-unit collectors, stalling, no tracker;
         * his unified pool had 8 slots */
        .collectors = SM_COLLECTORS_PER_UNIT, .oc_unified = 8, .mem_hazard = SM_HAZARD_STALL,
        .mshr_tracker = SM_TRACKER_NONE, .hit_predictor = SM_PREDICT_HIT_UNLESS_REPLAYED,
        .miss_interval = 0,
        /* GPGPU-Sim SM2_GTX480 gpgpusim.config (docs/model.md, "A memory system with
         * bandwidth", line by line) */
        .memory = SM_MEMORY_FIXED, .mem_channels = 6, .mem_subparts = 2,
        .mem_icnt_latency = 14, .mem_rop_latency = 120, .mem_l2_sector = 1,
        .mem_dram_latency = 100, .mem_dram_access = 24, .mem_dram_sector = 2,
        .mem_dram_clock = 924.0 / 700.0, .smem_size = 49152,
    };
}

void sm_profile_default(sm_profile *p)
{
    memset(p, 0, sizeof *p);
    *p = (sm_profile){
        .grid_blocks = 120, .block_threads = 256, .regs_per_thread = 16,
        .insts_per_warp = 400, .frac_sfu = 0.05, .frac_mem = 0.10, .frac_shared = 0.05,
        .frac_fp = 0.5, .frac_mad = 0.2, .frac_div = 0.0, .src_operands = 2.0,
        .frac_fp64 = 0.0, .frac_barrier = 0.0, .latency1_share = 0.0,
        .store_share = 0.25, /* the usual load/store ratio, where none is measured */
        .smem_store_share = 0.25, /* the same for shared memory */
        .reg_skew = 0.3, .dep_distance = 4.0, .dep_at1 = 0.0,
        .load_use_distance = 0.0, .shared_use_distance = 0.0, /* not placed */
        .l1_hit_rate = 0.7, .l1_pending_rate = 0.0, .miss_latency = 0,
        .frac_const = 0.0, .const_lines = 1.0, /* read only with sm.const_cache */
        .partial_warps = 0.0, .partial_lanes = 32, .tid_divergence = 0.0, .reg_span = 0,
        .zero_lanes = 0.2, /* Radaideh: about 20 % of thread executions see a zero */
        /* coalesce: Radaideh (Fig. 3.3) measured 29.2 % of results needing all 4 bytes;
         * how the other 70.8 % split over 1-3 bytes is not given: evenly, an assumption
         * (docs/model.md, "The coalescing register file", shows what it decides) */
        .width_0 = 0.0, .width_1 = 0.236, .width_2 = 0.236, .width_3 = 0.236,
        .same_bank_share = 0.0, .same_bank_srcs = 3,
        .long_lived_regs = 2, /* a base pointer and an index, live across the kernel */
        .release_delay = 0,
        .mem_requests = 1.0, .load_sites = 0, .site_bias = 0.0,
        .l2_hit_rate = 0.0, .line_requests = 0.0, .store_sectors = 0.0, .store_dram = 0.0,
        .dram_eff = 1.0,
        .smem_ways = 1.0, .frac_atomic = 0.0, .atomic_ways = 1,
        .smem_bytes = 0, .code_insts = 0, .n_launches = 0, .launch_dependent = true,
        .weight = 1.0, .seed = 1,
    };
}

void sm_technique_default(sm_technique *t)
{
    *t = (sm_technique){
        .scheduler = SM_SCHED_LRR, .fba_rm = false, .hybrid = false,
        .hybrid_policy = SM_HYBRID_AUTO, .hybrid_banks = 0,
        .main_rf_latency = 1,
        .design = { false }, /* no register-file design */
    };
    sm__designs_knob_defaults(t); /* each design's, from its knob rows */
}
