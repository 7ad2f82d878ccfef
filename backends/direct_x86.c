/* The direct backend's operations on x86-64: C around the asm/x86_64 kernels, following the
 * op semantics of src/impl.h. Only x86-64 builds compile the body. */
#include "direct_x86.h"

#if defined(__x86_64__)

#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "cpu.h"
#include "ctr_stream.h"
#include "direct.h"
#include "portable/bytes.h" /* wipe */

#define GCM_CHUNK 4096 /* two-pass GCM: CTR then GHASH over this much while it is in L1 */

struct cbc_ctx {
    struct direct_aes_key key;
    uint8_t iv[16];
    int decrypt;
};

struct ctr_ctx {
    struct direct_aes_key key;
    uint8_t ctr[16];
    struct ctr_stream ks;
    int vaes;
};

struct gcm_ctx {
    struct direct_aes_key key;
    struct direct_ghash_key gk;
    uint8_t j0[16]; /* SP 800-38D 7.1 with a 96-bit IV: nonce || 0^31 || 1, the nonce in bytes
                     * 0..11 advancing as algo_nonce_next says (j0_next) */
    int decrypt;
    int wide;    /* VAES + VPCLMULQDQ: 1 on ymm, 2 on zmm first */
    int evex;    /* the xmm and ymm kernels in EVEX form (aes-gcm-aesni-vl*.S, aes-gcm-vaes-vl.S),
                  * where usable */
    int xmm_kara; /* the xmm one's EVEX form with Karatsuba products (aes-gcm-aesni-vlk.S) */
    int twopass; /* CTR then GHASH, not stitched */
};

/* Room to start each context at its struct's alignment (16; the GCM one 64, for its GHASH
 * key), which calloc does not promise beyond 16. */
const size_t direct_x86_cbc_ctx_size = sizeof(struct cbc_ctx) + _Alignof(struct cbc_ctx) - 1;
const size_t direct_x86_ctr_ctx_size = sizeof(struct ctr_ctx) + _Alignof(struct ctr_ctx) - 1;
const size_t direct_x86_gcm_ctx_size = sizeof(struct gcm_ctx) + _Alignof(struct gcm_ctx) - 1;

static void *align_up(void *p, uintptr_t a)
{
    return (void *)(((uintptr_t)p + a - 1) & ~(a - 1));
}
#define CTX(type, p) ((struct type *)align_up(p, _Alignof(struct type)))

static int set_key(struct direct_aes_key *k, const struct impl *im, const uint8_t *key,
                   char *why, size_t n)
{
    const struct direct_spec *s = im->data;
    if (direct_aes_set_encrypt_key(k, key, s->key_bits) != 0) {
        snprintf(why, n, "AES key size %u bits not supported", s->key_bits);
        return -1;
    }
    return 0;
}

int direct_x86_cbc_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                        int decrypt, char *why, size_t n)
{
    struct cbc_ctx *c = CTX(cbc_ctx, ctx);
    if (set_key(&c->key, im, key, why, n) != 0)
        return -1;
    if (decrypt) {
        struct direct_aes_key enc = c->key;
        direct_aes_set_decrypt_key(&c->key, &enc);
        explicit_bzero(&enc, sizeof enc);
    }
    memcpy(c->iv, iv, 16);
    c->decrypt = decrypt;
    return 0;
}

int direct_x86_cbc_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct cbc_ctx *c = CTX(cbc_ctx, ctx);
    if (len % 16)
        return -1;
    if (c->decrypt)
        direct_aes_cbc_decrypt(&c->key, out, in, len / 16, c->iv);
    else
        direct_aes_cbc_encrypt(&c->key, out, in, len / 16, c->iv);
    return 0;
}

int direct_x86_ctr_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                        int decrypt, char *why, size_t n)
{
    (void)decrypt; /* CTR is its own inverse */
    struct ctr_ctx *c = CTX(ctr_ctx, ctx);
    if (set_key(&c->key, im, key, why, n) != 0)
        return -1;
    memcpy(c->ctr, iv, 16);
    c->ks.left = 0;
    c->vaes = ((const struct direct_spec *)im->data)->vaes;
    return 0;
}

