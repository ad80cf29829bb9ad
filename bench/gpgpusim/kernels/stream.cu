/* stream.cu - streaming memory kernel: y[i] = a * x[i] + y[i] over a grid-stride
 * loop (coalesced 128-byte warp accesses, every line touched once: L1 misses).
 * Usage: stream GRID BLOCK N      default 60 256 262144
 * Written for rfdse (bench/gpgpusim). */
#include "common.h"

__global__ void stream(const float *x, float *y, float a, int n)
{
    int stride = gridDim.x * blockDim.x;
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = fmaf(a, x[i], y[i]);
}

int main(int argc, char **argv)
{
    int grid = arg_int(argc, argv, 1, 60), block = arg_int(argc, argv, 2, 256);
    int n = arg_int(argc, argv, 3, 262144);
    float *x = dev_filled((size_t)n, 1.0f), *y = dev_filled((size_t)n, 2.0f);
    stream<<<grid, block>>>(x, y, 0.5f, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    print_checksum("stream", y, (size_t)n);
    return 0;
}
