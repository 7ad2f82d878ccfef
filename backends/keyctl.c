/* The kernel path of public-key operations: the Linux kernel's asymmetric keys through
 * keyctl(2) (KEYCTL_PKEY_QUERY, KEYCTL_PKEY_SIGN, KEYCTL_PKEY_VERIFY), raw syscalls, no
 * libkeyutils. RSA: the private key enters as PKCS#8 (the kernel's pkcs8 parser), PKCS#1 v1.5
 * over a SHA-256 digest (pkcs1pad(rsa,sha256)), sign and verify. ECDSA: the kernel verifies
 * only, the public key entering in a self-signed X.509 certificate (its x509 parser). Keys are
 * pk_keys.c's, so the kernel signs and verifies with the very key OpenSSL and the portable C
 * use; each worker adds its key to its own process keyring, gone when it exits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/keyctl.h>

#include "algo.h"
#include "all.h"
#include "pk_keys.h"

struct kx {
    const struct algo *a;
    long key;
    const char *info; /* the encoding and hash: "enc=pkcs1 hash=sha256" */
    size_t siglen;    /* the largest signature (KEYCTL_PKEY_QUERY) */
};

static long add_key(const char *desc, const void *data, size_t len)
{
    return syscall(SYS_add_key, "asymmetric", desc, data, len, KEY_SPEC_PROCESS_KEYRING);
}

static int rsa(const struct algo *a)
{
    return !strcmp(a->family, "rsa");
}

/* add_key's errno as a reason a person can act on. */
static void add_key_why(int e, const struct algo *a, char *why, size_t n)
{
    const char *parser = rsa(a) ? "CONFIG_PKCS8_PRIVATE_KEY_PARSER" : "CONFIG_X509_CERTIFICATE_PARSER";
    if (e == ENOSYS)
        snprintf(why, n, "kernel without keys (add_key: ENOSYS): needs CONFIG_KEYS");
    else if (e == ENODEV)
        snprintf(why, n, "kernel without the 'asymmetric' key type (ENODEV): needs "
                 "CONFIG_ASYMMETRIC_KEY_TYPE");
    else if (e == ENOPKG || e == ENOENT) /* ENOENT: no such akcipher to check the cert */
        snprintf(why, n, "kernel lacks %s (%s): needs %s", rsa(a) ? "RSA" : "ECDSA",
                 e == ENOPKG ? "ENOPKG" : "ENOENT", rsa(a) ? "CONFIG_CRYPTO_RSA" : "CONFIG_CRYPTO_ECDSA");
    else if (e == EBADMSG || e == EINVAL)
        snprintf(why, n, "the kernel's key parsers refuse a %s (%s): needs %s",
                 rsa(a) ? "PKCS#8 private key" : "X.509 certificate", strerror(e), parser);
    else
        snprintf(why, n, "add_key(asymmetric): %s", strerror(e));
}

/* The key of seed into this process's keyring: 0, or -1 and why. */
static int load(struct kx *x, const uint8_t *seed, char *why, size_t n)
{
    EVP_PKEY *k = pkkey_get(x->a, seed, why, n);
    uint8_t *der = NULL;
    size_t len = 0;
    char desc[64];
    if (!k)
        return -1;
    int rc = rsa(x->a) ? pkkey_pkcs8(k, &der, &len, why, n) : pkkey_x509(k, &der, &len, why, n);
    EVP_PKEY_free(k);
    if (rc)
        return -1;
    snprintf(desc, sizeof desc, "accelscope:%s:%d", x->a->id, (int)getpid());
    x->key = add_key(desc, der, len);
    int e = errno;
    free(der);
    if (x->key < 0) {
        add_key_why(e, x->a, why, n);
        return -1;
    }
    struct keyctl_pkey_query q = { 0 };
    if (syscall(SYS_keyctl, KEYCTL_PKEY_QUERY, x->key, 0, x->info, &q) < 0) {
        snprintf(why, n, "KEYCTL_PKEY_QUERY '%s': %s: the kernel has no %s for this key "
                 "(needs CONFIG_CRYPTO_%s)", x->info, strerror(errno),
                 rsa(x->a) ? "pkcs1pad(rsa,sha256)" : "ecdsa", rsa(x->a) ? "RSA" : "ECDSA");
        return -1;
    }
    unsigned want = x->a->pk_op == PK_SIGN ? KEYCTL_SUPPORTS_SIGN : KEYCTL_SUPPORTS_VERIFY;
    if (!(q.supported_ops & want)) {
        snprintf(why, n, "the kernel's %s key does not %s (supported operations 0x%x)",
                 x->a->pk_type, algo_pk_op_name(x->a->pk_op), q.supported_ops);
        return -1;
    }
    x->siglen = q.max_sig_size;
    return 0;
}

