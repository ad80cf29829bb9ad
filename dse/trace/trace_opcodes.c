/* The SASS opcode table: base opcode (the part before the first '.') -> instruction class.
 *
 * Written from NVIDIA's public instruction-set reference (CUDA Binary Utilities,
 * "Instruction Set Reference": the Maxwell/Pascal table for binary versions 50-62, the
 * Volta/Turing/Ampere tables for 70-86).  An opcode listed for a range of versions is
 * known only there: a trace of another architecture that uses it is refused by name
 * rather than guessed (docs/traces.md). */
#include <string.h>

#include "trace_internal.h"

typedef struct op_row {
    const char *name;
    dse_trace_class cls;
    int min_version, max_version;
} op_row;

#define ALL 30, 99
#define MAXWELL_PASCAL 50, 62
#define VOLTA_ON 70, 99

static const op_row ops[] = {
    /* integer and logic (SP pipelines) */
    { "IADD", DSE_TRACE_INT, ALL }, { "IADD3", DSE_TRACE_INT, ALL },
    { "IADD32I", DSE_TRACE_INT, ALL }, { "IMAD", DSE_TRACE_INT, ALL },
    { "IMADSP", DSE_TRACE_INT, MAXWELL_PASCAL }, { "IMUL", DSE_TRACE_INT, ALL },
    { "IMUL32I", DSE_TRACE_INT, ALL }, { "XMAD", DSE_TRACE_INT, MAXWELL_PASCAL },
    { "ISCADD", DSE_TRACE_INT, ALL }, { "ISCADD32I", DSE_TRACE_INT, ALL },
    { "LEA", DSE_TRACE_INT, ALL }, 
    { "ISETP", DSE_TRACE_INT, ALL }, { "ISET", DSE_TRACE_INT, ALL },
    { "ICMP", DSE_TRACE_INT, ALL }, { "IMNMX", DSE_TRACE_INT, ALL },
    { "IABS", DSE_TRACE_INT, ALL }, { "SHL", DSE_TRACE_INT, ALL }, { "SHR", DSE_TRACE_INT, ALL },
    { "SHF", DSE_TRACE_INT, ALL }, { "LOP", DSE_TRACE_INT, ALL }, { "LOP3", DSE_TRACE_INT, ALL },
    { "LOP32I", DSE_TRACE_INT, ALL }, { "BFE", DSE_TRACE_INT, ALL }, { "BFI", DSE_TRACE_INT, ALL },
    { "BMSK", DSE_TRACE_INT, VOLTA_ON }, { "BREV", DSE_TRACE_INT, ALL },
    { "FLO", DSE_TRACE_INT, ALL }, { "POPC", DSE_TRACE_INT, ALL }, { "PRMT", DSE_TRACE_INT, ALL },
    { "SEL", DSE_TRACE_INT, ALL }, { "MOV", DSE_TRACE_INT, ALL }, { "MOV32I", DSE_TRACE_INT, ALL },
    { "S2R", DSE_TRACE_INT, ALL }, { "CS2R", DSE_TRACE_INT, ALL }, { "S2UR", DSE_TRACE_INT, VOLTA_ON },
    { "P2R", DSE_TRACE_INT, ALL }, { "R2P", DSE_TRACE_INT, ALL }, { "PSETP", DSE_TRACE_INT, ALL },
    { "PSET", DSE_TRACE_INT, ALL }, { "PLOP3", DSE_TRACE_INT, ALL }, { "CSET", DSE_TRACE_INT, ALL },
    { "CSETP", DSE_TRACE_INT, ALL }, { "VABSDIFF", DSE_TRACE_INT, ALL },
    { "VABSDIFF4", DSE_TRACE_INT, ALL }, { "IDP", DSE_TRACE_INT, VOLTA_ON },
    { "VOTE", DSE_TRACE_INT, ALL }, { "SHFL", DSE_TRACE_INT, ALL }, { "I2I", DSE_TRACE_INT, ALL },
    { "ULDC", DSE_TRACE_INT, VOLTA_ON },
    { "UMOV", DSE_TRACE_INT, VOLTA_ON }, { "UIADD3", DSE_TRACE_INT, VOLTA_ON },
    { "UIMAD", DSE_TRACE_INT, VOLTA_ON }, { "ULOP3", DSE_TRACE_INT, VOLTA_ON },
    { "USHF", DSE_TRACE_INT, VOLTA_ON },
    /* single precision and conversions */
    { "FADD", DSE_TRACE_FP32, ALL }, { "FADD32I", DSE_TRACE_FP32, ALL },
    { "FMUL", DSE_TRACE_FP32, ALL }, { "FMUL32I", DSE_TRACE_FP32, ALL },
    { "FFMA", DSE_TRACE_FP32, ALL }, { "FFMA32I", DSE_TRACE_FP32, ALL },
    { "FMNMX", DSE_TRACE_FP32, ALL }, { "FSET", DSE_TRACE_FP32, ALL },
    { "FSETP", DSE_TRACE_FP32, ALL }, { "FSWZADD", DSE_TRACE_FP32, ALL },
    { "FCMP", DSE_TRACE_FP32, ALL }, { "FSEL", DSE_TRACE_FP32, VOLTA_ON },
    { "FCHK", DSE_TRACE_FP32, ALL }, { "HADD2", DSE_TRACE_FP32, ALL },
    { "HMUL2", DSE_TRACE_FP32, ALL }, { "HFMA2", DSE_TRACE_FP32, ALL },
    { "HSETP2", DSE_TRACE_FP32, ALL }, { "F2F", DSE_TRACE_FP32, ALL },
    { "F2I", DSE_TRACE_FP32, ALL }, { "I2F", DSE_TRACE_FP32, ALL }, { "FRND", DSE_TRACE_FP32, ALL },
    { "RRO", DSE_TRACE_FP32, MAXWELL_PASCAL }, { "HMMA", DSE_TRACE_FP32, VOLTA_ON },
    /* double precision */
    { "DADD", DSE_TRACE_FP64, ALL }, { "DMUL", DSE_TRACE_FP64, ALL },
    { "DFMA", DSE_TRACE_FP64, ALL }, { "DMNMX", DSE_TRACE_FP64, ALL },
    { "DSET", DSE_TRACE_FP64, ALL }, { "DSETP", DSE_TRACE_FP64, ALL },
    /* special functions */
    { "MUFU", DSE_TRACE_SFU, ALL },
    /* memory */
    { "LDG", DSE_TRACE_LD_GLOBAL, ALL }, { "LD", DSE_TRACE_LD_GLOBAL, ALL },
    { "STG", DSE_TRACE_ST_GLOBAL, ALL }, { "ST", DSE_TRACE_ST_GLOBAL, ALL },
    { "LDS", DSE_TRACE_LD_SHARED, ALL }, { "STS", DSE_TRACE_ST_SHARED, ALL },
    { "LDSM", DSE_TRACE_LD_SHARED, VOLTA_ON },
    { "ATOM", DSE_TRACE_ATOMIC, ALL }, { "ATOMG", DSE_TRACE_ATOMIC, VOLTA_ON },
    { "ATOMS", DSE_TRACE_ATOMIC, ALL }, { "RED", DSE_TRACE_ATOMIC, ALL },
    { "LDL", DSE_TRACE_LOCAL, ALL }, { "STL", DSE_TRACE_LOCAL, ALL },
    { "LDC", DSE_TRACE_CONST, ALL }, { "TEX", DSE_TRACE_LD_GLOBAL, ALL },
    { "TLD", DSE_TRACE_LD_GLOBAL, ALL }, { "TLDS", DSE_TRACE_LD_GLOBAL, ALL },
    { "TLD4", DSE_TRACE_LD_GLOBAL, ALL }, { "TEXS", DSE_TRACE_LD_GLOBAL, ALL },
    { "SUST", DSE_TRACE_ST_GLOBAL, ALL }, { "SULD", DSE_TRACE_LD_GLOBAL, ALL },
    /* barriers */
    { "BAR", DSE_TRACE_BARRIER, ALL },
    /* control and synchronisation without a register-file result */
    { "BRA", DSE_TRACE_CONTROL, ALL }, { "BRX", DSE_TRACE_CONTROL, ALL },
    { "JMP", DSE_TRACE_CONTROL, ALL }, { "JMX", DSE_TRACE_CONTROL, ALL },
    { "CAL", DSE_TRACE_CONTROL, MAXWELL_PASCAL }, { "CALL", DSE_TRACE_CONTROL, VOLTA_ON },
    { "RET", DSE_TRACE_CONTROL, ALL }, { "EXIT", DSE_TRACE_CONTROL, ALL },
    { "SSY", DSE_TRACE_CONTROL, MAXWELL_PASCAL }, { "SYNC", DSE_TRACE_CONTROL, MAXWELL_PASCAL },
    { "PBK", DSE_TRACE_CONTROL, MAXWELL_PASCAL }, { "BRK", DSE_TRACE_CONTROL, ALL },
    { "PCNT", DSE_TRACE_CONTROL, MAXWELL_PASCAL }, { "CONT", DSE_TRACE_CONTROL, MAXWELL_PASCAL },
    { "PRET", DSE_TRACE_CONTROL, MAXWELL_PASCAL }, { "PEXIT", DSE_TRACE_CONTROL, MAXWELL_PASCAL },
    { "BSSY", DSE_TRACE_CONTROL, VOLTA_ON }, { "BSYNC", DSE_TRACE_CONTROL, VOLTA_ON },
    { "WARPSYNC", DSE_TRACE_CONTROL, VOLTA_ON }, { "BMOV", DSE_TRACE_CONTROL, VOLTA_ON },
    { "YIELD", DSE_TRACE_CONTROL, VOLTA_ON }, { "NOP", DSE_TRACE_CONTROL, ALL },
    { "MEMBAR", DSE_TRACE_CONTROL, ALL }, { "DEPBAR", DSE_TRACE_CONTROL, ALL },
    { "ERRBAR", DSE_TRACE_CONTROL, VOLTA_ON }, { "CCTL", DSE_TRACE_CONTROL, ALL },
    { "CCTLL", DSE_TRACE_CONTROL, ALL }, { "SETCRSPTR", DSE_TRACE_CONTROL, MAXWELL_PASCAL },
    { "GETCRSPTR", DSE_TRACE_CONTROL, MAXWELL_PASCAL }, { "BPT", DSE_TRACE_CONTROL, ALL },
    { "KILL", DSE_TRACE_CONTROL, ALL }, { "NANOSLEEP", DSE_TRACE_CONTROL, VOLTA_ON },
};

static const char *const class_names[DSE_TRACE_N_CLASSES] = {
    "int", "fp32", "fp64", "sfu", "ld_global", "st_global", "ld_shared", "st_shared",
    "atomic", "local", "const", "barrier", "control",
};

const char *dse_trace_class_name(dse_trace_class c)
{
    return c >= 0 && c < DSE_TRACE_N_CLASSES ? class_names[c] : "?";
}

int dse_trace_class_of(const char *opcode, int binary_version)
{
    if (binary_version == DSE_TRACE_PTX_VERSION)
        return dse__trace_ptx_class_of(opcode);
    size_t base = strcspn(opcode, ".");
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (strlen(ops[i].name) == base && !strncmp(ops[i].name, opcode, base) &&
            binary_version >= ops[i].min_version && binary_version <= ops[i].max_version)
            return (int)ops[i].cls;
    return -1;
}
