#include "clock.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"
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
 * the chain runs at one add per core clock whatever the issue width. The addend is a register,
 * not an immediate: Golden Cove and later Intel cores (Sapphire Rapids, family 6 model 0xa7
 * as a VM shows it) fold chains of add/sub/inc with an immediate at rename, several a cycle;
 * there `add $1` read 13.7 GHz on a 2.3 GHz core, where a register add and an IMUL chain
 * (3 cycles) both read 2.3 GHz. The addend comes through a volatile so that no compiler
 * turns it back into an immediate. */
#if defined(__x86_64__) || defined(__i386__)
#define ADD1 "add %1, %0\n\t"
#elif defined(__aarch64__)
#define ADD1 "add %0, %0, %1\n\t"
#endif

#ifdef ADD1
#define ADDS16 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
static volatile unsigned long addend = 1;
static int chain(unsigned long iters)
{
    unsigned long x = 0, step = addend;
    for (unsigned long i = 0; i < iters; i++)
        __asm__ volatile(ADDS16 : "+r"(x) : "r"(step));
    return (int)(x & 1);
}
static int have_chain(void) { return 1; }
#else
static int chain(unsigned long iters) { (void)iters; return 0; }
static int have_chain(void) { return 0; }
#endif

/* The vector unit's rate: 16 256-bit integer adds per iteration in four independent chains,
 * more than the unit issues in a cycle on the x86 cores we know (two to four such adds), so
 * the probe is bound by the vector ports as SIMD crypto code is: a sibling hyperthread, or
 * anything else that takes the vector unit away, slows it where a scalar dependent chain (one
 * add a cycle whatever else runs) does not notice. Built for AVX2 in this function only, and
 * run only where cpu_has(FEAT_AVX2). */
#if defined(__x86_64__)
#define VADD4 "vpaddd %%ymm4, %%ymm0, %%ymm0\n\t" "vpaddd %%ymm4, %%ymm1, %%ymm1\n\t" \
              "vpaddd %%ymm4, %%ymm2, %%ymm2\n\t" "vpaddd %%ymm4, %%ymm3, %%ymm3\n\t"
__attribute__((target("avx2"))) static int vchain(unsigned long iters)
{
    for (unsigned long i = 0; i < iters; i++)
        __asm__ volatile(VADD4 VADD4 VADD4 VADD4 ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4");
    /* Leave no dirty upper halves: SSE code after this would pay a transition penalty. */
    __asm__ volatile("vzeroupper" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4");
    return 0;
}
static int have_vchain(void) { return cpu_has(FEAT_AVX2); }
#else
static int vchain(unsigned long iters) { (void)iters; return 0; }
static int have_vchain(void) { return 0; }
#endif

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Millions of links per second in one run of fn (16 links per iteration): MHz for the
 * dependent chain, which runs one a core clock. */
static double chain_mhz(int (*fn)(unsigned long), unsigned long iters)
{
    double t0 = now_s();
    fn(iters);
    double dt = now_s() - t0;
    return dt > 0 ? (double)iters * 16 / dt / 1e6 : 0;
}

/* Iterations of fn that last about `seconds`, from a short timed run. */
static unsigned long chain_iters(int (*fn)(unsigned long), double seconds, unsigned long min)
{
    double mhz = chain_mhz(fn, 1000);
    unsigned long iters = mhz > 0 ? (unsigned long)(seconds * mhz * 1e6 / 16) : min;
    return iters < min ? min : iters;
}

double clock_core_mhz(char *why, size_t n)
{
    if (!have_chain()) {
        snprintf(why, n, "no dependent-add loop for this architecture");
        return 0;
    }
    /* Short runs (~1 ms) slip between preemptions on a busy machine; take many. */
    chain(10000);
    unsigned long iters = chain_iters(chain, 0.001, 1000);
    enum { RUNS = 101 };
    double mhz[RUNS];
    for (int r = 0; r < RUNS; r++)
        mhz[r] = chain_mhz(chain, iters);
    /* Preemption and a busy sibling only ever slow a run down: the fastest run is the
     * one closest to the core's own clock. */
    qsort(mhz, RUNS, sizeof mhz[0], cmp);
    return mhz[RUNS - 1];
}

/* The fastest of PROBE_RUNS runs of ~20 us: an interrupt that lands in one run does not
 * move the reading, a clock that changed does. */
enum { PROBE_RUNS = 4 };

static double probe(int (*fn)(unsigned long), unsigned long *iters)
{
    if (!*iters)
        *iters = chain_iters(fn, 20e-6, 100);
    double best = 0;
    for (int r = 0; r < PROBE_RUNS; r++) {
        double m = chain_mhz(fn, *iters);
        best = m > best ? m : best;
    }
    return best;
}

double clock_probe_mhz(void)
{
    static unsigned long iters;
    return have_chain() ? probe(chain, &iters) : 0;
}

/* Millions of vector adds per second, same method; compared with itself only. */
double clock_probe_vector_rate(void)
{
    static unsigned long iters;
    static int have = -1;
    if (have < 0)
        have = have_vchain();
    return have ? probe(vchain, &iters) : 0;
}

_Alignas(64) static uint64_t lbuf[2048];
static volatile uint64_t lsink;

/* A cache line a step: eight loads summed, a store to another line (the sum depends on the
 * loads, so neither can be dropped). */
static int lchain(unsigned long iters)
{
    uint64_t s = 0;
    for (unsigned long i = 0; i < iters; i++) {
        size_t k = (size_t)(i * 8) & 2047;
        s += lbuf[k] + lbuf[k + 1];
        s ^= lbuf[k + 2] + lbuf[k + 3];
        s += lbuf[k + 4] + lbuf[k + 5];
        s ^= lbuf[k + 6] + lbuf[k + 7];
        lbuf[(k * 7 + 3) & 2047] = s;
    }
    lsink = s;
    return 0;
}

double clock_probe_load_rate(void)
{
    static unsigned long iters;
    if (!iters) {
        lchain(4096); /* the buffer's first touch (page faults, cache misses) is no rate */
        iters = chain_iters(lchain, 20e-6, 100);
    }
    return probe(lchain, &iters);
}

long clock_cpufreq_khz(void)
{
    char path[96];
    int cpu = sched_getcpu();
    if (cpu < 0)
        return -1;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
    FILE *f = fopen(path, "r");
    long khz = -1;
    if (f) {
        if (fscanf(f, "%ld", &khz) != 1)
            khz = -1;
        fclose(f);
    }
    return khz;
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
