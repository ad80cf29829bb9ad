/* Error messages and the name tables generated from ana.h's X-macro lists. */
#include "ana.h"

static const char *const messages[] = {
#define ANA__ERR(name, msg) msg,
    ANA_ERRNO_MAP(ANA__ERR)
#undef ANA__ERR
};

const char *ana_strerror(int err)
{
    if (err < 0 || (size_t)err >= sizeof messages / sizeof messages[0])
        return "unknown error";
    return messages[err];
}

int ana_err_is_input(int err) { return err == ANA_ENOFILE || err == ANA_ENOTRFDSE || err == ANA_ECORRUPT; }

static const struct {
    const char *name, *doc, *nattr, *nval;
    ana_axis axis;
} metrics[] = {
#define ANA__M(name, axis, nattr, nval, doc, ...) { #name, doc, #nattr, nval, ANA_AXIS_##axis },
#define ANA_AXIS_year ANA_AXIS_YEAR
#define ANA_AXIS_benchmark ANA_AXIS_BENCHMARK
    ANA_METRIC_MAP(ANA__M)
#undef ANA__M
};

const char *ana_metric_name(ana_metric m) { return metrics[m].name; }
const char *ana_metric_doc(ana_metric m) { return metrics[m].doc; }
ana_axis ana_metric_axis(ana_metric m) { return metrics[m].axis; }
const char *ana_metric_norm_attr(ana_metric m) { return metrics[m].nattr; }
const char *ana_metric_norm(ana_metric m) { return metrics[m].nval; }

static const ana_figure_info figures[] = {
#define ANA__F(name, w, h, doc, sweep) { #name, w, h, doc, sweep },
    ANA_FIGURE_MAP(ANA__F)
#undef ANA__F
};

const ana_figure_info *ana_figure_get(ana_figure f) { return &figures[f]; }
