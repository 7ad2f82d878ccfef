#include "kcrypto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_alg.h>

#ifndef AF_ALG
#define AF_ALG 38 /* include/linux/socket.h */
#endif

static struct kcrypto_driver *table;
static size_t ntable;
static int loaded;

/* Copies the value of a "key : value" line into dst. */
static void field(char *dst, size_t n, const char *line)
{
    const char *v = strchr(line, ':');
    v = v ? v + 1 : line;
    while (*v == ' ' || *v == '\t')
        v++;
    snprintf(dst, n, "%s", v);
    dst[strcspn(dst, "\n")] = '\0';
}

static int starts(const char *line, const char *key)
{
    size_t k = strlen(key);
    return strncmp(line, key, k) == 0 && (line[k] == ' ' || line[k] == '\t' || line[k] == ':');
}

int kcrypto_reload(char *why, size_t n)
{
    /* Tests read a captured table instead (tests/kernel/proc-crypto-*.txt). */
    const char *path = getenv("ACCELSCOPE_PROC_CRYPTO");
    path = path && *path ? path : "/proc/crypto";
    FILE *f = fopen(path, "r");
    loaded = 1;
    ntable = 0;
    if (!f) {
        snprintf(why, n, "cannot read %s: %s (is /proc mounted?)", path, strerror(errno));
        return -1;
    }
    size_t cap = 0;
    char line[256];
    struct kcrypto_driver *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        if (starts(line, "name")) {
            if (ntable == cap) {
                size_t ncap = cap ? 2 * cap : 64;
                struct kcrypto_driver *t = realloc(table, ncap * sizeof *t);
                if (!t)
                    break;
                table = t;
                cap = ncap;
            }
            cur = &table[ntable++];
            memset(cur, 0, sizeof *cur);
            field(cur->name, sizeof cur->name, line);
        } else if (!cur) {
            continue;
        } else if (starts(line, "driver")) {
            field(cur->driver, sizeof cur->driver, line);
        } else if (starts(line, "module")) {
            field(cur->module, sizeof cur->module, line);
        } else if (starts(line, "type")) {
            field(cur->type, sizeof cur->type, line);
        } else if (starts(line, "selftest")) {
            field(cur->selftest, sizeof cur->selftest, line);
        } else if (starts(line, "priority")) {
            cur->priority = atoi(strchr(line, ':') ? strchr(line, ':') + 1 : "0");
        } else if (starts(line, "internal")) {
            char v[8];
            field(v, sizeof v, line);
            cur->internal = strcmp(v, "yes") == 0;
        }
    }
    fclose(f);
    return (int)ntable;
}

static void load(void)
{
    char why[128];
    if (!loaded)
        kcrypto_reload(why, sizeof why);
}

/* Which /proc/crypto types each AF_ALG type binds (crypto/algif_*.c: skcipher also reaches
 * lskcipher since 6.7; hash takes shash and ahash; older kernels said blkcipher/ablkcipher). */
static int type_serves(const char *afalg_type, const char *type)
{
    static const struct {
        const char *afalg, *proc;
    } map[] = {
        { "skcipher", "skcipher" }, { "skcipher", "lskcipher" }, { "skcipher", "blkcipher" },
        { "skcipher", "ablkcipher" }, { "skcipher", "givcipher" }, { "aead", "aead" },
        { "aead", "nivaead" },        { "hash", "shash" },        { "hash", "ahash" },
        { "rng", "rng" },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].afalg, afalg_type) == 0 && strcmp(map[i].proc, type) == 0)
            return 1;
    return 0;
}

const struct kcrypto_driver *kcrypto_next(const char *name, const char *afalg_type,
                                          const struct kcrypto_driver *prev)
{
    load();
    size_t i = prev ? (size_t)(prev - table) + 1 : 0;
    for (; i < ntable; i++) {
        const struct kcrypto_driver *d = &table[i];
        if (d->internal || strcmp(d->name, name) != 0 || !type_serves(afalg_type, d->type))
            continue;
        /* Some drivers show twice (one entry per type they register); keep the first. */
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(table[j].driver, d->driver) == 0 && strcmp(table[j].name, name) == 0 &&
                   !table[j].internal && type_serves(afalg_type, table[j].type);
        if (!seen)
            return d;
    }
    return NULL;
}

const struct kcrypto_driver *kcrypto_by_driver(const char *driver)
{
    load();
    for (size_t i = 0; i < ntable; i++)
        if (strcmp(table[i].driver, driver) == 0)
            return &table[i];
    return NULL;
}

