/* Statistics metadata generated from the X-macro lists in sm.h, and derived metrics. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "sm.h"

static const sm_stat_info info[] = {
#define SCALAR(name, unit, desc) { #name, unit, desc, offsetof(sm_stats, name), 1, NULL },
#define ARRAY(name, len, extent, unit, desc) { #name, unit, desc, offsetof(sm_stats, name), len, extent },
    SM_STATS_SCALARS(SCALAR)
    SM_STATS_ARRAYS(ARRAY)
#undef SCALAR
#undef ARRAY
};

const sm_stat_info *sm_stats_info(int *n)
{
    *n = (int)(sizeof info / sizeof info[0]);
    return info;
}

uint64_t sm_stats_get(const sm_stats *st, const sm_stat_info *i, int k)
{
    uint64_t v;
    memcpy(&v, (const char *)st + i->offset + (size_t)k * sizeof v, sizeof v);
    return v;
}

/* Floating point on purpose: an integer division here truncated IPC to 0 or 1 for
 * years in Multi2Sim. */
double sm_stats_ipc(const sm_stats *st)
{
    return st->cycles ? (double)st->warp_insts / (double)st->cycles : 0.0;
}

double sm_stats_avg_live_blocks(const sm_stats *st)
{
    return st->cycles ? (double)st->block_cycles / (double)st->cycles : 0.0;
}

double sm_stats_predictor_accuracy(const sm_stats *st)
{
    return st->predictions ? (double)st->predictions_correct / (double)st->predictions : 0.0;
}

double sm_stats_replay_bound(const sm_stats *stall)
{
    uint64_t held = stall->mshr_stalls + stall->mem_stall_queue + stall->mem_stall_divergence;
    if (!stall->cycles)
        return 1.0;
    if (held >= stall->cycles) /* cannot happen: a held cycle follows an issue */
        return INFINITY;
    return (double)stall->cycles / (double)(stall->cycles - held);
}

const char *sm_strerror(int code)
{
    switch (code) {
    case SM_OK:
        return "success";
#define CASE(name, c, msg) case name: return msg;
        SM_ERRORS(CASE)
#undef CASE
    default:
        return "unknown error";
    }
}
