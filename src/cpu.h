/* Machine detection: CPU identity and crypto features. */
#ifndef ACCELSCOPE_CPU_H
#define ACCELSCOPE_CPU_H

#include <stddef.h>

#include "feature.h"

struct cpu_info {
    char arch[65];          /* "x86_64", "i686", "aarch64" */
    char vendor[32];
    char brand[96];
    char codename[64];      /* libcpuid's; "" where unknown */
    int family, model, stepping;
    int cores, threads;     /* physical cores, logical CPUs online */
    int l1d_kb, l2_kb, l3_kb; /* 0 where unknown */
    unsigned char present[FEAT_COUNT]; /* the hardware reports it */
    unsigned char enabled[FEAT_COUNT]; /* and it may be used: OS state saved (XCR0) or, for
                                          PadLock, the unit's enable bit */
};

/* Detects once (cheap: CPUID/getauxval, no timing), then returns the cached result. */
const struct cpu_info *cpu_get(void);

/* 1 when feature f may be used: present, enabled and not denied by ACCELSCOPE_DENY (a comma
 * list of feature keys, the project's own mask). Otherwise 0 and, when why is not NULL, a
 * reason a person can act on: "CPU lacks VAES (CPUID.7.0:ECX[9])", "PadLock ACE present but
 * not enabled", "denied by ACCELSCOPE_DENY". */
int cpu_feature_status(enum feature f, char *why, size_t n);
int cpu_has(enum feature f);
int cpu_denied(enum feature f);

/* 0 when every word of ACCELSCOPE_DENY names a feature; else -1 and the accepted words. */
int cpu_deny_check(char *why, size_t n);

#endif
