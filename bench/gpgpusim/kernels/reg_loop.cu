/* reg_loop.cu - register-heavy loop (hotspot-like): 24 live accumulators per thread,
 * each updated every iteration from two neighbours (FMA, three register sources),
 * plus loop and address registers: about 28 live registers.
 * Usage: reg_loop GRID BLOCK ITERS   default 60 256 32
 * Written for rfdse (bench/gpgpusim). */
#include "common.h"

#define NACC 24
__global__ void reg_loop(const float *in, float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r[NACC];
#pragma unroll
    for (int j = 0; j < NACC; j++)
        r[j] = in[i] + 0.01f * j;
#pragma unroll 1
    for (int k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < NACC; j++)
            r[j] = fmaf(r[(j + 1) % NACC], 0.5f * r[(j + 7) % NACC], r[j]);
    }
    float s = 0;
#pragma unroll
    for (int j = 0; j < NACC; j++)
        s += r[j];
    out[i] = s;
}

int main(int argc, char **argv)
{
    int grid = arg_int(argc, argv, 1, 60), block = arg_int(argc, argv, 2, 256);
    int iters = arg_int(argc, argv, 3, 32);
    size_t n = (size_t)grid * block;
    float *in = dev_filled(n, 0.001f), *out = dev_filled(n, 0.0f);
    reg_loop<<<grid, block>>>(in, out, iters);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    print_checksum("reg_loop", out, n);
    return 0;
}
