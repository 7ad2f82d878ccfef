/* ChaCha20, Poly1305 and the ChaCha20-Poly1305 AEAD (RFC 8439). */
#include "portable.h"

#include <string.h>

#include "aead.h"
#include "bytes.h"

/* RFC 8439 2.1 */
#define QR(a, b, c, d)                                                                        \
    do {                                                                                      \
        a += b, d = rotl32(d ^ a, 16);                                                        \
        c += d, b = rotl32(b ^ c, 12);                                                        \
        a += b, d = rotl32(d ^ a, 8);                                                         \
        c += d, b = rotl32(b ^ c, 7);                                                         \
    } while (0)

/* One 64-byte keystream block (RFC 8439 2.3), state held in 16 locals for the registers. */
static void chacha_block(const uint32_t in[16], uint8_t ks[64])
{
    uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3], x4 = in[4], x5 = in[5],
             x6 = in[6], x7 = in[7], x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11],
             x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];
    for (int i = 0; i < 10; i++) {
        QR(x0, x4, x8, x12);
        QR(x1, x5, x9, x13);
        QR(x2, x6, x10, x14);
        QR(x3, x7, x11, x15);
        QR(x0, x5, x10, x15);
        QR(x1, x6, x11, x12);
        QR(x2, x7, x8, x13);
        QR(x3, x4, x9, x14);
    }
    store32_le(ks + 0, x0 + in[0]);
    store32_le(ks + 4, x1 + in[1]);
    store32_le(ks + 8, x2 + in[2]);
    store32_le(ks + 12, x3 + in[3]);
    store32_le(ks + 16, x4 + in[4]);
    store32_le(ks + 20, x5 + in[5]);
    store32_le(ks + 24, x6 + in[6]);
    store32_le(ks + 28, x7 + in[7]);
    store32_le(ks + 32, x8 + in[8]);
    store32_le(ks + 36, x9 + in[9]);
    store32_le(ks + 40, x10 + in[10]);
    store32_le(ks + 44, x11 + in[11]);
    store32_le(ks + 48, x12 + in[12]);
    store32_le(ks + 52, x13 + in[13]);
    store32_le(ks + 56, x14 + in[14]);
    store32_le(ks + 60, x15 + in[15]);
}

static void chacha_setup(uint32_t st[16], const uint8_t key[32], uint32_t counter,
                         const uint8_t nonce[12])
{
    st[0] = 0x61707865; /* "expand 32-byte k" */
    st[1] = 0x3320646e;
    st[2] = 0x79622d32;
    st[3] = 0x6b206574;
    for (int i = 0; i < 8; i++)
        st[4 + i] = load32_le(key + 4 * i);
    st[12] = counter;
    st[13] = load32_le(nonce);
    st[14] = load32_le(nonce + 4);
    st[15] = load32_le(nonce + 8);
}

/* The block counter is 32 bits (RFC 8439 2.4): it wraps after 256 GiB, as the RFC allows
 * no longer message. */
void portable_chacha20_xor(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12],
                           uint8_t *out, const uint8_t *in, size_t len)
{
    uint32_t st[16];
    uint8_t ks[64];
    chacha_setup(st, key, counter, nonce);
    for (; len >= 64; len -= 64, in += 64, out += 64) {
        chacha_block(st, ks);
        st[12]++;
        for (int i = 0; i < 64; i += 8)
            store64_le(out + i, load64_le(in + i) ^ load64_le(ks + i));
    }
    if (len) {
        chacha_block(st, ks);
        for (size_t i = 0; i < len; i++)
            out[i] = in[i] ^ ks[i];
    }
    wipe(ks, sizeof ks);
}

/* ---- Poly1305 (RFC 8439 2.5): h = (h + m) * r mod 2^130 - 5 over 16-byte blocks ---- */

#if defined(__SIZEOF_INT128__) && !defined(PORTABLE_POLY1305_32)
/* Three limbs of radix 2^64 (h2 holds the few bits above 2^128). r's clamping leaves the
 * low 2 bits of r1 zero, so r1 * 2^128 = r1 * 5/4 mod p is the exact s1 = r1 + r1/4. */
typedef unsigned __int128 u128;

const char *const portable_poly1305_limbs = "64-bit limbs (unsigned __int128)";

