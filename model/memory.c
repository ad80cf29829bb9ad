/* The memory side of the LD/ST unit: L1 hit or miss (decided per instruction by the
 * workload's hit rate), shared memory, and the miss status holding registers.  A miss
 * holds an MSHR for its whole latency; with all MSHRs in use the LD/ST unit cannot
 * accept another missing load (in-order unit: younger loads wait too), which is where
 * a memory-bound kernel's latency grows under load. */
#include "sm_internal.h"

bool sm__mem_accept(const sm_sim *s, const sm__slot *sl)
{
    return !((sl->op == SM__OP_LD_GLOBAL) & sl->miss & (s->misses >= s->k.max_misses));
}

/* Completion queue of a memory operation that has been accepted. */
int sm__mem_lat(sm_sim *s, const sm__slot *sl)
{
    /* no branch: hit or miss is random by design.  Arithmetic, not selects: its value
     * is both stored (a byte) and an index, and GCC evaluated selects once for each */
    int shared = sl->op == SM__OP_LD_SHARED, miss = !shared & (sl->miss != 0);
    s->misses += miss;
    s->st->l1_misses += (uint64_t)miss;
    _Static_assert(SM__LAT_SHARED == SM__LAT_L1_HIT + 1 && SM__LAT_MISS == SM__LAT_L1_HIT + 2,
                   "hit, shared, miss in a row");
    return SM__LAT_L1_HIT + shared + 2 * miss;
}

void sm__mem_done(sm_sim *s, int lat)
{
    s->misses -= lat == SM__LAT_MISS;
}
