/* Constant-time AES (FIPS-197), bitsliced in 64-bit words, CBC and CTR (SP 800-38A) on top.
 *
 * Four blocks fill eight 64-bit words: word i holds bit i of each of their 64 state bytes,
 * the byte of block b, row r, column c at bit 16r + 4c + b. Then SubBytes is a Boolean
 * circuit over the words (the Boyar-Peralta depth-16 circuit, 113 gates), ShiftRows rotates
 * each 16-bit row field by a multiple of 4, and MixColumns rotates whole words by 16 to bring
 * row r+1 under row r. The state is SETS such four-block sets side by side (q[i][set]), every
 * step a loop over the sets: plain C that compilers turn into SIMD instructions where the
 * target has them (SSE2, NEON), so eight blocks cost about what four do; elsewhere the
 * loops run as scalar code. No memory access and no branch depends on key or data, so the
 * timing leaks neither, at the price measured beside the T-tables
 * (tests/bench/portable_noasm.sh). */
#include "portable.h"

#include <string.h>

#include "bytes.h"

#define SETS 2            /* four-block sets processed side by side */
#define BLOCKS (4 * SETS) /* blocks per call of the cipher core */
typedef uint64_t slice[8][SETS];

/* Every step takes sets, the number of sets in use, and is inlined into the two copies of
 * the cipher below (one set for a lone block, all of them for bulk), where it is a constant
 * the compiler unrolls and pairs by. */
#define INLINE static inline __attribute__((always_inline))

/* ---- the S-box as a circuit ---- */

/* SubBytes on every byte: q[7] is each byte's top bit, q[0] its lowest. The gate list is
 * the published circuit (Boyar, Peralta: "A depth-16 circuit for the AES S-box", 2011),
 * checked by the FIPS-197 / SP 800-38A vectors and t_portable_diff's megabyte of random
 * data against OpenSSL, which reaches every S-box input in both directions. */
INLINE void sub_bytes(slice q, int sets)
{
    for (int j = 0; j < sets; j++) {
        uint64_t u0 = q[7][j], u1 = q[6][j], u2 = q[5][j], u3 = q[4][j];
        uint64_t u4 = q[3][j], u5 = q[2][j], u6 = q[1][j], u7 = q[0][j];

        /* top linear layer */
        uint64_t t1 = u0 ^ u3, t2 = u0 ^ u5, t3 = u0 ^ u6, t4 = u3 ^ u5, t5 = u4 ^ u6;
        uint64_t t6 = t1 ^ t5, t7 = u1 ^ u2, t8 = u7 ^ t6, t9 = u7 ^ t7, t10 = t6 ^ t7;
        uint64_t t11 = u1 ^ u5, t12 = u2 ^ u5, t13 = t3 ^ t4, t14 = t6 ^ t11, t15 = t5 ^ t11;
        uint64_t t16 = t5 ^ t12, t17 = t9 ^ t16, t18 = u3 ^ u7, t19 = t7 ^ t18, t20 = t1 ^ t19;
        uint64_t t21 = u6 ^ u7, t22 = t7 ^ t21, t23 = t2 ^ t22, t24 = t2 ^ t10, t25 = t20 ^ t17;
        uint64_t t26 = t3 ^ t16, t27 = t1 ^ t12;

        /* the shared nonlinear middle (inversion in GF(2^8)) */
        uint64_t m1 = t13 & t6, m2 = t23 & t8, m3 = t14 ^ m1, m4 = t19 & u7, m5 = m4 ^ m1;
        uint64_t m6 = t3 & t16, m7 = t22 & t9, m8 = t26 ^ m6, m9 = t20 & t17, m10 = m9 ^ m6;
        uint64_t m11 = t1 & t15, m12 = t4 & t27, m13 = m12 ^ m11, m14 = t2 & t10;
        uint64_t m15 = m14 ^ m11, m16 = m3 ^ m2, m17 = m5 ^ t24, m18 = m8 ^ m7, m19 = m10 ^ m15;
        uint64_t m20 = m16 ^ m13, m21 = m17 ^ m15, m22 = m18 ^ m13, m23 = m19 ^ t25;
        uint64_t m24 = m22 ^ m23, m25 = m22 & m20, m26 = m21 ^ m25, m27 = m20 ^ m21;
        uint64_t m28 = m23 ^ m25, m29 = m28 & m27, m30 = m26 & m24, m31 = m20 & m23;
        uint64_t m32 = m27 & m31, m33 = m27 ^ m25, m34 = m21 & m22, m35 = m24 & m34;
        uint64_t m36 = m24 ^ m25, m37 = m21 ^ m29, m38 = m32 ^ m33, m39 = m23 ^ m30;
        uint64_t m40 = m35 ^ m36, m41 = m38 ^ m40, m42 = m37 ^ m39, m43 = m37 ^ m38;
        uint64_t m44 = m39 ^ m40, m45 = m42 ^ m41, m46 = m44 & t6, m47 = m40 & t8;
        uint64_t m48 = m39 & u7, m49 = m43 & t16, m50 = m38 & t9, m51 = m37 & t17;
        uint64_t m52 = m42 & t15, m53 = m45 & t27, m54 = m41 & t10, m55 = m44 & t13;
        uint64_t m56 = m40 & t23, m57 = m39 & t19, m58 = m43 & t3, m59 = m38 & t22;
        uint64_t m60 = m37 & t20, m61 = m42 & t1, m62 = m45 & t4, m63 = m41 & t2;

        /* bottom linear layer, with the affine constant 0x63 as the four complements */
        uint64_t l0 = m61 ^ m62, l1 = m50 ^ m56, l2 = m46 ^ m48, l3 = m47 ^ m55;
        uint64_t l4 = m54 ^ m58, l5 = m49 ^ m61, l6 = m62 ^ l5, l7 = m46 ^ l3, l8 = m51 ^ m59;
        uint64_t l9 = m52 ^ m53, l10 = m53 ^ l4, l11 = m60 ^ l2, l12 = m48 ^ m51;
        uint64_t l13 = m50 ^ l0, l14 = m52 ^ m61, l15 = m55 ^ l1, l16 = m56 ^ l0;
        uint64_t l17 = m57 ^ l1, l18 = m58 ^ l8, l19 = m63 ^ l4, l20 = l0 ^ l1, l21 = l1 ^ l7;
        uint64_t l22 = l3 ^ l12, l23 = l18 ^ l2, l24 = l15 ^ l9, l25 = l6 ^ l10, l26 = l7 ^ l9;
        uint64_t l27 = l8 ^ l10, l28 = l11 ^ l14, l29 = l11 ^ l17;

        q[7][j] = l6 ^ l24;
        q[6][j] = ~(l16 ^ l26);
        q[5][j] = ~(l19 ^ l28);
        q[4][j] = l6 ^ l21;
        q[3][j] = l20 ^ l22;
        q[2][j] = l25 ^ l29;
        q[1][j] = ~(l13 ^ l27);
        q[0][j] = ~(l6 ^ l23);
    }
}

