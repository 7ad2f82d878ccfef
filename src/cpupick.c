/* Picking a group's CPU (cpupick.h). */
#include "cpupick.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "stats.h"

#define READINGS 3 /* per CPU: the best of them, as the probes themselves take the fastest run */

static int on_cpu(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one);
}

static double reading(void)
{
    double best = 0;
    for (int k = 0; k < READINGS; k++) {
        double mhz = clock_probe_mhz(), f = stats_load_figure(clock_probe_load_rate(), mhz);
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
    int ids[CPU_SETSIZE], k = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all))
            ids[k++] = c;
    int tries = count < CPUPICK_MAX ? count : CPUPICK_MAX, best = -1;
    double top = 0;
    for (int t = 0; t < tries; t++) {
        int cpu = ids[(window + (unsigned)t) % (unsigned)count];
        if (on_cpu(cpu))
            continue; /* gone offline since the set was read */
        double f = reading();
        if (best < 0 || f > top)
            best = cpu, top = f;
    }
    window += (unsigned)tries;
    if (sched_setaffinity(0, sizeof all, &all))
        return snprintf(why, n, "affinity not restored: %s", strerror(errno)), -1;
    if (best < 0)
        return snprintf(why, n, "no CPU of the set would take this process"), -1;
    return best;
}

static cpu_set_t before; /* the set before cpupick_avoid, while away */
static int away;

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
