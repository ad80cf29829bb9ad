/* A toy register-file design, built only into a test copy of the model (not shipped):
 * every register written is read back once through its bank's read port ("scrubbed"),
 * oldest first, at most one re-read per cycle.  It exists to show that a design is one
 * file plus a registry line (toy_registry.h) and to exercise the hooks a shipped design
 * may need: its own state, the write hook, per-cycle work that the idle skip must
 * respect, bank-port traffic that competes with the operand collectors, and a knob and
 * a statistic declared in its entry (every `scrub_every`-th write is re-read; the
 * re-reads counted as `scrub_reads`). */
#include <string.h>

#include "sm_internal.h"

enum { QUEUE = 1 << 15 }; /* writes not yet re-read: a busy kernel writes 1.3 a cycle */

typedef struct scrub_knobs {
    int scrub_every; /* re-read every this many writes */
} scrub_knobs;

static const sm_knob knobs[] = {
    SM_KNOB_INT(scrub_knobs, scrub_every, 1, 1000, 1, "test only: re-read every n-th write"),
};
static const sm_design_stat stats_decl[] = {
    { "scrub_reads", "accesses", "test only: registers read back by the scrubber" },
};

typedef struct scrub {
    int head, n, every, writes;
    uint64_t reads;
    struct { uint8_t bank, slow, lanes; } q[QUEUE];
} scrub;

static size_t state_size(const sm_config *cap)
{
    (void)cap;
    return sizeof(scrub);
}

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    (void)p;
    memset(st, 0, sizeof(scrub));
    ((scrub *)st)->every = ((const scrub_knobs *)sm_design_knobs(s, SM_DESIGN_toy_scrub))->scrub_every;
    return SM_OK;
}

static void write(sm_sim *s, void *st, uint16_t slot)
{
    scrub *z = st;
    const sm__slot *sl = &s->slots[slot];
    if (z->writes++ % z->every)
        return;
    assert(z->n < QUEUE);
    int tail = (z->head + z->n++) % QUEUE;
    z->q[tail].bank = sl->wbank;
    z->q[tail].slow = sl->wslow;
    z->q[tail].lanes = sl->wlanes;
}

static int64_t cycle(sm_sim *s, void *st)
{
    scrub *z = st;
    if (z->n) {
        sm__port_read(s, z->q[z->head].bank, z->q[z->head].slow, z->q[z->head].lanes);
        z->head = (z->head + 1) % QUEUE;
        z->n--;
        z->reads++;
    }
    return z->n ? s->now + 1 : INT64_MAX;
}

static void stats(const sm_sim *s, const void *st, sm_stats *out)
{
    (void)s;
    sm_design_stats(out, SM_DESIGN_toy_scrub)[0] = ((const scrub *)st)->reads;
}

const sm__rf_design sm__design_toy_scrub = {
    .info = { .doc = "test only: every written register read back once",
              .knobs = knobs, .n_knobs = 1, .stats = stats_decl, .n_stats = 1 },
    .stats = stats, .state_size = state_size, .kernel = kernel, .write = write,
    .cycle = cycle,
};
