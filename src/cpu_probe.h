/* Per-architecture detectors behind cpu_get(); each does nothing off its architecture. */
#ifndef ACCELSCOPE_CPU_PROBE_H
#define ACCELSCOPE_CPU_PROBE_H

#include <stdio.h>

#include "cpu.h"

void cpu_probe_x86(struct cpu_info *c);
void cpu_probe_arm(struct cpu_info *c);

/* The MIDR_EL1 fields a /proc/cpuinfo stream states (implementer, variant, part, revision),
 * packed as the register holds them; 0 for what it does not state. */
unsigned long cpu_arm_cpuinfo_midr(FILE *f);

#endif
