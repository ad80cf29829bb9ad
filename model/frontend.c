/* The instruction front end of GPGPU-Sim (sm.frontend = "gpgpusim"; docs/model.md,
 * "GPGPU-Sim's front end", names the lines of shader.cc each rule follows).
 *
 * Each warp has a two-entry instruction buffer; the scheduler sees a warp only while
 * its buffer holds a decoded instruction (q->ib_empty).  After the issue stage, in
 * GPGPU-Sim's order: stale buffers are flushed, the fetch buffer is decoded into its
 * warp's buffer (two instructions, or the one left), and one warp whose buffer is empty
 * is fetched, round robin over the warp slots from the last one fetched.  So a fetch
 * at cycle t is issuable at t + 2, one warp is fetched per cycle per SM, and a warp
 * issues at most two instructions per three cycles on its own.
 *
 * A control hazard (an issued instruction whose successor is not at PC + size: a
 * taken branch, a divergent or reconverging one; sm_trace_inst.redirect) makes the
 * rest of the buffer the wrong path: it is flushed in the next cycle, when the
 * scheduler looks at the warp again, and the warp is refetched.  Were the hazard the
 * buffer's last entry, the next fetch (at PC + size) is the wrong path: decoded, then
 * flushed a cycle later.  A profile has no branches, so there only the fetch bandwidth
 * acts.  With sm.frontend = "gpgpusim" the I-cache always hits; "gpgpusim_icache" adds
 * GPGPU-Sim's L1I (icache_fetch below; docs/model.md, "GPGPU-Sim's instruction
 * cache"). */
#include <string.h>

#include "sm_internal.h"

static void set_empty(sm_sim *s, int w, bool empty)
{
    sm__sched *q = &s->sched[s->warps[w].sched];
    q->ib_empty = empty ? q->ib_empty | 1ULL << w : q->ib_empty & ~(1ULL << w);
    s->sched_dirty |= 1u << s->warps[w].sched;
}

void sm__fe_warp(sm_sim *s, int w)
{
    sm__warp *wp = &s->warps[w];
    wp->ib_n = wp->ib_stale = wp->ib_wrong = 0;
    wp->ib_at = 0;
    s->fe_stale &= ~(1ULL << w);
    s->fe_want |= 1ULL << w;
    s->ic.waiting &= ~(1ULL << w);
    set_empty(s, w, true);
}

void sm__fe_issued(sm_sim *s, sm__sched *q, int w, bool redirect)
{
    sm__warp *wp = &s->warps[w];
    assert(wp->ib_n > 0 && !wp->ib_stale);
    wp->ib_n--;
    if (redirect && wp->ib_n) { /* the entry left is the wrong path */
        wp->ib_stale = 1;
        wp->ib_at = s->now;
        s->fe_stale |= 1ULL << w;
    } else if (redirect) {
        wp->ib_wrong = 1;
    }
    if (!wp->ib_n || wp->ib_stale)
        q->ib_empty |= 1ULL << w;
    /* n_left still counts this instruction (issue_warp decrements it after) */
    if (!wp->ib_n && wp->n_left > 1)
        s->fe_want |= 1ULL << w;
}

/* The first warp slot after the last one fetched whose buffer is empty and that has
 * instructions left (fe_want), or -1. */
static int next_fetch(const sm_sim *s)
{
    if (!s->fe_want)
        return -1;
    uint64_t after = s->fe_last >= 63 ? 0 : s->fe_want & ~((2ULL << s->fe_last) - 1);
    return __builtin_ctzll(after ? after : s->fe_want);
}

/* ---- GPGPU-Sim's L1 instruction cache (sm.frontend = "gpgpusim_icache") ------------
 *
 * shader_core_ctx::fetch(), shader.cc 884-984: with the fetch buffer free, a line the
 * L1I has filled hands its oldest waiting warp the fetch buffer (access_ready, lines
 * 886-898; the round robin's last warp is not moved); else the first warp after the
 * last one fetched that has an empty buffer and no miss pending (imiss_pending) looks
 * up its next PC: a hit fills the fetch buffer, a miss (a new MSHR, or merged into the
 * one for its line) leaves the warp waiting, a reservation failure (both MSHRs busy
 * with other lines, or 32 merged) does nothing; each moves the round robin on to it
 * (lines 963-977).  A line is filled when its data is back (lat_l2, or lat_dram when
 * the chip fetches it for the first time) and allocated then (allocate on fill, 'f'),
 * replacing its set's least recently used. */

