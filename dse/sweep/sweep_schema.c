/* The table of every sweep-file key: name, type, where it lives, accepted range, doc. */
#include "sweep_schema.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "dse_sweep.h"
#include "sm_design.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define BIG 1e300

/* Enumerations: names generated from the lists that define the values
 * (variation/var_params.h, model/sm_params.h), so a name always reads back as its value. */
static const char *const domain_names[] = VAR_ENUM_NAMES(VAR_DOMAINS);
static const char *const method_names[] = VAR_ENUM_NAMES(VAR_FIELD_METHODS);
static const char *const cell_names[] = VAR_ENUM_NAMES(VAR_CELL_MODELS);
static const char *const duty_names[] = VAR_ENUM_NAMES(VAR_DUTY_MODELS);
static const char *const shift_names[] = VAR_ENUM_NAMES(VAR_INITIAL_SHIFTS);
static const char *const gran_names[] = VAR_ENUM_NAMES(VAR_GRANULARITIES);
static const char *const sched_names[] = {
#define SCHED_NAME(name, NAME, needs_bro, doc) #name,
    SM_SCHEDULERS(SCHED_NAME)
#undef SCHED_NAME
    NULL,
};
static const char *const hybrid_names[] = SM_ENUM_NAMES(SM_HYBRID_POLICIES);
static const char *const port_names[] = SM_ENUM_NAMES(SM_BANK_PORTS);
static const char *const slow_access_names[] = SM_ENUM_NAMES(SM_SLOW_ACCESSES);
static const char *const bro_port_names[] = SM_ENUM_NAMES(SM_BRO_PORTS);
static const char *const coll_names[] = SM_ENUM_NAMES(SM_COLLECTOR_KINDS);
static const char *const hazard_names[] = SM_ENUM_NAMES(SM_MEM_HAZARDS);
static const char *const tracker_names[] = SM_ENUM_NAMES(SM_MSHR_TRACKERS);
static const char *const latency_table_names[] = SM_ENUM_NAMES(SM_LATENCY_TABLES);
static const char *const frontend_names[] = SM_ENUM_NAMES(SM_FRONTENDS);
static const char *const memory_names[] = SM_ENUM_NAMES(SM_MEMORIES);
static const char *const predictor_names[] = SM_ENUM_NAMES(SM_HIT_PREDICTORS);

/* Key constructors: S is the owning struct type. */
#define K_INT(S, f, lo, hi, d) { #f, DSE__INT, offsetof(S, f), 0, lo, hi, false, NULL, 0, d }
#define K_I64(S, f, lo, hi, d) { #f, DSE__INT64, offsetof(S, f), 0, lo, hi, false, NULL, 0, d }
#define K_DBL(S, f, lo, hi, d) { #f, DSE__DOUBLE, offsetof(S, f), 0, lo, hi, false, NULL, 0, d }
#define K_DBLO(S, f, lo, hi, d) { #f, DSE__DOUBLE, offsetof(S, f), 0, lo, hi, true, NULL, 0, d }
#define K_BOOL(S, f, d) { #f, DSE__BOOL, offsetof(S, f), 0, 0, 1, false, NULL, 0, d }
#define K_ENUM(S, f, names, d) { #f, DSE__ENUM, offsetof(S, f), 0, 0, 0, false, names, 0, d }
#define K_STR(S, f, d) { #f, DSE__STRING, offsetof(S, f), 0, 0, 0, false, NULL, \
                         (int)sizeof(((S *)0)->f), d }
#define K_DLIST(S, f, cnt, lo, hi, d) { #f, DSE__DOUBLE_LIST, offsetof(S, f), offsetof(S, cnt), \
                         lo, hi, false, NULL, (int)NELEM(((S *)0)->f), d }
#define K_ILIST(S, f, cnt, lo, hi, d) { #f, DSE__INT_LIST, offsetof(S, f), offsetof(S, cnt), \
                         lo, hi, false, NULL, (int)NELEM(((S *)0)->f), d }

static const dse__key chips_keys[] = {
    K_INT(dse_chips, count, 1, 1000000, "Monte Carlo chips in the population"),
    K_I64(dse_chips, seed, 0, 9e18, "root seed of every random stream"),
};

