/* The direct_arm backend: this project's own ARMv8 crypto-extension kernels (asm/aarch64/,
 * calling convention in asm/direct_arm.h) behind the struct impl contract. Its
 * implementations are named "direct", as the x86-64 ones, so `-i direct` means the same
 * thing on either machine.
 *
 * The kernels only do whole blocks. This glue expands AES keys (FIPS-197 5.2, SubWord by
 * AESE), keeps the CBC chain and the CTR counter and keystream between ops, builds GCM
 * from CTR and GHASH (NIST SP 800-38D 7.1), and pads the hashes (FIPS 180-4 5.1).
 * Each implementation needs the HWCAP features in its table row; cpu_feature_status()
 * also applies the project's mask (ACCELSCOPE_DENY), the only way to switch them off
 * under qemu. Other architectures list nothing: the kernels are not in their builds.
 */
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "cpu.h"
#include "ctr_stream.h"
#include "all.h"

#if defined(__aarch64__)

#include "direct_arm.h"

enum mode { M_CBC, M_CTR, M_GCM, M_SHA1, M_SHA256, M_SHA512 };

struct kern {
    enum mode mode;
    enum feature need[2]; /* FEAT_COUNT = none */
};

struct aes_ctx {
    uint8_t rk[(ARMCE_AES_MAX_ROUNDS + 1) * 16];
    uint8_t drk[(ARMCE_AES_MAX_ROUNDS + 1) * 16];
    unsigned rounds;
    int decrypt;
    uint8_t iv[16];    /* CBC: last ciphertext block; CTR: next counter block */
    struct ctr_stream ks; /* CTR: what is left of the block in progress */
    uint8_t h[4][16];  /* GCM: hash key H = E_K(0^128) and H^2..H^4 */
    uint8_t nonce[12]; /* GCM: nonce of the next op */
};

static int check(const struct impl *im, char *why, size_t n)
{
    const struct kern *k = im->data;
    for (size_t i = 0; i < sizeof k->need / sizeof k->need[0]; i++)
        if (k->need[i] != FEAT_COUNT && !cpu_feature_status(k->need[i], why, n))
            return -1;
    return 0;
}

/* FIPS-197 5.2 on little-endian words (byte 0 of a word in its low bits, as memcpy
 * gives on aarch64 Linux): RotWord is a right rotation by 8, Rcon goes into the low byte. */
static void expand_key(struct aes_ctx *c, const uint8_t *key, unsigned key_len)
{
    unsigned nk = key_len / 4, total = 4 * (nk + 7);
    uint32_t w[4 * (ARMCE_AES_MAX_ROUNDS + 1)];
    uint32_t rcon = 1;
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = armce_aes_subword(t >> 8 | t << 24) ^ rcon;
            rcon = (rcon << 1 ^ (rcon & 0x80 ? 0x1b : 0)) & 0xff;
        } else if (nk > 6 && i % nk == 4) {
            t = armce_aes_subword(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    c->rounds = nk + 6;
    memcpy(c->rk, w, total * 4);
    armce_aes_invert(c->drk, c->rk, c->rounds);
}

static int aes_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                    int decrypt, char *why, size_t n)
{
    const struct algo *a = algo_find(im->alg);
    const struct kern *k = im->data;
    struct aes_ctx *c = ctx;
    if (!a || (a->key_len != 16 && a->key_len != 24 && a->key_len != 32)) {
        snprintf(why, n, "%s: not an AES algorithm this backend knows", im->alg);
        return -1;
    }
    expand_key(c, key, a->key_len);
    c->decrypt = decrypt;
    c->ks.left = 0;
    if (k->mode == M_GCM) {
        uint8_t zero[16] = { 0 };
        memset(c->h, 0, sizeof c->h);
        armce_aes_cbc_enc(c->rk, c->rounds, c->h[0], c->h[0], 1, zero); /* E_K(0), IV 0 */
        for (int i = 1; i < 4; i++)
            armce_ghash(c->h[i], c->h, c->h[i - 1], 1); /* 0 ^ H^i, times H */
        memcpy(c->nonce, iv, sizeof c->nonce);
    } else {
        memcpy(c->iv, iv, sizeof c->iv);
    }
    return 0;
}

static int cbc_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct aes_ctx *c = ctx;
    if (c->decrypt)
        armce_aes_cbc_dec(c->drk, c->rounds, out, in, len / 16, c->iv);
    else
        armce_aes_cbc_enc(c->rk, c->rounds, out, in, len / 16, c->iv);
    return 0;
}

/* CTR over any length, counter in ctr; a partial last block's key stream is left in ks so
 * the next call can go on mid-block. */