static int init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                int decrypt, char *why, size_t n)
{
    struct kx *x = ctx;
    (void)iv, (void)decrypt;
    x->a = algo_find(im->alg);
    x->info = rsa(x->a) ? "enc=pkcs1 hash=sha256" : "enc=x962 hash=sha256";
    return load(x, key, why, n);
}

static int sign_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct kx *x = ctx;
    const uint8_t *msg;
    size_t mlen;
    (void)len;
    if (!algo_pk_get(in, ALGO_PK_BUF, &msg, &mlen))
        return -1;
    struct keyctl_pkey_params p = { .key_id = (int)x->key, .in_len = (unsigned)mlen,
                                    .out_len = (unsigned)x->siglen };
    long r = syscall(SYS_keyctl, KEYCTL_PKEY_SIGN, &p, x->info, msg, out + 2);
    return r > 0 && algo_pk_put(out, ALGO_PK_BUF, out + 2, (size_t)r) ? 0 : -1;
}

static int verify_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct kx *x = ctx;
    const uint8_t *msg, *sig;
    size_t mlen, slen, used = algo_pk_get(in, ALGO_PK_BUF, &msg, &mlen);
    (void)out, (void)len;
    if (!used || !algo_pk_get(in + used, ALGO_PK_BUF - used, &sig, &slen))
        return -1;
    struct keyctl_pkey_params p = { .key_id = (int)x->key, .in_len = (unsigned)mlen,
                                    .in2_len = (unsigned)slen };
    return syscall(SYS_keyctl, KEYCTL_PKEY_VERIFY, &p, x->info, msg, sig) == 0 ? 0 : 1;
}

static void cleanup(void *ctx)
{
    struct kx *x = ctx;
    if (x->key > 0)
        syscall(SYS_keyctl, KEYCTL_INVALIDATE, x->key);
}

/* Whether the kernel takes keys of a's kind at all, probed once per family with a real key
 * (the parent's `info` and the TUI ask too: RSA-1024 and P-256, both quick to make). */
static int check(const struct impl *im, char *why, size_t n)
{
    static int done[2], rc[2];
    static char reason[2][200];
    const struct algo *a = algo_find(im->alg);
    int f = !rsa(a);
    if (!done[f]) {
        const struct algo *probe = algo_find(f ? "ecdsa-p256-verify" : "rsa1024-sign");
        struct kx x = { .a = probe, .info = f ? "enc=x962 hash=sha256" : "enc=pkcs1 hash=sha256" };
        static const uint8_t seed[PKKEY_SEED] = { 0x6b, 0x65, 0x79 };
        done[f] = 1;
        rc[f] = load(&x, seed, reason[f], sizeof reason[f]);
        cleanup(&x);
    }
    if (rc[f])
        snprintf(why, n, "%s", reason[f]);
    return rc[f];
}

static struct impl *list;
static size_t nlist;

static const struct impl *impls(size_t *count)
{
    if (!list) {
        list = calloc(algo_count, sizeof *list);
        if (!list)
            abort();
        for (size_t i = 0; i < algo_count; i++) {
            const struct algo *a = &algo_table[i];
            int ok = a->kind == ALGO_PKEY &&
                     ((!strcmp(a->family, "rsa") && (a->pk_op == PK_SIGN || a->pk_op == PK_VERIFY)) ||
                      (!strcmp(a->family, "ecdsa") && a->pk_op == PK_VERIFY));
            if (ok)
                list[nlist++] = (struct impl){
                    .alg = a->id, .name = "keyctl", .backend = "keyctl", .path = PATH_KERNEL,
                    .note = "the kernel's asymmetric keys (keyctl KEYCTL_PKEY_*): a system "
                            "call per operation",
                    .ctx_size = sizeof(struct kx), .check = check, .init = init,
                    .op = a->pk_op == PK_SIGN ? sign_op : verify_op, .cleanup = cleanup,
                };
        }
    }
    *count = nlist;
    return list;
}

const struct backend backend_keyctl = {
    .name = "keyctl", .impls = impls,
};