/* Whole blocks: VAES zmm in groups of 32 (vaes 2), then VAES ymm in groups of 16, where
 * chosen; each stops short of a low-64-bit carry and of the blocks too few for its group,
 * which the next takes, down to the AES-NI kernel (full 128-bit counter): it takes up to 16
 * blocks across a carry, after which the wide kernels go on. */
static void ctr_blocks(const struct direct_aes_key *k, int vaes, uint8_t *out,
                       const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    while (nb && vaes) {
        size_t done = vaes > 1 ? direct_aes_ctr_vaes512(k, out, in, nb, ctr) : 0;
        out += done * 16, in += done * 16, nb -= done;
        done = direct_aes_ctr_vaes(k, out, in, nb, ctr);
        out += done * 16, in += done * 16, nb -= done;
        size_t step = nb < 16 ? nb : 16;
        direct_aes_ctr(k, out, in, step, ctr);
        out += step * 16, in += step * 16, nb -= step;
    }
    if (nb)
        direct_aes_ctr(k, out, in, nb, ctr);
}

int direct_x86_ctr_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    static const uint8_t zero[16];
    struct ctr_ctx *c = CTX(ctr_ctx, ctx);
    size_t i = ctr_stream_use(&c->ks, out, in, len);
    size_t nb = (len - i) / 16;
    ctr_blocks(&c->key, c->vaes, out + i, in + i, nb, c->ctr);
    i += nb * 16;
    if (i < len) {
        direct_aes_ctr(&c->key, c->ks.ks, zero, 1, c->ctr); /* E(ctr), and ctr moves on */
        ctr_stream_tail(&c->ks, out + i, in + i, len - i);
    }
    return 0;
}

/* A reflected power (a little-endian 128-bit integer) shifted left one bit, with the bit
 * shifted out folded back as 0xc2000000000000000000000000000001 (the reflected field
 * polynomial, shifted): the "H<<1 mod P" form of Gueron and Kounavis' GCM white paper
 * (2014, section "reduction"), under which a product needs no shift before the
 * multiply-by-constant reduction; and its Karatsuba half-sum. */
static void shift_power(const uint8_t refl[16], uint8_t hs[16], uint8_t hk[16])
{
    uint64_t lo, hi;
    memcpy(&lo, refl, 8);
    memcpy(&hi, refl + 8, 8);
    uint64_t carry = hi >> 63;
    hi = hi << 1 | lo >> 63;
    lo <<= 1;
    lo ^= carry;
    hi ^= carry * 0xc200000000000000u;
    uint64_t mid = lo ^ hi;
    memcpy(hs, &lo, 8);
    memcpy(hs + 8, &hi, 8);
    memcpy(hk, &mid, 8);
    memcpy(hk + 8, &mid, 8);
}

static void reverse16(uint8_t out[16], const uint8_t in[16])
{
    for (int i = 0; i < 16; i++)
        out[i] = in[15 - i];
}

/* H^17..H^64 as GHASH of zero blocks from Y = H^16: (Y ^ 0) H each time; H^p into the
 * table of H^(16t+32)..H^(16t+17) for t = (p - 17) / 16, highest power first. */
void direct_ghash_shift(struct direct_ghash_key *k)
{
    static const uint8_t zero[16];
    uint8_t(*const hs[3])[16] = { k->hsh32, k->hsh48, k->hsh64 };
    uint8_t(*const hk[3])[16] = { k->hksh32, k->hksh48, k->hksh64 };
    uint8_t y[16], r[16];
    for (int i = 0; i < 16; i++)
        shift_power(k->hrev[i], k->hsh[i], k->hksh[i]);
    reverse16(y, k->hrev[0]);
    for (int p = 17; p <= 64; p++) {
        int t = (p - 17) / 16;
        direct_ghash(y, k, zero, 1);
        reverse16(r, y);
        shift_power(r, hs[t][16 * t + 32 - p], hk[t][16 * t + 32 - p]);
    }
    explicit_bzero(y, sizeof y);
    explicit_bzero(r, sizeof r);
}

