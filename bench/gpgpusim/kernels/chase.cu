/* chase.cu - one thread chases a ring of pointers one 128-byte line apart: every step
 * is a load whose address is the previous load's value, so a step takes one load's
 * round trip plus the loop's few dependent instructions.  A ring of 512 lines (64 KB)
 * misses the 16 KB L1 at every step and hits L2 (GPGPU-Sim copies the ring into L2 with
 * -gpgpu_perf_sim_memcpy 1); a ring of 64 lines (8 KB) hits L1 after its first trip.
 * The difference of two runs' gpu_sim_cycle over their difference in steps is the time
 * of a step, and the two rings' steps differ by an L2 hit's round trip less an L1 hit's
 * (bench/gpgpusim/README.md, "The L2 round trip").
 * Usage: chase LINES STEPS      default 512 512
 * Written for rfdse (bench/gpgpusim). */
#include "common.h"

__global__ void chase(const unsigned *ring, unsigned steps, unsigned *out)
{
    unsigned p = 0;
#pragma unroll 1
    for (unsigned i = 0; i < steps; i++)
        p = ring[p];
    out[0] = p;
}

int main(int argc, char **argv)
{
    unsigned lines = (unsigned)arg_int(argc, argv, 1, 512);
    unsigned steps = (unsigned)arg_int(argc, argv, 2, 512);
    size_t n = (size_t)lines * 32; /* 32 words a line */
    unsigned *h = (unsigned *)calloc(n, sizeof *h), *ring, *out;
    for (unsigned l = 0; l < lines; l++)
        h[(size_t)l * 32] = ((l + 1) % lines) * 32;
    CK(cudaMalloc((void **)&ring, n * sizeof *h));
    CK(cudaMalloc((void **)&out, sizeof *out));
    CK(cudaMemcpy(ring, h, n * sizeof *h, cudaMemcpyHostToDevice));
    chase<<<1, 1>>>(ring, steps, out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned r;
    CK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
    printf("rfdse-kernel chase checksum %.6e over 1 values\n", (double)r);
    free(h);
    return 0;
}
