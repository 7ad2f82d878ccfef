/* RSA PKCS#1 v1.5 signatures over SHA-256 (RFC 8017 8.2, 9.2) on 64-bit limbs.
 *
 * Multiplication is Montgomery's (CIOS: one row of the product and one row of the reduction
 * per word of b, interleaved), squaring its own product (each cross product once) followed by
 * the reduction rows, both with a masked final subtraction. The private operation is CRT
 * with a fixed 4-bit window over every bit of dp and dq (the top zero bits too), each table
 * entry read by scanning the table: the sequence of operations and addresses does not
 * depend on the key or the message. Numbers are arrays of 64-bit words, least significant
 * first, all of a modulus's length. */
#include "pk.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "wide.h"

#define MAXL PORTABLE_RSA_LIMBS
#define WINDOW 4

const char *const portable_pk_wide_kind = WIDE_KIND;

/* ---- limb arrays ---- */

static uint64_t bn_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n)
{
    uint64_t borrow = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t d = a[i] - b[i];
        uint64_t out = (a[i] < b[i]) | (d < borrow);
        r[i] = d - borrow;
        borrow = out;
    }
    return borrow;
}

/* r = a + (b & mask); returns the carry. */
static uint64_t bn_add_masked(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t mask,
                              unsigned n)
{
    uint64_t carry = 0;
    for (unsigned i = 0; i < n; i++) {
        wide w = wadd64(wadd64(wfrom64(a[i]), b[i] & mask), carry);
        r[i] = wlo(w);
        carry = whi(w);
    }
    return carry;
}

static void bn_select(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t pick_b,
                      unsigned n)
{
    uint64_t m = 0 - pick_b;
    for (unsigned i = 0; i < n; i++)
        r[i] = (a[i] & ~m) | (b[i] & m);
}

/* Variable time: only for public values and key checks at import. */
static int bn_cmp(const uint64_t *a, const uint64_t *b, unsigned n)
{
    while (n--)
        if (a[n] != b[n])
            return a[n] < b[n] ? -1 : 1;
    return 0;
}

static int bn_is_zero(const uint64_t *a, unsigned n)
{
    uint64_t acc = 0;
    while (n--)
        acc |= a[n];
    return acc == 0;
}

/* r[0..2n) = a b for n-word a, b. */
static void bn_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n)
{
    memset(r, 0, 2 * n * sizeof *r);
    for (unsigned i = 0; i < n; i++) {
        uint64_t carry = 0;
        for (unsigned j = 0; j < n; j++) {
            wide w = wadd64(wadd64(wmul(a[i], b[j]), r[i + j]), carry);
            r[i + j] = wlo(w);
            carry = whi(w);
        }
        r[i + n] = carry;
    }
}

/* Big-endian bytes to exactly `limbs` words; -1 when the value needs more. */
static int bn_from_be(uint64_t *w, unsigned limbs, const uint8_t *b, size_t len)
{
    memset(w, 0, limbs * sizeof *w);
    for (size_t i = 0; i < len; i++) {
        size_t pos = len - 1 - i; /* byte i from the least significant end */
        if (!b[pos])
            continue;
        if (i / 8 >= limbs)
            return -1;
        w[i / 8] |= (uint64_t)b[pos] << (8 * (i % 8));
    }
    return 0;
}

