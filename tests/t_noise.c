/* The look at the machine before a run (src/noise.h): a user's own OpenSSL mask is named, a
 * busy process that is not ours is counted, and a quiet machine is not called noisy by the
 * test itself (the memory path's slow share: t_stats). */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "noise.h"

static int any(const struct noise *nz, const char *what)
{
    for (int i = 0; i < nz->n; i++)
        if (strstr(nz->line[i], what))
            return 1;
    return 0;
}

/* A busy loop in a grandchild: not this process's child, as another user's job would be. */
static pid_t busy_grandchild(void)
{
    int p[2];
    if (pipe(p))
        return -1;
    pid_t c = fork();
    if (c == 0) {
        pid_t g = fork();
        if (g == 0) {
            close(p[0]);
            close(p[1]);
            for (volatile unsigned long i = 0;; i++)
                ;
        }
        if (write(p[1], &g, sizeof g) != sizeof g)
            _exit(1);
        _exit(0);
    }
    pid_t g = -1;
    close(p[1]);
    if (read(p[0], &g, sizeof g) != sizeof g)
        g = -1;
    close(p[0]);
    waitpid(c, NULL, 0);
    return g;
}

int main(void)
{
    struct noise nz;
    char buf[1400];
    setenv("OPENSSL_ia32cap", "~0x200000000000000", 1);
    noise_survey(&nz);
    CHECK(any(&nz, "OPENSSL_ia32cap=~0x200000000000000 set by you"),
          "the user's mask is named: %s", noise_join(&nz, buf, sizeof buf));
    unsetenv("OPENSSL_ia32cap");
    noise_survey(&nz);
    CHECK(!any(&nz, "set by you"), "no mask, no line: %s", noise_join(&nz, buf, sizeof buf));

    pid_t g = busy_grandchild();
    CHECK(g > 0, "a busy process started");
    int seen = 0;
    /* It is running most of the time; look a few times, as a scheduler may park it. */
    for (int k = 0; k < 20 && !seen && g > 0; k++) {
        noise_survey(&nz);
        seen = any(&nz, "other busy process");
    }
    CHECK(seen, "a busy process that is not ours is counted: %s", noise_join(&nz, buf, sizeof buf));
    if (g > 0)
        kill(g, SIGKILL);
    CHECK(nz.n <= NOISE_MAX, "at most %d lines", NOISE_MAX);
    return check_done();
}