/* The inverse of the S-box's affine map, constant included: x -> L^-1(x ^ 0x63), which is
 * bit i = x(i+2) ^ x(i+5) ^ x(i+7) ^ bit i of 0x05 (FIPS-197 5.3.2). */
INLINE void inv_affine(slice q, int sets)
{
    slice x;
    memcpy(x, q, sizeof x);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < sets; j++)
            q[i][j] = x[(i + 2) & 7][j] ^ x[(i + 5) & 7][j] ^ x[(i + 7) & 7][j];
    for (int j = 0; j < sets; j++) {
        q[0][j] = ~q[0][j];
        q[2][j] = ~q[2][j];
    }
}

/* S(y) = A(y^-1) with A the affine map, so y^-1 = A^-1(S(y)) and the inverse S-box is
 * x -> (A^-1 x)^-1 = A^-1(S(A^-1 x)): the same circuit between two linear layers. */
INLINE void inv_sub_bytes(slice q, int sets)
{
    inv_affine(q, sets);
    sub_bytes(q, sets);
    inv_affine(q, sets);
}

/* ---- the linear layers ---- */

/* Row r (bits 16r..16r+15) turns left by r columns: the byte of column c comes from column
 * c + r, 4r bits higher in the field. */
INLINE void shift_rows(slice q, int sets)
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < sets; j++) {
            uint64_t x = q[i][j];
            q[i][j] = (x & 0x000000000000ffffull) | ((x & 0x00000000fff00000ull) >> 4) |
                      ((x & 0x00000000000f0000ull) << 12) | ((x & 0x0000ff0000000000ull) >> 8) |
                      ((x & 0x000000ff00000000ull) << 8) | ((x & 0xf000000000000000ull) >> 12) |
                      ((x & 0x0fff000000000000ull) << 4);
        }
}

INLINE void inv_shift_rows(slice q, int sets)
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < sets; j++) {
            uint64_t x = q[i][j];
            q[i][j] = (x & 0x000000000000ffffull) | ((x & 0x000000000fff0000ull) << 4) |
                      ((x & 0x00000000f0000000ull) >> 12) | ((x & 0x0000ff0000000000ull) >> 8) |
                      ((x & 0x000000ff00000000ull) << 8) | ((x & 0xfff0000000000000ull) >> 4) |
                      ((x & 0x000f000000000000ull) << 12);
        }
}

