#include "offload.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif

double offload_sys_pct(uint64_t user_ns, uint64_t sys_ns)
{
    uint64_t all = user_ns + sys_ns;
    return all < OFFLOAD_MIN_CPU_NS ? -1 : 100.0 * (double)sys_ns / (double)all;
}

int offload_judge(const struct offload_evidence *ev, const char *engine, const char *alg,
                  char *why, size_t n)
{
    const char *soft = "libcrypto software did the work";
    double sys = offload_sys_pct(ev->user_ns, ev->sys_ns);
    if (!ev->claimed)
        snprintf(why, n, "%s engine does not handle %s: %s", engine, alg, soft);
    else if (ev->kernel && !ev->kfds)
        snprintf(why, n, "%s engine claims %s but opened no AF_ALG socket or /dev/crypto: %s",
                 engine, alg, soft);
    else if (ev->kernel && sys >= 0 && sys < OFFLOAD_MIN_SYS_PCT)
        snprintf(why, n, "%s engine claims %s but the kernel had only %.1f %% of the CPU "
                 "time (under %.0f %%): %s", engine, alg, sys, OFFLOAD_MIN_SYS_PCT, soft);
    else
        return 0;
    return 1;
}

static int is_kernel_fd(int fd, const char *link)
{
    if (!strcmp(link, "/dev/crypto"))
        return 1;
    int domain = 0;
    socklen_t len = sizeof domain;
    return !strncmp(link, "socket:", 7) &&
           !getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) && domain == AF_ALG;
}

int offload_kernel_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return 0;
    int count = 0;
    for (struct dirent *de; (de = readdir(d));) {
        char path[64], link[PATH_MAX];
        int fd = atoi(de->d_name);
        if (de->d_name[0] == '.' || fd == dirfd(d))
            continue;
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t k = readlink(path, link, sizeof link - 1);
        if (k <= 0)
            continue;
        link[k] = 0;
        count += is_kernel_fd(fd, link);
    }
    closedir(d);
    return count;
}
