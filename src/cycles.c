#include "cycles.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
static int have_tsc(void) { return 1; }
static uint64_t tsc(void) { return __rdtsc(); }
int cycles_tsc_invariant(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
        return 0;
    __get_cpuid(0x80000007, &a, &b, &c, &d);
    return (d >> 8) & 1;
}
#else
static int have_tsc(void) { return 0; }
static uint64_t tsc(void) { return 0; }
int cycles_tsc_invariant(void) { return 0; }
#endif

static int pmu_open(int exclude_kernel)
{
    struct perf_event_attr at;
    memset(&at, 0, sizeof at);
    at.size = sizeof at;
    at.type = PERF_TYPE_HARDWARE;
    at.config = PERF_COUNT_HW_CPU_CYCLES;
    at.exclude_hv = 1;
    at.exclude_kernel = (unsigned)exclude_kernel;
    /* The times let a read scale a counter the kernel multiplexed with others. */
    at.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, 0);
}

int cycles_pmu_open(int *err, int *user_only)
{
    /* Counts this process on any CPU; fails (ENOENT/EOPNOTSUPP) where no PMU is exposed.
     * With perf_event_paranoid >= 2 an unprivileged user may count user space only. */
    int fd = pmu_open(0), user = 0;
    if (fd < 0 && (errno == EACCES || errno == EPERM)) {
        fd = pmu_open(1);
        user = fd >= 0;
    }
    if (fd < 0 && err)
        *err = errno;
    if (user_only)
        *user_only = user;
    return fd;
}

void cycles_open(struct cycles *c)
{
    int user = 0;
    c->fd = cycles_pmu_open(NULL, &user);
    if (c->fd >= 0)
        c->name = user ? "pmu-user" : "pmu";
    else
        c->name = have_tsc() && cycles_tsc_invariant() ? "tsc" : "none";
}

uint64_t cycles_read(const struct cycles *c)
{
    if (c->fd >= 0) {
        uint64_t v[3] = { 0 }; /* value, time enabled, time running */
        if (read(c->fd, v, sizeof v) != (ssize_t)sizeof v)
            return 0;
        if (v[2] && v[2] < v[1])
            return (uint64_t)((double)v[0] * (double)v[1] / (double)v[2]);
        return v[0];
    }
    return c->name[0] == 't' ? tsc() : 0;
}

void cycles_close(struct cycles *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}
