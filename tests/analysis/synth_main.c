/* ana_synth: writes synthetic files for the shell tests and for looking at figures.
 *   ana_synth results OUT.h5 [CHIPS [SIGMA_RATIO]] [--no-benchmark-axis] [--no-guardband]
 *   ana_synth chipmap OUT.h5 [ROWS COLS]
 *   ana_synth foreign OUT.h5 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ana_synth results|chipmap|foreign OUT.h5 [...]\n");
        return 2;
    }
    const char *kind = argv[1], *out = argv[2];
    if (!strcmp(kind, "foreign"))
        return synth_foreign(out) ? 1 : 0;
    if (!strcmp(kind, "chipmap"))
        return synth_chipmap(out, argc > 4 ? atoi(argv[3]) : 1024, argc > 4 ? atoi(argv[4]) : 512,
                             7) ? 1 : 0;
    int chips = 100, pos = 0;
    double ratio = 1.0;
    int no_bench = 0, no_gb = 0;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--no-benchmark-axis"))
            no_bench = 1;
        else if (!strcmp(argv[i], "--no-guardband"))
            no_gb = 1;
        else if (pos++ == 0)
            chips = atoi(argv[i]);
        else
            ratio = atof(argv[i]);
    }
    synth_data d;
    synth_storage *st = synth_realistic(&d, chips, ratio, 12345 + (uint64_t)(ratio * 1000));
    if (no_bench)
        d.bench = NULL;
    if (no_gb) {
        d.metric[ANA_M_guardband] = NULL;
        d.metric[ANA_M_guardband_raw] = NULL;
        d.n_trace = 0;
    }
    int rc = synth_write(out, &d);
    synth_free(st);
    return rc ? 1 : 0;
}
