/* The backends, each defined in its own file; backends/all.c lists them for the registry. */
#ifndef ACCELSCOPE_BACKENDS_ALL_H
#define ACCELSCOPE_BACKENDS_ALL_H

#include "impl.h"

extern const struct backend backend_portable;   /* backends/portable/ */
extern const struct backend backend_portable_pk; /* backends/portable_pk.c (public-key ops) */
extern const struct backend backend_openssl;    /* backends/openssl.c */
extern const struct backend backend_openssl_pk; /* backends/openssl_pk.c (public-key ops) */
extern const struct backend backend_direct;     /* backends/direct.c (asm/x86_64 kernels) */
extern const struct backend backend_direct_arm; /* backends/direct_arm.c (asm/aarch64) */
extern const struct backend backend_padlock;    /* backends/padlock.c (asm/x86, VIA PadLock) */
extern const struct backend backend_rng;        /* backends/rng.c (RDRAND, getrandom, ...) */
extern const struct backend backend_afalg;      /* backends/afalg.c */
extern const struct backend backend_keyctl;     /* backends/keyctl.c (kernel public-key ops) */
extern const struct backend backend_ossl_engine; /* backends/ossl_engine.c: ENGINE list */
extern const struct backend backend_fault;      /* backends/fault.c, test-only */

#endif
