/* Public-key operations in OpenSSL libcrypto through EVP_PKEY (algo.h: ALGO_PKEY): RSA
 * PKCS#1 v1.5 over a SHA-256 digest, ECDSA, DSA, Ed25519, X25519 and ECDH. Two rows each:
 * hw (no mask) and asm "openssl-int" with the capability bits OpenSSL's big-number and curve
 * code reads masked (src/algo.c names them and the files that read them). Keys come from
 * pk_keys.c, made once per seed outside the timed loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "algo.h"
#include "all.h"
#include "pk_keys.h"

#if defined(__x86_64__) || defined(__i386__)
/* Word 2: AVX2 (bit 5), BMI2 (8), AVX512F (16), AVX512DQ (17), ADX (19), AVX512IFMA (21),
 * AVX512VL (31); word 1 untouched. */
#define PK_MASK "OPENSSL_ia32cap=~0x0:~0x802B0120"
#elif defined(__aarch64__)
#define PK_MASK "OPENSSL_armcap=0"
#else
#define PK_MASK NULL
#endif

/* RSA: the bytes signed are SHA-256's DigestInfo (RFC 8017 9.2), a fixed DER prefix then the
 * digest; the prefix comes from OpenSSL's own encoder at set-up. */
#define PK_DIGEST 32
#define PK_DI_MAX 64

struct pkx {
    const struct algo *a;
    EVP_PKEY *key, *peer;
    EVP_PKEY_CTX *pc;  /* sign, verify or derive */
    EVP_MD_CTX *mc;    /* Ed25519: one-shot DigestSign/DigestVerify, as `openssl speed` */
    uint8_t peer_seed[PKKEY_SEED];
    uint8_t di[PK_DI_MAX]; /* RSA: DigestInfo prefix, then room for the digest */
    size_t di_pre;         /* RSA: the prefix's length; 0 for every other family */
};

static int one_shot(const struct algo *a)
{
    return !strcmp(a->family, "ed25519") || !strcmp(a->family, "ml-dsa");
}

static int check(const struct impl *im, char *why, size_t n)
{
    const struct algo *a = algo_find(im->alg);
    if (im->path == PATH_ASM && !im->env) {
        snprintf(why, n, "OpenSSL capability masks exist for x86 and aarch64 only");
        return -1;
    }
    if (!strcmp(a->family, "ml-kem") || !strcmp(a->family, "ml-dsa")) {
        if (OpenSSL_version_num() < 0x30500000L)
            snprintf(why, n, "needs OpenSSL >= 3.5, this is %s",
                     OpenSSL_version(OPENSSL_VERSION_STRING));
        else
            snprintf(why, n, "%s with OpenSSL %s: not measured by this accelscope version yet",
                     a->pk_type, OpenSSL_version(OPENSSL_VERSION_STRING));
        return -1;
    }
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, a->pk_type, NULL);
    if (!pc) {
        snprintf(why, n, "%s has no %s keys (not in its default provider)",
                 OpenSSL_version(OPENSSL_VERSION), a->pk_type);
        return -1;
    }
    EVP_PKEY_CTX_free(pc);
    return 0;
}

/* SHA-256's DigestInfo prefix (RFC 8017 9.2 note 1) as OpenSSL encodes it: the DER of an
 * X509_SIG over a zero digest, less the digest. */
static int di_prefix(struct pkx *x)
{
    static const uint8_t zero[PK_DIGEST];
    X509_SIG *sig = X509_SIG_new();
    X509_ALGOR *alg;
    ASN1_OCTET_STRING *dig;
    unsigned char *der = NULL;
    int len = -1;
    if (sig) {
        X509_SIG_getm(sig, &alg, &dig);
        if (X509_ALGOR_set0(alg, OBJ_nid2obj(NID_sha256), V_ASN1_NULL, NULL) &&
            ASN1_OCTET_STRING_set(dig, zero, PK_DIGEST))
            len = i2d_X509_SIG(sig, &der);
    }
    int ok = len > PK_DIGEST && len <= PK_DI_MAX && !memcmp(der + len - PK_DIGEST, zero,
                                                              PK_DIGEST);
    if (ok) {
        x->di_pre = (size_t)len - PK_DIGEST;
        memcpy(x->di, der, x->di_pre);
    }
    OPENSSL_free(der);
    X509_SIG_free(sig);
    return ok ? 0 : -1;
}

