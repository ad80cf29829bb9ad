/* The Accel-Sim text trace reader (docs/traces.md): header lines "-key = value", then
 * per thread block "#BEGIN_TB", "thread block = x,y,z", and per warp "warp = W",
 * "insts = N" and N instruction lines, then "#END_TB".  An instruction line is
 *   [line] PC mask n_dst R.. opcode n_src R.. width [mode addresses..]
 * (register lists may hold predicates "P<n>" too: rfdse's superset, docs/traces.md)
 * (the line number only with "-enable lineinfo = 1"; the address mode from trace
 * version 3 on, before it a plain list).  Every malformed line is one "FILE:LINE:" error. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

typedef struct reader {
    const char *path;
    FILE *err;
    long line;
    dse_trace *t;
    int sm, n_sms;
    bool keep;           /* the current block is kept (b % n_sms == sm) */
    int block[3];
    int warps_seen;
    long block_line;
} reader;

static int fail(const reader *r, const char *fmt, ...)
{
    if (!r->err)
        return -1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(r->err, "%s:%ld: %s\n", r->path, r->line, msg);
    return -1;
}

int dse__trace_reserve(void **arr, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 64;
    void *p = realloc(*arr, c * sz);
    if (!p)
        return -1;
    *arr = p;
    *cap = c;
    return 0;
}

int dse__trace_opcode_id(dse_trace *t, const char *name)
{
    for (size_t i = 0; i < t->n_opcodes; i++)
        if (!strcmp(t->opcodes[i], name))
            return (int)i;
    if (t->n_opcodes == 0xFFFF ||
        dse__trace_reserve((void **)&t->opcodes, &t->cap_opcodes, t->n_opcodes, sizeof *t->opcodes))
        return -1;
    snprintf(t->opcodes[t->n_opcodes], DSE__TRACE_OPCODE_LEN, "%s", name);
    return (int)t->n_opcodes++;
}

/* ---- header ---------------------------------------------------------------------- */

static int parse_dim(const reader *r, const char *v, int d[3], const int max[3],
                     const char *key)
{
    long x[3];
    if (sscanf(v, " (%ld,%ld,%ld)", &x[0], &x[1], &x[2]) != 3)
        return fail(r, "header '%s': expected (x,y,z) of positive integers, got '%s'", key, v);
    for (int i = 0; i < 3; i++) {
        if (x[i] < 1 || x[i] > max[i])
            return fail(r, "header '%s': dimension %c must be in [1, %d] (CUDA's limit), got '%s'",
                        key, "xyz"[i], max[i], v);
        d[i] = (int)x[i];
    }
    return 0;
}

static int parse_int(const reader *r, const char *v, int lo, int hi, int *out, const char *key)
{
    char *end;
    long x = strtol(v, &end, 10);
    while (*end == ' ' || *end == '\r')
        end++;
    if (end == v || *end || x < lo || x > hi)
        return fail(r, "header '%s': expected an integer in [%d, %d], got '%s'", key, lo, hi, v);
    *out = (int)x;
    return 0;
}

static int header_line(reader *r, char *s)
{
    char *eq = strstr(s, " = ");
    if (!eq)
        return 0; /* a header line rfdse does not need */
    *eq = '\0';
    const char *key = s + 1, *v = eq + 3;
    dse_trace_header *h = &r->t->h;
    if (!strcmp(key, "kernel name"))
        snprintf(h->kernel_name, sizeof h->kernel_name, "%s", v);
    else if (!strcmp(key, "kernel id"))
        return parse_int(r, v, 0, 1 << 30, &h->kernel_id, key);
    else if (!strcmp(key, "grid dim"))
        return parse_dim(r, v, h->grid, dse__trace_grid_max, key);
    else if (!strcmp(key, "block dim"))
        return parse_dim(r, v, h->block, dse__trace_block_max, key);
    else if (!strcmp(key, "shmem"))
        return parse_int(r, v, 0, 1 << 30, &h->shmem, key);
    else if (!strcmp(key, "nregs"))
        return parse_int(r, v, 1, 255, &h->nregs, key);
    else if (!strcmp(key, "binary version")) {
        if (parse_int(r, v, 10, DSE_TRACE_PTX_VERSION, &h->binary_version, key))
            return -1;
        if (h->binary_version > 99 && h->binary_version != DSE_TRACE_PTX_VERSION)
            return fail(r, "header 'binary version': expected an SM version in [10, 99] or "
                           "%d (PTX), got '%s'", DSE_TRACE_PTX_VERSION, v);
        return 0;
    }
    else if (!strcmp(key, "accelsim tracer version"))
        return parse_int(r, v, 1, 99, &h->trace_version, key);
    else if (!strcmp(key, "enable lineinfo"))
        return parse_int(r, v, 0, 1, &h->lineinfo, key);
    return 0;
}

