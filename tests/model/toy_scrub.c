/* A toy register-file design, built only into a test copy of the model (not shipped):
 * every register written is read back once through its bank's read port ("scrubbed"),
 * oldest first, at most one re-read per cycle.  It exists to show that a design is one
 * file plus a registry line (toy_registry.h) and to exercise the hooks a shipped design
 * may need: its own state, the write hook, per-cycle work that the idle skip must
 * respect, and bank-port traffic that competes with the operand collectors. */
#include <string.h>

#include "sm_internal.h"

enum { QUEUE = 1 << 15 }; /* writes not yet re-read: a busy kernel writes 1.3 a cycle */

typedef struct scrub {
    int head, n;
    struct { uint8_t bank, slow, lanes; } q[QUEUE];
} scrub;

static size_t state_size(const sm_config *cap)
{
    (void)cap;
    return sizeof(scrub);
}

static int kernel(sm_sim *s, void *st, const sm_profile *p)
{
    (void)s;
    (void)p;
    memset(st, 0, sizeof(scrub));
    return SM_OK;
}

static void write(sm_sim *s, void *st, uint16_t slot)
{
    scrub *z = st;
    const sm__slot *sl = &s->slots[slot];
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
    }
    return z->n ? s->now + 1 : INT64_MAX;
}

const sm__rf_design sm__design_toy_scrub = {
    .name = "toy_scrub", .state_size = state_size, .kernel = kernel, .write = write,
    .cycle = cycle,
};
