/* The silicon's ceilings for every session of the process: one forked child runs the
 * microbenchmarks (silicon.h) and sends the struct back through a pipe. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session_priv.h"
#include "silicon.h"

enum ceil_state { CEIL_NONE, CEIL_MEASURING, CEIL_READY };

/* The ceilings are the machine's, not a session's: one child per process measures them, and
 * every session (the TUI's and the demo's) adopts the answer, so two sets of microbenchmarks
 * never run side by side. The child sends one struct silicon through the pipe. */
static struct {
    enum ceil_state state;
    pid_t pid;
    int fd;
    struct silicon buf;
    size_t got;
} ceilings = { .pid = -1, .fd = -1 };

void ceilings_stop(void)
{
    if (ceilings.fd >= 0)
        close(ceilings.fd);
    ceilings.fd = -1;
    if (ceilings.pid > 0) {
        kill(ceilings.pid, SIGKILL);
        waitpid(ceilings.pid, NULL, 0);
    }
    ceilings.pid = -1;
    if (ceilings.state == CEIL_MEASURING)
        ceilings.state = CEIL_NONE; /* a later session measures them again */
}

void ceiling_of(struct cell *c)
{
    char why[300];
    double mb;
    c->limit_mb_per_s = 0;
    if (ceilings.state == CEIL_READY &&
        silicon_ceiling(c->impl->alg, c->decrypt, &mb, why, sizeof why) == 0)
        c->limit_mb_per_s = mb;
}

/* The child: measure, send the struct, leave. It dies with the parent. */
static void ceilings_child(int fd)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    silicon_measure_tries(SILICON_TRIES);
    const char *p = (const char *)silicon_get();
    size_t left = sizeof(struct silicon);
    while (left) {
        ssize_t k = write(fd, p, left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            _exit(1);
        p += k;
        left -= (size_t)k;
    }
    _exit(0);
}

static void ceilings_ready(const struct silicon *got, const char *fail)
{
    ceilings_stop();
    if (got)
        silicon_adopt(got);
    else
        silicon_adopt_failure(fail);
    ceilings.state = CEIL_READY;
}

/* This session's cells get the ceilings once they are known; 1 when that happened now. */
int ceilings_apply(struct session *s)
{
    if (ceilings.state != CEIL_READY || s->ceil_seen)
        return 0;
    s->ceil_seen = 1;
    for (size_t i = 0; i < s->plan.n; i++)
        ceiling_of(&s->plan.cells[i]);
    session_tell(s, SESSION_CEILINGS, SIZE_MAX);
    return 1;
}

void session_ceilings_start(struct session *s)
{
    if (ceilings.state == CEIL_NONE) {
        int p[2];
        pid_t pid = -1;
        if (pipe2(p, O_CLOEXEC) == 0) {
            fflush(NULL);
            if ((pid = fork()) == 0) {
                close(p[0]);
                ceilings_child(p[1]);
            }
            close(p[1]);
            if (pid < 0)
                close(p[0]);
        }
        if (pid < 0) {
            ceilings_ready(NULL, strerror(errno));
        } else {
            fcntl(p[0], F_SETFL, O_NONBLOCK); /* session_step() reads whatever has come */
            ceilings.state = CEIL_MEASURING;
            ceilings.pid = pid;
            ceilings.fd = p[0];
            ceilings.got = 0;
        }
    }
    ceilings_apply(s);
}

int session_ceilings_ready(const struct session *s)
{
    (void)s;
    return ceilings.state == CEIL_READY;
}

void ceilings_input(void)
{
    if (ceilings.fd < 0)
        return;
    ssize_t k = read(ceilings.fd, (char *)&ceilings.buf + ceilings.got, sizeof ceilings.buf - ceilings.got);
    if (k < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (k > 0) {
        ceilings.got += (size_t)k;
        if (ceilings.got == sizeof ceilings.buf)
            ceilings_ready(&ceilings.buf, NULL);
        return;
    }
    ceilings_ready(NULL, k < 0 ? strerror(errno) : "the measuring child died before answering");
}


int ceilings_measuring(void)
{
    return ceilings.state == CEIL_MEASURING;
}

int ceilings_fd(void)
{
    return ceilings.fd;
}
