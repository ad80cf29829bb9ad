/* A PTX trace's virtual registers replaced by allocated ones, text to text.
 *
 * GPGPU-Sim's trace writer (bench/gpgpusim/trace-writer.patch) writes PTX virtual
 * registers as R<number> (numbers can exceed 255 and -nregs) and names each with a
 * "#vreg NUMBER NAME BITS" line between blocks.  Pass 1 reads every instruction's
 * registers, dse_trace_alloc maps them to physical ones, pass 2 copies the trace with
 * the registers renamed ("-nregs" becomes the bound; every line stays where it was, so
 * the reader's line numbers are the raw trace's).  Only the register fields are
 * touched; a line this pass cannot parse is copied as it is and left to the reader
 * (trace_text.c), which then names it.  Predicates ("P<n>", GPGPU-Sim's register numbers
 * of .pred registers) are no register-file registers: they take no part in the
 * allocation and are only renumbered densely, in order of first appearance. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dse_trace.h"

typedef struct vmap {
    uint32_t *id;      /* raw register number -> dense id + 1 (0: not seen) */
    size_t cap;
    uint32_t *raw;     /* dense id -> raw number */
    uint8_t *width;    /* dense id -> 32-bit words */
    size_t n, cap_ids;
} vmap;

static int grow(void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * sz);
    if (!q)
        return -1;
    memset((char *)q + *cap * sz, 0, (c - *cap) * sz);
    *p = q;
    *cap = c;
    return 0;
}

/* The dense id of raw register r (added if new): -1 out of memory. */
static long dense(vmap *m, unsigned long r)
{
    if (r > 1u << 20)
        return -1;
    if (grow((void **)&m->id, &m->cap, r + 1, sizeof *m->id))
        return -1;
    if (m->id[r])
        return m->id[r] - 1;
    size_t c1 = m->cap_ids, c2 = m->cap_ids;
    if (grow((void **)&m->raw, &c1, m->n + 1, sizeof *m->raw) ||
        grow((void **)&m->width, &c2, m->n + 1, sizeof *m->width))
        return -1;
    m->cap_ids = c1;
    m->raw[m->n] = (uint32_t)r;
    m->width[m->n] = 1;
    m->id[r] = (uint32_t)++m->n;
    return (long)m->n - 1;
}

typedef struct pass1 {
    vmap m;
    vmap preds;  /* predicates: raw number -> dense number (their widths unused) */
    dse_trace_alloc_inst *insts;
    size_t n_insts, cap_insts;
    size_t *warp_first;
    size_t n_warps, cap_warps;
    int nregs, lineinfo;
    char kernel[256];
} pass1;

/* The register fields of an instruction line: "[line] PC mask n R.. op n R.. ...".
 * Calls fn on each register token (its kind 'R' or 'P', its index among the list's
 * tokens of that kind, its position in s and value); false if the line does not have
 * that shape. */
typedef bool (*reg_fn)(void *ctx, int is_dst, char kind, int k, unsigned long r, const char *at,
                       size_t len);

static const char *skip_tok(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
        s++;
    return s;
}

static const char *regs_of(const char *s, int is_dst, reg_fn fn, void *ctx, bool *ok)
{
    char *end;
    while (*s == ' ' || *s == '\t')
        s++;
    long n = strtol(s, &end, 10);
    if (end == s || n < 0 || n > DSE_TRACE_MAX_REGS + DSE_TRACE_MAX_PREDS)
        return *ok = false, s;
    s = end;
    int seen[2] = { 0, 0 }; /* registers, predicates */
    for (long k = 0; k < n && *ok; k++) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s != 'R' && *s != 'P')
            return *ok = false, s;
        int is_pred = *s == 'P';
        unsigned long r = strtoul(s + 1, &end, 10);
        if (end == s + 1 || seen[is_pred] == (is_pred ? DSE_TRACE_MAX_PREDS : DSE_TRACE_MAX_REGS))
            return *ok = false, s;
        *ok = fn(ctx, is_dst, *s, seen[is_pred]++, r, s, (size_t)(end - s));
        s = end;
    }
    return s;
}

