/* GF(2^255 - 19) in radix 2^51 (see fe25519.h for the limb bounds). A product's limb i+j
 * at or above 5 wraps to limb i+j-5 times 19, since 2^255 = 19 mod p. */
#include "fe25519.h"

#include "bytes.h"
#include "wide.h"

#define MASK51 ((UINT64_C(1) << 51) - 1)

/* Carries five 128-bit column sums into reduced limbs. The top carry (below 2^64 for
 * inputs under 2^54) times 19 needs 69 bits, so it is folded in as a wide product. */
static void fe_carry_wide(fe *h, wide r0, wide r1, wide r2, wide r3, wide r4)
{
    r1 = wadd64(r1, wshr(r0, 51));
    r2 = wadd64(r2, wshr(r1, 51));
    r3 = wadd64(r3, wshr(r2, 51));
    r4 = wadd64(r4, wshr(r3, 51));
    uint64_t top = wshr(r4, 51); /* r4 < 2^115: exact */
    wide t0 = wadd64(wmul(top, 19), wlo(r0) & MASK51);
    h->v[0] = wlo(t0) & MASK51;
    h->v[1] = (wlo(r1) & MASK51) + wshr(t0, 51);
    h->v[2] = wlo(r2) & MASK51;
    h->v[3] = wlo(r3) & MASK51;
    h->v[4] = wlo(r4) & MASK51;
}

void portable_fe_mul(fe *h, const fe *f, const fe *g)
{
    const uint64_t *a = f->v, *b = g->v;
    uint64_t b1 = 19 * b[1], b2 = 19 * b[2], b3 = 19 * b[3], b4 = 19 * b[4];
    wide r0 = wadd(wadd(wmul(a[0], b[0]), wmul(a[1], b4)),
                   wadd(wadd(wmul(a[2], b3), wmul(a[3], b2)), wmul(a[4], b1)));
    wide r1 = wadd(wadd(wmul(a[0], b[1]), wmul(a[1], b[0])),
                   wadd(wadd(wmul(a[2], b4), wmul(a[3], b3)), wmul(a[4], b2)));
    wide r2 = wadd(wadd(wmul(a[0], b[2]), wmul(a[1], b[1])),
                   wadd(wadd(wmul(a[2], b[0]), wmul(a[3], b4)), wmul(a[4], b3)));
    wide r3 = wadd(wadd(wmul(a[0], b[3]), wmul(a[1], b[2])),
                   wadd(wadd(wmul(a[2], b[1]), wmul(a[3], b[0])), wmul(a[4], b4)));
    wide r4 = wadd(wadd(wmul(a[0], b[4]), wmul(a[1], b[3])),
                   wadd(wadd(wmul(a[2], b[2]), wmul(a[3], b[1])), wmul(a[4], b[0])));
    fe_carry_wide(h, r0, r1, r2, r3, r4);
}

/* The square's symmetric products counted once, doubled. */
void portable_fe_sq(fe *h, const fe *f)
{
    const uint64_t *a = f->v;
    uint64_t d0 = 2 * a[0], d1 = 2 * a[1], a3_19 = 19 * a[3], a4_19 = 19 * a[4];
    wide r0 = wadd(wmul(a[0], a[0]), wadd(wmul(d1, a4_19), wmul(2 * a[2], a3_19)));
    wide r1 = wadd(wmul(d0, a[1]), wadd(wmul(2 * a[2], a4_19), wmul(a[3], a3_19)));
    wide r2 = wadd(wmul(d0, a[2]), wadd(wmul(a[1], a[1]), wmul(2 * a[3], a4_19)));
    wide r3 = wadd(wmul(d0, a[3]), wadd(wmul(d1, a[2]), wmul(a[4], a4_19)));
    wide r4 = wadd(wmul(d0, a[4]), wadd(wmul(d1, a[3]), wmul(a[2], a[2])));
    fe_carry_wide(h, r0, r1, r2, r3, r4);
}

void portable_fe_mul_small(fe *h, const fe *f, uint32_t k)
{
    fe_carry_wide(h, wmul(f->v[0], k), wmul(f->v[1], k), wmul(f->v[2], k), wmul(f->v[3], k),
                  wmul(f->v[4], k));
}

/* One carry pass over 64-bit limbs below 2^63 / 19. */
static void fe_carry(fe *h)
{
    uint64_t c;
    for (int i = 0; i < 4; i++) {
        c = h->v[i] >> 51;
        h->v[i] &= MASK51;
        h->v[i + 1] += c;
    }
    c = h->v[4] >> 51;
    h->v[4] &= MASK51;
    h->v[0] += 19 * c;
    c = h->v[0] >> 51;
    h->v[0] &= MASK51;
    h->v[1] += c;
}

