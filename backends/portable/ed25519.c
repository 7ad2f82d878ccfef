/* Ed25519 (RFC 8032 section 5.1) over the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2,
 * in extended coordinates (X:Y:Z:T), x = X/Z, y = Y/Z, xy = T/Z. Additions use the complete
 * formulas of RFC 8032 5.1.4 (they also double and add the identity), so a scalar
 * multiplication is a fixed sequence: 4-bit windows, each table entry read by scanning
 * the whole table. Scalars mod L are reduced one bit at a time with a masked subtraction:
 * slow next to the point arithmetic, but short and constant time.
 *
 * The field constants below are the curve's (RFC 8032 5.1), little-endian, computed from
 * their definitions. */
#include "pk.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "fe25519.h"
#include "portable.h"
#include "wide.h"

static const uint8_t ed_d[32] = { /* d = -121665/121666 */
    0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41,
    0x4d, 0x0a, 0x70, 0x00, 0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c,
    0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52,
};
static const uint8_t ed_sqrtm1[32] = { /* 2^((p-1)/4), a square root of -1 */
    0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f, 0xad,
    0x06, 0x18, 0x43, 0x2f, 0xa7, 0xd7, 0xfb, 0x3d, 0x99, 0x00, 0x4d, 0x2b,
    0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b,
};
static const uint8_t ed_bx[32] = { /* the base point B: x, the even root */
    0x1a, 0xd5, 0x25, 0x8f, 0x60, 0x2d, 0x56, 0xc9, 0xb2, 0xa7, 0x25, 0x95,
    0x60, 0xc7, 0x2c, 0x69, 0x5c, 0xdc, 0xd6, 0xfd, 0x31, 0xe2, 0xa4, 0xc0,
    0xfe, 0x53, 0x6e, 0xcd, 0xd3, 0x36, 0x69, 0x21,
};
static const uint8_t ed_by[32] = { /* B: y = 4/5 */
    0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
    0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
    0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
};

/* L = 2^252 + 27742317777372353535851937790883648493, the order of B: 64-bit limbs. */
static const uint64_t ed_l[4] = { 0x5812631a5cf5d3edull, 0x14def9dea2f79cd6ull, 0, 0x1000000000000000ull };

typedef struct {
    fe x, y, z, t;
} ge;

/* A point readied to be added: (Y + X, Y - X, 2dT, 2Z). */
typedef struct {
    fe ypx, ymx, t2d, z2;
} ge_cached;

static void ge_identity(ge *p)
{
    fe_set(&p->x, 0);
    fe_set(&p->y, 1);
    fe_set(&p->z, 1);
    fe_set(&p->t, 0);
}

static void ge_to_cached(ge_cached *c, const ge *p, const fe *d2)
{
    fe_add(&c->ypx, &p->y, &p->x);
    portable_fe_sub(&c->ymx, &p->y, &p->x);
    portable_fe_mul(&c->t2d, &p->t, d2);
    fe_add(&c->z2, &p->z, &p->z);
}

/* RFC 8032 5.1.4, addition: A = (Y1-X1)(Y2-X2), B = (Y1+X1)(Y2+X2), C = T1 2d T2,
 * D = Z1 2 Z2, then E = B-A, F = D-C, G = D+C, H = B+A. */
static void ge_add(ge *r, const ge *p, const ge_cached *q)
{
    fe a, b, c, d, e, f, g, h;
    portable_fe_sub(&a, &p->y, &p->x);
    portable_fe_mul(&a, &a, &q->ymx);
    fe_add(&b, &p->y, &p->x);
    portable_fe_mul(&b, &b, &q->ypx);
    portable_fe_mul(&c, &p->t, &q->t2d);
    portable_fe_mul(&d, &p->z, &q->z2);
    portable_fe_sub(&e, &b, &a);
    portable_fe_sub(&f, &d, &c);
    fe_add(&g, &d, &c);
    fe_add(&h, &b, &a);
    portable_fe_mul(&r->x, &e, &f);
    portable_fe_mul(&r->y, &g, &h);
    portable_fe_mul(&r->t, &e, &h);
    portable_fe_mul(&r->z, &f, &g);
}