const struct kcrypto_driver *kcrypto_default(const char *name, const char *afalg_type)
{
    const struct kcrypto_driver *best = NULL;
    for (const struct kcrypto_driver *d = kcrypto_next(name, afalg_type, NULL); d;
         d = kcrypto_next(name, afalg_type, d))
        if (!best || d->priority > best->priority)
            best = d;
    return best;
}

/* The kernel option that provides AF_ALG type t: "CONFIG_CRYPTO_USER_API_SKCIPHER". */
static const char *config_option(const char *afalg_type)
{
    if (strcmp(afalg_type, "skcipher") == 0)
        return "CONFIG_CRYPTO_USER_API_SKCIPHER";
    if (strcmp(afalg_type, "aead") == 0)
        return "CONFIG_CRYPTO_USER_API_AEAD";
    if (strcmp(afalg_type, "hash") == 0)
        return "CONFIG_CRYPTO_USER_API_HASH";
    if (strcmp(afalg_type, "rng") == 0)
        return "CONFIG_CRYPTO_USER_API_RNG";
    return "CONFIG_CRYPTO_USER_API";
}

/* The reason for a failed socket(AF_ALG) (net/socket.c: __sock_create, security hooks). */
static void socket_reason(int err, const char *afalg_type, char *why, size_t n)
{
    if (err == EAFNOSUPPORT)
        snprintf(why, n, "AF_ALG not in this kernel (EAFNOSUPPORT): needs %s",
                 afalg_type ? config_option(afalg_type)
                            : "CONFIG_CRYPTO_USER_API_SKCIPHER/HASH/AEAD");
    else if (err == EPERM || err == EACCES)
        snprintf(why, n,
                 "socket(AF_ALG) denied (%s): blocked by a sandbox, seccomp filter or LSM policy",
                 err == EPERM ? "EPERM" : "EACCES");
    else
        snprintf(why, n, "socket(AF_ALG): %s", strerror(err));
}

int kcrypto_afalg_status(char *why, size_t n)
{
    int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        socket_reason(errno, NULL, why, n);
        return 0;
    }
    close(fd);
    snprintf(why, n, "AF_ALG available");
    return 1;
}

/* ENOENT from bind means either the AF_ALG type's module (algif_*) or the algorithm is
 * missing (crypto/af_alg.c: alg_bind -> alg_get_type, then type->bind -> crypto_alloc_*).
 * When /proc/crypto lists the name, the algorithm is there, so the type is what is missing. */
static void enoent_reason(const char *afalg_type, const char *name, const char *modules,
                          char *why, size_t n)
{
    const struct kcrypto_driver *d = kcrypto_by_driver(name);
    if (!d)
        d = kcrypto_default(name, afalg_type);
    if (d && !d->internal)
        snprintf(why, n,
                 "AF_ALG type %s not loaded (ENOENT): modprobe algif_%s (%s)", afalg_type,
                 afalg_type, config_option(afalg_type));
    else if (modules && *modules)
        snprintf(why, n, "no driver loaded for %s (ENOENT): modprobe -a %s", name, modules);
    else
        snprintf(why, n,
                 "no driver loaded for %s (ENOENT): load the module that provides it "
                 "(/proc/crypto lists what is loaded)",
                 name);
}

int kcrypto_bind(const char *afalg_type, const char *name, const char *modules, char *why,
                 size_t n)
{
    struct sockaddr_alg sa = { .salg_family = AF_ALG };
    if (strlen(afalg_type) >= sizeof sa.salg_type || strlen(name) >= sizeof sa.salg_name) {
        snprintf(why, n, "name too long for AF_ALG: %s", name);
        return -1;
    }
    memcpy(sa.salg_type, afalg_type, strlen(afalg_type));
    memcpy(sa.salg_name, name, strlen(name));
    int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        socket_reason(errno, afalg_type, why, n);
        return -1;
    }
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0)
        return fd;
    int err = errno;
    close(fd);
    if (err == ENOENT) {
        kcrypto_reload(why, n); /* the bind may have loaded modules */
        enoent_reason(afalg_type, name, modules, why, n);
    } else if (err == EPERM || err == EACCES) {
        socket_reason(err, afalg_type, why, n);
    } else if (err == ELIBBAD) {
        snprintf(why, n, "%s failed the kernel's self-test (ELIBBAD): the driver is disabled",
                 name);
    } else {
        snprintf(why, n, "bind(AF_ALG %s %s): %s", afalg_type, name, strerror(err));
    }
    return -1;
}