static inline uint64_t rotr64c(uint64_t x, unsigned n) /* n in 1..63 */
{
    return (x >> n) | (x << (64 - n));
}

/* Every byte times x modulo x^8 + x^4 + x^3 + x + 1: the planes move up one, and the bit
 * that falls out at the top comes back as 0x1b. */
INLINE void xtime(slice d, const slice s, int sets)
{
    for (int j = 0; j < sets; j++) {
        uint64_t hi = s[7][j];
        d[7][j] = s[6][j];
        d[6][j] = s[5][j];
        d[5][j] = s[4][j];
        d[4][j] = s[3][j] ^ hi;
        d[3][j] = s[2][j] ^ hi;
        d[2][j] = s[1][j];
        d[1][j] = s[0][j] ^ hi;
        d[0][j] = hi;
    }
}

/* Row r of a column becomes 2a(r) ^ 3a(r+1) ^ a(r+2) ^ a(r+3)
 *                          = 2(a(r) ^ a(r+1)) ^ a(r+1) ^ (a(r+2) ^ a(r+3)),
 * where turning a word right by 16 bits brings row r+1 to row r. */
INLINE void mix_columns(slice q, int sets)
{
    slice n, t, t2;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < sets; j++) {
            n[i][j] = rotr64c(q[i][j], 16);
            t[i][j] = q[i][j] ^ n[i][j];
        }
    xtime(t2, (const uint64_t(*)[SETS])t, sets);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < sets; j++)
            q[i][j] = t2[i][j] ^ n[i][j] ^ rotr64c(t[i][j], 32);
}

/* InvMixColumns' matrix is MixColumns' times circ(5, 0, 4, 0): a(r) ^= 4(a(r) ^ a(r+2))
 * first, then MixColumns. */
INLINE void inv_mix_columns(slice q, int sets)
{
    slice t, t2;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < sets; j++)
            t[i][j] = q[i][j] ^ rotr64c(q[i][j], 32);
    xtime(t2, (const uint64_t(*)[SETS])t, sets);
    xtime(t, (const uint64_t(*)[SETS])t2, sets);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < sets; j++)
            q[i][j] ^= t[i][j];
    mix_columns(q, sets);
}

/* The round key is the same in every block lane of every set. */
INLINE void add_round_key(slice q, const uint64_t k[8], int sets)
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < sets; j++)
            q[i][j] ^= k[i];
}

INLINE void encrypt_blocks(const struct portable_aes_ct *k, slice q, int sets)
{
    add_round_key(q, k->sk[0], sets);
    for (unsigned r = 1; r < k->rounds; r++) {
        sub_bytes(q, sets);
        shift_rows(q, sets);
        mix_columns(q, sets);
        add_round_key(q, k->sk[r], sets);
    }
    sub_bytes(q, sets);
    shift_rows(q, sets);
    add_round_key(q, k->sk[k->rounds], sets);
}

/* The inverse cipher (FIPS-197 5.3) on the encryption round keys. */
INLINE void decrypt_blocks(const struct portable_aes_ct *k, slice q, int sets)
{
    add_round_key(q, k->sk[k->rounds], sets);
    for (unsigned r = k->rounds - 1; r > 0; r--) {
        inv_shift_rows(q, sets);
        inv_sub_bytes(q, sets);
        add_round_key(q, k->sk[r], sets);
        inv_mix_columns(q, sets);
    }
    inv_shift_rows(q, sets);
    inv_sub_bytes(q, sets);
    add_round_key(q, k->sk[0], sets);
}

static void encrypt_one_set(const struct portable_aes_ct *k, slice q)
{
    encrypt_blocks(k, q, 1);
}

static void decrypt_one_set(const struct portable_aes_ct *k, slice q)
{
    decrypt_blocks(k, q, 1);
}

static void encrypt_all_sets(const struct portable_aes_ct *k, slice q)
{
    encrypt_blocks(k, q, SETS);
}

static void decrypt_all_sets(const struct portable_aes_ct *k, slice q)
{
    decrypt_blocks(k, q, SETS);
}

/* ---- blocks in and out of the bitsliced form ---- */

static inline void swapmove(uint64_t *a, uint64_t *b, uint64_t mask, unsigned n)
{
    uint64_t t = ((*a >> n) ^ *b) & mask;
    *b ^= t;
    *a ^= t << n;
}

/* Transposes, in every set, eight 8x8 bit matrices (one per byte lane): afterwards bit k of
 * byte j of w[i] is what bit i of byte j of w[k] was. Its own inverse. */
