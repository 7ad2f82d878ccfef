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

int cycles_pmu_open(int *err)
{
    struct perf_event_attr at;
    memset(&at, 0, sizeof at);
    at.size = sizeof at;
    at.type = PERF_TYPE_HARDWARE;
    at.config = PERF_COUNT_HW_CPU_CYCLES;
    at.exclude_hv = 1;
    /* Counts this process on any CPU; fails (ENOENT/EOPNOTSUPP) where no PMU is exposed. */
    int fd = (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, 0);
    if (fd < 0 && err)
        *err = errno;
    return fd;
}

void cycles_open(struct cycles *c)
{
    c->fd = cycles_pmu_open(NULL);
    if (c->fd >= 0)
        c->name = "pmu";
    else
        c->name = have_tsc() && cycles_tsc_invariant() ? "tsc" : "none";
}

uint64_t cycles_read(const struct cycles *c)
{
    if (c->fd >= 0) {
        uint64_t v = 0;
        if (read(c->fd, &v, sizeof v) != (ssize_t)sizeof v)
            return 0;
        return v;
    }
    return c->name[0] == 't' ? tsc() : 0;
}

void cycles_close(struct cycles *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}