static const dse__key floorplan_keys[] = {
    K_INT(var_floorplan, n_sms, 1, 1024, "SMs per chip"),
    K_INT(var_floorplan, sm_cols, 1, 1024, "SM tile grid: columns"),
    K_INT(var_floorplan, sm_rows, 1, 1024, "SM tile grid: rows"),
    K_INT(var_floorplan, n_banks, 1, 64, "register-file banks per SM"),
    K_INT(var_floorplan, bank_cols, 1, 64, "banks side by side in the RF region"),
    K_INT(var_floorplan, entries_per_bank, 1, 256, "register vectors per bank"),
    K_INT(var_floorplan, bits_per_entry, 32, 4096, "bits per register vector (32 x 32-bit)"),
    K_INT(var_floorplan, sub_banks, 1, 8, "sub-banks per bank (vertical split)"),
    K_DBLO(var_floorplan, die_width_mm, 0, 1000, "die width in mm"),
    K_DBLO(var_floorplan, rf_fraction, 0, 1, "fraction of the SM tile area taken by the RF"),
    K_DBLO(var_floorplan, cell_aspect, 0, 100, "bit-cell width / height"),
    K_INT(var_floorplan, lane_interleave, 1, 128,
          "lanes whose bits alternate along a row (column multiplexing; 1: none)"),
};

static const dse__key variation_keys[] = {
    K_ENUM(var_variation, domain, domain_names, "variation domain: one field per SM RF or per die"),
    K_DBLO(var_variation, phi, 0, 100, "correlation range, fraction of the domain width"),
    K_DBL(var_variation, vth_sigma, 0, 1, "total sigma/mu of Vth"),
    K_DBL(var_variation, leff_sigma, 0, 1, "total sigma/mu of Leff"),
    K_DBL(var_variation, sigma_ratio, 0, 1000, "sigma_rand / sigma_sys (1:4 is 0.25)"),
    K_INT(var_variation, grid_cols, 2, 4096, "systematic-field grid points across the domain"),
    K_ENUM(var_variation, method, method_names, "field sampler: circulant (FFT) or cholesky"),
};

static const dse__key timing_keys[] = {
    K_DBLO(var_timing, vdd, 0, 5, "supply voltage in V"),
    K_DBLO(var_timing, vth0, 0, 5, "nominal threshold voltage in V"),
    K_DBLO(var_timing, alpha, 0, 3, "alpha-power-law exponent"),
    K_ENUM(var_timing, cell, cell_names, "SRAM cell delay model"),
};

static const dse__key aging_keys[] = {
    K_DLIST(var_aging, years, n_years, 0, 100, "aging time points in years, from 0, increasing"),
    K_DBL(var_aging, kv, 0, 1, "NBTI prefactor Kv (docs/nbti.md)"),
    K_DBLO(var_aging, temperature, 0, 1000, "temperature in K"),
    K_DBL(var_aging, eta, 0, 1, "NBTI recovery constant"),
    K_DBLO(var_aging, time_exponent, 0, 1, "NBTI time exponent n"),
    K_ENUM(var_aging, duty, duty_names, "stress duty from accesses or from occupancy"),
    K_ENUM(var_aging, initial_shift, shift_names,
           "dVth_t0 of the NBTI law: the shift accumulated so far (source) or PV (paper)"),
};

