/* Cross-knob checks of the SM configuration and workload profiles. */
#include <stdarg.h>
#include <stdio.h>

#include "sm_params.h"

static int reject(char *key, size_t key_len, const char *k, char *msg, size_t msg_len,
                  const char *fmt, ...)
{
    va_list ap;
    snprintf(key, key_len, "%s", k);
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
    return -1;
}

int sm_config_check(const sm_config *c, char *key, size_t kl, char *msg, size_t ml)
{
    if (c->max_warps * 32 < c->max_threads)
        return reject(key, kl, "max_threads", msg, ml,
                      "must be at most 32 x max_warps (%d), got %d", c->max_warps * 32,
                      c->max_threads);
    if (c->max_warps % c->n_schedulers)
        return reject(key, kl, "n_schedulers", msg, ml, "must divide max_warps (%d), got %d",
                      c->max_warps, c->n_schedulers);
    return 0;
}

int sm_profile_check(const sm_profile *p, const sm_config *c, char *key, size_t kl, char *msg,
                     size_t ml)
{
    if (p->block_threads > c->max_threads)
        return reject(key, kl, "block_threads", msg, ml,
                      "a block of %d threads does not fit an SM of %d threads", p->block_threads,
                      c->max_threads);
    int warps = (p->block_threads + 31) / 32;
    if ((long)warps * 32 * p->regs_per_thread > c->n_registers)
        return reject(key, kl, "regs_per_thread", msg, ml,
                      "a block needs %ld registers, the SM has %d",
                      (long)warps * 32 * p->regs_per_thread, c->n_registers);
    if (p->reg_span && p->reg_span < p->regs_per_thread)
        return reject(key, kl, "reg_span", msg, ml,
                      "must be 0 or at least regs_per_thread (%d), got %d", p->regs_per_thread,
                      p->reg_span);
    if (p->frac_sfu + p->frac_mem + p->frac_shared > 1.0)
        return reject(key, kl, "frac_mem", msg, ml,
                      "frac_sfu + frac_mem + frac_shared must be at most 1, got %g",
                      p->frac_sfu + p->frac_mem + p->frac_shared);
    if (p->frac_mad + p->frac_div > 1.0)
        return reject(key, kl, "frac_div", msg, ml, "frac_mad + frac_div must be at most 1, got %g",
                      p->frac_mad + p->frac_div);
    double narrow = p->width_0 + p->width_1 + p->width_2 + p->width_3;
    if (narrow > 1.0 + 1e-9)
        return reject(key, kl, "width_3", msg, ml,
                      "width_0 + width_1 + width_2 + width_3 must be at most 1, got %g", narrow);
    if (p->frac_fp64 > p->frac_fp)
        return reject(key, kl, "frac_fp64", msg, ml,
                      "the double-precision share is part of frac_fp (%g), got %g", p->frac_fp,
                      p->frac_fp64);
    if (p->frac_sfu + p->frac_mem + p->frac_shared + p->frac_barrier > 1.0)
        return reject(key, kl, "frac_barrier", msg, ml,
                      "frac_sfu + frac_mem + frac_shared + frac_barrier must be at most 1, got %g",
                      p->frac_sfu + p->frac_mem + p->frac_shared + p->frac_barrier);
    if (p->frac_const > 1.0 - p->frac_sfu - p->frac_mem - p->frac_shared - p->frac_barrier + 1e-9)
        return reject(key, kl, "frac_const", msg, ml,
                      "constant loads are part of the ALU share (%g), got %g",
                      1.0 - p->frac_sfu - p->frac_mem - p->frac_shared - p->frac_barrier,
                      p->frac_const);
    if (p->load_use_distance > 0 && p->load_use_distance < 1)
        return reject(key, kl, "load_use_distance", msg, ml,
                      "must be 0 (not placed) or at least 1 instruction, got %g",
                      p->load_use_distance);
    if (p->shared_use_distance > 0 && p->shared_use_distance < 1)
        return reject(key, kl, "shared_use_distance", msg, ml,
                      "must be 0 (not placed) or at least 1 instruction, got %g",
                      p->shared_use_distance);
    if (p->l1_pending_rate > p->l1_hit_rate + 1e-9)
        return reject(key, kl, "l1_pending_rate", msg, ml,
                      "the pending hits are part of l1_hit_rate (%g), got %g", p->l1_hit_rate,
                      p->l1_pending_rate);
    if (c->smem_size > 0 && p->smem_bytes > c->smem_size)
        return reject(key, kl, "smem_bytes", msg, ml,
                      "a block's shared memory (%d bytes) does not fit the SM's %d bytes",
                      p->smem_bytes, c->smem_size);
    if (p->n_code_walk % 3)
        return reject(key, kl, "code_walk", msg, ml,
                      "must be triples (start, length, repeat), got %d entries", p->n_code_walk);
    long long walk_len = 0;
    for (int r = 0; r + 2 < p->n_code_walk; r += 3) {
        const int *t = &p->code_walk[r];
        if (t[1] < 1 || t[2] < 1)
            return reject(key, kl, "code_walk", msg, ml,
                          "triple %d: length and repeat must be at least 1, got %d and %d",
                          r / 3 + 1, t[1], t[2]);
        if (p->code_insts > 0 && (long long)t[0] + t[1] > p->code_insts)
            return reject(key, kl, "code_walk", msg, ml,
                          "triple %d: instructions %d..%d beyond code_insts (%d)", r / 3 + 1,
                          t[0], t[0] + t[1] - 1, p->code_insts);
        walk_len += (long long)t[1] * t[2];
    }
    if (walk_len > 1000000000)
        return reject(key, kl, "code_walk", msg, ml,
                      "the walk must be at most 1e9 instructions, got %lld", walk_len);
    if (c->memory == SM_MEMORY_PARTITIONS && c->mem_channels * c->mem_subparts > 256)
        return reject(key, kl, "mem_subparts", msg, ml,
                      "mem_channels x mem_subparts must be at most 256, got %d",
                      c->mem_channels * c->mem_subparts);
    return 0;
}
