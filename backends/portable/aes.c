/* AES (FIPS-197) with T-tables, CBC and CTR (SP 800-38A).
 *
 * T-table AES: each round is 16 lookups in 1 KiB tables indexed by key-dependent state
 * bytes, so cache timing leaks key material. That is what OpenSSL's no-asm build does too,
 * and that build is the yardstick this path stands for; do not use it to protect secrets. */
#include "portable.h"

#include <string.h>

#include "aes_sbox.h"
#include "bytes.h"

/* GF(2^8) multiples as constant expressions, so every table below is computed by the
 * compiler from the S-box lists (no hand-copied tables, no start-up initialisation). */
#define XT(x) ((((x) << 1) ^ (((x) >> 7) * 0x1b)) & 0xff)
#define M2(x) XT(x)
#define M3(x) (XT(x) ^ (x))
#define M4(x) XT(XT(x))
#define M8(x) XT(XT(XT(x)))
#define M9(x) (M8(x) ^ (x))
#define MB(x) (M8(x) ^ M2(x) ^ (x))
#define MD(x) (M8(x) ^ M4(x) ^ (x))
#define ME(x) (M8(x) ^ M4(x) ^ M2(x))
#define W(a, b, c, d)                                                                         \
    ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* One column of MixColumns (resp. InvMixColumns) per input row: FIPS-197 5.1.3 / 5.3.3. */
#define TE0(s) W(M2(s), s, s, M3(s))
#define TE1(s) W(M3(s), M2(s), s, s)
#define TE2(s) W(s, M3(s), M2(s), s)
#define TE3(s) W(s, s, M3(s), M2(s))
#define TD0(s) W(ME(s), M9(s), MD(s), MB(s))
#define TD1(s) W(MB(s), ME(s), M9(s), MD(s))
#define TD2(s) W(MD(s), MB(s), ME(s), M9(s))
#define TD3(s) W(M9(s), MD(s), MB(s), ME(s))
#define BYTE(s) (s)

/* One object, so one base register reaches every table (position-independent x86-64 code
 * has no RIP-relative address with an index): as ten arrays the two-block rounds kept a
 * base each and spilled the state to the stack (CBC decryption: 291 stack references, now
 * 174), and portable ran CBC decryption at 1.01x OpenSSL's no-asm build on the Sapphire
 * Rapids VM, now 1.30x; CTR at 16 KiB 1.34-1.57x, now 1.71-1.84x
 * (tests/bench/portable_noasm.sh, 2026-12-06). */
static const struct aes_tables {
    uint32_t te[4][256];
    uint32_t td[4][256];
    uint8_t sbox[256];
    uint8_t inv_sbox[256];
} tab = {
    .te = { { AES_SBOX(TE0) }, { AES_SBOX(TE1) }, { AES_SBOX(TE2) }, { AES_SBOX(TE3) } },
    .td = { { AES_INV_SBOX(TD0) }, { AES_INV_SBOX(TD1) }, { AES_INV_SBOX(TD2) },
            { AES_INV_SBOX(TD3) } },
    .sbox = { AES_SBOX(BYTE) },
    .inv_sbox = { AES_INV_SBOX(BYTE) },
};

#define B0(x) ((x) >> 24)
#define B1(x) (((x) >> 16) & 0xff)
#define B2(x) (((x) >> 8) & 0xff)
#define B3(x) ((x)&0xff)

static uint32_t sub_word(uint32_t w)
{
    return W(tab.sbox[B0(w)], tab.sbox[B1(w)], tab.sbox[B2(w)], tab.sbox[B3(w)]);
}

/* Key expansion, FIPS-197 5.2. */
int portable_aes_setkey_enc(struct portable_aes *k, const uint8_t *key, size_t key_len)
{
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return -1;
    unsigned nk = (unsigned)key_len / 4;
    k->rounds = nk + 6;
    unsigned total = 4 * (k->rounds + 1);
    uint32_t *w = k->rk;
    uint32_t rcon = 0x01;
    for (unsigned i = 0; i < nk; i++)
        w[i] = load32_be(key + 4 * i);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word(rotl32(t, 8)) ^ rcon << 24;
            rcon = XT(rcon);
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    return 0;
}