static const dse__key sm_keys[] = {
    K_INT(sm_config, max_warps, 1, 64, "resident warps per SM"),
    K_INT(sm_config, max_threads, 32, 4096, "resident threads per SM"),
    K_INT(sm_config, max_blocks, 1, 32, "resident blocks per SM"),
    K_INT(sm_config, n_registers, 1024, 1048576, "32-bit registers per SM"),
    K_INT(sm_config, n_schedulers, 1, 4, "warp schedulers"),
    K_ENUM(sm_config, base_policy, sched_names, "base scheduling policy"),
    K_INT(sm_config, group_size, 1, 64, "two-level scheduling group size"),
    K_INT(sm_config, oc_sp, 1, 64, "operand collector units for SP"),
    K_INT(sm_config, oc_sfu, 1, 64, "operand collector units for SFU"),
    K_INT(sm_config, oc_mem, 1, 64, "operand collector units for LD/ST"),
    K_ENUM(sm_config, bank_ports, port_names,
           "bank ports: a read and a write port, or one shared port (writes first)"),
    K_ENUM(sm_config, slow_access, slow_access_names,
           "cost of a slow access: port held 2 cycles, pipelined, replayed, or all reads stall"),
    K_ENUM(sm_config, bro_ports, bro_port_names,
           "rf_bro: ports per virtual bank, or the physical banks' (an access holds both)"),
    K_BOOL(sm_config, result_slots,
           "SP/SFU pipelines refuse a result cycle already taken (GPGPU-Sim's units)"),
    K_INT(sm_config, result_buses, 0, 4,
          "with result_slots: result buses SP and SFU share (GPGPU-Sim EX_WB; 0: none)"),
    K_BOOL(sm_config, pending_hits,
           "a load hitting a line whose fill is in flight waits for it (GPGPU-Sim's pending hits)"),
    K_BOOL(sm_config, const_cache,
           "a trace's constant loads go through GPGPU-Sim's constant cache, cold at the start"),
    K_INT(sm_config, oc_stages, 0, 16,
          "cycles from operand read to execution beyond rfdse's (GPGPU-Sim 4.0: 3)"),
    K_INT(sm_config, n_sp, 1, 16, "SP pipelines"),
    K_INT(sm_config, n_sfu, 1, 16, "SFU pipelines"),
    K_INT(sm_config, n_ldst, 1, 16, "LD/ST pipelines"),
    K_INT(sm_config, lat_int, 1, 10000, "integer add/mul latency, cycles"),
    K_INT(sm_config, lat_int_mad, 1, 10000, "integer mad latency, cycles"),
    K_INT(sm_config, lat_fp, 1, 10000, "float add/mul latency, cycles"),
    K_INT(sm_config, lat_fp_mad, 1, 10000, "float mad latency, cycles"),
    K_INT(sm_config, lat_fp_div, 1, 10000, "float divide latency, cycles"),
    K_INT(sm_config, lat_int_div, 1, 10000, "integer divide latency, cycles"),
    K_INT(sm_config, lat_sfu, 1, 10000, "SFU latency, cycles"),
    K_INT(sm_config, lat_l1_hit, 1, 10000, "L1 hit latency, cycles"),
    K_INT(sm_config, lat_shared, 1, 10000, "shared-memory latency, cycles"),
    K_INT(sm_config, lat_miss, 1, 100000, "L1 miss latency (L2 + DRAM), cycles"),
    K_INT(sm_config, lat_dp, 1, 10000, "double-precision add/mul/mad latency, cycles"),
    K_ENUM(sm_config, latency_table, latency_table_names,
           "ALU latencies: rfdse's, or GPGPU-Sim 4.0's (latency1_share; a PTX trace's opcodes)"),
    K_ENUM(sm_config, frontend, frontend_names,
           "instruction front end: none, or GPGPU-Sim's fetch, decode and 2-entry buffer"),
    K_INT(sm_config, max_misses, 1, 4096, "outstanding misses per SM"),
    K_ENUM(sm_config, memory, memory_names,
           "L1 misses: one fixed latency, or L2 and DRAM partitions with bandwidth"),
    K_INT(sm_config, mem_channels, 1, 64, "DRAM channels (memory partitions) of the chip"),
    K_INT(sm_config, mem_subparts, 1, 4, "L2 sub-partitions per DRAM channel"),
    K_INT(sm_config, mem_icnt_latency, 0, 10000, "interconnect latency, request and reply, cycles"),
    K_INT(sm_config, mem_rop_latency, 0, 10000, "L2 ROP queue latency, cycles"),
    K_INT(sm_config, mem_l2_sector, 1, 100, "L2 data port cycles per 32-byte sector"),
    K_INT(sm_config, mem_dram_latency, 0, 10000, "DRAM latency queue, SM cycles"),
    K_INT(sm_config, mem_dram_access, 0, 10000, "DRAM row activate + CAS latency, DRAM cycles"),
    K_INT(sm_config, mem_dram_sector, 1, 100, "DRAM cycles a 32-byte sector request holds a channel"),
    K_DBLO(sm_config, mem_dram_clock, 0, 100, "DRAM clock / SM clock"),
    K_INT(sm_config, smem_size, 0, 1048576, "shared memory per SM, bytes (0: no limit)"),
    K_ENUM(sm_config, collectors, coll_names,
           "operand collectors: per unit kind (oc_sp/oc_sfu/oc_mem) or one unified pool"),
    K_INT(sm_config, oc_unified, 1, 64, "generic operand collectors with collectors = \"unified\""),
    K_ENUM(sm_config, mem_hazard, hazard_names,
           "a global load meeting a memory hazard stalls the memory stage or is replayed"),
    K_ENUM(sm_config, mshr_tracker, tracker_names,
           "issue-stage MSHR tracker for loads predicted to miss"),
    K_ENUM(sm_config, hit_predictor, predictor_names, "hit/miss predictor of global loads"),
    K_INT(sm_config, miss_interval, 0, 10000,
          "cycles between miss requests to L2 (request queue bandwidth; 0: unlimited)"),
    K_I64(sm_config, max_cycles, 1000, 1e15, "watchdog: cycle limit of one SM run"),
    K_I64(sm_config, max_insts, 0, 1e15,
          "end an SM run after this many warp instructions (0: the kernel's end; "
          "GPGPU-Sim's instruction cap, comparison)"),
};