static bool walk(const char *line, int lineinfo, reg_fn fn, void *ctx)
{
    bool ok = true;
    const char *s = line;
    if (lineinfo)
        s = skip_tok(s);
    s = skip_tok(skip_tok(s)); /* PC, mask */
    s = regs_of(s, 1, fn, ctx, &ok);
    if (!ok)
        return false;
    s = skip_tok(s); /* opcode */
    regs_of(s, 0, fn, ctx, &ok);
    return ok;
}

static bool collect(void *ctx, int is_dst, char kind, int k, unsigned long r, const char *at,
                    size_t len)
{
    (void)at, (void)len;
    pass1 *p = ctx;
    if (kind == 'P') /* a predicate: named, never allocated */
        return dense(&p->preds, r) >= 0;
    long id = dense(&p->m, r);
    if (id < 0)
        return false;
    dse_trace_alloc_inst *x = &p->insts[p->n_insts];
    if (is_dst)
        x->dst[k] = (uint32_t)id, x->n_dst = (uint8_t)(k + 1);
    else
        x->src[k] = (uint32_t)id, x->n_src = (uint8_t)(k + 1);
    return true;
}

static int read_pass(FILE *in, pass1 *p)
{
    char *buf = NULL;
    size_t cap = 0;
    bool in_warp = false;
    int rc = 0;
    while (!rc && getline(&buf, &cap, in) >= 0) {
        unsigned long r, bits;
        char name[64];
        if (sscanf(buf, "#vreg %lu %63s %lu", &r, name, &bits) == 3) {
            long id = dense(&p->m, r);
            if (id < 0)
                rc = -1;
            else
                p->m.width[id] = bits > 32 ? 2 : 1;
        } else if (!strncmp(buf, "-nregs = ", 9))
            p->nregs = atoi(buf + 9);
        else if (!strncmp(buf, "-enable lineinfo = ", 19))
            p->lineinfo = atoi(buf + 19);
        else if (!strncmp(buf, "-kernel name = ", 15))
            sscanf(buf + 15, "%255s", p->kernel);
        else if (!strncmp(buf, "warp = ", 7)) {
            if (grow((void **)&p->warp_first, &p->cap_warps, p->n_warps + 2, sizeof *p->warp_first))
                rc = -1;
            else
                p->warp_first[p->n_warps++] = p->n_insts, in_warp = true;
        } else if (!strncmp(buf, "#END_TB", 7))
            in_warp = false;
        else if (in_warp && strncmp(buf, "insts = ", 8) && buf[0] != '\n' && buf[0] != '#') {
            if (grow((void **)&p->insts, &p->cap_insts, p->n_insts + 1, sizeof *p->insts))
                rc = -1;
            else {
                memset(&p->insts[p->n_insts], 0, sizeof *p->insts);
                walk(buf, p->lineinfo, collect, p); /* a malformed line: the reader says so */
                p->n_insts++;
            }
        }
    }
    free(buf);
    if (!rc && p->warp_first)
        p->warp_first[p->n_warps] = p->n_insts;
    return rc;
}

typedef struct pass2 {
    const vmap *m, *preds;
    const int *phys;
    FILE *out;
    const char *from; /* copied up to here */
} pass2;

static bool rename_reg(void *ctx, int is_dst, char kind, int k, unsigned long r, const char *at,
                       size_t len)
{
    (void)is_dst, (void)k;
    pass2 *p = ctx;
    fwrite(p->from, 1, (size_t)(at - p->from), p->out);
    if (kind == 'P')
        fprintf(p->out, "P%d", r < p->preds->cap && p->preds->id[r] ? (int)p->preds->id[r] - 1 : 0);
    else
        fprintf(p->out, "R%d", r < p->m->cap && p->m->id[r] ? p->phys[p->m->id[r] - 1] : 0);
    p->from = at + len;
    return true;
}

