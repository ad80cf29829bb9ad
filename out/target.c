/* Output targets: only regular files are replaced, paths are never cut short, and no
 * value with a control character reaches a script or a one-line message. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "out.h"

const char *out_target_kind(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
        return NULL;
    if (S_ISDIR(st.st_mode))
        return "a directory";
    if (S_ISCHR(st.st_mode))
        return "a character device";
    if (S_ISBLK(st.st_mode))
        return "a block device";
    if (S_ISFIFO(st.st_mode))
        return "a FIFO";
    if (S_ISSOCK(st.st_mode))
        return "a socket";
    if (S_ISLNK(st.st_mode))
        return "a symbolic link";
    return "not a regular file";
}

int out_target_check(const char *path, char *err, size_t n)
{
    size_t len = strlen(path), bad;
    if (len == 0) {
        snprintf(err, n, "an empty output path");
        return -1;
    }
    if (len > OUT_PATH_MAX) {
        snprintf(err, n, "output path too long (%zu bytes, at most %d): %.60s...", len,
                 OUT_PATH_MAX, path);
        return -1;
    }
    if (out_text_check(path, &bad)) {
        snprintf(err, n, "output path has a control character (byte %zu): refused", bad + 1);
        return -1;
    }
    const char *kind = out_target_kind(path);
    if (kind) {
        snprintf(err, n, "%s is %s: rfdse replaces only regular files", path, kind);
        return -1;
    }
    return 0;
}

void out_dir_of(const char *path, char *buf, size_t n)
{
    snprintf(buf, n, "%s", path);
    char *slash = strrchr(buf, '/');
    if (!slash)
        snprintf(buf, n, ".");
    else
        slash[slash == buf] = '\0';
}

int out_text_check(const char *s, size_t *bad)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) {
            if (bad)
                *bad = (size_t)(p - (const unsigned char *)s);
            return -1;
        }
    return 0;
}
