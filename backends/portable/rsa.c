/* RSA PKCS#1 v1.5 signatures over SHA-256 (RFC 8017 8.2, 9.2) on 64-bit limbs, with the
 * Montgomery arithmetic of mont.c. The private operation is CRT with mont_exp's fixed window
 * over every bit of dp and dq: the sequence of operations and addresses does not depend on
 * the key or the message. Numbers are arrays of 64-bit words, least significant first, all
 * of a modulus's length. */
#include "pk.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "mont.h"
#include "wide.h"

#define MAXL PORTABLE_RSA_LIMBS

const char *const portable_pk_wide_kind = WIDE_KIND;

/* ---- import ---- */

static int fail(char *why, size_t whylen, const char *msg)
{
    if (why && whylen)
        snprintf(why, whylen, "%s", msg);
    return -1;
}

static unsigned limbs_for(size_t bits)
{
    return (unsigned)((bits + 63) / 64);
}

/* The CRT half of the key: p, q of one word count, p q = n, exponents and qinv reduced. */
static int import_private(struct portable_rsa *k, const uint8_t *p, size_t plen,
                          const uint8_t *q, size_t qlen, const uint8_t *dp, size_t dplen,
                          const uint8_t *dq, size_t dqlen, const uint8_t *qinv, size_t qinvlen,
                          char *why, size_t whylen)
{
    unsigned pl = limbs_for(mont_be_bits(p, plen)), nl = k->n.limbs;
    uint64_t pw[MAXL], qw[MAXL], prod[2 * MAXL];
    if (!dp || !dq || !qinv || !q)
        return fail(why, whylen, "p, q, dp, dq and qinv: all of them, or none (public key)");
    if (pl != limbs_for(mont_be_bits(q, qlen)) || 2 * pl < nl || pl > MAXL / 2)
        return fail(why, whylen, "p and q must have the same number of 64-bit words, "
                                 "together those of n (primes of half the modulus size)");
    if (mont_from_be(pw, pl, p, plen) || mont_from_be(qw, pl, q, qlen) || !(pw[0] & 1) ||
        !(qw[0] & 1))
        return fail(why, whylen, "p and q must be odd");
    mont_bn_mul(prod, pw, qw, pl);
    if (!mont_is_zero(prod + nl, 2 * pl - nl) || mont_cmp(prod, k->n.m, nl) != 0)
        return fail(why, whylen, "p * q is not n");
    mont_setup(&k->p, pw, pl);
    mont_setup(&k->q, qw, pl);
    if (mont_from_be(k->dp, pl, dp, dplen) || mont_cmp(k->dp, pw, pl) >= 0 ||
        mont_from_be(k->dq, pl, dq, dqlen) || mont_cmp(k->dq, qw, pl) >= 0)
        return fail(why, whylen, "dp must be below p and dq below q");
    if (mont_from_be(k->qinv, pl, qinv, qinvlen) || mont_cmp(k->qinv, pw, pl) >= 0)
        return fail(why, whylen, "qinv must be below p");
    mont_mul(&k->p, k->r3p, k->p.rr, k->p.rr);
    mont_mul(&k->q, k->r3q, k->q.rr, k->q.rr);
    k->has_private = 1;
    wipe(pw, sizeof pw);
    wipe(qw, sizeof qw);
    wipe(prod, sizeof prod);
    return 0;
}

int portable_rsa_import(struct portable_rsa *k, const uint8_t *n, size_t nlen, const uint8_t *e,
                        size_t elen, const uint8_t *d, size_t dlen, const uint8_t *p,
                        size_t plen, const uint8_t *q, size_t qlen, const uint8_t *dp,
                        size_t dplen, const uint8_t *dq, size_t dqlen, const uint8_t *qinv,
                        size_t qinvlen, char *why, size_t whylen)
{
    (void)d; /* CRT only */
    (void)dlen;
    memset(k, 0, sizeof *k);
    size_t bits = n ? mont_be_bits(n, nlen) : 0;
    if (bits < 512 || bits > PORTABLE_RSA_MAX_BITS)
        return fail(why, whylen, "n must have 512 to 4096 bits");
    uint64_t nw[MAXL], ew[1];
    unsigned nl = limbs_for(bits);
    mont_from_be(nw, nl, n, nlen);
    if (!(nw[0] & 1))
        return fail(why, whylen, "n must be odd");
    if (!e || mont_from_be(ew, 1, e, elen) || ew[0] < 3 || !(ew[0] & 1))
        return fail(why, whylen, "e must be odd, above 1 and below 2^64");
    k->nbytes = (bits + 7) / 8;
    k->e = ew[0];
    mont_setup(&k->n, nw, nl);
    if (!p)
        return 0;
    if (import_private(k, p, plen, q, qlen, dp, dplen, dq, dqlen, qinv, qinvlen, why,
                       whylen)) {
        portable_rsa_free(k);
        return -1;
    }
    return 0;
}

void portable_rsa_free(struct portable_rsa *k)
{
    wipe(k, sizeof *k);
}

/* ---- EMSA-PKCS1-v1_5 (RFC 8017 9.2) ---- */

