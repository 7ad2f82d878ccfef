/* A shell script in a worker's place (tests of the worker protocol): written to a fresh
 * executable file whose name is left in path (a mkstemp() template). */
#ifndef ACCELSCOPE_TESTS_SCRIPT_H
#define ACCELSCOPE_TESTS_SCRIPT_H

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static inline void script_write(char *path, const char *script)
{
    int fd = mkstemp(path);
    size_t n = strlen(script);
    CHECK(fd >= 0 && write(fd, script, n) == (ssize_t)n && fchmod(fd, 0700) == 0,
          "scripted worker written");
    close(fd);
}

#endif