static void bn_to_be(uint8_t *b, size_t len, const uint64_t *w)
{
    for (size_t i = 0; i < len; i++)
        b[len - 1 - i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

/* Significant bits of a big-endian number. */
static size_t be_bits(const uint8_t *b, size_t len)
{
    size_t i = 0;
    while (i < len && !b[i])
        i++;
    if (i == len)
        return 0;
    size_t bits = 8 * (len - i);
    for (uint8_t top = b[i]; !(top & 0x80); top <<= 1)
        bits--;
    return bits;
}

/* ---- Montgomery arithmetic mod m, R = 2^(64 limbs) ---- */

/* r = a b / R mod m, for a < R and b < m (so the sum stays below 2m before the final
 * subtraction). r may alias a or b. Row i adds a b[i], then the multiple q m of m that
 * clears the low word, and shifts down one word. */
static void mont_mul(const struct portable_mont *m, uint64_t *r, const uint64_t *a,
                     const uint64_t *b)
{
    unsigned n = m->limbs;
    uint64_t t[MAXL + 1], u[MAXL];
    memset(t, 0, (n + 1) * sizeof *t);
    for (unsigned i = 0; i < n; i++) {
        uint64_t bi = b[i];
        wide w = wadd64(wmul(a[0], bi), t[0]);
        uint64_t c1 = whi(w), lo = wlo(w);
        uint64_t q = lo * m->minv;
        uint64_t c2 = whi(wadd64(wmul(q, m->m[0]), lo)); /* the low word is 0 */
        for (unsigned j = 1; j < n; j++) {
            w = wadd64(wadd64(wmul(a[j], bi), t[j]), c1);
            c1 = whi(w);
            wide v = wadd64(wadd64(wmul(q, m->m[j]), wlo(w)), c2);
            t[j - 1] = wlo(v);
            c2 = whi(v);
        }
        w = wadd64(wadd64(wfrom64(t[n]), c1), c2);
        t[n - 1] = wlo(w);
        t[n] = whi(w);
    }
    uint64_t borrow = bn_sub(u, t, m->m, n);
    bn_select(r, t, u, t[n] | (borrow ^ 1), n); /* t >= m: take t - m */
}

/* r = x / R mod m for a 2n-word x < m R: the reduction rows alone. Row i's carry out of word
 * i + n waits in `top` for row i + 1, which adds at word i + n + 1. */
static void mont_redc(const struct portable_mont *m, uint64_t *r, const uint64_t *x)
{
    unsigned n = m->limbs;
    uint64_t t[2 * MAXL], u[MAXL], top = 0;
    memcpy(t, x, 2 * n * sizeof *t);
    for (unsigned i = 0; i < n; i++) {
        uint64_t q = t[i] * m->minv, carry = 0;
        for (unsigned j = 0; j < n; j++) {
            wide w = wadd64(wadd64(wmul(q, m->m[j]), t[i + j]), carry);
            t[i + j] = wlo(w);
            carry = whi(w);
        }
        wide w = wadd64(wadd64(wfrom64(t[i + n]), carry), top);
        t[i + n] = wlo(w);
        top = whi(w);
    }
    uint64_t borrow = bn_sub(u, t + n, m->m, n);
    bn_select(r, t + n, u, top | (borrow ^ 1), n);
}

/* r[0..2n) = a^2: each cross product once, doubled, then the squares on the diagonal. */
static void bn_sqr(uint64_t *r, const uint64_t *a, unsigned n)
{
    memset(r, 0, 2 * n * sizeof *r);
    for (unsigned i = 0; i + 1 < n; i++) {
        uint64_t carry = 0;
        for (unsigned j = i + 1; j < n; j++) {
            wide w = wadd64(wadd64(wmul(a[i], a[j]), r[i + j]), carry);
            r[i + j] = wlo(w);
            carry = whi(w);
        }
        r[i + n] = carry;
    }
    for (unsigned k = 2 * n - 1; k > 0; k--) /* the cross sum is below 2^(128n - 1) */
        r[k] = r[k] << 1 | r[k - 1] >> 63;
    r[0] <<= 1;
    uint64_t carry = 0;
    for (unsigned i = 0; i < n; i++) {
        wide w = wadd64(wadd64(wmul(a[i], a[i]), r[2 * i]), carry);
        r[2 * i] = wlo(w);
        wide v = wadd64(wfrom64(r[2 * i + 1]), whi(w));
        r[2 * i + 1] = wlo(v);
        carry = whi(v);
    }
}

/* r = a^2 / R mod m for a < m: a quarter fewer products than mont_mul(a, a). */
static void mont_sqr(const struct portable_mont *m, uint64_t *r, const uint64_t *a)
{
    uint64_t t[2 * MAXL];
    bn_sqr(t, a, m->limbs);
    mont_redc(m, r, t);
}

/* r = 2^bits mod m by doubling (import time only). */
static void mont_pow2(const struct portable_mont *m, uint64_t *r, unsigned bits)
{
    unsigned n = m->limbs;
    uint64_t u[MAXL];
    memset(r, 0, n * sizeof *r);
    r[0] = 1;
    for (unsigned k = 0; k < bits; k++) {
        uint64_t top = r[n - 1] >> 63;
        for (unsigned i = n - 1; i > 0; i--)
            r[i] = r[i] << 1 | r[i - 1] >> 63;
        r[0] <<= 1;
        uint64_t borrow = bn_sub(u, r, m->m, n);
        bn_select(r, r, u, top | (borrow ^ 1), n);
    }
}

/* m must be odd and its top word nonzero. */
static void mont_setup(struct portable_mont *m, const uint64_t *mod, unsigned limbs)
{
    m->limbs = limbs;
    memcpy(m->m, mod, limbs * sizeof *mod);
    uint64_t inv = mod[0]; /* correct mod 2^3 for odd m; Newton doubles the bits */
    for (int i = 0; i < 5; i++)
        inv *= 2 - mod[0] * inv;
    m->minv = 0 - inv;
    mont_pow2(m, m->rr, 128 * limbs);
}

/* r = base^exp in Montgomery form (base in Montgomery form, exp of m->limbs words), by a
 * fixed window over all 64 * limbs bits of exp. For the primes only (tables of MAXL / 2). */
static void mont_exp(const struct portable_mont *m, uint64_t *r, const uint64_t *base,
                     const uint64_t *exp)
{
    unsigned n = m->limbs;
    uint64_t tab[1 << WINDOW][MAXL / 2], sel[MAXL / 2], one[MAXL / 2] = { 1 };
    mont_mul(m, tab[0], m->rr, one); /* R mod m: 1 in Montgomery form */
    memcpy(tab[1], base, n * sizeof *base);
    for (unsigned i = 2; i < 1u << WINDOW; i++)
        mont_mul(m, tab[i], tab[i - 1], base);
    memcpy(r, tab[0], n * sizeof *r);
    for (int pos = (int)(64 * n) - WINDOW; pos >= 0; pos -= WINDOW) {
        uint64_t idx = exp[pos / 64] >> (pos % 64) & ((1u << WINDOW) - 1);
        for (int k = 0; k < WINDOW; k++)
            mont_sqr(m, r, r);
        memset(sel, 0, n * sizeof *sel);
        for (uint64_t j = 0; j < 1u << WINDOW; j++) {
            uint64_t mask = 0 - (((j ^ idx) - 1) >> 63);
            for (unsigned i = 0; i < n; i++)
                sel[i] |= tab[j][i] & mask;
        }
        mont_mul(m, r, r, sel);
    }
    wipe(tab, sizeof tab);
    wipe(sel, sizeof sel);
}

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
    unsigned pl = limbs_for(be_bits(p, plen)), nl = k->n.limbs;
    uint64_t pw[MAXL], qw[MAXL], prod[2 * MAXL];
    if (!dp || !dq || !qinv || !q)
        return fail(why, whylen, "p, q, dp, dq and qinv: all of them, or none (public key)");
    if (pl != limbs_for(be_bits(q, qlen)) || 2 * pl < nl || pl > MAXL / 2)
        return fail(why, whylen, "p and q must have the same number of 64-bit words, "
                                 "together those of n (primes of half the modulus size)");
    if (bn_from_be(pw, pl, p, plen) || bn_from_be(qw, pl, q, qlen) || !(pw[0] & 1) ||
        !(qw[0] & 1))
        return fail(why, whylen, "p and q must be odd");
    bn_mul(prod, pw, qw, pl);
    if (!bn_is_zero(prod + nl, 2 * pl - nl) || bn_cmp(prod, k->n.m, nl) != 0)
        return fail(why, whylen, "p * q is not n");
    mont_setup(&k->p, pw, pl);
    mont_setup(&k->q, qw, pl);
    if (bn_from_be(k->dp, pl, dp, dplen) || bn_cmp(k->dp, pw, pl) >= 0 ||
        bn_from_be(k->dq, pl, dq, dqlen) || bn_cmp(k->dq, qw, pl) >= 0)
        return fail(why, whylen, "dp must be below p and dq below q");
    if (bn_from_be(k->qinv, pl, qinv, qinvlen) || bn_cmp(k->qinv, pw, pl) >= 0)
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
    size_t bits = n ? be_bits(n, nlen) : 0;
    if (bits < 512 || bits > PORTABLE_RSA_MAX_BITS)
        return fail(why, whylen, "n must have 512 to 4096 bits");
    uint64_t nw[MAXL], ew[1];
    unsigned nl = limbs_for(bits);
    bn_from_be(nw, nl, n, nlen);
    if (!(nw[0] & 1))
        return fail(why, whylen, "n must be odd");
    if (!e || bn_from_be(ew, 1, e, elen) || ew[0] < 3 || !(ew[0] & 1))
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
    mont_exp(m, out, t, d);
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
    uint64_t borrow = bn_sub(h, m1r, m2p, pl);
    bn_add_masked(h, h, k->p.m, 0 - borrow, pl); /* (m1 - m2) R mod p */
    mont_mul(&k->p, h, h, k->qinv);              /* (m1 - m2) qinv mod p */
    bn_mul(s, h, k->q.m, pl);
    memset(m2 + pl, 0, pl * sizeof *m2);
    bn_add_masked(s, s, m2, ~UINT64_C(0), 2 * pl); /* below n: no carry out */
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
    bn_from_be(x, 2 * pl, em, k->nbytes);
    crt_half(&k->p, k->r3p, k->dp, x, m1r);
    crt_half(&k->q, k->r3q, k->dq, x, m2r);
    crt_join(k, s, m1r, m2r);
    bn_to_be(sig, k->nbytes, s);
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
    if (!k->nbytes || siglen != k->nbytes || bn_from_be(s, m->limbs, sig, siglen) ||
        bn_cmp(s, m->m, m->limbs) >= 0)
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
    bn_to_be(em, k->nbytes, acc);
    emsa_encode(want, k->nbytes, digest);
    return memcmp(em, want, k->nbytes) == 0 ? 0 : -1;
}
