/* Launch structure (docs/model.md, "Launches"): a profile is one launch of grid_blocks,
 * or a sequence of launches (launch_blocks).  Blocks go to the SMs round-robin from SM
 * 0 in every launch (GPGPU-Sim's block scheduler, gpu-sim.cc issue_block2core, also
 * deals round-robin; it continues from the SM after the last one served, which rfdse
 * does not follow: SM 0, the one rfdse's comparison simulates, gets a launch's first
 * block and the most blocks of any SM, so its time is the launch's).  A dependent
 * launch (launch_dependent) starts on an SM when the previous launch's blocks there
 * have all finished: exact for SM 0, which finishes last. */
#include "sm_internal.h"

static int min_int(int a, int b) { return a < b ? a : b; }

/* This SM's blocks in total; with `end` and `sms`, the cumulative share per launch and
 * the SMs that run a block of each.  Each launch is capped at SM_SIM_WAVES waves. */
int sm__launch_shares(const sm_config *c, const sm_profile *w, int sm_index, int n_sms,
                      int resident, int *end, int16_t *sms)
{
    (void)c;
    int n = w->n_launches > 0 ? w->n_launches : 1, total = 0;
    for (int l = 0; l < n; l++) {
        int b = w->n_launches > 0 ? w->launch_blocks[l] : w->grid_blocks;
        int share = sm_index < b ? (b - 1 - sm_index) / n_sms + 1 : 0;
        total += min_int(share, SM_SIM_WAVES * resident);
        if (end)
            end[l] = total;
        if (sms)
            sms[l] = (int16_t)min_int(b, n_sms);
    }
    return total;
}

/* May the next block launch now?  Moves on to the next launch once the current one's
 * blocks have all launched (independent launches) or finished (dependent). */
bool sm__launch_may(sm_sim *s)
{
    const sm__kernel *k = &s->k;
    while (s->launch < k->n_launches - 1 && s->next_block >= k->launch_end[s->launch]) {
        if (k->launch_dep && s->blocks_done < k->launch_end[s->launch])
            return false;
        s->launch++;
        if (s->mem.on)
            sm__memsys_launch(s, k->launch_sms[s->launch]);
    }
    return s->next_block < k->n_blocks;
}
