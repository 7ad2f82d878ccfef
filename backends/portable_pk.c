/* The no-asm path of public-key operations: the portable C of backends/portable/pk.h (X25519,
 * Ed25519, RSA PKCS#1 v1.5 over SHA-256, ECDSA P-256/P-384, ECDH P-256, DSA) behind the
 * operation records of algo.h (ALGO_PKEY). RSA, EC and DSA keys are pk_keys.c's, imported as
 * integers, so the portable code signs with the key OpenSSL and the kernel use; Ed25519 and
 * X25519 take the seed as their private key, as RFC 8032 and RFC 7748 define it. ECDSA and
 * DSA nonces are RFC 6979's, so the portable signatures are deterministic (OpenSSL's are
 * random): they cross-verify, they do not compare byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "all.h"
#include "pk_keys.h"
#include "portable/pk.h"

#include <openssl/crypto.h>

struct ppk {
    const struct algo *a;
    uint8_t seed[PKKEY_SEED], pub[32];
    uint8_t peer_seed[PKKEY_SEED], peer_pub[133]; /* X25519: u; ECDH: 0x04 || X || Y */
    size_t peer_len;
    int have_peer;
    union {
        struct portable_rsa rsa;
        struct portable_ec ec;
        struct portable_dsa dsa;
    } u;
};

static int is(const struct ppk *x, const char *family)
{
    return !strcmp(x->a->family, family);
}

static int check(const struct impl *im, char *why, size_t n)
{
    (void)im, (void)why, (void)n;
    return 0;
}

static int import_rsa(struct ppk *x, EVP_PKEY *k, char *why, size_t n)
{
    struct pkkey_rsa *r = malloc(sizeof *r);
    if (!r)
        abort();
    int rc = pkkey_rsa_parts(k, r, why, n) ||
             portable_rsa_import(&x->u.rsa, r->n, r->nlen, r->e, r->elen, r->d, r->dlen, r->p,
                                 r->plen, r->q, r->qlen, r->dp, r->dplen, r->dq, r->dqlen,
                                 r->qinv, r->qinvlen, why, n);
    OPENSSL_clear_free(r, sizeof *r);
    return rc ? -1 : 0;
}

static int import_ec(struct ppk *x, EVP_PKEY *k, char *why, size_t n)
{
    struct pkkey_ec e;
    int rc = pkkey_ec_parts(k, &e, why, n) ||
             portable_ec_import(&x->u.ec, x->a->key_bits, e.dlen ? e.d : NULL, e.dlen, e.pub,
                                e.publen, why, n);
    OPENSSL_cleanse(&e, sizeof e); /* a memset of a dying local is elided */
    return rc ? -1 : 0;
}

static int import_dsa(struct ppk *x, EVP_PKEY *k, char *why, size_t n)
{
    struct pkkey_dsa *d = malloc(sizeof *d);
    if (!d)
        abort();
    int rc = pkkey_dsa_parts(k, d, why, n) ||
             portable_dsa_import(&x->u.dsa, d->p, d->plen, d->q, d->qlen, d->g, d->glen, d->y,
                                 d->ylen, d->xlen ? d->x : NULL, d->xlen, why, n);
    OPENSSL_clear_free(d, sizeof *d);
    return rc ? -1 : 0;
}

/* RSA, EC and DSA: pk_keys.c's key for the seed, imported as integers. */
static int init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                int decrypt, char *why, size_t n)
{
    struct ppk *x = ctx;
    (void)iv, (void)decrypt;
    x->a = algo_find(im->alg);
    memcpy(x->seed, key, PKKEY_SEED);
    if (is(x, "ed25519"))
        portable_ed25519_pubkey(x->pub, x->seed);
    if (is(x, "ed25519") || is(x, "x25519"))
        return 0;
    EVP_PKEY *k = pkkey_get(x->a, key, why, n);
    if (!k)
        return -1;
    int rc = is(x, "rsa") ? import_rsa(x, k, why, n)
             : is(x, "dsa") ? import_dsa(x, k, why, n)
                            : import_ec(x, k, why, n);
    EVP_PKEY_free(k);
    return rc;
}

