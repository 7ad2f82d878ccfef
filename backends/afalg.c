/* The kernel path: one implementation per driver /proc/crypto lists for each algorithm the
 * kernel names, bound over AF_ALG by driver name, plus "kernel", the generic name, i.e. the
 * driver the kernel itself picks (the highest priority).
 *
 * Raw sockets rather than libkcapi: the backend needs the errno of each step (socket, bind,
 * setsockopt, accept) to say what is missing, and its own IV/counter chaining and transfer
 * choice; libkcapi would add a shared library to every kernel image tested for ~300 lines
 * saved, and the Makefile treats it as optional, so a raw path would be needed anyway. */
#include "afalg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kcrypto.h"
#include "all.h"

/* Each kernel algorithm: the spelling that instantiates its all-generic driver (templates over
 * the C implementations appear in /proc/crypto only once something asks for them), and what
 * to modprobe when nothing answers to the name. */
static const struct kalg {
    const char *kernel, *type, *generic, *modules;
} kalgs[] = {
    { .kernel = "cbc(aes)", .type = "skcipher", .generic = "cbc(aes-generic)",
      .modules = "cbc aes_generic" },
    { .kernel = "ctr(aes)", .type = "skcipher", .generic = "ctr(aes-generic)",
      .modules = "ctr aes_generic" },
    { .kernel = "gcm(aes)", .type = "aead", .generic = "gcm_base(ctr(aes-generic),ghash-generic)",
      .modules = "gcm ghash_generic aes_generic" },
    { .kernel = "rfc7539(chacha20,poly1305)", .type = "aead",
      .generic = "rfc7539(chacha20-generic,poly1305-generic)",
      .modules = "chacha20poly1305 chacha_generic poly1305_generic" },
    { .kernel = "md5", .type = "hash", .generic = "md5-generic", .modules = "md5" },
    { .kernel = "sha1", .type = "hash", .generic = "sha1-generic", .modules = "sha1_generic" },
    { .kernel = "sha256", .type = "hash", .generic = "sha256-generic",
      .modules = "sha256_generic" },
    { .kernel = "sha512", .type = "hash", .generic = "sha512-generic",
      .modules = "sha512_generic" },
};

#define EXTRA_ENV "ACCELSCOPE_AFALG_DRIVERS"
#define CRYPTO_NAME_MAX 128 /* CRYPTO_MAX_ALG_NAME in <linux/crypto.h>, with its NUL */

static struct impl *list;
static struct afalg_target *targets;
static size_t nlist;

static const struct kalg *kalg_find(const char *kernel)
{
    for (size_t i = 0; i < sizeof kalgs / sizeof kalgs[0]; i++)
        if (strcmp(kalgs[i].kernel, kernel) == 0)
            return &kalgs[i];
    return NULL;
}

/* Asks the kernel for each algorithm by its generic name and by its all-generic driver
 * spelling, so that /proc/crypto lists the default and the generic driver before we read it.
 * Skipped where both are listed already (every worker after the first process). Returns 1
 * when it asked for anything, i.e. /proc/crypto must be read again. */
static int instantiate(void)
{
    char why[256];
    int asked = 0;
    for (size_t i = 0; i < sizeof kalgs / sizeof kalgs[0]; i++) {
        const struct kalg *k = &kalgs[i];
        if (kcrypto_default(k->kernel, k->type) && kcrypto_by_driver(k->generic))
            continue;
        const char *names[] = { k->kernel, k->generic };
        asked = 1;
        for (size_t j = 0; j < 2; j++) {
            int fd = kcrypto_bind(k->type, names[j], NULL, why, sizeof why);
            if (fd >= 0)
                close(fd);
        }
    }
    return asked;
}

static int by_priority(const void *x, const void *y)
{
    const struct kcrypto_driver *a = *(const struct kcrypto_driver *const *)x;
    const struct kcrypto_driver *b = *(const struct kcrypto_driver *const *)y;
    return b->priority - a->priority;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, f);
    if (vasprintf(&s, f, ap) < 0)
        abort();
    va_end(ap);
    return s;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        abort();
    return d;
}

/* The ACCELSCOPE_AFALG_DRIVERS entry after *p ("alg:driver", split at commas outside
 * parentheses, since driver names hold commas), copied whole into alg and drv. 0 at the end;
 * -1 with why for an entry that is not alg:driver with names that fit. */
