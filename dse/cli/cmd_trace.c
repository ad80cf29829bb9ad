/* rfdse trace: Accel-Sim traces as data.  `import` turns a text trace into its compact
 * HDF5 form (optionally only the blocks one SM runs); `info` prints a trace's shape and
 * instruction mix, from either form (docs/traces.md). */
#include <errno.h>
#include <hdf5.h>
#include <stdbool.h>
#include <string.h>

#include "dse_cli.h"
#include "dse_trace.h"
#include "out.h"

static const char help[] =
    "Usage: rfdse trace import TRACE.traceg -o OUT.h5 [--sm I --n-sms N] [--allocate\n"
    "                          [--nregs R]]\n"
    "       rfdse trace info TRACE.traceg|TRACE.h5\n"
    "\n"
    "Reads a kernel trace in Accel-Sim's text format (kernel-N.traceg: trace versions 3 and\n"
    "4, with or without line numbers, every address compression; docs/traces.md).\n"
    "  import  writes the trace's compact HDF5 form: one chunked, deflate-compressed\n"
    "          dataset per instruction field, the warps, the opcode names and addresses\n"
    "          (h5py reads it without rfdse); written under OUT.h5.partial and renamed\n"
    "  info    prints the kernel's header, the blocks, warps and instructions kept, and\n"
    "          the instruction mix by class and by opcode\n"
    "A malformed trace (truncated, a warp count that does not match the block, a register\n"
    "beyond -nregs, a mask that is not hexadecimal, an opcode the table does not know) is\n"
    "one line TRACE:LINE: ... and exit status 2.\n"
    "\n"
    "Options:\n"
    "  -o OUT.h5     the HDF5 form to write (import)\n"
    "  --sm I        keep only the blocks SM I of N runs: linear block index b with\n"
    "  --n-sms N     b mod N = I, as rfdse's SM model shares a grid (default: all blocks)\n"
    "  --allocate    the trace is PTX with virtual registers (GPGPU-Sim's writer,\n"
    "                bench/gpgpusim/trace-writer.patch): map them to at most -nregs\n"
    "                physical registers first (docs/model.md, \"Traces of the 14\n"
    "                kernels\") and print the count beside ptxas's; more needed is exit 2\n"
    "  --nregs R     with --allocate: the bound instead of the header's -nregs\n"
    "  -h, --help    show this help\n";

static int is_h5(const char *path)
{
    htri_t r;
    H5E_BEGIN_TRY { r = H5Fis_hdf5(path); } H5E_END_TRY;
    return r > 0;
}

static int info(const char *path)
{
    dse_trace *t = is_h5(path) ? dse_trace_read_h5(path, stderr)
                               : dse_trace_read_text(path, 0, 1, stderr);
    if (!t)
        return DSE_EXIT_USAGE;
    dse_trace_info(t, stdout);
    dse_trace_stream_info si;
    sm_trace *st = dse_trace_stream_of(t, path, stderr, &si);
    dse_trace_free(t);
    if (!st)
        return DSE_EXIT_USAGE;
    dse_trace_stream_print(&si, stdout); /* what a trace workload runs (docs/traces.md) */
    dse_trace_stream_free(st);
    return DSE_EXIT_OK;
}

/* The PTX trace at path with allocated registers, read (docs/model.md). */
static dse_trace *read_allocated(const char *path, int sm, int n_sms, int nregs)
{
    FILE *f = fopen(path, "r"), *tmp = f ? tmpfile() : NULL;
    if (!f || !tmp) {
        fprintf(stderr, "%s:0: cannot read the trace: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return NULL;
    }
    dse_trace_alloc_report rep;
    dse_trace *t = NULL;
    if (!dse_trace_alloc_text(f, path, tmp, nregs, &rep, stderr)) {
        printf("%s: kernel %s: %d virtual registers (%d 32-bit words) in %zu warp "
               "instructions -> %d physical registers (live-range lower bound %d); ptxas: %d%s\n",
               path, rep.kernel, rep.vregs, rep.words, rep.insts, rep.used, rep.lower, rep.ptxas,
               rep.bound != rep.ptxas ? " (bound raised by --nregs)" : "");
        if (rep.preds)
            printf("%s: %d predicates, renumbered P0 to P%d (no registers: the scoreboard "
                   "only)\n", path, rep.preds, rep.preds - 1);
        rewind(tmp);
        t = dse_trace_read_stream(tmp, path, sm, n_sms, stderr);
    }
    fclose(f);
    fclose(tmp);
    return t;
}

static int import(const char *in, const char *out, int sm, int n_sms, int allocate, int nregs)
{
    char why[512];
    if (out_target_check(out, why, sizeof why))
        return dse_cli_usage_error("trace", "%s", why);
    dse_trace *t = allocate ? read_allocated(in, sm, n_sms, nregs)
                            : dse_trace_read_text(in, sm, n_sms, stderr);
    if (!t)
        return DSE_EXIT_USAGE;
    int rc = dse_trace_write_h5(t, out, stderr);
    if (!rc)
        printf("%s: %zu warps, %zu warp instructions, %zu addresses\n", out,
               dse_trace_n_warps(t), dse_trace_n_insts(t), dse_trace_n_addrs(t));
    dse_trace_free(t);
    return rc ? DSE_EXIT_FAILURE : DSE_EXIT_OK;
}

int dse_cmd_trace(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    const char *verb = argc > 1 ? argv[1] : "", *in = NULL, *out = NULL;
    long long sm = 0, n_sms = 1, nregs = 0;
    bool has_sm = false, has_n = false, allocate = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-o") && v)
            out = argv[++i];
        else if (!strcmp(a, "--sm") && v && !dse_cli_parse_ll(v, 0, 1 << 20, &sm))
            has_sm = true, i++;
        else if (!strcmp(a, "--n-sms") && v && !dse_cli_parse_ll(v, 1, 1 << 20, &n_sms))
            has_n = true, i++;
        else if (!strcmp(a, "--allocate"))
            allocate = true;
        else if (!strcmp(a, "--nregs") && v && !dse_cli_parse_ll(v, 1, 255, &nregs))
            i++;
        else if (a[0] != '-' && !in)
            in = a;
        else
            return dse_cli_usage_error("trace", "unexpected '%s' (rfdse trace --help)", a);
    }
    if (!in)
        return dse_cli_usage_error("trace", "expected import or info and a trace file "
                                   "(rfdse trace --help)");
    if (has_sm != has_n || sm >= n_sms)
        return dse_cli_usage_error("trace", "--sm I and --n-sms N go together, with I < N");
    if (nregs && !allocate)
        return dse_cli_usage_error("trace", "--nregs goes with --allocate");
    if (!strcmp(verb, "info") && !out && !has_sm && !allocate)
        return info(in);
    if (!strcmp(verb, "import") && out)
        return import(in, out, (int)sm, (int)n_sms, allocate, (int)nregs);
    return dse_cli_usage_error("trace", "expected 'import TRACE -o OUT.h5' or 'info TRACE' "
                               "(rfdse trace --help)");
}