/* The message, and for verify ops the signature after it; 0 when malformed. */
static size_t parse(const uint8_t *in, const uint8_t **msg, size_t *mlen, const uint8_t **sig,
                    size_t *slen)
{
    size_t used = algo_pk_get(in, ALGO_PK_BUF, msg, mlen);
    return used && sig ? algo_pk_get(in + used, ALGO_PK_BUF - used, sig, slen) : used;
}

static int ed_sign(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ppk *x = ctx;
    const uint8_t *msg;
    size_t mlen;
    (void)len;
    if (!parse(in, &msg, &mlen, NULL, NULL))
        return -1;
    portable_ed25519_sign(out + 2, msg, mlen, x->seed, x->pub);
    return algo_pk_put(out, ALGO_PK_BUF, out + 2, 64) ? 0 : -1;
}

/* A new peer (outside the timed loop): its public key from its seed, as the OpenSSL rows. */
static int set_peer(struct ppk *x, const uint8_t *seed)
{
    char why[200];
    memcpy(x->peer_seed, seed, PKKEY_SEED);
    x->have_peer = 0;
    if (is(x, "x25519")) {
        portable_x25519_base(x->peer_pub, seed);
        x->peer_len = 32;
    } else {
        struct pkkey_ec e;
        EVP_PKEY *k = pkkey_get(x->a, seed, why, sizeof why);
        int rc = !k || pkkey_ec_parts(k, &e, why, sizeof why);
        EVP_PKEY_free(k);
        if (rc)
            return -1;
        memcpy(x->peer_pub, e.pub, e.publen);
        x->peer_len = e.publen;
        memset(&e, 0, sizeof e);
    }
    x->have_peer = 1;
    return 0;
}

/* X25519 and ECDH: the peer's seed in, the shared secret out. */
static int derive(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ppk *x = ctx;
    const uint8_t *peer;
    size_t plen, olen = 32;
    (void)len;
    if (!parse(in, &peer, &plen, NULL, NULL) || plen != PKKEY_SEED)
        return -1;
    if ((!x->have_peer || memcmp(peer, x->peer_seed, PKKEY_SEED)) && set_peer(x, peer))
        return -1;
    if (is(x, "x25519"))
        portable_x25519(out + 2, x->seed, x->peer_pub);
    else if (portable_ecdh(&x->u.ec, out + 2, x->peer_pub, x->peer_len))
        return -1;
    else
        olen = x->u.ec.bytes;
    return algo_pk_put(out, ALGO_PK_BUF, out + 2, olen) ? 0 : -1;
}

/* RSA, ECDSA and DSA sign a SHA-256 digest: 32 bytes, as the OpenSSL rows' contexts take. */
static int digest_sign(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ppk *x = ctx;
    const uint8_t *msg;
    size_t mlen, slen = 0;
    (void)len;
    if (!parse(in, &msg, &mlen, NULL, NULL) || mlen != 32)
        return -1;
    int rc = is(x, "rsa")     ? portable_rsa_sign_sha256(&x->u.rsa, out + 2, slen = x->u.rsa.nbytes,
                                                         msg)
             : is(x, "ecdsa") ? portable_ecdsa_sign(&x->u.ec, out + 2, &slen, msg, mlen)
                              : portable_dsa_sign(&x->u.dsa, out + 2, &slen, msg, mlen);
    return !rc && algo_pk_put(out, ALGO_PK_BUF, out + 2, slen) ? 0 : -1;
}

/* 0 when the signature verifies (a branch is nothing beside the work). */
static int verify(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ppk *x = ctx;
    const uint8_t *msg, *sig;
    size_t mlen, slen;
    (void)out, (void)len;
    if (!parse(in, &msg, &mlen, &sig, &slen))
        return -1;
    if (is(x, "ed25519"))
        return slen == 64 && portable_ed25519_verify(sig, msg, mlen, x->pub) == 0 ? 0 : 1;
    if (mlen != 32)
        return 1;
    int rc = is(x, "rsa")     ? portable_rsa_verify_sha256(&x->u.rsa, sig, slen, msg)
             : is(x, "ecdsa") ? portable_ecdsa_verify(&x->u.ec, sig, slen, msg, mlen)
                              : portable_dsa_verify(&x->u.dsa, sig, slen, msg, mlen);
    return rc == 0 ? 0 : 1;
}