static int next_extra(const char **p, char *alg, size_t na, char *drv, size_t nd, char *why,
                      size_t n)
{
    const char *s = *p;
    while (*s == ',' || *s == ' ')
        s++;
    if (!*s)
        return 0;
    const char *e = s;
    for (int depth = 0; *e && (depth || *e != ','); e++)
        depth += (*e == '(') - (*e == ')');
    *p = e;
    const char *colon = memchr(s, ':', (size_t)(e - s));
    size_t la = colon ? (size_t)(colon - s) : 0, ld = colon ? (size_t)(e - colon - 1) : 0;
    while (ld && colon[ld] == ' ')
        ld--;
    if (!la || !ld || la >= na || ld >= nd) {
        snprintf(why, n, EXTRA_ENV ": bad entry '%.*s'; accepted: alg:driver entries, comma "
                 "separated (e.g. sha256:sha256-generic; alg up to %zu and driver up to %zu "
                 "characters)", (int)(e - s), s, na - 1, nd - 1);
        return -1;
    }
    snprintf(alg, na, "%.*s", (int)la, s);
    snprintf(drv, nd, "%.*s", (int)ld, colon + 1);
    return 1;
}

int afalg_env_check(char *why, size_t n)
{
    char alg[64], drv[CRYPTO_NAME_MAX];
    int rc;
    for (const char *p = getenv(EXTRA_ENV);
         p && (rc = next_extra(&p, alg, sizeof alg, drv, sizeof drv, why, n));) {
        if (rc < 0)
            return -1;
        const struct algo *a = algo_find(alg);
        for (size_t i = 0; !a && i < algo_count; i++)
            if (algo_table[i].kernel && !strcmp(algo_table[i].kernel, alg))
                a = &algo_table[i];
        if (!a || !a->kernel || !a->afalg_type) {
            snprintf(why, n, EXTRA_ENV ": '%s' is not an algorithm the kernel path measures; "
                     "accepted: alg:driver with alg an accelscope or kernel name (sha256, "
                     "cbc(aes))", alg);
            return -1;
        }
    }
    return 0;
}

static void add(const struct algo *a, const char *name, const char *bind, const char *modules,
                const char *note)
{
    targets[nlist] = (struct afalg_target){ .algo = a, .bind = bind, .modules = modules };
    list[nlist] = (struct impl){
        .alg = a->id, .name = name, .backend = "afalg", .path = PATH_KERNEL, .note = note,
        .ctx_size = afalg_ctx_size, .data = &targets[nlist], .check = afalg_check,
        .init = afalg_init, .op = afalg_op, .cleanup = afalg_cleanup,
    };
    nlist++;
}

static int listed(const struct algo *a, const char *name)
{
    for (size_t i = 0; i < nlist; i++)
        if (list[i].alg == a->id && strcmp(list[i].name, name) == 0)
            return 1;
    return 0;
}

static char *driver_note(const struct kcrypto_driver *d, const char *xfer)
{
    return fmt("%s: priority %d, module %s, self-test %s; %s", d->name, d->priority, d->module,
               d->selftest[0] ? d->selftest : "not reported", xfer);
}

/* How data reaches the kernel, and for AEADs how much one message may carry (malloc'd). */
static char *transfer_note(const struct algo *a)
{
    long optmem = 0;
    size_t max = afalg_aead_max(&optmem);
    if (a->kind != ALGO_AEAD || !max)
        return xstrdup(afalg_transfer_note(a->kind));
    return fmt("%s; one message of at most ~%zu KiB (AF_ALG charges a request to "
               "net.core.optmem_max, %ld here)",
               afalg_transfer_note(a->kind), max / 1024, optmem);
}

