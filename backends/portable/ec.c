/* ECDSA and ECDH over NIST P-256 and P-384 (FIPS 186-4 D.1.2.3, D.1.2.4) in projective
 * coordinates with the complete addition and doubling formulas for a = -3 of Renes, Costello
 * and Batina ("Complete addition formulas for prime order elliptic curves", 2016,
 * algorithms 4 and 6): no special case for doubling or the point at infinity, so a scalar
 * multiplication is one fixed sequence of field operations. Field elements are in Montgomery
 * form mod p (mont.c), scalars plain mod n.
 *
 * Constant time: scalar multiplication (a fixed 4-bit window over every bit of the scalar,
 * the table entry read by scanning all 16 with masks) and the inversion to affine (Fermat);
 * so signing, public-key derivation and ECDH. Verification (u1 G + u2 Q with one chain of
 * doublings, table entries read directly) and key import are variable time (public inputs,
 * or checks once per key). No blinding of the scalar or the coordinates. */
#include "pk.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "dsig.h"
#include "mont.h"

#define L PORTABLE_EC_LIMBS

struct pt {
    uint64_t x[L], y[L], z[L];
};

/* FIPS 186-4 D.1.2.3 (P-256) and D.1.2.4 (P-384): p, n, b, Gx, Gy. */
static const struct {
    unsigned bits;
    const char *p, *n, *b, *gx, *gy;
} curves[] = {
    { 256, "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
      "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
      "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
      "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
      "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5" },
    { 384,
      "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000"
      "ffffffff",
      "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196a"
      "ccc52973",
      "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8ed"
      "d3ec2aef",
      "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e38"
      "72760ab7",
      "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c"
      "90ea0e5f" },
};

static void hex_words(uint64_t *w, unsigned n, const char *hex)
{
    uint8_t b[8 * L];
    size_t len = strlen(hex) / 2;
    for (size_t i = 0; i < len; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        b[i] = (uint8_t)v;
    }
    mont_from_be(w, n, b, len);
}

static void fmul(const struct portable_ec *c, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_mul(&c->p, r, a, b);
}

static void fadd(const struct portable_ec *c, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_add_mod(&c->p, r, a, b);
}

static void fsub(const struct portable_ec *c, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_sub_mod(&c->p, r, a, b);
}

/* The constants of the curve of `bits` bits into k; -1 for another size. */
static int curve_setup(struct portable_ec *k, unsigned bits)
{
    size_t i = 0;
    while (i < sizeof curves / sizeof *curves && curves[i].bits != bits)
        i++;
    if (i == sizeof curves / sizeof *curves)
        return -1;
    unsigned n = bits / 64;
    uint64_t w[L], one[L] = { 1 };
    k->bits = bits;
    k->bytes = bits / 8;
    hex_words(w, n, curves[i].p);
    mont_setup(&k->p, w, n);
    hex_words(w, n, curves[i].n);
    mont_setup(&k->n, w, n);
    mont_minus2(&k->p, k->p2);
    fmul(k, k->one, k->p.rr, one);
    hex_words(w, n, curves[i].b);
    fmul(k, k->b, w, k->p.rr);
    hex_words(w, n, curves[i].gx);
    fmul(k, k->gx, w, k->p.rr);
    hex_words(w, n, curves[i].gy);
    fmul(k, k->gy, w, k->p.rr);
    return 0;
}