static void ctr_xor(const struct aes_ctx *c, uint8_t *out, const uint8_t *in, size_t len,
                    uint8_t ctr[16], struct ctr_stream *ks)
{
    size_t blocks = len / 16, tail = len % 16;
    armce_aes_ctr(c->rk, c->rounds, out, in, blocks, ctr);
    if (!tail)
        return;
    out += blocks * 16;
    in += blocks * 16;
    memset(ks->ks, 0, 16);
    armce_aes_ctr(c->rk, c->rounds, ks->ks, ks->ks, 1, ctr);
    ctr_stream_tail(ks, out, in, tail);
}

static int ctr_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct aes_ctx *c = ctx;
    size_t done = ctr_stream_use(&c->ks, out, in, len);
    if (done < len)
        ctr_xor(c, out + done, in + done, len - done, c->iv, &c->ks);
    return 0;
}

/* GHASH over data zero-padded to whole blocks (SP 800-38D 7.1 step 5). */
static void ghash_padded(uint8_t xi[16], const uint8_t h[4][16], const uint8_t *data,
                         size_t len)
{
    size_t blocks = len / 16, tail = len % 16;
    armce_ghash(xi, h, data, blocks);
    if (tail) {
        uint8_t last[16] = { 0 };
        memcpy(last, data + blocks * 16, tail);
        armce_ghash(xi, h, last, 1);
    }
}

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

/* One AEAD op as src/impl.h defines it: J0 = nonce || 0^31 || 1, the data under CTR from
 * inc32(J0) (a 16 MiB op never carries out of the low 32 bits, so the kernel's 128-bit
 * increment is the same), tag = E_K(J0) XOR GHASH(AAD, C, lengths). */
static int gcm_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct aes_ctx *c = ctx;
    uint8_t ctr[16], ekj0[16] = { 0 }, xi[16] = { 0 }, lens[16], tag[16];
    struct ctr_stream ks;
    memcpy(ctr, c->nonce, 12);
    ctr[12] = ctr[13] = ctr[14] = 0;
    ctr[15] = 1;
    armce_aes_ctr(c->rk, c->rounds, ekj0, ekj0, 1, ctr); /* E(J0); ctr is now inc32(J0) */
    ghash_padded(xi, c->h, algo_aad, ALGO_AAD_LEN);
    if (c->decrypt) {
        ghash_padded(xi, c->h, in, len); /* before the in-place overwrite */
        ctr_xor(c, out, in, len, ctr, &ks);
    } else {
        ctr_xor(c, out, in, len, ctr, &ks);
        ghash_padded(xi, c->h, out, len);
    }
    put_be64(lens, (uint64_t)ALGO_AAD_LEN * 8);
    put_be64(lens + 8, (uint64_t)len * 8);
    armce_ghash(xi, c->h, lens, 1);
    for (int i = 0; i < 16; i++)
        tag[i] = ekj0[i] ^ xi[i];
    if (c->decrypt) {
        uint8_t diff = 0;
        for (int i = 0; i < 16; i++)
            diff |= tag[i] ^ in[len + i];
        return diff != 0;
    }
    memcpy(out + len, tag, 16);
    algo_nonce_next(c->nonce);
    return 0;
}

/* Merkle-Damgard padding for the three hashes (FIPS 180-4 5.1.1, 5.1.2). */
struct md {
    size_t block, len_bytes, words, word_bytes, out_len;
    const void *h0;
    void (*blocks)(void *state, const uint8_t *in, size_t n);
};

static void sha1_blocks(void *s, const uint8_t *in, size_t n) { armce_sha1_blocks(s, in, n); }
static void sha256_blocks(void *s, const uint8_t *in, size_t n) { armce_sha256_blocks(s, in, n); }
static void sha512_blocks(void *s, const uint8_t *in, size_t n) { armce_sha512_blocks(s, in, n); }

static const uint32_t sha1_h0[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
                                     0xc3d2e1f0 };
static const uint32_t sha256_h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
static const uint64_t sha512_h0[8] = {
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
};

static const struct md md_sha1 = { 64, 8, 5, 4, 20, sha1_h0, sha1_blocks };
static const struct md md_sha256 = { 64, 8, 8, 4, 32, sha256_h0, sha256_blocks };
static const struct md md_sha512 = { 128, 16, 8, 8, 64, sha512_h0, sha512_blocks };

