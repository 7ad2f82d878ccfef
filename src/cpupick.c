/* Picking a group's CPU (cpupick.h). */
#include "cpupick.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "clock.h"
#include "procstat.h"

#define READINGS 3 /* per CPU: the best of them, as the probes themselves take the fastest run */
/* Busy CPUs, from /proc/stat (procstat.h) between one verdict on a CPU and the next (a
 * column's time or more): a CPU whose user ticks, programs', other than accelscope's workers'
 * were more than half of its ticks is busy, and workers pinned there would share it
 * (descheduled rounds) where the scheduler would have moved them away. User time only, as the
 * co-runner rule (stats.h): the kernel's helpers for our own work run in system time. The
 * probe cannot tell: it runs in the slice a scheduler gives a newcomer, and read a CPU with a
 * busy loop on it as fast as any (with this rule left out, tests/t_cpupick.c's picks took it
 * 0, 3 and 6 times of 6). The workers' own time is their CPU time (RUSAGE_CHILDREN: every
 * worker of the column before has been reaped), on the CPU picked last. A verdict needs
 * BUSY_MIN_TICKS since the one before; sooner, that one stands. */
#define BUSY_MIN_TICKS 20
#define TICK_NS 10000000.0 /* USER_HZ is 100 on every Linux ABI */

struct seen {
    long long user, total; /* its ticks at the last verdict; total 0 = none yet */
    double ours;           /* the workers' ticks on it since */
    unsigned char busy;    /* the verdict */
};
static struct seen seen[CPU_SETSIZE];
static double kids_ns; /* RUSAGE_CHILDREN at the last pick */
static int last_pick = -1;

static double children_ns(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_CHILDREN, &u))
        return 0;
    return ((double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec) * 1e9 +
           ((double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_usec) * 1e3;
}

static void judge_busy(const char *text, int cpu)
{
    struct seen *c = &seen[cpu];
    long long user, total;
    if (procstat_cpu(text, cpu, &user, &total)) {
        c->busy = 0;
        return;
    }
    if (c->total && total - c->total < BUSY_MIN_TICKS)
        return;
    c->busy = c->total && (double)(user - c->user) - c->ours > (double)(total - c->total) / 2;
    c->user = user;
    c->total = total;
    c->ours = 0;
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

void cpupick_forget(void)
{
    for (int c = 0; c < CPU_SETSIZE; c++)
        seen[c] = (struct seen){ 0 };
    last_pick = -1;
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
    double kids = children_ns();
    if (last_pick >= 0 && kids > kids_ns)
        seen[last_pick].ours += (kids - kids_ns) / TICK_NS;
    kids_ns = kids;
    char *text = procstat_text();
    int ids[CPU_SETSIZE], k = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all))
            ids[k++] = c;
    int tries = count < CPUPICK_MAX ? count : CPUPICK_MAX, best = -1, best_free = -1;
    double top = 0, top_free = 0;
    for (int t = 0; t < tries; t++) {
        int cpu = ids[(window + (unsigned)t) % (unsigned)count];
        judge_busy(text, cpu);
        if (on_cpu(cpu))
            continue; /* gone offline since the set was read */
        double f = reading();
        if (best < 0 || f > top)
            best = cpu, top = f;
        if (!seen[cpu].busy && (best_free < 0 || f > top_free))
            best_free = cpu, top_free = f;
    }
    free(text);
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
    return cpu >= 0 && cpu < CPU_SETSIZE && seen[cpu].busy;
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
