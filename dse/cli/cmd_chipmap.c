/* rfdse chipmap: one chip's per-cell Vth and Leff over one SM's register file, its
 * register / entry / sub-bank / bank delays, as HDF5 and as a PNG heat map (gnuplot).
 *
 * Serial HDF5 with default property lists: the library is the parallel build, but this
 * command never needs MPI.  Every output is written under a temporary name and renamed
 * into place only when complete, so an error never leaves a half-written file. */
#include <errno.h>
#include <getopt.h>
#include <hdf5.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ana.h"
#include "dse_cli.h"
#include "dse_sweep.h"
#include "dse_version.h"
#include "out.h"
#include "var.h"

static const char help[] =
    "Usage: rfdse chipmap [SWEEP.cfg] --chip K [--sm S] [-o MAP.h5] [--png MAP.png]\n"
    "\n"
    "Generates chip K of the sweep's population (its seed and variation knobs; the\n"
    "built-in default sweep without SWEEP.cfg) and writes SM S's register file cell by\n"
    "cell: Vth (V) and Leff (relative) maps, the systematic field, and the normalised\n"
    "delays of every register, entry, sub-bank and bank.  Chip K is the same chip\n"
    "`rfdse run` simulates.  Takes about a second per SM.\n"
    "\n"
    "HDF5 layout: /map/vth, /map/leff [banks*entries][bits]; /map/systematic [rows][cols];\n"
    "/delay/register [banks*entries][registers per entry]; /delay/entry [banks][entries];\n"
    "/delay/sub_bank [banks][sub_banks]; /delay/bank [banks]; root attributes chip, sm,\n"
    "seed, sm_frequency, within_sm_ratio, chip_frequency.\n"
    "\n"
    "Options:\n"
    "  --chip K        chip index in the population, 0 <= K < chips.count (required)\n"
    "  --sm S          SM of the chip (default 0)\n"
    "  -o, --output MAP.h5  HDF5 output (default chipmap_<K>_<S>.h5)\n"
    "  --png MAP.png   also draw the Vth map as a PNG: the figure `rfdse analyze MAP.h5\n"
    "                  --figures DIR` draws (one renderer; needs gnuplot)\n"
    "  -h, --help      show this help\n";

