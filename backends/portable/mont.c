/* Multi-word integers and Montgomery arithmetic on 64-bit limbs, shared by the portable RSA,
 * ECDSA/ECDH and DSA (mont.h says which functions are constant time).
 *
 * Multiplication is Montgomery's (CIOS: one row of the product and one row of the reduction
 * per word of b, interleaved), squaring its own product (each cross product once) followed by
 * the reduction rows, both with a masked final subtraction. Exponentiation is a fixed 4-bit
 * window over every bit of the exponent (the top zero bits too), each table entry read by
 * scanning the table. */
#include "mont.h"

#include <string.h>

#include "bytes.h"
#include "wide.h"

#define MAXL PORTABLE_RSA_LIMBS
#define WINDOW 4
/* The inner loops of the products, eight words a trip: gcc -O2 keeps them rolled, and each
 * word then pays the loop's own counting and a compare beside its carry chain. Unrolled
 * (gcc >= 8 and clang honour the pragma; the jumps added are on loop counts only, checked in
 * the object code of gcc and clang, x86-64, i686, aarch64), RSA-2048 signing went from 4.3x
 * to 3.9-4.0x slower than OpenSSL's AVX-512 IFMA code on a Zen 5 VM (tests/bench/
 * pk_portable.sh, in one run). */
#define UNROLL _Pragma("GCC unroll 8")


uint64_t mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n)
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
uint64_t mont_add_masked(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t mask,
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

void mont_select(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t pick_b,
                      unsigned n)
{
    uint64_t m = 0 - pick_b;
    for (unsigned i = 0; i < n; i++)
        r[i] = (a[i] & ~m) | (b[i] & m);
}

int mont_cmp(const uint64_t *a, const uint64_t *b, unsigned n)
{
    while (n--)
        if (a[n] != b[n])
            return a[n] < b[n] ? -1 : 1;
    return 0;
}

int mont_is_zero(const uint64_t *a, unsigned n)
{
    uint64_t acc = 0;
    while (n--)
        acc |= a[n];
    return acc == 0;
}

/* r[0..2n) = a b for n-word a, b. */
void mont_bn_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n)
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

/* Big-endian bytes to exactly `limbs` words; -1 when the value needs more. Every byte is
 * read the same way (the nonce candidates of dsig.c pass through here). */
int mont_from_be(uint64_t *w, unsigned limbs, const uint8_t *b, size_t len)
{
    uint8_t over = 0;
    memset(w, 0, limbs * sizeof *w);
    for (size_t i = 0; i < len; i++) {
        uint8_t v = b[len - 1 - i]; /* byte i from the least significant end */
        if (i / 8 >= limbs)
            over |= v;
        else
            w[i / 8] |= (uint64_t)v << (8 * (i % 8));
    }
    return over ? -1 : 0;
}

