/* MPI tests of the results file and the chip scheduler (run under mpiexec -n 2 or 3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>
#include <mpi.h>

#include "dse_batch.h"
#include "dse_results.h"
#include "dse_sched.h"

typedef struct fixture {
    dse_sweep *s;
    dse_dims d;
    char path[256];
    int rank, size;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->s = dse_sweep_load_string("chips = { count = 7; };\n"
                                 "techniques = ( \"ideal\", \"baseline\", \"vl_sb\" );\n"
                                 "workloads = ( \"nn\", \"nw\" );\n"
                                 "aging = { years = [0.0, 1.0, 2.0]; };\n", "t.cfg", stderr);
    assert_non_null(f->s);
    dse_dims_of(f->s, &f->d);
    MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &f->size);
    /* one name for all ranks: rank 0's pid */
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(f->path, sizeof f->path, "/tmp/rfdse_test_results_%d.h5", pid);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    MPI_Barrier(MPI_COMM_WORLD);
    if (f->rank == 0)
        unlink(f->path);
    dse_sweep_free(f->s);
    free(f);
    return 0;
}

/* A value that identifies its position, so misplaced writes show. */
static double tag(int chip, int tech, int i) { return chip * 1000.0 + tech * 10.0 + i + 0.5; }

static void fill_unit(dse_unit *u, const dse_dims *d, int chip, int tech)
{
    u->chip = chip;
    u->technique = tech;
    for (int y = 0; y < d->n_years; y++)
        u->frequency[y] = tag(chip, tech, y), u->frequency_min[y] = -tag(chip, tech, y);
    for (int b = 0; b < d->n_benchmarks; b++) {
        u->ipc[b] = tag(chip, tech, b);
        u->performance[b] = 2 * tag(chip, tech, b);
        u->performance_t0[b] = 4 * tag(chip, tech, b);
        u->guardband[b] = NAN;
        u->guardband_raw[b] = 3 * tag(chip, tech, b);
    }
    for (int m = DSE_METRIC_guardband_raw + 1; m < DSE_N_METRICS; m++)
        for (int i = 0; i < dse_unit_metric_len(d, m); i++)
            dse_unit_metric(u, m)[i] = 5 * m + tag(chip, tech, i);
    /* chip 0 is traced (output.trace_chips defaults to [0]), as a real run fills it */
    u->trace = chip == 0 ? 0 : -1;
    size_t ys = (size_t)d->n_years * (size_t)d->n_subs;
    for (size_t i = 0; u->trace >= 0 && i < ys; i++) {
        u->trace_delay[i] = tag(chip, tech, (int)i);
        u->trace_slow[i] = (uint8_t)(i % 2);
        for (int b = 0; b < d->n_benchmarks; b++)
            u->trace_util[(size_t)b * ys + i] = b + tag(chip, tech, (int)i);
    }
}

/* Rank r writes units (chip, tech) with (chip + tech) % size == r, chips in two rounds;
 * a rank with nothing in a round still joins the collective write. */
static void write_pattern(fixture *f, dse_results *r, int round, bool skip_tech2_of_chip3)
{
    dse_batch b;
    dse_batch_init(&b, &f->d);
    for (int c = round; c < f->d.n_chips; c += 2) {
        dse_chip_info *info;
        int n = 0;
        dse_unit *u = dse_batch_reserve(&b, f->d.n_techniques, &info);
        assert_non_null(u);
        for (int t = 0; t < f->d.n_techniques; t++)
            if ((c + t) % f->size == f->rank && !(skip_tech2_of_chip3 && c == 3 && t == 2))
                fill_unit(&u[n++], &f->d, c, t);
        info->chip = c;
        for (int s = 0; s < f->d.n_sms; s++)
            info->sm_frequency[s] = tag(c, 0, s), info->within_sm_ratio[s] = 1 + s;
        info->sm_to_sm_ratio = 1.5;
        if (n)
            dse_batch_commit(&b, n);
    }
    char err[256];
    assert_int_equal(dse_results_write(r, b.units, b.n_units, b.chips, b.n_chips, err, sizeof err), 0);
    dse_batch_free(&b);
}