static void write_pass(FILE *in, FILE *out, const pass1 *p, const int *phys, int bound)
{
    char *buf = NULL;
    size_t cap = 0;
    bool in_warp = false;
    while (getline(&buf, &cap, in) >= 0) {
        if (!strncmp(buf, "-nregs = ", 9)) {
            fprintf(out, "-nregs = %d\n", bound);
            continue;
        }
        if (!strncmp(buf, "warp = ", 7))
            in_warp = true;
        else if (!strncmp(buf, "#END_TB", 7))
            in_warp = false;
        else if (in_warp && strncmp(buf, "insts = ", 8) && buf[0] != '\n' && buf[0] != '#') {
            pass2 q = { &p->m, &p->preds, phys, out, buf };
            char *tmp = NULL;
            FILE *mem = NULL;
            size_t tlen = 0;
            /* rename into a buffer first: a line that fails half-way is copied as is */
            if ((mem = open_memstream(&tmp, &tlen))) {
                q.out = mem;
                bool ok = walk(buf, p->lineinfo, rename_reg, &q);
                if (ok)
                    fputs(q.from, mem);
                fclose(mem);
                fputs(ok ? tmp : buf, out);
                free(tmp);
                continue;
            }
        }
        fputs(buf, out);
    }
    free(buf);
}

static void free_pass1(pass1 *p)
{
    free(p->m.id);
    free(p->m.raw);
    free(p->m.width);
    free(p->preds.id);
    free(p->preds.raw);
    free(p->preds.width);
    free(p->insts);
    free(p->warp_first);
}

int dse_trace_alloc_text(FILE *in, const char *name, FILE *out, int bound,
                         dse_trace_alloc_report *rep, FILE *err)
{
    pass1 p = { 0 };
    memset(rep, 0, sizeof *rep);
    int rc = read_pass(in, &p);
    if (rc) {
        if (err)
            fprintf(err, "%s:0: out of memory reading the virtual registers\n", name);
        free_pass1(&p);
        return -1;
    }
    rep->ptxas = p.nregs;
    rep->bound = bound > 0 ? bound : p.nregs;
    rep->vregs = (int)p.m.n;
    rep->preds = (int)p.preds.n;
    rep->insts = p.n_insts;
    snprintf(rep->kernel, sizeof rep->kernel, "%s", p.kernel);
    for (size_t i = 0; i < p.m.n; i++)
        rep->words += p.m.width[i];
    int *phys = malloc((p.m.n ? p.m.n : 1) * sizeof *phys);
    dse_trace_alloc_in ain = { p.m.n, p.m.width, p.n_warps, p.warp_first, p.insts };
    size_t zero = 0;
    if (!p.warp_first)
        ain.warp_first = &zero;
    if (!phys || dse_trace_alloc(&ain, phys, &rep->used, &rep->lower)) {
        if (err)
            fprintf(err, "%s:0: out of memory allocating registers\n", name);
        rc = -1;
    } else if (rep->preds > DSE_TRACE_MAX_PRED + 1) {
        if (err)
            fprintf(err, "%s:0: %d predicates, more than the %d (P0 to P%d) a trace holds\n",
                    name, rep->preds, DSE_TRACE_MAX_PRED + 1, DSE_TRACE_MAX_PRED);
        rc = -1;
    } else if (rep->used > rep->bound || rep->used > DSE_TRACE_RZ) {
        if (err)
            fprintf(err, "%s:0: the allocation needs %d registers, more than the bound %d "
                         "(-nregs, ptxas's count, or --nregs)\n", name, rep->used, rep->bound);
        rc = -1;
    } else if ((rep->violations = dse_trace_alloc_check(&ain, phys, rep->bound)) != 0) {
        if (err)
            fprintf(err, "%s:0: the allocation overwrites a live value %ld times (a bug)\n",
                    name, rep->violations);
        rc = -1;
    } else {
        rewind(in);
        write_pass(in, out, &p, phys, rep->bound);
        rc = ferror(out) ? -1 : 0;
        if (rc && err)
            fprintf(err, "%s:0: cannot write the allocated trace: %s\n", name, strerror(errno));
    }
    free(phys);
    free_pass1(&p);
    return rc;
}
