/* The results file's layout (ana_layout.h) as the readers use it: a dataset's expected
 * dimensions from the file's axes, and a metric's path. */
#include <stdio.h>

#include "ana_internal.h"

void ana__dim_sizes(const ana_results *r, long size[ANA_N_DIMS])
{
    for (int k = 0; k < ANA_N_DIMS; k++)
        size[k] = 0;
    size[ANA_DIM_chip] = r->n_chip;
    size[ANA_DIM_technique] = r->n_tech;
    size[ANA_DIM_benchmark] = r->n_bench;
    size[ANA_DIM_year] = r->n_year;
    if (r->trace) {
        size[ANA_DIM_trace] = r->trace->n_trace;
        size[ANA_DIM_sub_bank] = r->trace->n_sub_bank;
    }
}

int ana__shape_is(hid_t file, const char *path, ana_shape s, const long size[ANA_N_DIMS])
{
    ana_dim dim[5];
    int rank = ana_shape_dims(s, dim), r;
    hsize_t d[8];
    if (ana_h5_shape(file, path, &r, d) || r != rank)
        return 0;
    for (int i = 0; i < rank; i++)
        if ((long)d[i] != size[dim[i]])
            return 0;
    return 1;
}

void ana__metric_path(ana_metric m, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", RFDSE_FILE_RESULTS, ana_metric_name(m));
}
