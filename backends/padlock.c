/* The "padlock" backend: VIA/Zhaoxin PadLock ACE (AES), PHE (SHA-1, SHA-256) and RNG
 * through the one-instruction kernels of asm/x86/padlock.S (contract: asm/padlock.h).
 *
 * The glue does what the instructions leave to software: the control word, the key
 * schedule (the unit expands 128-bit keys itself; 192/256-bit keys and their equivalent
 * inverse schedule, FIPS-197 5.2 and 5.3.5, are supplied), 16-byte alignment through a
 * bounce buffer, the read-ahead rule (no XCRYPT whose block count is not a multiple of
 * PADLOCK_FETCH may end at the end of a caller's buffer), the CBC chain, CTR from ECB on
 * counter blocks (works on every ACE; ACE2's XCRYPTCTR is not used), SHA output byte
 * order, and XSTORE's short reads.
 *
 * What was tested: all of this glue, on every architecture, against a C model of the
 * instructions (tests/t_padlock.c) that checks alignment, control word and read-ahead and
 * compares with OpenSSL. What was not: the instructions themselves. PadLock cannot be
 * emulated (qemu has no model of it) and no VIA/Zhaoxin machine was at hand; the i386
 * kernels are assembled, linked and never executed unless CPUID 0xC0000001 EDX says
 * the unit is present and enabled.
 */
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "cpu.h"
#include "ctr_stream.h"
#include "padlock.h"
#include "all.h"

#if defined(__i386__)
static const struct padlock_ops hw = { padlock_asm_xcrypt_ecb, padlock_asm_xcrypt_cbc,
                                       padlock_asm_xsha1, padlock_asm_xsha256,
                                       padlock_asm_xstore };
static const struct padlock_ops *const hw_ops = &hw;
static const char *const build_lacks = NULL;
static const int listed = 1;
#elif defined(__x86_64__)
/* x86_64 Zhaoxin CPUs have PadLock too, but these kernels are 32-bit code. */
static const struct padlock_ops *const hw_ops = NULL;
static const char *const build_lacks =
    "this x86_64 build has no PadLock kernels (they are i386 code: build with "
    "make CROSS_COMPILE=i686-linux-gnu-)";
static const int listed = 1;
#else
/* No PadLock outside x86: nothing to list. */
static const struct padlock_ops *const hw_ops = NULL;
static const char *const build_lacks = "PadLock exists only on x86";
static const int listed = 0;
#endif

static const struct padlock_ops *model;

void padlock_use_ops(const struct padlock_ops *ops)
{
    model = ops;
}

static const struct padlock_ops *ops(void)
{
    return model ? model : hw_ops;
}

enum mode { PL_CBC, PL_CTR, PL_SHA1, PL_SHA256, PL_RNG };

struct kern {
    enum mode mode;
    enum feature need;
};

#define PL_CHUNK 512 /* bounce buffer: 32 blocks, a multiple of PADLOCK_FETCH */

/* Everything the unit reads or writes through a pointer, 16-byte aligned in the ctx. */
struct pl_mem {
    uint32_t cword[4];
    uint8_t key[15 * 16];
    uint8_t iv[16];
    uint8_t buf[PL_CHUNK];
    uint32_t sha[32]; /* the PHE state buffer must be 128 bytes (Linux padlock-sha.c) */
};

struct pl_ctx {
    const struct kern *k;
    int decrypt;
    struct ctr_stream ks;
    unsigned char raw[sizeof(struct pl_mem) + PADLOCK_ALIGN - 1];
};

static struct pl_mem *mem(struct pl_ctx *c)
{
    uintptr_t p = ((uintptr_t)c->raw + PADLOCK_ALIGN - 1) & ~(uintptr_t)(PADLOCK_ALIGN - 1);
    return (struct pl_mem *)p;
}

static int check(const struct impl *im, char *why, size_t n)
{
    const struct kern *k = im->data;
    if (!cpu_feature_status(k->need, why, n))
        return -1;
    if (!hw_ops) {
        snprintf(why, n, "%s present and enabled, but %s", feature_table[k->need].label,
                 build_lacks);
        return -1;
    }
    return 0;
}

/* --- AES key schedule (FIPS-197 5.2, 5.3.5) for 192/256-bit keys --- */

static uint8_t sbox[256];

static uint8_t xtime(uint8_t x)
{
    return (uint8_t)(x << 1 ^ (x & 0x80 ? 0x1b : 0));
}

static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (; b; b >>= 1, a = xtime(a))
        if (b & 1)
            p ^= a;
    return p;
}

/* The S-box from its definition: multiplicative inverse in GF(2^8), then the affine map. */
static void sbox_init(void)
{
    if (sbox[0])
        return;
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gmul((uint8_t)x, (uint8_t)y) == 1)
                inv = (uint8_t)y;
        uint8_t s = inv;
        for (int r = 1; r <= 4; r++)
            s ^= (uint8_t)(inv << r | inv >> (8 - r));
        sbox[x] = s ^ 0x63;
    }
}

