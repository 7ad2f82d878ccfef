#include "clock.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cycles.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double clock_tsc_mhz(char *why, size_t n)
{
    struct cycles c = { .fd = -1, .name = "tsc" };
    if (!cycles_tsc_invariant()) {
        snprintf(why, n, "no invariant TSC (CPUID.80000007H:EDX[8])");
        return 0;
    }
    struct timespec nap = { 0, 20000000 };
    double t0 = now_s();
    uint64_t y0 = cycles_read(&c);
    nanosleep(&nap, NULL);
    uint64_t y1 = cycles_read(&c);
    double t1 = now_s();
    return (double)(y1 - y0) / (t1 - t0) / 1e6;
}

double clock_counter_mhz(const char **label, char *what, size_t n)
{
#if defined(__aarch64__)
    uint64_t hz;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    *label = "generic timer";
    if (!hz) {
        snprintf(what, n, "CNTFRQ_EL0 reads 0 (the firmware did not set it)");
        return 0;
    }
    snprintf(what, n, "CNTFRQ_EL0");
    return (double)hz / 1e6;
#elif defined(__x86_64__) || defined(__i386__)
    *label = "TSC";
    double mhz = clock_tsc_mhz(what, n);
    if (mhz > 0)
        snprintf(what, n, "invariant");
    return mhz;
#else
    *label = "cycle counter";
    snprintf(what, n, "no fixed-rate counter known for this architecture");
    return 0;
#endif
}

/* 16 dependent adds per iteration; each has one cycle of latency on every core we know, so
 * the chain runs at one add per core clock whatever the issue width. */
#if defined(__x86_64__) || defined(__i386__)
#define ADD1 "add $1, %0\n\t"
#elif defined(__aarch64__)
#define ADD1 "add %0, %0, #1\n\t"
#endif

#ifdef ADD1
#define ADDS16 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
static int chain(unsigned long iters)
{
    unsigned long x = 0;
    for (unsigned long i = 0; i < iters; i++)
        __asm__ volatile(ADDS16 : "+r"(x));
    return (int)(x & 1);
}
static int have_chain(void) { return 1; }
#else
static int chain(unsigned long iters) { (void)iters; return 0; }
static int have_chain(void) { return 0; }
#endif

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double clock_core_mhz(char *why, size_t n)
{
    if (!have_chain()) {
        snprintf(why, n, "no dependent-add loop for this architecture");
        return 0;
    }
    /* Short runs (~1 ms) slip between preemptions on a busy machine; take many. */
    unsigned long iters = 10000;
    double t0 = now_s();
    chain(iters);
    double dt = now_s() - t0;
    if (dt > 0)
        iters = (unsigned long)(iters * (0.001 / dt));
    if (iters < 1000)
        iters = 1000;
    enum { RUNS = 101 };
    double mhz[RUNS];
    for (int r = 0; r < RUNS; r++) {
        t0 = now_s();
        chain(iters);
        dt = now_s() - t0;
        mhz[r] = dt > 0 ? (double)iters * 16 / dt / 1e6 : 0;
    }
    /* Preemption and a busy sibling only ever slow a run down: the fastest run is the
     * one closest to the core's own clock. */
    qsort(mhz, RUNS, sizeof mhz[0], cmp);
    return mhz[RUNS - 1];
}

int clock_pmu_status(char *why, size_t n)
{
    int e = 0, user = 0, fd = cycles_pmu_open(&e, &user);
    if (fd >= 0) {
        close(fd);
        snprintf(why, n, "%s", user ? "user space only (perf_event_paranoid)" : "");
        return 1;
    }
    snprintf(why, n, "perf_event_open(cycles): %s%s", strerror(e),
             e == ENOENT || e == EOPNOTSUPP ? " (no PMU exposed, as in most VMs)"
             : e == EACCES || e == EPERM ? " (see /proc/sys/kernel/perf_event_paranoid)" : "");
    return 0;
}
