/* dse_trace.h - Accel-Sim traces (kernel-N.traceg) as data: read, import to HDF5, info.
 *
 * A trace is what a GPU ran, warp by warp: per thread block and warp the dynamic
 * instructions as PC, active mask, destination and source registers, SASS opcode, and
 * for memory instructions the access width and addresses.  docs/traces.md describes the
 * text format rfdse reads (Accel-Sim trace versions 3 and 4, with and without line
 * numbers, every address compression) and the HDF5 form `rfdse trace import` writes.
 *
 * Errors are one line "FILE:LINE: what" on the err stream (NULL: silent) and a NULL or
 * -1 return; nothing is written half: the HDF5 form is built under NAME.partial and
 * renamed. */
#ifndef RFDSE_DSE_TRACE_H
#define RFDSE_DSE_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "sm_trace.h"

#define DSE_TRACE_MAX_REGS 4      /* destination or source registers of one instruction */
#define DSE_TRACE_RZ 255          /* R255: SASS's zero register, no register-file access */
#define DSE_TRACE_MAX_PREDS 4     /* destination or source predicates of one instruction */
#define DSE_TRACE_MAX_PRED 254    /* predicates P0 .. P254 (a "P<n>" token; docs/traces.md) */
#define DSE_TRACE_PTX_VERSION 1000 /* "-binary version" of a PTX trace (GPGPU-Sim's writer) */

/* The kernel's header lines ("-grid dim = (1,1,1)", ...). */
typedef struct dse_trace_header {
    char kernel_name[256];
    int kernel_id;
    int grid[3], block[3];
    int shmem;          /* bytes of shared memory per block */
    int nregs;          /* registers per thread              */
    int binary_version; /* SM architecture the SASS is for (61: Pascal GP10x) */
    int trace_version;  /* Accel-Sim tracer format version (3, 4)             */
    int lineinfo;       /* 1: every instruction line starts with a line number */
} dse_trace_header;

/* Address lists as the tracer writes them (Accel-Sim's address_format). */
enum { DSE_TRACE_ADDR_LIST = 0, DSE_TRACE_ADDR_BASE_STRIDE = 1, DSE_TRACE_ADDR_BASE_DELTA = 2 };

typedef struct dse_trace_inst {
    uint32_t pc, mask;
    uint16_t opcode;   /* index into the trace's opcode names (dse_trace_opcode) */
    uint8_t n_dst, n_src;
    uint8_t dst[DSE_TRACE_MAX_REGS], src[DSE_TRACE_MAX_REGS];
    /* predicate registers ("P<n>" tokens of the register lists): written (a compare's
     * result), read (a guard, a select's or a predicate operation's operand); no
     * register-file access, only the scoreboard's (docs/traces.md) */
    uint8_t n_pdst, n_psrc;
    uint8_t pdst[DSE_TRACE_MAX_PREDS], psrc[DSE_TRACE_MAX_PREDS];
    uint8_t width;     /* bytes per thread of a memory access; 0: not memory     */
    uint8_t addr_mode; /* DSE_TRACE_ADDR_*                                        */
    uint32_t n_addr;   /* values at addr_first in dse_trace_addrs: per active lane
                        * (list: addresses; base_delta: base then deltas) or 2
                        * (base_stride: base, stride)                             */
    uint64_t addr_first;
} dse_trace_inst;

typedef struct dse_trace_warp {
    int block[3];   /* the thread block's coordinates */
    int warp;       /* warp index within the block    */
    uint64_t first; /* its first instruction in dse_trace_insts */
    uint32_t n;     /* its instruction count                     */
} dse_trace_warp;

typedef struct dse_trace dse_trace;

/* Reads an Accel-Sim text trace; blocks whose linear index b has b % n_sms != sm are
 * skipped (sm = 0, n_sms = 1 keeps all), as rfdse's SM model shares a grid's blocks. */
dse_trace *dse_trace_read_text(const char *path, int sm, int n_sms, FILE *err);
/* The same from an open stream; name is used in messages (the fuzz target's entry). */
dse_trace *dse_trace_read_stream(FILE *f, const char *name, int sm, int n_sms, FILE *err);
/* Reads the HDF5 form `dse_trace_write_h5` wrote. */
dse_trace *dse_trace_read_h5(const char *path, FILE *err);
/* Writes the HDF5 form (chunked, deflate) to path via path.partial; 0 or -1. */
int dse_trace_write_h5(const dse_trace *t, const char *path, FILE *err);
void dse_trace_free(dse_trace *t);

const dse_trace_header *dse_trace_header_of(const dse_trace *t);
size_t dse_trace_n_warps(const dse_trace *t);
const dse_trace_warp *dse_trace_warps(const dse_trace *t);
size_t dse_trace_n_insts(const dse_trace *t);
const dse_trace_inst *dse_trace_insts(const dse_trace *t);
const uint64_t *dse_trace_addrs(const dse_trace *t);
size_t dse_trace_n_addrs(const dse_trace *t);
size_t dse_trace_n_opcodes(const dse_trace *t);
const char *dse_trace_opcode(const dse_trace *t, int id);

/* Instruction classes of the opcode table (trace_opcodes.c), the SM model's units. */
typedef enum {
    DSE_TRACE_INT, DSE_TRACE_FP32, DSE_TRACE_FP64, DSE_TRACE_SFU,
    DSE_TRACE_LD_GLOBAL, DSE_TRACE_ST_GLOBAL, DSE_TRACE_LD_SHARED, DSE_TRACE_ST_SHARED,
    DSE_TRACE_ATOMIC, DSE_TRACE_LOCAL, DSE_TRACE_CONST, DSE_TRACE_BARRIER, DSE_TRACE_CONTROL,
    DSE_TRACE_N_CLASSES
} dse_trace_class;

