/* Slurm time limits, checked before submission so a typo fails here in one line
 * instead of in sbatch (whose message names no file).  Accepted as Slurm documents
 * them for --time: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "submit_job.h"

#define FIELD_MAX 99999999L /* the leading field: about 190 years in minutes */

/* Up to three ':'-separated unsigned fields; returns their count, or -1. */
static int fields(const char *s, long f[3])
{
    int n = 0;
    for (;;) {
        if (n == 3 || !isdigit((unsigned char)*s))
            return -1;
        long v = 0;
        for (; isdigit((unsigned char)*s); s++)
            if ((v = v * 10 + (*s - '0')) > FIELD_MAX)
                return -1;
        f[n++] = v;
        if (*s == '\0')
            return n;
        if (*s++ != ':')
            return -1;
    }
}

/* Trailing fields are minutes or seconds below 60; hours after "D-" are below 24. */
static int below(const long *f, int from, int to, long limit)
{
    for (int i = from; i < to; i++)
        if (f[i] >= limit)
            return 0;
    return 1;
}

static int days_form(const char *s, long *seconds)
{
    const char *dash = strchr(s, '-');
    long d[3], f[3] = { 0, 0, 0 };
    if (dash == s || fields(dash + 1, f) < 0)
        return -1;
    char days[16];
    size_t len = (size_t)(dash - s);
    if (len >= sizeof days)
        return -1;
    memcpy(days, s, len);
    days[len] = '\0';
    if (fields(days, d) != 1 || f[0] >= 24 || !below(f, 1, 3, 60))
        return -1;
    *seconds = ((d[0] * 24 + f[0]) * 60 + f[1]) * 60 + f[2];
    return 0;
}

int dse__submit_time_parse(const char *s, long *seconds)
{
    long f[3];
    int n;
    if (!strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "INFINITE")) {
        *seconds = -1;
        return 0;
    }
    if (strchr(s, '-')) {
        if (days_form(s, seconds))
            return -1;
    } else if ((n = fields(s, f)) == 1) {
        *seconds = f[0] * 60;
    } else if (n == 2 && below(f, 1, 2, 60)) {
        *seconds = f[0] * 60 + f[1];
    } else if (n == 3 && below(f, 1, 3, 60)) {
        *seconds = (f[0] * 60 + f[1]) * 60 + f[2];
    } else {
        return -1;
    }
    return *seconds > 0 ? 0 : -1; /* Slurm reads 0 as "no limit": say UNLIMITED instead */
}
