/* sm_config.slow_access and bro_ports (docs/model.md, "The cost of a slow access"):
 * hand-checked micro-kernels.  Warp 0's register r lives in bank r (16 banks); with
 * sm_rf_map_mark_last_slow(map, 2) only bank 15 is slow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sm_fixture.h"

static sm_stats run_one_warp(fixture *f, const sm__inst *in, int n_prog, int n, int regs)
{
    f->p.grid_blocks = 1;
    f->p.block_threads = 32;
    f->p.regs_per_thread = regs;
    f->p.insts_per_warp = n;
    int rc = sm__sim_run_micro(f->sim, &f->c, &f->p, &f->t, &f->map, in, n_prog, &f->st);
    assert_int_equal(rc, SM_OK);
    assert_int_equal(f->st.warp_insts, n);
    return f->st;
}

static sm__inst alu(uint8_t dst, int n_src, uint8_t a, uint8_t b)
{
    sm__inst in = { .op = SM__OP_INT, .dst = dst, .n_src = (uint8_t)n_src, .src = { a, b, 0 } };
    return in;
}

static int reset(void **state)
{
    fixture *f = *state;
    sm_config_default(&f->c);
    sm_profile_default(&f->p);
    sm_technique_default(&f->t);
    sm_rf_map_all_fast(&f->map, 16, 64, 2);
    return 0;
}

/* A chain r1 <- r1 on slow storage: hold_port, pipelined and stall_collector add 2
 * cycles a link (read a cycle late, release a cycle late), replay 4 (each 2 late). */
static void test_chain_latency(void **state)
{
    fixture *f = *state;
    sm__inst in = alu(1, 1, 1, 0);
    uint64_t fast = run_one_warp(f, &in, 1, 10, 4).cycles;
    sm_rf_map_mark_last_slow(&f->map, 32);
    const struct {
        sm_slow_access mode;
        uint64_t per_link;
    } want[] = { { SM_SLOW_HOLD_PORT, 2 }, { SM_SLOW_PIPELINED, 2 }, { SM_SLOW_REPLAY, 4 },
                 { SM_SLOW_STALL_COLLECTOR, 2 } };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        f->c.slow_access = want[i].mode;
        uint64_t slow = run_one_warp(f, &in, 1, 10, 4).cycles;
        assert_int_equal(slow - fast, 10 * want[i].per_link);
    }
}

/* Ten independent instructions read r1 back to back: a slow bank that holds its port
 * serialises them (conflicts), a pipelined one takes a read every cycle, as fast
 * storage does. */
static void test_pipelined_port_takes_a_read_every_cycle(void **state)
{
    fixture *f = *state;
    sm__inst prog[10];
    for (int i = 0; i < 10; i++)
        prog[i] = alu((uint8_t)(2 + i), 1, 1, 0);
    sm_stats fast = run_one_warp(f, prog, 10, 10, 12);
    sm_rf_map_mark_last_slow(&f->map, 32);
    sm_stats hold = run_one_warp(f, prog, 10, 10, 12);
    f->c.slow_access = SM_SLOW_PIPELINED;
    sm_stats pipe = run_one_warp(f, prog, 10, 10, 12);
    assert_int_equal(fast.bank_read_conflicts, 0);
    assert_true(hold.bank_read_conflicts > 0);
    assert_int_equal(pipe.bank_read_conflicts, 0);
    assert_true(pipe.cycles < hold.cycles);
    assert_int_equal(pipe.slow_reads, hold.slow_reads);
}

/* Reads alternate between slow bank 15 (r15) and fast bank 4 (r4), one issued a cycle.
 * A slow read granted at g freezes g + 1 for every bank: each fast read, requested for
 * exactly that cycle, waits one (5 conflicts); with hold_port none waits.  Without slow
 * storage the two rules are the same run. */
