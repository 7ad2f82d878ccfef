/* Per-architecture detectors behind cpu_get(); each does nothing off its architecture. */
#ifndef ACCELSCOPE_CPU_PROBE_H
#define ACCELSCOPE_CPU_PROBE_H

#include "cpu.h"

void cpu_probe_x86(struct cpu_info *c);
void cpu_probe_arm(struct cpu_info *c);

#endif
