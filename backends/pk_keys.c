#include "pk_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>

/* splitmix64 over the seed's four words: repeatable, and any bit of the seed changes all. */
struct stream {
    uint64_t s;
};

static void stream_init(struct stream *st, const uint8_t seed[PKKEY_SEED], uint64_t salt)
{
    st->s = salt * 0x9e3779b97f4a7c15u;
    for (int i = 0; i < PKKEY_SEED; i++)
        st->s = (st->s ^ seed[i]) * 0x100000001b3u;
}

static void stream_fill(struct stream *st, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0) {
            uint64_t z = (st->s += 0x9e3779b97f4a7c15u);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
            st->s ^= z ^ (z >> 31);
        }
        p[i] = (uint8_t)(st->s >> (8 * (i % 8)));
    }
}

static void say_ossl(char *why, size_t n, const char *what)
{
    char e[160];
    ERR_error_string_n(ERR_get_error(), e, sizeof e);
    snprintf(why, n, "%s failed (%s)", what, e);
    ERR_clear_error();
}

/* The first prime at or above a drawn candidate of bits bits (top two bits set), with
 * p - 1 prime to 65537. */
static BIGNUM *prime_from(struct stream *st, int bits, BN_CTX *bc)
{
    uint8_t buf[512];
    size_t len = (size_t)bits / 8;
    stream_fill(st, buf, len);
    buf[0] |= 0xc0;
    buf[len - 1] |= 1;
    BIGNUM *p = BN_bin2bn(buf, (int)len, NULL);
    if (!p)
        return NULL;
    for (;;) {
        if (BN_mod_word(p, 65537) != 1 && BN_check_prime(p, bc, NULL) == 1)
            return p;
        if (!BN_add_word(p, 2)) {
            BN_free(p);
            return NULL;
        }
    }
}

/* The key's parameters from p, q and e = 65537: n, d, dp, dq, qinv. Built (copied) before the
 * numbers are freed; NULL when a step fails. */
static OSSL_PARAM *rsa_params(BIGNUM *p, BIGNUM *q, BN_CTX *bc)
{
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *n = BN_new(), *e = BN_new(), *p1 = BN_new(), *q1 = BN_new(), *phi = BN_new();
    BIGNUM *d = BN_new(), *dp = BN_new(), *dq = BN_new(), *qi = BN_new();
    int ok = bld && n && e && p1 && q1 && phi && d && dp && dq && qi && BN_set_word(e, 65537) &&
             BN_mul(n, p, q, bc) && BN_sub(p1, p, BN_value_one()) &&
             BN_sub(q1, q, BN_value_one()) && BN_mul(phi, p1, q1, bc) &&
             BN_mod_inverse(d, e, phi, bc) && BN_mod(dp, d, p1, bc) && BN_mod(dq, d, q1, bc) &&
             BN_mod_inverse(qi, q, p, bc) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, p) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, q) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qi);
    OSSL_PARAM *prm = ok ? OSSL_PARAM_BLD_to_param(bld) : NULL;
    BN_clear_free(d), BN_clear_free(dp), BN_clear_free(dq), BN_clear_free(qi);
    BN_free(n), BN_free(e), BN_free(p1), BN_free(q1), BN_free(phi);
    OSSL_PARAM_BLD_free(bld);
    return prm;
}

/* Takes prm (frees it). */
static EVP_PKEY *from_params(const char *type, OSSL_PARAM *prm, char *why, size_t n)
{
    EVP_PKEY_CTX *pc = prm ? EVP_PKEY_CTX_new_from_name(NULL, type, NULL) : NULL;
    EVP_PKEY *k = NULL;
    if (!pc || EVP_PKEY_fromdata_init(pc) <= 0 ||
        EVP_PKEY_fromdata(pc, &k, EVP_PKEY_KEYPAIR, prm) <= 0) {
        say_ossl(why, n, prm ? "EVP_PKEY_fromdata" : "building the key's parameters");
        k = NULL;
    }
    OSSL_PARAM_free(prm);
    EVP_PKEY_CTX_free(pc);
    return k;
}

