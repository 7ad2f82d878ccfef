/* The ARMv8 crypto-extension kernels (backends/direct_arm.c, asm/aarch64/) through their
 * impl table: known answers from the standards' vectors (FIPS-197/SP 800-38A/RFC 3686 AES,
 * FIPS 180 SHA, as copied into tests/vectors/), differential tests against OpenSSL on
 * random lengths, chained ops, in place, a forged GCM tag, and the project mask.
 * On aarch64 run it under qemu-aarch64 with -cpu max (every kernel) and -cpu cortex-a53
 * (no SHA512); elsewhere the backend lists nothing and the test says so. */
#include <stdlib.h>

#include <openssl/evp.h>

#include "algo.h"
#include "check.h"
#include "cpu.h"
#include "registry.h"
#include "vectors.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        p[i] = (uint8_t)rng_state;
    }
}

static void *new_ctx(const struct impl *im, const uint8_t *key, const uint8_t *iv, int dec)
{
    char why[256];
    void *ctx = calloc(1, im->ctx_size);
    if (!ctx)
        abort();
    int rc = im->init(im, ctx, key, iv, dec, why, sizeof why);
    CHECK(rc == 0, "%s %s init: %s", im->alg, im->name, why);
    return ctx;
}

static void free_ctx(const struct impl *im, void *ctx)
{
    if (im->cleanup)
        im->cleanup(ctx);
    free(ctx);
}

/* Known answers for CBC and CTR records and SHA digests of im's algorithm. */
static void known_answers(const struct impl *im, const struct algo *a)
{
    if (a->kind == ALGO_AEAD)
        return; /* the vectors' AAD is not the fixed op AAD: covered against OpenSSL below */
    const char *file = a->kind == ALGO_DIGEST ? "evpmd_sha.txt" : "evpciph_aes_common.txt";
    const char *kind = a->kind == ALGO_DIGEST ? "Digest" : "Cipher";
    struct vec_file vf;
    struct vec_rec r = { 0 };
    int seen = 0;
    if (vec_open(&vf, file) != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    while (vec_next(&vf, &r) == 1) {
        if (!vec_is(&r, kind, a->evp) || vec_negative(&r))
            continue;
        uint8_t out[1024 + ALGO_MAX_OUT_EXTRA];
        size_t klen, ivlen, plen, clen;
        if (a->kind == ALGO_DIGEST) {
            size_t n, olen;
            uint8_t *msg = vec_input(&r, &n);
            const uint8_t *want = vec_get(&r, "Output", &olen);
            void *ctx = new_ctx(im, NULL, NULL, 0);
            im->op(ctx, out, msg ? msg : (uint8_t *)"", msg ? n : 0);
            CHECK(olen == a->out_len && memcmp(out, want, olen) == 0, "%s line %d (%s)",
                  im->alg, r.line, r.title);
            free_ctx(im, ctx);
            free(msg);
            seen++;
            continue;
        }
        const uint8_t *key = vec_get(&r, "Key", &klen), *iv = vec_get(&r, "IV", &ivlen);
        const uint8_t *pt = vec_get(&r, "Plaintext", &plen);
        const uint8_t *ct = vec_get(&r, "Ciphertext", &clen);
        if (klen != a->key_len || ivlen != a->iv_len || plen != clen || plen > 1024)
            continue;
        for (int dec = 0; dec < 2; dec++) {
            if (!vec_for_op(&r, dec))
                continue;
            void *ctx = new_ctx(im, key, iv, dec);
            int rc = im->op(ctx, out, dec ? ct : pt, plen);
            CHECK(rc == 0 && memcmp(out, dec ? pt : ct, plen) == 0, "%s %s line %d (%s)",
                  im->alg, dec ? "decrypt" : "encrypt", r.line, r.title);
            free_ctx(im, ctx);
            seen++;
        }
    }
    vec_rec_free(&r);
    vec_close(&vf);
    CHECK(seen > 0, "%s: no known-answer vector in %s", im->alg, file);
}

/* CBC/CTR: several ops of mixed sizes continue one chain, as one EVP stream does. */
static void diff_cipher(const struct impl *im, const struct algo *a)
{
    static const size_t ctr_sizes[] = { 1, 15, 16, 17, 31, 100, 1000, 4097, 3 };
    static const size_t cbc_sizes[] = { 16, 32, 48, 64, 256, 1024, 4096, 16 };
    const size_t *sizes = a->block == 1 ? ctr_sizes : cbc_sizes;
    size_t nsizes = a->block == 1 ? sizeof ctr_sizes / sizeof *ctr_sizes
                                  : sizeof cbc_sizes / sizeof *cbc_sizes;
    for (int dec = 0; dec < 2; dec++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            uint8_t key[32], iv[16];
            fill(key, sizeof key);
            fill(iv, sizeof iv);
            void *ctx = new_ctx(im, key, iv, dec);
            EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, a->evp, NULL);
            EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
            CHECK(c && e && EVP_CipherInit_ex(e, c, NULL, key, iv, !dec), "EVP %s", a->evp);
            EVP_CIPHER_CTX_set_padding(e, 0);
            for (size_t i = 0; i < nsizes; i++) {
                size_t n = sizes[i];
                uint8_t *in = malloc(n + ALGO_MAX_OUT_EXTRA), *out = malloc(n + ALGO_MAX_OUT_EXTRA);
                uint8_t *want = malloc(n + 16);
                int wl = 0;
                fill(in, n);
                EVP_CipherUpdate(e, want, &wl, in, (int)n);
                uint8_t *dst = inplace ? in : out;
                int rc = im->op(ctx, dst, in, n);
                CHECK(rc == 0 && (size_t)wl == n && memcmp(dst, want, n) == 0,
                      "%s %s%s op %zu (%zu bytes) differs from OpenSSL", im->alg,
                      dec ? "decrypt" : "encrypt", inplace ? " in place" : "", i, n);
                free(in), free(out), free(want);
            }
            EVP_CIPHER_CTX_free(e);
            EVP_CIPHER_free(c);
            free_ctx(im, ctx);
        }
    }
}

