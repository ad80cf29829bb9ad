/* Normal deviates from the Philox streams, and the error messages. */
#include <math.h>

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