/* Equivalent inverse cipher, FIPS-197 5.3.5: round keys reversed, InvMixColumns applied to
 * all but the first and last. tab.td[i][tab.sbox[b]] is InvMixColumns of the byte b alone. */
int portable_aes_setkey_dec(struct portable_aes *k, const uint8_t *key, size_t key_len)
{
    struct portable_aes e;
    if (portable_aes_setkey_enc(&e, key, key_len) != 0)
        return -1;
    unsigned n = e.rounds;
    k->rounds = n;
    for (unsigned r = 0; r <= n; r++) {
        for (unsigned c = 0; c < 4; c++) {
            uint32_t w = e.rk[4 * (n - r) + c];
            if (r != 0 && r != n)
                w = tab.td[0][tab.sbox[B0(w)]] ^ tab.td[1][tab.sbox[B1(w)]] ^
                    tab.td[2][tab.sbox[B2(w)]] ^ tab.td[3][tab.sbox[B3(w)]];
            k->rk[4 * r + c] = w;
        }
    }
    wipe(&e, sizeof e);
    return 0;
}

/* One round: SubBytes, ShiftRows, MixColumns, AddRoundKey, through the tables. The XOR
 * is a tree, not a chain: CBC is bound by the latency of one round after another. */
#define COL(T, a, b, c, d, k)                                                                 \
    (((T[0][B0(a)] ^ T[1][B1(b)]) ^ (T[2][B2(c)] ^ T[3][B3(d)])) ^ (k))
#define ENC_ROUND(d0, d1, d2, d3, s0, s1, s2, s3, k)                                          \
    do {                                                                                      \
        d0 = COL(tab.te, s0, s1, s2, s3, (k)[0]);                                             \
        d1 = COL(tab.te, s1, s2, s3, s0, (k)[1]);                                             \
        d2 = COL(tab.te, s2, s3, s0, s1, (k)[2]);                                             \
        d3 = COL(tab.te, s3, s0, s1, s2, (k)[3]);                                             \
    } while (0)

/* The last round has no MixColumns: te[2], te[3], te[0], te[1] hold the plain S-box value
 * in bytes 0/1/2/3, so masking them reuses the hot tables instead of touching another one. */
#define ENC_LAST(s0, s1, s2, s3, k)                                                           \
    ((tab.te[2][B0(s0)] & 0xff000000) ^ (tab.te[3][B1(s1)] & 0x00ff0000) ^                    \
     (tab.te[0][B2(s2)] & 0x0000ff00) ^ (tab.te[1][B3(s3)] & 0x000000ff) ^ (k))

#define DEC_ROUND(d0, d1, d2, d3, s0, s1, s2, s3, k)                                          \
    do {                                                                                      \
        d0 = COL(tab.td, s0, s3, s2, s1, (k)[0]);                                             \
        d1 = COL(tab.td, s1, s0, s3, s2, (k)[1]);                                             \
        d2 = COL(tab.td, s2, s1, s0, s3, (k)[2]);                                             \
        d3 = COL(tab.td, s3, s2, s1, s0, (k)[3]);                                             \
    } while (0)

#define DEC_LAST(s0, s1, s2, s3, k)                                                           \
    (W(tab.inv_sbox[B0(s0)], tab.inv_sbox[B1(s1)], tab.inv_sbox[B2(s2)],                      \
       tab.inv_sbox[B3(s3)]) ^ (k))

/* Inlined into the mode loops so a CBC chain stays in registers. Rounds are written out
 * (9 always, 2 more for AES-192, 2 more again for AES-256) so round-key offsets are
 * immediates and nothing but the key length branches; s and t alternate without copies. */