/* f + 4p - g: 4p's limbs exceed any reduced g, so no limb goes negative. */
void portable_fe_sub(fe *h, const fe *f, const fe *g)
{
    const uint64_t four_p0 = 4 * (MASK51 - 18), four_pi = 4 * MASK51;
    h->v[0] = f->v[0] + four_p0 - g->v[0];
    for (int i = 1; i < 5; i++)
        h->v[i] = f->v[i] + four_pi - g->v[i];
    fe_carry(h);
}

void portable_fe_frombytes(fe *h, const uint8_t s[32])
{
    h->v[0] = load64_le(s) & MASK51;
    h->v[1] = load64_le(s + 6) >> 3 & MASK51;
    h->v[2] = load64_le(s + 12) >> 6 & MASK51;
    h->v[3] = load64_le(s + 19) >> 1 & MASK51;
    h->v[4] = load64_le(s + 24) >> 12 & MASK51;
}

/* Canonical: h is below 2p after one carry pass, and q = (h + 19) >> 255 is 1 exactly when
 * h >= p; h + 19q with the carry out of bit 255 dropped is then h - qp. */
void portable_fe_tobytes(uint8_t s[32], const fe *f)
{
    fe h = *f;
    fe_carry(&h);
    uint64_t q = (h.v[0] + 19) >> 51;
    for (int i = 1; i < 5; i++)
        q = (h.v[i] + q) >> 51;
    h.v[0] += 19 * q;
    for (int i = 0; i < 4; i++) {
        h.v[i + 1] += h.v[i] >> 51;
        h.v[i] &= MASK51;
    }
    h.v[4] &= MASK51;
    store64_le(s, h.v[0] | h.v[1] << 51);
    store64_le(s + 8, h.v[1] >> 13 | h.v[2] << 38);
    store64_le(s + 16, h.v[2] >> 26 | h.v[3] << 25);
    store64_le(s + 24, h.v[3] >> 39 | h.v[4] << 12);
}

void portable_fe_cswap(fe *f, fe *g, uint64_t bit)
{
    uint64_t m = 0 - bit;
    for (int i = 0; i < 5; i++) {
        uint64_t x = (f->v[i] ^ g->v[i]) & m;
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

void portable_fe_cmov(fe *f, const fe *g, uint64_t bit)
{
    uint64_t m = 0 - bit;
    for (int i = 0; i < 5; i++)
        f->v[i] ^= (f->v[i] ^ g->v[i]) & m;
}

static void fe_sqn(fe *h, const fe *f, int n)
{
    portable_fe_sq(h, f);
    while (--n > 0)
        portable_fe_sq(h, h);
}

/* z^(2^250 - 1) and z^11, the common prefix of the two exponentiations below. */
static void fe_pow250(fe *z250, fe *z11, const fe *z)
{
    fe z2, z9, t, z5_0, z10_0, z20_0, z50_0, z100_0;
    portable_fe_sq(&z2, z);
    fe_sqn(&t, &z2, 2);
    portable_fe_mul(&z9, &t, z);
    portable_fe_mul(z11, &z9, &z2);
    portable_fe_sq(&t, z11);
    portable_fe_mul(&z5_0, &t, &z9); /* z^(2^5 - 1) */
    fe_sqn(&t, &z5_0, 5);
    portable_fe_mul(&z10_0, &t, &z5_0);
    fe_sqn(&t, &z10_0, 10);
    portable_fe_mul(&z20_0, &t, &z10_0);
    fe_sqn(&t, &z20_0, 20);
    portable_fe_mul(&t, &t, &z20_0); /* 2^40 - 1 */
    fe_sqn(&t, &t, 10);
    portable_fe_mul(&z50_0, &t, &z10_0);
    fe_sqn(&t, &z50_0, 50);
    portable_fe_mul(&z100_0, &t, &z50_0);
    fe_sqn(&t, &z100_0, 100);
    portable_fe_mul(&t, &t, &z100_0); /* 2^200 - 1 */
    fe_sqn(&t, &t, 50);
    portable_fe_mul(z250, &t, &z50_0);
}

/* p - 2 = 2^255 - 21 = (2^250 - 1) * 2^5 + 11 */
void portable_fe_invert(fe *out, const fe *z)
{
    fe t, z11;
    fe_pow250(&t, &z11, z);
    fe_sqn(&t, &t, 5);
    portable_fe_mul(out, &t, &z11);
}

/* (p - 5) / 8 = 2^252 - 3 = (2^250 - 1) * 2^2 + 1 */
void portable_fe_pow22523(fe *out, const fe *z)
{
    fe t, z11;
    fe_pow250(&t, &z11, z);
    fe_sqn(&t, &t, 2);
    portable_fe_mul(out, &t, z);
}