/* The sign or verify context. RSA: PKCS#1 v1.5 of the DigestInfo bytes with no digest set on
 * the context, the same signature as with SHA-256 set, without the per-op DigestInfo encoding
 * (and, verifying, decoding) that OpenSSL's RSA_sign/RSA_verify add; `openssl speed` too
 * signs prepared bytes with no digest set. ECDSA and DSA: the digest's name (the signed
 * bytes are a SHA-256 digest). Ed25519 signs the message itself. */
static int sign_setup(struct pkx *x, int verify)
{
    if (one_shot(x->a)) {
        x->mc = EVP_MD_CTX_new();
        return x->mc && (verify ? EVP_DigestVerifyInit_ex(x->mc, NULL, NULL, NULL, NULL, x->key,
                                                          NULL)
                                : EVP_DigestSignInit_ex(x->mc, NULL, NULL, NULL, NULL, x->key,
                                                        NULL)) == 1
                   ? 0
                   : -1;
    }
    x->pc = EVP_PKEY_CTX_new_from_pkey(NULL, x->key, NULL);
    if (!x->pc || (verify ? EVP_PKEY_verify_init(x->pc) : EVP_PKEY_sign_init(x->pc)) <= 0)
        return -1;
    if (!strcmp(x->a->family, "rsa"))
        return EVP_PKEY_CTX_set_rsa_padding(x->pc, RSA_PKCS1_PADDING) > 0 ? di_prefix(x) : -1;
    return EVP_PKEY_CTX_set_signature_md(x->pc, EVP_sha256()) > 0 ? 0 : -1;
}

/* The bytes the context signs for a message: RSA's DigestInfo of it (a SHA-256 digest: 32
 * bytes or refused, as a context with SHA-256 set refuses), else the message. */
static int tbs(struct pkx *x, const uint8_t **msg, size_t *mlen)
{
    if (!x->di_pre)
        return 0;
    if (*mlen != PK_DIGEST)
        return -1;
    memcpy(x->di + x->di_pre, *msg, PK_DIGEST);
    *msg = x->di;
    *mlen = x->di_pre + PK_DIGEST;
    return 0;
}

static int init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                int decrypt, char *why, size_t n)
{
    struct pkx *x = ctx;
    (void)iv, (void)decrypt;
    x->a = algo_find(im->alg);
    if (!(x->key = pkkey_get(x->a, key, why, n)))
        return -1;
    if (x->a->pk_op == PK_DERIVE)
        return 0; /* the peer comes with the first op */
    if (sign_setup(x, x->a->pk_op == PK_VERIFY)) {
        snprintf(why, n, "EVP set-up of %s %s failed", x->a->pk_type,
                 algo_pk_op_name(x->a->pk_op));
        return -1;
    }
    return 0;
}

static int sign_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct pkx *x = ctx;
    const uint8_t *msg;
    size_t mlen, slen = ALGO_PK_BUF - 2;
    (void)len;
    if (!algo_pk_get(in, ALGO_PK_BUF, &msg, &mlen) || tbs(x, &msg, &mlen))
        return -1;
    int ok = x->mc ? EVP_DigestSign(x->mc, out + 2, &slen, msg, mlen) == 1
                   : EVP_PKEY_sign(x->pc, out + 2, &slen, msg, mlen) == 1;
    return ok && algo_pk_put(out, ALGO_PK_BUF, out + 2, slen) ? 0 : -1;
}

static int verify_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct pkx *x = ctx;
    const uint8_t *msg, *sig;
    size_t mlen, slen, used = algo_pk_get(in, ALGO_PK_BUF, &msg, &mlen);
    (void)out, (void)len;
    if (!used || !algo_pk_get(in + used, ALGO_PK_BUF - used, &sig, &slen) ||
        tbs(x, &msg, &mlen))
        return -1;
    int ok = x->mc ? EVP_DigestVerify(x->mc, sig, slen, msg, mlen)
                   : EVP_PKEY_verify(x->pc, sig, slen, msg, mlen);
    return ok == 1 ? 0 : 1;
}