static int header_done(reader *r)
{
    const dse_trace_header *h = &r->t->h;
    if (!h->grid[0] || !h->block[0] || !h->nregs || !h->binary_version)
        return fail(r, "the header lacks one of '-grid dim', '-block dim', '-nregs', "
                       "'-binary version'");
    if (!h->trace_version)
        r->t->h.trace_version = 2; /* no version line: before 3, addresses as plain lists */
    if (h->block[0] * h->block[1] * h->block[2] > 2048)
        return fail(r, "a block of %d threads: at most 2048", h->block[0] * h->block[1] * h->block[2]);
    return 0;
}

/* ---- instructions ---------------------------------------------------------------- */

static int next_u64(const reader *r, char **save, int base, uint64_t *v, const char *what)
{
    char *tok = strtok_r(NULL, " \t\r", save), *end;
    if (!tok)
        return fail(r, "the line ends before its %s", what);
    *v = strtoull(tok, &end, base);
    if (end == tok || *end)
        return fail(r, "%s: expected a %s number, got '%.40s'", what,
                    base == 16 ? "hexadecimal" : "decimal", tok);
    return 0;
}

/* A register list: its count, then that many tokens, "R<n>" registers and "P<n>"
 * predicates in any order (Accel-Sim's own traces have registers only; rfdse's superset
 * adds predicates, docs/traces.md), at most DSE_TRACE_MAX_REGS of each. */
static int regs(const reader *r, char **save, uint8_t *n_out, uint8_t *out, uint8_t *n_pred,
                uint8_t *pred, const char *what)
{
    uint64_t n = 0;
    if (next_u64(r, save, 10, &n, what))
        return -1;
    if (n > DSE_TRACE_MAX_REGS + DSE_TRACE_MAX_PREDS)
        return fail(r, "%" PRIu64 " %s registers: at most %d (%d registers and %d predicates)",
                    n, what, DSE_TRACE_MAX_REGS + DSE_TRACE_MAX_PREDS, DSE_TRACE_MAX_REGS,
                    DSE_TRACE_MAX_PREDS);
    *n_out = *n_pred = 0;
    for (uint64_t i = 0; i < n; i++) {
        char *tok = strtok_r(NULL, " \t\r", save), *end = NULL;
        if (!tok)
            return fail(r, "the line ends before its %s registers", what);
        bool is_pred = tok[0] == 'P';
        long reg = tok[0] == 'R' || is_pred ? strtol(tok + 1, &end, 10) : -1;
        long max = is_pred ? DSE_TRACE_MAX_PRED : DSE_TRACE_RZ;
        if (reg < 0 || end == tok + 1 || *end || reg > max)
            return fail(r, "%s register '%.40s': expected R0 to R255 or a predicate P0 to P%d",
                        what, tok, DSE_TRACE_MAX_PRED);
        if (is_pred) {
            if (*n_pred == DSE_TRACE_MAX_PREDS)
                return fail(r, "more than %d %s predicates", DSE_TRACE_MAX_PREDS, what);
            pred[(*n_pred)++] = (uint8_t)reg;
            continue;
        }
        if (*n_out == DSE_TRACE_MAX_REGS)
            return fail(r, "more than %d %s registers", DSE_TRACE_MAX_REGS, what);
        if (reg != DSE_TRACE_RZ && reg >= r->t->h.nregs)
            return fail(r, "%s register R%ld: beyond the kernel's %d registers (-nregs)", what,
                        reg, r->t->h.nregs);
        out[(*n_out)++] = (uint8_t)reg;
    }
    return 0;
}