static void test_write_then_resume_reads_done_and_values(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    int status;
    dse_results *r = dse_results_create(f->path, &(dse_results_of){ f->s, f->s, "" }, true, MPI_COMM_WORLD, err, sizeof err, &status);
    assert_non_null(r);
    write_pattern(f, r, 0, false);
    write_pattern(f, r, 1, true);
    dse_results_close(r);

    uint8_t *done = calloc((size_t)(f->d.n_chips * f->d.n_techniques), 1);
    r = dse_results_resume(f->path, &(dse_results_of){ f->s, f->s, "" }, MPI_COMM_WORLD, false, done, err, sizeof err);
    assert_non_null(r);
    for (int c = 0; c < f->d.n_chips; c++)
        for (int t = 0; t < f->d.n_techniques; t++)
            assert_int_equal(done[c * f->d.n_techniques + t], !(c == 3 && t == 2));
    dse_results_close(r);
    free(done);

    if (f->rank == 0) { /* read back serially: every value at its place, NaN where unwritten */
        hid_t file = H5Fopen(f->path, H5F_ACC_RDONLY, H5P_DEFAULT);
        hid_t ds = H5Dopen2(file, "/results/frequency", H5P_DEFAULT);
        double *v = malloc(sizeof(double) * 7 * 3 * 3);
        assert_true(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
        for (int c = 0; c < 7; c++)
            for (int t = 0; t < 3; t++)
                for (int y = 0; y < 3; y++) {
                    double got = v[(c * 3 + t) * 3 + y];
                    if (c == 3 && t == 2)
                        assert_true(isnan(got));
                    else
                        assert_true(got == tag(c, t, y));
                }
        free(v);
        H5Dclose(ds);
        /* the time-zero performance goes to its own dataset, at its place */
        int nb = f->d.n_benchmarks;
        ds = H5Dopen2(file, "/results/performance_t0", H5P_DEFAULT);
        v = malloc(sizeof(double) * 7 * 3 * (size_t)nb);
        assert_true(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
        for (int c = 0; c < 7; c++)
            for (int t = 0; t < 3; t++)
                for (int b = 0; b < nb; b++) {
                    double got = v[(c * 3 + t) * nb + b];
                    assert_true(c == 3 && t == 2 ? isnan(got) : got == 4 * tag(c, t, b));
                }
        free(v);
        H5Dclose(ds);
        H5Fclose(file);
    }
}

static void test_create_refuses_existing_file(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    int status;
    dse_results *r = dse_results_create(f->path, &(dse_results_of){ f->s, f->s, "" }, true, MPI_COMM_WORLD, err, sizeof err, &status);
    assert_non_null(r);
    dse_results_close(r);
    r = dse_results_create(f->path, &(dse_results_of){ f->s, f->s, "" }, false, MPI_COMM_WORLD, err, sizeof err, &status);
    assert_null(r);
    assert_int_equal(status, 2);
    assert_non_null(strstr(err, "exists"));
}

static void test_resume_refuses_other_seed(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    int status;
    dse_results *r = dse_results_create(f->path, &(dse_results_of){ f->s, f->s, "" }, true, MPI_COMM_WORLD, err, sizeof err, &status);
    assert_non_null(r);
    dse_results_close(r);
    f->s->chips.seed = 12345;
    uint8_t done[64];
    r = dse_results_resume(f->path, &(dse_results_of){ f->s, f->s, "" }, MPI_COMM_WORLD, false, done, err, sizeof err);
    f->s->chips.seed = 1;
    assert_null(r);
    assert_non_null(strstr(err, "different seed"));
}

/* Every chip handed out exactly once; every rank sees the same number of FLUSHes. */
static void test_sched_hands_out_each_chip_once(void **state)
{
    (void)state;
    enum { N = 50 };
    int todo[N], got[N] = { 0 }, all[N];
    for (int i = 0; i < N; i++)
        todo[i] = 2 * i + 1;
    dse_sched *s = dse_sched_alloc(MPI_COMM_WORLD, todo, N, 0.0, NULL);
    assert_non_null(s);
    int flushes = 0;
    for (;;) {
        int next = dse_sched_next(s, 1, false);
        if (next == DSE_SCHED_DONE)
            break;
        if (next == DSE_SCHED_FLUSH) {
            flushes++;
            MPI_Barrier(MPI_COMM_WORLD); /* stands for the collective write */
            continue;
        }
        assert_true(next % 2 == 1 && next < 2 * N);
        got[next / 2]++;
        dse_sched_poll(s);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the final write */
    MPI_Allreduce(got, all, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < N; i++)
        assert_int_equal(all[i], 1);
    int fmin, fmax;
    MPI_Allreduce(&flushes, &fmin, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&flushes, &fmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    assert_int_equal(fmin, fmax);
    dse_sched_free(s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_write_then_resume_reads_done_and_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_refuses_existing_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resume_refuses_other_seed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_hands_out_each_chip_once, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    MPI_Finalize();
    return rc;
}
