/* sm_fixture.h - the fixture of the SM model's micro-kernel tests: default knobs, an
 * all-fast map of 16 banks x 64 entries x 2 sub-banks, and a simulator whose pools fit
 * either collector layout.  A test adjusts the knobs in its own setup or test. */
#ifndef RFDSE_TEST_SM_FIXTURE_H
#define RFDSE_TEST_SM_FIXTURE_H

#include "sm_internal.h"

typedef struct fixture {
    sm_config c;
    sm_profile p;
    sm_technique t;
    sm_rf_map map;
    sm_sim *sim;
    sm_stats st;
} fixture;

/* A default profile made memory-bound: 35 % global loads hitting L1 at 20 %, 180
 * blocks (12 per SM of 15). */
void sm_fixture_memory_bound(sm_profile *p);

/* cmocka setup and teardown: *state becomes the fixture (one per test program). */
int sm_fixture_setup(void **state);
int sm_fixture_teardown(void **state);

#endif