static void expand_key(uint8_t *w, const uint8_t *key, unsigned key_len)
{
    unsigned nk = key_len / 4, total = 4 * (nk + 7);
    uint8_t rcon = 1;
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        uint8_t t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            uint8_t t0 = t[0];
            t[0] = sbox[t[1]] ^ rcon;
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[t0];
            rcon = xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = sbox[t[j]];
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
}

/* Equivalent inverse cipher schedule: round keys reversed, InvMixColumns on the middle. */
static void invert_key(uint8_t *d, const uint8_t *e, unsigned rounds)
{
    memcpy(d, e + 16 * rounds, 16);
    memcpy(d + 16 * rounds, e, 16);
    for (unsigned r = 1; r < rounds; r++) {
        const uint8_t *s = e + 16 * (rounds - r);
        for (int c = 0; c < 16; c += 4) {
            for (int i = 0; i < 4; i++)
                d[16 * r + c + i] = gmul(s[c + i], 14) ^ gmul(s[c + (i + 1) % 4], 11) ^
                                    gmul(s[c + (i + 2) % 4], 13) ^ gmul(s[c + (i + 3) % 4], 9);
        }
    }
}

static int aes_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                    int decrypt, char *why, size_t n)
{
    const struct algo *a = algo_find(im->alg);
    struct pl_ctx *c = ctx;
    struct pl_mem *m = mem(c);
    if (!a || (a->key_len != 16 && a->key_len != 24 && a->key_len != 32)) {
        snprintf(why, n, "%s: not an AES algorithm this backend knows", im->alg);
        return -1;
    }
    c->k = im->data;
    c->decrypt = decrypt && c->k->mode == PL_CBC; /* CTR always runs the cipher forward */
    c->ks.left = 0;
    unsigned bits = a->key_len * 8, rounds = a->key_len / 4 + 6;
    memset(m->cword, 0, sizeof m->cword);
    m->cword[0] = PADLOCK_CW_ROUNDS(rounds) | PADLOCK_CW_KSIZE(bits) |
                  (c->decrypt ? PADLOCK_CW_DECRYPT : 0);
    if (bits == 128) {
        memcpy(m->key, key, 16); /* the unit expands 128-bit keys itself, both directions */
    } else {
        uint8_t enc[15 * 16];
        sbox_init();
        expand_key(enc, key, a->key_len);
        if (c->decrypt)
            invert_key(m->key, enc, rounds);
        else
            memcpy(m->key, enc, sizeof enc);
        m->cword[0] |= PADLOCK_CW_KEYGEN;
    }
    memcpy(m->iv, iv, 16);
    return 0;
}

/* One XCRYPT on aligned pointers; for CBC the glue keeps the chain itself (the last
 * ciphertext block), whatever the unit leaves behind in the IV buffer. */
static void xcrypt(struct pl_ctx *c, uint8_t *out, const uint8_t *in, size_t blocks)
{
    struct pl_mem *m = mem(c);
    if (c->k->mode != PL_CBC) {
        ops()->ecb(m->cword, m->key, out, in, blocks);
        return;
    }
    uint8_t next[16] = { 0 };
    if (c->decrypt)
        memcpy(next, in + 16 * (blocks - 1), 16);
    ops()->cbc(m->cword, m->key, out, in, blocks, m->iv);
    if (!c->decrypt)
        memcpy(next, out + 16 * (blocks - 1), 16);
    memcpy(m->iv, next, 16);
}

/* Whole blocks: straight from the caller's buffers when both are aligned, first the odd
 * part then a multiple of PADLOCK_FETCH so the read-ahead stays inside the input;
 * otherwise, or when fewer than PADLOCK_FETCH blocks remain, through the bounce buffer. */
static void blocks_op(struct pl_ctx *c, uint8_t *out, const uint8_t *in, size_t blocks)
{
    struct pl_mem *m = mem(c);
    int aligned = (((uintptr_t)in | (uintptr_t)out) & (PADLOCK_ALIGN - 1)) == 0;
    while (blocks) {
        size_t n;
        if (aligned && blocks >= PADLOCK_FETCH) {
            n = blocks % PADLOCK_FETCH ? blocks % PADLOCK_FETCH : blocks;
            xcrypt(c, out, in, n);
        } else {
            n = blocks < PL_CHUNK / 16 ? blocks : PL_CHUNK / 16;
            memcpy(m->buf, in, 16 * n);
            xcrypt(c, m->buf, m->buf, n);
            memcpy(out, m->buf, 16 * n);
        }
        in += 16 * n;
        out += 16 * n;
        blocks -= n;
    }
}

static int cbc_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    blocks_op(ctx, out, in, len / 16);
    return 0;
}

static void inc128(uint8_t ctr[16])
{
    for (int i = 15; i >= 0 && ++ctr[i] == 0; i--)
        ;
}

