/* Reading the register-file map written by `rfdse chipmap`, and telling file kinds apart. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ana_internal.h"

int ana_file_kind(const char *path)
{
    int kind = ANA_FILE_NONE;
    hid_t f = ana_h5_open(path, 0);
    if (f < 0)
        return kind;
    if (ana_h5_exists(f, "/map/vth"))
        kind = ANA_FILE_CHIPMAP;
    else if (H5Aexists_by_name(f, "/", "rfdse_version", H5P_DEFAULT) > 0)
        kind = ANA_FILE_RESULTS;
    H5Fclose(f);
    return kind;
}

void ana_chipmap_free(ana_chipmap *m)
{
    if (!m)
        return;
    free(m->vth);
    free(m->sub_delay);
    free(m);
}

static long attr_long(hid_t f, const char *name)
{
    double v;
    return ana_h5_attr_double(f, "/", name, &v) == ANA_EOK && isfinite(v) ? (long)v : -1;
}

int ana_chipmap_load(const char *path, ana_chipmap **out, FILE *err)
{
    int rc = ANA_ECORRUPT, rank;
    hsize_t d[8];
    hid_t f = H5I_INVALID_HID;
    ana_chipmap *m = calloc(1, sizeof *m);
    *out = NULL;
    if (!m)
        return ANA_ENOMEM;
    snprintf(m->path, sizeof m->path, "%s", path);
    if (access(path, R_OK) != 0) {
        fprintf(err, ANA__PREFIX "%s: cannot open: %s\n", path, strerror(errno));
        rc = ANA_ENOFILE;
        goto done;
    }
    if ((f = ana_h5_open(path, 0)) < 0 || !ana_h5_exists(f, "/map/vth")) {
        fprintf(err, ANA__PREFIX "%s: no /map/vth: not an rfdse chipmap file\n", path);
        rc = ANA_ENOTRFDSE;
        goto done;
    }
    if (ana_h5_shape(f, "/map/vth", &rank, d) || rank != 2 || d[0] == 0 || d[1] == 0) {
        fprintf(err, ANA__PREFIX "%s: /map/vth is not a non-empty [row][col] array\n", path);
        goto done;
    }
    m->rows = (int)d[0];
    m->cols = (int)d[1];
    if (!(m->vth = malloc(d[0] * d[1] * sizeof *m->vth))) {
        rc = ANA_ENOMEM;
        goto done;
    }
    if (ana_h5_read_double(f, "/map/vth", m->vth)) {
        fprintf(err, ANA__PREFIX "%s: cannot read /map/vth\n", path);
        goto done;
    }
    if (ana_h5_attr_string(f, "/map/vth", "units", m->vth_units, sizeof m->vth_units))
        snprintf(m->vth_units, sizeof m->vth_units, "V");
    /* the sub-bank delays, when they fit the map's rows and columns */
    if (ana_h5_exists(f, "/delay/sub_bank") && !ana_h5_shape(f, "/delay/sub_bank", &rank, d) &&
        rank == 2 && d[0] > 0 && d[1] > 0 && d[0] <= (hsize_t)m->rows && d[1] <= (hsize_t)m->cols &&
        m->rows % (int)d[0] == 0 && m->cols % (int)d[1] == 0 &&
        (m->sub_delay = malloc(d[0] * d[1] * sizeof *m->sub_delay))) {
        if (ana_h5_read_double(f, "/delay/sub_bank", m->sub_delay)) {
            free(m->sub_delay);
            m->sub_delay = NULL;
        } else {
            m->n_banks = (int)d[0];
            m->sub_banks = (int)d[1];
        }
    }
    m->chip = attr_long(f, "chip");
    m->sm = attr_long(f, "sm");
    rc = ANA_EOK;
    *out = m;
    m = NULL;
done:
    if (f >= 0)
        H5Fclose(f);
    ana_chipmap_free(m);
    return rc;
}