/* DigestInfo for SHA-256: the DER prefix of RFC 8017 9.2 note 1, then the digest. */
static const uint8_t sha256_prefix[19] = { 0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60,
                                           0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                                           0x01, 0x05, 0x00, 0x04, 0x20 };

/* EM = 0x00 || 0x01 || PS (0xff...) || 0x00 || DigestInfo, k bytes (k >= 62 here). */
static void emsa_encode(uint8_t *em, size_t k, const uint8_t digest[32])
{
    size_t tlen = sizeof sha256_prefix + 32;
    em[0] = 0x00;
    em[1] = 0x01;
    memset(em + 2, 0xff, k - tlen - 3);
    em[k - tlen - 1] = 0x00;
    memcpy(em + k - tlen, sha256_prefix, sizeof sha256_prefix);
    memcpy(em + k - 32, digest, 32);
}

/* ---- RSASSA-PKCS1-v1_5 (RFC 8017 8.2) ---- */

/* out = (x mod m)^d in Montgomery form, for a 2-limbs-word x < m R: redc gives x / R,
 * times R^3 / R is x R. */
static void crt_half(const struct portable_mont *m, const uint64_t *r3, const uint64_t *d,
                     const uint64_t *x, uint64_t *out)
{
    uint64_t t[MAXL / 2];
    mont_redc(m, t, x);
    mont_mul(m, t, t, r3);
    mont_exp(m, out, t, d, m->limbs);
    wipe(t, sizeof t);
}

/* Garner's recombination (RFC 8017 5.1.2 step 2b, u = 2): s = m2 + q (qinv (m1 - m2) mod p),
 * from m1 R mod p and m2 R mod q. */
static void crt_join(const struct portable_rsa *k, uint64_t *s, const uint64_t *m1r,
                     const uint64_t *m2r)
{
    unsigned pl = k->p.limbs;
    uint64_t one[MAXL / 2] = { 1 }, m2[MAXL], m2p[MAXL / 2], h[MAXL / 2] = { 0 };
    mont_mul(&k->q, m2, m2r, one);       /* m2 < q */
    mont_mul(&k->p, m2p, m2, k->p.rr);   /* m2 R mod p (m2 < R) */
    uint64_t borrow = mont_sub(h, m1r, m2p, pl);
    mont_add_masked(h, h, k->p.m, 0 - borrow, pl); /* (m1 - m2) R mod p */
    mont_mul(&k->p, h, h, k->qinv);              /* (m1 - m2) qinv mod p */
    mont_bn_mul(s, h, k->q.m, pl);
    memset(m2 + pl, 0, pl * sizeof *m2);
    mont_add_masked(s, s, m2, ~UINT64_C(0), 2 * pl); /* below n: no carry out */
    wipe(m2, sizeof m2);
    wipe(m2p, sizeof m2p);
    wipe(h, sizeof h);
}

int portable_rsa_sign_sha256(const struct portable_rsa *k, uint8_t *sig, size_t siglen,
                             const uint8_t digest[32])
{
    if (!k->has_private || siglen != k->nbytes)
        return -1;
    unsigned pl = k->p.limbs;
    uint8_t em[PORTABLE_RSA_MAX_BITS / 8];
    uint64_t x[MAXL], m1r[MAXL / 2], m2r[MAXL / 2], s[MAXL];
    emsa_encode(em, k->nbytes, digest);
    mont_from_be(x, 2 * pl, em, k->nbytes);
    crt_half(&k->p, k->r3p, k->dp, x, m1r);
    crt_half(&k->q, k->r3q, k->dq, x, m2r);
    crt_join(k, s, m1r, m2r);
    mont_to_be(sig, k->nbytes, s);
    wipe(m1r, sizeof m1r);
    wipe(m2r, sizeof m2r);
    wipe(s, sizeof s);
    return 0;
}

int portable_rsa_verify_sha256(const struct portable_rsa *k, const uint8_t *sig, size_t siglen,
                               const uint8_t digest[32])
{
    const struct portable_mont *m = &k->n;
    uint64_t s[MAXL], sr[MAXL], acc[MAXL], one[MAXL] = { 1 };
    uint8_t em[PORTABLE_RSA_MAX_BITS / 8], want[PORTABLE_RSA_MAX_BITS / 8];
    if (!k->nbytes || siglen != k->nbytes || mont_from_be(s, m->limbs, sig, siglen) ||
        mont_cmp(s, m->m, m->limbs) >= 0)
        return -1; /* RFC 8017 8.2.2 step 2: s must be below n */
    mont_mul(m, sr, s, m->rr);
    memcpy(acc, sr, sizeof acc);
    int top = 63;
    while (!(k->e >> top & 1))
        top--;
    for (int b = top - 1; b >= 0; b--) { /* e is public: square and multiply */
        mont_sqr(m, acc, acc);
        if (k->e >> b & 1)
            mont_mul(m, acc, acc, sr);
    }
    mont_mul(m, acc, acc, one);
    mont_to_be(em, k->nbytes, acc);
    emsa_encode(want, k->nbytes, digest);
    return memcmp(em, want, k->nbytes) == 0 ? 0 : -1;
}
