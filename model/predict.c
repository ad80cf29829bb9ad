/* Hit/miss predictors of global loads, consulted at issue by the MSHR tracker
 * (replay.c; docs/replay.md, after Turner 2012):
 *  - hit_unless_replayed: a load hits unless it has been squashed for an MSHR or the
 *    request queue (which only misses meet), so a replay waits for the tracker;
 *  - always_miss: every load waits for the tracker;
 *  - pc: a 2-bit saturating counter per load site (the static load the instruction
 *    stream names), trained with every outcome at the memory stage;
 *  - oracle: the instruction stream's own miss flag. */
#include "sm_internal.h"

bool sm__predict_miss(const sm_sim *s, const sm__hz_slot *h)
{
    switch (s->c->hit_predictor) {
    case SM_PREDICT_ALWAYS_MISS:
        return true;
    case SM_PREDICT_PC:
        return s->hz.pc_ctr[h->in.site] >= 2;
    case SM_PREDICT_ORACLE:
        return h->in.miss;
    default:
        return h->known_miss;
    }
}

void sm__predict_learn(sm_sim *s, const sm__hz_slot *h, bool miss)
{
    uint8_t *c = &s->hz.pc_ctr[h->in.site];
    if (miss && *c < 3)
        (*c)++;
    else if (!miss && *c > 0)
        (*c)--;
}
