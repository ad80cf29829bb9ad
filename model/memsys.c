/* A memory system with bandwidth behind L1 (sm.memory = "partitions"; docs/model.md, "A
 * memory system with bandwidth").  Off by default: an L1 miss then takes the profile's
 * measured mean latency, whatever the load.
 *
 * The chip's L2 is split into sub-partitions, each with a data port, in front of DRAM
 * channels (GPGPU-Sim SM2_GTX480: 6 channels of 2 sub-partitions).  A missing load
 * sends one 128-byte line request (four 32-byte sectors) to a sub-partition chosen by a
 * hash of the request (address interleaving); it hits there with the profile's
 * l2_hit_rate, else its channel fetches the four sectors.  Every port and channel is a
 * FIFO server: a request waits until the server is free, then holds it for its own
 * transfer time.  rfdse simulates one SM of the n_sms that run the kernel, all alike:
 * the others' requests are taken to be as many as this SM's, spread evenly, so a
 * server serves this SM for 1/n of its time - it is free for this SM's next request
 * n x the transfer time after the last one began (n: the SMs that run a block of the
 * current launch).  The transfer itself stays in the latency; the waiting grows with
 * the request rate, and so does MSHR occupancy (a miss holds its MSHR until its data
 * returns).  Stores write through to L2 (and, at the miss rate, to DRAM): they use
 * bandwidth and hold no MSHR.  Called from the memory stage of mem_hazard.c, which
 * sm.memory = "partitions" turns on, so the default LD/ST path has no hook. */
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

static uint32_t prob32(double p)
{
    return p <= 0 ? 0 : p >= 1 ? UINT32_MAX : (uint32_t)(p * 4294967296.0);
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
    m->l2_time = SECTORS * c->mem_l2_sector;
    m->dram_time = SECTORS * c->mem_dram_sector / c->mem_dram_clock;
    m->dram_eff = p->dram_eff;
    int reply = c->mem_icnt_latency - c->mem_icnt_latency / 2;
    m->to_l2 = c->lat_l1_hit + c->mem_icnt_latency / 2 + c->mem_rop_latency;
    m->l2_lat = m->to_l2 + m->l2_time + reply;
    /* GPGPU-Sim's DRAM latency queue counts SM cycles (gpu_sim_cycle), the row
     * activate and CAS are DRAM cycles */
    m->dram_lat = m->l2_lat + c->mem_dram_latency + c->mem_dram_access / c->mem_dram_clock +
                  m->dram_time;
    m->hit_thresh = prob32(p->l2_hit_rate);
    m->st_base = (int)floor(p->store_sectors);
    m->st_thresh = prob32(p->store_sectors - m->st_base);
    m->st_hit = p->store_dram >= 1 ? 0 : UINT32_MAX - prob32(p->store_dram);
    m->n = 0;
    m->seed = mix64(p->seed ^ 0x3E3517E3ULL);
    sm__memsys_launch(s, n_sms);
}

/* The SMs sharing the servers: those that run a block of the current launch.  A
 * channel serves at dram_eff of its peak while it has work (the time its data bus
 * loses to row switches, read/write turn-arounds and bank-group timing), so a line
 * holds this SM's share of it dram_time / dram_eff x n; an isolated request still
 * transfers at the peak (dram_lat). */
void sm__memsys_launch(sm_sim *s, int sms)
{
    struct sm__memsys *m = &s->mem;
    int n = sms > 0 ? sms : 1;
    m->l2_share = m->l2_time * n;
    m->dram_share = m->dram_time * n / m->dram_eff;
}

/* Sends one request of `sectors` 32-B sectors now: books its L2 port and, on an L2
 * miss, its channel, each for its sectors' share.  Returns the latency from dispatch
 * to data back (0 for a store: none awaited). */
static double request(sm_sim *s, bool store, int sectors, uint32_t hit_thresh)
{
    struct sm__memsys *m = &s->mem;
    uint64_t h = mix64(m->seed + ++m->n * 0x9E3779B97F4A7C15ULL);
    int sub = (int)((h >> 32) % (uint64_t)m->n_sub);
    int ch = sub / s->c->mem_subparts;
    bool hit = (uint32_t)h < hit_thresh;
    double part = (double)sectors / SECTORS; /* of a line */
    double arrive = (double)s->now + m->to_l2;
    double start = arrive > m->l2_free[sub] ? arrive : m->l2_free[sub];
    m->l2_free[sub] = start + m->l2_share * part;
    double wait = start - arrive, lat = m->l2_lat;
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
    if (store)
        return 0;
    st->mem_queue_cycles += (uint64_t)llround(wait);
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
