/* Driving gnuplot: one process per figure, the script written down a pipe with the data
 * inline as datablocks, so no temporary files are left behind. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ana_internal.h"

void ana__figure_path(const char *dir, const char *prefix, ana_figure f, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s%s.png", dir, prefix ? prefix : "", ana_figure_get(f)->name);
}

void ana__plot_escape(const char *in, char *out, size_t size)
{
    /* Enhanced text treats _ ^ @ & { } as markup; a backslash escapes them inside
     * double-quoted strings only when doubled. */
    size_t o = 0;
    for (; *in && o + 3 < size; in++) {
        if (strchr("_^@&{}", *in)) {
            out[o++] = '\\';
            out[o++] = '\\';
        } else if (*in == '"') {
            out[o++] = '\\';
        }
        out[o++] = *in;
    }
    out[o] = '\0';
}

const char *ana__colour(const ana_results *r, int t) { return r->colour[t]; }

int ana__tech_find(const ana_results *r, const char *name)
{
    for (int t = 0; t < r->n_tech; t++)
        if (!strcmp(r->tech[t], name))
            return t;
    return -1;
}

void ana__ratio_label(double ratio, char *buf, size_t size)
{
    if (ratio < 1.0)
        snprintf(buf, size, "1:%g", 1.0 / ratio);
    else
        snprintf(buf, size, "%g:1", ratio);
}

void ana__skip(FILE *note, ana_figure f, const char *why, int *skipped)
{
    fprintf(note, ANA__PREFIX "skipped figure %s: %s (produced by %s)\n",
            ana_figure_get(f)->name, why, ana_figure_get(f)->sweep);
    if (skipped)
        *skipped = 1;
}

int ana__plot_open(ana__plot *p, const char *dir, const char *prefix, ana_figure f, FILE *err)
{
    char path[OUT_PATH_MAX + 1];
    ana__figure_path(dir, prefix, f, path, sizeof path);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(err, ANA__PREFIX "%s: cannot create the directory: %s\n", dir, strerror(errno));
        return ANA_EPLOT;
    }
    return ana__plot_open_at(p, path, f, err);
}

int ana__plot_open_at(ana__plot *p, const char *path, ana_figure f, FILE *err)
{
    const ana_figure_info *fi = ana_figure_get(f);
    memset(p, 0, sizeof *p);
    p->fig = f;
    snprintf(p->path, sizeof p->path, "%s", path);
    if (strchr(p->path, '\'')) {
        fprintf(err, ANA__PREFIX "%s: a figure path may not contain a quote\n", p->path);
        return ANA_EPLOT;
    }
    char why[OUT_PATH_MAX + 128];
    if (out_target_check(p->path, why, sizeof why)) {
        fprintf(err, ANA__PREFIX "%s\n", why);
        return ANA_EPLOT;
    }
    snprintf(p->tmp, sizeof p->tmp, "%s.tmp.%ld", p->path, (long)getpid());
    unlink(p->tmp); /* never write through a link planted at the temporary name */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &p->old_pipe);
    fflush(NULL); /* so the child does not inherit unflushed output */
    /* gnuplot's own output goes nowhere: when it cannot open the PNG it writes the
     * image to stdout.  Its failure shows in the status and the PNG check. */
    if (!(p->gp = popen("exec gnuplot >/dev/null 2>&1", "w"))) {
        sigaction(SIGPIPE, &p->old_pipe, NULL);
        fprintf(err, ANA__PREFIX "cannot run gnuplot: %s\n", strerror(errno));
        return ANA_EPLOT;
    }
    fprintf(p->gp,
            "set terminal pngcairo size %d,%d enhanced font 'Sans,13' linewidth 1.4 "
            "background '#ffffff'\n"
            "set output '%s'\n"
            "set encoding utf8\n"
            "set border 3 lw 1.2\n"
            "set tics nomirror out scale 0.6\n"
            "set grid ytics lc rgb '#d9d9d9' lw 1 dt 1\n"
            "set key noautotitle\n"
            "set style fill solid 0.85 border rgb '#333333'\n",
            fi->width, fi->height, p->tmp);
    return ANA_EOK;
}

int ana__plot_close(ana__plot *p, FILE *err)
{
    fputs("unset output\n", p->gp);
    int status = pclose(p->gp);
    sigaction(SIGPIPE, &p->old_pipe, NULL);
    uint32_t w, h;
    const ana_figure_info *fi = ana_figure_get(p->fig);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(err, ANA__PREFIX "%s: gnuplot failed (exit status %d; needs gnuplot with the "
                     "pngcairo terminal, Debian gnuplot-nox, and a writable directory)\n",
                p->path, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        unlink(p->tmp);
        return ANA_EPLOT;
    }
    if (ana_png_size(p->tmp, &w, &h) || (int)w != fi->width || (int)h != fi->height) {
        fprintf(err, ANA__PREFIX "%s: gnuplot wrote no valid %dx%d PNG\n", p->path, fi->width,
                fi->height);
        unlink(p->tmp);
        return ANA_EPLOT;
    }
    if (out_target_kind(p->path) || rename(p->tmp, p->path) != 0) {
        fprintf(err, ANA__PREFIX "%s: cannot put the figure in place (not a regular file, or "
                     "%s)\n", p->path, strerror(errno));
        unlink(p->tmp);
        return ANA_EPLOT;
    }
    return ANA_EOK;
}
