/* The machine's clocks: time-stamp counter rate, core clock, hardware cycle counters. */
#ifndef ACCELSCOPE_CLOCK_H
#define ACCELSCOPE_CLOCK_H

#include <stddef.h>

/* TSC ticks per microsecond, measured against CLOCK_MONOTONIC across a 20 ms sleep;
 * 0 where there is no invariant TSC (then why says so). */
double clock_tsc_mhz(char *why, size_t n);

/* The architecture's fixed-rate counter: "TSC" on x86 (invariant: CPUID.80000007H:EDX[8]),
 * "generic timer" on aarch64 (CNTFRQ_EL0), into *label. Its MHz and, in what, how it was read;
 * 0 and the reason in what where there is none. */
double clock_counter_mhz(const char **label, char *what, size_t n);

/* The core clock, from a chain of dependent one-cycle adds (as libgcrypt's bench-slope
 * --cpu-mhz auto): the fastest of 101 ~1 ms runs, ~120 ms in all. 0 where unsupported. */
double clock_core_mhz(char *why, size_t n);

/* 1 when perf_event_open gives hardware cycles here; else 0 and the errno reason. */
int clock_pmu_status(char *why, size_t n);

#endif