static EVP_PKEY *make_rsa(unsigned bits, const uint8_t *seed, char *why, size_t n)
{
    struct stream st;
    stream_init(&st, seed, bits);
    BN_CTX *bc = BN_CTX_new();
    BIGNUM *p = bc ? prime_from(&st, (int)bits / 2, bc) : NULL;
    BIGNUM *q = p ? prime_from(&st, (int)bits / 2, bc) : NULL;
    EVP_PKEY *k = NULL;
    if (!q || !BN_cmp(p, q)) {
        say_ossl(why, n, "RSA primes from the seed");
    } else {
        if (BN_cmp(p, q) < 0) /* CRT takes p > q (qinv = q^-1 mod p), as OpenSSL's keygen */
            BN_swap(p, q);
        k = from_params("RSA", rsa_params(p, q, bc), why, n);
    }
    BN_CTX_free(bc);
    BN_clear_free(p);
    BN_clear_free(q);
    return k;
}

/* The scalar: 8 bytes more than the order from the stream, reduced mod (order - 1), plus 1. */
static EVP_PKEY *make_ec(const char *curve, const uint8_t *seed, char *why, size_t n)
{
    struct stream st;
    uint8_t buf[80], pub[160];
    EC_GROUP *g = EC_GROUP_new_by_curve_name(EC_curve_nist2nid(curve));
    BN_CTX *bc = BN_CTX_new();
    BIGNUM *x = BN_new(), *om1 = BN_new();
    EC_POINT *pt = g ? EC_POINT_new(g) : NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *prm = NULL;
    int len = g ? (EC_GROUP_order_bits(g) + 7) / 8 + 8 : 0;
    stream_init(&st, seed, 0xec);
    stream_fill(&st, buf, (size_t)len);
    size_t plen = 0;
    if (pt && bc && x && om1 && bld && BN_bin2bn(buf, len, x) &&
        BN_sub(om1, EC_GROUP_get0_order(g), BN_value_one()) && BN_mod(x, x, om1, bc) &&
        BN_add_word(x, 1) && EC_POINT_mul(g, pt, x, NULL, NULL, bc) &&
        (plen = EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, pub, sizeof pub, bc)) &&
        OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, curve, 0) &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, x) &&
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, plen))
        prm = OSSL_PARAM_BLD_to_param(bld);
    OSSL_PARAM_BLD_free(bld);
    EC_POINT_free(pt);
    EC_GROUP_free(g);
    BN_clear_free(x);
    BN_free(om1);
    BN_CTX_free(bc);
    return from_params("EC", prm, why, n);
}

/* DSA has no seeded generator here: OpenSSL makes the domain parameters and the key (FIPS
 * 186-4), once per process and seed, so every implementation of the process shares them. */
static EVP_PKEY *make_dsa(unsigned bits, char *why, size_t n)
{
    EVP_PKEY *prm = NULL, *k = NULL;
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, "DSA", NULL), *kc = NULL;
    if (!pc || EVP_PKEY_paramgen_init(pc) <= 0 ||
        EVP_PKEY_CTX_set_dsa_paramgen_bits(pc, (int)bits) <= 0 ||
        EVP_PKEY_CTX_set_dsa_paramgen_q_bits(pc, 256) <= 0 || EVP_PKEY_paramgen(pc, &prm) <= 0 ||
        !(kc = EVP_PKEY_CTX_new_from_pkey(NULL, prm, NULL)) || EVP_PKEY_keygen_init(kc) <= 0 ||
        EVP_PKEY_keygen(kc, &k) <= 0) {
        say_ossl(why, n, "DSA parameters and key");
        k = NULL;
    }
    EVP_PKEY_free(prm);
    EVP_PKEY_CTX_free(pc);
    EVP_PKEY_CTX_free(kc);
    return k;
}

