/* The no-asm path of public-key operations: the portable C of backends/portable/pk.h (X25519,
 * Ed25519, RSA PKCS#1 v1.5 over SHA-256) behind the operation records of algo.h (ALGO_PKEY).
 * RSA keys are pk_keys.c's, imported as integers, so the portable code signs with the key
 * OpenSSL and the kernel use; Ed25519 and X25519 take the seed as their private key, as
 * RFC 8032 and RFC 7748 define it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "all.h"
#include "pk_keys.h"
#include "portable/pk.h"

struct ppk {
    const struct algo *a;
    uint8_t seed[PKKEY_SEED], pub[32];
    uint8_t peer_seed[PKKEY_SEED], peer_pub[32];
    int have_peer;
    struct portable_rsa rsa;
};

static int check(const struct impl *im, char *why, size_t n)
{
    (void)im, (void)why, (void)n;
    return 0;
}

static int init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                int decrypt, char *why, size_t n)
{
    struct ppk *x = ctx;
    (void)iv, (void)decrypt;
    x->a = algo_find(im->alg);
    memcpy(x->seed, key, PKKEY_SEED);
    if (!strcmp(x->a->family, "ed25519"))
        portable_ed25519_pubkey(x->pub, x->seed);
    if (strcmp(x->a->family, "rsa"))
        return 0;
    struct pkkey_rsa *r = malloc(sizeof *r);
    EVP_PKEY *k = pkkey_get(x->a, key, why, n);
    if (!r)
        abort();
    int rc = !k || pkkey_rsa_parts(k, r, why, n) ||
             portable_rsa_import(&x->rsa, r->n, r->nlen, r->e, r->elen, r->d, r->dlen, r->p,
                                 r->plen, r->q, r->qlen, r->dp, r->dplen, r->dq, r->dqlen,
                                 r->qinv, r->qinvlen, why, n);
    EVP_PKEY_free(k);
    free(r);
    return rc ? -1 : 0;
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

static int x_derive(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ppk *x = ctx;
    const uint8_t *peer;
    size_t plen;
    (void)len;
    if (!parse(in, &peer, &plen, NULL, NULL) || plen != PKKEY_SEED)
        return -1;
    if (!x->have_peer || memcmp(peer, x->peer_seed, PKKEY_SEED)) { /* outside the timed loop */
        memcpy(x->peer_seed, peer, PKKEY_SEED);
        portable_x25519_base(x->peer_pub, x->peer_seed);
        x->have_peer = 1;
    }
    portable_x25519(out + 2, x->seed, x->peer_pub);
    return algo_pk_put(out, ALGO_PK_BUF, out + 2, 32) ? 0 : -1;
}

static int rsa_sign(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ppk *x = ctx;
    const uint8_t *msg;
    size_t mlen;
    (void)len;
    if (!parse(in, &msg, &mlen, NULL, NULL) || mlen != 32 ||
        portable_rsa_sign_sha256(&x->rsa, out + 2, x->rsa.nbytes, msg))
        return -1;
    return algo_pk_put(out, ALGO_PK_BUF, out + 2, x->rsa.nbytes) ? 0 : -1;
}

/* Ed25519 and RSA: 0 when the signature verifies (a branch is nothing beside the work). */
static int verify(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ppk *x = ctx;
    const uint8_t *msg, *sig;
    size_t mlen, slen;
    (void)out, (void)len;
    if (!parse(in, &msg, &mlen, &sig, &slen))
        return -1;
    if (!strcmp(x->a->family, "ed25519"))
        return slen == 64 && portable_ed25519_verify(sig, msg, mlen, x->pub) == 0 ? 0 : 1;
    return mlen == 32 && portable_rsa_verify_sha256(&x->rsa, sig, slen, msg) == 0 ? 0 : 1;
}

static void cleanup(void *ctx)
{
    struct ppk *x = ctx;
    if (!strcmp(x->a->family, "rsa"))
        portable_rsa_free(&x->rsa);
}

typedef int (*op_fn)(void *, uint8_t *, const uint8_t *, size_t);

/* The portable op of a, NULL where there is none. */
static op_fn op_of(const struct algo *a)
{
    int sign = a->pk_op == PK_SIGN, is_verify = a->pk_op == PK_VERIFY;
    if (!strcmp(a->family, "ed25519") || !strcmp(a->family, "rsa"))
        return sign ? (a->family[0] == 'e' ? ed_sign : rsa_sign) : is_verify ? verify : NULL;
    return !strcmp(a->family, "x25519") ? x_derive : NULL;
}

static struct impl *list;
static size_t nlist;
static char note[160];

static const struct impl *impls(size_t *count)
{
    if (!list) {
        list = calloc(algo_count, sizeof *list);
        if (!list)
            abort();
        snprintf(note, sizeof note, "portable C (%s): measured, not recommended (RSA: no "
                 "blinding, no check of the result)", portable_pk_wide_kind);
        for (size_t i = 0; i < algo_count; i++) {
            const struct algo *a = &algo_table[i];
            if (a->kind == ALGO_PKEY && op_of(a))
                list[nlist++] = (struct impl){
                    .alg = a->id, .name = "portable", .backend = "portable", .path = PATH_C,
                    .note = note, .ctx_size = sizeof(struct ppk), .check = check,
                    .init = init, .op = op_of(a), .cleanup = cleanup,
                };
        }
    }
    *count = nlist;
    return list;
}

const struct backend backend_portable_pk = {
    .name = "portable", .impls = impls,
};