INLINE void transpose(slice w, int sets)
{
    for (int j = 0; j < sets; j++) {
        for (int i = 0; i < 8; i += 2)
            swapmove(&w[i][j], &w[i + 1][j], 0x5555555555555555ull, 1);
        for (int i = 0; i < 8; i += 4) {
            swapmove(&w[i][j], &w[i + 2][j], 0x3333333333333333ull, 2);
            swapmove(&w[i + 1][j], &w[i + 3][j], 0x3333333333333333ull, 2);
        }
        for (int i = 0; i < 4; i++)
            swapmove(&w[i][j], &w[i + 4][j], 0x0f0f0f0f0f0f0f0full, 4);
    }
}

/* The four bytes of a 32-bit word to the even bytes of a 64-bit one, and back. */
static inline uint64_t spread(uint32_t x)
{
    uint64_t y = x;
    y = (y | y << 16) & 0x0000ffff0000ffffull;
    return (y | y << 8) & 0x00ff00ff00ff00ffull;
}

static inline uint32_t gather(uint64_t y)
{
    y &= 0x00ff00ff00ff00ffull;
    y = (y | y >> 8) & 0x0000ffff0000ffffull;
    return (uint32_t)(y | y >> 16);
}

/* Blocks in[16b..16b+15], b < n <= 4 * sets, to the bitsliced state (the rest zero): block b
 * is lane b % 4 of set b / 4. In its set, word 4e + lane before the transpose holds the
 * block's columns e and e+2, rows interleaved (byte 2r + c/2), so that after it the byte of
 * row r, column c lands on bit 8(2r + c/2) + 4(c%2) + lane = 16r + 4c + lane. */
INLINE void load_blocks(slice q, const uint8_t *in, size_t n, int sets)
{
    for (size_t b = 0; b < 4 * (size_t)sets; b++)
        for (size_t e = 0; e < 2; e++)
            q[4 * e + b % 4][b / 4] = b < n ? spread(load32_le(in + 16 * b + 4 * e)) |
                                                  spread(load32_le(in + 16 * b + 4 * e + 8)) << 8
                                            : 0;
    transpose(q, sets);
}

/* The first n blocks of the state out, each XORed with x[16b..] when x is not NULL. */
INLINE void store_blocks(uint8_t *out, slice q, size_t n, const uint8_t *x, int sets)
{
    transpose(q, sets);
    for (size_t b = 0; b < n; b++)
        for (size_t e = 0; e < 2; e++) {
            uint8_t *o = out + 16 * b + 4 * e;
            const uint8_t *m = x ? x + 16 * b + 4 * e : NULL;
            uint64_t w = q[4 * e + b % 4][b / 4];
            store32_le(o, gather(w) ^ (m ? load32_le(m) : 0));
            store32_le(o + 8, gather(w >> 8) ^ (m ? load32_le(m + 8) : 0));
        }
}

/* ---- key schedule ---- */

/* SubWord through the same circuit, byte n of w in lane n: no table lookup on key bits. */
static uint32_t sub_word_ct(uint32_t w)
{
    slice q = { { 0 } };
    for (int i = 0; i < 8; i++)
        for (int n = 0; n < 4; n++)
            q[i][0] |= (uint64_t)(w >> (8 * n + i) & 1) << n;
    sub_bytes(q, 1);
    uint32_t r = 0;
    for (int i = 0; i < 8; i++)
        for (int n = 0; n < 4; n++)
            r |= (uint32_t)(q[i][0] >> n & 1) << (8 * n + i);
    return r;
}

/* Key expansion (FIPS-197 5.2) on little-endian words, so the byte order is the memory's;
 * each round key then goes to the bitsliced form, the same in all four block lanes. */
