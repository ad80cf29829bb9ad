/* sm_trace.h - a recorded kernel as the SM model runs it: per block and warp the dynamic
 * instructions, decoded to the model's operation classes (docs/traces.md, "Running a
 * trace").
 *
 * The model does not read trace files: the driver (dse/trace/trace_stream.c) decodes an
 * Accel-Sim trace into this plain, immutable structure and hands it over through
 * sm_profile.trace_stream.  With it, a run executes the trace's warps instead of drawing
 * instructions: block k of an SM's share runs kept block k mod n_blocks, warp j of it
 * the instructions insts[first[b * warps_per_block + j], first[... + 1]).  Everything
 * that is a function of the addresses (the L1's hits and misses, shared-memory bank
 * conflicts, memory requests) is decided by the decoder and carried per instruction, so
 * every technique runs the same stream. */
#ifndef RFDSE_SM_TRACE_H
#define RFDSE_SM_TRACE_H

#include <stdint.h>

#define SM_TRACE_NO_REG 0xFF /* an unused register slot (no register-file access) */
#define SM_TRACE_MAX_SRC 3   /* distinct source registers the model reads */
#define SM_TRACE_MAX_PSRC 3  /* distinct predicates an instruction reads (scoreboard) */

/* Operation classes of a decoded instruction: each is one of the model's units with
 * one latency (docs/traces.md has the opcode -> class table). */
typedef enum {
    SM_TRACE_INT,       /* integer ALU, sm.lat_int                              */
    SM_TRACE_INT_MAD,   /* integer multiply-add (IMAD, XMAD), sm.lat_int_mad    */
    SM_TRACE_FP,        /* single precision, sm.lat_fp                          */
    SM_TRACE_FP_MAD,    /* single-precision fma (FFMA, HFMA2), sm.lat_fp_mad    */
    SM_TRACE_DP,        /* double precision, sm.lat_dp                          */
    SM_TRACE_SFU,       /* special functions (MUFU), sm.lat_sfu                 */
    SM_TRACE_LD_GLOBAL, /* global, local, texture, constant loads and atomics   */
    SM_TRACE_ST_GLOBAL, /* global and local stores                              */
    SM_TRACE_LD_SHARED, /* shared-memory loads, sm.lat_shared                   */
    SM_TRACE_ST_SHARED, /* shared-memory stores                                 */
    SM_TRACE_CONTROL,   /* branches, exits, fences, no-ops: an SP slot, latency 1 */
    SM_TRACE_BARRIER,   /* block barrier (BAR.SYNC)                             */
    SM_TRACE_FP_DIV,    /* PTX div.f32, div.f64: sm.lat_fp_div                  */
    SM_TRACE_INT_DIV,   /* PTX div on integers: sm.lat_int_div                  */
    SM_TRACE_N_OPS
} sm_trace_op;

/* GPGPU-Sim 4.0's timing class of a PTX instruction, used instead of the class above
 * when sm.latency_table = "gpgpusim" (docs/traces.md, "GPGPU-Sim's latency table"):
 * ptx_instruction::set_opcode_and_latency(), src/cuda-sim/cuda-sim.cc:684-953, with
 * SM2_GTX480's latencies and initiation intervals (gpgpusim.config:50-55) and the
 * default SFU ones (cuda-sim.cc:77-80, 104-107); on GTX480 (no DP unit) a DP_OP runs
 * on the SFU pipeline (shader.cc:1327-1330), everything else of the ALU on the SP. */
typedef enum {
    SM_TRACE_G_SAME,    /* no other class: memory, barriers, control, SASS traces  */
    SM_TRACE_G_LAT1,    /* the switch's default: latency 1, interval 1 (fma, mov,  *
                         * cvt, setp, selp, logic, shifts, neg, abs, rem, mad24...) */
    SM_TRACE_G_INT,     /* add, sub (int): 4, 1                                    */
    SM_TRACE_G_FP,      /* add, sub, mul (f32): 4, 1                               */
    SM_TRACE_G_IMUL,    /* mul (int, any width): 4, interval 2                     */
    SM_TRACE_G_MAX,     /* min, max (int, f32): 13, interval 2                     */
    SM_TRACE_G_IMAD,    /* mad, madc (int): 5, 1                                   */
    SM_TRACE_G_FMAD,    /* mad (f32): 5, 1                                         */
    SM_TRACE_G_DP,      /* add, sub, mul, mad (f64): 8, 8, on the SFU              */
    SM_TRACE_G_DP_MAX,  /* min, max (f64): 19, 16, on the SFU                      */
    SM_TRACE_G_DIV,     /* div (f32): 39, 4, on the SFU                            */
    SM_TRACE_G_IDIV,    /* div (int): 145, 8, on the SFU                           */
    SM_TRACE_G_DDIV,    /* div (f64): 330, 130, on the SFU                         */
    SM_TRACE_G_SFU,     /* sqrt, sin, cos, ex2, lg2, rsqrt, rcp: 8, 8, on the SFU  */
    SM_TRACE_G_SHFL,    /* shfl: 32, 4                                             */
    SM_TRACE_G_N
} sm_trace_gsim;