static int push_addr(reader *r, uint64_t a)
{
    dse_trace *t = r->t;
    if (dse__trace_reserve((void **)&t->addrs, &t->cap_addrs, t->n_addrs, sizeof *t->addrs))
        return fail(r, "out of memory");
    t->addrs[t->n_addrs++] = a;
    return 0;
}

/* The width and the addresses, as trace versions before 3 (a plain list per active
 * lane) and from 3 on (an address mode first) write them. */
static int addresses(reader *r, char **save, dse_trace_inst *in)
{
    uint64_t width = 0, mode = DSE_TRACE_ADDR_LIST, v;
    if (next_u64(r, save, 10, &width, "memory width"))
        return -1;
    if (width > 255)
        return fail(r, "memory width %" PRIu64 ": at most 255 bytes", width);
    in->width = (uint8_t)width;
    in->addr_first = r->t->n_addrs;
    if (!width)
        return 0;
    if (r->t->h.trace_version >= 3 && next_u64(r, save, 10, &mode, "address mode"))
        return -1;
    if (mode > DSE_TRACE_ADDR_BASE_DELTA)
        return fail(r, "address mode %" PRIu64 ": expected 0 (list), 1 (base, stride) or 2 "
                       "(base, deltas)", mode);
    in->addr_mode = (uint8_t)mode;
    int n = mode == DSE_TRACE_ADDR_BASE_STRIDE ? 2 : __builtin_popcount(in->mask);
    for (int i = 0; i < n; i++) {
        bool hex = i == 0 || mode == DSE_TRACE_ADDR_LIST;
        char *tok = strtok_r(NULL, " \t\r", save), *end;
        if (!tok)
            return fail(r, "the line ends before its %d addresses", n);
        v = hex ? strtoull(tok, &end, 16) : (uint64_t)strtoll(tok, &end, 10);
        if (end == tok || *end)
            return fail(r, "address '%.40s': expected a number", tok);
        if (push_addr(r, v))
            return -1;
    }
    in->n_addr = (uint32_t)n;
    return 0;
}

static int instruction(reader *r, char *s, dse_trace_inst *in)
{
    char *save = NULL, *tok = strtok_r(s, " \t\r", &save), *end;
    uint64_t v;
    memset(in, 0, sizeof *in);
    if (r->t->h.lineinfo && !(tok = strtok_r(NULL, " \t\r", &save)))
        return fail(r, "the line ends after its line number");
    if (!tok || (v = strtoull(tok, &end, 16), end == tok || *end) || v > UINT32_MAX)
        return fail(r, "PC '%.40s': expected a hexadecimal number", tok ? tok : "");
    in->pc = (uint32_t)v;
    if ((tok = strtok_r(NULL, " \t\r", &save)) == NULL || strlen(tok) > 8 ||
        (v = strtoull(tok, &end, 16), end == tok || *end))
        return fail(r, "active mask '%.40s': expected up to 8 hexadecimal digits",
                    tok ? tok : "");
    in->mask = (uint32_t)v;
    if (regs(r, &save, &in->n_dst, in->dst, &in->n_pdst, in->pdst, "destination"))
        return -1;
    if (!(tok = strtok_r(NULL, " \t\r", &save)))
        return fail(r, "the line ends before its opcode");
    if (strlen(tok) >= DSE__TRACE_OPCODE_LEN)
        return fail(r, "opcode '%.40s': longer than %d characters", tok, DSE__TRACE_OPCODE_LEN - 1);
    if (dse_trace_class_of(tok, r->t->h.binary_version) < 0)
        return fail(r, "unknown opcode '%s' for binary version %d (docs/traces.md: the opcode "
                       "table)", tok, r->t->h.binary_version);
    int id = dse__trace_opcode_id(r->t, tok);
    if (id < 0)
        return fail(r, "out of memory");
    in->opcode = (uint16_t)id;
    if (regs(r, &save, &in->n_src, in->src, &in->n_psrc, in->psrc, "source") ||
        addresses(r, &save, in))
        return -1;
    if ((tok = strtok_r(NULL, " \t\r", &save)))
        return fail(r, "unexpected '%.40s' after the instruction", tok);
    return 0;
}