/* o = p + q (RCB algorithm 4, a = -3); o may alias p or q. */
static void pt_add(const struct portable_ec *c, struct pt *o, const struct pt *p,
                   const struct pt *q)
{
    uint64_t t0[L], t1[L], t2[L], t3[L], t4[L], x3[L], y3[L], z3[L];
    fmul(c, t0, p->x, q->x), fmul(c, t1, p->y, q->y), fmul(c, t2, p->z, q->z);
    fadd(c, t3, p->x, p->y), fadd(c, t4, q->x, q->y), fmul(c, t3, t3, t4);
    fadd(c, t4, t0, t1), fsub(c, t3, t3, t4), fadd(c, t4, p->y, p->z);
    fadd(c, x3, q->y, q->z), fmul(c, t4, t4, x3), fadd(c, x3, t1, t2);
    fsub(c, t4, t4, x3), fadd(c, x3, p->x, p->z), fadd(c, y3, q->x, q->z);
    fmul(c, x3, x3, y3), fadd(c, y3, t0, t2), fsub(c, y3, x3, y3);
    fmul(c, z3, c->b, t2), fsub(c, x3, y3, z3), fadd(c, z3, x3, x3);
    fadd(c, x3, x3, z3), fsub(c, z3, t1, x3), fadd(c, x3, t1, x3);
    fmul(c, y3, c->b, y3), fadd(c, t1, t2, t2), fadd(c, t2, t1, t2);
    fsub(c, y3, y3, t2), fsub(c, y3, y3, t0), fadd(c, t1, y3, y3);
    fadd(c, y3, t1, y3), fadd(c, t1, t0, t0), fadd(c, t0, t1, t0);
    fsub(c, t0, t0, t2), fmul(c, t1, t4, y3), fmul(c, t2, t0, y3);
    fmul(c, y3, x3, z3), fadd(c, y3, y3, t2), fmul(c, x3, t3, x3);
    fsub(c, x3, x3, t1), fmul(c, z3, t4, z3), fmul(c, t1, t3, t0);
    fadd(c, z3, z3, t1);
    memcpy(o->x, x3, sizeof x3), memcpy(o->y, y3, sizeof y3), memcpy(o->z, z3, sizeof z3);
}

/* o = 2 p (RCB algorithm 6, a = -3); o may alias p. */
static void pt_dbl(const struct portable_ec *c, struct pt *o, const struct pt *p)
{
    uint64_t t0[L], t1[L], t2[L], t3[L], x3[L], y3[L], z3[L];
    fmul(c, t0, p->x, p->x), fmul(c, t1, p->y, p->y), fmul(c, t2, p->z, p->z);
    fmul(c, t3, p->x, p->y), fadd(c, t3, t3, t3), fmul(c, z3, p->x, p->z);
    fadd(c, z3, z3, z3), fmul(c, y3, c->b, t2), fsub(c, y3, y3, z3);
    fadd(c, x3, y3, y3), fadd(c, y3, x3, y3), fsub(c, x3, t1, y3);
    fadd(c, y3, t1, y3), fmul(c, y3, x3, y3), fmul(c, x3, x3, t3);
    fadd(c, t3, t2, t2), fadd(c, t2, t2, t3), fmul(c, z3, c->b, z3);
    fsub(c, z3, z3, t2), fsub(c, z3, z3, t0), fadd(c, t3, z3, z3);
    fadd(c, z3, z3, t3), fadd(c, t3, t0, t0), fadd(c, t0, t3, t0);
    fsub(c, t0, t0, t2), fmul(c, t0, t0, z3), fadd(c, y3, y3, t0);
    fmul(c, t0, p->y, p->z), fadd(c, t0, t0, t0), fmul(c, z3, t0, z3);
    fsub(c, x3, x3, z3), fmul(c, z3, t0, t1), fadd(c, z3, z3, z3);
    fadd(c, z3, z3, z3);
    memcpy(o->x, x3, sizeof x3), memcpy(o->y, y3, sizeof y3), memcpy(o->z, z3, sizeof z3);
}

/* tab[i] = i p for i < 16, tab[0] the point at infinity (0 : 1 : 0). */
static void pt_table(const struct portable_ec *c, struct pt *tab, const struct pt *p)
{
    memset(&tab[0], 0, sizeof tab[0]);
    memcpy(tab[0].y, c->one, sizeof c->one);
    tab[1] = *p;
    for (int i = 2; i < 16; i++)
        pt_add(c, &tab[i], &tab[i - 1], p);
}

/* The 4-bit window of scalar k at bit pos. */
static uint64_t window(const uint64_t *k, int pos)
{
    return k[pos / 64] >> (pos % 64) & 15;
}