int direct_x86_need(const int *need, int nneed, char *why, size_t n)
{
    for (int i = 0; i < nneed; i++)
        if (!cpu_feature_status((enum feature)need[i], why, n))
            return 0;
    return 1;
}

int direct_x86_gcm_evex(char *why, size_t n)
{
    static const int need[] = { FEAT_AVX512F, FEAT_AVX512VL, FEAT_AVX512BW };
    return direct_x86_need(need, sizeof need / sizeof need[0], why, n);
}

/* The xmm kernel's EVEX form multiplies schoolbook (four PCLMULQDQ a block, _vl), which pays
 * where the vector issue ports bound the loop (Sapphire Rapids: that form 1.08-1.10x the SSE
 * one, aes-gcm-aesni.S) and costs where the multiplier does; there its Karatsuba variant
 * (three, _vlk) runs. On AMD's cores with AVX-512 (Zen 4, family 0x19; Zen 5, 0x1a)
 * PCLMULQDQ takes two cycles against AESENC's half (silicon limits: Zen 4 VM 2.0 and 0.50,
 * 39a856e; Zen 5 VM 2.01 and 0.50), and on the Zen 5 VM (2026-12-07, gcm_kernels.sh's
 * sse->evex and sse->vlk rows, AES-128) _vl ran 0.89-0.92x the SSE form at 1, 16 and 64 KiB,
 * _vlk 1.038-1.044x at 16 KiB, 1.039-1.042x at 64 KiB, 1.019-1.032x at 1 KiB (AES-256
 * 1.028-1.031x, where _vl reads 0.99-1.00x). The family says so before anything runs, and
 * the same way in every process; Zen 4's is inferred from its PCLMULQDQ, not timed. */
int direct_x86_gcm_xmm_kara(char *why, size_t n)
{
    const struct cpu_info *ci = cpu_get();
    if (strcmp(ci->vendor, "AuthenticAMD") == 0 && ci->family >= 0x19) {
        if (why)
            snprintf(why, n, "AMD family 0x%x: PCLMULQDQ one per two cycles bounds GCM on xmm, "
                     "so three multiplies a block (Karatsuba), not schoolbook's four",
                     (unsigned)ci->family);
        return 1;
    }
    if (why)
        snprintf(why, n, "schoolbook products: the multiplier is not what bounds GCM here");
    return 0;
}

int direct_x86_gcm_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                        int decrypt, char *why, size_t n)
{
    static const uint8_t zero[16];
    const struct direct_spec *s = im->data;
    struct gcm_ctx *c = CTX(gcm_ctx, ctx);
    uint8_t h[16];
    if (set_key(&c->key, im, key, why, n) != 0)
        return -1;
    direct_aes_encrypt_block(&c->key, h, zero); /* H = E_K(0^128), SP 800-38D 7.1 */
    direct_ghash_init(&c->gk, h);
    direct_ghash_shift(&c->gk);
    explicit_bzero(h, sizeof h);
    memcpy(c->j0, iv, 12);
    c->j0[12] = c->j0[13] = c->j0[14] = 0, c->j0[15] = 1;
    c->decrypt = decrypt;
    c->wide = s->vaes;
    c->twopass = s->twopass;
    c->evex = direct_x86_gcm_evex(NULL, 0);
    c->xmm_kara = direct_x86_gcm_xmm_kara(NULL, 0);
    return 0;
}

/* A 16-byte block that a kernel loads whole is written by one 16-byte store: built from
 * narrower stores (memcpy of 12 or 13 bytes, byte stores), it is a load that store
 * forwarding cannot serve, which waits until those stores reach the cache. Zen 4 VM, the op
 * copied into a harness and timed interleaved with this form (best of 3000 x 16 ops): an empty
 * AES-128-GCM message 203 -> 169 core cycles, 16 KiB 1.050 -> 1.034x the zmm kernel alone. */