static EVP_PKEY *make(const struct algo *a, const uint8_t *seed, char *why, size_t n)
{
    EVP_PKEY *k = NULL;
    if (!strcmp(a->family, "rsa"))
        return make_rsa(a->key_bits, seed, why, n);
    if (!strcmp(a->pk_type, "EC"))
        return make_ec(a->group, seed, why, n);
    if (!strcmp(a->family, "dsa"))
        return make_dsa(a->key_bits, why, n);
    if (!strcmp(a->pk_type, "ED25519") || !strcmp(a->pk_type, "X25519")) {
        k = EVP_PKEY_new_raw_private_key_ex(NULL, a->pk_type, NULL, seed, PKKEY_SEED);
        if (!k)
            say_ossl(why, n, "raw private key");
        return k;
    }
    snprintf(why, n, "no seeded key generator for %s", a->id);
    return NULL;
}

/* Keys made so far in this process: a worker makes one or two (its own and a peer's). */
#define CACHE 8
static struct {
    const char *type, *group;
    unsigned bits;
    uint8_t seed[PKKEY_SEED];
    EVP_PKEY *k;
} cache[CACHE];

EVP_PKEY *pkkey_get(const struct algo *a, const uint8_t seed[PKKEY_SEED], char *why, size_t n)
{
    static unsigned next;
    for (int i = 0; i < CACHE; i++)
        if (cache[i].k && !strcmp(cache[i].type, a->pk_type) && cache[i].bits == a->key_bits &&
            !cache[i].group == !a->group && (!a->group || !strcmp(cache[i].group, a->group)) &&
            !memcmp(cache[i].seed, seed, PKKEY_SEED))
            return EVP_PKEY_up_ref(cache[i].k) ? cache[i].k : NULL;
    EVP_PKEY *k = make(a, seed, why, n);
    if (!k)
        return NULL;
    unsigned slot = next++ % CACHE;
    EVP_PKEY_free(cache[slot].k);
    cache[slot].type = a->pk_type;
    cache[slot].group = a->group;
    cache[slot].bits = a->key_bits;
    memcpy(cache[slot].seed, seed, PKKEY_SEED);
    cache[slot].k = k;
    return EVP_PKEY_up_ref(k) ? k : NULL;
}

static int part(EVP_PKEY *k, const char *name, uint8_t *out, size_t cap, size_t *len)
{
    BIGNUM *b = NULL;
    int ok = EVP_PKEY_get_bn_param(k, name, &b) && (size_t)BN_num_bytes(b) <= cap;
    if (ok)
        *len = (size_t)BN_bn2bin(b, out);
    BN_clear_free(b);
    return ok ? 0 : -1;
}

int pkkey_rsa_parts(EVP_PKEY *k, struct pkkey_rsa *o, char *why, size_t n)
{
    if (part(k, OSSL_PKEY_PARAM_RSA_N, o->n, sizeof o->n, &o->nlen) ||
        part(k, OSSL_PKEY_PARAM_RSA_E, o->e, sizeof o->e, &o->elen) ||
        part(k, OSSL_PKEY_PARAM_RSA_D, o->d, sizeof o->d, &o->dlen) ||
        part(k, OSSL_PKEY_PARAM_RSA_FACTOR1, o->p, sizeof o->p, &o->plen) ||
        part(k, OSSL_PKEY_PARAM_RSA_FACTOR2, o->q, sizeof o->q, &o->qlen) ||
        part(k, OSSL_PKEY_PARAM_RSA_EXPONENT1, o->dp, sizeof o->dp, &o->dplen) ||
        part(k, OSSL_PKEY_PARAM_RSA_EXPONENT2, o->dq, sizeof o->dq, &o->dqlen) ||
        part(k, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, o->qinv, sizeof o->qinv, &o->qinvlen)) {
        snprintf(why, n, "the RSA key's integers are not readable (or over 4096 bits)");
        return -1;
    }
    return 0;
}

