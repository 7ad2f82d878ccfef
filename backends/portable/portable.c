/* The portable backend: path "c" (no-asm) for every algorithm, on the C in this folder.
 * Glue only: the impl table and the op semantics of src/impl.h around portable.h. */
#include "portable.h"

#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "all.h"

#define NOTE_AES "T-table AES: table lookups leak timing, as OpenSSL's no-asm"
#define NOTE_AES_CT "bitsliced, constant time: no lookups or branches on key or data"
#define NOTE_GCM                                                                              \
    "T-table AES and 8-bit GHASH tables: lookups leak timing, as OpenSSL's no-asm"

static int always(const struct impl *im, char *why, size_t n)
{
    (void)im;
    if (n)
        why[0] = 0;
    return 0;
}

static int key_len_of(const struct impl *im)
{
    const struct algo *a = algo_find(im->alg);
    return a ? (int)a->key_len : -1;
}

/* ---- AES-CBC and -CTR: T-tables, or bitsliced on the constant-time rows ---- */
static const int aes_ct_rows; /* im->data of the "portable-ct" rows points here */
#define IS_CT(im) ((im)->data == &aes_ct_rows)

struct cbc_ctx {
    union {
        struct portable_aes tt;
        struct portable_aes_ct ct;
    } key;
    uint8_t iv[16];
    int decrypt, ct;
};

static int cbc_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                    int decrypt, char *why, size_t n)
{
    struct cbc_ctx *c = ctx;
    int kl = key_len_of(im), rc;
    c->ct = IS_CT(im);
    if (c->ct)
        rc = portable_aes_ct_setkey(&c->key.ct, key, (size_t)kl);
    else
        rc = decrypt ? portable_aes_setkey_dec(&c->key.tt, key, (size_t)kl)
                     : portable_aes_setkey_enc(&c->key.tt, key, (size_t)kl);
    if (rc != 0) {
        snprintf(why, n, "%s: no AES key length %d", im->alg, kl);
        return -1;
    }
    memcpy(c->iv, iv, 16);
    c->decrypt = decrypt;
    return 0;
}

static int cbc_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct cbc_ctx *c = ctx;
    if (c->ct)
        (c->decrypt ? portable_aes_ct_cbc_decrypt
                    : portable_aes_ct_cbc_encrypt)(&c->key.ct, c->iv, out, in, len);
    else
        (c->decrypt ? portable_aes_cbc_decrypt
                    : portable_aes_cbc_encrypt)(&c->key.tt, c->iv, out, in, len);
    return 0;
}

/* Encryption and decryption are the same. */
struct ctr_ctx {
    union {
        struct portable_aes_ctr tt;
        struct portable_aes_ct_ctr ct;
    } u;
    int ct;
};

static int ctr_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                    int decrypt, char *why, size_t n)
{
    (void)decrypt;
    struct ctr_ctx *c = ctx;
    int kl = key_len_of(im);
    c->ct = IS_CT(im);
    if ((c->ct ? portable_aes_ct_ctr_init(&c->u.ct, key, (size_t)kl, iv)
               : portable_aes_ctr_init(&c->u.tt, key, (size_t)kl, iv)) != 0) {
        snprintf(why, n, "%s: no AES key length %d", im->alg, kl);
        return -1;
    }
    return 0;
}

static int ctr_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ctr_ctx *c = ctx;
    if (c->ct)
        portable_aes_ct_ctr_xor(&c->u.ct, out, in, len);
    else
        portable_aes_ctr_xor(&c->u.tt, out, in, len);
    return 0;
}

/* ---- AEADs: one op seals (or opens) one message under the current nonce ---- */
struct gcm_ctx {
    struct portable_gcm g;
    uint8_t nonce[12];
    int decrypt;
};

static int gcm_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                    int decrypt, char *why, size_t n)
{
    struct gcm_ctx *c = ctx;
    int kl = key_len_of(im);
    if (portable_gcm_setkey(&c->g, key, (size_t)kl) != 0) {
        snprintf(why, n, "%s: no AES key length %d", im->alg, kl);
        return -1;
    }
    memcpy(c->nonce, iv, 12);
    c->decrypt = decrypt;
    return 0;
}

static int gcm_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct gcm_ctx *c = ctx;
    if (c->decrypt)
        return portable_gcm_open(&c->g, c->nonce, 12, algo_aad, ALGO_AAD_LEN, out, in, len,
                                 in + len) ? 1 : 0;
    portable_gcm_seal(&c->g, c->nonce, 12, algo_aad, ALGO_AAD_LEN, out, in, len, out + len);
    algo_nonce_next(c->nonce);
    return 0;
}

struct chacha_ctx {
    uint8_t key[32];
    uint8_t nonce[12];
    int decrypt;
};

static int chacha_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                       int decrypt, char *why, size_t n)
{
    (void)im, (void)why, (void)n;
    struct chacha_ctx *c = ctx;
    memcpy(c->key, key, 32);
    memcpy(c->nonce, iv, 12);
    c->decrypt = decrypt;
    return 0;
}