#define ROUNDS(ROUND, rk, rounds)                                                             \
    do {                                                                                      \
        ROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 4);                                        \
        ROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 8);                                        \
        ROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 12);                                       \
        ROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 16);                                       \
        ROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 20);                                       \
        ROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 24);                                       \
        ROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 28);                                       \
        ROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 32);                                       \
        ROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 36);                                       \
        if (rounds > 10) {                                                                    \
            ROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 40);                                   \
            ROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 44);                                   \
        }                                                                                     \
        if (rounds > 12) {                                                                    \
            ROUND(s0, s1, s2, s3, t0, t1, t2, t3, rk + 48);                                   \
            ROUND(t0, t1, t2, t3, s0, s1, s2, s3, rk + 52);                                   \
        }                                                                                     \
        rk += 4 * rounds;                                                                     \
    } while (0)

/* The last round's output words, in the column order of each direction's ShiftRows. */
#define ENC_OUT(st, t0, t1, t2, t3, rk)                                                       \
    do {                                                                                      \
        (st)[0] = ENC_LAST(t0, t1, t2, t3, (rk)[0]);                                          \
        (st)[1] = ENC_LAST(t1, t2, t3, t0, (rk)[1]);                                          \
        (st)[2] = ENC_LAST(t2, t3, t0, t1, (rk)[2]);                                          \
        (st)[3] = ENC_LAST(t3, t0, t1, t2, (rk)[3]);                                          \
    } while (0)
#define DEC_OUT(st, t0, t1, t2, t3, rk)                                                       \
    do {                                                                                      \
        (st)[0] = DEC_LAST(t0, t3, t2, t1, (rk)[0]);                                          \
        (st)[1] = DEC_LAST(t1, t0, t3, t2, (rk)[1]);                                          \
        (st)[2] = DEC_LAST(t2, t1, t0, t3, (rk)[2]);                                          \
        (st)[3] = DEC_LAST(t3, t2, t1, t0, (rk)[3]);                                          \
    } while (0)

static inline __attribute__((always_inline)) void enc_words(const uint32_t *rk, unsigned rounds,
                                                            uint32_t st[4])
{
    uint32_t s0 = st[0] ^ rk[0], s1 = st[1] ^ rk[1], s2 = st[2] ^ rk[2], s3 = st[3] ^ rk[3];
    uint32_t t0, t1, t2, t3;
    ROUNDS(ENC_ROUND, rk, rounds);
    ENC_OUT(st, t0, t1, t2, t3, rk);
}

static inline __attribute__((always_inline)) void dec_words(const uint32_t *rk, unsigned rounds,
                                                            uint32_t st[4])
{
    uint32_t s0 = st[0] ^ rk[0], s1 = st[1] ^ rk[1], s2 = st[2] ^ rk[2], s3 = st[3] ^ rk[3];
    uint32_t t0, t1, t2, t3;
    ROUNDS(DEC_ROUND, rk, rounds);
    DEC_OUT(st, t0, t1, t2, t3, rk);
}

/* Two independent blocks round by round (counter modes, CBC decryption): one block's rounds
 * wait on each other's table loads; a second block fills those waits. */
