/* A memory system with bandwidth behind L1 (sm.memory = "partitions"; docs/model.md, "A
 * memory system with bandwidth").  Off by default: an L1 miss then takes the profile's
 * measured mean latency, whatever the load.
 *
 * The chip's L2 is split into sub-partitions, each with a data port, in front of DRAM
 * channels (GPGPU-Sim SM2_GTX480: 6 channels of 2 sub-partitions).  A missing load
 * sends the profile's measured line requests (line_requests: GPGPU-Sim's loads are not
 * coalesced into one), each one 128-byte line (four 32-byte sectors) through this SM's
 * injection port to a sub-partition chosen by a hash of the request (address
 * interleaving); it hits there with the profile's l2_hit_rate (reads), else its channel
 * fetches the four sectors, and the reply's flits queue at this SM's ejection port.
 * Every L2 port and channel is a FIFO server: a request waits until the server is free,
 * then holds it for its own transfer time (a channel's at dram_eff of its peak, the
 * profile's measured efficiency).  rfdse simulates one SM of the n_sms that run the
 * kernel, all alike: the others' requests are taken to be as many as this SM's per
 * resident block, bunched with this SM's, so a server serves this SM for 1/n of its
 * time - it is free for this SM's next request n x the transfer time after the last
 * one began (n: the other SMs' resident blocks over this SM's, plus one;
 * sm__memsys_blocks).  The transfer itself stays in the latency; the waiting grows
 * with the request rate, and so does MSHR occupancy (a miss holds its MSHR until its
 * data returns).  Stores write store_sectors sectors to L2, of which store_dram reach
 * DRAM (written back), use bandwidth and hold no MSHR.  Called from the memory stage
 * of mem_hazard.c, which sm.memory = "partitions" turns on, so the default LD/ST path
 * has no hook. */
#include <math.h>
#include <string.h>

#include "sm_internal.h"

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#define SECTORS 4 /* a 128-byte L1 line is four 32-byte L2 sectors */
/* Interconnect packets (GPGPU-Sim SM2_GTX480: gpgpusim.config line 65 -icnt_flit_size
 * 40; a read request and a write acknowledgement carry an 8-byte header alone, a read
 * reply and a write request the header and their data: READ_PACKET_SIZE and
 * WRITE_PACKET_SIZE 8, src/gpgpu-sim/shader.h lines 66 and 69, and traffic_breakdown
 * in GPGPU-Sim's log shows the sizes 8, 40, 72, 136); a port moves one flit a cycle
 * (config_fermi_islip.icnt lines 35-36, input_speedup and output_speedup 1) */
#define FLIT 40
#define HEADER 8
static int flits(int bytes) { return (bytes + FLIT - 1) / FLIT; }

/* GPGPU-Sim's order of work within a cycle puts a cycle between these stages of a read
 * (docs/model.md, "The L2 round trip"; src/gpgpu-sim/, gpgpu-sim_distribution 90ec339):
 *  - the L1 puts a miss in its miss queue, which sends it on in the L1's next cycle
 *    (baseline_cache::cycle, gpu-cache.cc lines 1017-1024, runs before the latency
 *    queue's access in ldst_unit::cycle, shader.cc lines 2633-2636);
 *  - a sector leaving the ROP queue at the end of an L2 cycle (l2cache.cc lines
 *    566-573) is read in the next (the access, lines 497-500, comes first);
 *  - a reply the cluster takes from the interconnect reaches the LD/ST unit in the next
 *    cycle (simt_core_cluster::icnt_cycle pops its response FIFO before it fills it,
 *    shader.cc lines 4566-4599);
 *  - the last sector's L1 fill (shader.cc lines 2620-2624) makes the line ready, and
 *    the LD/ST unit writes it back in its next cycle (writeback() first, line 2570).
 * With the interconnect's 14 cycles (mem_icnt_latency) an L2 hit returns 142 cycles
 * after an L1 hit would, as a pointer chase measures in GPGPU-Sim. */
#define MISS_QUEUE 1
#define ROP_TO_L2 1
#define TO_LDST 1
#define FILL_TO_WB 1

static uint32_t prob32(double p)
{
    return p <= 0 ? 0 : p >= 1 ? UINT32_MAX : (uint32_t)(p * 4294967296.0);
}

/* The unloaded round trips of a line (m->l2_time, dram_time, to_l2, l2_lat, dram_lat). */
static void round_trips(const sm_config *c, struct sm__memsys *m)
{
    m->l2_time = SECTORS * c->mem_l2_sector;
    m->dram_time = SECTORS * c->mem_dram_sector / c->mem_dram_clock;
    int reply = c->mem_icnt_latency - c->mem_icnt_latency / 2;
    m->to_l2 = c->lat_l1_hit + MISS_QUEUE + c->mem_icnt_latency / 2 + c->mem_rop_latency +
               ROP_TO_L2;
    m->l2_lat = m->to_l2 + m->l2_time + reply + TO_LDST + FILL_TO_WB;
    /* GPGPU-Sim's DRAM latency queue counts SM cycles (gpu_sim_cycle), the row
     * activate and CAS are DRAM cycles */
    m->dram_lat = m->l2_lat + c->mem_dram_latency + c->mem_dram_access / c->mem_dram_clock +
                  m->dram_time;
}

