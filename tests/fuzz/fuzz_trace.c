/* libFuzzer target: the Accel-Sim trace reader (dse/trace/trace_text.c, docs/traces.md).
 *
 * Any bytes as a kernel trace.  Besides "no crash, no leak, no undefined behaviour" it
 * checks the reader's promises: a refusal is exactly one line "fuzz.traceg:LINE: ...",
 * and an accepted trace is consistent (every warp's instructions in order and in range,
 * every opcode index and address range inside its table). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(const char *msg, size_t len)
{
    if (len == 0 || strncmp(msg, "fuzz.traceg:", 12) || msg[len - 1] != '\n' ||
        memchr(msg, '\n', len - 1)) {
        fprintf(stderr, "fuzz_trace: a refusal that is not one 'fuzz.traceg:LINE:' line: [%s]\n",
                msg);
        abort();
    }
}

static void check_trace(const dse_trace *t)
{
    const dse_trace_warp *w = dse_trace_warps(t);
    const dse_trace_inst *in = dse_trace_insts(t);
    uint64_t next = 0;
    for (size_t i = 0; i < dse_trace_n_warps(t); i++) {
        if (w[i].first != next)
            abort();
        next += w[i].n;
    }
    if (next != dse_trace_n_insts(t))
        abort();
    for (size_t i = 0; i < dse_trace_n_insts(t); i++)
        if (in[i].opcode >= dse_trace_n_opcodes(t) || in[i].n_dst > DSE_TRACE_MAX_REGS ||
            in[i].n_src > DSE_TRACE_MAX_REGS ||
            in[i].addr_first + in[i].n_addr > dse_trace_n_addrs(t))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)data, size ? size : 1, "r");
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    if (!in || !err)
        abort();
    if (!size) /* fmemopen needs a buffer of at least one byte: read none of it */
        fseek(in, 1, SEEK_SET);
    dse_trace *t = dse_trace_read_stream(in, "fuzz.traceg", 0, 1, err);
    fclose(in);
    fclose(err);
    if (t)
        check_trace(t);
    else
        check_message(msg, len);
    dse_trace_free(t);
    free(msg);
    return 0;
}