/* ---- blocks and warps ------------------------------------------------------------ */

typedef enum { IN_HEADER, BETWEEN_BLOCKS, IN_BLOCK, IN_WARP } where;

typedef struct cursor {
    where at;
    uint64_t announced;    /* "insts = N" of the current warp */
    bool counted;          /* its "insts =" line came          */
    size_t block_insts, block_addrs, block_warps; /* where the block began, to drop it */
} cursor;

static int warps_per_block(const dse_trace_header *h)
{
    return (h->block[0] * h->block[1] * h->block[2] + 31) / 32;
}

static int end_warp(const reader *r, const cursor *c)
{
    if (c->at != IN_WARP)
        return 0;
    const dse_trace_warp *w = &r->t->warps[r->t->n_warps - 1];
    if (!c->counted)
        return fail(r, "warp %d of block (%d,%d,%d): no 'insts = N' line", w->warp,
                    w->block[0], w->block[1], w->block[2]);
    if (w->n != c->announced)
        return fail(r, "warp %d of block (%d,%d,%d): %" PRIu64 " instructions announced, %u "
                       "found (a truncated trace?)", w->warp, w->block[0], w->block[1],
                    w->block[2], c->announced, w->n);
    return 0;
}

static int begin_warp(reader *r, cursor *c, const char *v)
{
    int w = 0;
    if (end_warp(r, c) || parse_int(r, v, 0, 63, &w, "warp"))
        return -1;
    dse_trace *t = r->t;
    if (dse__trace_reserve((void **)&t->warps, &t->cap_warps, t->n_warps, sizeof *t->warps))
        return fail(r, "out of memory");
    t->warps[t->n_warps++] = (dse_trace_warp){ { r->block[0], r->block[1], r->block[2] }, w,
                                               t->n_insts, 0 };
    r->warps_seen++;
    c->at = IN_WARP;
    c->counted = false;
    return 0;
}

static int begin_block(reader *r, cursor *c, const char *v)
{
    const dse_trace_header *h = &r->t->h;
    int *b = r->block;
    if (sscanf(v, "%d,%d,%d", &b[0], &b[1], &b[2]) != 3 || b[0] < 0 || b[1] < 0 || b[2] < 0 ||
        b[0] >= h->grid[0] || b[1] >= h->grid[1] || b[2] >= h->grid[2])
        return fail(r, "thread block '%.40s': expected x,y,z inside the grid (%d,%d,%d)", v,
                    h->grid[0], h->grid[1], h->grid[2]);
    long linear = b[0] + (long)h->grid[0] * (b[1] + (long)h->grid[1] * b[2]);
    r->keep = linear % r->n_sms == r->sm;
    r->warps_seen = 0;
    r->block_line = r->line;
    c->block_insts = r->t->n_insts;
    c->block_addrs = r->t->n_addrs;
    c->block_warps = r->t->n_warps;
    return 0;
}

static int end_block(reader *r, cursor *c)
{
    if (end_warp(r, c))
        return -1;
    int want = warps_per_block(&r->t->h);
    if (r->warps_seen != want)
        return fail(r, "block (%d,%d,%d) (from line %ld): %d warps, its %d threads make %d",
                    r->block[0], r->block[1], r->block[2], r->block_line, r->warps_seen,
                    r->t->h.block[0] * r->t->h.block[1] * r->t->h.block[2], want);
    if (!r->keep) { /* parsed to check it, not kept */
        r->t->n_insts = c->block_insts;
        r->t->n_addrs = c->block_addrs;
        r->t->n_warps = c->block_warps;
    }
    c->at = BETWEEN_BLOCKS;
    return 0;
}

