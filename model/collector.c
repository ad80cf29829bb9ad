/* Operand collectors and the bank read arbiter.
 *
 * At issue an instruction takes a free collector unit of its execution unit's kind
 * and requests one read per distinct source register at that register's bank.  Each
 * bank's read port grants its requests in arrival order (FIFO, so no collector
 * starves), one at a time, from the cycle after issue; the port stays busy 1 cycle
 * for fast storage and 2 for slow.  Requests to one bank therefore serialise: that is
 * the bank conflict.  A collector may dispatch once its last operand has arrived
 * (ready_at).
 *
 * A granted read is never undone, so a request's grant cycle is fixed when it
 * arrives: max(cycle after issue, the cycle the port frees after the requests ahead
 * of it, whichever client made them; sm__port_read in sm_internal.h).  The arbiter
 * therefore works at issue, not per cycle, and charges the request's waiting cycles
 * as bank conflicts (one per cycle it waits queued, as a per-cycle arbiter counts
 * them).  The collector counts as full at once;
 * dispatch waits for ready_at, which is at least one cycle after the last grant. */
#include "sm_internal.h"

/* `rules` and `co` are constants in each of sm__collect's calls, so each is
 * specialised; `co` (the coalesce design: tags and the collector's write port) implies
 * `rules`.  Returns the slow cycles (latency - 1) its reads took, summed. */
static inline uint64_t collect(sm_sim *s, int w, uint16_t slot, const sm__inst *in, bool rules,
                               bool co, bool plain)
{
    int u = in->unit, n_src = in->n_src;
    const sm__warp *wp = &s->warps[w];
    const uint8_t *slow = wp->slow[in->div];
    int lanes = wp->tlanes[in->div];
    const int64_t first = s->now + 1; /* reads start next cycle */
    int64_t ready_at = first;
    uint64_t waited = 0, slow_reads = 0;
    sm__co_operand op[SM__MAX_SRC];
    for (int i = 0; i < n_src; i++) {
        int reg = in->src[i], sl = slow[reg];
        if (co)
            s->port_tag = sm__coalesce_read_tag(s, w, reg);
        int64_t grant = sm__port_read_as(s, wp->bank[reg], sl, lanes, rules);
        int64_t at = grant + 1 + sl; /* operand arrives */
        ready_at = at > ready_at ? at : ready_at;
        waited += (uint64_t)(grant - first);
        slow_reads += (uint64_t)sl;
        if (co) {
            int how = sm__coalesce_last(s);
            op[i] = (sm__co_operand){ .at = at, .shared = how == SM__CO_SHARED,
                                      .access = how == SM__CO_NONE ? -1
                                                : grant * SM_MAX_BANKS + wp->bank[reg] };
        }
    }
    if (co) /* the collector's write port (coalesce.c) */
        ready_at = sm__coalesce_collect(s, op, n_src, ready_at);
    s->st->bank_read_conflicts += waited;
    s->st->slow_reads += slow_reads;
    /* an SP instruction whose operands all arrive at the earliest cycle, into a unit
     * with no collector waiting, leaves its collector then for certain: dispatched at
     * once (exec.c sm__dispatch_early says when; plain kernels only) */
    _Static_assert(SM__UNIT_SP == 0, "one test: an SP instruction, no SP collector full");
    if (plain && !(u | s->n_full[SM__UNIT_SP]) && ready_at == first + 1 &&
        (s->k.early_ops >> in->op & 1) && sm__dispatch_early(s, slot, ready_at))
        return slow_reads;
    sm__coll_fill(s, u, slot, ready_at);
    return slow_reads;
}

/* The coalesce design's collection, out of line: its operand records inside the hot
 * loop cost the default path 1.6 % host instructions per warp instruction. */
static uint64_t __attribute__((cold, noinline))
collect_coalesce(sm_sim *s, int w, uint16_t slot, const sm__inst *in)
{
    return collect(s, w, slot, in, true, true, false);
}

uint64_t sm__collect(sm_sim *s, int w, uint16_t slot, const sm__inst *in)
{
    if (__builtin_expect(s->k.port_rules, 0)) { /* sm.slow_access, sm.bro_ports: slow_access.c */
        if (s->k.coalesce)
            return collect_coalesce(s, w, slot, in);
        return collect(s, w, slot, in, true, false, false);
    }
    return collect(s, w, slot, in, false, false, false);
}

uint64_t sm__collect_plain(sm_sim *s, int w, uint16_t slot, const sm__inst *in)
{
    return collect(s, w, slot, in, false, false, true);
}
