/* One SM's register-file Vth map (from `rfdse chipmap`) as an image: the one renderer,
 * used by `rfdse analyze` on a chipmap file and by `rfdse chipmap --png`.  Large maps are
 * shown one cell in k x k (every k-th row and column, not block means, so the random
 * component keeps its look), k the smallest keeping each side within MAX_SIDE. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "ana_internal.h"

enum { MAX_SIDE = 400 };

int ana_fig_vth_map(const char *dir, const char *prefix, const ana_chipmap *m, FILE *note)
{
    char path[OUT_PATH_MAX + 1];
    ana__figure_path(dir, prefix, ANA_FIG_vth_map, path, sizeof path);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(note, ANA__PREFIX "%s: cannot create the directory: %s\n", dir, strerror(errno));
        return ANA_EPLOT;
    }
    return ana_vth_map_png(path, m, note);
}

int ana_vth_map_png(const char *path, const ana_chipmap *m, FILE *note)
{
    int side = m->rows > m->cols ? m->rows : m->cols;
    int k = (side + MAX_SIDE - 1) / MAX_SIDE;
    double sum = 0, sum2 = 0;
    size_t n = (size_t)m->rows * (size_t)m->cols;
    for (size_t i = 0; i < n; i++) {
        sum += m->vth[i];
        sum2 += m->vth[i] * m->vth[i];
    }
    double mean = sum / (double)n, sd = sqrt(fmax(0.0, sum2 / (double)n - mean * mean));
    ana__plot p;
    int rc = ana__plot_open_at(&p, path, ANA_FIG_vth_map, note);
    if (rc)
        return rc;
    fputs("$map << EOD\n", p.gp);
    for (int r = 0; r < m->rows; r += k) {
        for (int c = 0; c < m->cols; c += k)
            fprintf(p.gp, "%d %d %.6g\n", c, r, m->vth[(size_t)r * (size_t)m->cols + (size_t)c]);
        fputc('\n', p.gp);
    }
    fputs("EOD\n", p.gp);
    char who[96] = "", shown[96] = "";
    if (k > 1)
        snprintf(shown, sizeof shown, "; one cell of every %d x %d block shown", k, k);
    if (m->chip >= 0)
        snprintf(who, sizeof who, ", chip %ld", m->chip);
    if (m->sm >= 0)
        snprintf(who + strlen(who), sizeof who - strlen(who), ", SM %ld", m->sm);
    fprintf(p.gp,
            "set title \"{/:Bold=16 Register-file V_{th} map%s}\\n{/=12 %d x %d cells; mean %.4g "
            "%s, std %.3g %s%s}\"\n"
            "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', "
            "4 '#fde725')\n"
            "set cblabel \"V_{th} (%s)\"\nset xlabel 'column (bit cell)'\n"
            "set ylabel 'row (register entry)'\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
            "set size ratio %.6g\nset tics out\nunset grid\nset border 15\n"
            "plot $map using 1:2:3 with image\n",
            who, m->rows, m->cols, mean, m->vth_units, sd, m->vth_units,
            shown, m->vth_units,
            m->cols - 1, m->rows - 1, (double)m->rows / m->cols);
    return ana__plot_close(&p, note);
}