static int chacha_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct chacha_ctx *c = ctx;
    if (c->decrypt)
        return portable_chacha20_poly1305_open(c->key, c->nonce, algo_aad, ALGO_AAD_LEN, out,
                                               in, len, in + len) ? 1 : 0;
    portable_chacha20_poly1305_seal(c->key, c->nonce, algo_aad, ALGO_AAD_LEN, out, in, len,
                                    out + len);
    algo_nonce_next(c->nonce);
    return 0;
}

/* ---- Digests: stateless, one op = one whole message ---- */
static int digest_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                       int decrypt, char *why, size_t n)
{
    (void)im, (void)ctx, (void)key, (void)iv, (void)decrypt, (void)why, (void)n;
    return 0;
}

#define DIGEST_OP(name)                                                                       \
    static int name##_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)              \
    {                                                                                         \
        (void)ctx;                                                                            \
        portable_##name(in, len, out);                                                        \
        return 0;                                                                             \
    }
DIGEST_OP(md5)
DIGEST_OP(sha1)
DIGEST_OP(sha256)
DIGEST_OP(sha512)

/* ---- IDEA-CBC ---- */
struct idea_ctx {
    struct portable_idea key;
    uint8_t iv[8];
    int decrypt;
};

static int idea_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                     int decrypt, char *why, size_t n)
{
    (void)im, (void)why, (void)n;
    struct idea_ctx *c = ctx;
    if (decrypt)
        portable_idea_setkey_dec(&c->key, key);
    else
        portable_idea_setkey_enc(&c->key, key);
    memcpy(c->iv, iv, 8);
    c->decrypt = decrypt;
    return 0;
}

static int idea_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct idea_ctx *c = ctx;
    if (c->decrypt)
        portable_idea_cbc_decrypt(&c->key, c->iv, out, in, len);
    else
        portable_idea_cbc_encrypt(&c->key, c->iv, out, in, len);
    return 0;
}

#define IMPL(id, kind, size, caveat)                                                          \
    {                                                                                         \
        .alg = id, .name = "portable", .backend = "portable", .path = PATH_C,                 \
        .note = caveat, .ctx_size = size, .check = always, .init = kind##_init,           \
        .op = kind##_op,                                                                      \
    }
/* The same glue as the T-table rows; im->data picks the bitsliced code. */
#define IMPL_CT(id, kind, size)                                                               \
    {                                                                                         \
        .alg = id, .name = "portable-ct", .backend = "portable", .path = PATH_C,              \
        .note = NOTE_AES_CT, .ctx_size = size, .data = &aes_ct_rows, .check = always,         \
        .init = kind##_init, .op = kind##_op,                                                 \
    }
#define DIGEST(id)                                                                            \
    {                                                                                         \
        .alg = #id, .name = "portable", .backend = "portable", .path = PATH_C,                \
        .ctx_size = sizeof(int), .check = always, .init = digest_init, .op = id##_op,     \
    }

static const struct impl portable_impls[] = {
    IMPL("aes-128-cbc", cbc, sizeof(struct cbc_ctx), NOTE_AES),
    IMPL("aes-192-cbc", cbc, sizeof(struct cbc_ctx), NOTE_AES),
    IMPL("aes-256-cbc", cbc, sizeof(struct cbc_ctx), NOTE_AES),
    IMPL("aes-128-ctr", ctr, sizeof(struct ctr_ctx), NOTE_AES),
    IMPL("aes-256-ctr", ctr, sizeof(struct ctr_ctx), NOTE_AES),
    IMPL_CT("aes-128-cbc", cbc, sizeof(struct cbc_ctx)),
    IMPL_CT("aes-192-cbc", cbc, sizeof(struct cbc_ctx)),
    IMPL_CT("aes-256-cbc", cbc, sizeof(struct cbc_ctx)),
    IMPL_CT("aes-128-ctr", ctr, sizeof(struct ctr_ctx)),
    IMPL_CT("aes-256-ctr", ctr, sizeof(struct ctr_ctx)),
    IMPL("aes-128-gcm", gcm, sizeof(struct gcm_ctx), NOTE_GCM),
    IMPL("aes-256-gcm", gcm, sizeof(struct gcm_ctx), NOTE_GCM),
    IMPL("chacha20-poly1305", chacha, sizeof(struct chacha_ctx), NULL),
    DIGEST(md5),
    DIGEST(sha1),
    DIGEST(sha256),
    DIGEST(sha512),
    IMPL("idea-cbc", idea, sizeof(struct idea_ctx), NULL),
};

static const struct impl *impls(size_t *count)
{
    *count = sizeof portable_impls / sizeof portable_impls[0];
    return portable_impls;
}

static void describe(FILE *out)
{
    fprintf(out, "portable: plain C, no asm or intrinsics (the no-asm path)\n");
    fprintf(out, "portable poly1305: %s\n", portable_poly1305_limbs);
    fprintf(out, "portable aes: T-tables (timing leaks, as OpenSSL no-asm)\n");
    fprintf(out, "portable-ct aes: bitsliced, constant time (4 blocks in 8 x 64-bit words; "
                 "CBC encryption 1 block in flight)\n");
    fprintf(out, "portable ghash: 8-bit tables (Shoup), 4 KiB per key\n");
}

const struct backend backend_portable = { .name = "portable", .impls = impls,
                                          .describe = describe };