/* o = k p for a plain scalar k of the curve's words: the fixed window (see the top). */
static void pt_mul(const struct portable_ec *c, struct pt *o, const uint64_t *k,
                   const struct pt *p)
{
    struct pt tab[16], sel, acc;
    pt_table(c, tab, p);
    acc = tab[0];
    for (int pos = (int)(64 * c->n.limbs) - 4; pos >= 0; pos -= 4) {
        uint64_t idx = window(k, pos);
        for (int d = 0; d < 4; d++)
            pt_dbl(c, &acc, &acc);
        memset(&sel, 0, sizeof sel);
        for (uint64_t j = 0; j < 16; j++) {
            uint64_t mask = 0 - (((j ^ idx) - 1) >> 63);
            for (int i = 0; i < L; i++) {
                sel.x[i] |= tab[j].x[i] & mask;
                sel.y[i] |= tab[j].y[i] & mask;
                sel.z[i] |= tab[j].z[i] & mask;
            }
        }
        pt_add(c, &acc, &acc, &sel);
    }
    *o = acc;
    wipe(tab, sizeof tab), wipe(&sel, sizeof sel), wipe(&acc, sizeof acc);
}

/* o = a p + b q, variable time (verification: public scalars): Shamir's trick, one chain of
 * doublings for both, the table entries read directly. */
static void pt_mul2(const struct portable_ec *c, struct pt *o, const uint64_t *a,
                    const struct pt *p, const uint64_t *b, const struct pt *q)
{
    struct pt tp[16], tq[16], acc;
    pt_table(c, tp, p);
    pt_table(c, tq, q);
    acc = tp[0];
    for (int pos = (int)(64 * c->n.limbs) - 4; pos >= 0; pos -= 4) {
        for (int d = 0; d < 4; d++)
            pt_dbl(c, &acc, &acc);
        pt_add(c, &acc, &acc, &tp[window(a, pos)]);
        pt_add(c, &acc, &acc, &tq[window(b, pos)]);
    }
    *o = acc;
}

/* Affine x and y of p, in Montgomery form (y may be NULL); -1 at infinity. */
static int pt_affine(const struct portable_ec *c, uint64_t *x, uint64_t *y, const struct pt *p)
{
    uint64_t zi[L];
    mont_inv(&c->p, zi, p->z, c->p2);
    fmul(c, x, p->x, zi);
    if (y)
        fmul(c, y, p->y, zi);
    return mont_is_zero(p->z, c->p.limbs) ? -1 : 0;
}

static void generator(const struct portable_ec *c, struct pt *g)
{
    memcpy(g->x, c->gx, sizeof g->x), memcpy(g->y, c->gy, sizeof g->y);
    memcpy(g->z, c->one, sizeof g->z);
}

/* y^2 = x^3 - 3 x + b, x and y in Montgomery form. */
static int on_curve(const struct portable_ec *c, const uint64_t *x, const uint64_t *y)
{
    uint64_t l[L], r[L], three[L];
    fadd(c, three, c->one, c->one), fadd(c, three, three, c->one);
    fmul(c, l, y, y);
    fmul(c, r, x, x), fsub(c, r, r, three), fmul(c, r, r, x), fadd(c, r, r, c->b);
    return mont_cmp(l, r, c->p.limbs) == 0;
}

/* 0x04 || X || Y on the curve into p (z = 1); -1 otherwise. */
static int point_in(const struct portable_ec *c, struct pt *p, const uint8_t *b, size_t len)
{
    unsigned n = c->p.limbs;
    uint64_t x[L], y[L];
    if (len != 1 + 2 * c->bytes || b[0] != 0x04 || mont_from_be(x, n, b + 1, c->bytes) ||
        mont_from_be(y, n, b + 1 + c->bytes, c->bytes) || mont_cmp(x, c->p.m, n) >= 0 ||
        mont_cmp(y, c->p.m, n) >= 0)
        return -1;
    memset(p, 0, sizeof *p);
    fmul(c, p->x, x, c->p.rr), fmul(c, p->y, y, c->p.rr);
    memcpy(p->z, c->one, sizeof p->z);
    return on_curve(c, p->x, p->y) ? 0 : -1;
}

/* A Montgomery-form coordinate as len big-endian bytes. */
static void coord_out(const struct portable_ec *c, uint8_t *b, const uint64_t *v)
{
    uint64_t t[L];
    mont_to_plain(&c->p, t, v);
    mont_to_be(b, c->bytes, t);
}

static int fail(char *why, size_t whylen, const char *msg)
{
    if (why && whylen)
        snprintf(why, whylen, "%s", msg);
    return -1;
}

