/* The PTX opcode table: a PTX opcode with its modifiers ("ld.global.f32") -> class.
 *
 * Traces written by GPGPU-Sim with bench/gpgpusim/trace-writer.patch carry PTX, not
 * SASS; they say so with "-binary version = 1000" (DSE_TRACE_PTX_VERSION, a tag no SASS
 * architecture uses).  Written by us from NVIDIA's public PTX ISA documentation
 * (chapter "Instruction Set": integer, floating-point, half-precision, comparison,
 * logic and shift, data movement and conversion, texture and surface, control flow,
 * parallel synchronisation, video and miscellaneous instructions).  Unlike SASS, one
 * PTX opcode covers several units: the class comes from the base opcode refined by the
 * instruction's type (".f64" -> fp64, ".f32"/".f16"/".bf16" -> fp32, else int) or state
 * space (".shared", ".local", ".const", ".param"; generic addressing counts as global).
 * docs/traces.md, "The opcode table". */
#include <string.h>

#include "trace_internal.h"
#include "sm_trace.h"

/* How a base opcode's class is decided. */
typedef enum {
    BY_TYPE,    /* fp64, fp32 or int by its type modifiers       */
    INT_ONLY,   /* int whatever the type (bit ops, moves, selects) */
    SFU,        /* the special-function unit (GPGPU-Sim runs div there too) */
    LOAD,       /* a load: class by state space                  */
    STORE,      /* a store: class by state space                 */
    ATOMIC,     /* atom, red: atomic (shared: ld_shared class via the decoder) */
    BARRIER,
    CONTROL
} ptx_kind;

typedef struct ptx_row {
    const char *name;
    ptx_kind kind;
} ptx_row;

static const ptx_row rows[] = {
    /* integer and floating-point arithmetic: the type decides the unit */
    { "add", BY_TYPE }, { "addc", BY_TYPE }, { "sub", BY_TYPE }, { "subc", BY_TYPE },
    { "mul", BY_TYPE }, { "mad", BY_TYPE }, { "madc", BY_TYPE }, { "fma", BY_TYPE },
    { "mul24", INT_ONLY }, { "mad24", INT_ONLY }, { "sad", INT_ONLY }, { "rem", INT_ONLY },
    { "abs", BY_TYPE }, { "neg", BY_TYPE }, { "min", BY_TYPE }, { "max", BY_TYPE },
    { "copysign", BY_TYPE }, { "testp", BY_TYPE }, { "set", BY_TYPE }, { "setp", BY_TYPE },
    { "cvt", BY_TYPE },
    /* special functions */
    { "div", SFU }, { "rcp", SFU }, { "sqrt", SFU }, { "rsqrt", SFU }, { "sin", SFU },
    { "cos", SFU }, { "lg2", SFU }, { "ex2", SFU }, { "tanh", SFU },
    /* logic, shifts, bit fields, moves, selects, warp-level data exchange */
    { "and", INT_ONLY }, { "or", INT_ONLY }, { "xor", INT_ONLY }, { "not", INT_ONLY },
    { "cnot", INT_ONLY }, { "lop3", INT_ONLY }, { "shl", INT_ONLY }, { "shr", INT_ONLY },
    { "shf", INT_ONLY }, { "bfe", INT_ONLY }, { "bfi", INT_ONLY }, { "brev", INT_ONLY },
    { "bfind", INT_ONLY }, { "clz", INT_ONLY }, { "popc", INT_ONLY }, { "prmt", INT_ONLY },
    { "fns", INT_ONLY }, { "bmsk", INT_ONLY }, { "szext", INT_ONLY },
    { "dp4a", INT_ONLY }, { "dp2a", INT_ONLY }, { "mov", INT_ONLY }, { "selp", INT_ONLY },
    { "slct", INT_ONLY }, { "cvta", INT_ONLY }, { "isspacep", INT_ONLY },
    { "vote", INT_ONLY }, { "shfl", INT_ONLY }, { "match", INT_ONLY },
    { "activemask", INT_ONLY }, { "redux", INT_ONLY }, { "vadd", INT_ONLY },
    { "vsub", INT_ONLY }, { "vabsdiff", INT_ONLY }, { "vmin", INT_ONLY }, { "vmax", INT_ONLY },
    { "vshl", INT_ONLY }, { "vshr", INT_ONLY }, { "vmad", INT_ONLY }, { "vset", INT_ONLY },
    /* memory */
    { "ld", LOAD }, { "ldu", LOAD }, { "tex", LOAD }, { "tld4", LOAD }, { "suld", LOAD },
    { "txq", LOAD }, { "suq", LOAD }, { "prefetch", CONTROL }, { "prefetchu", CONTROL },
    { "st", STORE }, { "sust", STORE }, { "sured", STORE },
    { "atom", ATOMIC }, { "red", ATOMIC },
    /* barriers: bar.sync, bar.red, barrier.sync wait; bar.arrive and bar.warp.sync do
     * not hold the warp for its block */
    { "bar", BARRIER }, { "barrier", BARRIER },
    /* control flow and synchronisation without a register-file result */
    { "bra", CONTROL }, { "brx", CONTROL }, { "call", CONTROL }, { "ret", CONTROL },
    { "exit", CONTROL }, { "trap", CONTROL }, { "brkpt", CONTROL }, { "nanosleep", CONTROL },
    { "membar", CONTROL }, { "fence", CONTROL }, { "pmevent", CONTROL }, { "nop", CONTROL },
};

