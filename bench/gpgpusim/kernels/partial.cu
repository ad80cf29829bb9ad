/* partial.cu - partially active warps: blocks of 48 threads, so each block has one
 * full warp and one warp with 16 active lanes; each thread runs two independent FMA
 * chains (16 FMAs per loop iteration).
 * Usage: partial GRID BLOCK ITERS   default 240 48 32
 * Written for rfdse (bench/gpgpusim). */
#include "common.h"

#define F4(x) x x x x
__global__ void partial(const float *in, float *out, float b, float c, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a0 = in[i], a1 = a0 + 1.0f;
#pragma unroll 1
    for (int k = 0; k < iters; k++) {
        F4(F4(a0 = fmaf(a0, b, c); a1 = fmaf(a1, b, c);))
    }
    out[i] = a0 + a1;
}

int main(int argc, char **argv)
{
    int grid = arg_int(argc, argv, 1, 240), block = arg_int(argc, argv, 2, 48);
    int iters = arg_int(argc, argv, 3, 32);
    size_t n = (size_t)grid * block;
    float *in = dev_filled(n, 0.5f), *out = dev_filled(n, 0.0f);
    partial<<<grid, block>>>(in, out, 0.999f, 0.001f, iters);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    print_checksum("partial", out, n);
    return 0;
}
