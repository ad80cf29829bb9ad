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

enum { N_SLOWEST = 3 };

/* The N_SLOWEST slowest sub-banks, slowest first, into at[] (indices b * sub_banks + p). */
static int slowest(const ana_chipmap *m, int *at)
{
    int n = m->n_banks * m->sub_banks, k = 0;
    for (; k < N_SLOWEST && k < n; k++) {
        int best = -1;
        for (int i = 0; i < n; i++) {
            int taken = 0;
            for (int j = 0; j < k; j++)
                taken |= at[j] == i;
            if (!taken && (best < 0 || m->sub_delay[i] > m->sub_delay[best]))
                best = i;
        }
        at[k] = best;
    }
    return k;
}

/* Bank boundaries (solid white lines, bank numbers on the right axis), sub-bank
 * boundaries (dashed), and frames round the slowest sub-banks, numbered with their
 * delays: the slowest sets the clock when every register counts (baseline). */
static void mark_banks(FILE *gp, const ana_chipmap *m, char *marked, size_t size)
{
    int E = m->rows / m->n_banks, C = m->cols / m->sub_banks, at[N_SLOWEST];
    for (int b = 1; b < m->n_banks; b++)
        fprintf(gp, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 1.2 "
                    "lc rgb '#ffffff' front\n", b * E - 0.5, b * E - 0.5);
    for (int p = 1; p < m->sub_banks; p++)
        fprintf(gp, "set arrow from first %g, graph 0 to first %g, graph 1 nohead lw 1.2 dt 2 "
                    "lc rgb '#ffffff' front\n", p * C - 0.5, p * C - 0.5);
    fprintf(gp, "set y2range [%d.5:-0.5]\nset y2tics out scale 0 font 'Sans,9' (", m->rows - 1);
    for (int b = 0; b < m->n_banks; b++)
        fprintf(gp, "%s\"%d\" %g", b ? ", " : "", b, b * E + (E - 1) / 2.0);
    fputs(")\nset y2label 'bank' offset -1,0\n", gp);
    int n = slowest(m, at);
    for (int k = 0; k < n; k++) {
        int b = at[k] / m->sub_banks, p = at[k] % m->sub_banks;
        const char *c = k == 0 ? "#e31a1c" : "#ff7f00";
        fprintf(gp, "set object %d rect from %g, %g to %g, %g fs empty border lc rgb '%s' "
                    "lw %s front\n"
                    "set label %d \"%d: %.3f\" at %g, %g left offset 0.4,-0.7 font 'Sans,10' "
                    "tc rgb '#000000' boxed front\n",
                10 + k, p * C - 0.5, b * E - 0.5, (p + 1) * C - 0.5, (b + 1) * E - 0.5, c,
                k == 0 ? "3.5" : "2.2", 10 + k, k + 1, m->sub_delay[at[k]], p * C - 0.5,
                b * E - 0.5);
    }
    fputs("set style textbox opaque fc rgb '#ffffff' noborder margins 1,1\n", gp);
    snprintf(marked, size, "\\n{/=12 white lines: banks (solid), sub-banks (dashed); framed: "
             "the %d slowest sub-banks}\\n{/=12 with their delay (1 = no variation); the red "
             "one sets the clock when every register counts}", n);
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
    char marked[320] = "";
    if (m->sub_delay && m->n_banks > 0)
        mark_banks(p.gp, m, marked, sizeof marked);
    fprintf(p.gp,
            "set title \"{/:Bold=16 Register-file V_{th} map%s}\\n{/=12 %d x %d cells; mean %.4g "
            "%s, std %.3g %s%s}%s\"\n"
            "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', "
            "4 '#fde725')\n"
            "set cblabel \"V_{th} (%s)\"\nset xlabel 'column (bit cell)'\n"
            "set ylabel 'row (register entry)'\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
            "set size ratio %.6g\nset tics out\nunset grid\nset border 15\n"
            "plot $map using 1:2:3 with image\n",
            who, m->rows, m->cols, mean, m->vth_units, sd, m->vth_units,
            shown, marked, m->vth_units,
            m->cols - 1, m->rows - 1, (double)m->rows / m->cols);
    return ana__plot_close(&p, note);
}
