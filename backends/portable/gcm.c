/* AES-GCM (NIST SP 800-38D) with GHASH by Shoup's 8-bit tables.
 *
 * Field elements are two 64-bit words (hi = bytes 0..7 big-endian, lo = bytes 8..15): bit
 * 127-i of hi:lo is the coefficient of x^i (the spec's reflected order), so multiplying by x
 * is a right shift, reduced by x^128 = x^7 + x^2 + x + 1 (R = 0xE1 << 120, 38D 6.3).
 * The table lookups are indexed by data, like the AES T-tables: not constant time. */
#include "portable.h"

#include <string.h>

#include "aead.h"
#include "bytes.h"

/* Reduction of the byte shifted out when multiplying by x^8: its bit j (the coefficient
 * of x^(127-j)) becomes R * x^(7-j), that is R >> (7-j). Top 16 bits of hi. */
#define RB(r, j) (((r) >> (j)) & 1 ? 0xE100 >> (7 - (j)) : 0)
#define REM8(r)                                                                               \
    ((uint64_t)(RB(r, 0) ^ RB(r, 1) ^ RB(r, 2) ^ RB(r, 3) ^ RB(r, 4) ^ RB(r, 5) ^ RB(r, 6) ^    \
                RB(r, 7))                                                                     \
     << 48)
#define REM8_16(r)                                                                            \
    REM8(r), REM8(r + 1), REM8(r + 2), REM8(r + 3), REM8(r + 4), REM8(r + 5), REM8(r + 6),    \
        REM8(r + 7), REM8(r + 8), REM8(r + 9), REM8(r + 10), REM8(r + 11), REM8(r + 12),      \
        REM8(r + 13), REM8(r + 14), REM8(r + 15)
static const uint64_t rem8[256] = {
    REM8_16(0),   REM8_16(16),  REM8_16(32),  REM8_16(48),  REM8_16(64),  REM8_16(80),
    REM8_16(96),  REM8_16(112), REM8_16(128), REM8_16(144), REM8_16(160), REM8_16(176),
    REM8_16(192), REM8_16(208), REM8_16(224), REM8_16(240),
};

/* htab[n] = n(x) * H where the byte's bit 7 is the coefficient of x^0. */
static void gcm_table(uint64_t htab[256][2], const uint8_t h[16])
{
    uint64_t hi = load64_be(h), lo = load64_be(h + 8);
    htab[0][0] = htab[0][1] = 0;
    for (int bit = 128; bit >= 1; bit >>= 1) {
        htab[bit][0] = hi;
        htab[bit][1] = lo;
        uint64_t carry = lo & 1; /* times x */
        lo = lo >> 1 | hi << 63;
        hi = hi >> 1 ^ ((0 - carry) & 0xE100000000000000ull);
    }
    for (int i = 2; i < 256; i <<= 1)
        for (int j = 1; j < i; j++) {
            htab[i + j][0] = htab[i][0] ^ htab[j][0];
            htab[i + j][1] = htab[i][1] ^ htab[j][1];
        }
}

/* y = y * H: Horner's rule over the 16 bytes, highest powers (lo's low byte) first. */
static void gcm_mult(uint64_t y[2], const uint64_t htab[256][2])
{
    uint64_t zh = 0, zl = 0;
    for (int half = 1; half >= 0; half--) {
        uint64_t v = y[half];
        for (int i = 0; i < 8; i++) {
            unsigned n = v & 0xff, r = zl & 0xff;
            v >>= 8;
            zl = zl >> 8 | zh << 56;
            zh = zh >> 8 ^ rem8[r];
            zh ^= htab[n][0];
            zl ^= htab[n][1];
        }
    }
    y[0] = zh;
    y[1] = zl;
}