/* Does the dotted opcode carry modifier m ("ld.global.f32" has "global")? */
static int has_mod(const char *op, const char *m)
{
    size_t n = strlen(m);
    for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.'))
        if (!strncmp(p + 1, m, n) && (p[1 + n] == '.' || p[1 + n] == '\0'))
            return 1;
    return 0;
}

static dse_trace_class by_type(const char *op)
{
    if (has_mod(op, "f64"))
        return DSE_TRACE_FP64;
    if (has_mod(op, "f32") || has_mod(op, "f16") || has_mod(op, "f16x2") ||
        has_mod(op, "bf16") || has_mod(op, "bf16x2") || has_mod(op, "tf32"))
        return DSE_TRACE_FP32;
    return DSE_TRACE_INT;
}

static dse_trace_class by_space(const char *op, int store)
{
    if (has_mod(op, "shared"))
        return store ? DSE_TRACE_ST_SHARED : DSE_TRACE_LD_SHARED;
    if (has_mod(op, "local"))
        return DSE_TRACE_LOCAL;
    if (has_mod(op, "const") || (!store && has_mod(op, "param")))
        return DSE_TRACE_CONST;
    if (has_mod(op, "param"))
        return DSE_TRACE_LOCAL; /* st.param: a call's arguments, in local memory */
    return store ? DSE_TRACE_ST_GLOBAL : DSE_TRACE_LD_GLOBAL; /* .global, generic, texture */
}

int dse__trace_ptx_class_of(const char *opcode)
{
    size_t base = strcspn(opcode, ".");
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        if (strlen(rows[i].name) != base || strncmp(rows[i].name, opcode, base))
            continue;
        switch (rows[i].kind) {
        case BY_TYPE: return (int)by_type(opcode);
        case INT_ONLY: return DSE_TRACE_INT;
        case SFU: return DSE_TRACE_SFU;
        case LOAD: return (int)by_space(opcode, 0);
        case STORE: return (int)by_space(opcode, 1);
        case ATOMIC: return DSE_TRACE_ATOMIC;
        case BARRIER:
            return has_mod(opcode, "arrive") || has_mod(opcode, "warp") ? DSE_TRACE_CONTROL
                                                                         : DSE_TRACE_BARRIER;
        case CONTROL: return DSE_TRACE_CONTROL;
        }
    }
    return -1;
}

int dse_trace_opcode_is_mad(const char *opcode, int binary_version)
{
    size_t base = strcspn(opcode, ".");
    static const char *const sass[] = { "IMAD", "IMADSP", "XMAD", "FFMA", "FFMA32I", "HFMA2", "HMMA" };
    static const char *const ptx[] = { "mad", "madc", "fma", "mad24" };
    const char *const *names = binary_version == DSE_TRACE_PTX_VERSION ? ptx : sass;
    size_t n = binary_version == DSE_TRACE_PTX_VERSION ? sizeof ptx / sizeof *ptx
                                                        : sizeof sass / sizeof *sass;
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == base && !strncmp(names[i], opcode, base))
            return 1;
    return 0;
}

