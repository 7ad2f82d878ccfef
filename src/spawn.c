/* Child processes and standard descriptors (see spawn.h). */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* In the child, makes fd `to` a copy of `from` that survives exec. dup2(x, x) is a no-op
 * that keeps close-on-exec, which is what pipe2(O_CLOEXEC) gave: when this process runs with
 * fd 1 or 2 closed, the pipe's write end can be 1 or 2 itself. Async-signal-safe. */
static int child_dup(int from, int to)
{
    if (from == to)
        return fcntl(to, F_SETFD, 0);
    return dup2(from, to) < 0 ? -1 : 0;
}

/* Everything between fork and exec: only async-signal-safe calls. */
static void child(const char *path, char *const argv[], char *const envp[], int w, int in,
                  int keep, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the parent died before the line above: nobody reads us */
        _exit(127);
    /* The dups below would replace it: move it out of the way first. */
    if (in >= 0 && in <= 2 && (in = fcntl(in, F_DUPFD_CLOEXEC, 3)) < 0)
        _exit(127);
    if (w == 0) { /* stdin would replace it below: move it out of the way first */
        w = fcntl(0, F_DUPFD_CLOEXEC, 3);
        if (w < 0)
            _exit(127);
    }
    if (child_dup(w, 1) || child_dup(w, 2))
        _exit(127);
    int nul = in >= 0 ? in : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (nul >= 0 && child_dup(nul, 0))
        _exit(127);
    if (keep > 2 && fcntl(keep, F_SETFD, 0)) /* above 2: the dups above left it alone */
        _exit(127);
    if (envp)
        execve(path, argv, envp);
    else
        execv(path, argv);
    static const char msg[] = "error cannot exec ";
    if (write(1, msg, sizeof msg - 1) >= 0 && write(1, path, strlen(path)) >= 0 &&
        write(1, "\n", 1) >= 0) {
    }
    _exit(127);
}

pid_t spawn_piped(const char *path, char *const argv[], char *const envp[], int *fd,
                  char *why, size_t n)
{
    return spawn_piped_in(path, argv, envp, -1, fd, why, n);
}

pid_t spawn_piped_in(const char *path, char *const argv[], char *const envp[], int in, int *fd,
                     char *why, size_t n)
{
    return spawn_piped_keep(path, argv, envp, in, -1, fd, why, n);
}

pid_t spawn_piped_keep(const char *path, char *const argv[], char *const envp[], int in,
                       int keep, int *fd, char *why, size_t n)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC)) {
        snprintf(why, n, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        snprintf(why, n, "fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0)
        child(path, argv, envp, p[1], in, keep, parent);
    close(p[1]);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    *fd = p[0];
    return pid;
}

static int stdout_closed; /* started with descriptor 1 closed */

static void std_fds(void)
{
    for (int want = 0; want <= 2; want++) {
        if (fcntl(want, F_GETFD) >= 0 || errno != EBADF)
            continue;
        /* A closed descriptor is taken, or the next file opened (a CSV) would be it. Standard
         * output on /dev/null read-only: what is written there fails, so a command whose
         * output is lost exits 1 and says so, not 0. */
        stdout_closed |= want == 1;
        /* open returns the lowest free descriptor: `want`, since lower ones are open. */
        int fd = open("/dev/null", want == 2 ? O_WRONLY : O_RDONLY);
        if (fd >= 0 && fd != want) {
            dup2(fd, want);
            close(fd);
        }
    }
}

int spawn_stdout_closed(void)
{
    return stdout_closed;
}

static int stdout_reported; /* a writer said why standard output failed */

void spawn_stdout_reported(void)
{
    stdout_reported = 1;
}

static void check_stdout(void)
{
    /* fclose also reports an error of an earlier, already flushed write (ferror). */
    int earlier = ferror(stdout);
    errno = 0;
    int failed = fclose(stdout) != 0;
    if (!failed && !earlier)
        return;
    if (stdout_reported)
        _exit(1);
    fprintf(stderr, "accelscope: write error on standard output: %s\n",
            stdout_closed ? "it was closed, so the output is lost"
            : failed && errno ? strerror(errno) : "an earlier write failed");
    _exit(1);
}

void spawn_stdio_init(void)
{
    static int done;
    if (done++)
        return;
    std_fds();
    /* Into a file or a pipe, whole outputs (help, info, a table) leave in the final flush,
     * whose errno names the failure; a larger output still fails with exit 1. */
    static char buf[1 << 16];
    if (!isatty(1))
        setvbuf(stdout, buf, _IOFBF, sizeof buf);
    atexit(check_stdout);
}