/* GCM: each op seals one message under the next nonce; OpenSSL with the same nonce and
 * AAD must agree, decrypt must give the message back, and a forged tag must fail. */
static void diff_aead(const struct impl *im, const struct algo *a)
{
    static const size_t sizes[] = { 1, 13, 16, 17, 64, 255, 1024, 16384 + 5 };
    uint8_t key[32], nonce[12], n2[12];
    fill(key, sizeof key);
    fill(nonce, sizeof nonce);
    memcpy(n2, nonce, sizeof n2);
    void *enc = new_ctx(im, key, nonce, 0);
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, a->evp, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        size_t n = sizes[i];
        uint8_t *msg = malloc(n), *buf = malloc(n + ALGO_MAX_OUT_EXTRA);
        uint8_t *want = malloc(n + 16);
        fill(msg, n);
        EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
        int l = 0, l2 = 0;
        EVP_EncryptInit_ex(e, c, NULL, key, n2);
        EVP_EncryptUpdate(e, NULL, &l, algo_aad, ALGO_AAD_LEN);
        EVP_EncryptUpdate(e, want, &l, msg, (int)n);
        EVP_EncryptFinal_ex(e, want + l, &l2);
        EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_GET_TAG, 16, want + n);
        EVP_CIPHER_CTX_free(e);

        memcpy(buf, msg, n); /* sealed in place */
        int rc = im->op(enc, buf, buf, n);
        CHECK(rc == 0 && memcmp(buf, want, n + 16) == 0, "%s seal %zu bytes differs from OpenSSL",
              im->alg, n);

        void *dec = new_ctx(im, key, n2, 1);
        uint8_t *pt = malloc(n + ALGO_MAX_OUT_EXTRA);
        rc = im->op(dec, pt, buf, n);
        CHECK(rc == 0 && memcmp(pt, msg, n) == 0, "%s open %zu bytes", im->alg, n);
        buf[n + (i % 16)] ^= 0x40;
        rc = im->op(dec, pt, buf, n);
        CHECK(rc != 0, "%s: forged tag accepted (%zu bytes)", im->alg, n);
        buf[n + (i % 16)] ^= 0x40;
        buf[i % n] ^= 1;
        rc = im->op(dec, buf, buf, n); /* in place, ciphertext changed */
        CHECK(rc != 0, "%s: altered ciphertext accepted (%zu bytes)", im->alg, n);
        free_ctx(im, dec);
        algo_nonce_next(n2);
        free(msg), free(buf), free(want), free(pt);
    }
    EVP_CIPHER_free(c);
    free_ctx(im, enc);
}

