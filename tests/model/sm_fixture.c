/* The micro-kernel tests' fixture (sm_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

int sm_fixture_setup(void **state)
{
    static fixture f;
    memset(&f, 0, sizeof f);
    sm_config_default(&f.c);
    sm_profile_default(&f.p);
    sm_technique_default(&f.t);
    sm_rf_map_all_fast(&f.map, 16, 64, 2);
    sm_config big = f.c;
    big.collectors = SM_COLLECTORS_UNIFIED; /* room for either collector layout */
    f.sim = sm_sim_alloc(&big);
    assert_non_null(f.sim);
    *state = &f;
    return 0;
}

int sm_fixture_teardown(void **state)
{
    fixture *f = *state;
    f->sim->k.micro_rows = false;
    sm_sim_free(f->sim);
    return 0;
}

void sm_fixture_memory_bound(sm_profile *p)
{
    sm_profile_default(p);
    p->frac_mem = 0.35;
    p->l1_hit_rate = 0.2;
    p->frac_shared = 0;
    p->grid_blocks = 15 * 12;
}
