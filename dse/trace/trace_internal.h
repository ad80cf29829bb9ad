/* trace_internal.h - the dse_trace struct, shared by the files of dse/trace/. */
#ifndef RFDSE_DSE_TRACE_INTERNAL_H
#define RFDSE_DSE_TRACE_INTERNAL_H

#include "dse_trace.h"

#define DSE__TRACE_OPCODE_LEN 32 /* "LDG.E.128.SYS" and the like; longer is refused */

struct dse_trace {
    dse_trace_header h;
    dse_trace_warp *warps;
    size_t n_warps, cap_warps;
    dse_trace_inst *insts;
    size_t n_insts, cap_insts;
    uint64_t *addrs;
    size_t n_addrs, cap_addrs;
    char (*opcodes)[DSE__TRACE_OPCODE_LEN];
    size_t n_opcodes, cap_opcodes;
};

/* Grows *arr (elements of size sz) to hold n + 1; 0 or -1 (out of memory). */
int dse__trace_reserve(void **arr, size_t *cap, size_t n, size_t sz);
/* The id of opcode name in t's table, added if new; -1 out of memory. */
int dse__trace_opcode_id(dse_trace *t, const char *name);

/* CUDA's limits on a launch (Programming Guide, "Technical Specifications per Compute
 * Capability"): they keep a block's thread count and a grid's block count far from
 * overflow in every product the readers and the stream take. */
extern const int dse__trace_grid_max[3], dse__trace_block_max[3];
/* 1 iff every dimension of grid and block is in [1, its limit] and a block holds at most
 * 2048 threads. */
int dse__trace_dims_valid(const dse_trace_header *h);

/* The class of a PTX opcode with its modifiers, or -1 (trace_opcodes_ptx.c). */
int dse__trace_ptx_class_of(const char *opcode);
/* GPGPU-Sim 4.0's timing class of a PTX opcode with its modifiers (sm_trace_gsim;
 * trace_opcodes_ptx.c), for sm.latency_table = "gpgpusim". */
int dse__trace_ptx_gsim_of(const char *opcode);

#endif
