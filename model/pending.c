/* Pending hits (sm.pending_hits, sm.const_cache; docs/model.md, "Pending hits"): a load
 * that finds its line already requested, its fill still in flight, waits for that fill:
 * neither a fresh miss (no MSHR of its own, no request) nor an instant hit.  GPGPU-Sim
 * 4.0 counts such an access HIT_RESERVED in its L1D (the line reserved at the miss) and
 * merges it into the line's MSHR; its constant cache allocates on fill, so there the
 * access is a MISS merged into the MSHR of the line in flight (gpu-cache.cc,
 * send_read_request: `mshr_hit && mshr_avail`).  Either way the data comes with the fill.
 *
 * A trace knows its lines (sm_trace.lines, from the decoder): a missing load records
 * when each of its fills returns, a hitting load waits for the latest of the fills its
 * lines came with, when that is later than an L1 hit.  A constant load reads a constant
 * cache that is cold at the run's start: its line is fetched once (a miss), and every
 * constant load of that line before the fill returns waits for it.  A profile has no
 * lines: a hitting load is pending with the measured probability l1_pending_rate /
 * l1_hit_rate and then waits for the data of the miss started last, when that is still
 * in flight (the youngest outstanding fill: GPGPU-Sim's pending hits are a block's
 * neighbouring warps reading the line one of them has just missed).
 *
 * A profile's constant loads (sm.const_cache with frac_const; gen.c draws them) read
 * const_lines 64-byte lines through the trace's constant cache: cold at the run's
 * start, a line's first load misses (a global-load miss: an MSHR, the miss latency),
 * loads of it before the fill returns wait for it, later ones hit.  GPGPU-Sim's
 * constant misses are cold misses, one per line and SM, so the hit rate is not drawn:
 * it follows from when the loads come (docs/workloads.md, "Constant loads, measured"). */
#include <math.h>
#include <string.h>

#include "sm_internal.h"

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void sm__pend_setup(sm_sim *s, const sm_config *c, const sm_profile *p)
{
    sm__kernel *k = &s->k;
    bool lines = p->trace_stream && p->trace_stream->lines;
    k->pend_data = c->pending_hits && (lines || !p->trace_stream);
    k->pend_const = c->const_cache && lines;
    /* a profile's constant loads: read only with const_cache, so a profile's keys
     * change nothing without it */
    bool cprof = c->const_cache && !p->trace_stream && p->frac_const > 0;
    k->cprof_frac = cprof ? p->frac_const : 0.0;
    double n = p->const_lines < 1 ? 1.0 : p->const_lines > 64 ? 64.0 : p->const_lines;
    k->cprof_lines = cprof ? (int)lround(n) : 0;
    k->pending = k->pend_data || k->pend_const || cprof;
    k->pend_thresh = 0;
    if (k->pend_data && !p->trace_stream && p->l1_pending_rate > 0 && p->l1_hit_rate > 0) {
        double q = p->l1_pending_rate / p->l1_hit_rate;
        k->pend_thresh = q >= 1 ? UINT32_MAX : (uint32_t)(q * 4294967296.0);
    }
    s->pend_back = 0;
    if (k->pending) /* cold at the run's start */
        memset(s->fills, 0, sizeof s->fills);
}

/* A profile's hitting load: pending?  From the warp's stream state as it was right
 * after drawing the load (as sm__hz_draw): the stream stays the one every other
 * setting sees. */
bool sm__pend_drawn(const sm_sim *s, int w, const sm__inst *in)
{
    if (in->op != SM__OP_LD_GLOBAL || in->miss)
        return false;
    return (uint32_t)(mix64(s->warps[w].rng ^ 0x9E4D1A7C0FFEEULL) >> 32) < s->k.pend_thresh;
}

/* Fill IDs without the flag of a line the missing load's L1 has (SM_TRACE_FILL_HIT). */
static bool has(const struct sm__fills *f, uint32_t id)
{
    id &= ~SM_TRACE_FILL_HIT;
    return f->tag[id % SM__FILLS] == id + 1;
}

static int64_t ready_of(const struct sm__fills *f, uint32_t id)
{
    return f->ready[(id & ~SM_TRACE_FILL_HIT) % SM__FILLS];
}

static void book(struct sm__fills *f, uint32_t id, int64_t ready)
{
    f->tag[id % SM__FILLS] = id + 1;
    f->ready[id % SM__FILLS] = ready;
}

/* When line id's fill returns, as a hit on it would wait for: 0 if the line was never
 * fetched; a fill sent but not yet out of the LD/ST unit (INT64_MAX) at miss_back. */
static int64_t fill_back(const struct sm__fills *f, uint32_t id, int64_t miss_back)
{
    if (!has(f, id))
        return 0;
    int64_t r = ready_of(f, id);
    return r == INT64_MAX ? miss_back : r;
}

