/* Memory hazards as causes, and a memory stage that stalls or squashes on them
 * (docs/replay.md, after Turner, "On Replay and Hazards in Graphics Processing Units",
 * UBC MASc thesis, 2012).
 *
 * With the default knobs none of this runs (k.mem_model is false) and the LD/ST unit
 * is exec.c's.  Otherwise a global load goes through this stage one memory request at
 * a time (one per cycle and LD/ST pipeline), and meets three hazards:
 *  - MSHR full: its request misses and no MSHR is free (with the credit tracker,
 *    free = not in use and not reserved by a credit, unless the load holds one);
 *  - request queue full: its request misses and the queue to L2 accepted a miss less
 *    than miss_interval cycles ago (a bandwidth of 1 / miss_interval misses a cycle);
 *  - divergence: it needs several requests (profile mem_requests); every missing
 *    request holds an MSHR for the miss latency (the lanes it serves are done then;
 *    held until the whole load completed, partly sent loads deadlock on MSHRs).
 *    A drawn load's requests all miss or all hit; a trace's missing load sends the
 *    lines that hit the L1 model first, and they take no MSHR (GPGPU-Sim's L1
 *    allocates an MSHR per missing line only).
 * Under `stall` the load holds the stage (in order: younger memory instructions
 * wait, and its collector stays taken); under `replay` it is squashed at the
 * checkpoint into its warp's replay buffer (replay.c) and the stage moves on.  Only
 * global loads meet hazards: stores write through without allocating, shared memory
 * has none modelled. */
#include <math.h>
#include <string.h>

#include "sm_internal.h"

enum { HZ_NONE, HZ_MSHR, HZ_QUEUE, HZ_DIVERGE };
enum { STAGE_LEFT, STAGE_BUSY, STAGE_STALLED };

int sm__coll_total(const sm_config *c)
{
    return c->collectors == SM_COLLECTORS_UNIFIED ? SM__N_UNITS * c->oc_unified
                                                  : c->oc_sp + c->oc_sfu + c->oc_mem;
}

/* Unified: every unit may hold the whole pool, so each gets oc_unified collectors and
 * sm__pool_take() bounds their sum; the per-unit counts stay as they are. */
void sm__coll_sizes(const sm_config *c, int oc[SM__N_UNITS])
{
    bool uni = c->collectors == SM_COLLECTORS_UNIFIED;
    oc[SM__UNIT_SP] = uni ? c->oc_unified : c->oc_sp;
    oc[SM__UNIT_SFU] = uni ? c->oc_unified : c->oc_sfu;
    oc[SM__UNIT_MEM] = uni ? c->oc_unified : c->oc_mem;
}

void sm__pool_take(sm_sim *s)
{
    int busy = 0; /* counted here: the hot paths keep only the masks */
    for (int u = 0; u < SM__N_UNITS; u++)
        busy += s->n_full[u];
    if (busy >= s->c->oc_unified)
        s->units_full = (1u << SM__N_UNITS) - 1;
}

static uint32_t prob32(double p)
{
    return p <= 0 ? 0 : p >= 1 ? UINT32_MAX : (uint32_t)(p * 4294967296.0);
}

/* site_bias b: the first round(h x sites) sites hit with (1 - b) h + b, the others
 * with (1 - b) h, so the mean over sites stays the profile's hit rate h. */
static void site_table(sm__kernel *k, const sm_profile *p)
{
    int n = k->n_sites > 0 ? k->n_sites : 1;
    int n_hit = (int)lround(p->l1_hit_rate * n);
    for (int i = 0; i < n; i++) {
        double h = (1 - p->site_bias) * p->l1_hit_rate + p->site_bias * (i < n_hit);
        k->site_hit[i] = (uint16_t)lround(h * 4096);
    }
}