/* The class of a SASS opcode (with or without modifiers: "LDG.E.CG"), or -1 if the
 * table does not know it for this binary version; for DSE_TRACE_PTX_VERSION, of a PTX
 * opcode with its modifiers ("ld.global.f32": trace_opcodes_ptx.c). */
int dse_trace_class_of(const char *opcode, int binary_version);
const char *dse_trace_class_name(dse_trace_class c);
/* Is the opcode a multiply-add (IMAD, FFMA, ...; PTX mad, fma), timed at the mad
 * latencies?  Is it an atomic on shared memory (ATOMS; PTX atom.shared, red.shared)? */
int dse_trace_opcode_is_mad(const char *opcode, int binary_version);
int dse_trace_opcode_is_shared_atomic(const char *opcode, int binary_version);

/* Prints shape, header and instruction mix (by class and by opcode). */
void dse_trace_info(const dse_trace *t, FILE *out);

/* Reads a trace file: its HDF5 form when the file is HDF5, else the text (all blocks). */
dse_trace *dse_trace_read(const char *path, FILE *err);

/* ---- the trace as the SM model runs it (trace_stream.c; docs/traces.md) ------------ */

/* What decoding found, for `rfdse trace info` and the tests. */
typedef struct dse_trace_stream_info {
    uint64_t insts, longest_warp;
    uint64_t global_loads, l1_misses;   /* through the decoder's L1 */
    uint64_t shared, shared_ways;       /* shared accesses, sum of their conflict degrees */
    uint64_t extra_dsts, extra_srcs;    /* registers the model does not read or write */
    uint64_t pred_writes, pred_reads;   /* predicates through the scoreboard */
    uint64_t extra_pdsts, extra_psrcs;  /* predicates it does not track (past the first
                                         * written, the third read; a store's) */
    uint64_t last_barriers;             /* barriers ending a warp, run as no-ops */
} dse_trace_stream_info;

/* Decodes t into the stream the SM model runs (sm_profile.trace_stream): its kept blocks
 * in order, each with every warp of the block.  NULL with one line "NAME: what" on err
 * (name: the file, for messages).  info (may be NULL) gets what decoding found. */
sm_trace *dse_trace_stream_of(const dse_trace *t, const char *name, FILE *err,
                              dse_trace_stream_info *info);
void dse_trace_stream_free(sm_trace *s);
void dse_trace_stream_print(const dse_trace_stream_info *info, FILE *out);

/* ---- register allocation for PTX traces (trace_alloc.c; docs/model.md) ----------- */

/* One dynamic instruction's registers as dense virtual-register ids. */
typedef struct dse_trace_alloc_inst {
    uint8_t n_dst, n_src;
    uint32_t dst[DSE_TRACE_MAX_REGS], src[DSE_TRACE_MAX_REGS];
} dse_trace_alloc_inst;

typedef struct dse_trace_alloc_in {
    size_t n_vregs;                     /* virtual registers 0 .. n_vregs - 1         */
    const uint8_t *width;               /* per register: 32-bit words, 1 or 2 (pair)  */
    size_t n_warps;
    const size_t *warp_first;           /* [n_warps + 1]: warp w is insts[first[w] ..
                                         * first[w + 1]), in execution order          */
    const dse_trace_alloc_inst *insts;
} dse_trace_alloc_in;

/* Maps every virtual register to a physical one (phys[n_vregs]: its first 32-bit
 * register; a pair starts even) so that no two registers live at once in a warp share a
 * word; *used: the registers needed (highest + 1); *lower: the most 32-bit words live
 * before one instruction of a warp, a bound no allocation goes below.  0, or -1 out of
 * memory. */
int dse_trace_alloc(const dse_trace_alloc_in *in, int *phys, int *used, int *lower);
/* Replays the warps on the physical registers: how many reads find their register
 * overwritten by another value, or outside [0, n_phys) (0: the allocation is sound). */
long dse_trace_alloc_check(const dse_trace_alloc_in *in, const int *phys, int n_phys);

typedef struct dse_trace_alloc_report {
    char kernel[256];
    int vregs, words;   /* virtual registers named by the trace, their 32-bit words */
    int preds;          /* distinct predicates, renumbered P0 .. (not allocated) */
    int ptxas;          /* the header's -nregs: ptxas's count for the kernel */
    int bound, used;    /* the bound applied (ptxas's unless raised), registers used */
    int lower;          /* the live-range lower bound (dse_trace_alloc)           */
    long violations;    /* dse_trace_alloc_check's count (0) */
    size_t insts;
} dse_trace_alloc_report;

/* Copies a PTX trace (GPGPU-Sim's writer: virtual registers, "#vreg" lines) from in to
 * out with allocated registers and "-nregs = bound" (bound <= 0: the header's -nregs).
 * Predicates ("P<n>") are no registers: they are only renumbered P0, P1, ... in order of
 * first appearance (distinct stay distinct), so that they fit the reader's P0..P254.
 * in must be seekable (read twice).  0, or -1 with one line "NAME:0: what" on err
 * (more registers needed than the bound, more than 255 predicates, out of memory); rep
 * says what it found. */
int dse_trace_alloc_text(FILE *in, const char *name, FILE *out, int bound,
                         dse_trace_alloc_report *rep, FILE *err);

#endif
