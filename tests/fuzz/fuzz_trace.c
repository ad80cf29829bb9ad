/* libFuzzer target: the Accel-Sim trace reader (dse/trace/trace_text.c, docs/traces.md).
 *
 * Any bytes as a kernel trace.  Besides "no crash, no leak, no undefined behaviour" it
 * checks the reader's promises: a refusal is exactly one line "fuzz.traceg:LINE: ...",
 * and an accepted trace is consistent (every warp's instructions in order and in range,
 * every opcode index and address range inside its table).  An accepted trace is then
 * decoded for the SM model (trace_stream.c: the stream's promises of sm_trace.h) and
 * run on one SM, which may refuse or give up (a barrier some warp never meets) but not
 * crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse_trace.h"
#include "sm.h"

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
    for (size_t i = 0; i < dse_trace_n_insts(t); i++) {
        if (in[i].opcode >= dse_trace_n_opcodes(t) || in[i].n_dst > DSE_TRACE_MAX_REGS ||
            in[i].n_src > DSE_TRACE_MAX_REGS || in[i].n_pdst > DSE_TRACE_MAX_PREDS ||
            in[i].n_psrc > DSE_TRACE_MAX_PREDS ||
            in[i].addr_first + in[i].n_addr > dse_trace_n_addrs(t))
            abort();
        for (int k = 0; k < in[i].n_pdst; k++)
            if (in[i].pdst[k] > DSE_TRACE_MAX_PRED)
                abort();
        for (int k = 0; k < in[i].n_psrc; k++)
            if (in[i].psrc[k] > DSE_TRACE_MAX_PRED)
                abort();
    }
}

/* A decoded instruction's predicates (sm_trace.h): the read ones distinct, used slots
 * first; none written by an operation without a result (its slot is never released). */
static void check_preds(const sm_trace_inst *in)
{
    int end = 0;
    while (end < SM_TRACE_MAX_PSRC && in->psrc[end])
        end++;
    for (int j = 0; j < SM_TRACE_MAX_PSRC; j++) {
        if (j >= end && in->psrc[j])
            abort();
        for (int k = 0; k < j; k++)
            if (j < end && in->psrc[k] == in->psrc[j])
                abort();
    }
    if (in->pdst && (in->op == SM_TRACE_ST_GLOBAL || in->op == SM_TRACE_ST_SHARED ||
                     in->op == SM_TRACE_BARRIER))
        abort();
}

/* The decoded stream's promises (sm_trace.h), then one SM runs it. */
static void check_stream(const dse_trace *t)
{
    sm_trace *s = dse_trace_stream_of(t, "fuzz.traceg", NULL, NULL);
    if (!s)
        return;
    size_t rows = (size_t)s->n_blocks * (size_t)s->warps_per_block;
    for (size_t r = 0; r < rows; r++) {
        if (s->first[r + 1] <= s->first[r] ||
            s->insts[s->first[r + 1] - 1].op == SM_TRACE_BARRIER)
            abort();
    }
    for (uint64_t i = 0; i < s->first[rows]; i++) {
        const sm_trace_inst *in = &s->insts[i];
        if (in->op >= SM_TRACE_N_OPS || in->smem_ways < 1 || in->smem_ways > 32 ||
            in->reqs < 1 || in->n_src > SM_TRACE_MAX_SRC ||
            (in->dst != SM_TRACE_NO_REG && in->dst >= s->regs))
            abort();
        for (int j = 0; j < SM_TRACE_MAX_SRC; j++)
            if (j < in->n_src ? in->src[j] >= s->regs : in->src[j] != SM_TRACE_NO_REG)
                abort();
        check_preds(in);
    }
    static sm_sim *sim;
    static sm_config c;
    static sm_stats st;
    static sm_rf_map m;
    if (!sim) {
        sm_config_default(&c);
        c.max_cycles = 200000;
        sim = sm_sim_alloc(&c);
        sm_rf_map_all_fast(&m, 16, 64, 2);
        sm_rf_map_mark_last_slow(&m, 8);
    }
    const dse_trace_header *h = dse_trace_header_of(t);
    sm_profile p;
    sm_profile_default(&p);
    snprintf(p.trace, sizeof p.trace, "fuzz.traceg");
    p.grid_blocks = s->n_blocks;
    p.block_threads = h->block[0] * h->block[1] * h->block[2];
    p.regs_per_thread = s->regs;
    p.trace_stream = s;
    sm_technique tech;
    sm_technique_default(&tech);
    if (sim)
        (void)sm_sim_run(sim, &c, &p, &tech, &m, 0, 1, &st);
    dse_trace_stream_free(s);
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
    if (t) {
        check_trace(t);
        check_stream(t);
    } else
        check_message(msg, len);
    dse_trace_free(t);
    free(msg);
    return 0;
}