/* RFC 8032 5.1.4, doubling: A = X1^2, B = Y1^2, C = 2 Z1^2, H = A+B, E = H-(X1+Y1)^2,
 * G = A-B, F = C+G. */
static void ge_dbl(ge *r, const ge *p)
{
    fe a, b, c, h, e, g, f;
    portable_fe_sq(&a, &p->x);
    portable_fe_sq(&b, &p->y);
    portable_fe_sq(&c, &p->z);
    fe_add(&c, &c, &c);
    fe_add(&h, &a, &b);
    fe_add(&e, &p->x, &p->y);
    portable_fe_sq(&e, &e);
    portable_fe_sub(&e, &h, &e);
    portable_fe_sub(&g, &a, &b);
    fe_add(&f, &c, &g);
    portable_fe_mul(&r->x, &e, &f);
    portable_fe_mul(&r->y, &g, &h);
    portable_fe_mul(&r->t, &e, &h);
    portable_fe_mul(&r->z, &f, &g);
}

static void cached_cmov(ge_cached *r, const ge_cached *c, uint64_t bit)
{
    portable_fe_cmov(&r->ypx, &c->ypx, bit);
    portable_fe_cmov(&r->ymx, &c->ymx, bit);
    portable_fe_cmov(&r->t2d, &c->t2d, bit);
    portable_fe_cmov(&r->z2, &c->z2, bit);
}

/* r = [s]P for a 256-bit little-endian s, constant time in s. */
static void ge_scalarmult(ge *r, const uint8_t s[32], const ge *p)
{
    fe d2;
    portable_fe_frombytes(&d2, ed_d);
    fe_add(&d2, &d2, &d2);
    ge_cached tab[16], sel;
    ge acc;
    ge_identity(&acc);
    ge_to_cached(&tab[0], &acc, &d2);
    ge_to_cached(&tab[1], p, &d2);
    acc = *p;
    for (int i = 2; i < 16; i++) {
        ge_add(&acc, &acc, &tab[1]);
        ge_to_cached(&tab[i], &acc, &d2);
    }
    ge_identity(&acc);
    for (int i = 63; i >= 0; i--) {
        uint64_t nib = (uint64_t)(s[i >> 1] >> ((i & 1) * 4)) & 15;
        for (int k = 0; k < 4; k++)
            ge_dbl(&acc, &acc);
        sel = tab[0];
        for (uint64_t j = 1; j < 16; j++)
            cached_cmov(&sel, &tab[j], ((j ^ nib) - 1) >> 63);
        ge_add(&acc, &acc, &sel);
    }
    *r = acc;
    wipe(tab, sizeof tab);
    wipe(&sel, sizeof sel);
}

static void ge_base(ge *b)
{
    portable_fe_frombytes(&b->x, ed_bx);
    portable_fe_frombytes(&b->y, ed_by);
    fe_set(&b->z, 1);
    portable_fe_mul(&b->t, &b->x, &b->y);
}

/* RFC 8032 5.1.2: y with the low bit of x in bit 255. */
static void ge_encode(uint8_t s[32], const ge *p)
{
    fe zi, x, y;
    uint8_t xb[32];
    portable_fe_invert(&zi, &p->z);
    portable_fe_mul(&x, &p->x, &zi);
    portable_fe_mul(&y, &p->y, &zi);
    portable_fe_tobytes(s, &y);
    portable_fe_tobytes(xb, &x);
    s[31] |= (uint8_t)(xb[0] << 7);
}

static int fe_equal(const fe *a, const fe *b)
{
    uint8_t x[32], y[32];
    portable_fe_tobytes(x, a);
    portable_fe_tobytes(y, b);
    return memcmp(x, y, 32) == 0;
}