int dse_trace_opcode_is_shared_atomic(const char *opcode, int binary_version)
{
    if (binary_version == DSE_TRACE_PTX_VERSION)
        return has_mod(opcode, "shared");
    size_t base = strcspn(opcode, ".");
    return base == 5 && !strncmp(opcode, "ATOMS", 5);
}

/* GPGPU-Sim 4.0's type of an instruction for its latency table: the first type
 * modifier (ptx_instruction::get_type(); f64 and f32 matter, any other type takes the
 * int row, cuda-sim.cc:824). */
static int gsim_type(const char *op)
{
    for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.')) {
        if (!strncmp(p + 1, "f64", 3) && (p[4] == '.' || p[4] == '\0'))
            return 64;
        if (!strncmp(p + 1, "f32", 3) && (p[4] == '.' || p[4] == '\0'))
            return 32;
        static const char *const types[] = { "s8", "s16", "s32", "s64", "u8", "u16", "u32",
                                             "u64", "b8", "b16", "b32", "b64", "f16", "f16x2",
                                             "bf16", "pred" };
        for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
            size_t n = strlen(types[i]);
            if (!strncmp(p + 1, types[i], n) && (p[1 + n] == '.' || p[1 + n] == '\0'))
                return 0;
        }
    }
    return 0;
}

static int base_is(const char *op, size_t base, const char *name)
{
    return strlen(name) == base && !strncmp(op, name, base);
}

/* ptx_instruction::set_opcode_and_latency() (GPGPU-Sim 4.0, src/cuda-sim/cuda-sim.cc
 * 684-953): add/addc/sub/subc, min/max, mul, mad/madc by type (f32, f64, else int),
 * div by type on the SFU, sqrt/sin/cos/ex2/lg2/rsqrt/rcp on the SFU, shfl; every other
 * ALU opcode (fma, mad24, mul24, mov, cvt, setp, selp, logic, shifts, neg, abs, rem,
 * ...) keeps the default latency and initiation interval 1 (cuda-sim.cc:741).  Memory,
 * barrier and control instructions keep the model's own classes (SAME). */
int dse__trace_ptx_gsim_of(const char *opcode)
{
    int cls = dse__trace_ptx_class_of(opcode);
    if (cls != DSE_TRACE_INT && cls != DSE_TRACE_FP32 && cls != DSE_TRACE_FP64 &&
        cls != DSE_TRACE_SFU)
        return SM_TRACE_G_SAME;
    size_t b = strcspn(opcode, ".");
    int ty = gsim_type(opcode);
    if (base_is(opcode, b, "add") || base_is(opcode, b, "addc") || base_is(opcode, b, "sub") ||
        base_is(opcode, b, "subc"))
        return ty == 64 ? SM_TRACE_G_DP : ty == 32 ? SM_TRACE_G_FP : SM_TRACE_G_INT;
    if (base_is(opcode, b, "min") || base_is(opcode, b, "max"))
        return ty == 64 ? SM_TRACE_G_DP_MAX : SM_TRACE_G_MAX;
    if (base_is(opcode, b, "mul"))
        return ty == 64 ? SM_TRACE_G_DP : ty == 32 ? SM_TRACE_G_FP : SM_TRACE_G_IMUL;
    if (base_is(opcode, b, "mad") || base_is(opcode, b, "madc"))
        return ty == 64 ? SM_TRACE_G_DP : ty == 32 ? SM_TRACE_G_FMAD : SM_TRACE_G_IMAD;
    if (base_is(opcode, b, "div"))
        return ty == 64 ? SM_TRACE_G_DDIV : ty == 32 ? SM_TRACE_G_DIV : SM_TRACE_G_IDIV;
    static const char *const sfu[] = { "sqrt", "sin", "cos", "ex2", "lg2", "rsqrt", "rcp" };
    for (size_t i = 0; i < sizeof sfu / sizeof *sfu; i++)
        if (base_is(opcode, b, sfu[i]))
            return SM_TRACE_G_SFU;
    if (base_is(opcode, b, "shfl"))
        return SM_TRACE_G_SHFL;
    return SM_TRACE_G_LAT1;
}
