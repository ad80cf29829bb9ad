/* The stopping rule (docs/performance.md, "Stopping rule"): an SM run as a steady-state
 * estimate.  Off unless sm_sim_set_stopping() turns it on; exact runs are the default.
 *
 * Every SM__STOP_BATCH cycles the run closes a batch and records, per batch, the rates
 * the driver reads from a run: IPC, register lane accesses per cycle (energy), and
 * per bank the accesses per cycle and the occupancy (NBTI stress duty under both duty
 * models, dse_sm_result_of).  Batch means: after at least SM__STOP_MIN batches, when
 * the 95 % interval of every rate's mean (1.96 s / sqrt(k)) is within `rel` of the mean
 * (rates whose mean is 0 are exact), the run stops and its statistics are extrapolated
 * to the whole kernel: every count is multiplied by (the kernel's warp instructions) /
 * (those issued), so rates keep their sampled values and totals stand for the whole
 * run.  A run that never meets the rule ends with the kernel, exact.  Deterministic:
 * a function of the run's own cycles. */
#include <math.h>
#include <string.h>

#include "sm_internal.h"

#define SM__STOP_BATCH 1000 /* cycles per batch                          */
#define SM__STOP_MIN 10     /* batches before the rule may stop the run */

void sm_sim_set_stopping(sm_sim *s, double rel) { s->stop.rel = rel > 0 ? rel : 0; }

static int n_rates(const sm_sim *s) { return 2 + 2 * s->k.n_banks; }

/* The run's cumulative counts the rates are differences of, in rate order. */
static void snapshot(sm_sim *s, double *v)
{
    sm__occupancy_flush(s);
    v[0] = (double)s->st->warp_insts;
    double lanes = 0;
    for (int b = 0; b < s->k.n_banks; b++) {
        uint64_t acc = 0, lane = 0;
        for (int n = 0; n <= 32; n++) {
            acc += s->rd_lanes[n][b] + s->wr_lanes[n][b];
            lane += (s->rd_lanes[n][b] + s->wr_lanes[n][b]) * (uint64_t)n;
        }
        lanes += (double)lane;
        v[2 + b] = (double)acc;
        v[2 + s->k.n_banks + b] = (double)s->occ[b];
    }
    v[1] = lanes;
}

void sm__stop_reset(sm_sim *s)
{
    sm__stop *p = &s->stop;
    p->k = 0;
    p->stopped = p->capped = false;
    p->next = p->rel > 0 ? SM__STOP_BATCH : INT64_MAX;
    memset(p->last, 0, sizeof p->last);
    memset(p->sum, 0, sizeof p->sum);
    memset(p->sum2, 0, sizeof p->sum2);
    p->last_t = 0;
}

/* At the first cycle boundary at or after p->next: closes a batch; true when the run
 * may stop. */
bool sm__stop_batch(sm_sim *s)
{
    sm__stop *p = &s->stop;
    int n = n_rates(s);
    double v[SM__STOP_RATES];
    snapshot(s, v);
    double dt = (double)(s->now - p->last_t);
    for (int i = 0; i < n; i++) {
        double x = (v[i] - p->last[i]) / dt;
        p->sum[i] += x;
        p->sum2[i] += x * x;
        p->last[i] = v[i];
    }
    p->last_t = s->now;
    p->k++;
    p->next = s->now + SM__STOP_BATCH;
    if (p->k < SM__STOP_MIN)
        return false;
    double k = p->k;
    for (int i = 0; i < n; i++) {
        double mean = p->sum[i] / k, var = (p->sum2[i] - k * mean * mean) / (k - 1);
        double half = 1.96 * sqrt(var > 0 ? var : 0) / sqrt(k);
        if (mean > 0 && half > p->rel * mean)
            return false;
    }
    p->stopped = true;
    return true;
}

/* Statistics that are not counts over the run: kept as they are. */
static bool intensive(const char *name)
{
    static const char *const names[] = { "resident_blocks", "n_banks", "n_sub_banks",
                                         "hybrid_banks", "rf_vectors", "n_row_groups",
                                         "rr_peak_regs" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

static uint64_t scaled(uint64_t v, double f) { return (uint64_t)llround((double)v * f); }

/* A stopped run's statistics, extrapolated to the whole kernel (above). */
void sm__stop_extrapolate(const sm_sim *s, sm_stats *st)
{
    double total = (double)s->k.n_blocks * (double)s->k.block_insts;
    if (!st->warp_insts)
        return;
    double f = total / (double)st->warp_insts;
#define SCALE_SCALAR(name, unit, desc)                                                    \
    if (!intensive(#name))                                                                \
        st->name = scaled(st->name, f);
#define SCALE_ARRAY(name, len, extent, unit, desc)                                        \
    for (int i = 0; i < (len); i++)                                                       \
        st->name[i] = scaled(st->name[i], f);
    SM_STATS_SCALARS(SCALE_SCALAR)
    SM_STATS_ARRAYS(SCALE_ARRAY)
#undef SCALE_SCALAR
#undef SCALE_ARRAY
}
