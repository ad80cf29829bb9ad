/* A trace in memory: accessors, free, and `rfdse trace info`. */
#include <stdlib.h>

#include <hdf5.h>

#include "trace_internal.h"

dse_trace *dse_trace_read(const char *path, FILE *err)
{
    htri_t h5;
    H5E_BEGIN_TRY { h5 = H5Fis_hdf5(path); } H5E_END_TRY;
    return h5 > 0 ? dse_trace_read_h5(path, err) : dse_trace_read_text(path, 0, 1, err);
}

const int dse__trace_grid_max[3] = { 2147483647, 65535, 65535 };
const int dse__trace_block_max[3] = { 1024, 1024, 64 };

int dse__trace_dims_valid(const dse_trace_header *h)
{
    for (int i = 0; i < 3; i++)
        if (h->grid[i] < 1 || h->grid[i] > dse__trace_grid_max[i] || h->block[i] < 1 ||
            h->block[i] > dse__trace_block_max[i])
            return 0;
    return h->block[0] * h->block[1] * h->block[2] <= 2048;
}

void dse_trace_free(dse_trace *t)
{
    if (!t)
        return;
    free(t->warps);
    free(t->insts);
    free(t->addrs);
    free(t->opcodes);
    free(t);
}

const dse_trace_header *dse_trace_header_of(const dse_trace *t) { return &t->h; }
size_t dse_trace_n_warps(const dse_trace *t) { return t->n_warps; }
const dse_trace_warp *dse_trace_warps(const dse_trace *t) { return t->warps; }
size_t dse_trace_n_insts(const dse_trace *t) { return t->n_insts; }
const dse_trace_inst *dse_trace_insts(const dse_trace *t) { return t->insts; }
const uint64_t *dse_trace_addrs(const dse_trace *t) { return t->addrs; }
size_t dse_trace_n_addrs(const dse_trace *t) { return t->n_addrs; }
size_t dse_trace_n_opcodes(const dse_trace *t) { return t->n_opcodes; }

const char *dse_trace_opcode(const dse_trace *t, int id)
{
    return id >= 0 && (size_t)id < t->n_opcodes ? t->opcodes[id] : "?";
}

static void print_mix(const dse_trace *t, FILE *out)
{
    uint64_t by_class[DSE_TRACE_N_CLASSES] = { 0 }, lanes = 0;
    uint64_t *by_op = calloc(t->n_opcodes ? t->n_opcodes : 1, sizeof *by_op);
    for (size_t i = 0; i < t->n_insts; i++) {
        const dse_trace_inst *in = &t->insts[i];
        int c = dse_trace_class_of(t->opcodes[in->opcode], t->h.binary_version);
        by_class[c >= 0 ? c : DSE_TRACE_CONTROL]++;
        lanes += (uint64_t)__builtin_popcount(in->mask);
        if (by_op)
            by_op[in->opcode]++;
    }
    double n = t->n_insts ? (double)t->n_insts : 1.0;
    fprintf(out, "active lanes per instruction: %.2f of 32\n", (double)lanes / n);
    fprintf(out, "mix by class (share of warp instructions):\n");
    for (int c = 0; c < DSE_TRACE_N_CLASSES; c++)
        if (by_class[c])
            fprintf(out, "  %-10s %10llu  %6.2f %%\n", dse_trace_class_name((dse_trace_class)c),
                    (unsigned long long)by_class[c], 100.0 * (double)by_class[c] / n);
    fprintf(out, "opcodes (%zu distinct):\n", t->n_opcodes);
    for (size_t o = 0; by_op && o < t->n_opcodes; o++)
        fprintf(out, "  %-20s %10llu\n", t->opcodes[o], (unsigned long long)by_op[o]);
    free(by_op);
}

void dse_trace_info(const dse_trace *t, FILE *out)
{
    const dse_trace_header *h = &t->h;
    size_t blocks = 0;
    for (size_t w = 0; w < t->n_warps; w++)
        blocks += w == 0 || t->warps[w].block[0] != t->warps[w - 1].block[0] ||
                  t->warps[w].block[1] != t->warps[w - 1].block[1] ||
                  t->warps[w].block[2] != t->warps[w - 1].block[2];
    fprintf(out, "kernel: %s (id %d)\n", h->kernel_name[0] ? h->kernel_name : "?", h->kernel_id);
    fprintf(out, "grid (%d,%d,%d), block (%d,%d,%d), %d registers per thread, %d B shared "
                 "memory per block\n", h->grid[0], h->grid[1], h->grid[2], h->block[0],
            h->block[1], h->block[2], h->nregs, h->shmem);
    fprintf(out, "binary version %d, trace format version %d%s\n", h->binary_version,
            h->trace_version, h->lineinfo ? ", with line numbers" : "");
    fprintf(out, "kept: %zu blocks, %zu warps, %zu warp instructions, %zu addresses\n", blocks,
            t->n_warps, t->n_insts, t->n_addrs);
    print_mix(t, out);
}
