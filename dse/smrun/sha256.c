/* SHA-256 (FIPS 180-4), written from the standard: the run store's key hash, its
 * checksums and the binary's identity (dse_run_store.h).  Plain, about 300 MB/s: the
 * store hashes the key of each SM run the cache misses (0.8-1 kB in the reference
 * sweeps: 3 us, against a millisecond or more for the run) and each segment it reads.
 * A sweep whose runs are all in the store spent a third of its host instructions here
 * (sensitivity-1to1 at 20 chips, callgrind: the segments' checks and the keys), so
 * where the processor has the SHA extensions (x86 SHA-NI: AMD since Zen, Intel since
 * Goldmont and Ice Lake) a block takes them instead (block_ni), chosen at run time;
 * the digest is the same (test_sha256_paths). */
#include <string.h>

#include "dse_run_store.h"

/* GCC's __builtin_cpu_supports knows "sha"; clang 14's does not (the fuzz build), which
 * keeps the plain path. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define SHA_NI 1
#include <immintrin.h>
#else
#define SHA_NI 0
#endif

static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void block(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

#if SHA_NI
/* One block with the SHA extensions.  The state is kept as the instructions want it,
 * (A, B, E, F) and (C, D, G, H); each step is four rounds: the next four words of the
 * message schedule (msg1 and msg2 compute W[t] from W[t-16], W[t-15], W[t-7] and
 * W[t-2], as block's loop does) plus their constants, two rounds per sha256rnds2. */
__attribute__((target("sha,sse4.1,ssse3"))) static void block_ni(uint32_t h[8],
                                                                 const uint8_t *p)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1), efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8), cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    const __m128i abef0 = abef, cdgh0 = cdgh;
    __m128i m[4]; /* the schedule's last 16 words, four per vector, m[j & 3] = W[4j, 4j + 4) */
    for (int j = 0; j < 16; j++) {
        __m128i x;
        if (j < 4) {
            x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * j)), bswap);
        } else {
            x = _mm_sha256msg1_epu32(m[j & 3], m[(j + 1) & 3]); /* W[t-16] + s0(W[t-15]) */
            x = _mm_add_epi32(x, _mm_alignr_epi8(m[(j + 3) & 3], m[(j + 2) & 3], 4)); /* W[t-7] */
            x = _mm_sha256msg2_epu32(x, m[(j + 3) & 3]); /* + s1(W[t-2]) */
        }
        m[j & 3] = x;
        __m128i wk = _mm_add_epi32(x, _mm_loadu_si128((const __m128i *)&k[4 * j]));
        /* rounds 4j, 4j + 1: the new (A, B, E, F) into cdgh, whose old (C, D, G, H)
         * two rounds on are the old (A, B, E, F); rounds 4j + 2, 4j + 3 the same way
         * back, so each name holds its own half again */
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B), dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0)); /* D C B A */
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));    /* H G F E */
}
#endif

static void blocks(dse__sha256 *s, const uint8_t *p)
{
#if SHA_NI
    if (s->ni) {
        block_ni(s->h, p);
        return;
    }
#endif
    block(s->h, p);
}

void dse__sha256_init(dse__sha256 *s)
{
    static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    memcpy(s->h, h0, sizeof h0);
    s->bytes = 0;
    s->fill = 0;
#if SHA_NI
    s->ni = __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1");
#else
    s->ni = false;
#endif
}

void dse__sha256_add(dse__sha256 *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    s->bytes += n;
    while (n) {
        if (s->fill == 0 && n >= 64) { /* whole blocks straight from the input */
            blocks(s, p);
            p += 64;
            n -= 64;
            continue;
        }
        size_t take = 64 - s->fill < n ? 64 - s->fill : n;
        memcpy(s->buf + s->fill, p, take);
        s->fill += take;
        p += take;
        n -= take;
        if (s->fill == 64) {
            blocks(s, s->buf);
            s->fill = 0;
        }
    }
}

void dse__sha256_end(dse__sha256 *s, uint8_t out[32])
{
    uint64_t bits = s->bytes * 8;
    uint8_t pad[72] = { 0x80 };
    size_t n = (s->fill < 56 ? 56 : 120) - s->fill;
    for (int i = 0; i < 8; i++)
        pad[n + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
    dse__sha256_add(s, pad, n + 8);
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 4; b++)
            out[4 * i + b] = (uint8_t)(s->h[i] >> (24 - 8 * b));
}

void dse__sha256_check(const void *p, size_t n, uint8_t out[8])
{
    dse__sha256 s;
    uint8_t h[32];
    dse__sha256_init(&s);
    dse__sha256_add(&s, p, n);
    dse__sha256_end(&s, h);
    memcpy(out, h, 8);
}