/* RFC 8032 5.1.3; public input, so variable time. 0, or -1 when s is no point. */
static int ge_decode(ge *p, const uint8_t s[32])
{
    fe one, u, v, v3, t, d, sqrtm1, vx2;
    uint8_t canon[32];
    int sign = s[31] >> 7;
    portable_fe_frombytes(&p->y, s);
    portable_fe_tobytes(canon, &p->y);
    canon[31] |= (uint8_t)(sign << 7);
    if (memcmp(canon, s, 32) != 0)
        return -1; /* y >= p */
    fe_set(&one, 1);
    portable_fe_frombytes(&d, ed_d);
    portable_fe_sq(&u, &p->y);
    portable_fe_mul(&v, &u, &d);
    portable_fe_sub(&u, &u, &one); /* u = y^2 - 1 */
    fe_add(&v, &v, &one);          /* v = d y^2 + 1 */
    portable_fe_sq(&v3, &v);
    portable_fe_mul(&v3, &v3, &v);
    portable_fe_sq(&t, &v3);
    portable_fe_mul(&t, &t, &v);
    portable_fe_mul(&t, &t, &u); /* u v^7 */
    portable_fe_pow22523(&t, &t);
    portable_fe_mul(&t, &t, &v3);
    portable_fe_mul(&p->x, &t, &u); /* x = u v^3 (u v^7)^((p-5)/8) */
    portable_fe_sq(&vx2, &p->x);
    portable_fe_mul(&vx2, &vx2, &v);
    if (!fe_equal(&vx2, &u)) {
        fe_set(&t, 0);
        portable_fe_sub(&t, &t, &u);
        if (!fe_equal(&vx2, &t))
            return -1; /* x^2 has no root */
        portable_fe_frombytes(&sqrtm1, ed_sqrtm1);
        portable_fe_mul(&p->x, &p->x, &sqrtm1);
    }
    portable_fe_tobytes(canon, &p->x);
    int zero = 1;
    for (int i = 0; i < 32; i++)
        zero &= canon[i] == 0;
    if (zero && sign)
        return -1;
    if ((canon[0] & 1) != sign) {
        fe_set(&t, 0);
        portable_fe_sub(&p->x, &t, &p->x);
    }
    fe_set(&p->z, 1);
    portable_fe_mul(&p->t, &p->x, &p->y);
    return 0;
}

/* ---- scalars mod L ---- */

/* out = in mod L for a 512-bit little-endian in: r = 2r + bit, minus L where that does not
 * borrow (r < L < 2^253 keeps 2r + 1 within four limbs). */
static void sc_reduce(uint8_t out[32], const uint64_t in[8])
{
    uint64_t r[4] = { 0, 0, 0, 0 }, t[4];
    for (int i = 511; i >= 0; i--) {
        uint64_t bit = in[i >> 6] >> (i & 63) & 1;
        r[3] = r[3] << 1 | r[2] >> 63;
        r[2] = r[2] << 1 | r[1] >> 63;
        r[1] = r[1] << 1 | r[0] >> 63;
        r[0] = r[0] << 1 | bit;
        uint64_t borrow = 0;
        for (int j = 0; j < 4; j++) {
            uint64_t d = r[j] - ed_l[j];
            uint64_t b = (r[j] < ed_l[j]) | (d < borrow);
            t[j] = d - borrow;
            borrow = b;
        }
        uint64_t keep = 0 - borrow; /* all ones: r < L, keep r */
        for (int j = 0; j < 4; j++)
            r[j] = (r[j] & keep) | (t[j] & ~keep);
    }
    for (int j = 0; j < 4; j++)
        store64_le(out + 8 * j, r[j]);
    wipe(r, sizeof r);
    wipe(t, sizeof t);
}

static void sc_load(uint64_t *w, const uint8_t *s, int words)
{
    for (int i = 0; i < words; i++)
        w[i] = load64_le(s + 8 * i);
}

/* out = (c + a b) mod L for 256-bit a, b, c. */
static void sc_muladd(uint8_t out[32], const uint8_t a[32], const uint8_t b[32],
                      const uint8_t c[32])
{
    uint64_t x[4], y[4], z[8] = { 0 };
    sc_load(x, a, 4);
    sc_load(y, b, 4);
    sc_load(z, c, 4);
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            wide w = wadd64(wadd64(wmul(x[i], y[j]), z[i + j]), carry);
            z[i + j] = wlo(w);
            carry = whi(w);
        }
        z[i + 4] = carry; /* row i is the first to reach word i + 4 */
    }
    sc_reduce(out, z);
    wipe(x, sizeof x);
    wipe(z, sizeof z);
}

