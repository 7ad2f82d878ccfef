/* Every implementation of every backend, in one list. */
#ifndef ACCELSCOPE_REGISTRY_H
#define ACCELSCOPE_REGISTRY_H

#include "impl.h"

extern const struct backend backend_portable; /* backends/portable/ */
extern const struct backend backend_openssl;  /* backends/openssl.c */
extern const struct backend backend_direct;   /* backends/direct.c (asm/x86_64 kernels) */
extern const struct backend backend_direct_arm; /* backends/direct_arm.c (asm/aarch64) */
extern const struct backend backend_padlock;  /* backends/padlock.c (asm/x86, VIA PadLock) */
extern const struct backend backend_rng;      /* backends/rng.c (RDRAND, getrandom, ...) */
extern const struct backend backend_afalg;    /* backends/afalg.c */
extern const struct backend backend_fault;    /* backends/fault.c, test-only */

size_t registry_count(void);
const struct impl *registry_get(size_t i);
const struct impl *registry_find(const char *alg, const char *name);

/* The implementation a worker checks im's output against: the first available of the
 * portable C and OpenSSL implementations that belongs to another backend; NULL if none. */
const struct impl *registry_reference(const struct impl *im);

/* The backends themselves, for their describe() hooks. */
size_t registry_backends(const struct backend *const **out);

#endif
