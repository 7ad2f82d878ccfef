/* Arithmetic in GF(2^255 - 19), shared by X25519 and Ed25519: five limbs of radix 2^51.
 *
 * Bounds (why no operation overflows): mul/sq/mul_small/sub/carry return limbs below
 * 2^51 + 2^15 ("reduced"); add returns the sum as is. mul and sq accept limbs below 2^54,
 * so their inputs may be a sum of up to three reduced values; sub's second operand must be
 * reduced. Every function accepts out aliasing its inputs. None branches on or indexes by
 * its values. */
#ifndef ACCELSCOPE_PORTABLE_FE25519_H
#define ACCELSCOPE_PORTABLE_FE25519_H

#include <stdint.h>

typedef struct {
    uint64_t v[5];
} fe;

void portable_fe_frombytes(fe *h, const uint8_t s[32]); /* bit 255 ignored */
void portable_fe_tobytes(uint8_t s[32], const fe *h);   /* canonical: the value mod p */
void portable_fe_mul(fe *h, const fe *f, const fe *g);
void portable_fe_sq(fe *h, const fe *f);
void portable_fe_mul_small(fe *h, const fe *f, uint32_t k);
void portable_fe_sub(fe *h, const fe *f, const fe *g);
void portable_fe_invert(fe *out, const fe *z);        /* z^(p-2); 0 -> 0 */
void portable_fe_pow22523(fe *out, const fe *z);      /* z^((p-5)/8), for square roots */
/* Swaps (or moves) f and g when bit is 1, without a branch on bit. */
void portable_fe_cswap(fe *f, fe *g, uint64_t bit);
void portable_fe_cmov(fe *f, const fe *g, uint64_t bit);

static inline void fe_add(fe *h, const fe *f, const fe *g)
{
    for (int i = 0; i < 5; i++)
        h->v[i] = f->v[i] + g->v[i];
}

static inline void fe_set(fe *h, uint64_t small)
{
    h->v[0] = small;
    h->v[1] = h->v[2] = h->v[3] = h->v[4] = 0;
}

#endif
