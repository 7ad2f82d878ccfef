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

/* One reading of the effective core clock around a timed sample: the fastest of four
 * ~20 us runs of the dependent-add chain (~80 us in all), MHz; 0 where unsupported. The
 * length of a run is fixed at the first call so that readings compare. */
double clock_probe_mhz(void);

/* The vector unit's rate around a timed sample, same method: millions of 256-bit integer
 * adds per second in four independent chains (port-bound, as SIMD code is, where the scalar
 * probe is latency-bound), where cpu_has(FEAT_AVX2); 0 where not measured. SIMD code can
 * slow down while scalar code does not. Only comparable with itself. */
double clock_probe_vector_rate(void);

/* The memory path's rate around a timed sample, same method: loads and a
 * store a cache line over a 16 KiB buffer (in L1 on cores with 32 KiB or more). On the Zen 5 VM
 * a load probe moves with the speed of crypto code (tests/bench/probes_bench.c: correlation
 * 0.98 with portable sha256, 45 % from the 5th to the 95th percentile) while the clock probe
 * moves 3 %: the host slows the memory path, not the core's clock. Only comparable with
 * itself; never 0 (plain C). */
double clock_probe_load_rate(void);

/* cpufreq's idea of the clock of the CPU this thread runs on, kHz
 * (/sys/devices/system/cpu/cpuN/cpufreq/scaling_cur_freq, Documentation/admin-guide/pm/
 * cpufreq.rst); -1 where the kernel exposes no cpufreq (most VMs). */
long clock_cpufreq_khz(void);

/* 1 when perf_event_open gives hardware cycles here; else 0 and the errno reason. */
int clock_pmu_status(char *why, size_t n);

#endif
