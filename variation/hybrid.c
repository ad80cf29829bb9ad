/* Hybrid virtual banks: see var_hybrid.h. */
#include "var_hybrid.h"

static void set_part(int16_t sub_id[][VAR_MAX_SUBS_PER_BANK],
                     uint8_t sub_slow[][VAR_MAX_SUBS_PER_BANK], int v, int part, int16_t id,
                     int slow)
{
    sub_id[v][part] = id;
    sub_slow[v][part] = (uint8_t)slow;
}

int var_hybrid_banks(const int16_t *sorted, int n_subs, int n_fast, int n_hybrid,
                     int16_t sub_id[][VAR_MAX_SUBS_PER_BANK],
                     uint8_t sub_slow[][VAR_MAX_SUBS_PER_BANK])
{
    int n_slow = n_subs - n_fast, H = n_hybrid;
    if (n_subs % 2 || n_fast < 0 || n_slow < 0 || H < 0 || H > n_fast || H > n_slow ||
        (n_fast - H) % 2)
        return -1;
    int v = 0, pure_fast = n_fast - H;
    for (int i = 0; i < pure_fast; i += 2, v++) {
        set_part(sub_id, sub_slow, v, 0, sorted[i], 0);
        set_part(sub_id, sub_slow, v, 1, sorted[i + 1], 0);
    }
    for (int i = 0; i < H; i++, v++) {
        set_part(sub_id, sub_slow, v, 0, sorted[pure_fast + i], 0);
        set_part(sub_id, sub_slow, v, 1, sorted[n_fast + i], 1);
    }
    for (int i = n_fast + H; i < n_subs; i += 2, v++) {
        set_part(sub_id, sub_slow, v, 0, sorted[i], 1);
        set_part(sub_id, sub_slow, v, 1, sorted[i + 1], 1);
    }
    return v;
}