/* The release cycles of early requests' MSHRs, a binary min-heap: each frees when its
 * own data returns.  (A FIFO, kept in order by holding each MSHR at least as long as
 * the one before it, held them 1.3-1.7 times their latency under the memory system,
 * whose latencies differ: pns's SM 0 averaged 31 MSHRs busy where its requests' own
 * latencies account for 19.) */
static void release_push(sm__hz *hz, int64_t at)
{
    int i = hz->rel_n++;
    while (i > 0 && hz->rel[(i - 1) / 2] > at) {
        hz->rel[i] = hz->rel[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    hz->rel[i] = at;
}

static void release_pop(sm__hz *hz)
{
    int64_t last = hz->rel[--hz->rel_n];
    int i = 0, n = hz->rel_n;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        c += c + 1 < n && hz->rel[c + 1] < hz->rel[c];
        if (hz->rel[c] >= last)
            break;
        hz->rel[i] = hz->rel[c];
        i = c;
    }
    hz->rel[i] = last;
}

/* Frees the MSHRs of early requests whose data has returned; called where MSHRs are
 * looked at (the memory stage, the issue stage's tracker) before they are. */
void sm__hz_release_due(sm_sim *s)
{
    sm__hz *hz = &s->hz;
    while (hz->rel_n && hz->rel[0] <= s->now) {
        release_pop(hz);
        s->misses--;
    }
}

void sm__hz_hold_until(sm_sim *s, int64_t at)
{
    release_push(&s->hz, at);
    s->misses++;
}

static bool knobs_ok(const sm_config *c, const sm_profile *p)
{
    return c->oc_unified >= 1 && c->oc_unified <= 64 && c->miss_interval >= 0 &&
           c->max_misses <= SM__MSHR_RING &&
           p->mem_requests >= 1 && p->mem_requests <= 32 && p->load_sites >= 0 &&
           p->load_sites <= SM__LOAD_SITES && p->site_bias >= 0 && p->site_bias <= 1 &&
           p->line_requests >= 0 && p->line_requests <= 32 && p->store_sectors >= 0 &&
           p->store_sectors <= 64 && p->store_dram >= 0 && p->store_dram <= 1 &&
           p->dram_eff > 0 && p->dram_eff <= 1;
}

/* At kernel launch: the flags that switch the hazard model on, and its state. */
int sm__hz_setup(sm_sim *s, const sm_config *c, const sm_profile *p)
{
    sm__kernel *k = &s->k;
    sm__hz *hz = &s->hz;
    hz->n_replay = hz->n_hidden = 0; /* read by the idle skip of every run (sim.c) */
    memset(hz->hidden, 0, sizeof hz->hidden);
    memset(hz->charged, -1, sizeof hz->charged);
    if (!knobs_ok(c, p))
        return -1;
    k->unified = c->collectors == SM_COLLECTORS_UNIFIED;
    for (int u = 0; u < SM__N_UNITS; u++)
        k->coll_keep[u] = k->unified ? 0u : ~(1u << u);
    k->replay = c->mem_hazard == SM_HAZARD_REPLAY || c->mshr_tracker != SM_TRACKER_NONE;
    /* a trace's loads carry their own line requests (reqs, from their addresses), sent
     * one a cycle as GPGPU-Sim's LD/ST unit sends a load's accesses to L1; with one
     * request each the stage is exec.c's LD/ST unit */
    k->mem_model = k->unified || k->replay || c->miss_interval > 0 || p->mem_requests > 1 ||
                   p->load_sites > 0 || p->site_bias > 0 || p->trace_stream != NULL ||
                   c->memory == SM_MEMORY_PARTITIONS; /* memsys.c: the stage below */
    if (!k->mem_model)
        return 0;
    /* partitions takes the kernel's measured line requests when the profile has them
     * (at least one a load: a load that coalesces with another is still one) */
    double reqs = c->memory == SM_MEMORY_PARTITIONS && p->line_requests > 0
                      ? fmax(1.0, p->line_requests) : p->mem_requests;
    k->req_base = (int)floor(reqs);
    k->req_thresh = prob32(reqs - k->req_base);
    k->n_sites = p->load_sites;
    k->site_bias = p->site_bias > 0;
    site_table(k, p);
    hz->next_miss = 0;
    hz->reserved = 0;
    hz->seq = 0;
    hz->rel_n = 0;
    memset(hz->pc_ctr, 1, sizeof hz->pc_ctr); /* weakly "hit": most loads hit */
    memset(hz->count, 0, sizeof hz->count);
    memset(hz->head, 0, sizeof hz->head);
    return 0;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Site, requests and (with site_bias) the hit of a synthetic load, from a hash of the
 * warp's stream state as it was right after drawing the load (the load is the warp's
 * next instruction or is being issued) rather than further draws: the stream stays
 * the one every other knob setting sees, and gen.c is untouched. */
void sm__hz_draw(const sm__kernel *k, const sm__warp *wp, sm__inst *in)
{
    uint64_t c = mix64(wp->rng ^ 0x5EC0DE5EC0DEULL);
    int site = k->n_sites ? (int)((c & 0xFFFFF) % (uint64_t)k->n_sites) : 0;
    in->site = (uint8_t)site;
    in->reqs = (uint8_t)(k->req_base + ((uint32_t)(c >> 32) < k->req_thresh));
    if (k->site_bias && in->op == SM__OP_LD_GLOBAL)
        in->miss = ((c >> 20) & 4095) >= k->site_hit[site];
}

/* The hazard the next request of load h meets now. */
static int hazard_of(const sm_sim *s, const sm__hz_slot *h)
{
    if (!h->in.miss || h->hits_left)
        return HZ_NONE;
    int free = s->c->max_misses - s->misses - s->hz.reserved + h->credit;
    if (free <= 0)
        return HZ_MSHR;
    if (s->c->miss_interval && s->now < s->hz.next_miss)
        return HZ_QUEUE;
    return HZ_NONE;
}

/* One request leaves for L1 (and L2 on a miss).  A credit becomes the MSHR (or comes
 * back on a hit); the last request's MSHR is taken by sm__mem_lat() as without
 * hazards and frees with the load, earlier ones when their own data returns (a miss
 * latency later, or the memory system's latency), and the load completes no sooner
 * than the latest of them. */
static void send_request(sm_sim *s, sm__hz_slot *h)
{
    s->st->mem_requests++;
    s->hz.reserved -= h->credit;
    h->credit = 0;
    if (h->hits_left) /* a line that hits (a trace's): no MSHR, back in L1's latency */
        h->hits_left--;
    else if (h->in.miss) {
        s->hz.next_miss = s->now + s->c->miss_interval;
        if (h->reqs_left > 1) {
            int64_t at = s->now + (s->mem.on ? sm__memsys_load(s) : s->k.lat[SM__LAT_MISS]);
            h->early_back = at > h->early_back ? at : h->early_back;
            sm__hz_hold_until(s, at);
        }
    }
    h->reqs_left--;
}

static void check_prediction(sm_sim *s, sm__hz_slot *h)
{
    if (!s->k.replay || h->checked)
        return;
    h->checked = 1;
    s->st->predictions++;
    s->st->predictions_correct += h->pred_miss == h->in.miss;
    sm__predict_learn(s, h, h->in.miss);
}

static bool buffer_room(const sm_sim *s, int w)
{
    return s->c->mem_hazard == SM_HAZARD_REPLAY && s->hz.count[w] < SM__REPLAY_ENTRIES;
}

static void squash(sm_sim *s, int j, uint16_t slot, int cause)
{
    sm__hz_slot *h = &s->hz.slot[slot];
    sm_stats *st = s->st;
    sm__coll_free(s, SM__UNIT_MEM, j);
    st->replays_mshr += cause == HZ_MSHR;
    st->replays_queue += cause == HZ_QUEUE;
    st->replays_divergence += cause == HZ_DIVERGE;
    if (cause == HZ_MSHR)
        st->replays_mshr_repeat += h->mshr_replays++ > 0;
    h->known_miss |= cause != HZ_DIVERGE; /* MSHR and queue hazards only meet misses */
    h->replays++;
    sm__replay_push(s, s->slots[slot].warp, slot);
}

static void held(sm_sim *s, int cause)
{
    s->st->mshr_stalls += cause == HZ_MSHR;
    s->st->mem_stall_queue += cause == HZ_QUEUE;
    s->st->replay_buffer_full += s->c->mem_hazard == SM_HAZARD_REPLAY;
}

/* The collector at position j of the LD/ST unit's fill order (holding `slot`) in
 * pipeline p's memory stage. */
static int mem_stage(sm_sim *s, int p, int j, uint16_t slot)
{
    const int u = SM__UNIT_MEM;
    const sm__slot *sl = &s->slots[slot];
    sm__hz_slot *h = &s->hz.slot[slot];
    bool load = sl->op == SM__OP_LD_GLOBAL;
    if (load) {
        check_prediction(s, h);
        int cause = hazard_of(s, h);
        if (cause != HZ_NONE && buffer_room(s, sl->warp)) {
            s->pipe_free[u][p] = s->now + 1; /* squashed at the stage's checkpoint */
            squash(s, j, slot, cause);
            return STAGE_LEFT;
        }
        if (cause != HZ_NONE) {
            held(s, cause);
            return STAGE_STALLED;
        }
        send_request(s, h);
    } else if (h->reqs_left) { /* a trace's store: one of its lines this cycle */
        h->reqs_left--;
    }
    s->pipe_free[u][p] = s->now + sm__ops[sl->op].interval + sl->xbusy;
    s->st->smem_conflict_cycles += sl->xbusy;
    if (s->mem.on) { /* the memory system (memsys.c): a miss's latency, a store's bandwidth */
        if (load && sl->miss && h->reqs_left == 0) { /* start() reads it next */
            int64_t lat = sm__memsys_load(s), early = h->early_back - s->now;
            s->k.lat[SM__LAT_MISS] = (int)(early > lat ? early : lat);
        }
        else if (sl->op == SM__OP_ST_GLOBAL && h->reqs_left == 0) /* booked once */
            sm__memsys_store(s);
    }
    if (h->reqs_left > 0) { /* a divergent load or a store: more lines to send */
        if (load && buffer_room(s, sl->warp)) {
            squash(s, j, slot, HZ_DIVERGE);
            return STAGE_LEFT;
        }
        s->st->mem_stall_divergence++;
        return STAGE_BUSY;
    }
    sm__coll_free(s, u, j);
    sm__exec_start(s, slot);
    return STAGE_LEFT;
}

/* exec.c's dispatch of the LD/ST unit, with hazards: each free pipeline takes the
 * oldest collector whose operands have arrived; a stalled load stops the unit (in
 * order).  Without hazards the outcome and statistics are exec.c's (tested). */
void sm__hz_dispatch(sm_sim *s)
{
    const int u = SM__UNIT_MEM;
    int n, left = 0;
    sm__hz_release_due(s);
    uint64_t ready = sm__coll_arrived(s, u, &n);
    for (int p = 0; p < s->n_pipes[u] && ready; p++) {
        if (s->pipe_free[u][p] > s->now)
            continue;
        int j = __builtin_ctzll(ready); /* the oldest whose operands are in */
        int r = mem_stage(s, p, j, s->coll[u][(s->coll_head[u] + j) & 63].slot);
        if (r == STAGE_STALLED)
            break;
        left += r == STAGE_LEFT;
        ready &= ~(1ULL << j);
        if (r == STAGE_LEFT) /* it left the fill order: the younger move up one */
            ready >>= 1;
    }
    s->st->dispatch_stalls += (uint64_t)(n - left);
}