int portable_ec_import(struct portable_ec *k, unsigned bits, const uint8_t *priv,
                       size_t privlen, const uint8_t *pub, size_t publen, char *why,
                       size_t whylen)
{
    struct pt q, g;
    memset(k, 0, sizeof *k);
    if (curve_setup(k, bits))
        return fail(why, whylen, "the curve must be P-256 or P-384 (bits 256 or 384)");
    unsigned n = k->n.limbs;
    if (!priv && !pub)
        return fail(why, whylen, "a private scalar, a public point, or both");
    if (priv && (mont_from_be(k->d, n, priv, privlen) || mont_is_zero(k->d, n) ||
                 mont_cmp(k->d, k->n.m, n) >= 0)) {
        portable_ec_free(k); /* the caller frees nothing after a failed import */
        return fail(why, whylen, "the private scalar must be in [1, n - 1]");
    }
    if (pub && point_in(k, &q, pub, publen)) {
        portable_ec_free(k);
        return fail(why, whylen, "the public point must be 0x04 || X || Y, on the curve");
    }
    if (priv) {
        uint64_t x[L], y[L];
        generator(k, &g);
        pt_mul(k, &g, k->d, &g);
        pt_affine(k, x, y, &g);
        if (pub && (mont_cmp(x, q.x, n) || mont_cmp(y, q.y, n))) {
            portable_ec_free(k);
            return fail(why, whylen, "the public point is not d G");
        }
        memcpy(q.x, x, sizeof x), memcpy(q.y, y, sizeof y);
        k->has_private = 1;
    }
    memcpy(k->qx, q.x, sizeof k->qx), memcpy(k->qy, q.y, sizeof k->qy);
    return 0;
}

void portable_ec_pubkey(const struct portable_ec *k, uint8_t *out)
{
    out[0] = 0x04;
    coord_out(k, out + 1, k->qx);
    coord_out(k, out + 1 + k->bytes, k->qy);
}

/* x(P) mod n (plain) for a point not at infinity. */
static int x_mod_n(const struct portable_ec *c, uint64_t *r, const struct pt *p)
{
    uint64_t x[L];
    int rc = pt_affine(c, x, NULL, p);
    mont_to_plain(&c->p, x, x);
    mont_reduce(&c->n, r, x, c->p.limbs);
    return rc;
}

static void ecdsa_r(const void *ctx, uint64_t *r, const uint64_t *k)
{
    const struct portable_ec *c = ctx;
    struct pt p;
    generator(c, &p);
    pt_mul(c, &p, k, &p);
    x_mod_n(c, r, &p);
    wipe(&p, sizeof p);
}

/* u1 G + u2 Q. */
static int ecdsa_v(const void *ctx, uint64_t *v, const uint64_t *u1, const uint64_t *u2)
{
    const struct portable_ec *c = ctx;
    struct pt g, q;
    generator(c, &g);
    memcpy(q.x, c->qx, sizeof q.x), memcpy(q.y, c->qy, sizeof q.y);
    memcpy(q.z, c->one, sizeof q.z);
    pt_mul2(c, &g, u1, &g, u2, &q);
    return x_mod_n(c, v, &g);
}

int portable_ecdsa_sign(const struct portable_ec *k, uint8_t *sig, size_t *siglen,
                        const uint8_t *digest, size_t dlen)
{
    struct dsig_q g;
    if (!k->has_private || dsig_q_init(&g, &k->n))
        return -1;
    return dsig_sign(&g, k->d, digest, dlen, ecdsa_r, k, sig, siglen);
}

int portable_ecdsa_verify(const struct portable_ec *k, const uint8_t *sig, size_t siglen,
                          const uint8_t *digest, size_t dlen)
{
    struct dsig_q g;
    if (!k->bits || dsig_q_init(&g, &k->n))
        return -1;
    return dsig_verify(&g, sig, siglen, digest, dlen, ecdsa_v, k);
}

int portable_ecdh(const struct portable_ec *k, uint8_t *out, const uint8_t *peer,
                  size_t peerlen)
{
    struct pt p;
    uint64_t x[L];
    if (!k->has_private || point_in(k, &p, peer, peerlen))
        return -1;
    pt_mul(k, &p, k->d, &p);
    int rc = pt_affine(k, x, NULL, &p);
    coord_out(k, out, x);
    wipe(&p, sizeof p), wipe(x, sizeof x);
    return rc;
}

void portable_ec_free(struct portable_ec *k)
{
    wipe(k, sizeof *k);
}
