/* DSA (FIPS 186-4 4.6, 4.7) with RFC 6979 nonces: the group half over mont.c's arithmetic
 * mod p, the scalar half in dsig.c.
 *
 * Constant time: signing (g^k by mont_exp's fixed window over all of q's words, each table
 * entry read by a scan; k^-1 by Fermat). Verification and key import are variable time
 * (public inputs, or checks once per key). No blinding. */
#include "pk.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "dsig.h"
#include "mont.h"

#define PL PORTABLE_DSA_LIMBS

static int fail(char *why, size_t whylen, const char *msg)
{
    if (why && whylen)
        snprintf(why, whylen, "%s", msg);
    return -1;
}

static unsigned words(const uint8_t *b, size_t len)
{
    return (unsigned)((mont_be_bits(b, len) + 63) / 64);
}

/* 1 < v < p, into Montgomery form; -1 otherwise. */
static int elem_in(const struct portable_dsa *k, uint64_t *v, const uint8_t *b, size_t len)
{
    unsigned n = k->p.limbs;
    uint64_t one[PL] = { 1 };
    if (!b || mont_from_be(v, n, b, len) || mont_cmp(v, one, n) <= 0 ||
        mont_cmp(v, k->p.m, n) >= 0)
        return -1;
    mont_mul(&k->p, v, v, k->p.rr);
    return 0;
}

/* The domain parameters p, q and g. */
static int import_domain(struct portable_dsa *k, const uint8_t *p, size_t plen,
                         const uint8_t *q, size_t qlen, const uint8_t *g, size_t glen,
                         char *why, size_t whylen)
{
    uint64_t w[PL];
    struct dsig_q dq;
    unsigned pn = p ? words(p, plen) : 0, qn = q ? words(q, qlen) : 0;
    if (!p || mont_be_bits(p, plen) < 512 || pn > PL || mont_from_be(w, pn, p, plen) || !(w[0] & 1))
        return fail(why, whylen, "p must be odd, of 512 to 2048 bits");
    mont_setup(&k->p, w, pn);
    if (!qn || qn > PORTABLE_EC_LIMBS || mont_from_be(w, qn, q, qlen) || !(w[0] & 1) ||
        qn >= pn)
        return fail(why, whylen, "q must be odd, of at most 384 bits (fewer words than p)");
    mont_setup(&k->q, w, qn);
    if (dsig_q_init(&dq, &k->q) || dq.bytes < 20)
        return fail(why, whylen, "q's bits must be a multiple of 8, at least 160");
    k->pbytes = (mont_be_bits(p, plen) + 7) / 8;
    k->qbytes = dq.bytes;
    if (elem_in(k, k->g, g, glen))
        return fail(why, whylen, "g must be in [2, p - 1]");
    return 0;
}

int portable_dsa_import(struct portable_dsa *k, const uint8_t *p, size_t plen,
                        const uint8_t *q, size_t qlen, const uint8_t *g, size_t glen,
                        const uint8_t *y, size_t ylen, const uint8_t *x, size_t xlen, char *why,
                        size_t whylen)
{
    memset(k, 0, sizeof *k);
    if (import_domain(k, p, plen, q, qlen, g, glen, why, whylen))
        return -1;
    if (elem_in(k, k->y, y, ylen))
        return fail(why, whylen, "y must be in [2, p - 1]");
    if (!x)
        return 0;
    unsigned qn = k->q.limbs;
    uint64_t gx[PL];
    if (mont_from_be(k->x, qn, x, xlen) || mont_is_zero(k->x, qn) ||
        mont_cmp(k->x, k->q.m, qn) >= 0) {
        portable_dsa_free(k);
        return fail(why, whylen, "x must be in [1, q - 1]");
    }
    mont_exp(&k->p, gx, k->g, k->x, qn);
    if (mont_cmp(gx, k->y, k->p.limbs)) {
        portable_dsa_free(k);
        return fail(why, whylen, "y is not g^x mod p");
    }
    k->has_private = 1;
    return 0;
}

/* v = (a mod p) mod q for a in Montgomery form mod p. */
static void to_q(const struct portable_dsa *k, uint64_t *v, const uint64_t *a)
{
    uint64_t t[PL];
    mont_to_plain(&k->p, t, a);
    mont_reduce(&k->q, v, t, k->p.limbs);
}

static void dsa_r(const void *ctx, uint64_t *r, const uint64_t *kk)
{
    const struct portable_dsa *k = ctx;
    uint64_t t[PL];
    mont_exp(&k->p, t, k->g, kk, k->q.limbs);
    to_q(k, r, t);
    wipe(t, sizeof t);
}

static int dsa_v(const void *ctx, uint64_t *v, const uint64_t *u1, const uint64_t *u2)
{
    const struct portable_dsa *k = ctx;
    uint64_t a[PL], b[PL];
    mont_exp(&k->p, a, k->g, u1, k->q.limbs);
    mont_exp(&k->p, b, k->y, u2, k->q.limbs);
    mont_mul(&k->p, a, a, b);
    to_q(k, v, a);
    return 0;
}

int portable_dsa_sign(const struct portable_dsa *k, uint8_t *sig, size_t *siglen,
                      const uint8_t *digest, size_t dlen)
{
    struct dsig_q g;
    if (!k->has_private || dsig_q_init(&g, &k->q))
        return -1;
    return dsig_sign(&g, k->x, digest, dlen, dsa_r, k, sig, siglen);
}

int portable_dsa_verify(const struct portable_dsa *k, const uint8_t *sig, size_t siglen,
                        const uint8_t *digest, size_t dlen)
{
    struct dsig_q g;
    if (!k->pbytes || dsig_q_init(&g, &k->q))
        return -1;
    return dsig_verify(&g, sig, siglen, digest, dlen, dsa_v, k);
}

void portable_dsa_free(struct portable_dsa *k)
{
    wipe(k, sizeof *k);
}
