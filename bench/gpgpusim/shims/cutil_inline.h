/* cutil_inline.h - a minimal stand-in for the CUDA SDK 2.x cutil helpers, written for
 * bench/gpgpusim/measure (ours, not NVIDIA's): just what the SDK's scanLargeArray sample
 * calls (timers, command-line flags, error checks), so it builds with CUDA 11.8. */
#ifndef RFDSE_CUTIL_SHIM_H
#define RFDSE_CUTIL_SHIM_H
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUTBoolean;
#define CUTTrue 1
#define CUTFalse 0

#define cutilSafeCall(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
    exit(1); } } while (0)
#define cutilCheckMsg(msg) cutilSafeCall(cudaGetLastError())
#define cutilCheckError(x) (void)(x)
#define CUT_CHECK_ERROR(msg) cutilCheckMsg(msg)
#define cutilExit(argc, argv) (void)0
#define cutilDeviceInit(argc, argv) cudaSetDevice(0)
static inline int cutGetMaxGflopsDeviceId(void) { return 0; }

static inline CUTBoolean cutCheckCmdLineFlag(int argc, const char **argv, const char *flag)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        while (*a == '-') a++;
        if (!strncmp(a, flag, strlen(flag)) && (a[strlen(flag)] == 0 || a[strlen(flag)] == '='))
            return CUTTrue;
    }
    return CUTFalse;
}
static inline CUTBoolean cutGetCmdLineArgumenti(int argc, const char **argv, const char *name, int *v)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        while (*a == '-') a++;
        size_t n = strlen(name);
        if (!strncmp(a, name, n) && a[n] == '=') { *v = atoi(a + n + 1); return CUTTrue; }
    }
    return CUTFalse;
}

/* timers: wall-clock-free, they only have to exist */
static inline CUTBoolean cutCreateTimer(unsigned int *t) { *t = 0; return CUTTrue; }
static inline CUTBoolean cutDeleteTimer(unsigned int t) { (void)t; return CUTTrue; }
static inline CUTBoolean cutStartTimer(unsigned int t) { (void)t; return CUTTrue; }
static inline CUTBoolean cutStopTimer(unsigned int t) { (void)t; return CUTTrue; }
static inline CUTBoolean cutResetTimer(unsigned int t) { (void)t; return CUTTrue; }
static inline float cutGetTimerValue(unsigned int t) { (void)t; return 1.0f; }

static inline CUTBoolean cutComparef(const float *ref, const float *data, unsigned int len)
{
    for (unsigned int i = 0; i < len; i++)
        if (fabsf(ref[i] - data[i]) > 1e-3f * fmaxf(1.0f, fabsf(ref[i]))) return CUTFalse;
    return CUTTrue;
}
static inline CUTBoolean cutWriteFilef(const char *f, const float *d, unsigned int len, float eps)
{
    (void)eps;
    FILE *fp = fopen(f, "w");
    if (!fp) return CUTFalse;
    for (unsigned int i = 0; i < len; i++) fprintf(fp, "%.6f\n", d[i]);
    fclose(fp);
    return CUTTrue;
}
#endif