typedef struct opts {
    const char *path, *out, *png;
    long long chip;
    int sm;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    static const struct option longopts[] = {
        { "chip", required_argument, NULL, 'c' }, { "sm", required_argument, NULL, 's' },
        { "output", required_argument, NULL, 'o' }, { "png", required_argument, NULL, 'p' },
        { NULL, 0, NULL, 0 },
    };
    *o = (opts){ .chip = -1 };
    int c;
    long long v;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
        if ((c == 'c' || c == 's') && dse_cli_parse_ll(optarg, 0, UINT32_MAX, &v))
            return dse_cli_usage_error("chipmap", "option '%s' needs a non-negative integer, "
                                       "got '%s'", argv[optind - 1], optarg);
        switch (c) {
        case 'c': o->chip = v; break;
        case 's': o->sm = (int)v; break;
        case 'o': o->out = optarg; break;
        case 'p': o->png = optarg; break;
        case ':': return dse_cli_usage_error("chipmap", "option '%s' needs a value",
                                             argv[optind - 1]);
        default: return dse_cli_usage_error("chipmap", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        o->path = argv[optind++];
    if (optind < argc)
        return dse_cli_usage_error("chipmap", "expected one sweep file, got '%s' and '%s'",
                                   o->path, argv[optind]);
    if (o->chip < 0)
        return dse_cli_usage_error("chipmap", "--chip K is required");
    return 0;
}

/* ---- HDF5 ------------------------------------------------------------------------- */

static int attr_write(hid_t obj, const char *name, hid_t type, const void *value)
{
    hid_t sp = H5Screate(H5S_SCALAR), a = H5I_INVALID_HID;
    int rc = -1;
    if (sp < 0)
        return -1;
    if ((a = H5Acreate2(obj, name, type, sp, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        goto done;
    rc = H5Awrite(a, type, value) < 0 ? -1 : 0;
done:
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    return rc;
}

static int attr_str(hid_t obj, const char *name, const char *value)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return -1;
    int rc = H5Tset_size(t, strlen(value) + 1) < 0 ? -1 : attr_write(obj, name, t, value);
    H5Tclose(t);
    return rc;
}

static int attr_double(hid_t obj, const char *name, double v)
{
    return attr_write(obj, name, H5T_NATIVE_DOUBLE, &v);
}

/* A float64 dataset of rank 1 or 2 with its description and units. */
static int dataset(hid_t loc, const char *name, int rank, hsize_t d0, hsize_t d1,
                   const double *data, const char *desc, const char *units)
{
    hsize_t dims[2] = { d0, d1 };
    hid_t sp = H5Screate_simple(rank, dims, NULL), ds = H5I_INVALID_HID;
    int rc = -1;
    if (sp < 0)
        return -1;
    ds = H5Dcreate2(loc, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (ds < 0)
        goto done;
    if (H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        goto done;
    if (attr_str(ds, "description", desc) || attr_str(ds, "units", units))
        goto done;
    rc = 0;
done:
    if (ds >= 0)
        H5Dclose(ds);
    H5Sclose(sp);
    return rc;
}

typedef struct mapdata {
    const dse_sweep *s;
    const var_chip *c;
    long long chip;
    int sm;
    const double *vth, *leff;
} mapdata;

static int write_maps(hid_t f, const mapdata *m)
{
    const var_floorplan *fp = &m->s->var.floorplan;
    hsize_t rows = (hsize_t)fp->n_banks * fp->entries_per_bank, bits = fp->bits_per_entry;
    int gr, gc;
    const double *field = var_chip_field(m->c, m->sm, &gr, &gc);
    hid_t g = H5Gcreate2(f, "map", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = dataset(g, "vth", 2, rows, bits, m->vth,
                     "threshold voltage of every bit cell; row = bank * entries + entry, "
                     "col = bit (lane l holds bits 32 l .. 32 l + 31)", "V") ||
             dataset(g, "leff", 2, rows, bits, m->leff,
                     "effective channel length of every bit cell, same layout as vth",
                     "1 (relative to nominal Leff)") ||
             dataset(g, "systematic", 2, (hsize_t)gr, (hsize_t)gc, field,
                     "systematic field on its grid over the variation domain (one SM's "
                     "RF, or the die for domain = chip), standard-normal units: "
                     "Vth = vth0 (1 + sigma_sys_vth g + random)", "1 (standard deviations)");
    H5Gclose(g);
    return rc ? -1 : 0;
}

static int write_delays(hid_t f, const mapdata *m)
{
    const var_floorplan *fp = &m->s->var.floorplan;
    hsize_t B = fp->n_banks, E = fp->entries_per_bank, S = fp->sub_banks;
    hsize_t L = fp->bits_per_entry / 32;
    const char *unit = "1 (normalised to the delay of the same storage without variation)";
    hid_t g = H5Gcreate2(f, "delay", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = dataset(g, "register", 2, B * E, L, var_chip_register_delays(m->c, m->sm),
                     "delay of every 32-bit register (max over its cells); row = bank * "
                     "entries + entry, col = lane", unit) ||
             dataset(g, "entry", 2, B, E, var_chip_entry_delays(m->c, m->sm),
                     "delay of every register vector (max over its registers)", unit) ||
             dataset(g, "sub_bank", 2, B, S, var_chip_sub_bank_delays(m->c, m->sm),
                     "delay of every sub-bank (max over the registers it holds)", unit) ||
             dataset(g, "bank", 1, B, 0, var_chip_bank_delays(m->c, m->sm),
                     "delay of every physical bank (max over its sub-banks)", unit);
    H5Gclose(g);
    return rc ? -1 : 0;
}

static int write_h5(const char *path, const mapdata *m)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return -1;
    int64_t chip = m->chip, sm = m->sm;
    uint64_t seed = m->s->chips.seed;
    int rc = attr_write(f, "chip", H5T_NATIVE_INT64, &chip) ||
             attr_write(f, "sm", H5T_NATIVE_INT64, &sm) ||
             attr_write(f, "seed", H5T_NATIVE_UINT64, &seed) ||
             attr_str(f, "description", "one chip's register-file variation map (rfdse chipmap)") ||
             attr_str(f, "rfdse_version", DSE_VERSION) ||
             attr_str(f, "git_revision", DSE_GIT_REVISION) ||
             attr_double(f, "sm_frequency", var_chip_sm_frequency(m->c, m->sm)) ||
             attr_double(f, "within_sm_ratio", var_chip_within_sm_ratio(m->c, m->sm)) ||
             attr_double(f, "chip_frequency", var_chip_frequency(m->c)) ||
             write_maps(f, m) || write_delays(f, m);
    if (H5Fclose(f) < 0)
        rc = -1;
    return rc ? -1 : 0;
}

/* ---- PNG: analyze's renderer ---------------------------------------------------------- */

/* The map drawn by the one Vth-map renderer (analysis/fig_vth_map.c), so `rfdse chipmap
 * --png` and `rfdse analyze` on the chipmap file give the same figure.  Its messages are
 * kept: the caller says in one line that the PNG failed. */
static int write_png(const char *path, const mapdata *m)
{
    const var_floorplan *fp = &m->s->var.floorplan;
    ana_chipmap map = { .rows = fp->n_banks * fp->entries_per_bank, .cols = fp->bits_per_entry,
                        .vth = (double *)m->vth, .chip = m->chip, .sm = m->sm,
                        .n_banks = fp->n_banks, .sub_banks = fp->sub_banks,
                        .sub_delay = (double *)var_chip_sub_bank_delays(m->c, m->sm) };
    snprintf(map.path, sizeof map.path, "%s", path);
    snprintf(map.vth_units, sizeof map.vth_units, "V");
    char *msg = NULL;
    size_t len = 0;
    FILE *note = open_memstream(&msg, &len);
    int rc = note ? ana_vth_map_png(path, &map, note) : -1;
    if (note)
        fclose(note);
    free(msg);
    return rc ? -1 : 0;
}

/* ---- the command --------------------------------------------------------------------- */

/* Writes with `fn` to a temporary name next to `path`, renames on success; only a
 * regular file is ever replaced (out.h). */
static int write_atomic(const char *path, int (*fn)(const char *, const mapdata *),
                        const mapdata *m)
{
    char tmp[DSE_PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    unlink(tmp); /* never write through a link planted at the temporary name */
    if (fn(tmp, m) || out_target_kind(path) || rename(tmp, path)) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* Every output refused up front when it is not a regular file or too long. */
static int check_outputs(const char *out, const char *png)
{
    char err[DSE_PATH_MAX + 128];
    if (out_target_check(out, err, sizeof err) || (png && out_target_check(png, err, sizeof err))) {
        fprintf(stderr, "rfdse chipmap: %s\n", err);
        return -1;
    }
    return 0;
}

static int user_error(int err)
{
    return err == VAR_EINVAL || err == VAR_ENOTPD || err == VAR_EGEOMETRY ||
           err == VAR_ETOOBIG || err == VAR_EEMBED || err == VAR_ERANGE;
}

static int run(const opts *o, const dse_sweep *s)
{
    char def[64];
    snprintf(def, sizeof def, "chipmap_%lld_%d.h5", o->chip, o->sm);
    const char *out = o->out ? o->out : def;
    if (check_outputs(out, o->png))
        return DSE_EXIT_USAGE;
    if (o->chip >= s->chips.count)
        return dse_cli_usage_error("chipmap", "--chip %lld is outside the population of "
                                   "%d chips (chips.count)", o->chip, s->chips.count);
    if (o->sm >= s->var.floorplan.n_sms)
        return dse_cli_usage_error("chipmap", "--sm %d is outside the %d SMs of a chip",
                                   o->sm, s->var.floorplan.n_sms);
    int err, rc = DSE_EXIT_FAILURE;
    var_chip *c = var_chip_alloc_err(&s->var, &err);
    size_t ncell = (size_t)s->var.floorplan.n_banks * s->var.floorplan.entries_per_bank *
                   s->var.floorplan.bits_per_entry;
    double *vth = malloc(2 * ncell * sizeof(double));
    if (!c || !vth) {
        fprintf(stderr, "rfdse chipmap: %s\n", var_strerror(c ? VAR_ENOMEM : err));
        rc = c || !user_error(err) ? DSE_EXIT_FAILURE : DSE_EXIT_USAGE;
        goto done;
    }
    if ((err = var_chip_generate(c, &s->var, s->chips.seed, o->chip)) ||
        (err = var_chip_cells(c, &s->var, o->sm, vth, vth + ncell))) {
        fprintf(stderr, "rfdse chipmap: %s\n", var_strerror(err));
        goto done;
    }
    mapdata m = { s, c, o->chip, o->sm, vth, vth + ncell };
    if (write_atomic(out, write_h5, &m)) {
        fprintf(stderr, "rfdse chipmap: cannot write '%s'\n", out);
        goto done;
    }
    if (o->png && write_atomic(o->png, write_png, &m)) {
        fprintf(stderr, "rfdse chipmap: cannot draw '%s' with gnuplot (is gnuplot with the "
                        "pngcairo terminal installed?)\n", o->png);
        goto done;
    }
    printf("chip %lld SM %d: frequency %.4f (chip mean %.4f), within-SM ratio %.4f -> %s%s%s\n",
           o->chip, o->sm, var_chip_sm_frequency(c, o->sm), var_chip_frequency(c),
           var_chip_within_sm_ratio(c, o->sm), out, o->png ? ", " : "", o->png ? o->png : "");
    rc = DSE_EXIT_OK;
done:
    free(vth);
    var_chip_free(c);
    return rc;
}

int dse_cmd_chipmap(int argc, char **argv)
{
    if (dse_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return DSE_EXIT_OK;
    }
    opts o;
    if (parse(argc, argv, &o))
        return DSE_EXIT_USAGE;
    dse_sweep *s = o.path ? dse_sweep_load_file(o.path, stderr) : dse_sweep_load_default(stderr);
    if (!s)
        return DSE_EXIT_USAGE;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* our one-line messages replace HDF5's stack */
    int rc = run(&o, s);
    dse_sweep_free(s);
    return rc;
}
