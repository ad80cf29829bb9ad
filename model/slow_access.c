/* The cost of a slow access (sm_config.slow_access) and whose ports an access to a
 * virtual bank holds (sm_config.bro_ports): docs/model.md, "The cost of a slow access".
 *
 * hold_port (the default, and the plain rule of sm__port_read/sm__port_write): a slow
 * access keeps its bank port a second cycle, its operand arrives and its destination is
 * released a cycle late.  The others change only the bank ports, here, or the latency
 * table (replay, banks.c):
 *   pipelined        the port is held for the fast part only (hold_cap): a 2-stage bank
 *                    takes a new access every cycle; the data is still a cycle late.
 *   replay           the latency table gives a slow access 2 extra cycles (banks.c), so
 *                    the port is held 3 cycles (a failed 1-cycle attempt, then a 2-cycle
 *                    one) and the data comes 2 cycles late; nothing here.
 *   stall_collector  as hold_port, and the slow read's second cycle is frozen for the
 *                    read arbiter of every bank: no bank grants a read in it.  A port
 *                    already booked through that cycle is pushed back one cycle (its
 *                    capacity is lost exactly; which of its booked reads absorbs the
 *                    cycle differs from a per-cycle arbiter, as with shared ports); a
 *                    request that comes later skips the frozen cycle.
 * bro_ports = physical: an access to a virtual bank holds the ports of the physical
 * banks of the sub-banks it touches (two under rf_bro), so virtual banks that share a
 * physical bank conflict.  Without rf_bro, hybrid banks or fba_rm's reordering each
 * virtual bank is one physical bank and this changes nothing. */
#include <limits.h>

#include "sm_internal.h"

void sm__port_rules_setup(sm_sim *s)
{
    sm__kernel *k = &s->k;
    const sm_config *c = s->c;
    k->hold_cap = c->slow_access == SM_SLOW_PIPELINED ? k->extra_lat : INT_MAX;
    k->slow_stall = c->slow_access == SM_SLOW_STALL_COLLECTOR;
    k->phys_ports = c->bro_ports == SM_BRO_PORTS_PHYSICAL;
    k->port_rules = c->slow_access == SM_SLOW_PIPELINED || k->slow_stall || k->phys_ports;
}

/* Physical banks of the sub-banks an access to virtual bank b with `lanes` lanes
 * touches, each once. */
static int phys_banks(const sm__kernel *k, int b, int lanes, int *pb)
{
    int parts = sm__parts_for(lanes, k->subs), n = 0;
    for (int p = 0; p < parts; p++) {
        int x = k->sub_id[b][p] / k->subs, seen = 0;
        for (int i = 0; i < n; i++)
            seen |= pb[i] == x;
        if (!seen)
            pb[n++] = x;
    }
    return n;
}

/* Drops the frozen cycles before the next request can be granted (now + 1). */
static void frozen_rebase(sm_sim *s)
{
    int64_t base = s->now + 1, d = base - s->frozen_base;
    if (d > 0) {
        s->frozen = d >= 64 ? 0 : s->frozen >> d;
        s->frozen_base = base;
    }
}

static bool is_frozen(const sm_sim *s, int64_t c)
{
    int64_t d = c - s->frozen_base;
    return d >= 0 && d < 64 && (s->frozen >> d & 1);
}

/* Cycle c frozen for every read port but those the slow access itself holds.  A cycle
 * is lost once, however many slow reads were granted in the cycle before it (they share
 * their second cycle): pushing the ports back again for each of them cost the SM one
 * cycle per slow read, which GPGPU-Sim's arbiter does not (bench/gpgpusim, issue 34). */
static void freeze(sm_sim *s, int b, const int *pb, int n_pb, int64_t c)
{
    const sm__kernel *k = &s->k;
    if (is_frozen(s, c))
        return;
    for (int v = 0; v < k->n_banks; v++)
        if (v != b && s->read_next[v] > c)
            s->read_next[v]++;
    if (k->phys_ports)
        for (int x = 0; x < k->n_banks; x++) {
            int own = 0;
            for (int i = 0; i < n_pb; i++)
                own |= pb[i] == x;
            if (!own && s->phys_read_next[x] > c)
                s->phys_read_next[x]++;
        }
    int64_t d = c - s->frozen_base; /* >= 1: c is past the grant, which is >= now + 1 */
    if (d < 64)
        s->frozen |= 1ULL << d;
}

int64_t sm__port_read_rules(sm_sim *s, int b, int slow, int lanes, int64_t grant)
{
    const sm__kernel *k = &s->k;
    int hold = slow < k->hold_cap ? slow : k->hold_cap;
    int pb[SM_MAX_SUBS_PER_BANK], n_pb = 0;
    if (k->phys_ports) {
        n_pb = phys_banks(k, b, lanes, pb);
        for (int i = 0; i < n_pb; i++)
            grant = s->phys_read_next[pb[i]] > grant ? s->phys_read_next[pb[i]] : grant;
    }
    if (k->slow_stall) {
        frozen_rebase(s);
        while (is_frozen(s, grant))
            grant++;
    }
    int64_t free_at = grant + 1 + hold;
    s->read_next[b] = free_at > s->read_next[b] ? free_at : s->read_next[b];
    for (int i = 0; i < n_pb; i++)
        s->phys_read_next[pb[i]] = free_at;
    if (k->slow_stall && slow > k->extra_lat)
        freeze(s, b, pb, n_pb, grant + 1);
    return grant;
}

int64_t sm__port_write_rules(sm_sim *s, int b, int slow, int lanes, int64_t grant)
{
    const sm__kernel *k = &s->k;
    const int64_t first = s->now + 1;
    int hold = slow < k->hold_cap ? slow : k->hold_cap;
    int pb[SM_MAX_SUBS_PER_BANK], n_pb = 0;
    if (k->phys_ports) {
        n_pb = phys_banks(k, b, lanes, pb);
        for (int i = 0; i < n_pb; i++)
            grant = s->phys_write_next[pb[i]] > grant ? s->phys_write_next[pb[i]] : grant;
    }
    int64_t free_at = grant + 1 + hold;
    s->write_next[b] = free_at > s->write_next[b] ? free_at : s->write_next[b];
    for (int i = 0; i < n_pb; i++)
        s->phys_write_next[pb[i]] = free_at;
    if (s->c->bank_ports == SM_PORTS_SHARED) { /* the write takes read-port cycles (inline) */
        int64_t r = s->read_next[b] > first ? s->read_next[b] : first;
        s->read_next[b] = r + 1 + hold;
        for (int i = 0; i < n_pb; i++) {
            int64_t q = s->phys_read_next[pb[i]] > first ? s->phys_read_next[pb[i]] : first;
            s->phys_read_next[pb[i]] = q + 1 + hold;
        }
    }
    return grant;
}