typedef uint64_t block128 __attribute__((vector_size(16)));

static block128 block_load(const uint8_t *p)
{
    block128 v;
    memcpy(&v, p, 16);
    return v;
}

static void block_store(uint8_t *p, block128 v)
{
    memcpy(p, &v, 16);
}

/* The n (1..15, never 0) bytes at p, zero-padded, by loads inside them: for n > 8 two of 8
 * bytes from its ends, which overlap; one for n = 8; two of 4 for 4..7; three single bytes
 * below. Little-endian: byte i of the block is bits 8i.. of its word (this file is x86-64
 * only). Inlined, so that the op's partial plaintext stays in registers, not in a callee's
 * spill. Against gathering a byte at a time (a loop of loads, shifts and ORs,
 * which every message's 13-byte AAD went through), the op of the commit before included
 * renamed beside this one and the two timed interleaved in one process (Sapphire Rapids VM,
 * 2026-12-07, AES-128-GCM): zmm encrypting an empty message 1.35x as fast, 16 B 1.14x, 1 KiB
 * 1.06x, 16 KiB 1.014x (decrypting 1.006x); ymm and xmm 1.003-1.006x at 16 KiB. Wide loads
 * are served by store forwarding only from a store that covers them, so the op does not read
 * back the partial block it writes: it hashes the ciphertext it built in registers, stored
 * whole (one 16-byte store) to a buffer of its own. */
static inline __attribute__((always_inline)) block128 block_partial(const uint8_t *p, size_t n)
{
    uint64_t lo, hi = 0, t;
    uint32_t a, b;
    if (n >= 8) {
        memcpy(&lo, p, 8);
        if (n > 8) {
            memcpy(&t, p + n - 8, 8);
            hi = t >> 8 * (16 - n);
        }
    } else if (n >= 4) {
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        lo = a | (uint64_t)b << 8 * (n - 4);
    } else {
        lo = p[0] | (uint64_t)p[n / 2] << 8 * (n / 2) | (uint64_t)p[n - 1] << 8 * (n - 1);
    }
    return (block128){ lo, hi };
}

/* Ones in the first n (1..15) bytes of a block. */
static block128 block_mask(size_t n)
{
    return (block128){ n >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << 8 * n) - 1,
                       n > 8 ? ~(uint64_t)0 >> 8 * (16 - n) : 0 };
}

/* algo_nonce_next on J0's nonce, in registers: bytes 4..11, the high half of the first
 * little-endian word and the low half of the second, as one big-endian 64-bit counter. */
static block128 j0_next(block128 j)
{
    uint64_t n = (uint64_t)__builtin_bswap32((uint32_t)(j[0] >> 32)) << 32 |
                 __builtin_bswap32((uint32_t)j[1]);
    n++;
    j[0] = (j[0] & 0xffffffffu) | (uint64_t)__builtin_bswap32((uint32_t)(n >> 32)) << 32;
    j[1] = (j[1] & ~(uint64_t)0xffffffffu) | __builtin_bswap32((uint32_t)n);
    return j;
}

static void ghash_blocks(struct gcm_ctx *c, uint8_t y[16], const uint8_t *p, size_t nb)
{
    if (c->wide && nb >= 16) { /* it takes 16 blocks at a time (andq $-16): fewer, it
                                * would return 0 at once */
        size_t done = direct_ghash_vpclmul(y, &c->gk, p, nb);
        p += done * 16, nb -= done;
    }
    if (nb)
        direct_ghash(y, &c->gk, p, nb);
}

/* Hashes len bytes, the last block zero-padded (SP 800-38D 6.4 over the padded string). */
static void ghash_bytes(struct gcm_ctx *c, uint8_t y[16], const uint8_t *p, size_t len)
{
    uint8_t b[16];
    ghash_blocks(c, y, p, len / 16);
    if (len % 16) {
        block_store(b, block_partial(p + (len & ~(size_t)15), len % 16));
        direct_ghash1(y, &c->gk, b);
    }
}

/* Whole blocks as two passes, CTR then GHASH, over chunks that stay in L1; decryption hashes
 * the ciphertext before overwriting it (out may be in). */