static const dse__key output_keys[] = {
    K_STR(dse_output, file, "results file (HDF5)"),
    K_ILIST(dse_output, trace_chips, n_trace_chips, 0, 1e6, "chips whose sub-banks are traced"),
};

static const dse__key energy_keys[] = {
    K_DBLO(dse_energy, access_pj, 0, 1e6, "dynamic energy of one access to a whole sub-bank, pJ"),
    K_DBL(dse_energy, leakage_mw, 0, 1e6, "leakage power of one powered sub-bank, mW"),
    K_DBLO(dse_energy, clock_mhz, 0, 1e6, "SM clock at normalised frequency 1.0, MHz"),
};

#define SECTION(n, member, keys, doc) { n, offsetof(dse_sweep, member), keys, NELEM(keys), doc }
const dse__section dse__sections[] = {
    SECTION("chips", chips, chips_keys, "the Monte Carlo chip population"),
    SECTION("floorplan", var.floorplan, floorplan_keys, "die, SM and register-file geometry"),
    SECTION("variation", var.variation, variation_keys, "VARIUS-style process variation"),
    SECTION("timing", var.timing, timing_keys, "device and cell timing"),
    SECTION("aging", var.aging, aging_keys, "NBTI aging schedule"),
    SECTION("sm", sm, sm_keys, "SM pipeline and memory"),
    SECTION("output", output, output_keys, "results file"),
    SECTION("energy", energy, energy_keys, "register-file energy model"),
};
const size_t dse__n_sections = NELEM(dse__sections);

#define T_OFF(member) offsetof(dse_technique, member)
/* The technique keys that are no design's: the frequency side, the scheduler and the
 * mappings, the main RF's latency and the cache clock's two keys (dse_technique). */
static const dse__key technique_head[] = {
    { "variation", DSE__BOOL, T_OFF(freq.variation), 0, 0, 1, false, NULL, 0,
      "false: no process variation and no aging (the `ideal` normaliser)" },
    { "granularity", DSE__ENUM, T_OFF(freq.granularity), 0, 0, 0, false, gran_names, 0,
      "fast/slow classification unit" },
    { "fast_percent", DSE__DOUBLE, T_OFF(freq.fast_percent), 0, 0, 100, true, NULL, 0,
      "share of storage classified fast, percent" },
    { "bro", DSE__BOOL, T_OFF(freq.bro), 0, 0, 1, false, NULL, 0,
      "rf_bro: virtual banks of same-speed sub-banks, fastest first" },
    { "nbti_reorg", DSE__BOOL, T_OFF(freq.nbti_reorg), 0, 0, 1, false, NULL, 0,
      "nbti_opt: re-pair sub-banks by current delay at kernel launch" },
    { "scheduler", DSE__ENUM, T_OFF(ipc.scheduler), 0, 0, 0, false, sched_names, 0,
      "warp scheduler" },
    { "fba_rm", DSE__BOOL, T_OFF(ipc.fba_rm), 0, 0, 1, false, NULL, 0,
      "fast-bank-aware register mapping" },
    { "hybrid", DSE__BOOL, T_OFF(ipc.hybrid), 0, 0, 1, false, NULL, 0,
      "hybrid banks for fixed-lane register vectors" },
    { "hybrid_policy", DSE__ENUM, T_OFF(ipc.hybrid_policy), 0, 0, 0, false, hybrid_names, 0,
      "hybrid-bank count: chosen per kernel or fixed" },
    { "hybrid_banks", DSE__INT, T_OFF(ipc.hybrid_banks), 0, 0, 64, false, NULL, 0,
      "hybrid banks with hybrid_policy = \"fixed\"" },
};
static const dse__key technique_tail[] = {
    { "main_rf_latency", DSE__INT, T_OFF(ipc.main_rf_latency), 0, 1, 16, false, NULL, 0,
      "cycles per main register-file access on fast storage (slow: one more)" },
    { "rfc_rotation", DSE__BOOL, T_OFF(rfc_rotation), 0, 0, 1, false, NULL, 0,
      "ltrf, rfc_demand: partitions rotate over the cache's banks (even NBTI duty)" },
    { "rfc_cell_area", DSE__DOUBLE, T_OFF(rfc_cell_area), 0, 0.25, 16, false, NULL, 0,
      "ltrf, rfc_demand: cache cell area / RF cell area (random sigma / sqrt of it)" },
};

