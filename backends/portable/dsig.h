/* What ECDSA (ec.c) and DSA (dsa.c) share: the scalar half of a signature modulo the group
 * order q (FIPS 186-4 4.6/4.7 and 6.4/6.4.2, the same formulas), RFC 6979's nonce and the DER
 * of (r, s). Each scheme supplies the group half as a callback. Internal to
 * backends/portable/. */
#ifndef ACCELSCOPE_PORTABLE_DSIG_H
#define ACCELSCOPE_PORTABLE_DSIG_H

#include <stddef.h>
#include <stdint.h>

#include "pk.h"

#define DSIG_MAXL 6  /* words of the largest q: P-384's order */
#define DSIG_MAXB 48 /* its bytes */

/* The group order: prime, bits a multiple of 8 (all of P-256's, P-384's and FIPS 186-4's
 * N = 224 and 256). */
struct dsig_q {
    const struct portable_mont *q;
    uint64_t q2[DSIG_MAXL]; /* q - 2, Fermat's exponent */
    unsigned bytes;
};

/* 0, or -1 when q is not such an order (over DSIG_MAXB bytes, bits not a multiple of 8). */
int dsig_q_init(struct dsig_q *g, const struct portable_mont *q);

/* r = f(k) mod q for the nonce k (plain, below q): ECDSA's x(kG) mod n, DSA's
 * (g^k mod p) mod q. Must be constant time in k. */
typedef void dsig_r_fn(const void *ctx, uint64_t *r, const uint64_t *k);
/* v = f(u1, u2) mod q, ECDSA's x(u1 G + u2 Q) mod n, DSA's (g^u1 y^u2 mod p) mod q; -1 when
 * the point is the point at infinity. May be variable time. */
typedef int dsig_v_fn(const void *ctx, uint64_t *v, const uint64_t *u1, const uint64_t *u2);

/* DER of (r, s) into sig (PORTABLE_DSIG_MAX bytes); x the private key (plain, below q). 0, or
 * -1 in the negligible cases r = 0 or s = 0 (RFC 6979 would draw the next k). */
int dsig_sign(const struct dsig_q *g, const uint64_t *x, const uint8_t *h, size_t hlen,
              dsig_r_fn *rf, const void *ctx, uint8_t *sig, size_t *siglen);
/* 0 when sig is a valid signature of h. */
int dsig_verify(const struct dsig_q *g, const uint8_t *sig, size_t siglen, const uint8_t *h,
                size_t hlen, dsig_v_fn *vf, const void *ctx);

#endif