static void md_digest(const struct md *m, uint8_t *out, const uint8_t *in, size_t len)
{
    uint64_t state[8];
    uint8_t tail[256] = { 0 };
    size_t full = len / m->block, rem = len % m->block;
    memcpy(state, m->h0, m->words * m->word_bytes);
    m->blocks(state, in, full);
    memcpy(tail, in + full * m->block, rem);
    tail[rem] = 0x80;
    size_t n = rem + 1 + m->len_bytes <= m->block ? 1 : 2;
    put_be64(tail + n * m->block - 8, (uint64_t)len * 8); /* high length bits stay 0 */
    m->blocks(state, tail, n);
    for (size_t w = 0; w < m->words; w++) {
        uint64_t v = m->word_bytes == 8 ? state[w] : ((uint32_t *)state)[w];
        for (size_t b = 0; b < m->word_bytes; b++)
            out[w * m->word_bytes + b] = (uint8_t)(v >> 8 * (m->word_bytes - 1 - b));
    }
}

static int md_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                   int decrypt, char *why, size_t n)
{
    (void)key, (void)iv, (void)decrypt, (void)why, (void)n;
    const struct kern *k = im->data;
    *(const struct md **)ctx = k->mode == M_SHA1 ? &md_sha1
                             : k->mode == M_SHA256 ? &md_sha256 : &md_sha512;
    return 0;
}

static int md_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    md_digest(*(const struct md **)ctx, out, in, len);
    return 0;
}

static const struct kern k_cbc = { M_CBC, { FEAT_ARM_AES, FEAT_COUNT } };
static const struct kern k_ctr = { M_CTR, { FEAT_ARM_AES, FEAT_COUNT } };
static const struct kern k_gcm = { M_GCM, { FEAT_ARM_AES, FEAT_PMULL } };
static const struct kern k_sha1 = { M_SHA1, { FEAT_SHA1, FEAT_COUNT } };
static const struct kern k_sha256 = { M_SHA256, { FEAT_SHA2, FEAT_COUNT } };
static const struct kern k_sha512 = { M_SHA512, { FEAT_SHA512, FEAT_COUNT } };

#define AES(id, k, opf, nt)                                                                   \
    { .alg = id, .name = "direct", .backend = "direct_arm", .path = PATH_HW, .note = nt,      \
      .ctx_size = sizeof(struct aes_ctx), .data = &k, .check = check,                         \
      .init = aes_init, .op = opf }
#define MD(id, k)                                                                             \
    { .alg = id, .name = "direct", .backend = "direct_arm", .path = PATH_HW,                  \
      .note = "ARMv8 SHA instructions", .ctx_size = sizeof(void *), .data = &k,               \
      .check = check, .init = md_init, .op = md_op }

#define CBC_NOTE "ARMv8 AESE/AESD; decrypt 4 blocks interleaved, encrypt serial by nature"
#define GCM_NOTE "ARMv8 AESE (4-way CTR) then PMULL GHASH (4 blocks per reduction), two passes"

static const struct impl list[] = {
    AES("aes-128-cbc", k_cbc, cbc_op, CBC_NOTE),
    AES("aes-192-cbc", k_cbc, cbc_op, CBC_NOTE),
    AES("aes-256-cbc", k_cbc, cbc_op, CBC_NOTE),
    AES("aes-128-ctr", k_ctr, ctr_op, "ARMv8 AESE, 4 blocks interleaved"),
    AES("aes-256-ctr", k_ctr, ctr_op, "ARMv8 AESE, 4 blocks interleaved"),
    AES("aes-128-gcm", k_gcm, gcm_op, GCM_NOTE),
    AES("aes-256-gcm", k_gcm, gcm_op, GCM_NOTE),
    MD("sha1", k_sha1),
    MD("sha256", k_sha256),
    MD("sha512", k_sha512),
};

static const struct impl *impls(size_t *count)
{
    *count = sizeof list / sizeof list[0];
    return list;
}

static void describe(FILE *out)
{
    static const enum feature feats[] = { FEAT_ARM_AES, FEAT_PMULL, FEAT_SHA1, FEAT_SHA2,
                                          FEAT_SHA512 };
    char why[160];
    for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++) {
        int ok = cpu_feature_status(feats[i], why, sizeof why);
        fprintf(out, "direct %s kernels: %s\n", feature_table[feats[i]].key,
                ok ? "usable" : why);
    }
}

#else /* not aarch64: the ARMv8 kernels are not assembled into this build */

static const struct impl *impls(size_t *count)
{
    *count = 0;
    return NULL;
}

static void describe(FILE *out)
{
#if defined(__arm__)
    fprintf(out, "direct ARMv8 kernels: not in this build (they exist only in aarch64 "
                 "builds: make CROSS_COMPILE=aarch64-linux-gnu-)\n");
#else
    (void)out; /* not Arm: nothing of Arm to speak of */
#endif
}

#endif

const struct backend backend_direct_arm = { .name = "direct_arm", .impls = impls,
                                            .describe = describe };