static void gcm_twopass(struct gcm_ctx *c, struct direct_gcm_state *st, uint8_t *out,
                        const uint8_t *in, size_t nb)
{
    for (size_t off = 0; off < nb; off += GCM_CHUNK / 16) {
        size_t k = nb - off < GCM_CHUNK / 16 ? nb - off : GCM_CHUNK / 16;
        if (c->decrypt)
            ghash_blocks(c, st->y, in + off * 16, k);
        ctr_blocks(&c->key, c->wide, out + off * 16, in + off * 16, k, st->ctr);
        if (!c->decrypt)
            ghash_blocks(c, st->y, out + off * 16, k);
    }
}

/* Whole blocks stitched: VAES zmm groups of 32 and VAES ymm groups of 16 where chosen (wide
 * 2, 1), AES-NI groups of 8, the last < 8 blocks in two passes; the xmm and ymm kernels in
 * EVEX form where it is usable (c->evex), the xmm one's with Karatsuba products where the
 * multiplier bounds it (c->xmm_kara). */
static void gcm_stitched(struct gcm_ctx *c, struct direct_gcm_state *st, uint8_t *out,
                         const uint8_t *in, size_t nb)
{
    size_t (*const kern[3][2])(const struct direct_aes_key *, const struct direct_ghash_key *,
                               struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t) = {
        { !c->evex ? direct_aes_gcm_enc : c->xmm_kara ? direct_aes_gcm_enc_vlk
                                                      : direct_aes_gcm_enc_vl,
          !c->evex ? direct_aes_gcm_dec : c->xmm_kara ? direct_aes_gcm_dec_vlk
                                                      : direct_aes_gcm_dec_vl },
        { c->evex ? direct_aes_gcm_enc_vaes_vl : direct_aes_gcm_enc_vaes,
          c->evex ? direct_aes_gcm_dec_vaes_vl : direct_aes_gcm_dec_vaes },
        { direct_aes_gcm_enc_vaes512, direct_aes_gcm_dec_vaes512 },
    };
    /* the blocks each kernel takes at a time (their entries' andq $-8, $-16, $-32) */
    static const size_t group[3] = { 8, 16, 32 };
    size_t done = 0;
    /* a kernel only for a group it can take: with fewer blocks it would return 0 at once,
     * a call of ~5 cycles, in a 16-byte message then of ~300 (Zen 4 VM, 64e59d5) */
    for (int w = c->wide; w >= 0; w--)
        if (nb - done >= group[w])
            done += kern[w][c->decrypt](&c->key, &c->gk, st, out + done * 16, in + done * 16,
                                        nb - done);
    if (done < nb)
        gcm_twopass(c, st, out + done * 16, in + done * 16, nb - done);
}

/* SP 800-38D 7.1/7.2 with 96-bit IV: J0 = IV || 0^31 || 1, data under inc32(J0) onwards.
 * The two-pass CTR kernel steps all 128 bits where GCM steps 32: the same for the < 2^32 - 2
 * blocks of any message here (ALGO_MAX_BYTES is 16 MiB); the stitched kernels step 32. */