/* One warp instruction, 24 bytes.  Predicates (pdst, psrc) are numbered from 1, 0 being
 * "none": they take part in the scoreboard only (a read waits for the instruction that
 * writes the predicate, a write for the one before it), never in a register-file
 * access; an instruction without a result (a store, a barrier) writes none. */
typedef struct sm_trace_inst {
    uint32_t mask;      /* active lanes                                            */
    uint8_t op;         /* sm_trace_op                                             */
    uint8_t dst;        /* destination register, or SM_TRACE_NO_REG                */
    uint8_t n_src;      /* distinct source registers, in src[0, n_src)             */
    uint8_t src[SM_TRACE_MAX_SRC]; /* SM_TRACE_NO_REG past n_src                   */
    uint8_t smem_ways;  /* shared-memory access: bank-conflict degree 1..32 (the   *
                         * most distinct words any bank serves); 1 otherwise       */
    uint8_t miss;       /* global load: 0 if every line hit the L1 model, else 1 + *
                         * the lines that hit (a load misses when one line does;   *
                         * only its missing lines take MSHRs)                      */
    uint8_t reqs;       /* global access: 128-byte lines touched (requests), >= 1  */
    uint8_t site;       /* global load: load site (a hash of its PC), for predictors */
    uint8_t redirect;   /* the warp's next instruction is not at PC + size (taken  *
                         * branch, divergence, reconvergence): GPGPU-Sim's control *
                         * hazard, which flushes the instruction buffer            */
    uint8_t pdst;       /* predicate written + 1, or 0                             */
    uint8_t psrc[SM_TRACE_MAX_PSRC]; /* predicates read + 1, distinct, first      *
                         * the used ones, then 0                                   */
    uint8_t gsim;       /* sm_trace_gsim: the timing class under                   *
                         * sm.latency_table = "gpgpusim" (PTX traces)              */
    uint32_t pc;        /* its address in the kernel's code (the trace's PC): the  *
                         * instruction cache's (sm.frontend = "gpgpusim_icache");  *
                         * not in the trace's hash, as redirect                    */
} sm_trace_inst;

/* The lines a load reads, as fills (sm.pending_hits, sm.const_cache; docs/model.md,
 * "Pending hits"): per instruction, its fill IDs are fills[first, first + n).  A data
 * load's are the L1 model's: a missing load fetches each line the model misses, a new
 * fill ID each, in the decoder's order, and reads the lines it has (their fills, with
 * SM_TRACE_FILL_HIT set); a hitting load reads the fills that brought its lines in.  A constant load's are its 64-byte lines, numbered as first seen (GPGPU-Sim's
 * constant cache, `-gpgpu_const_cache:l1 N:64:64:2`).  Not in the trace's hash: they act
 * only under those options, which the run-cache key has. */
typedef enum {
    SM_TRACE_LINES_NONE,       /* not a load through a cache (n = 0)               */
    SM_TRACE_LINES_DATA_HIT,   /* a global or local load the L1 model hits         */
    SM_TRACE_LINES_DATA_MISS,  /* one it misses: each line a new fill              */
    SM_TRACE_LINES_CONST       /* a constant or parameter load                      */
} sm_trace_lines_kind;

#define SM_TRACE_FILL_HIT 0x80000000u /* in a missing load's list: a line the L1 has */

typedef struct sm_trace_lines {
    uint32_t first;     /* into sm_trace.fills                                      */
    uint8_t n;          /* fill IDs (lines read), 0..64                             */
    uint8_t kind;       /* sm_trace_lines_kind                                      */
} sm_trace_lines;

typedef struct sm_trace {
    int n_blocks;             /* blocks kept                                     */
    int warps_per_block;
    int regs;                 /* registers per thread: every register is below   */
    const uint64_t *first;    /* [n_blocks * warps_per_block + 1] instruction    *
                               * offsets; each warp has at least one instruction, *
                               * and its last is not a barrier                    */
    const sm_trace_inst *insts;
    const sm_trace_lines *lines; /* per instruction (as insts), or NULL: no load  *
                               * waits for a line in flight                       */
    const uint32_t *fills;    /* the fill IDs lines[i] point into                 */
    uint64_t hash;            /* of the trace file's content                      */
} sm_trace;

#endif
