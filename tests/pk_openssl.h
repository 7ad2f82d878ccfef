/* OpenSSL's side of the public-key tests and benches: an RSA key's parameters as the big-endian
 * bytes portable_rsa_import takes, and EVP contexts for PKCS#1 v1.5 with SHA-256. */
#ifndef ACCELSCOPE_TESTS_PK_OPENSSL_H
#define ACCELSCOPE_TESTS_PK_OPENSSL_H

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include <stdlib.h>

#include "portable/pk.h"

/* n, e, d, p, q, dp, dq, qinv: portable_rsa_import's order */
static const char *const rsa_param_names[8] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,         OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1,   OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};

/* The parameter's big-endian bytes (BN_bn2bin), malloc'd; *len set. */
static inline uint8_t *rsa_param(EVP_PKEY *k, const char *name, size_t *len)
{
    BIGNUM *bn = NULL;
    if (EVP_PKEY_get_bn_param(k, name, &bn) <= 0)
        return NULL;
    *len = (size_t)BN_num_bytes(bn);
    uint8_t *b = malloc(*len + 1);
    if (!b)
        abort();
    BN_bn2bin(bn, b);
    BN_clear_free(bn);
    return b;
}

/* Imports OpenSSL's key k; public_only leaves out the CRT half. */
static inline int rsa_import_from(struct portable_rsa *pk, EVP_PKEY *k, int public_only,
                                  char *why, size_t whylen)
{
    uint8_t *v[8] = { 0 };
    size_t l[8] = { 0 };
    int rc = -1;
    for (int i = 0; i < (public_only ? 2 : 8); i++)
        if (!(v[i] = rsa_param(k, rsa_param_names[i], &l[i]))) {
            snprintf(why, whylen, "OpenSSL has no %s", rsa_param_names[i]);
            goto out;
        }
    rc = portable_rsa_import(pk, v[0], l[0], v[1], l[1], v[2], l[2], v[3], l[3], v[4], l[4],
                             v[5], l[5], v[6], l[6], v[7], l[7], why, whylen);
out:
    for (int i = 0; i < 8; i++)
        free(v[i]);
    return rc;
}

static inline EVP_PKEY_CTX *rsa_ctx(EVP_PKEY *k, int sign)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
    if (!c || (sign ? EVP_PKEY_sign_init(c) : EVP_PKEY_verify_init(c)) <= 0 ||
        EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) <= 0 ||
        EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) <= 0) {
        EVP_PKEY_CTX_free(c);
        return NULL;
    }
    return c;
}

#endif