static int add_instruction(reader *r, char *s)
{
    dse_trace *t = r->t;
    if (dse__trace_reserve((void **)&t->insts, &t->cap_insts, t->n_insts, sizeof *t->insts))
        return fail(r, "out of memory");
    if (instruction(r, s, &t->insts[t->n_insts]))
        return -1;
    t->n_insts++;
    t->warps[t->n_warps - 1].n++;
    return 0;
}

static bool starts(const char *s, const char *prefix, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n))
        return false;
    *rest = s + n;
    return true;
}

static int line_in_block(reader *r, cursor *c, char *s)
{
    const char *v;
    if (!strncmp(s, "#END_TB", 7))
        return end_block(r, c);
    if (starts(s, "thread block = ", &v))
        return c->at == IN_BLOCK && r->warps_seen == 0 ? begin_block(r, c, v)
                                                        : fail(r, "'thread block' inside a block");
    if (starts(s, "warp = ", &v))
        return begin_warp(r, c, v);
    if (c->at != IN_WARP)
        return fail(r, "expected 'warp = N' or '#END_TB', got '%.40s'", s);
    if (starts(s, "insts = ", &v)) {
        int n = 0;
        if (c->counted || parse_int(r, v, 0, 1 << 30, &n, "insts"))
            return c->counted ? fail(r, "a second 'insts =' line for one warp") : -1;
        c->announced = (uint64_t)n;
        c->counted = true;
        return 0;
    }
    if (!c->counted)
        return fail(r, "an instruction before the warp's 'insts = N' line");
    return add_instruction(r, s);
}

static int one_line(reader *r, cursor *c, char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    if (!n)
        return 0;
    if (c->at == IN_HEADER && s[0] == '-')
        return header_line(r, s);
    if (c->at == IN_HEADER || c->at == BETWEEN_BLOCKS) {
        if (s[0] == '#' && strncmp(s, "#BEGIN_TB", 9))
            return 0; /* a comment: "#traces format = ..." */
        if (strncmp(s, "#BEGIN_TB", 9))
            return fail(r, "expected '#BEGIN_TB', got '%.40s'", s);
        if (c->at == IN_HEADER && header_done(r))
            return -1;
        c->at = IN_BLOCK;
        r->warps_seen = 0;
        return 0;
    }
    return line_in_block(r, c, s);
}

static int read_lines(reader *r, FILE *f)
{
    cursor c = { .at = IN_HEADER };
    char *buf = NULL;
    size_t cap = 0;
    int rc = 0;
    while (!rc && getline(&buf, &cap, f) >= 0) {
        r->line++;
        rc = one_line(r, &c, buf);
    }
    free(buf);
    if (!rc && c.at != BETWEEN_BLOCKS)
        rc = fail(r, c.at == IN_HEADER ? "no thread block: an empty or truncated trace"
                                       : "the trace ends inside a block (truncated?)");
    return rc;
}

dse_trace *dse_trace_read_stream(FILE *f, const char *name, int sm, int n_sms, FILE *err)
{
    reader r = { .path = name, .err = err, .sm = sm, .n_sms = n_sms };
    r.t = calloc(1, sizeof *r.t);
    int rc = r.t ? read_lines(&r, f) : fail(&r, "out of memory");
    if (rc) {
        dse_trace_free(r.t);
        return NULL;
    }
    return r.t;
}

dse_trace *dse_trace_read_text(const char *path, int sm, int n_sms, FILE *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (err)
            fprintf(err, "%s:0: cannot read the trace: %s\n", path, strerror(errno));
        return NULL;
    }
    dse_trace *t = dse_trace_read_stream(f, path, sm, n_sms, err);
    fclose(f);
    return t;
}