static void test_stall_collector_freezes_every_bank(void **state)
{
    fixture *f = *state;
    sm__inst prog[10];
    for (int i = 0; i < 10; i++)
        prog[i] = alu((uint8_t)(5 + i), 1, i % 2 ? 4 : 15, 0);
    sm_stats fast_hold = run_one_warp(f, prog, 10, 10, 16);
    f->c.slow_access = SM_SLOW_STALL_COLLECTOR;
    sm_stats fast_stall = run_one_warp(f, prog, 10, 10, 16);
    assert_memory_equal(&fast_hold, &fast_stall, sizeof fast_hold);
    sm_rf_map_mark_last_slow(&f->map, 2);
    f->c.slow_access = SM_SLOW_HOLD_PORT;
    sm_stats hold = run_one_warp(f, prog, 10, 10, 16);
    f->c.slow_access = SM_SLOW_STALL_COLLECTOR;
    sm_stats stall = run_one_warp(f, prog, 10, 10, 16);
    assert_int_equal(hold.bank_read_conflicts, 0);
    assert_int_equal(stall.bank_read_conflicts, 5);
    assert_true(stall.cycles > hold.cycles);
}

/* Every storage slow, ten independent instructions reading r1, r2 and r3 (banks 1-3):
 * each instruction's three reads are granted in one cycle and freeze the next, which
 * every one of those ports holds anyway (a slow access), so stall_collector costs
 * nothing over hold_port: the same cycles.  (Freezing the cycle once per slow read
 * pushed the queued ports back three times: 0.21-0.29 of the all-fast IPC on the
 * micro-kernels where GPGPU-Sim with the same rule measured 0.53-0.80.) */
static void test_stall_collector_freezes_a_cycle_once(void **state)
{
    fixture *f = *state;
    sm__inst prog[10];
    for (int i = 0; i < 10; i++) {
        prog[i] = alu((uint8_t)(5 + i), 2, 1, 2);
        prog[i].n_src = 3;
        prog[i].src[2] = 3;
    }
    sm_rf_map_mark_last_slow(&f->map, 32);
    sm_stats hold = run_one_warp(f, prog, 10, 10, 16);
    f->c.slow_access = SM_SLOW_STALL_COLLECTOR;
    sm_stats stall = run_one_warp(f, prog, 10, 10, 16);
    assert_true(hold.bank_read_conflicts > 0); /* the ports queue: the case that matters */
    assert_int_equal(stall.cycles, hold.cycles);
    assert_int_equal(stall.bank_read_conflicts, hold.bank_read_conflicts);
}

/* Virtual banks 0 and 1 built from the sub-banks of physical banks 0 and 1 (as rf_bro
 * does): reading r0 and r1 together conflicts only if the ports stay physical.  With
 * identity banks the physical ports are the virtual ones: the same run. */
static void test_physical_ports_conflict_across_virtual_banks(void **state)
{
    fixture *f = *state;
    sm__inst prog[10];
    for (int i = 0; i < 10; i++)
        prog[i] = alu((uint8_t)(5 + i), 2, 0, 1);
    sm_stats ident_v = run_one_warp(f, prog, 10, 10, 16);
    f->c.bro_ports = SM_BRO_PORTS_PHYSICAL;
    sm_stats ident_p = run_one_warp(f, prog, 10, 10, 16);
    assert_memory_equal(&ident_v, &ident_p, sizeof ident_v);
    f->map.sub_id[0][0] = 0, f->map.sub_id[0][1] = 2; /* bank 0 s0, bank 1 s0 */
    f->map.sub_id[1][0] = 1, f->map.sub_id[1][1] = 3; /* bank 0 s1, bank 1 s1 */
    f->c.bro_ports = SM_BRO_PORTS_VIRTUAL;
    sm_stats virt = run_one_warp(f, prog, 10, 10, 16);
    f->c.bro_ports = SM_BRO_PORTS_PHYSICAL;
    sm_stats phys = run_one_warp(f, prog, 10, 10, 16);
    assert_int_equal(virt.bank_read_conflicts, 0);
    assert_true(phys.bank_read_conflicts >= 10);
    assert_true(phys.cycles > virt.cycles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_chain_latency, reset),
        cmocka_unit_test_setup(test_pipelined_port_takes_a_read_every_cycle, reset),
        cmocka_unit_test_setup(test_stall_collector_freezes_every_bank, reset),
        cmocka_unit_test_setup(test_stall_collector_freezes_a_cycle_once, reset),
        cmocka_unit_test_setup(test_physical_ports_conflict_across_virtual_banks, reset),
    };
    return cmocka_run_group_tests(tests, sm_fixture_setup, sm_fixture_teardown);
}
