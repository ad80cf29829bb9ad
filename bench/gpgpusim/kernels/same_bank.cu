/* same_bank.cu - FMAs whose register sources sit in chosen register banks.
 * GPGPU-Sim (PTX mode) maps register %xN of warp w to bank (N + w) mod 16, where N is
 * the number in the PTX register's name, so the kernels name their registers in inline
 * PTX: four independent accumulators per thread, 16 FMAs per loop iteration, and
 *   same_bank 1: the three sources of every FMA in three different banks (control)
 *   same_bank 2: two sources in one bank, the accumulator in another
 *   same_bank 3: all three sources in one bank
 * The registers are declared at function scope, not in a { } block: GPGPU-Sim cannot
 * place a label inside a nested block (assertion in symbol_table::set_label_address).
 * Usage: same_bank MODE [GRID BLOCK ITERS]   default 90 256 32
 * Written for rfdse (bench/gpgpusim). */
#include "common.h"

/* fma d, s1, s2, d for the four groups g = 0..3, register numbers base + g. */
#define FMA_G(D, S1, S2, g) "fma.rn.f32 %%q" #D #g ", %%q" #S1 #g ", %%q" #S2 #g ", %%q" #D #g ";\n\t"
#define FMA4(D, S1, S2) FMA_G(D, S1, S2, 0) FMA_G(D, S1, S2, 1) FMA_G(D, S1, S2, 2) FMA_G(D, S1, S2, 3)
#define FMA16(D, S1, S2) FMA4(D, S1, S2) FMA4(D, S1, S2) FMA4(D, S1, S2) FMA4(D, S1, S2)
#define DECL(D, S1, S2)                                                              \
    ".reg .f32 %%q" #D "0, %%q" #D "1, %%q" #D "2, %%q" #D "3;\n\t"                  \
    ".reg .f32 %%q" #S1 "0, %%q" #S1 "1, %%q" #S1 "2, %%q" #S1 "3;\n\t"              \
    ".reg .f32 %%q" #S2 "0, %%q" #S2 "1, %%q" #S2 "2, %%q" #S2 "3;\n\t"
#define MOV4(R, src) "mov.f32 %%q" #R "0, " src ";\n\tmov.f32 %%q" #R "1, " src ";\n\t" \
    "mov.f32 %%q" #R "2, " src ";\n\tmov.f32 %%q" #R "3, " src ";\n\t"
/* Register %q<base><g> has number base * 10 + g (its digits); its bank is that mod 16. */
#define KERNEL(NAME, D, S1, S2)                                                      \
    __global__ void NAME(const float *in, float *out, int iters)                     \
    {                                                                                \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                               \
        float a = in[i], r;                                                          \
        asm volatile(DECL(D, S1, S2)                                         \
                     ".reg .u32 %%qk9;\n\t.reg .pred %%qp9;\n\t"                     \
                     MOV4(D, "%1") MOV4(S1, "0f3F7FBE77") MOV4(S2, "0f3A83126F")     \
                     "mov.u32 %%qk9, %2;\n"                                          \
                     "RFDSE_LOOP:\n\t" FMA16(D, S1, S2)                              \
                     "sub.u32 %%qk9, %%qk9, 1;\n\t"                                  \
                     "setp.ne.u32 %%qp9, %%qk9, 0;\n\t"                              \
                     "@%%qp9 bra RFDSE_LOOP;\n\t"                                    \
                     "add.f32 %0, %%q" #D "0, %%q" #D "1;\n\t"                       \
                     "add.f32 %0, %0, %%q" #D "2;\n\t"                               \
                     "add.f32 %0, %0, %%q" #D "3;"                              \
                     : "=f"(r) : "f"(a), "r"(iters));                                \
        out[i] = r;                                                                  \
    }

/* Banks of (D, S1, S2) for group g, warp 0 (warp w adds w):
 *  mode 1: (8+g, g, 4+g)   mode 2: (8+g, g, g)   mode 3: (g, g, g) */
/* mode 1: D=20 (200+g: bank 8+g), S1=32 (320+g: bank g), S2=42 (420+g: bank 4+g) */
KERNEL(same_bank_1, 20, 32, 42)
/* mode 2: D=20 (bank 8+g), S1=32 (bank g), S2=48 (480+g: bank g) */
KERNEL(same_bank_2, 20, 32, 48)
/* mode 3: D=16 (160+g: bank g), S1=32 (bank g), S2=48 (bank g) */
KERNEL(same_bank_3, 16, 32, 48)

int main(int argc, char **argv)
{
    int mode = arg_int(argc, argv, 1, 3);
    int grid = arg_int(argc, argv, 2, 90), block = arg_int(argc, argv, 3, 256);
    int iters = arg_int(argc, argv, 4, 32);
    size_t n = (size_t)grid * block;
    float *in = dev_filled(n, 0.5f), *out = dev_filled(n, 0.0f);
    if (mode == 1)
        same_bank_1<<<grid, block>>>(in, out, iters);
    else if (mode == 2)
        same_bank_2<<<grid, block>>>(in, out, iters);
    else
        same_bank_3<<<grid, block>>>(in, out, iters);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    print_checksum(mode == 1 ? "same_bank_1" : mode == 2 ? "same_bank_2" : "same_bank_3", out, n);
    return 0;
}