/* SHA-512(a || b || msg) mod L. */
static void hash_mod_l(uint8_t out[32], const uint8_t *a, size_t alen, const uint8_t *b,
                       size_t blen, const uint8_t *msg, size_t len)
{
    uint8_t stackbuf[1024], h[64];
    size_t total = alen + blen + len;
    uint8_t *buf = total <= sizeof stackbuf ? stackbuf : malloc(total);
    if (!buf)
        abort();
    memcpy(buf, a, alen);
    if (blen)
        memcpy(buf + alen, b, blen);
    if (len)
        memcpy(buf + alen + blen, msg, len);
    portable_sha512(buf, total, h);
    wipe(buf, alen); /* a may be the secret prefix */
    if (buf != stackbuf)
        free(buf);
    uint64_t w[8];
    sc_load(w, h, 8);
    sc_reduce(out, w);
    wipe(h, sizeof h);
    wipe(w, sizeof w);
}

/* RFC 8032 5.1.5: the secret scalar s (clamped) and the prefix, from SHA-512(seed). */
static void expand_seed(uint8_t h[64], const uint8_t seed[32])
{
    portable_sha512(seed, 32, h);
    h[0] &= 248;
    h[31] &= 127;
    h[31] |= 64;
}

void portable_ed25519_pubkey(uint8_t pub[32], const uint8_t seed[32])
{
    uint8_t h[64];
    ge b, a;
    expand_seed(h, seed);
    ge_base(&b);
    ge_scalarmult(&a, h, &b);
    ge_encode(pub, &a);
    wipe(h, sizeof h);
}

/* RFC 8032 5.1.6. */
void portable_ed25519_sign(uint8_t sig[64], const uint8_t *msg, size_t len,
                           const uint8_t seed[32], const uint8_t pub[32])
{
    uint8_t h[64], r[32], k[32];
    ge b, rp;
    expand_seed(h, seed);
    hash_mod_l(r, h + 32, 32, NULL, 0, msg, len);
    ge_base(&b);
    ge_scalarmult(&rp, r, &b);
    ge_encode(sig, &rp);
    hash_mod_l(k, sig, 32, pub, 32, msg, len);
    sc_muladd(sig + 32, k, h, r);
    wipe(h, sizeof h);
    wipe(r, sizeof r);
}

/* S < L, compared from the most significant byte (public data). */
static int sc_canonical(const uint8_t s[32])
{
    uint8_t l[32];
    for (int j = 0; j < 4; j++)
        store64_le(l + 8 * j, ed_l[j]);
    for (int i = 31; i >= 0; i--)
        if (s[i] != l[i])
            return s[i] < l[i];
    return 0;
}

/* RFC 8032 5.1.7, cofactorless: encode([S]B - [k]A) must equal R. */
int portable_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t len,
                            const uint8_t pub[32])
{
    ge a, b, sb, ka;
    ge_cached c;
    fe zero, d2;
    uint8_t k[32], rcheck[32];
    if (!sc_canonical(sig + 32) || ge_decode(&a, pub))
        return -1;
    fe_set(&zero, 0);
    portable_fe_sub(&a.x, &zero, &a.x); /* -A */
    portable_fe_sub(&a.t, &zero, &a.t);
    hash_mod_l(k, sig, 32, pub, 32, msg, len);
    ge_base(&b);
    ge_scalarmult(&sb, sig + 32, &b);
    ge_scalarmult(&ka, k, &a);
    portable_fe_frombytes(&d2, ed_d);
    fe_add(&d2, &d2, &d2);
    ge_to_cached(&c, &ka, &d2);
    ge_add(&sb, &sb, &c);
    ge_encode(rcheck, &sb);
    return memcmp(rcheck, sig, 32) == 0 ? 0 : -1;
}