static dse__key_type key_type_of(sm_knob_type t)
{
    switch (t) {
    case SM_KNOB_BOOL: return DSE__BOOL;
    case SM_KNOB_ENUM: return DSE__ENUM;
    case SM_KNOB_DOUBLE: return DSE__DOUBLE;
    default: return DSE__INT;
    }
}

static void add(dse__keyset *out, dse__key k)
{
    assert(out->n < DSE__MAX_TECHNIQUE_KEYS);
    out->key[out->n++] = k;
}

void dse__technique_keys(dse__keyset *out)
{
    out->n = 0;
    for (size_t i = 0; i < NELEM(technique_head); i++)
        add(out, technique_head[i]);
    for (int d = 0; d < SM_N_DESIGNS; d++) /* one switch per design of the registry */
        add(out, (dse__key){ sm_design_name((sm_rf_design_id)d), DSE__BOOL,
                             T_OFF(ipc.design) + (size_t)d * sizeof(bool), 0, 0, 1, false,
                             NULL, 0, sm_design_get((sm_rf_design_id)d)->doc });
    for (size_t i = 0; i < NELEM(technique_tail); i++)
        add(out, technique_tail[i]);
    for (int d = 0; d < SM_N_DESIGNS; d++) {
        const sm_design_info *in = sm_design_get((sm_rf_design_id)d);
        if ((int)sm_design_knob_owner((sm_rf_design_id)d) != d)
            continue; /* it shares an earlier design's keys */
        size_t block = T_OFF(ipc.knobs) + (size_t)d * sizeof(sm_knob_block);
        for (int i = 0; i < in->n_knobs; i++) {
            const sm_knob *k = &in->knobs[i];
            add(out, (dse__key){ k->name, key_type_of(k->type), block + k->offset, 0, k->min,
                                 k->max, false, k->enum_names, 0, k->doc });
        }
    }
}