/* Every length across the padding boundaries, then a few large ones, in place too. */
static void diff_digest(const struct impl *im, const struct algo *a)
{
    const EVP_MD *md = EVP_get_digestbyname(a->evp);
    void *ctx = new_ctx(im, NULL, NULL, 0);
    int bad = 0;
    for (size_t n = 0; n < 300 + 3 * 65536; n = n < 300 ? n + 1 : n + 65536 + 7) {
        uint8_t *in = malloc(n + ALGO_MAX_OUT_EXTRA + 1), want[64];
        unsigned wl = 0;
        fill(in, n);
        EVP_Digest(in, n, want, &wl, md, NULL);
        uint8_t out[ALGO_MAX_OUT_EXTRA];
        im->op(ctx, out, in, n);
        if (memcmp(out, want, wl) != 0 && bad++ < 3)
            CHECK(0, "%s of %zu bytes differs from OpenSSL", im->alg, n);
        if (n > 64) {
            im->op(ctx, in, in, n);
            if (memcmp(in, want, wl) != 0 && bad++ < 3)
                CHECK(0, "%s of %zu bytes in place differs", im->alg, n);
        }
        free(in);
    }
    CHECK(bad == 0, "%s: %d lengths differ from OpenSSL", im->alg, bad);
    free_ctx(im, ctx);
}

/* Under ACCELSCOPE_DENY=aes,pmull,sha1,sha2 (the cross suite runs this binary once with
 * it) every kernel must be unavailable, naming the mask or the CPU's lack as the reason
 * (sha512 is not in that list: -cpu max keeps it, so it must still pass its tests). */
static int masked_out(const struct impl *im, const char *why)
{
    const char *deny = getenv("ACCELSCOPE_DENY");
    if (!deny || !strstr(deny, "aes") || !strstr(deny, "sha2"))
        return 0;
    int expect_off = strcmp(im->alg, "sha512") != 0;
    CHECK(!expect_off || strstr(why, "ACCELSCOPE_DENY") || strstr(why, "lacks"),
          "%s: under ACCELSCOPE_DENY=%s the reason is \"%s\"", im->alg, deny, why);
    return expect_off;
}

int main(void)
{
    size_t n = 0;
    const struct impl *list = backend_direct_arm.impls(&n);
#if !defined(__aarch64__)
    CHECK(n == 0, "direct_arm lists %zu implementations off aarch64", n);
    UNAVAILABLE("direct_arm (all)", "ARMv8 kernels are only built for aarch64 "
                "(make CROSS_COMPILE=aarch64-linux-gnu-; run under qemu-aarch64)");
    return check_done();
#endif
    CHECK(n == 10, "direct_arm lists %zu implementations, expected 10", n);
    int ran = 0;
    for (size_t i = 0; i < n; i++) {
        const struct impl *im = &list[i];
        const struct algo *a = algo_find(im->alg);
        char why[256];
        CHECK(a != NULL && im->path == PATH_HW && !strcmp(im->backend, "direct"),
              "%s: bad table row", im->alg);
        if (!a)
            continue;
        why[0] = 0;
        int on = im->available(im, why, sizeof why);
        if (masked_out(im, why))
            CHECK(!on, "%s: still available under ACCELSCOPE_DENY", im->alg);
        if (!on) {
            UNAVAILABLE(im->alg, why);
            continue;
        }
        ran++;
        known_answers(im, a);
        if (a->kind == ALGO_DIGEST)
            diff_digest(im, a);
        else if (a->kind == ALGO_AEAD)
            diff_aead(im, a);
        else
            diff_cipher(im, a);
        printf("ok: %s direct\n", im->alg);
    }
    if (!ran)
        UNAVAILABLE("direct_arm (all)", "no ARMv8 crypto extension usable here");
    return check_done();
}
