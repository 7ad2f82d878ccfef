/* The scalar half of ECDSA and DSA signatures modulo the group order q, RFC 6979's
 * deterministic nonce (HMAC-SHA-256, section 3.2) and the DER of (r, s).
 *
 * Constant time in the private key and the nonce: HMAC, the nonce's range check (a
 * subtraction's borrow, not a comparison), k^-1 by Fermat (mont_exp's fixed window) and the
 * products mod q. Branches: only on the range check's verdict (a rejected candidate: about
 * 2^-32 for P-256, 5 % for RFC 6979 A.2.2's q, 40 % for A.2.1's, up to half for a q drawn at
 * random; the candidate is discarded, so the branch tells nothing of the nonce used) and on
 * r or s being 0. Verification is variable
 * time (its inputs are public). */
#include "dsig.h"

#include <string.h>

#include "bytes.h"
#include "mont.h"
#include "portable.h"

int dsig_q_init(struct dsig_q *g, const struct portable_mont *q)
{
    uint8_t top[8];
    unsigned n = q->limbs;
    mont_to_be(top, 8, q->m + n - 1);
    size_t bits = 64 * (n - 1) + mont_be_bits(top, 8);
    if (n > DSIG_MAXL || bits % 8)
        return -1;
    g->q = q;
    g->bytes = (unsigned)(bits / 8);
    mont_minus2(q, g->q2);
    return 0;
}

/* e = bits2int(h) mod q (FIPS 186-4 6.4, RFC 6979 2.3.2: the leftmost bits of h). */
static void hash_int(const struct dsig_q *g, uint64_t *e, const uint8_t *h, size_t hlen)
{
    unsigned n = g->q->limbs;
    mont_from_be(e, n, h, hlen < g->bytes ? hlen : g->bytes);
    mont_reduce(g->q, e, e, n);
}

/* ---- HMAC-SHA-256 (RFC 2104) over one buffer ---- */

#define HMAC_MAX (32 + 1 + 2 * DSIG_MAXB) /* V || byte || int2octets(x) || bits2octets(h1) */

static void hmac(const uint8_t key[32], const uint8_t *d, size_t len, uint8_t out[32])
{
    uint8_t buf[64 + HMAC_MAX];
    for (int i = 0; i < 64; i++)
        buf[i] = (uint8_t)((i < 32 ? key[i] : 0) ^ 0x36);
    memcpy(buf + 64, d, len);
    portable_sha256(buf, 64 + len, buf + 64); /* the inner hash after the outer pad */
    for (int i = 0; i < 64; i++)
        buf[i] = (uint8_t)((i < 32 ? key[i] : 0) ^ 0x5c);
    portable_sha256(buf, 64 + 32, out);
    wipe(buf, sizeof buf);
}

/* RFC 6979 3.2 steps d-g: K = HMAC_K(V || sep || x || e); V = HMAC_K(V). */
static void drbg_step(uint8_t k[32], uint8_t v[32], uint8_t sep, const uint8_t *xe, size_t xelen)
{
    uint8_t d[HMAC_MAX];
    memcpy(d, v, 32);
    d[32] = sep;
    if (xelen) /* step h.3 passes none */
        memcpy(d + 33, xe, xelen);
    hmac(k, d, 33 + xelen, k);
    hmac(k, v, 32, v);
    wipe(d, sizeof d);
}

/* k for x and e = bits2int(h1) mod q, both qbytes big-endian (int2octets(x), bits2octets(h1):
 * q's bits being a multiple of 8, bits2int is the first qbytes bytes). */
