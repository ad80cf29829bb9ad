/* burst.cu - lavaMD's load pattern alone: a block of 128 threads in which threads
 * 0-99 each copy one 32-byte record (four doubles) of a box of 100 into shared memory,
 * all at once (25 lines, 100 sectors), a barrier, one use of the copy, a barrier, then
 * the next box; the boxes are walked twice, so the second walk misses L1 (64 boxes,
 * 200 KB) and hits L2.  With 1 block one SM's bursts meet an idle chip; with 15 blocks
 * (one per SM) every SM sends the same burst at the same time (bench/gpgpusim/
 * README.md, "The L2 round trip").
 * Usage: burst BLOCKS BOXES      default 1 64
 * Written for rfdse (bench/gpgpusim). */
#include "common.h"

struct four {
    double v, x, y, z;
};

__global__ void burst(const four *box, int boxes, double *out)
{
    __shared__ four s[100];
    double acc = 0;
#pragma unroll 1
    for (int i = 0; i < 2 * boxes; i++) {
        if (threadIdx.x < 100)
            s[threadIdx.x] = box[(i % boxes) * 100 + threadIdx.x];
        __syncthreads();
        acc += s[(threadIdx.x + i) % 100].x;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char **argv)
{
    int blocks = arg_int(argc, argv, 1, 1), boxes = arg_int(argc, argv, 2, 64);
    four *box;
    CK(cudaMalloc((void **)&box, sizeof(four) * 100 * (size_t)boxes));
    CK(cudaMemset(box, 0, sizeof(four) * 100 * (size_t)boxes));
    size_t n = (size_t)blocks * 128;
    double *out;
    CK(cudaMalloc((void **)&out, n * sizeof *out));
    burst<<<blocks, 128>>>(box, boxes, out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double *h = (double *)malloc(n * sizeof *h), sum = 0;
    CK(cudaMemcpy(h, out, n * sizeof *h, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        sum += h[i];
    printf("rfdse-kernel burst checksum %.6e over %zu values\n", sum, n);
    free(h);
    return 0;
}
