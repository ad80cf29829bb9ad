/* Philox4x32-10 of many counters at once: Random123's philox4x32 (the same constants,
 * rounds and key schedule, tests/variation/test_philox_batch.c compares them bit for bit)
 * as loops over arrays, one round over every counter before the next round, so each loop
 * body is the same few 32-bit operations on independent lanes and GCC vectorises it
 * (SSE2 pmuludq for the 32x32 -> 64-bit products) at -O3.  Random123's philox4x32 runs
 * the ten rounds of one counter as a chain: about 1.6x slower per block in the chip's
 * row loop, which draws some 10^6 blocks per chip. */
#include "var_internal.h"

void var__philox_batch(int n, const uint32_t *restrict c0, const uint32_t *restrict c1,
                       uint32_t c2, uint32_t c3, philox4x32_key_t key, uint32_t *restrict o0,
                       uint32_t *restrict o1, uint32_t *restrict o2, uint32_t *restrict o3)
{
    for (int j = 0; j < n; j++)
        o0[j] = c0[j], o1[j] = c1[j], o2[j] = c2, o3[j] = c3;
    uint32_t k0 = key.v[0], k1 = key.v[1];
    for (int r = 0; r < 10; r++) {
        for (int j = 0; j < n; j++) {
            uint64_t p0 = (uint64_t)PHILOX_M4x32_0 * o0[j], p1 = (uint64_t)PHILOX_M4x32_1 * o2[j];
            uint32_t x0 = (uint32_t)(p1 >> 32) ^ o1[j] ^ k0;
            uint32_t x2 = (uint32_t)(p0 >> 32) ^ o3[j] ^ k1;
            o1[j] = (uint32_t)p1, o3[j] = (uint32_t)p0;
            o0[j] = x0, o2[j] = x2;
        }
        k0 += PHILOX_W32_0, k1 += PHILOX_W32_1; /* Random123 bumps after every round */
    }
}