static void poly_setkey(struct portable_poly1305 *p, const uint8_t key[16])
{
    p->r[0] = load64_le(key) & 0x0ffffffc0fffffffull;
    p->r[1] = load64_le(key + 8) & 0x0ffffffc0ffffffcull;
    p->h[0] = p->h[1] = p->h[2] = 0;
}

static void poly_blocks(struct portable_poly1305 *p, const uint8_t *m, size_t len,
                        uint64_t hibit)
{
    const uint64_t r0 = p->r[0], r1 = p->r[1], s1 = r1 + (r1 >> 2);
    uint64_t h0 = p->h[0], h1 = p->h[1], h2 = p->h[2];
    for (; len >= 16; m += 16, len -= 16) {
        u128 t = (u128)h0 + load64_le(m);
        h0 = (uint64_t)t;
        t = (u128)h1 + load64_le(m + 8) + (uint64_t)(t >> 64);
        h1 = (uint64_t)t;
        h2 += (uint64_t)(t >> 64) + hibit;

        u128 d0 = (u128)h0 * r0 + (u128)h1 * s1;
        u128 d1 = (u128)h0 * r1 + (u128)h1 * r0 + (u128)h2 * s1;
        uint64_t d2 = h2 * r0;
        h0 = (uint64_t)d0;
        d1 += (uint64_t)(d0 >> 64);
        h1 = (uint64_t)d1;
        h2 = d2 + (uint64_t)(d1 >> 64);
        /* fold the bits above 2^130 back in: 2^130 = 5 mod p */
        uint64_t c = (h2 >> 2) + (h2 & ~(uint64_t)3);
        h2 &= 3;
        t = (u128)h0 + c;
        h0 = (uint64_t)t;
        t = (u128)h1 + (uint64_t)(t >> 64);
        h1 = (uint64_t)t;
        h2 += (uint64_t)(t >> 64);
    }
    p->h[0] = h0;
    p->h[1] = h1;
    p->h[2] = h2;
}

/* Full reduction mod p, then + s mod 2^128. */
static void poly_finish(struct portable_poly1305 *p, uint8_t tag[16])
{
    uint64_t h0 = p->h[0], h1 = p->h[1], h2 = p->h[2];
    u128 t = (u128)h0 + 5; /* g = h + 5 - 2^130 >= 0 exactly when h >= p */
    uint64_t g0 = (uint64_t)t;
    t = (u128)h1 + (uint64_t)(t >> 64);
    uint64_t g1 = (uint64_t)t;
    uint64_t g2 = h2 + (uint64_t)(t >> 64);
    uint64_t use_g = 0 - (g2 >> 2); /* all ones when g >= 2^130 */
    h0 = (h0 & ~use_g) | (g0 & use_g);
    h1 = (h1 & ~use_g) | (g1 & use_g);
    t = (u128)h0 + p->s[0];
    h0 = (uint64_t)t;
    h1 = h1 + p->s[1] + (uint64_t)(t >> 64);
    store64_le(tag, h0);
    store64_le(tag + 8, h1);
}

#else
/* Five limbs of radix 2^26 for hosts without a 128-bit type (i686): 32x32->64 products. */
const char *const portable_poly1305_limbs = "26-bit limbs (no 128-bit integer type)";

static void poly_setkey(struct portable_poly1305 *p, const uint8_t key[16])
{
    p->r[0] = load32_le(key) & 0x3ffffff;
    p->r[1] = (load32_le(key + 3) >> 2) & 0x3ffff03;
    p->r[2] = (load32_le(key + 6) >> 4) & 0x3ffc0ff;
    p->r[3] = (load32_le(key + 9) >> 6) & 0x3f03fff;
    p->r[4] = (load32_le(key + 12) >> 8) & 0x00fffff;
    for (int i = 0; i < 5; i++)
        p->h[i] = 0;
}

