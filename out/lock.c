/* The advisory write lock of a results file: PATH.lock beside it, an fcntl write lock
 * on it (fcntl, not flock: it also works over NFS and on Lustre), and the holder's
 * identity written inside so a refused writer can say who is writing. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "out.h"

struct out_lock {
    int fd;
    size_t identity_len; /* bytes of the first line, its '\n' included */
    char path[OUT_PATH_MAX + 8];
};

/* Who holds the lock on fd, in one line: the text the holder wrote, else its pid. */
static void holder(int fd, char *buf, size_t n)
{
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    ssize_t k = pread(fd, buf, n - 1, 0);
    buf[k > 0 ? k : 0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = '?';
    if (!buf[0] && fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
        snprintf(buf, n, "pid %ld", (long)fl.l_pid);
    else if (!buf[0])
        snprintf(buf, n, "unknown process");
}

static size_t write_identity(int fd, const char *what)
{
    char host[256] = "?", when[32] = "?", line[512];
    time_t now = time(NULL);
    gethostname(host, sizeof host - 1);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    int len = snprintf(line, sizeof line, "pid %ld on %s since %s: %s\n", (long)getpid(), host,
                       when, what);
    if (ftruncate(fd, 0) == 0 && len > 0)
        (void)!pwrite(fd, line, (size_t)len, 0);
    return len > 0 ? (size_t)len : 0;
}

/* The lock file we hold is still the one at `path` (a previous holder unlinks its file
 * when it lets go: a lock on that orphan would guard nothing). */
static int still_linked(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

static int open_lock_file(const char *lp, const char *path, char *err, size_t n)
{
    /* O_NONBLOCK: a FIFO planted at the name must not hang us; checked below. */
    int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        errno = EINVAL;
        fd = -1;
    }
    if (fd < 0)
        snprintf(err, n, "cannot create the lock file of %s (%s): %s", path, lp,
                 errno == EINVAL || errno == ELOOP ? "not a regular file" : strerror(errno));
    return fd;
}

out_lock *out_lock_take(const char *path, const char *what, char *err, size_t n)
{
    out_lock *l = calloc(1, sizeof *l);
    if (!l || strlen(path) > OUT_PATH_MAX) {
        snprintf(err, n, "%s", l ? "output path too long" : "out of memory");
        free(l);
        return NULL;
    }
    snprintf(l->path, sizeof l->path, "%s.lock", path);
    for (int attempt = 0; attempt < 16; attempt++) {
        if ((l->fd = open_lock_file(l->path, path, err, n)) < 0)
            break;
        struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
        if (fcntl(l->fd, F_SETLK, &fl) != 0 && (errno == EACCES || errno == EAGAIN)) {
            char who[300];
            holder(l->fd, who, sizeof who);
            snprintf(err, n, "%s is being written by another rfdse (%s); wait for it to end "
                     "or stop it (lock file %s)", path, who, l->path);
            close(l->fd);
            break;
        }
        /* Any other fcntl failure (a file system without locks): go on unlocked. */
        if (still_linked(l->fd, l->path)) {
            l->identity_len = write_identity(l->fd, what);
            return l;
        }
        close(l->fd);
        snprintf(err, n, "cannot lock %s: its lock file %s keeps being replaced", path,
                 l->path);
    }
    free(l);
    return NULL;
}

void out_lock_release(out_lock *l)
{
    if (!l)
        return;
    unlink(l->path); /* while still holding it: see still_linked() */
    close(l->fd);
    free(l);
}

void out_lock_note(out_lock *l, const char *note)
{
    if (!l || !l->identity_len)
        return;
    char line[512];
    int len = snprintf(line, sizeof line, "%s\n", note);
    if (len <= 0 || (size_t)len >= sizeof line)
        return;
    /* The new note over the old, then the tail cut: the identity line never changes, and
     * a reader sees a whole note or, for an instant, a garbled one it rejects. */
    if (pwrite(l->fd, line, (size_t)len, (off_t)l->identity_len) == len)
        (void)!ftruncate(l->fd, (off_t)(l->identity_len + (size_t)len));
}

int out_lock_query(const char *path, char *buf, size_t n)
{
    char lp[OUT_PATH_MAX + 8];
    buf[0] = '\0';
    if (strlen(path) > OUT_PATH_MAX) {
        snprintf(buf, n, "output path too long");
        return -1;
    }
    snprintf(lp, sizeof lp, "%s.lock", path);
    /* Read-only and never waiting: F_GETLK asks, it does not take. */
    int fd = open(lp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    if (fd < 0 && errno == ENOENT)
        return 0;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(buf, n, "cannot read the lock file %s: %s", lp,
                 fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    ssize_t k = pread(fd, buf, n - 1, 0);
    buf[k > 0 ? k : 0] = '\0';
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\n')
            *p = '?';
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    int held = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
    close(fd);
    return held;
}