#define ENC_PAIR(d0, d1, d2, d3, s0, s1, s2, s3, k)                                           \
    do {                                                                                      \
        ENC_ROUND(d0, d1, d2, d3, s0, s1, s2, s3, k);                                         \
        ENC_ROUND(d0##b, d1##b, d2##b, d3##b, s0##b, s1##b, s2##b, s3##b, k);                 \
    } while (0)
#define DEC_PAIR(d0, d1, d2, d3, s0, s1, s2, s3, k)                                           \
    do {                                                                                      \
        DEC_ROUND(d0, d1, d2, d3, s0, s1, s2, s3, k);                                         \
        DEC_ROUND(d0##b, d1##b, d2##b, d3##b, s0##b, s1##b, s2##b, s3##b, k);                 \
    } while (0)

/* The body of enc2_words / dec2_words: a and b in place. */
#define TWO_BLOCKS(PAIR, OUT, rk, rounds, a, b)                                               \
    do {                                                                                      \
        uint32_t s0 = a[0] ^ rk[0], s1 = a[1] ^ rk[1], s2 = a[2] ^ rk[2], s3 = a[3] ^ rk[3];  \
        uint32_t s0b = b[0] ^ rk[0], s1b = b[1] ^ rk[1], s2b = b[2] ^ rk[2];                  \
        uint32_t s3b = b[3] ^ rk[3];                                                          \
        uint32_t t0, t1, t2, t3, t0b, t1b, t2b, t3b;                                          \
        ROUNDS(PAIR, rk, rounds);                                                             \
        OUT(a, t0, t1, t2, t3, rk);                                                           \
        OUT(b, t0b, t1b, t2b, t3b, rk);                                                       \
    } while (0)

static inline __attribute__((always_inline)) void enc2_words(const uint32_t *rk,
                                                             unsigned rounds, uint32_t a[4],
                                                             uint32_t b[4])
{
    TWO_BLOCKS(ENC_PAIR, ENC_OUT, rk, rounds, a, b);
}

static inline __attribute__((always_inline)) void dec2_words(const uint32_t *rk,
                                                             unsigned rounds, uint32_t a[4],
                                                             uint32_t b[4])
{
    TWO_BLOCKS(DEC_PAIR, DEC_OUT, rk, rounds, a, b);
}

/* GCC's reassociation would turn the XOR trees above back into chains. */
#if defined(__GNUC__) && !defined(__clang__)
#define KEEP_TREES __attribute__((optimize("no-tree-reassoc", "no-tree-slp-vectorize")))
#else
#define KEEP_TREES
#endif

static inline void load_block(uint32_t w[4], const uint8_t *p)
{
    w[0] = load32_be(p);
    w[1] = load32_be(p + 4);
    w[2] = load32_be(p + 8);
    w[3] = load32_be(p + 12);
}

static inline void store_block(uint8_t *p, const uint32_t w[4])
{
    store32_be(p, w[0]);
    store32_be(p + 4, w[1]);
    store32_be(p + 8, w[2]);
    store32_be(p + 12, w[3]);
}

static inline void xor_words(uint32_t d[4], const uint32_t x[4])
{
    d[0] ^= x[0];
    d[1] ^= x[1];
    d[2] ^= x[2];
    d[3] ^= x[3];
}

KEEP_TREES void portable_aes_encrypt(const struct portable_aes *k, const uint8_t in[16],
                                     uint8_t out[16])
{
    uint32_t s[4];
    load_block(s, in);
    enc_words(k->rk, k->rounds, s);
    store_block(out, s);
}

KEEP_TREES void portable_aes_decrypt(const struct portable_aes *k, const uint8_t in[16],
                                     uint8_t out[16])
{
    uint32_t s[4];
    load_block(s, in);
    dec_words(k->rk, k->rounds, s);
    store_block(out, s);
}

KEEP_TREES void portable_aes_cbc_encrypt(const struct portable_aes *k, uint8_t iv[16], uint8_t *out,
                              const uint8_t *in, size_t len)
{
    uint32_t s[4];
    load_block(s, iv);
    for (size_t i = 0; i + 16 <= len; i += 16) {
        uint32_t p[4];
        load_block(p, in + i);
        xor_words(s, p);
        enc_words(k->rk, k->rounds, s);
        store_block(out + i, s);
    }
    store_block(iv, s);
}

/* Every block's decryption is independent (only the XOR chains): two at a time. */
KEEP_TREES void portable_aes_cbc_decrypt(const struct portable_aes *k, uint8_t iv[16], uint8_t *out,
                              const uint8_t *in, size_t len)
{
    uint32_t prev[4];
    size_t i = 0;
    load_block(prev, iv);
    for (; i + 32 <= len; i += 32) {
        uint32_t c[4], d[4], s[4], t[4];
        load_block(c, in + i); /* read before out (maybe == in) is written */
        load_block(d, in + i + 16);
        memcpy(s, c, sizeof s);
        memcpy(t, d, sizeof t);
        dec2_words(k->rk, k->rounds, s, t);
        xor_words(s, prev);
        xor_words(t, c);
        store_block(out + i, s);
        store_block(out + i + 16, t);
        memcpy(prev, d, sizeof prev);
    }
    if (i + 16 <= len) {
        uint32_t c[4], s[4];
        load_block(c, in + i);
        memcpy(s, c, sizeof s);
        dec_words(k->rk, k->rounds, s);
        xor_words(s, prev);
        store_block(out + i, s);
        memcpy(prev, c, sizeof prev);
    }
    store_block(iv, prev);
}

/* The next counter block: the whole 128 bits big-endian in CTR mode (as OpenSSL's
 * CRYPTO_ctr128), only the low 32 bits in GCM (SP 800-38D inc32). */
static inline void ctr_next(uint32_t w[4], int wide)
{
    if (++w[3] == 0 && wide && ++w[2] == 0 && ++w[1] == 0)
        ++w[0];
}

static inline void xor_block(uint8_t *out, const uint8_t *in, const uint32_t ks[4])
{
    for (int i = 0; i < 4; i++)
        store32_be(out + 4 * i, load32_be(in + 4 * i) ^ ks[i]);
}

/* Counter mode over whole blocks, two at a time; c is left at the next counter. */
static inline __attribute__((always_inline)) void ctr_blocks(const struct portable_aes *k,
                                                             uint32_t c[4], uint8_t *out,
                                                             const uint8_t *in, size_t nblocks,
                                                             int wide)
{
    for (; nblocks >= 2; nblocks -= 2, in += 32, out += 32) {
        uint32_t s[4] = { c[0], c[1], c[2], c[3] };
        ctr_next(c, wide);
        uint32_t u[4] = { c[0], c[1], c[2], c[3] };
        ctr_next(c, wide);
        enc2_words(k->rk, k->rounds, s, u);
        xor_block(out, in, s);
        xor_block(out + 16, in + 16, u);
    }
    if (nblocks) {
        uint32_t s[4] = { c[0], c[1], c[2], c[3] };
        ctr_next(c, wide);
        enc_words(k->rk, k->rounds, s);
        xor_block(out, in, s);
    }
}

KEEP_TREES void portable_aes_ctr32_xor(const struct portable_aes *k, uint8_t ctr[16],
                                       uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint32_t c[4];
    load_block(c, ctr);
    ctr_blocks(k, c, out, in, nblocks, 0);
    store32_be(ctr + 12, c[3]);
}

int portable_aes_ctr_init(struct portable_aes_ctr *c, const uint8_t *key, size_t key_len,
                          const uint8_t iv[16])
{
    if (portable_aes_setkey_enc(&c->key, key, key_len) != 0)
        return -1;
    memcpy(c->ctr, iv, 16);
    c->ks.left = 0;
    return 0;
}

KEEP_TREES void portable_aes_ctr_xor(struct portable_aes_ctr *c, uint8_t *out,
                                     const uint8_t *in, size_t len)
{
    size_t i = ctr_stream_use(&c->ks, out, in, len);
    if (i == len)
        return;
    uint32_t ctr[4];
    load_block(ctr, c->ctr);
    size_t full = (len - i) / 16;
    ctr_blocks(&c->key, ctr, out + i, in + i, full, 1);
    i += 16 * full;
    if (i < len) {
        uint32_t s[4] = { ctr[0], ctr[1], ctr[2], ctr[3] };
        enc_words(c->key.rk, c->key.rounds, s);
        ctr_next(ctr, 1);
        store_block(c->ks.ks, s);
        ctr_stream_tail(&c->ks, out + i, in + i, len - i);
    }
    store_block(c->ctr, ctr);
}
