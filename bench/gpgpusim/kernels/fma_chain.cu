/* fma_chain.cu - one long dependent FMA chain per thread: a = a * b + c, 16 per loop
 * iteration, b and c in registers (three register sources per FMA).
 * Usage: fma_chain GRID BLOCK ITERS
 *   chain: fma_chain 15 64 256   (2 warps per SM: latency-bound)
 *   many:  fma_chain 240 256 32  (48 warps per SM: issue/bank-bound)
 * Written for rfdse (bench/gpgpusim). */
#include "common.h"

#define F4(x) x x x x
__global__ void fma_chain(const float *in, float *out, float b, float c, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = in[i];
#pragma unroll 1
    for (int k = 0; k < iters; k++) {
        F4(F4(a = fmaf(a, b, c);))
    }
    out[i] = a;
}

int main(int argc, char **argv)
{
    int grid = arg_int(argc, argv, 1, 15), block = arg_int(argc, argv, 2, 64);
    int iters = arg_int(argc, argv, 3, 256);
    size_t n = (size_t)grid * block;
    float *in = dev_filled(n, 0.5f), *out = dev_filled(n, 0.0f);
    fma_chain<<<grid, block>>>(in, out, 0.999f, 0.001f, iters);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    print_checksum("fma_chain", out, n);
    return 0;
}
