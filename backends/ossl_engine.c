/* OpenSSL ENGINEs: the "engine" backend describes the ones libcrypto can load (for `info`
 * and the machine view); the engine rows themselves are variants of backends/openssl.c,
 * which measure through the same EVP calls as every other OpenSSL row. The ENGINE API is
 * deprecated in 3.0 yet is the only door to these engines: this file and openssl.c alone
 * silence the deprecation. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "ossl_engine.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/objects.h>

#include "all.h"
#include "cpu.h"
#include "kcrypto.h"

/* Where libcrypto looks for engine modules: $OPENSSL_ENGINES, else its built-in folder. */
static const char *engines_dir(void)
{
    static char dir[512];
    const char *env = getenv("OPENSSL_ENGINES");
    if (env && *env)
        return env;
    const char *v = OpenSSL_version(OPENSSL_ENGINES_DIR), *q = strchr(v, '"');
    snprintf(dir, sizeof dir, "%s", q ? q + 1 : "");
    dir[strcspn(dir, "\"")] = 0;
    return dir;
}

static int module_present(const char *id)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s.so", engines_dir(), id);
    return access(path, R_OK) == 0;
}

/* The first error libcrypto queued (the cause; the later ones only say a load failed). */
static void first_error(char *buf, size_t n)
{
    const char *file = "?";
    int line = 0;
    unsigned long code = ERR_get_error_all(&file, &line, NULL, NULL, NULL);
    const char *reason = code ? ERR_reason_error_string(code) : NULL;
    char alt[32];
    snprintf(alt, sizeof alt, "reason %d", ERR_GET_REASON(code));
    snprintf(buf, n, "%s at %s:%d", reason ? reason : alt, file, line);
    ERR_clear_error();
}

/* Why `id` cannot be loaded, in words for what is known to go wrong, else libcrypto's. */
static void load_failure(const char *id, char *why, size_t n)
{
    char err[160], sock[160];
    first_error(err, sizeof err);
    int dev = access("/dev/crypto", F_OK) == 0, mod = module_present(id);
    if (!strcmp(id, "devcrypto") && !mod)
        snprintf(why, n, "this OpenSSL has no devcrypto engine (no %s/devcrypto.so)%s",
                 engines_dir(), dev ? "" : "; no /dev/crypto either (cryptodev-linux not loaded)");
    else if (!strcmp(id, "devcrypto") && !dev)
        snprintf(why, n, "devcrypto engine present, but no /dev/crypto: load cryptodev-linux");
    else if (!mod)
        snprintf(why, n, "libcrypto has no %s engine (no %s/%s.so)", id, engines_dir(), id);
    else if (!strcmp(id, "afalg") && !kcrypto_afalg_status(sock, sizeof sock))
        snprintf(why, n, "%s, so the afalg engine refuses to load", sock); /* its words */
    else
        snprintf(why, n, "%s engine refuses to load: %s", id, err);
}

struct loaded {
    char id[16];
    ENGINE *e;     /* loaded; NULL when it failed */
    int ready;     /* ENGINE_init succeeded */
    char err[200];
};

#define ENGINE_CACHE 32
static struct loaded cache[ENGINE_CACHE];

/* Loaded (maybe not initialised) engine `id`, tried once per process. A folder with more
 * engines than the cache holds gets a reason for the rest, never an abort. */
static struct loaded *load(const char *id)
{
    static struct loaded full = { .err = "not loaded: more engines than accelscope lists" };
    struct loaded *l = cache;
    for (; l < cache + ENGINE_CACHE && l->id[0]; l++)
        if (!strcmp(l->id, id))
            return l;
    if (l == cache + ENGINE_CACHE)
        return &full;
    snprintf(l->id, sizeof l->id, "%s", id);
    ERR_clear_error();
    if (!(l->e = ENGINE_by_id(id)))
        load_failure(id, l->err, sizeof l->err);
    else if (!(l->ready = ENGINE_init(l->e)))
        snprintf(l->err, sizeof l->err, "%s engine loaded but refused to initialise (%s)",
                 id, ENGINE_get_name(l->e));
    ERR_clear_error();
    return l;
}

ENGINE *ossl_engine_get(const char *id, char *why, size_t n)
{
    struct loaded *l = load(id);
    if (l->ready)
        return l->e;
    snprintf(why, n, "%s", l->err);
    return NULL;
}

/* The nids e serves: ciphers, or digests; 0 when none. */
static int engine_nids(ENGINE *e, int digest, const int **nids)
{
    if (digest) {
        ENGINE_DIGESTS_PTR f = ENGINE_get_digests(e);
        return f ? f(e, NULL, nids, 0) : 0;
    }
    ENGINE_CIPHERS_PTR f = ENGINE_get_ciphers(e);
    return f ? f(e, NULL, nids, 0) : 0;
}

int ossl_engine_claims(ENGINE *e, int digest, const char *evp)
{
    const int *nids;
    int nid = OBJ_txt2nid(evp), k = engine_nids(e, digest, &nids);
    for (int i = 0; nid != NID_undef && i < k; i++)
        if (nids[i] == nid)
            return 1;
    return 0;
}

static void list_nids(FILE *out, ENGINE *e, int digest)
{
    const int *nids;
    int k = engine_nids(e, digest, &nids);
    fprintf(out, "; %s:", digest ? "digests" : "ciphers");
    for (int i = 0; i < k; i++)
        fprintf(out, " %s", OBJ_nid2ln(nids[i]));
    if (!k)
        fprintf(out, " none");
}

static void describe_one(FILE *out, const char *id)
{
    struct loaded *l = load(id);
    fprintf(out, "engine.%s: ", id);
    if (!l->e) {
        fprintf(out, "cannot load: %s\n", l->err);
        return;
    }
    fprintf(out, "%s (%s)", ENGINE_get_name(l->e), l->ready ? "loads" : "refuses to initialise");
    list_nids(out, l->e, 0);
    list_nids(out, l->e, 1);
    fputc('\n', out);
}

/* Every module in the engines folder, and afalg and devcrypto wherever they are missing:
 * the two a board's crypto engine is reached through. */
static void describe(FILE *out)
{
    const char *dir = engines_dir();
    int afalg = 0, devcrypto = 0;
    fprintf(out, "engine.folder: %s\n", dir);
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len < 4 || len > 18 || strcmp(de->d_name + len - 3, ".so"))
            continue;
        char id[16];
        snprintf(id, sizeof id, "%.*s", (int)(len - 3), de->d_name);
        afalg |= !strcmp(id, "afalg");
        devcrypto |= !strcmp(id, "devcrypto");
        /* Debian ships padlock.so on every architecture; VIA PadLock is x86 only. */
        if (strcmp(id, "padlock") || feature_host_arch() == ARCH_X86)
            describe_one(out, id);
    }
    if (d)
        closedir(d);
    if (!afalg)
        describe_one(out, "afalg");
    if (!devcrypto)
        describe_one(out, "devcrypto");
}

static const struct impl *impls(size_t *count)
{
    *count = 0;
    return NULL;
}

const struct backend backend_ossl_engine = {
    .name = "engine", .impls = impls, .describe = describe,
};