/* An instruction-cache miss (frontend.c): the same round trips but for what only a
 * data load pays.  GPGPU-Sim's fetch() sends the miss to L2 without the L1's latency
 * queue (lat_l1_hit) and cycles the L1I's miss queue in the same cycle (shader.cc
 * 959-983: no MISS_QUEUE cycle), and the fill (accept_fetch_response, shader.cc 3713-3716,
 * from the cluster's icnt_cycle, which gpgpu_sim::cycle runs before the cores' cycle)
 * is fetched in the same cycle (no FILL_TO_WB).  The whole 128-byte line comes back
 * (traffic_breakdown_memtocore[INST_ACC_R]: four 40-byte replies a request), as a
 * load's; unloaded, as the fixed memory's miss_latency is a mean. */
void sm__memsys_fetch_lat(const sm_config *c, int *l2, int *dram)
{
    struct sm__memsys m;
    round_trips(c, &m);
    double saved = c->lat_l1_hit + MISS_QUEUE + FILL_TO_WB;
    *l2 = (int)lround(m.l2_lat - saved);
    *dram = (int)lround(m.dram_lat - saved);
}

void sm__memsys_setup(sm_sim *s, const sm_profile *p, int n_sms)
{
    const sm_config *c = s->c;
    struct sm__memsys *m = &s->mem;
    m->on = c->memory == SM_MEMORY_PARTITIONS;
    if (!m->on)
        return;
    m->n_sub = c->mem_channels * c->mem_subparts;
    memset(m->l2_free, 0, sizeof m->l2_free);
    memset(m->dram_free, 0, sizeof m->dram_free);
    round_trips(c, m);
    m->dram_eff = p->dram_eff;
    m->hit_thresh = prob32(p->l2_hit_rate);
    m->st_base = (int)floor(p->store_sectors);
    m->st_thresh = prob32(p->store_sectors - m->st_base);
    m->st_hit = p->store_dram >= 1 ? 0 : UINT32_MAX - prob32(p->store_dram);
    m->n = 0;
    m->seed = mix64(p->seed ^ 0x3E3517E3ULL);
    m->inj_free = 0;
    m->prof = NULL; /* sim.c sets the chip around this SM after */
    memset(m->eject, 0xff, sizeof m->eject); /* -1: no cycle */
    sm__memsys_launch(s, n_sms);
}

/* n SMs sharing the servers: a line holds an L2 port l2_time x n of this SM's time,
 * a channel dram_time / dram_eff x n (a channel serves at dram_eff of its peak while
 * it has work: the time its data bus loses to row switches, read/write turn-arounds
 * and bank-group timing); an isolated request still transfers at the peak (dram_lat). */
static void share(struct sm__memsys *m, double n)
{
    m->l2_share = m->l2_time * n;
    m->dram_share = m->dram_time * n / m->dram_eff;
}

void sm__memsys_launch(sm_sim *s, int sms)
{
    share(&s->mem, sms > 0 ? sms : 1);
    if (s->mem.prof)
        sm__memsys_blocks(s);
}

static int min_int(int a, int b) { return a < b ? a : b; }

/* At a launch and whenever a block of this SM retires: the SMs sharing the servers,
 * weighted by their resident blocks against this SM's.  Round-robin gives SM i
 * share_i blocks of a launch of b (one more for the first b mod n SMs), capped at
 * SM_SIM_WAVES waves as this SM's are; each SM is taken to finish its blocks at this
 * SM's pace, so when this SM has finished f of the launch's blocks SM i holds
 * min(resident, share_i - f).  The others' requests are as many as this SM's per
 * resident block: a launch's tail, where this SM runs its extra block while most SMs
 * have run out of blocks, shares the servers with the few SMs that still have one
 * (pathfinder: 93 blocks of 6 resident, 15 SMs sharing at the launch, 3 in the last
 * block's time). */
void sm__memsys_blocks(sm_sim *s)
{
    struct sm__memsys *m = &s->mem;
    const sm__kernel *k = &s->k;
    const sm_profile *p = m->prof;
    int l = s->launch, n = m->chip_sms > 0 ? m->chip_sms : 1;
    int b = p->n_launches > 0 ? p->launch_blocks[l] : p->grid_blocks;
    int cap = SM_SIM_WAVES * k->resident;
    int f = s->blocks_done - (l > 0 ? k->launch_end[l - 1] : 0), own = 0, all = 0;
    for (int i = 0; i < n && i < b; i++) {
        int left = min_int((b - 1 - i) / n + 1, cap) - f;
        int live = left <= 0 ? 0 : min_int(k->resident, left);
        all += live;
        own = i == m->sm_index ? live : own;
    }
    if (own > 0)
        share(m, (double)all / own);
}