static void rfc6979_k(const struct dsig_q *g, uint64_t *k, const uint8_t *x8, const uint8_t *e8)
{
    uint8_t K[32], V[32], xe[2 * DSIG_MAXB], t[DSIG_MAXB + 32];
    uint64_t u[DSIG_MAXL];
    unsigned n = g->q->limbs;
    memset(V, 0x01, 32);
    memset(K, 0x00, 32);
    memcpy(xe, x8, g->bytes);
    memcpy(xe + g->bytes, e8, g->bytes);
    drbg_step(K, V, 0x00, xe, 2 * g->bytes);
    drbg_step(K, V, 0x01, xe, 2 * g->bytes);
    for (;;) {
        for (unsigned got = 0; got < g->bytes; got += 32) {
            hmac(K, V, 32, V);
            memcpy(t + got, V, 32);
        }
        mont_from_be(k, n, t, g->bytes);
        uint64_t below = mont_sub(u, k, g->q->m, n); /* 1 when k < q */
        if (below & !mont_is_zero(k, n))
            break;
        drbg_step(K, V, 0x00, NULL, 0); /* step h.3 */
    }
    wipe(K, sizeof K), wipe(V, sizeof V), wipe(xe, sizeof xe), wipe(t, sizeof t);
    wipe(u, sizeof u); /* k - q: k again, given q */
}

int portable_rfc6979_k(uint8_t *k, const uint8_t *q, size_t qlen, const uint8_t *x,
                       const uint8_t *h1, size_t hlen)
{
    struct portable_mont m;
    struct dsig_q g;
    uint64_t w[DSIG_MAXL], xw[DSIG_MAXL];
    uint8_t x8[DSIG_MAXB], e8[DSIG_MAXB];
    unsigned n = (unsigned)((mont_be_bits(q, qlen) + 63) / 64);
    if (!n || n > DSIG_MAXL || mont_from_be(w, n, q, qlen) || !(w[0] & 1))
        return -1;
    mont_setup(&m, w, n);
    if (dsig_q_init(&g, &m) || mont_from_be(xw, n, x, qlen))
        return -1;
    mont_reduce(&m, xw, xw, n);
    mont_to_be(x8, g.bytes, xw);
    hash_int(&g, w, h1, hlen);
    mont_to_be(e8, g.bytes, w);
    rfc6979_k(&g, w, x8, e8);
    mont_to_be(k, g.bytes, w);
    wipe(xw, sizeof xw), wipe(x8, sizeof x8), wipe(w, sizeof w);
    return 0;
}

/* ---- DER: SEQUENCE { INTEGER r, INTEGER s }, short lengths only (all fit) ---- */

static size_t der_int(uint8_t *out, const uint8_t *v, size_t len)
{
    while (len > 1 && !v[0])
        v++, len--;
    size_t pad = v[0] >> 7;
    out[0] = 0x02;
    out[1] = (uint8_t)(len + pad);
    out[2] = 0;
    memcpy(out + 2 + pad, v, len);
    return 2 + pad + len;
}

int portable_dsig_der(uint8_t *sig, size_t *siglen, const uint8_t *r, const uint8_t *s,
                      size_t len)
{
    if (!len || len > DSIG_MAXB)
        return -1;
    size_t a = der_int(sig + 2, r, len);
    size_t b = der_int(sig + 2 + a, s, len);
    sig[0] = 0x30;
    sig[1] = (uint8_t)(a + b);
    *siglen = 2 + a + b;
    return 0;
}

/* One minimal nonnegative INTEGER at *p (of end - *p bytes) into len big-endian bytes. */
static int der_get_int(const uint8_t **p, const uint8_t *end, uint8_t *v, size_t len)
{
    const uint8_t *c = *p;
    if (end - c < 3 || c[0] != 0x02 || c[1] >= 0x80 || c[1] == 0 || c[1] > end - c - 2)
        return -1;
    size_t l = c[1];
    c += 2;
    if (c[0] & 0x80 || (l > 1 && !c[0] && !(c[1] & 0x80)))
        return -1; /* negative, or a leading zero byte that is not needed */
    *p = c + l;
    if (!c[0])
        c++, l--;
    if (l > len)
        return -1;
    memset(v, 0, len - l);
    memcpy(v + len - l, c, l);
    return 0;
}

