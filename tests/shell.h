/* Running accelscope as a user would, from the CLI test suites: one command line in sh, its
 * standard output and error captured into files of this process's own folder (suites run
 * side by side, so no fixed /tmp names), then read back. */
#ifndef ACCELSCOPE_TESTS_SHELL_H
#define ACCELSCOPE_TESTS_SHELL_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "csvread.h"

static char shell_out[1 << 16], shell_err[1 << 16];
static char shell_dir[] = "/tmp/accelscope-shell-XXXXXX";

/* The capture file `name` ("out", "err") of this process, its folder made on first use. */
static inline const char *shell_path(const char *name, char *buf, size_t n)
{
    static int made;
    if (!made++ && !mkdtemp(shell_dir))
        abort();
    snprintf(buf, n, "%s/%s", shell_dir, name);
    return buf;
}

/* Runs `prefix bin args redir` (redir NULL: stdout and stderr captured, stdin /dev/null);
 * returns the exit status, 128 + the signal for a killed one. A redir of its own may still
 * send stderr to shell_path("err") to have it read back. */
static inline int shell_run(const char *prefix, const char *bin, const char *args,
                            const char *redir)
{
    char cmd[8192], o_path[80], e_path[80], cap[200];
    shell_path("out", o_path, sizeof o_path);
    shell_path("err", e_path, sizeof e_path);
    unlink(o_path);
    unlink(e_path);
    snprintf(cap, sizeof cap, ">%s 2>%s </dev/null", o_path, e_path);
    snprintf(cmd, sizeof cmd, "%s %s %s %s", prefix, bin, args, redir ? redir : cap);
    int st = system(cmd);
    char *o = csvr_slurp(o_path), *e = csvr_slurp(e_path);
    snprintf(shell_out, sizeof shell_out, "%s", o ? o : "");
    snprintf(shell_err, sizeof shell_err, "%s", e ? e : "");
    free(o);
    free(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Removes the capture folder (at the end of a suite). */
static inline void shell_done(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", shell_dir);
    if (system(cmd)) {
    }
}

#endif