int pkkey_ec_parts(EVP_PKEY *k, struct pkkey_ec *o, char *why, size_t n)
{
    o->dlen = 0;
    if (!EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, o->pub, sizeof o->pub,
                                         &o->publen) ||
        o->publen < 1 || o->pub[0] != 0x04) {
        snprintf(why, n, "the EC key's public point is not readable uncompressed");
        return -1;
    }
    /* A public key has no scalar: not an error. */
    if (part(k, OSSL_PKEY_PARAM_PRIV_KEY, o->d, sizeof o->d, &o->dlen))
        o->dlen = 0;
    ERR_clear_error();
    return 0;
}

int pkkey_dsa_parts(EVP_PKEY *k, struct pkkey_dsa *o, char *why, size_t n)
{
    if (part(k, OSSL_PKEY_PARAM_FFC_P, o->p, sizeof o->p, &o->plen) ||
        part(k, OSSL_PKEY_PARAM_FFC_Q, o->q, sizeof o->q, &o->qlen) ||
        part(k, OSSL_PKEY_PARAM_FFC_G, o->g, sizeof o->g, &o->glen) ||
        part(k, OSSL_PKEY_PARAM_PUB_KEY, o->y, sizeof o->y, &o->ylen)) {
        snprintf(why, n, "the DSA key's p, q, g, y are not readable (or p over 3072 bits)");
        return -1;
    }
    if (part(k, OSSL_PKEY_PARAM_PRIV_KEY, o->x, sizeof o->x, &o->xlen))
        o->xlen = 0;
    ERR_clear_error();
    return 0;
}

static int der_out(unsigned char *p, int len, uint8_t **der, size_t *dlen, char *why,
                   size_t n, const char *what)
{
    if (len <= 0) {
        say_ossl(why, n, what);
        return -1;
    }
    *der = p;
    *dlen = (size_t)len;
    return 0;
}

int pkkey_pkcs8(EVP_PKEY *k, uint8_t **der, size_t *len, char *why, size_t n)
{
    PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(k);
    unsigned char *p = NULL;
    int l = p8 ? i2d_PKCS8_PRIV_KEY_INFO(p8, &p) : -1;
    PKCS8_PRIV_KEY_INFO_free(p8);
    return der_out(p, l, der, len, why, n, "PKCS#8 encoding");
}

/* A self-signed certificate: the kernel takes a public key only inside one. */
int pkkey_x509(EVP_PKEY *k, uint8_t **der, size_t *len, char *why, size_t n)
{
    X509 *x = X509_new();
    X509_NAME *nm = X509_NAME_new();
    unsigned char *p = NULL;
    int l = -1;
    if (x && nm && X509_set_version(x, 2) && ASN1_INTEGER_set(X509_get_serialNumber(x), 1) &&
        X509_NAME_add_entry_by_txt(nm, "CN", MBSTRING_ASC, (const unsigned char *)"accelscope",
                                   -1, -1, 0) &&
        X509_set_subject_name(x, nm) && X509_set_issuer_name(x, nm) &&
        X509_gmtime_adj(X509_getm_notBefore(x), 0) &&
        X509_gmtime_adj(X509_getm_notAfter(x), 86400L * 365) && X509_set_pubkey(x, k) &&
        X509_sign(x, k, EVP_PKEY_is_a(k, "ED25519") ? NULL : EVP_sha256()) > 0)
        l = i2d_X509(x, &p);
    X509_NAME_free(nm);
    X509_free(x);
    return der_out(p, l, der, len, why, n, "self-signed certificate");
}

int pkkey_sha256(const uint8_t *in, size_t len, uint8_t out[32])
{
    unsigned olen = 0;
    return EVP_Digest(in, len, out, &olen, EVP_sha256(), NULL) == 1 && olen == 32 ? 0 : -1;
}
