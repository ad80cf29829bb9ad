/* "did you mean 'vth_sigma'?": the nearest known name to a mistyped one. */
#include <string.h>

#include "dse_sweep.h"

#define MAX_LEN 64 /* longer names are never a typo of a known one (all are shorter) */

/* Edit distance with insertions, deletions, substitutions and swaps of neighbours
 * (optimal string alignment): "vth_sigam" is one edit from "vth_sigma", as a reader
 * counts it.  Only answers exactly up to `cap`; anything larger reports cap + 1. */
static int distance(const char *a, size_t la, const char *b, size_t lb, int cap)
{
    if (la > MAX_LEN || lb > MAX_LEN || (la > lb ? la - lb : lb - la) > (size_t)cap)
        return cap + 1;
    int d[MAX_LEN + 1][MAX_LEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            int m = sub < del ? sub : del;
            m = m < ins ? m : ins;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < m)
                m = d[i - 2][j - 2] + 1;
            d[i][j] = m;
        }
    return d[la][lb] <= cap ? d[la][lb] : cap + 1;
}

void dse_suggest_init(dse_suggest *s, const char *got, size_t len)
{
    *s = (dse_suggest){ .got = got, .len = len, .best = NULL, .dist = DSE_SUGGEST_MAX + 1 };
}

void dse_suggest_offer(dse_suggest *s, const char *name)
{
    int d = distance(s->got, s->len, name, strlen(name), DSE_SUGGEST_MAX);
    if (d > 0 && d < s->dist) /* the first of equally near names wins */
        s->best = name, s->dist = d;
}

const char *dse_suggest_format(const dse_suggest *s, char *buf, size_t n)
{
    if (!n)
        return "";
    buf[0] = '\0';
    if (s->best)
        snprintf(buf, n, ", did you mean '%s'?", s->best);
    return buf;
}
