/* The timed instruction loops src/silicon.c measures the silicon with: declared here, defined
 * by backends/microbench.c around the loops of asm/x86_64/ubench.S and the TSC, so the core
 * never sees the assembly. Which instruction may run (CPUID, the deny list) is the caller's
 * decision: a loop run on a CPU without its instruction raises SIGILL. */
#ifndef ACCELSCOPE_MICROBENCH_H
#define ACCELSCOPE_MICROBENCH_H

#include <stddef.h>
#include <stdint.h>

#include "silicon.h"

/* 0 when this build has the loops (x86-64); else nonzero and why. */
int microbench_check(char *why, size_t n);

/* TSC cycles per add of one run of iters iterations of a dependent 64-bit add chain: one
 * add per core cycle, so TSC MHz / this is the core clock. */
double microbench_add(uint64_t iters);

/* TSC cycles per instruction of one run of iters iterations of insn's loop: one dependent
 * chain (throughput 0: latency) or enough independent chains to fill the units (throughput
 * 1: reciprocal throughput). GCM's least-mix loops (SIL_GCM_*): TSC cycles per register of
 * blocks, throughput only. */
double microbench_insn(enum silicon_insn insn, int throughput, uint64_t iters);

#endif