int portable_dsig_parse(const uint8_t *sig, size_t siglen, uint8_t *r, uint8_t *s, size_t len)
{
    if (siglen < 2 || sig[0] != 0x30 || sig[1] >= 0x80 || (size_t)sig[1] + 2 != siglen)
        return -1;
    /* Pointers formed only once the buffer is known to hold the header (C11 6.5.6p8). */
    const uint8_t *p = sig + 2, *end = sig + siglen;
    if (der_get_int(&p, end, r, len) || der_get_int(&p, end, s, len) || p != end)
        return -1;
    return 0;
}

/* ---- FIPS 186-4 4.6 and 6.4: s = k^-1 (e + x r) mod q ---- */

int dsig_sign(const struct dsig_q *g, const uint64_t *x, const uint8_t *h, size_t hlen,
              dsig_r_fn *rf, const void *ctx, uint8_t *sig, size_t *siglen)
{
    const struct portable_mont *q = g->q;
    unsigned n = q->limbs;
    uint64_t e[DSIG_MAXL], k[DSIG_MAXL], r[DSIG_MAXL], t[DSIG_MAXL], kinv[DSIG_MAXL];
    uint8_t x8[DSIG_MAXB], e8[DSIG_MAXB], r8[DSIG_MAXB], s8[DSIG_MAXB];
    hash_int(g, e, h, hlen);
    mont_to_be(x8, g->bytes, x);
    mont_to_be(e8, g->bytes, e);
    rfc6979_k(g, k, x8, e8);
    rf(ctx, r, k);
    mont_mul(q, t, r, q->rr); /* r R */
    mont_mul(q, t, t, x);     /* r x */
    mont_add_mod(q, t, t, e);
    mont_mul(q, k, k, q->rr); /* k R */
    mont_inv(q, kinv, k, g->q2);
    mont_mul(q, t, kinv, t);
    int bad = mont_is_zero(r, n) | mont_is_zero(t, n);
    mont_to_be(r8, g->bytes, r);
    mont_to_be(s8, g->bytes, t);
    portable_dsig_der(sig, siglen, r8, s8, g->bytes);
    wipe(k, sizeof k), wipe(kinv, sizeof kinv), wipe(t, sizeof t), wipe(x8, sizeof x8);
    return bad ? -1 : 0;
}

/* FIPS 186-4 4.7 and 6.4.2: w = s^-1, u1 = e w, u2 = r w, then the group's v against r. */
int dsig_verify(const struct dsig_q *g, const uint8_t *sig, size_t siglen, const uint8_t *h,
                size_t hlen, dsig_v_fn *vf, const void *ctx)
{
    const struct portable_mont *q = g->q;
    unsigned n = q->limbs;
    uint8_t r8[DSIG_MAXB], s8[DSIG_MAXB];
    uint64_t r[DSIG_MAXL], s[DSIG_MAXL], e[DSIG_MAXL], w[DSIG_MAXL], u1[DSIG_MAXL],
        u2[DSIG_MAXL], v[DSIG_MAXL];
    if (portable_dsig_parse(sig, siglen, r8, s8, g->bytes))
        return -1;
    mont_from_be(r, n, r8, g->bytes);
    mont_from_be(s, n, s8, g->bytes);
    if (mont_is_zero(r, n) || mont_is_zero(s, n) || mont_cmp(r, q->m, n) >= 0 ||
        mont_cmp(s, q->m, n) >= 0)
        return -1; /* r and s in [1, q - 1] */
    hash_int(g, e, h, hlen);
    mont_mul(q, w, s, q->rr);
    mont_inv(q, w, w, g->q2); /* s^-1 R */
    mont_mul(q, u1, w, e);
    mont_mul(q, u2, w, r);
    if (vf(ctx, v, u1, u2))
        return -1;
    return mont_cmp(v, r, n) == 0 ? 0 : -1;
}
