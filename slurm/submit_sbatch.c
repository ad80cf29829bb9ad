/* Running `sbatch --parsable SCRIPT` and reading the job id it prints. */
#include <errno.h>
#include <stdbool.h>
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

bool dse__submit_sbatch_found(void)
{
    char fallback[256] = "/bin:/usr/bin", dir[4096];
    const char *path = getenv("PATH");
    if (!path) { /* execvp's own default */
        size_t n = confstr(_CS_PATH, fallback, sizeof fallback);
        path = n && n <= sizeof fallback ? fallback : "/bin:/usr/bin";
    }
    for (const char *p = path; p; p = strchr(p, ':'), p = p ? p + 1 : NULL) {
        size_t len = strcspn(p, ":");
        /* an empty entry is the working directory, as execvp reads it */
        int k = snprintf(dir, sizeof dir, "%.*s/sbatch", (int)len, len ? p : ".");
        if (k > 0 && (size_t)k < sizeof dir && access(dir, X_OK) == 0)
            return true;
    }
    return false;
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
        snprintf(err, en, "%s", DSE_SUBMIT_NO_SBATCH);
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        snprintf(err, en, "sbatch refused the job (its message is above); nothing kept "
                          "(--dry-run prints the script)");
    else if (!id[0] || strspn(id, "0123456789_") != strlen(id)) {
        /* sbatch said yes: a job may be queued, and it needs the files */
        snprintf(err, en, "sbatch printed no job id ('%s'); script kept: %s", id, script);
        return -2;
    } else
        return 0;
    return -1;
}
