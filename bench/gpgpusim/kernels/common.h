/* common.h - host-side helpers shared by the rfdse GPGPU-Sim micro-kernels.
 * Each kernel program allocates small device arrays, launches one kernel once,
 * copies the result back and prints a checksum (so the work cannot be optimised
 * away and a broken simulation is visible).  Written for rfdse (bench/gpgpusim). */
#ifndef RFDSE_GPGPUSIM_COMMON_H
#define RFDSE_GPGPUSIM_COMMON_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess) {                                              \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                \
                    cudaGetErrorString(e_));                                  \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

static float *dev_filled(size_t n, float v)
{
    float *h = (float *)malloc(n * sizeof *h), *d;
    for (size_t i = 0; i < n; i++)
        h[i] = v + (float)(i % 7) * 0.001f;
    CK(cudaMalloc((void **)&d, n * sizeof *d));
    CK(cudaMemcpy(d, h, n * sizeof *d, cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static void print_checksum(const char *name, const float *d, size_t n)
{
    float *h = (float *)malloc(n * sizeof *h);
    CK(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost));
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += h[i];
    printf("rfdse-kernel %s checksum %.6e over %zu values\n", name, s, n);
    free(h);
}

static int arg_int(int argc, char **argv, int i, int def)
{
    return argc > i ? atoi(argv[i]) : def;
}
#endif