/* GHASH of data zero-padded to a block multiple, continuing y. */
static void gcm_hash(uint64_t y[2], const uint64_t htab[256][2], const uint8_t *p, size_t len)
{
    for (; len >= 16; p += 16, len -= 16) {
        y[0] ^= load64_be(p);
        y[1] ^= load64_be(p + 8);
        gcm_mult(y, htab);
    }
    if (len) {
        uint8_t last[16] = { 0 };
        memcpy(last, p, len);
        gcm_hash(y, htab, last, 16);
    }
}

static void gcm_lengths(uint64_t y[2], const uint64_t htab[256][2], uint64_t a_len,
                        uint64_t c_len)
{
    y[0] ^= a_len * 8;
    y[1] ^= c_len * 8;
    gcm_mult(y, htab);
}

int portable_gcm_setkey(struct portable_gcm *g, const uint8_t *key, size_t key_len)
{
    uint8_t h[16] = { 0 };
    if (portable_aes_setkey_enc(&g->key, key, key_len) != 0)
        return -1;
    portable_aes_encrypt(&g->key, h, h);
    gcm_table(g->htab, h);
    return 0;
}

/* Pre-counter block J0, 38D 7.1 step 2. */
static void gcm_j0(const struct portable_gcm *g, const uint8_t *iv, size_t iv_len,
                   uint8_t j0[16])
{
    if (iv_len == 12) {
        memcpy(j0, iv, 12);
        j0[12] = j0[13] = j0[14] = 0;
        j0[15] = 1;
        return;
    }
    uint64_t y[2] = { 0, 0 };
    gcm_hash(y, g->htab, iv, iv_len);
    gcm_lengths(y, g->htab, 0, iv_len);
    store64_be(j0, y[0]);
    store64_be(j0 + 8, y[1]);
}

/* GCTR from inc32(J0) and GHASH of the ciphertext, a cache-sized chunk at a time. The
 * ciphertext is hashed from in before out is written when decrypting, so out == in works. */
static void gcm_crypt(const struct portable_gcm *g, const uint8_t j0[16], const uint8_t *aad,
                      size_t aad_len, uint8_t *out, const uint8_t *in, size_t len, int decrypt,
                      uint8_t tag[16])
{
    enum { CHUNK = 1024 };
    uint64_t y[2] = { 0, 0 };
    uint8_t cb[16], ks[16];
    gcm_hash(y, g->htab, aad, aad_len);
    memcpy(cb, j0, 16);
    store32_be(cb + 12, load32_be(j0 + 12) + 1); /* inc32: the low word only (38D 6.2) */
    for (size_t i = 0; i < len; i += CHUNK) {
        size_t n = len - i < CHUNK ? len - i : CHUNK, full = n / 16;
        if (decrypt)
            gcm_hash(y, g->htab, in + i, n);
        portable_aes_ctr32_xor(&g->key, cb, out + i, in + i, full);
        if (n % 16) {
            memset(ks, 0, sizeof ks);
            portable_aes_ctr32_xor(&g->key, cb, ks, ks, 1);
            for (size_t b = full * 16; b < n; b++)
                out[i + b] = in[i + b] ^ ks[b - full * 16];
        }
        if (!decrypt)
            gcm_hash(y, g->htab, out + i, n);
    }
    gcm_lengths(y, g->htab, aad_len, len);
    portable_aes_encrypt(&g->key, j0, ks);
    store64_be(tag, y[0] ^ load64_be(ks));
    store64_be(tag + 8, y[1] ^ load64_be(ks + 8));
}

void portable_gcm_seal(const struct portable_gcm *g, const uint8_t *iv, size_t iv_len,
                       const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                       size_t len, uint8_t tag[16])
{
    uint8_t j0[16];
    gcm_j0(g, iv, iv_len, j0);
    gcm_crypt(g, j0, aad, aad_len, out, in, len, 0, tag);
}

int portable_gcm_open(const struct portable_gcm *g, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                      size_t len, const uint8_t tag[16])
{
    uint8_t j0[16], want[16];
    gcm_j0(g, iv, iv_len, j0);
    gcm_crypt(g, j0, aad, aad_len, out, in, len, 1, want);
    return aead_tag_check(want, tag, out, len);
}
