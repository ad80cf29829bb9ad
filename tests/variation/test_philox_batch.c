/* var__philox_batch (variation/philox_batch.c) against Random123's philox4x32: every
 * output word of many counters and keys, bit for bit. */
#include <string.h>

#include "var_internal.h"
#include "vtest.h"

static uint32_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (uint32_t)(*s >> 16);
}

/* Batches of every length 0..80 (vector bodies and their remainders), random and extreme
 * counter words and keys. */
static void test_batch_equals_random123(void **state)
{
    (void)state;
    enum { N = 80 };
    const uint32_t edge[] = { 0, 1, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu };
    uint32_t c0[N], c1[N], o[4][N];
    uint64_t s = 0x2545F4914F6CDD1DULL;
    long bad = 0, words = 0;
    for (int it = 0; it < 4000; it++) {
        int n = it % (N + 1);
        int e = it % 7 == 0; /* every 7th batch: words from the edge values */
        for (int j = 0; j < n; j++) {
            c0[j] = e ? edge[next(&s) % 6] : next(&s);
            c1[j] = e ? edge[next(&s) % 6] : next(&s);
        }
        uint32_t c2 = e ? edge[it % 6] : next(&s), c3 = e ? edge[(it / 6) % 6] : next(&s);
        philox4x32_key_t key = { { e ? edge[(it / 2) % 6] : next(&s), next(&s) } };
        var__philox_batch(n, c0, c1, c2, c3, key, o[0], o[1], o[2], o[3]);
        for (int j = 0; j < n; j++) {
            philox4x32_ctr_t c = { { c0[j], c1[j], c2, c3 } };
            philox4x32_ctr_t r = philox4x32(c, key);
            for (int q = 0; q < 4; q++, words++)
                bad += r.v[q] != o[q][j];
        }
    }
    if (bad)
        fail_msg("%ld of %ld words differ from Random123's philox4x32", bad, words);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_equals_random123),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
