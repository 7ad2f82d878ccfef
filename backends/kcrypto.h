/* The Linux kernel crypto API as user space sees it, for the AF_ALG backend (afalg*.c):
 * /proc/crypto's driver table and the AF_ALG socket family (linux/if_alg.h;
 * Documentation/crypto/userspace-if.rst). */
#ifndef ACCELSCOPE_KCRYPTO_H
#define ACCELSCOPE_KCRYPTO_H

#include <stddef.h>

/* One /proc/crypto entry: a driver registered for an algorithm name. */
struct kcrypto_driver {
    char name[64];     /* algorithm: "cbc(aes)" */
    char driver[128];  /* cra_driver_name: "cbc-aes-aesni", "cbc(aes-generic)" */
    char module[48];   /* "aesni_intel", or "kernel" when built in */
    char type[24];     /* "skcipher", "lskcipher", "aead", "shash", "ahash", ... */
    char selftest[16]; /* "passed", "unknown" (self-tests off), "failed" */
    int priority;      /* the kernel binds a generic name to the highest priority */
    int internal;      /* "internal: yes": not reachable from user space */
};

/* Reads /proc/crypto again (entries appear as templates get instantiated). Returns the
 * number of entries, or -1 with a reason when the file cannot be read. */
int kcrypto_reload(char *why, size_t n);

/* The next user-reachable driver registered for algorithm name whose type AF_ALG serves as
 * afalg_type ("skcipher", "aead", "hash"), after prev (NULL: the first); NULL at the end.
 * Reads /proc/crypto on first use. */
const struct kcrypto_driver *kcrypto_next(const char *name, const char *afalg_type,
                                          const struct kcrypto_driver *prev);

/* The entry whose cra_driver_name is driver, or NULL. */
const struct kcrypto_driver *kcrypto_by_driver(const char *driver);

/* The driver the kernel resolves name to: the highest-priority user-reachable entry (what
 * crypto_alg_mod_lookup picks). NULL when none is listed. */
const struct kcrypto_driver *kcrypto_default(const char *name, const char *afalg_type);

/* 1 when socket(AF_ALG, SOCK_SEQPACKET, 0) works here; else 0 and why (EAFNOSUPPORT:
 * kernel built without CONFIG_CRYPTO_USER_API; EPERM/EACCES: sandbox or seccomp). */
int kcrypto_afalg_status(char *why, size_t n);

/* Opens an AF_ALG transform socket bound to (afalg_type, name), name being an algorithm or a
 * driver name. Returns the fd, or -1 with a reason a person can act on: the kernel option for
 * the type, the sandbox, or the modules to load ("cbc aes_generic": the caller's hint for when
 * nothing answers to name). */
int kcrypto_bind(const char *afalg_type, const char *name, const char *modules, char *why,
                 size_t n);

#endif