static void cleanup(void *ctx)
{
    struct ppk *x = ctx;
    memset(&x->u, 0, sizeof x->u); /* the portable *_free functions only wipe */
}

typedef int (*op_fn)(void *, uint8_t *, const uint8_t *, size_t);

/* The portable op of a, NULL where there is none. */
static op_fn op_of(const struct algo *a)
{
    static const struct {
        const char *family;
        op_fn sign;
        int derives;
    } fams[] = {
        { "ed25519", ed_sign, 0 }, { "rsa", digest_sign, 0 }, { "ecdsa", digest_sign, 0 },
        { "dsa", digest_sign, 0 }, { "x25519", NULL, 1 },     { "ecdh", NULL, 1 },
    };
    for (size_t i = 0; i < sizeof fams / sizeof *fams; i++)
        if (!strcmp(a->family, fams[i].family))
            return a->pk_op == PK_SIGN && fams[i].sign     ? fams[i].sign
                   : a->pk_op == PK_VERIFY && fams[i].sign ? verify
                   : a->pk_op == PK_DERIVE && fams[i].derives ? derive
                                                              : NULL;
    return NULL;
}

static struct impl *list;
static size_t nlist;
static char notes[3][200]; /* RSA; ECDSA, ECDH and DSA; Ed25519 and X25519 */

static const char *note_of(const struct algo *a)
{
    if (!notes[0][0]) {
        const char *w = portable_pk_wide_kind;
        snprintf(notes[0], sizeof notes[0], "portable C (%s): measured, not recommended "
                 "(constant-time CRT, no blinding, no check of the result)", w);
        snprintf(notes[1], sizeof notes[1], "portable C (%s): measured, not recommended "
                 "(constant-time fixed window, no blinding; RFC 6979 nonces)", w);
        snprintf(notes[2], sizeof notes[2], "portable C (%s, radix 2^51): measured, not "
                 "recommended", w);
    }
    return notes[!strcmp(a->family, "rsa") ? 0 : strstr(a->family, "25519") ? 2 : 1];
}

static const struct impl *impls(size_t *count)
{
    if (!list) {
        list = calloc(algo_count, sizeof *list);
        if (!list)
            abort();
        for (size_t i = 0; i < algo_count; i++) {
            const struct algo *a = &algo_table[i];
            if (a->kind == ALGO_PKEY && op_of(a))
                list[nlist++] = (struct impl){
                    .alg = a->id, .name = "portable", .backend = "portable", .path = PATH_C,
                    .note = note_of(a), .ctx_size = sizeof(struct ppk), .check = check,
                    .init = init, .op = op_of(a), .cleanup = cleanup,
                };
        }
    }
    *count = nlist;
    return list;
}

static void describe(FILE *out)
{
    fprintf(out, "portable.pk rows: X25519 and Ed25519 (radix 2^51), RSA 1024-4096 (Montgomery, "
                 "CRT), ECDSA P-256/P-384 and ECDH P-256 (complete projective formulas), DSA "
                 "(FIPS 186-4); our C, 64x64->128 products by %s; measured, not recommended\n",
            portable_pk_wide_kind);
    fprintf(out, "portable.pk constant time: X25519, Ed25519 signing, RSA's private operation, "
                 "ECDSA and DSA signing, ECDH (fixed windows, table entries read by a masked "
                 "scan, inversions by Fermat); variable time: verification, key import; no "
                 "blinding (OpenSSL blinds)\n");
    fprintf(out, "portable.pk nonces: RFC 6979 (ECDSA, DSA): a message's signature repeats, "
                 "OpenSSL's does not; they cross-verify with OpenSSL's rows before timing\n");
}

const struct backend backend_portable_pk = {
    .name = "portable", .impls = impls, .describe = describe,
};
