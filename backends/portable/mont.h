/* Multi-word integers (arrays of 64-bit words, least significant first) and Montgomery
 * arithmetic modulo an odd m with R = 2^(64 m->limbs), shared by rsa.c, ec.c, dsa.c and
 * dsig.c. Internal to backends/portable/.
 *
 * Constant time (no branch on, no index by the values): everything below except mont_cmp and
 * mont_be_bits, which are for public values and key checks, and mont_from_be's verdict (a
 * value too long for its words). Moduli are public: their word count may show. */
#ifndef ACCELSCOPE_PORTABLE_MONT_H
#define ACCELSCOPE_PORTABLE_MONT_H

#include <stddef.h>
#include <stdint.h>

#include "pk.h"

/* r = a - b over n words; returns the borrow. */
uint64_t mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n);
/* r = a + (b & mask); returns the carry. */
uint64_t mont_add_masked(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t mask,
                         unsigned n);
/* r = pick_b ? b : a, pick_b 0 or 1, by masks. */
void mont_select(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t pick_b,
                 unsigned n);
/* Variable time: -1, 0 or 1 as a <, = or > b. */
int mont_cmp(const uint64_t *a, const uint64_t *b, unsigned n);
int mont_is_zero(const uint64_t *a, unsigned n);
/* r[0..2n) = a b for n-word a, b. */
void mont_bn_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n);
/* Big-endian bytes to exactly `limbs` words; -1 when the value needs more. */
int mont_from_be(uint64_t *w, unsigned limbs, const uint8_t *b, size_t len);
/* The low len bytes of w, big-endian. */
void mont_to_be(uint8_t *b, size_t len, const uint64_t *w);
/* Significant bits of a big-endian number. */
size_t mont_be_bits(const uint8_t *b, size_t len);

/* m must be odd and its top word nonzero; at most PORTABLE_RSA_LIMBS words. */
void mont_setup(struct portable_mont *m, const uint64_t *mod, unsigned limbs);
/* r = a b / R mod m, for a < R and b < m; r may alias a or b. */
void mont_mul(const struct portable_mont *m, uint64_t *r, const uint64_t *a, const uint64_t *b);
/* r = a^2 / R mod m for a < m. */
void mont_sqr(const struct portable_mont *m, uint64_t *r, const uint64_t *a);
/* r = x / R mod m for a 2n-word x < m R. */
void mont_redc(const struct portable_mont *m, uint64_t *r, const uint64_t *x);
/* r = base^exp in Montgomery form, base in Montgomery form, exp of elimbs words, all its
 * 64 elimbs bits scanned. m->limbs at most PORTABLE_RSA_LIMBS / 2. */
void mont_exp(const struct portable_mont *m, uint64_t *r, const uint64_t *base,
              const uint64_t *exp, unsigned elimbs);
/* r = a + b and a - b mod m, for a, b < m. */
void mont_add_mod(const struct portable_mont *m, uint64_t *r, const uint64_t *a,
                  const uint64_t *b);
void mont_sub_mod(const struct portable_mont *m, uint64_t *r, const uint64_t *a,
                  const uint64_t *b);
/* r = a / R mod m: out of Montgomery form. */
void mont_to_plain(const struct portable_mont *m, uint64_t *r, const uint64_t *a);
/* r = x mod m for x of any xlimbs words (plain, not Montgomery form). */
void mont_reduce(const struct portable_mont *m, uint64_t *r, const uint64_t *x,
                 unsigned xlimbs);
/* r = a^-1 in Montgomery form (a in Montgomery form) by Fermat, m prime: m_minus_2 from
 * mont_minus2. 0 gives 0. */
void mont_inv(const struct portable_mont *m, uint64_t *r, const uint64_t *a,
              const uint64_t *m_minus_2);
void mont_minus2(const struct portable_mont *m, uint64_t *r);

#endif
