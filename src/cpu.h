/* Machine detection: CPU identity and crypto features. */
#ifndef ACCELSCOPE_CPU_H
#define ACCELSCOPE_CPU_H

#include <stddef.h>

#include "feature.h"

struct cpu_info {
    char arch[65];          /* "x86_64", "i686", "aarch64" */
    char vendor[32];
    char brand[96];
    char codename[64];      /* libcpuid's; "" where unknown or not to be trusted */
    char codename_note[96]; /* when codename is "": why, e.g. "unknown to libcpuid 0.6.2" */
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
/* 1 when ACCELSCOPE_DENY names f, or a feature f cannot be without (cpu_deny_close): a denied
 * AVX takes every VEX and EVEX instruction set with it. */
int cpu_denied(enum feature f);
/* Marks in off (indexed by enum feature) the features no CPU has, or can run, without one
 * marked: VAES without AES-NI or AVX, VPCLMULQDQ without PCLMULQDQ or AVX, AVX2 without AVX,
 * AVX-512F without AVX2, AVX-512BW/VL without AVX-512F. 1 when it marked any. */
int cpu_deny_close(unsigned char off[FEAT_COUNT]);

/* Whether libcpuid's codename for this (vendor, family, model) can be believed: 1 when
 * libcpuid `libver` knows the family and model (its tables, checked against 0.6.2's); else 0
 * and, in note, "unknown to libcpuid 0.6.2 (family 0x1a model 0x2)". libcpuid does not say
 * when it guesses: for a family it has no table for it names the nearest it has (family 0x1A,
 * Zen 5, comes out as "Abu Dhabi", a 2012 Opteron). A wrong name is worse than none. */
int cpu_codename_trusted(const char *vendor, int family, int model, const char *libver,
                         char *note, size_t n);

/* 0 when every word of ACCELSCOPE_DENY names a feature; else -1 and the accepted words. */
int cpu_deny_check(char *why, size_t n);

#endif
