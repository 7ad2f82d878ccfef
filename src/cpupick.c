/* Picking a group's CPU (cpupick.h). */
#include "cpupick.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "clock.h"

#define READINGS 3 /* per CPU: the best of them, as the probes themselves take the fastest run */
/* Busy CPUs, from /proc/stat (proc(5): cpuN user nice system idle iowait irq softirq steal,
 * in USER_HZ ticks) between one pick and the next (a column's time): a CPU that spent more
 * than half of it running programs other than accelscope's workers is busy, and workers
 * pinned there would share it (descheduled rounds) where the scheduler would have moved them
 * away. The probe cannot tell: it runs in the slice a scheduler gives a newcomer, and read a
 * CPU with a busy loop on it as fast as any (picked 6 times of 6 in tests/t_cpupick.c). The
 * workers' own time is their CPU time (RUSAGE_CHILDREN: every worker of the column before has
 * been reaped), on the CPU picked last. A verdict needs BUSY_MIN_TICKS; shorter, the last
 * verdict stands. */
#define BUSY_MIN_TICKS 20
#define TICK_NS 10000000.0 /* USER_HZ is 100 on every Linux ABI */

static long long stat_busy[CPU_SETSIZE], stat_total[CPU_SETSIZE]; /* at the last verdict */
static double ours[CPU_SETSIZE]; /* the workers' ticks on each CPU since then */
static double kids_ns;           /* RUSAGE_CHILDREN at the last pick */
static int last_pick = -1, stat_seen;
static unsigned char busy[CPU_SETSIZE];

static double children_ns(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_CHILDREN, &u))
        return 0;
    return ((double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec) * 1e9 +
           ((double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_usec) * 1e3;
}

/* cpuN lines of /proc/stat into busy and all ticks; 0 when unreadable. */
static int read_stat(long long *nb, long long *nt)
{
    static char text[1 << 16];
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return 0;
    size_t k = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[k] = 0;
    memset(nt, 0, CPU_SETSIZE * sizeof *nt);
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        int cpu;
        long long v[8];
        if (strncmp(l, "cpu", 3) || sscanf(l + 3, "%d %lld %lld %lld %lld %lld %lld %lld %lld",
                                           &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                                           &v[6], &v[7]) < 9 || cpu < 0 || cpu >= CPU_SETSIZE)
            continue;
        nb[cpu] = v[0] + v[1] + v[2] + v[5] + v[6];
        nt[cpu] = nb[cpu] + v[3] + v[4] + v[7];
    }
    return 1;
}

static void judge_busy(void)
{
    static long long nb[CPU_SETSIZE], nt[CPU_SETSIZE];
    double kids = children_ns();
    if (last_pick >= 0 && kids > kids_ns)
        ours[last_pick] += (kids - kids_ns) / TICK_NS;
    kids_ns = kids;
    if (!read_stat(nb, nt))
        return;
    long long span = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (nt[c] && nt[c] - stat_total[c] > span)
            span = nt[c] - stat_total[c];
    if (stat_seen && span < BUSY_MIN_TICKS)
        return; /* too short to judge: the last verdict stands, the ticks go on adding up */
    for (int c = 0; c < CPU_SETSIZE; c++) {
        long long dt = nt[c] - stat_total[c], db = nb[c] - stat_busy[c];
        busy[c] = stat_seen && nt[c] && dt > 0 && (double)db - ours[c] > (double)dt / 2;
        ours[c] = 0;
    }
    memcpy(stat_busy, nb, sizeof nb);
    memcpy(stat_total, nt, sizeof nt);
    stat_seen = 1;
}

static int on_cpu(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one);
}

/* The load probe's rate itself, not per MHz as the slow-phase rule has it: the pick wants
 * the CPU that runs fastest, and on a board of big and little cores that is a big one,
 * whatever the clocks (every column then on the same kind of core). */
static double reading(void)
{
    double best = 0;
    for (int k = 0; k < READINGS; k++) {
        double f = clock_probe_load_rate();
        if (f > best)
            best = f;
    }
    return best;
}

int cpupick_fastest(char *why, size_t n)
{
    static unsigned window; /* where the next pick starts among the set's CPUs */
    cpu_set_t all;
    if (sched_getaffinity(0, sizeof all, &all))
        return snprintf(why, n, "affinity unreadable: %s", strerror(errno)), -1;
    int count = CPU_COUNT(&all);
    if (count < 2)
        return snprintf(why, n, "one CPU to run on"), -1;
    judge_busy();
    int ids[CPU_SETSIZE], k = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all))
            ids[k++] = c;
    int tries = count < CPUPICK_MAX ? count : CPUPICK_MAX, best = -1, best_free = -1;
    double top = 0, top_free = 0;
    for (int t = 0; t < tries; t++) {
        int cpu = ids[(window + (unsigned)t) % (unsigned)count];
        if (on_cpu(cpu))
            continue; /* gone offline since the set was read */
        double f = reading();
        if (best < 0 || f > top)
            best = cpu, top = f;
        if (!busy[cpu] && (best_free < 0 || f > top_free))
            best_free = cpu, top_free = f;
    }
    if (best_free >= 0) /* every CPU busy: the fastest of them still */
        best = best_free;
    window += (unsigned)tries;
    if (sched_setaffinity(0, sizeof all, &all))
        return snprintf(why, n, "affinity not restored: %s", strerror(errno)), -1;
    if (best < 0)
        return snprintf(why, n, "no CPU of the set would take this process"), -1;
    last_pick = best;
    return best;
}

static cpu_set_t before; /* the set before cpupick_avoid, while away */
static int away;

int cpupick_busy(int cpu)
{
    return cpu >= 0 && cpu < CPU_SETSIZE && busy[cpu];
}

int cpupick_avoid(int cpu)
{
    cpu_set_t now, rest;
    if (away || sched_getaffinity(0, sizeof now, &now))
        return -1;
    rest = now;
    if (cpu >= 0 && cpu < CPU_SETSIZE)
        CPU_CLR(cpu, &rest);
    if (!CPU_COUNT(&rest) || CPU_EQUAL(&rest, &now) || sched_setaffinity(0, sizeof rest, &rest))
        return -1;
    before = now;
    away = 1;
    return 0;
}

void cpupick_restore(void)
{
    if (away)
        sched_setaffinity(0, sizeof before, &before);
    away = 0;
}

int cpupick_affinity(cpu_set_t *set)
{
    if (away)
        return *set = before, 0;
    return sched_getaffinity(0, sizeof *set, set) ? -1 : 0;
}
