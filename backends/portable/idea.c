/* IDEA (X. Lai, J. Massey, "A Proposal for a New Block Encryption Standard", EUROCRYPT '90;
 * the 1991 "IDEA" revision): 8.5 rounds mixing XOR, addition mod 2^16 and multiplication
 * mod 2^16+1, where the 16-bit word 0 stands for 2^16. */
#include "portable.h"

#include <string.h>

#include "bytes.h"

/* a * b mod 65537 for a, b < 2^16, where 0 stands for 2^16. A zero product means one operand
 * was 2^16 = -1: then the result is -(a + b) + 1 (the other operand negated), mod 2^16.
 * The branch is on data, as in OpenSSL's no-asm IDEA; it is taken once in 2^15 words. */
static inline uint32_t mul(uint32_t a, uint32_t b)
{
    uint32_t p = a * b;
    if (p) {
        uint32_t lo = p & 0xffff, hi = p >> 16;
        return (lo - hi + (lo < hi)) & 0xffff;
    }
    return (1 - a - b) & 0xffff;
}

/* Multiplicative inverse mod 65537 (x^(p-2)); 0 (= 2^16 = -1) is its own inverse. */
static uint16_t mul_inv(uint16_t x)
{
    uint32_t r = 1, b = x ? x : 65536, e = 65535;
    while (e) {
        if (e & 1)
            r = (uint32_t)((uint64_t)r * b % 65537);
        b = (uint32_t)((uint64_t)b * b % 65537);
        e >>= 1;
    }
    return (uint16_t)r; /* 65536 becomes 0 */
}

/* The 52 subkeys are the key read as 16-bit words, rotated left by 25 bits every 8. */
void portable_idea_setkey_enc(struct portable_idea *k, const uint8_t key[16])
{
    uint8_t kb[16];
    memcpy(kb, key, 16);
    for (int i = 0; i < 52; i++) {
        int j = i % 8;
        if (i && j == 0) {
            uint8_t r[16];
            for (int b = 0; b < 16; b++) /* rotl 25 = 3 bytes and 1 bit */
                r[b] = (uint8_t)(kb[(b + 3) % 16] << 1 | kb[(b + 4) % 16] >> 7);
            memcpy(kb, r, 16);
        }
        k->k[i] = (uint16_t)(kb[2 * j] << 8 | kb[2 * j + 1]);
    }
}

/* Decryption runs the same network with inverted subkeys in reverse order; the two
 * additive keys swap places in the middle rounds because the round swaps its middle words. */
void portable_idea_setkey_dec(struct portable_idea *k, const uint8_t key[16])
{
    struct portable_idea e;
    portable_idea_setkey_enc(&e, key);
    for (int r = 0; r <= 8; r++) {
        const uint16_t *src = e.k + 6 * (8 - r);
        uint16_t *dst = k->k + 6 * r;
        int swap = r != 0 && r != 8;
        dst[0] = mul_inv(src[0]);
        dst[1] = (uint16_t)-src[swap ? 2 : 1];
        dst[2] = (uint16_t)-src[swap ? 1 : 2];
        dst[3] = mul_inv(src[3]);
        if (r < 8) {
            dst[4] = e.k[6 * (7 - r) + 4];
            dst[5] = e.k[6 * (7 - r) + 5];
        }
    }
    wipe(&e, sizeof e);
}

/* The words live in 32-bit variables, cut to 16 bits only where a carry could leak. */
static inline void idea_words(const uint16_t *z, uint16_t x[4])
{
    uint32_t x1 = x[0], x2 = x[1], x3 = x[2], x4 = x[3];
    for (int r = 0; r < 8; r++, z += 6) {
        x1 = mul(x1, z[0]);
        x2 = (x2 + z[1]) & 0xffff;
        x3 = (x3 + z[2]) & 0xffff;
        x4 = mul(x4, z[3]);
        uint32_t t0 = mul(x1 ^ x3, z[4]);
        uint32_t t1 = mul(((x2 ^ x4) + t0) & 0xffff, z[5]);
        t0 = (t0 + t1) & 0xffff;
        x1 ^= t1;
        x4 ^= t0;
        uint32_t t = x2 ^ t0;
        x2 = x3 ^ t1;
        x3 = t;
    }
    x[0] = (uint16_t)mul(x1, z[0]);
    x[1] = (uint16_t)(x3 + z[1]); /* the output transform undoes the last swap */
    x[2] = (uint16_t)(x2 + z[2]);
    x[3] = (uint16_t)mul(x4, z[3]);
}

static inline void idea_load(uint16_t x[4], const uint8_t *p)
{
    for (int i = 0; i < 4; i++)
        x[i] = (uint16_t)(p[2 * i] << 8 | p[2 * i + 1]);
}

static inline void idea_store(uint8_t *p, const uint16_t x[4])
{
    for (int i = 0; i < 4; i++) {
        p[2 * i] = (uint8_t)(x[i] >> 8);
        p[2 * i + 1] = (uint8_t)x[i];
    }
}

void portable_idea_block(const struct portable_idea *k, const uint8_t in[8], uint8_t out[8])
{
    uint16_t x[4];
    idea_load(x, in);
    idea_words(k->k, x);
    idea_store(out, x);
}

void portable_idea_cbc_encrypt(const struct portable_idea *k, uint8_t iv[8], uint8_t *out,
                               const uint8_t *in, size_t len)
{
    uint8_t chain[8];
    memcpy(chain, iv, 8);
    for (size_t i = 0; i + 8 <= len; i += 8) {
        for (int b = 0; b < 8; b++)
            chain[b] ^= in[i + b];
        portable_idea_block(k, chain, chain);
        memcpy(out + i, chain, 8);
    }
    memcpy(iv, chain, 8);
}

void portable_idea_cbc_decrypt(const struct portable_idea *k, uint8_t iv[8], uint8_t *out,
                               const uint8_t *in, size_t len)
{
    uint8_t prev[8], c[8], p[8];
    memcpy(prev, iv, 8);
    for (size_t i = 0; i + 8 <= len; i += 8) {
        memcpy(c, in + i, 8); /* before out (maybe == in) is written */
        portable_idea_block(k, c, p);
        for (int b = 0; b < 8; b++)
            out[i + b] = p[b] ^ prev[b];
        memcpy(prev, c, 8);
    }
    memcpy(iv, prev, 8);
}