void sm__fe_icache_setup(sm_sim *s, const sm_profile *w)
{
    struct sm__icache *c = &s->ic;
    memset(c->tag, 0, sizeof c->tag);
    memset(c->used, 0, sizeof c->used);
    memset(c->in_l2, 0, sizeof c->in_l2);
    c->n_access = c->n_fill = c->waiting = 0;
    c->n_mshr = 0;
    c->code_insts = w->code_insts;
    c->n_walk = w->n_code_walk / 3;
    int64_t end = 0;
    for (int r = 0; r < c->n_walk; r++) {
        const int *t = &w->code_walk[3 * r];
        c->walk_start[r] = t[0];
        c->walk_len[r] = t[1];
        c->walk_end[r] = end += (int64_t)t[1] * t[2];
    }
    memset(c->walk_at, 0, sizeof c->walk_at);
    sm__memsys_fetch_lat(s->c, &c->lat_l2, &c->lat_dram);
}

/* The PTX instruction at position i of the profile's code walk (docs/workloads.md,
 * "Code size"): the walk repeats; its triple is warp w's last one or one after it
 * (a warp's positions only grow), else found by bisection over the triples' ends (a
 * new warp in the slot, the walk begun again): no table as long as the walk. */
static uint32_t walk_inst(struct sm__icache *c, int w, int64_t i)
{
    int64_t total = c->walk_end[c->n_walk - 1];
    int64_t pos = i < total ? i : i % total;
    int r = c->walk_at[w];
    if (r >= c->n_walk || pos < (r ? c->walk_end[r - 1] : 0)) {
        int lo = 0, hi = c->n_walk - 1;
        while (lo < hi) { /* the first triple whose end is past pos */
            int mid = (lo + hi) / 2;
            if (c->walk_end[mid] > pos)
                hi = mid;
            else
                lo = mid + 1;
        }
        r = lo;
    }
    while (c->walk_end[r] <= pos)
        r++;
    c->walk_at[w] = (uint8_t)r;
    int64_t off = pos - (r ? c->walk_end[r - 1] : 0);
    if (off >= c->walk_len[r]) /* a repeated triple */
        off %= c->walk_len[r];
    return (uint32_t)(c->walk_start[r] + off);
}

/* The line of warp w's next instruction (drawn at n_issued - 1; gen.c).  A drawn
 * stream's instruction i sits at 8 x walk[i mod its length] with a code walk, else at
 * 8 x (i mod code_insts): GPGPU-Sim's PTX instructions are 8 bytes apart, and a stream
 * longer than the walk (or the code) goes round it again. */
static uint32_t fetch_line(sm_sim *s, int w)
{
    const sm__warp *wp = &s->warps[w];
    int i = wp->n_issued > 0 ? wp->n_issued - 1 : 0;
    uint32_t pc;
    if (s->k.trace)
        pc = sm__trace_pc(&s->k, wp, i);
    else if (s->ic.n_walk > 0)
        pc = 8u * walk_inst(&s->ic, w, i);
    else
        pc = 8u * (s->ic.code_insts > 0 ? (uint32_t)(i % s->ic.code_insts) : (uint32_t)i);
    return pc / SM__IC_LINE;
}

static void icache_fill(struct sm__icache *c, uint32_t line)
{
    int set = (int)(line % SM__IC_SETS), victim = 0;
    for (int way = 1; way < SM__IC_WAYS; way++)
        if (c->used[set][way] < c->used[set][victim]) /* invalid ways: used 0 */
            victim = way;
    c->tag[set][victim] = line + 1;
    c->used[set][victim] = ++c->n_access;
}