/* Does the trace's load in h read lines the enabled options cover?  *cst: constant. */
static const sm_trace_lines *lines_of(const sm_sim *s, const sm__hz_slot *h, bool *cst)
{
    const sm_trace_lines *ln = &s->k.trace->lines[h->tinst];
    *cst = ln->kind == SM_TRACE_LINES_CONST;
    if (!ln->n || (*cst ? !s->k.pend_const : !s->k.pend_data))
        return NULL;
    return ln;
}

/* A trace's load issues (replay.c, before its miss is read): a missing one books its
 * fills as sent; a constant load misses when one of its lines was never fetched this
 * run (the cache is cold; 8 KB keeps what the kernels measured read: GPGPU-Sim fetched
 * 1 to 2.5 lines per SM). */
void sm__pend_issued(sm_sim *s, int w, sm__hz_slot *h)
{
    h->tinst = s->warps[w].tinst;
    bool cst;
    const sm_trace_lines *ln = lines_of(s, h, &cst);
    if (!ln)
        return;
    struct sm__fills *f = &s->fills[cst];
    const uint32_t *id = s->k.trace->fills + ln->first;
    if (cst) {
        bool all = true;
        for (int i = 0; i < ln->n; i++)
            all &= has(f, id[i]);
        h->in.miss = !all;
    }
    if (h->in.miss)
        for (int i = 0; i < ln->n; i++)
            if (!(id[i] & SM_TRACE_FILL_HIT))
                book(f, id[i], INT64_MAX);
}

/* A profile's constant load issues (sched.c): it misses when its line (the low bits of
 * its miss byte, SM__MISS_CONST | line from gen.c) was never fetched this run, and then
 * books the fill as sent.  Sets in->miss to the decision; returns the byte as drawn,
 * which the slot keeps (sm__slot.pend) for sm__pend_lat. */
uint8_t sm__pend_const(sm_sim *s, sm__inst *in)
{
    uint8_t mark = in->miss;
    uint32_t id = mark & (uint32_t)~SM__MISS_CONST;
    struct sm__fills *f = &s->fills[1];
    in->miss = !has(f, id);
    if (in->miss)
        book(f, id, INT64_MAX);
    return mark;
}

/* A load leaves the LD/ST unit with latency class lat (exec.c start): a miss records
 * when its fills return; a hit whose fill returns later than an L1 hit would waits for
 * it (SM__LAT_PENDING).  The miss's latency is k.lat[SM__LAT_MISS] as start() books it
 * (the memory system sets it per load); a fill sent but not yet out of the LD/ST unit
 * returns a whole miss latency from now at the earliest. */
int sm__pend_lat(sm_sim *s, uint16_t slot, int lat)
{
    sm__kernel *k = &s->k;
    int64_t miss_back = s->now + k->lat[SM__LAT_MISS], back = 0;
    uint8_t pend = s->slots[slot].pend;
    if (!k->trace && pend >= SM__MISS_CONST) { /* a profile's constant load */
        uint32_t id = pend & (uint32_t)~SM__MISS_CONST;
        struct sm__fills *f = &s->fills[1];
        if (lat == SM__LAT_MISS) { /* its fill returns with the miss */
            book(f, id, miss_back);
            return lat;
        }
        if (lat != SM__LAT_L1_HIT)
            return lat;
        back = fill_back(f, id, miss_back);
    } else if (!k->trace) { /* a profile */
        if (lat == SM__LAT_MISS)
            s->pend_back = miss_back;
        else if (lat == SM__LAT_L1_HIT && pend)
            back = s->pend_back;
    } else {
        bool cst;
        const sm__hz_slot *h = &s->hz.slot[slot];
        const sm_trace_lines *ln = lines_of(s, h, &cst);
        if (!ln)
            return lat;
        struct sm__fills *f = &s->fills[cst];
        const uint32_t *id = k->trace->fills + ln->first;
        for (int i = 0; i < ln->n; i++) {
            if (lat == SM__LAT_MISS && !(id[i] & SM_TRACE_FILL_HIT))
                book(f, id[i], miss_back);
            else {
                int64_t r = fill_back(f, id[i], miss_back);
                back = r > back ? r : back;
            }
        }
        /* a missing load's lines in flight were sent before its own: taken to return no
         * later (its class stays the miss's, which frees its MSHR) */
        if (lat != SM__LAT_L1_HIT)
            return lat;
    }
    int64_t wait = back - s->now;
    if (wait <= k->lat[SM__LAT_L1_HIT])
        return lat;
    k->lat[SM__LAT_PENDING] = wait < INT32_MAX ? (int)wait : INT32_MAX;
    s->st->pending_hits++;
    s->st->pending_cycles += (uint64_t)(wait - k->lat[SM__LAT_L1_HIT]);
    return SM__LAT_PENDING;
}