const dse__key dse__workload_keys[] = {
    K_INT(sm_profile, grid_blocks, 1, 10000000, "CTAs in the kernel"),
    K_INT(sm_profile, block_threads, 1, 1024, "threads per CTA"),
    K_INT(sm_profile, regs_per_thread, 1, 255, "registers per thread"),
    K_INT(sm_profile, insts_per_warp, 1, 100000000, "dynamic instructions per warp"),
    K_DBL(sm_profile, frac_sfu, 0, 1, "share of SFU instructions"),
    K_DBL(sm_profile, frac_mem, 0, 1, "share of global-memory instructions"),
    K_DBL(sm_profile, frac_shared, 0, 1, "share of shared-memory instructions"),
    K_DBL(sm_profile, frac_fp, 0, 1, "share of ALU instructions in floating point"),
    K_DBL(sm_profile, frac_mad, 0, 1, "share of ALU instructions that are mad"),
    K_DBL(sm_profile, frac_div, 0, 1, "share of ALU instructions that are divides"),
    K_DBL(sm_profile, frac_fp64, 0, 1, "share of ALU instructions in double precision (of frac_fp)"),
    K_DBL(sm_profile, frac_barrier, 0, 0.5, "share of instructions that are block barriers"),
    K_DBL(sm_profile, store_share, 0, 1, "share of global-memory instructions that store"),
    K_DBL(sm_profile, smem_store_share, 0, 1, "share of shared-memory instructions that store"),
    K_DBL(sm_profile, latency1_share, 0, 1,
          "ALU instructions at latency 1 with sm.latency_table = \"gpgpusim\""),
    K_DBL(sm_profile, src_operands, 0, 3, "mean source register operands per instruction"),
    K_DBL(sm_profile, reg_skew, 0, 100, "register-ID skew: P(r) ~ exp(-reg_skew r)"),
    K_DBL(sm_profile, dep_distance, 1, 10000, "mean distance to the producing instruction"),
    K_DBL(sm_profile, dep_at1, 0, 1,
          "share of producer distances that are 1 (0: geometric with dep_distance's mean)"),
    K_DBL(sm_profile, load_use_distance, 0, 64,
          "mean distance from a global load to its first reader (0: not placed)"),
    K_DBL(sm_profile, shared_use_distance, 0, 64,
          "mean distance from a shared-memory load to its first reader (0: not placed)"),
    K_DBL(sm_profile, l1_hit_rate, 0, 1, "L1 hit rate of global loads"),
    K_DBL(sm_profile, l1_pending_rate, 0, 1,
          "of the L1 hits, the share of loads whose line is in flight (sm.pending_hits)"),
    K_DBL(sm_profile, frac_const, 0, 1,
          "share of instructions reading the constant cache, ld.param/ld.const (sm.const_cache)"),
    K_DBL(sm_profile, const_lines, 1, 64,
          "64-byte constant lines an SM reads, each a cold miss (sm.const_cache)"),
    K_INT(sm_profile, miss_latency, 0, 100000, "miss latency, cycles (0: the sm value)"),
    K_DBL(sm_profile, partial_warps, 0, 1, "share of warps with a fixed partial lane mask"),
    K_INT(sm_profile, partial_lanes, 1, 32, "active lanes of a partial warp"),
    K_INT(sm_profile, reg_span, 0, 4096, "register numbers the registers spread over for banks (0: compact)"),
    K_DBL(sm_profile, same_bank_share, 0, 1, "share of instructions with their sources in one bank"),
    K_INT(sm_profile, same_bank_srcs, 2, 3,
          "those sources: 3 = all in the first's bank, 2 = second and third in one bank"),
    K_DBL(sm_profile, tid_divergence, 0, 1, "share of instructions under thread-ID branches"),
    K_DBL(sm_profile, zero_lanes, 0, 1, "share of result lanes whose value is zero"),
    K_DBL(sm_profile, width_0, 0, 1, "coalesce: share of results zero in every lane (0 bytes)"),
    K_DBL(sm_profile, width_1, 0, 1, "coalesce: share of results needing 1 byte per lane"),
    K_DBL(sm_profile, width_2, 0, 1, "coalesce: share of results needing 2 bytes per lane"),
    K_DBL(sm_profile, width_3, 0, 1, "coalesce: share of results needing 3 bytes per lane (rest: 4)"),
    K_INT(sm_profile, long_lived_regs, 0, 255, "registers live the whole kernel (reg_release)"),
    K_INT(sm_profile, release_delay, 0, 32,
          "instructions a release waits after the last read (reg_release)"),
    K_DBL(sm_profile, mem_requests, 1, 32, "mean memory requests per global load (divergence)"),
    K_INT(sm_profile, load_sites, 0, 256, "load-site IDs (static loads) for per-PC prediction"),
    K_DBL(sm_profile, site_bias, 0, 1,
          "0: every load site hits at l1_hit_rate; 1: a site always hits or always misses"),
    K_DBL(sm_profile, l2_hit_rate, 0, 1,
          "L1 misses and stores that hit in L2 (sm.memory = \"partitions\")"),
    K_DBL(sm_profile, line_requests, 0, 32,
          "L1 line requests per global load (sm.memory = \"partitions\"; 0: mem_requests)"),
    K_DBL(sm_profile, store_sectors, 0, 64,
          "32-byte sectors a global store writes (sm.memory = \"partitions\"; 0: one line)"),
    K_DBL(sm_profile, store_dram, 0, 1,
          "stored sectors the L2 writes back to DRAM (with store_sectors; \"partitions\")"),
    K_DBL(sm_profile, dram_eff, 0.05, 1,
          "DRAM data-bus efficiency while it has requests (sm.memory = \"partitions\")"),
    K_DBL(sm_profile, smem_ways, 1, 32, "mean bank-conflict degree of a shared-memory access"),
    K_DBL(sm_profile, frac_atomic, 0, 1, "share of shared-memory instructions that are atomics"),
    K_INT(sm_profile, atomic_ways, 1, 32, "lanes per word of a shared-memory atomic (serialised)"),
    K_INT(sm_profile, smem_bytes, 0, 1048576, "shared memory per block, bytes"),
    K_INT(sm_profile, code_insts, 0, 10000000,
          "the kernel's instructions: where a drawn one sits for the instruction cache "
          "(sm.frontend = \"gpgpusim_icache\"; 0: no loop)"),
    K_ILIST(sm_profile, code_walk, n_code_walk, 0, 1000000,
            "the PTX instructions a thread runs, as start, length, repeat triples: where a "
            "drawn one sits for the instruction cache (sm.frontend = \"gpgpusim_icache\"; "
            "none: code_insts)"),
    K_ILIST(sm_profile, launch_blocks, n_launches, 1, 10000000,
            "blocks of each launch, in order (none: one launch of grid_blocks)"),
    K_BOOL(sm_profile, launch_dependent, "each launch waits until the previous one has finished"),
    K_DLIST(sm_profile, warp_weights, n_warp_weights, 0.001, 1e8,
            "relative instructions of warp j of a block (entry j mod n; none: all equal)"),
    K_DBL(sm_profile, weight, 0, 1e6, "weight in the workload mix for aging duty"),
    K_I64(sm_profile, seed, 0, 9e18, "seed of the synthetic instruction stream"),
    K_I64(sm_profile, trace_hash, 0, 9e18,
          "a trace workload: hash of its decoded trace (set by the loader; 0: a profile)"),
};
const size_t dse__n_workload_keys = NELEM(dse__workload_keys);