static void poly_blocks(struct portable_poly1305 *p, const uint8_t *m, size_t len,
                        uint64_t hibit)
{
    const uint32_t r0 = (uint32_t)p->r[0], r1 = (uint32_t)p->r[1], r2 = (uint32_t)p->r[2],
                   r3 = (uint32_t)p->r[3], r4 = (uint32_t)p->r[4];
    const uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
    const uint32_t hb = (uint32_t)hibit << 24;
    uint32_t h0 = (uint32_t)p->h[0], h1 = (uint32_t)p->h[1], h2 = (uint32_t)p->h[2],
             h3 = (uint32_t)p->h[3], h4 = (uint32_t)p->h[4];
    for (; len >= 16; m += 16, len -= 16) {
        h0 += load32_le(m) & 0x3ffffff;
        h1 += (load32_le(m + 3) >> 2) & 0x3ffffff;
        h2 += (load32_le(m + 6) >> 4) & 0x3ffffff;
        h3 += (load32_le(m + 9) >> 6) & 0x3ffffff;
        h4 += (load32_le(m + 12) >> 8) | hb;

        uint64_t d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 +
                      (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
        uint64_t d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 +
                      (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
        uint64_t d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 +
                      (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
        uint64_t d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 +
                      (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
        uint64_t d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 +
                      (uint64_t)h3 * r1 + (uint64_t)h4 * r0;
        uint32_t c = (uint32_t)(d0 >> 26);
        h0 = (uint32_t)d0 & 0x3ffffff;
        d1 += c, c = (uint32_t)(d1 >> 26), h1 = (uint32_t)d1 & 0x3ffffff;
        d2 += c, c = (uint32_t)(d2 >> 26), h2 = (uint32_t)d2 & 0x3ffffff;
        d3 += c, c = (uint32_t)(d3 >> 26), h3 = (uint32_t)d3 & 0x3ffffff;
        d4 += c, c = (uint32_t)(d4 >> 26), h4 = (uint32_t)d4 & 0x3ffffff;
        h0 += c * 5, c = h0 >> 26, h0 &= 0x3ffffff;
        h1 += c;
    }
    p->h[0] = h0;
    p->h[1] = h1;
    p->h[2] = h2;
    p->h[3] = h3;
    p->h[4] = h4;
}

static void poly_finish(struct portable_poly1305 *p, uint8_t tag[16])
{
    uint32_t h0 = (uint32_t)p->h[0], h1 = (uint32_t)p->h[1], h2 = (uint32_t)p->h[2],
             h3 = (uint32_t)p->h[3], h4 = (uint32_t)p->h[4], c;
    /* carry fully */
    c = h1 >> 26, h1 &= 0x3ffffff;
    h2 += c, c = h2 >> 26, h2 &= 0x3ffffff;
    h3 += c, c = h3 >> 26, h3 &= 0x3ffffff;
    h4 += c, c = h4 >> 26, h4 &= 0x3ffffff;
    h0 += c * 5, c = h0 >> 26, h0 &= 0x3ffffff;
    h1 += c;
    /* g = h + 5 - 2^130; take it when it does not borrow */
    uint32_t g0 = h0 + 5;
    c = g0 >> 26, g0 &= 0x3ffffff;
    uint32_t g1 = h1 + c;
    c = g1 >> 26, g1 &= 0x3ffffff;
    uint32_t g2 = h2 + c;
    c = g2 >> 26, g2 &= 0x3ffffff;
    uint32_t g3 = h3 + c;
    c = g3 >> 26, g3 &= 0x3ffffff;
    uint32_t g4 = h4 + c - (1u << 26);
    uint32_t keep_h = 0 - (g4 >> 31); /* all ones when g borrowed: h < p */
    h0 = (h0 & keep_h) | (g0 & ~keep_h);
    h1 = (h1 & keep_h) | (g1 & ~keep_h);
    h2 = (h2 & keep_h) | (g2 & ~keep_h);
    h3 = (h3 & keep_h) | (g3 & ~keep_h);
    h4 = (h4 & keep_h) | (g4 & ~keep_h);
    /* to radix 2^32, then + s */
    uint32_t w0 = h0 | h1 << 26, w1 = h1 >> 6 | h2 << 20, w2 = h2 >> 12 | h3 << 14,
             w3 = h3 >> 18 | h4 << 8;
    uint64_t f = (uint64_t)w0 + (uint32_t)p->s[0];
    store32_le(tag, (uint32_t)f);
    f = (uint64_t)w1 + (uint32_t)(p->s[0] >> 32) + (f >> 32);
    store32_le(tag + 4, (uint32_t)f);
    f = (uint64_t)w2 + (uint32_t)p->s[1] + (f >> 32);
    store32_le(tag + 8, (uint32_t)f);
    f = (uint64_t)w3 + (uint32_t)(p->s[1] >> 32) + (f >> 32);
    store32_le(tag + 12, (uint32_t)f);
}
#endif

void portable_poly1305_init(struct portable_poly1305 *p, const uint8_t key[32])
{
    poly_setkey(p, key);
    p->s[0] = load64_le(key + 16);
    p->s[1] = load64_le(key + 24);
    p->nbuf = 0;
}

void portable_poly1305_update(struct portable_poly1305 *p, const uint8_t *in, size_t len)
{
    if (p->nbuf) {
        size_t take = 16 - p->nbuf < len ? 16 - p->nbuf : len;
        memcpy(p->buf + p->nbuf, in, take);
        p->nbuf += take;
        in += take;
        len -= take;
        if (p->nbuf < 16)
            return;
        poly_blocks(p, p->buf, 16, 1);
        p->nbuf = 0;
    }
    size_t full = len & ~(size_t)15;
    poly_blocks(p, in, full, 1);
    if (len > full) {
        memcpy(p->buf, in + full, len - full);
        p->nbuf = len - full;
    }
}

/* A last partial block gets its 1 byte appended by hand and no 2^128 bit (RFC 8439 2.5.1). */
void portable_poly1305_final(struct portable_poly1305 *p, uint8_t tag[16])
{
    if (p->nbuf) {
        p->buf[p->nbuf] = 1;
        memset(p->buf + p->nbuf + 1, 0, 15 - p->nbuf);
        poly_blocks(p, p->buf, 16, 0);
    }
    poly_finish(p, tag);
    wipe(p, sizeof *p);
}

/* ---- AEAD (RFC 8439 2.8) ---- */

static void aead_mac_pad(struct portable_poly1305 *p, size_t len)
{
    static const uint8_t zero[16];
    if (len % 16)
        portable_poly1305_update(p, zero, 16 - len % 16);
}

/* Encrypts or decrypts and MACs the ciphertext in one pass, 64 bytes at a time: Poly1305's
 * short multiply chain then overlaps ChaCha20's long run of additions in the pipeline, and
 * the ciphertext is hashed from in before out (maybe == in) is written when decrypting. */
static void aead_crypt(const uint8_t key[32], const uint8_t nonce[12], const uint8_t *aad,
                       size_t aad_len, uint8_t *out, const uint8_t *in, size_t len, int decrypt,
                       uint8_t tag[16])
{
    uint32_t st[16];
    uint8_t ks[64] = { 0 };
    struct portable_poly1305 p;
    chacha_setup(st, key, 0, nonce);
    chacha_block(st, ks); /* block 0: the one-time Poly1305 key, 2.6 */
    portable_poly1305_init(&p, ks);
    portable_poly1305_update(&p, aad, aad_len);
    aead_mac_pad(&p, aad_len);
    st[12] = 1;
    size_t done = 0;
    for (; len - done >= 64; done += 64) {
        chacha_block(st, ks);
        st[12]++;
        if (decrypt)
            poly_blocks(&p, in + done, 64, 1);
        for (int i = 0; i < 64; i += 8)
            store64_le(out + done + i, load64_le(in + done + i) ^ load64_le(ks + i));
        if (!decrypt)
            poly_blocks(&p, out + done, 64, 1);
    }
    if (done < len) {
        chacha_block(st, ks);
        if (decrypt)
            portable_poly1305_update(&p, in + done, len - done);
        for (size_t i = done; i < len; i++)
            out[i] = in[i] ^ ks[i - done];
        if (!decrypt)
            portable_poly1305_update(&p, out + done, len - done);
    }
    aead_mac_pad(&p, len);
    uint8_t lens[16];
    store64_le(lens, aad_len);
    store64_le(lens + 8, len);
    portable_poly1305_update(&p, lens, 16);
    portable_poly1305_final(&p, tag);
    wipe(ks, sizeof ks);
}

void portable_chacha20_poly1305_seal(const uint8_t key[32], const uint8_t nonce[12],
                                     const uint8_t *aad, size_t aad_len, uint8_t *out,
                                     const uint8_t *in, size_t len, uint8_t tag[16])
{
    aead_crypt(key, nonce, aad, aad_len, out, in, len, 0, tag);
}

int portable_chacha20_poly1305_open(const uint8_t key[32], const uint8_t nonce[12],
                                    const uint8_t *aad, size_t aad_len, uint8_t *out,
                                    const uint8_t *in, size_t len, const uint8_t tag[16])
{
    uint8_t want[16];
    aead_crypt(key, nonce, aad, aad_len, out, in, len, 1, want);
    return aead_tag_check(want, tag, out, len);
}
