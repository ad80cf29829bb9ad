/* Running `sbatch --parsable SCRIPT` and reading the job id it prints. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "submit_job.h"

#define NOT_FOUND 127 /* the child's status when sbatch cannot be executed */

static void child(int fd, const char *script)
{
    char *argv[] = { "sbatch", "--parsable", (char *)script, NULL };
    dup2(fd, STDOUT_FILENO);
    close(fd);
    execvp(argv[0], argv);
    _exit(NOT_FOUND);
}

/* Reads the child's stdout to the end (so sbatch never blocks on a full pipe) and keeps
 * the job id of "JOBID" or "JOBID;CLUSTER". */
static void read_id(int fd, char *id, size_t n)
{
    char buf[256];
    size_t k = 0;
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        for (ssize_t i = 0; i < r && k + 1 < n; i++)
            id[k++] = buf[i];
    }
    id[k] = '\0';
    id[strcspn(id, ";\n")] = '\0';
}

int dse__submit_sbatch(const char *script, char *id, size_t n, char *err, size_t en)
{
    int fds[2], status = 0;
    if (pipe(fds)) {
        snprintf(err, en, "cannot run sbatch: %s", strerror(errno));
        return -1;
    }
    fflush(NULL); /* nothing buffered may be written twice by the child */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, en, "cannot run sbatch: %s", strerror(errno));
        close(fds[0]), close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], script);
    }
    close(fds[1]);
    read_id(fds[0], id, n);
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == NOT_FOUND)
        snprintf(err, en, "sbatch not found: is this a Slurm login node? (--dry-run prints "
                          "the script without submitting)");
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        snprintf(err, en, "sbatch refused the job (its message is above); script kept: %s",
                 script);
    else if (!id[0] || strspn(id, "0123456789_") != strlen(id))
        snprintf(err, en, "sbatch printed no job id ('%s'); script: %s", id, script);
    else
        return 0;
    return -1;
}