/* A miss of warp w on `line`: merged into its line's MSHR or given a new one; false:
 * a reservation failure. */
static bool icache_miss(sm_sim *s, uint32_t line, int w)
{
    struct sm__icache *c = &s->ic;
    struct sm__ic_mshr *m = NULL;
    for (int i = 0; i < c->n_mshr; i++)
        if (c->mshr[i].line == line)
            m = &c->mshr[i];
    if (m && m->n == SM__IC_MERGE)
        return false;
    if (!m) {
        if (c->n_mshr == SM__IC_MSHRS)
            return false;
        m = &c->mshr[c->n_mshr++];
        uint8_t *seen = &c->in_l2[line % SM__IC_L2_LINES / 8], bit = (uint8_t)(1u << line % 8);
        m->line = line;
        m->ready_at = s->now + (*seen & bit ? c->lat_l2 : c->lat_dram);
        m->filled = 0;
        m->n = m->head = 0;
        *seen |= bit;
    }
    m->warp[m->n++] = (uint8_t)w;
    return true;
}

static void icache_fetch(sm_sim *s)
{
    struct sm__icache *c = &s->ic;
    int ready = -1;
    for (int i = 0; i < c->n_mshr; i++) {
        struct sm__ic_mshr *m = &c->mshr[i];
        if (!m->filled && m->ready_at <= s->now) {
            icache_fill(c, m->line);
            m->filled = ++c->n_fill;
        }
        if (m->filled && (ready < 0 || m->filled < c->mshr[ready].filled))
            ready = i;
    }
    if (ready >= 0) { /* access_ready: the fetch buffer is this warp's */
        struct sm__ic_mshr *m = &c->mshr[ready];
        int w = m->warp[m->head++];
        if (m->head == m->n)
            *m = c->mshr[--c->n_mshr];
        c->waiting &= ~(1ULL << w);
        s->fe_buf = w;
        return;
    }
    int w = next_fetch(s);
    if (w < 0)
        return;
    s->fe_last = w;
    uint32_t line = fetch_line(s, w);
    int set = (int)(line % SM__IC_SETS);
    for (int way = 0; way < SM__IC_WAYS; way++)
        if (c->tag[set][way] == line + 1) { /* hit */
            c->used[set][way] = ++c->n_access;
            s->st->icache_accesses++;
            s->fe_buf = w;
            s->fe_want &= ~(1ULL << w);
            return;
        }
    if (!icache_miss(s, line, w))
        return; /* reservation failure: tried again when its turn comes */
    s->st->icache_accesses++;
    s->st->icache_misses++;
    c->waiting |= 1ULL << w;
    s->fe_want &= ~(1ULL << w);
}

void sm__fe_cycle(sm_sim *s)
{
    for (uint64_t m = s->fe_stale; m; m &= m - 1) { /* flushed when looked at again */
        int w = __builtin_ctzll(m);
        sm__warp *wp = &s->warps[w];
        if (wp->ib_at < s->now) {
            wp->ib_n = wp->ib_stale = 0;
            s->fe_stale &= ~(1ULL << w);
            s->fe_want |= (uint64_t)(wp->n_left > 0) << w;
        }
    }
    if (s->fe_buf >= 0) { /* decode */
        int w = s->fe_buf;
        sm__warp *wp = &s->warps[w];
        s->fe_buf = -1;
        if (s->sched[wp->sched].warps >> w & 1) {
            wp->ib_n = (uint8_t)(wp->n_left < 2 ? wp->n_left : 2);
            if (wp->ib_wrong) {
                wp->ib_wrong = 0;
                wp->ib_stale = 1;
                wp->ib_at = s->now;
                s->fe_stale |= 1ULL << w;
            } else {
                set_empty(s, w, false);
            }
        }
    }
    if (s->k.icache) {
        icache_fetch(s);
        return;
    }
    int w = next_fetch(s); /* fetch */
    if (w >= 0) {
        s->fe_buf = w;
        s->fe_last = w;
        s->fe_want &= ~(1ULL << w);
    }
}
