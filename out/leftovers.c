/* What a killed MPI-IO run leaves beside its output: Open MPI's OMPIO keeps a shared
 * file pointer for every open file, and its "individual" component stores it in
 * PATH.data.N and PATH.metadata.N (N: the rank), created at MPI_File_open and removed
 * at MPI_File_close.  A run killed in between leaves them; the next run of the file
 * removes them before it opens it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out.h"

/* name is BASE.data.N or BASE.metadata.N, N one or more decimal digits. */
static bool is_leftover(const char *name, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(name, base, n))
        return false;
    const char *rest = name + n;
    if (!strncmp(rest, ".data.", 6))
        rest += 6;
    else if (!strncmp(rest, ".metadata.", 10))
        rest += 10;
    else
        return false;
    if (!*rest)
        return false;
    return strspn(rest, "0123456789") == strlen(rest);
}

int out_leftovers_remove(const char *path)
{
    char dir[OUT_PATH_MAX + 1];
    out_dir_of(path, dir, sizeof dir);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return 0;
    }
    int removed = 0;
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        /* only regular files, never through a link */
        if (is_leftover(e->d_name, base) &&
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            unlinkat(dfd, e->d_name, 0) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}
