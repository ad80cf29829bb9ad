/* A trace workload (docs/traces.md, "Running a trace"): `trace = "FILE"` in a workload
 * group.  The loader reads the file (text or its HDF5 form), decodes it into the stream
 * the SM model runs, and takes the kernel's shape from its header; the decoded stream
 * belongs to the sweep (dse_sweep.traces) and is shared by its copies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dse_sweep.h"
#include "dse_trace.h"

int dse__trace_workload(sm_profile *w, struct sm_trace **out, FILE *err, char *key,
                        size_t key_len, char *msg, size_t msg_len)
{
    key[0] = msg[0] = '\0';
    struct stat st;
    if (stat(w->trace, &st) == 0 && !S_ISREG(st.st_mode)) { /* a FIFO or device would hang */
        snprintf(key, key_len, "trace");
        snprintf(msg, msg_len, "%s is not a regular file, accepted: a trace file", w->trace);
        return -1;
    }
    dse_trace *t = dse_trace_read(w->trace, err);
    if (!t)
        return -1; /* the reader's one line names the file and line */
    const dse_trace_header *h = dse_trace_header_of(t);
    dse_trace_stream_info info;
    sm_trace *s = dse_trace_stream_of(t, w->trace, err, &info);
    long grid = (long)h->grid[0] * h->grid[1] * h->grid[2];
    int threads = h->block[0] * h->block[1] * h->block[2];
    dse_trace_free(t);
    if (!s)
        return -1;
    if (grid > 10000000 || threads > 1024 || info.longest_warp > 100000000) {
        snprintf(key, key_len, "trace");
        snprintf(msg, msg_len, "%s: a grid of %ld blocks of %d threads, %llu instructions in "
                 "its longest warp: beyond what a workload accepts (10^7 blocks of 1024 "
                 "threads, 10^8 instructions)", w->trace, grid, threads,
                 (unsigned long long)info.longest_warp);
        dse_trace_stream_free(s);
        return -1;
    }
    if (w->trace_hash && w->trace_hash != s->hash) {
        snprintf(key, key_len, "trace_hash");
        snprintf(msg, msg_len, "%s has changed since this sweep was written: its content "
                 "hashes to %lluL, not %lluL", w->trace, (unsigned long long)s->hash,
                 (unsigned long long)w->trace_hash);
        dse_trace_stream_free(s);
        return -1;
    }
    w->grid_blocks = (int)grid;
    w->block_threads = threads;
    w->regs_per_thread = s->regs;
    w->insts_per_warp = (int)info.longest_warp;
    w->trace_hash = s->hash;
    w->trace_stream = s;
    *out = s;
    return 0;
}

void dse__sweep_free_traces(dse_sweep *s)
{
    if (s->trace_owner != s)
        return; /* a copy: the sweep it was copied from owns them */
    for (int i = 0; i < DSE_MAX_WORKLOADS; i++)
        dse_trace_stream_free(s->traces[i]);
}