void mont_to_be(uint8_t *b, size_t len, const uint64_t *w)
{
    for (size_t i = 0; i < len; i++)
        b[len - 1 - i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

/* Significant bits of a big-endian number. */
size_t mont_be_bits(const uint8_t *b, size_t len)
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
void mont_mul(const struct portable_mont *m, uint64_t *r, const uint64_t *a,
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
        UNROLL
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
    uint64_t borrow = mont_sub(u, t, m->m, n);
    mont_select(r, t, u, t[n] | (borrow ^ 1), n); /* t >= m: take t - m */
}

/* r = x / R mod m for a 2n-word x < m R: the reduction rows alone. Row i's carry out of word
 * i + n waits in `top` for row i + 1, which adds at word i + n + 1. */
void mont_redc(const struct portable_mont *m, uint64_t *r, const uint64_t *x)
{
    unsigned n = m->limbs;
    uint64_t t[2 * MAXL], u[MAXL], top = 0;
    memcpy(t, x, 2 * n * sizeof *t);
    for (unsigned i = 0; i < n; i++) {
        uint64_t q = t[i] * m->minv, carry = 0;
        UNROLL
        for (unsigned j = 0; j < n; j++) {
            wide w = wadd64(wadd64(wmul(q, m->m[j]), t[i + j]), carry);
            t[i + j] = wlo(w);
            carry = whi(w);
        }
        wide w = wadd64(wadd64(wfrom64(t[i + n]), carry), top);
        t[i + n] = wlo(w);
        top = whi(w);
    }
    uint64_t borrow = mont_sub(u, t + n, m->m, n);
    mont_select(r, t + n, u, top | (borrow ^ 1), n);
}

/* r[0..2n) = a^2: each cross product once, doubled, then the squares on the diagonal. */
static void mont_bn_sqr(uint64_t *r, const uint64_t *a, unsigned n)
{
    memset(r, 0, 2 * n * sizeof *r);
    for (unsigned i = 0; i + 1 < n; i++) {
        uint64_t carry = 0;
        UNROLL
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
void mont_sqr(const struct portable_mont *m, uint64_t *r, const uint64_t *a)
{
    uint64_t t[2 * MAXL];
    mont_bn_sqr(t, a, m->limbs);
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
        uint64_t borrow = mont_sub(u, r, m->m, n);
        mont_select(r, r, u, top | (borrow ^ 1), n);
    }
}

/* m must be odd and its top word nonzero. */
void mont_setup(struct portable_mont *m, const uint64_t *mod, unsigned limbs)
{
    m->limbs = limbs;
    memcpy(m->m, mod, limbs * sizeof *mod);
    uint64_t inv = mod[0]; /* correct mod 2^3 for odd m; Newton doubles the bits */
    for (int i = 0; i < 5; i++)
        inv *= 2 - mod[0] * inv;
    m->minv = 0 - inv;
    mont_pow2(m, m->rr, 128 * limbs);
}

void mont_exp(const struct portable_mont *m, uint64_t *r, const uint64_t *base,
              const uint64_t *exp, unsigned elimbs)
{
    unsigned n = m->limbs;
    uint64_t tab[1 << WINDOW][MAXL / 2], sel[MAXL / 2], one[MAXL / 2] = { 1 };
    mont_mul(m, tab[0], m->rr, one); /* R mod m: 1 in Montgomery form */
    memcpy(tab[1], base, n * sizeof *base);
    for (unsigned i = 2; i < 1u << WINDOW; i++)
        mont_mul(m, tab[i], tab[i - 1], base);
    memcpy(r, tab[0], n * sizeof *r);
    for (int pos = (int)(64 * elimbs) - WINDOW; pos >= 0; pos -= WINDOW) {
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

void mont_add_mod(const struct portable_mont *m, uint64_t *r, const uint64_t *a,
                  const uint64_t *b)
{
    unsigned n = m->limbs;
    uint64_t u[MAXL];
    uint64_t carry = mont_add_masked(r, a, b, ~UINT64_C(0), n);
    uint64_t borrow = mont_sub(u, r, m->m, n);
    mont_select(r, r, u, carry | (borrow ^ 1), n);
}

void mont_sub_mod(const struct portable_mont *m, uint64_t *r, const uint64_t *a,
                  const uint64_t *b)
{
    unsigned n = m->limbs;
    uint64_t borrow = mont_sub(r, a, b, n);
    mont_add_masked(r, r, m->m, 0 - borrow, n);
}

void mont_to_plain(const struct portable_mont *m, uint64_t *r, const uint64_t *a)
{
    uint64_t one[MAXL] = { 1 };
    mont_mul(m, r, a, one);
}

/* Horner over chunks of m->limbs words from the top: acc = acc R + chunk (mod m), each
 * chunk reduced as chunk R / R. */
void mont_reduce(const struct portable_mont *m, uint64_t *r, const uint64_t *x,
                 unsigned xlimbs)
{
    unsigned n = m->limbs, chunks = (xlimbs + n - 1) / n;
    uint64_t c[MAXL], acc[MAXL] = { 0 };
    for (unsigned j = chunks; j-- > 0;) {
        unsigned from = j * n, len = xlimbs - from < n ? xlimbs - from : n;
        memset(c, 0, n * sizeof *c);
        memcpy(c, x + from, len * sizeof *c);
        mont_mul(m, c, c, m->rr); /* c R mod m */
        mont_to_plain(m, c, c);   /* c mod m */
        mont_mul(m, acc, acc, m->rr);
        mont_add_mod(m, acc, acc, c);
    }
    memcpy(r, acc, n * sizeof *r);
    wipe(c, sizeof c);
    wipe(acc, sizeof acc);
}

void mont_inv(const struct portable_mont *m, uint64_t *r, const uint64_t *a,
              const uint64_t *m_minus_2)
{
    mont_exp(m, r, a, m_minus_2, m->limbs);
}

void mont_minus2(const struct portable_mont *m, uint64_t *r)
{
    uint64_t two[MAXL] = { 2 };
    mont_sub(r, m->m, two, m->limbs);
}