/* The reply of n flits whose last flit reaches this SM's ejection port at `ready`
 * (its flits then at ready - n .. ready - 1): takes the first n free flit slots from
 * there and returns the cycles it ends later than `ready` (0 when the port is free).
 * A reply booked later can still take free slots before one booked earlier (replies
 * arrive out of order).  A reply further ahead than the ring is not booked. */
static double eject(struct sm__memsys *m, int64_t now, double ready, int n)
{
    int64_t end = (int64_t)ceil(ready - 1e-9), t = end - n, last = t;
    if (end - now >= SM__EJECT_RING - 64)
        return 0;
    for (int got = 0; got < n && t - now < SM__EJECT_RING; t++) {
        int64_t *slot = &m->eject[t & (SM__EJECT_RING - 1)];
        if (*slot != t) {
            *slot = t;
            last = t;
            got++;
        }
    }
    return (double)(last + 1 - end);
}

/* Sends one request of `sectors` 32-B sectors now: through this SM's injection port
 * (a read request one flit, a write its data too), books its L2 port and, on an L2
 * miss, its channel, each for its sectors' share, and the reply's flits at this SM's
 * ejection port (a read's data; a write's acknowledgement, which the L2 sends: it
 * writes back).  Returns the latency from dispatch to data back (0 for a store: none
 * awaited). */
static double request(sm_sim *s, bool store, int sectors, uint32_t hit_thresh)
{
    struct sm__memsys *m = &s->mem;
    uint64_t h = mix64(m->seed + ++m->n * 0x9E3779B97F4A7C15ULL);
    int sub = (int)((h >> 32) % (uint64_t)m->n_sub);
    int ch = sub / s->c->mem_subparts;
    bool hit = (uint32_t)h < hit_thresh;
    double part = (double)sectors / SECTORS; /* of a line */
    double now = (double)s->now;
    double inj = now > m->inj_free ? now : m->inj_free;
    m->inj_free = inj + flits(HEADER + (store ? 32 * sectors : 0));
    double arrive = inj + m->to_l2;
    double start = arrive > m->l2_free[sub] ? arrive : m->l2_free[sub];
    m->l2_free[sub] = start + m->l2_share * part;
    double l2_wait = inj - now + start - arrive, wait = l2_wait, lat = m->l2_lat;
    sm_stats *st = s->st;
    st->mem_l2_requests++;
    if (!hit) {
        double at = start + m->l2_time * part;
        double d = at > m->dram_free[ch] ? at : m->dram_free[ch];
        m->dram_free[ch] = d + m->dram_share * part;
        wait += d - at;
        lat = m->dram_lat;
        st->mem_dram_requests++;
    }
    if (store) {
        (void)eject(m, s->now, now + m->l2_lat + l2_wait, flits(HEADER));
        return 0;
    }
    double ej = eject(m, s->now, now + lat + wait, flits(HEADER + 32 * sectors));
    wait += ej;
    st->mem_queue_cycles += (uint64_t)llround(wait);
    st->mem_l2_wait_cycles += (uint64_t)llround(l2_wait);
    st->mem_eject_cycles += (uint64_t)llround(ej);
    return lat + wait;
}

int sm__memsys_load(sm_sim *s)
{
    /* whole cycles, up; the tolerance keeps a sum of constants that is a whole number
     * in decimal from rounding up in binary */
    int lat = (int)ceil(request(s, false, SECTORS, s->mem.hit_thresh) - 1e-9);
    s->st->mem_miss_cycles += (uint64_t)lat;
    s->st->mem_load_requests++;
    return lat;
}

/* A store writes through to L2: one line that goes on to DRAM at the L2 miss rate (no
 * store_sectors), else its measured sectors, each a request of its own to the
 * sub-partition its address interleaves to, of which store_dram reach DRAM (GPGPU-Sim's
 * L2 writes back: a written sector costs DRAM bandwidth when it is evicted; booked
 * now). */
void sm__memsys_store(sm_sim *s)
{
    struct sm__memsys *m = &s->mem;
    if (m->st_base == 0 && m->st_thresh == 0) {
        (void)request(s, true, SECTORS, m->hit_thresh);
        return;
    }
    uint32_t u = (uint32_t)mix64(m->seed ^ (m->n * 0xD1B54A32D192ED03ULL));
    int n = m->st_base + (u < m->st_thresh);
    for (int i = 0; i < n; i++)
        (void)request(s, true, 1, m->st_hit);
}
