/* A cycle clock for cycles-per-byte: the PMU's core cycles where the kernel lets us read
 * them, else the x86 time-stamp counter, else none. */
#ifndef ACCELSCOPE_CYCLES_H
#define ACCELSCOPE_CYCLES_H

#include <stdint.h>

struct cycles {
    int fd;            /* perf event, -1 if none */
    const char *name;  /* "pmu", "pmu-user" (kernel time not counted), "tsc", "none" */
};

/* A perf event counting this process's core cycles (user space only, *user_only = 1, where
 * perf_event_paranoid forbids more); -1 and *err (if not NULL) otherwise. */
int cycles_pmu_open(int *err, int *user_only);

void cycles_open(struct cycles *c);
uint64_t cycles_read(const struct cycles *c);
void cycles_close(struct cycles *c);

/* 1 when CPUID.80000007H:EDX[8] says the TSC runs at a constant rate in every state. */
int cycles_tsc_invariant(void);

#endif
