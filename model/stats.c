/* Statistics metadata generated from the X-macro lists in sm.h, and derived metrics. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "sm.h"
#include "sm_design.h"

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

int sm_stats_count(void)
{
    int n = (int)(sizeof info / sizeof info[0]);
    for (int d = 0; d < SM_N_DESIGNS; d++)
        n += sm_design_get((sm_rf_design_id)d)->n_stats;
    return n;
}

/* Statistic i past the lists: design d's k-th declared one. */
static int design_stat(int i, int *k)
{
    i -= (int)(sizeof info / sizeof info[0]);
    for (int d = 0; i >= 0 && d < SM_N_DESIGNS; d++) {
        int n = sm_design_get((sm_rf_design_id)d)->n_stats;
        if (i < n) {
            *k = i;
            return d;
        }
        i -= n;
    }
    return -1;
}

int sm_stats_design_of(int i)
{
    int k;
    return design_stat(i, &k);
}

sm_stat_info sm_stats_at(int i)
{
    int k, d = design_stat(i, &k);
    if (d < 0)
        return info[i];
    const sm_design_stat *ds = &sm_design_get((sm_rf_design_id)d)->stats[k];
    return (sm_stat_info){ ds->name, ds->unit, ds->description,
                           offsetof(sm_stats, design) + sizeof(uint64_t) *
                               ((size_t)d * SM_DESIGN_MAX_STATS + (size_t)k),
                           1, NULL };
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