void dse__key_range(const dse__key *k, char *buf, size_t n)
{
    switch (k->type) {
    case DSE__BOOL:
        snprintf(buf, n, "true or false");
        return;
    case DSE__STRING:
        snprintf(buf, n, "a string of at most %d characters", k->len - 1);
        return;
    case DSE__ENUM: {
        size_t used = (size_t)snprintf(buf, n, "one of:");
        for (int i = 0; k->enum_names[i] && used < n; i++)
            used += (size_t)snprintf(buf + used, n - used, " %s", k->enum_names[i]);
        return;
    }
    default:
        break;
    }
    const char *what = (k->type == DSE__DOUBLE_LIST || k->type == DSE__INT_LIST)
                           ? "a list of values in " : "";
    char lo[40], hi[40];
    dse__format_double(lo, sizeof lo, k->min);
    dse__format_double(hi, sizeof hi, k->max);
    snprintf(buf, n, "%s%s%s, %s]", what, k->min_open ? "(" : "[", lo, hi);
}

void dse__format_double(char *buf, size_t n, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

const dse__section *dse__section_find(const char *name)
{
    for (size_t i = 0; i < dse__n_sections; i++)
        if (!strcmp(dse__sections[i].name, name))
            return &dse__sections[i];
    return NULL;
}

size_t dse__key_size(const dse__key *k)
{
    switch (k->type) {
    case DSE__INT:
    case DSE__ENUM:
        return sizeof(int);
    case DSE__INT64:
        return sizeof(int64_t);
    case DSE__DOUBLE:
        return sizeof(double);
    case DSE__BOOL:
        return sizeof(bool);
    case DSE__STRING:
        return (size_t)k->len;
    case DSE__DOUBLE_LIST:
        return (size_t)k->len * sizeof(double);
    case DSE__INT_LIST:
        return (size_t)k->len * sizeof(int);
    }
    return 0;
}

bool dse__key_equal(const dse__key *k, const void *a, const void *b)
{
    const char *pa = (const char *)a + k->offset, *pb = (const char *)b + k->offset;
    if (k->type == DSE__STRING)
        return strncmp(pa, pb, (size_t)k->len) == 0;
    if (k->type == DSE__DOUBLE_LIST || k->type == DSE__INT_LIST) {
        int na = *(const int *)((const char *)a + k->count_offset);
        int nb = *(const int *)((const char *)b + k->count_offset);
        size_t el = k->type == DSE__INT_LIST ? sizeof(int) : sizeof(double);
        return na == nb && memcmp(pa, pb, (size_t)na * el) == 0;
    }
    return memcmp(pa, pb, dse__key_size(k)) == 0;
}

void dse__key_copy(const dse__key *k, void *dst, const void *src)
{
    memcpy((char *)dst + k->offset, (const char *)src + k->offset, dse__key_size(k));
    if (k->type == DSE__DOUBLE_LIST || k->type == DSE__INT_LIST)
        memcpy((char *)dst + k->count_offset, (const char *)src + k->count_offset, sizeof(int));
}
