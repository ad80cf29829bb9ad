/* fault_pwrite.so: a fault injector for the full-disk tests (LD_PRELOAD).  In the MPI
 * rank named by RFDSE_FAULT_RANK (all ranks when unset), every positioned write to a
 * file whose name ends in ".h5" after the first RFDSE_FAULT_AFTER of them fails with
 * ENOSPC, as a disk that fills up in the middle of a run would, except a write at
 * offset 0: the superblock, which HDF5 rewrites in place at close, and an in-place
 * rewrite of allocated space never fails for lack of room.  (A rank whose every write
 * fails, an I/O error rather than a full disk, still hangs HDF5's close when it is rank
 * 0: docs/driver.md.)  Everything else goes to the real calls.  Test-only; never
 * linked into rfdse. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static int targeted(int fd, off_t off)
{
    if (off == 0)
        return 0;
    static long seen; /* test-only shim: a counter per process is the point */
    const char *rank = getenv("RFDSE_FAULT_RANK"), *me = getenv("OMPI_COMM_WORLD_RANK");
    const char *after = getenv("RFDSE_FAULT_AFTER");
    if (rank && (!me || strcmp(rank, me)))
        return 0;
    char link[64], name[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(link, name, sizeof name - 1);
    if (k < 3)
        return 0;
    name[k] = '\0';
    if (strcmp(name + k - 3, ".h5"))
        return 0;
    return ++seen > (after ? atol(after) : 0);
}

#define REAL(fn) ((__typeof__(&fn))dlsym(RTLD_NEXT, #fn))

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    if (targeted(fd, off))
        return errno = ENOSPC, -1;
    return REAL(pwrite)(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
    if (targeted(fd, off))
        return errno = ENOSPC, -1;
    return REAL(pwrite64)(fd, buf, n, off);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
    if (targeted(fd, off))
        return errno = ENOSPC, -1;
    return REAL(pwritev)(fd, iov, cnt, off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off_t off)
{
    if (targeted(fd, off))
        return errno = ENOSPC, -1;
    return REAL(pwritev64)(fd, iov, cnt, off);
}
