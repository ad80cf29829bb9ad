/* Normal deviates from the Philox streams, and the error messages. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "var_internal.h"

void var__normal2(var__stream s, uint32_t slot, uint32_t index, double z[2])
{
    double u[2];
    var__uniform2(s, slot, index, u);
    double r = sqrt(-2.0 * log(u[0]));
    double a = 6.283185307179586 * u[1];
    z[0] = r * cos(a);
    z[1] = r * sin(a);
}

/* Marsaglia's polar method on the 32-bit words of one block (two candidate pairs, and
 * more blocks at slot + 2^16 ... if both are rejected, P = 0.046): about half the cost of
 * Box-Muller per pair, no sincos.  Used for the field, where 2^-32 resolution is ample
 * (the field's normals never reach the tails the register maxima need). */
void var__normal2_fast(var__stream s, uint32_t index, double z[2])
{
    philox4x32_key_t key = { { (uint32_t)s.seed, (uint32_t)(s.seed >> 32) } };
    for (uint32_t slot = 0;; slot += 1u << 16) {
        philox4x32_ctr_t c = { { index, slot, s.purpose_sm, s.chip } };
        philox4x32_ctr_t r = philox4x32(c, key);
        for (int h = 0; h < 4; h += 2) {
            double x = ((double)r.v[h] + 0.5) * (2.0 / 4294967296.0) - 1.0;
            double y = ((double)r.v[h + 1] + 0.5) * (2.0 / 4294967296.0) - 1.0;
            double q = x * x + y * y;
            if (q < 1.0 && q > 0.0) {
                double f = sqrt(-2.0 * log(q) / q);
                z[0] = x * f, z[1] = y * f;
                return;
            }
        }
    }
}

const char *var_strerror(int err)
{
    switch (err) {
    case VAR_OK:
        return "success";
#define VAR__MSG(name, code, msg) case VAR_##name: return msg;
        VAR_ERRNO_MAP(VAR__MSG)
#undef VAR__MSG
    }
    return "unknown variation error";
}

void var__zig_init(var__zig *z)
{
    const double m1 = 2147483648.0, vn = 9.91256303526217e-3;
    double dn = 3.442619855899, tn = dn, q = vn / exp(-0.5 * dn * dn);
    z->kn[0] = (uint32_t)((dn / q) * m1);
    z->kn[1] = 0;
    z->wn[0] = q / m1;
    z->wn[127] = dn / m1;
    z->fn[0] = 1.0;
    z->fn[127] = exp(-0.5 * dn * dn);
    for (int i = 126; i >= 1; i--) {
        dn = sqrt(-2.0 * log(vn / dn + exp(-0.5 * dn * dn)));
        z->kn[i + 1] = (uint32_t)((dn / tn) * m1);
        tn = dn;
        z->fn[i] = exp(-0.5 * dn * dn);
        z->wn[i] = dn / m1;
    }
}

/* Words of one index: the block at slot 0, then slot 1, ... */
typedef struct words {
    var__stream s;
    uint32_t index, slot, w[4];
    int next;
} words;

static uint32_t next_word(words *ws)
{
    if (ws->next == 4) {
        philox4x32_key_t key = { { (uint32_t)ws->s.seed, (uint32_t)(ws->s.seed >> 32) } };
        philox4x32_ctr_t c = { { ws->index, ws->slot++, ws->s.purpose_sm, ws->s.chip } };
        philox4x32_ctr_t r = philox4x32(c, key);
        memcpy(ws->w, r.v, sizeof ws->w);
        ws->next = 0;
    }
    return ws->w[ws->next++];
}

static double word_uniform(words *ws) { return (next_word(ws) + 0.5) * (1.0 / 4294967296.0); }

/* The slow path of one draw: wedges and the tail (Marsaglia & Tsang's nfix). */
static double zig_fix(const var__zig *z, words *ws, int32_t hz, int iz)
{
    const double r = 3.442619855899;
    for (;;) {
        double x = hz * z->wn[iz];
        if (iz == 0) {
            double y;
            do {
                x = -log(word_uniform(ws)) / r;
                y = -log(word_uniform(ws));
            } while (y + y < x * x);
            return hz > 0 ? r + x : -r - x;
        }
        if (z->fn[iz] + word_uniform(ws) * (z->fn[iz - 1] - z->fn[iz]) < exp(-0.5 * x * x))
            return x;
        uint32_t u = next_word(ws);
        iz = (int)(u & 127);
        hz = (int32_t)(u & ~127u);
        uint32_t mag = hz < 0 ? 0u - (uint32_t)hz : (uint32_t)hz; /* abs(INT32_MIN) is UB */
        if (mag < z->kn[iz])
            return hz * z->wn[iz];
    }
}

void var__zig_normal4(const var__zig *z, var__stream s, uint32_t index, double out[4])
{
    philox4x32_ctr_t r = var__block(s, 0, index);
    unsigned slow = var__zig_fast4(z, r, out);
    if (!slow) /* 95 % of calls */
        return;
    words ws = { s, index, 1, { 0 }, 4 }; /* slow paths draw from slot 1 on */
    for (int i = 0; i < 4; i++)
        if (slow & (1u << i))
            out[i] = zig_fix(z, &ws, (int32_t)(r.v[i] & ~127u), (int)(r.v[i] & 127));
}