static void add_algo(const struct algo *a, const struct kalg *k, const char *extra)
{
    char *xfer = transfer_note(a);
    const struct kcrypto_driver *def = kcrypto_default(a->kernel, a->afalg_type);
    add(a, "kernel", a->kernel, k ? k->modules : NULL,
        def ? fmt("the kernel's choice for %s: %s (highest priority, %d, module %s); %s",
                  a->kernel, def->driver, def->priority, def->module, xfer)
            : fmt("the kernel's choice for %s: none listed in /proc/crypto; %s", a->kernel,
                  xfer));

    const struct kcrypto_driver *v[64];
    size_t nv = 0;
    for (const struct kcrypto_driver *d = kcrypto_next(a->kernel, a->afalg_type, NULL);
         d && nv < sizeof v / sizeof v[0]; d = kcrypto_next(a->kernel, a->afalg_type, d))
        v[nv++] = d;
    qsort(v, nv, sizeof v[0], by_priority);
    for (size_t i = 0; i < nv; i++) {
        char *drv = xstrdup(v[i]->driver);
        const char *mod = strcmp(v[i]->module, "kernel") ? xstrdup(v[i]->module) : NULL;
        add(a, drv, drv, mod, driver_note(v[i], xfer));
    }

    char alg[64], drv[CRYPTO_NAME_MAX], why[300];
    /* Bad entries are refused by afalg_env_check() in every front end: skipped here. */
    for (const char *p = extra; p && next_extra(&p, alg, sizeof alg, drv, sizeof drv, why,
                                                sizeof why) > 0;) {
        if ((strcmp(alg, a->id) != 0 && strcmp(alg, a->kernel) != 0) || listed(a, drv))
            continue;
        const struct kcrypto_driver *d = kcrypto_by_driver(drv);
        char *name = xstrdup(drv);
        add(a, name, name, NULL,
            d ? driver_note(d, xfer)
              : fmt("bound by driver name from " EXTRA_ENV " (not in /proc/crypto); %s", xfer));
    }
    free(xfer); /* the notes hold copies */
}

/* Upper bound on the implementations: per algorithm, "kernel", its drivers and the extras. */
static size_t capacity(const char *extra)
{
    size_t cap = 0;
    for (size_t i = 0; i < algo_count; i++) {
        const struct algo *a = &algo_table[i];
        if (!a->kernel || !a->afalg_type)
            continue;
        cap++;
        for (const struct kcrypto_driver *d = kcrypto_next(a->kernel, a->afalg_type, NULL); d;
             d = kcrypto_next(a->kernel, a->afalg_type, d))
            cap++;
        for (const char *p = extra; p && *p; p++)
            cap += *p == ':';
    }
    return cap;
}

/* The backend's discover(): instantiates the templates, reads /proc/crypto, lists. */
static void build(void)
{
    char why[256];
    if (list)
        return;
    if (kcrypto_afalg_status(why, sizeof why) && instantiate())
        kcrypto_reload(why, sizeof why);
    const char *extra = getenv(EXTRA_ENV);
    size_t cap = capacity(extra);
    list = calloc(cap ? cap : 1, sizeof *list);
    targets = calloc(cap ? cap : 1, sizeof *targets);
    if (!list || !targets)
        abort();
    for (size_t i = 0; i < algo_count; i++)
        if (algo_table[i].kernel && algo_table[i].afalg_type)
            add_algo(&algo_table[i], kalg_find(algo_table[i].kernel), extra);
}

/* What discover() found: nothing before it. */
static const struct impl *impls(size_t *count)
{
    *count = nlist;
    return list;
}

/* /proc/crypto's table for the algorithms accelscope measures, and whether AF_ALG answers. */
static void describe(FILE *out)
{
    char why[256];
    int ok = kcrypto_afalg_status(why, sizeof why);
    fprintf(out, "afalg: %s%s\n", ok ? "" : "unavailable: ", why);
    fprintf(out, "afalg.cipher %s\n", afalg_transfer_note(ALGO_CIPHER));
    fprintf(out, "afalg.hash %s\n", afalg_transfer_note(ALGO_DIGEST));
    long optmem = 0;
    size_t max = afalg_aead_max(&optmem);
    if (max)
        fprintf(out, "afalg.aead max message: ~%zu KiB (net.core.optmem_max %ld)\n",
                max / 1024, optmem);
    for (size_t i = 0; i < sizeof kalgs / sizeof kalgs[0]; i++) {
        const struct kalg *k = &kalgs[i];
        const struct kcrypto_driver *def = kcrypto_default(k->kernel, k->type);
        if (!def)
            fprintf(out, "afalg.driver: %-28s (none in /proc/crypto: modprobe -a %s)\n",
                    k->kernel, k->modules);
        for (const struct kcrypto_driver *d = kcrypto_next(k->kernel, k->type, NULL); d;
             d = kcrypto_next(k->kernel, k->type, d))
            fprintf(out,
                    "afalg.driver: %-28s %-44s module=%s priority=%d selftest=%s%s\n",
                    k->kernel, d->driver, d->module, d->priority,
                    d->selftest[0] ? d->selftest : "-", d == def ? " default" : "");
    }
}

const struct backend backend_afalg = {
    .name = "afalg", .impls = impls, .describe = describe, .discover = build,
    .check_env = afalg_env_check,
};