int portable_aes_ct_setkey(struct portable_aes_ct *k, const uint8_t *key, size_t key_len)
{
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return -1;
    unsigned nk = (unsigned)key_len / 4, total;
    uint32_t w[60], rcon = 1;
    k->rounds = nk + 6;
    total = 4 * (k->rounds + 1);
    for (unsigned i = 0; i < nk; i++)
        w[i] = load32_le(key + 4 * i);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word_ct(rotr32(t, 8)) ^ rcon;
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word_ct(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    for (unsigned r = 0; r <= k->rounds; r++) {
        uint8_t four[64];
        slice q;
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                store32_le(four + 16 * b + 4 * c, w[4 * r + c]);
        load_blocks(q, four, 4, 1);
        for (int i = 0; i < 8; i++)
            k->sk[r][i] = q[i][0];
        wipe(four, sizeof four);
        wipe(q, sizeof q);
    }
    wipe(w, sizeof w);
    return 0;
}

/* ---- modes ---- */

/* One block in the first lane, the others idle. */
static void one_block(const struct portable_aes_ct *k, const uint8_t in[16], uint8_t out[16],
                      void (*cipher)(const struct portable_aes_ct *, slice))
{
    slice q;
    load_blocks(q, in, 1, 1);
    cipher(k, q);
    store_blocks(out, q, 1, NULL, 1);
}

void portable_aes_ct_encrypt(const struct portable_aes_ct *k, const uint8_t in[16],
                             uint8_t out[16])
{
    one_block(k, in, out, encrypt_one_set);
}

void portable_aes_ct_decrypt(const struct portable_aes_ct *k, const uint8_t in[16],
                             uint8_t out[16])
{
    one_block(k, in, out, decrypt_one_set);
}

/* Each block waits for the one before: one block in flight, the other lanes idle. */
void portable_aes_ct_cbc_encrypt(const struct portable_aes_ct *k, uint8_t iv[16], uint8_t *out,
                                 const uint8_t *in, size_t len)
{
    uint8_t x[16];
    memcpy(x, iv, 16);
    for (size_t i = 0; i + 16 <= len; i += 16) {
        for (int j = 0; j < 16; j++)
            x[j] ^= in[i + j];
        portable_aes_ct_encrypt(k, x, x);
        memcpy(out + i, x, 16);
    }
    memcpy(iv, x, 16);
}

/* BLOCKS at a time: each plaintext is D(c[i]) ^ c[i-1], all known in advance. Four or
 * fewer take one set: where the sets do not share SIMD registers, that halves the work. */
void portable_aes_ct_cbc_decrypt(const struct portable_aes_ct *k, uint8_t iv[16], uint8_t *out,
                                 const uint8_t *in, size_t len)
{
    uint8_t prev[16 * (BLOCKS + 1)]; /* the block before the batch, then the batch */
    memcpy(prev, iv, 16);
    for (size_t i = 0; i + 16 <= len; i += 16 * BLOCKS) {
        size_t n = (len - i) / 16 < BLOCKS ? (len - i) / 16 : BLOCKS;
        slice q;
        memcpy(prev + 16, in + i, 16 * n); /* before out (maybe == in) is written */
        load_blocks(q, prev + 16, n, SETS);
        (n <= 4 ? decrypt_one_set : decrypt_all_sets)(k, q);
        store_blocks(out + i, q, n, prev, SETS);
        memcpy(prev, prev + 16 * n, 16);
    }
    memcpy(iv, prev, 16);
}

/* n counter blocks from c, a 128-bit big-endian counter (as OpenSSL's CRYPTO_ctr128); c is
 * left at the next counter. The carry's reach depends on the counter, which is public. */
static void ctr_fill(uint8_t blocks[16 * BLOCKS], uint8_t c[16], size_t n)
{
    for (size_t b = 0; b < n; b++) {
        memcpy(blocks + 16 * b, c, 16);
        for (int j = 15, carry = 1; j >= 0 && carry; j--)
            carry = ++c[j] == 0;
    }
}

static void ctr_blocks(const struct portable_aes_ct *k, uint8_t c[16], uint8_t *out,
                       const uint8_t *in, size_t nblocks)
{
    while (nblocks) {
        size_t n = nblocks < BLOCKS ? nblocks : BLOCKS;
        uint8_t ctrs[16 * BLOCKS];
        slice q;
        ctr_fill(ctrs, c, n);
        load_blocks(q, ctrs, n, SETS);
        (n <= 4 ? encrypt_one_set : encrypt_all_sets)(k, q);
        store_blocks(out, q, n, in, SETS);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

int portable_aes_ct_ctr_init(struct portable_aes_ct_ctr *c, const uint8_t *key, size_t key_len,
                             const uint8_t iv[16])
{
    if (portable_aes_ct_setkey(&c->key, key, key_len) != 0)
        return -1;
    memcpy(c->ctr, iv, 16);
    c->ks.left = 0;
    return 0;
}

void portable_aes_ct_ctr_xor(struct portable_aes_ct_ctr *c, uint8_t *out, const uint8_t *in,
                             size_t len)
{
    size_t i = ctr_stream_use(&c->ks, out, in, len), full = (len - i) / 16;
    ctr_blocks(&c->key, c->ctr, out + i, in + i, full);
    i += 16 * full;
    if (i < len) {
        uint8_t zero[16] = { 0 };
        ctr_blocks(&c->key, c->ctr, c->ks.ks, zero, 1);
        ctr_stream_tail(&c->ks, out + i, in + i, len - i);
    }
}