/* A new peer (its seed differs from the last one's): its key and the derive context. */
static int set_peer(struct pkx *x, const uint8_t *seed)
{
    char why[200];
    EVP_PKEY_free(x->peer);
    EVP_PKEY_CTX_free(x->pc);
    x->pc = NULL;
    if (!(x->peer = pkkey_get(x->a, seed, why, sizeof why)))
        return -1;
    memcpy(x->peer_seed, seed, PKKEY_SEED);
    x->pc = EVP_PKEY_CTX_new_from_pkey(NULL, x->key, NULL);
    return x->pc && EVP_PKEY_derive_init(x->pc) > 0 &&
                   EVP_PKEY_derive_set_peer(x->pc, x->peer) > 0
               ? 0
               : -1;
}

static int derive_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct pkx *x = ctx;
    const uint8_t *seed;
    size_t slen, klen = ALGO_PK_BUF - 2;
    (void)len;
    if (!algo_pk_get(in, ALGO_PK_BUF, &seed, &slen) || slen != PKKEY_SEED)
        return -1;
    if ((!x->pc || memcmp(seed, x->peer_seed, PKKEY_SEED)) && set_peer(x, seed))
        return -1;
    return EVP_PKEY_derive(x->pc, out + 2, &klen) == 1 &&
                   algo_pk_put(out, ALGO_PK_BUF, out + 2, klen)
               ? 0
               : -1;
}

static int none_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)ctx, (void)out, (void)in, (void)len;
    return -1;
}

static void cleanup(void *ctx)
{
    struct pkx *x = ctx;
    EVP_PKEY_CTX_free(x->pc);
    EVP_MD_CTX_free(x->mc);
    EVP_PKEY_free(x->peer);
    EVP_PKEY_free(x->key);
}

static int (*const ops[])(void *, uint8_t *, const uint8_t *, size_t) = {
    [PK_NONE] = none_op, [PK_SIGN] = sign_op, [PK_VERIFY] = verify_op, [PK_DERIVE] = derive_op,
    [PK_KEYGEN] = none_op, [PK_ENCAPS] = none_op, [PK_DECAPS] = none_op,
};

static struct impl *list;
static size_t nlist;

static const struct impl *impls(size_t *count)
{
    if (!list) {
        list = calloc(algo_count * 2, sizeof *list);
        if (!list)
            abort();
        for (size_t i = 0; i < algo_count; i++) {
            const struct algo *a = &algo_table[i];
            if (a->kind != ALGO_PKEY)
                continue;
            for (int v = 0; v < 2; v++)
                list[nlist++] = (struct impl){
                    .alg = a->id, .name = v ? "openssl-int" : "openssl", .backend = "openssl",
                    .path = v ? PATH_ASM : PATH_HW, .env = v ? PK_MASK : NULL,
                    .note = v ? "OpenSSL with the big-number capability bits masked (mulx/adx, "
                                "AVX2, AVX-512 IFMA)"
                              : "OpenSSL default: its best code for this CPU",
                    .ctx_size = sizeof(struct pkx), .check = check, .init = init,
                    .op = ops[a->pk_op], .cleanup = cleanup,
                };
        }
    }
    *count = nlist;
    return list;
}

static void describe(FILE *out)
{
    fprintf(out, "openssl.pk asm-int mask: %s\n", PK_MASK ? PK_MASK : "(none on this architecture)");
#if defined(__x86_64__) || defined(__i386__)
    fprintf(out, "openssl.pk bits read: BMI2+ADX (mulx/adcx/adox Montgomery: x86_64-mont.pl, "
                 "x86_64-mont5.pl, rsaz-x86_64.pl, ecp_nistz256-x86_64.pl, x25519-x86_64.pl); "
                 "AVX2 (rsaz-avx2.pl, only without BMI2+ADX; ecp_nistz256 table lookups); "
                 "AVX-512 F+DQ+VL+IFMA (rsaz_exp_x2.c, RSA-2048)\n");
    fprintf(out, "openssl.pk unchanged by the mask: Ed25519's field code (fe51 asm reads no bit; "
                 "only its SHA-512 changes), P-384 beyond bn_mul_mont, DSA beyond mont5\n");
#elif defined(__aarch64__)
    fprintf(out, "openssl.pk bits read: none (armv8-mont.pl, ecp_nistz256-armv8.pl read no "
                 "OPENSSL_armcap bit in 3.0): the asm row runs the hw row's code\n");
#endif
}

const struct backend backend_openssl_pk = {
    .name = "openssl", .impls = impls, .describe = describe,
};