/* CTR (SP 800-38A 6.5): counter blocks in the bounce buffer, ECB in place, XOR. */
static int ctr_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct pl_ctx *c = ctx;
    struct pl_mem *m = mem(c);
    size_t done = ctr_stream_use(&c->ks, out, in, len);
    in += done, out += done, len -= done;
    while (len) {
        size_t n = (len + 15) / 16, bytes;
        if (n > PL_CHUNK / 16)
            n = PL_CHUNK / 16;
        for (size_t i = 0; i < n; i++, inc128(m->iv))
            memcpy(m->buf + 16 * i, m->iv, 16);
        xcrypt(c, m->buf, m->buf, n);
        bytes = len < 16 * n ? len : 16 * n;
        size_t whole = bytes & ~(size_t)15;
        for (size_t i = 0; i < whole; i++)
            out[i] = in[i] ^ m->buf[i];
        if (whole < bytes) { /* the last block's key stream: the rest is for the next op */
            memcpy(c->ks.ks, m->buf + whole, 16);
            ctr_stream_tail(&c->ks, out + whole, in + whole, bytes - whole);
        }
        in += bytes;
        out += bytes;
        len -= bytes;
    }
    return 0;
}

static const uint32_t sha1_h0[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
                                     0xc3d2e1f0 };
static const uint32_t sha256_h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

static int md_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                   int decrypt, char *why, size_t n)
{
    (void)key, (void)iv, (void)decrypt, (void)why, (void)n;
    ((struct pl_ctx *)ctx)->k = im->data;
    return 0;
}

/* One shot: the unit starts from the state in the buffer (host-order words), pads, and
 * leaves the final state there; the digest is those words big-endian (FIPS 180-4 6.1.2). */
static int md_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct pl_ctx *c = ctx;
    struct pl_mem *m = mem(c);
    int sha1 = c->k->mode == PL_SHA1;
    size_t words = sha1 ? 5 : 8;
    memset(m->sha, 0, sizeof m->sha);
    memcpy(m->sha, sha1 ? sha1_h0 : sha256_h0, words * 4);
    if (sha1)
        ops()->sha1(m->sha, in, len);
    else
        ops()->sha256(m->sha, in, len);
    for (size_t w = 0; w < words; w++)
        for (int b = 0; b < 4; b++)
            out[4 * w + b] = (uint8_t)(m->sha[w] >> (24 - 8 * b));
    return 0;
}

#define RNG_TRIES 1000000 /* XSTORE returns 0 bytes while the generator is refilling */

static int rng_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)in;
    struct pl_mem *m = mem(ctx);
    for (long idle = 0; len;) {
        unsigned got = ops()->xstore(m->buf, 0);
        if (got > 8)
            return -1; /* not a count XSTORE can return */
        if (!got) {
            if (++idle > RNG_TRIES)
                return -1;
            continue;
        }
        idle = 0;
        size_t take = got < len ? got : len;
        memcpy(out, m->buf, take);
        out += take;
        len -= take;
    }
    return 0;
}

static const struct kern k_cbc = { PL_CBC, FEAT_PL_ACE };
static const struct kern k_ctr = { PL_CTR, FEAT_PL_ACE };
static const struct kern k_sha1 = { PL_SHA1, FEAT_PL_PHE };
static const struct kern k_sha256 = { PL_SHA256, FEAT_PL_PHE };
static const struct kern k_rng = { PL_RNG, FEAT_PL_RNG };

#define ROW(id, k, initf, opf, nt)                                                            \
    { .alg = id, .name = "padlock", .backend = "padlock", .path = PATH_HW, .note = nt,         \
      .ctx_size = sizeof(struct pl_ctx), .data = &k, .check = check,                         \
      .init = initf, .op = opf }

static const struct impl list[] = {
    ROW("aes-128-cbc", k_cbc, aes_init, cbc_op, "VIA PadLock ACE, untested on hardware"),
    ROW("aes-192-cbc", k_cbc, aes_init, cbc_op, "VIA PadLock ACE, untested on hardware"),
    ROW("aes-256-cbc", k_cbc, aes_init, cbc_op, "VIA PadLock ACE, untested on hardware"),
    ROW("aes-128-ctr", k_ctr, aes_init, ctr_op, "PadLock ECB on counter blocks, untested on hardware"),
    ROW("aes-256-ctr", k_ctr, aes_init, ctr_op, "PadLock ECB on counter blocks, untested on hardware"),
    ROW("sha1", k_sha1, md_init, md_op, "VIA PadLock PHE, untested on hardware"),
    ROW("sha256", k_sha256, md_init, md_op, "VIA PadLock PHE, untested on hardware"),
    ROW("xstore", k_rng, md_init, rng_op, "VIA PadLock RNG, untested on hardware"),
};

static const struct impl *impls(size_t *count)
{
    *count = listed ? sizeof list / sizeof list[0] : 0;
    return list;
}

static void describe(FILE *out)
{
    static const enum feature feats[] = { FEAT_PL_ACE, FEAT_PL_PHE, FEAT_PL_RNG };
    char why[200];
    if (!listed)
        return;
    for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++) {
        int ok = cpu_feature_status(feats[i], why, sizeof why);
        if (ok && !hw_ops)
            snprintf(why, sizeof why, "%s", build_lacks);
        fprintf(out, "padlock %s kernels: %s\n", feature_table[feats[i]].key,
                ok && hw_ops ? "usable (never verified on real PadLock hardware)" : why);
    }
}

const struct backend backend_padlock = { .name = "padlock", .impls = impls,
                                         .describe = describe };