int direct_x86_gcm_aad_op(void *ctx, const uint8_t *aad, size_t alen, uint8_t *out,
                          const uint8_t *in, size_t len)
{
    struct gcm_ctx *c = CTX(gcm_ctx, ctx);
    struct direct_gcm_state st;
    uint8_t tag[16], lens[16];
    block128 j0 = block_load(c->j0);
    block_store(st.ctr, j0 ^ (block128){ 0, (uint64_t)3 << 56 }); /* inc32: byte 15, 1 -> 2 */
    block_store(st.y, (block128){ 0, 0 });
    /* len(A) || len(C) in bits, big-endian 64-bit each (SP 800-38D 7.1 step 5) */
    block_store(lens, (block128){ __builtin_bswap64((uint64_t)alen * 8),
                                  __builtin_bswap64((uint64_t)len * 8) });
    direct_aes_encrypt_block(&c->key, tag, c->j0);
    ghash_bytes(c, st.y, aad, alen);
    size_t full = len & ~(size_t)15;
    (c->twopass ? gcm_twopass : gcm_stitched)(c, &st, out, in, full / 16);
    if (len > full) { /* the partial block, zero-padded, in registers: read once, before an
                       * in-place overwrite; its ciphertext hashed from them, not from out */
        uint8_t b[16];
        block128 x = block_partial(in + full, len - full), y;
        direct_aes_encrypt_block(&c->key, b, st.ctr);
        y = (block_load(b) ^ x) & block_mask(len - full);
        block_store(b, y);
        memcpy(out + full, b, len - full);
        if (c->decrypt)
            block_store(b, x);
        direct_ghash1(st.y, &c->gk, b);
        wipe(b, sizeof b);
    }
    direct_ghash1(st.y, &c->gk, lens);
    for (int i = 0; i < 16; i++)
        tag[i] ^= st.y[i];
    wipe(&st, sizeof st);
    if (!c->decrypt) {
        memcpy(out + len, tag, 16);
        block_store(c->j0, j0_next(j0));
        return 0;
    }
    unsigned diff = 0; /* constant time, as a verifier should be */
    for (int i = 0; i < 16; i++)
        diff |= tag[i] ^ in[len + i];
    return diff != 0;
}

int direct_x86_gcm_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    return direct_x86_gcm_aad_op(ctx, algo_aad, ALGO_AAD_LEN, out, in, len);
}

int direct_x86_sha_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                        int decrypt, char *why, size_t n)
{
    (void)im, (void)ctx, (void)key, (void)iv, (void)decrypt, (void)why, (void)n;
    return 0;
}

/* FIPS 180-4 5.1.1 padding: 0x80, zeros, 64-bit big-endian bit length; one or two blocks. */
static size_t sha_pad(uint8_t buf[128], const uint8_t *tail, size_t rest, size_t total)
{
    size_t nb = rest < 56 ? 1 : 2;
    memset(buf, 0, 128);
    memcpy(buf, tail, rest);
    buf[rest] = 0x80;
    uint64_t bits = (uint64_t)total * 8;
    for (int i = 0; i < 8; i++)
        buf[nb * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    return nb;
}

static void put_be32(uint8_t *out, const uint32_t *s, int words)
{
    for (int i = 0; i < words; i++) {
        out[4 * i] = (uint8_t)(s[i] >> 24);
        out[4 * i + 1] = (uint8_t)(s[i] >> 16);
        out[4 * i + 2] = (uint8_t)(s[i] >> 8);
        out[4 * i + 3] = (uint8_t)s[i];
    }
}

/* One digest of len bytes: the full blocks straight from in, then the padded tail. */
static void sha_digest(void (*blocks)(uint32_t *, const uint8_t *, size_t), uint32_t *s,
                       unsigned words, uint8_t *out, const uint8_t *in, size_t len)
{
    uint8_t buf[128];
    blocks(s, in, len / 64);
    size_t full = len & ~(size_t)63;
    blocks(s, buf, sha_pad(buf, in + full, len - full, len));
    put_be32(out, s, words);
}

int direct_x86_sha1_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)ctx;
    uint32_t s[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
    sha_digest(direct_sha1_blocks, s, 5, out, in, len);
    return 0;
}

int direct_x86_sha256_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)ctx;
    uint32_t s[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    sha_digest(direct_sha256_blocks, s, 8, out, in, len);
    return 0;
}

void direct_x86_cbc_cleanup(void *ctx)
{
    explicit_bzero(CTX(cbc_ctx, ctx), sizeof(struct cbc_ctx));
}

void direct_x86_ctr_cleanup(void *ctx)
{
    explicit_bzero(CTX(ctr_ctx, ctx), sizeof(struct ctr_ctx));
}

void direct_x86_gcm_cleanup(void *ctx)
{
    explicit_bzero(CTX(gcm_ctx, ctx), sizeof(struct gcm_ctx));
}

#endif
