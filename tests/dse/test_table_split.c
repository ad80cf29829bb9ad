/* The variation tables built by the ranks together (dse/run/table_split.c): under
 * mpirun, every rank's chip built with the split holds the tables one process builds
 * alone, bit for bit (every rank saves the gathered table: it equals the lone one; every
 * rank's chip draws the same registers), and a table every rank loaded is built by none. */
#include <mpi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "table_split.h"
#include "var.h"

typedef struct saved {
    float *q;
    size_t n;
    int loads, saves;
} saved;

static void save(void *arg, const uint8_t *id, size_t id_len, const float *q, size_t n)
{
    (void)id, (void)id_len;
    saved *s = arg;
    free(s->q);
    s->q = malloc(sizeof(float) * n);
    assert_non_null(s->q);
    memcpy(s->q, q, sizeof(float) * n);
    s->n = n;
    s->saves++;
}

/* Hands back what save kept (one table: the default floorplan's chip needs one). */
static int load(void *arg, const uint8_t *id, size_t id_len, float *q, size_t n)
{
    (void)id, (void)id_len;
    saved *s = arg;
    if (!s->q || s->n != n)
        return 0;
    memcpy(q, s->q, sizeof(float) * n);
    s->loads++;
    return 1;
}

static var_chip *chip_with(const var_params *p, var_table_cache *tc)
{
    int err = 0;
    var_chip *c = var_chip_alloc_tables(p, tc, &err);
    assert_non_null(c);
    assert_int_equal(var_chip_generate(c, p, 2026, 3), VAR_OK);
    return c;
}

static void test_split_equals_alone(void **state)
{
    (void)state;
    MPI_Comm comm = MPI_COMM_WORLD;
    var_params p;
    var_params_default(&p);
    saved alone = { 0 }, shared = { 0 };
    var_table_cache tc_alone = { .save = save, .arg = &alone };
    var_table_split split;
    dse__table_split_init(&split, &comm);
    var_table_cache tc_shared = { .save = save, .arg = &shared, .split = &split };
    var_chip *a = chip_with(&p, &tc_alone), *b = chip_with(&p, &tc_shared);
    assert_int_equal(alone.saves, 1);
    assert_int_equal(shared.saves, 1); /* the gathered table, by every rank */
    assert_int_equal(shared.n, alone.n);
    assert_memory_equal(shared.q, alone.q, sizeof(float) * alone.n);
    for (int sm = 0; sm < p.floorplan.n_sms; sm++)
        assert_memory_equal(var_chip_register_delays(a, sm), var_chip_register_delays(b, sm),
                            sizeof(double) * (size_t)p.floorplan.n_banks *
                                (size_t)p.floorplan.entries_per_bank *
                                (size_t)(p.floorplan.bits_per_entry / 32));
    var_chip_free(a);
    var_chip_free(b);
    free(alone.q);
    free(shared.q);
}

/* Every rank loads the table: none builds nor saves.  One rank without it: all build. */
static void test_loaded_everywhere_builds_none(void **state)
{
    (void)state;
    int rank;
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Comm_rank(comm, &rank);
    var_params p;
    var_params_default(&p);
    saved kept = { 0 };
    var_table_cache tc = { .load = load, .save = save, .arg = &kept };
    var_chip_free(chip_with(&p, &tc)); /* each rank builds and keeps its own */
    var_table_split split;
    dse__table_split_init(&split, &comm);
    tc.split = &split;
    var_chip_free(chip_with(&p, &tc));
    assert_int_equal(kept.loads, 1);
    assert_int_equal(kept.saves, 1); /* the first chip's only */
    float *q = rank == 1 ? kept.q : NULL; /* rank 1 forgets it: every rank builds */
    if (rank == 1)
        kept.q = NULL;
    var_chip_free(chip_with(&p, &tc));
    assert_int_equal(kept.saves, 2);
    free(q);
    free(kept.q);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_equals_alone),
        cmocka_unit_test(test_loaded_everywhere_builds_none),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    MPI_Finalize();
    return rc;
}
