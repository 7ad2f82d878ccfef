/* Checks shared by the kernel tests (t_direct_arm, t_padlock): an implementation of a
 * CBC/CTR cipher or a digest against the standards' known answers in tests/vectors/ and
 * against OpenSSL on random data, chained ops of mixed sizes, in place.
 * Buffers come from it_alloc(): malloc by default; a test may put them against a guard
 * page (it_extra = 0) to catch any read or write past the end. */
#ifndef ACCELSCOPE_IMPL_TESTS_H
#define ACCELSCOPE_IMPL_TESTS_H

#include <stdlib.h>

#include <openssl/evp.h>

#include "algo.h"
#include "check.h"
#include "impl.h"
#include "vectors.h"

#define IT_FN static __attribute__((unused))

IT_FN void it_free_malloc(void *p, size_t n)
{
    (void)n;
    free(p);
}

static void *(*it_alloc)(size_t n) = malloc;
static void (*it_free)(void *p, size_t n) = it_free_malloc;
static size_t it_extra = ALGO_MAX_OUT_EXTRA; /* spare bytes past len, as the engine gives */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

IT_FN void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        p[i] = (uint8_t)rng_state;
    }
}

IT_FN void *new_ctx(const struct impl *im, const uint8_t *key, const uint8_t *iv, int dec)
{
    char why[256];
    void *ctx = calloc(1, im->ctx_size);
    if (!ctx)
        abort();
    int rc = im->init(im, ctx, key, iv, dec, why, sizeof why);
    CHECK(rc == 0, "%s %s init: %s", im->alg, im->name, why);
    return ctx;
}

IT_FN void free_ctx(const struct impl *im, void *ctx)
{
    if (im->cleanup)
        im->cleanup(ctx);
    free(ctx);
}

/* Known answers for CBC and CTR records and SHA digests of im's algorithm. */
IT_FN void known_answers(const struct impl *im, const struct algo *a)
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
IT_FN void diff_cipher(const struct impl *im, const struct algo *a)
{
    static const size_t ctr_sizes[] = { 1, 15, 16, 17, 31, 100, 1000, 4097, 3 };
    static const size_t cbc_sizes[] = { 16, 32, 48, 64, 80, 112, 256, 1024, 4096, 16 };
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
                uint8_t *in = it_alloc(n + it_extra), *out = it_alloc(n + it_extra);
                uint8_t *want = malloc(n + 16);
                int wl = 0;
                fill(in, n);
                EVP_CipherUpdate(e, want, &wl, in, (int)n);
                uint8_t *dst = inplace ? in : out;
                int rc = im->op(ctx, dst, in, n);
                CHECK(rc == 0 && (size_t)wl == n && memcmp(dst, want, n) == 0,
                      "%s %s%s op %zu (%zu bytes) differs from OpenSSL", im->alg,
                      dec ? "decrypt" : "encrypt", inplace ? " in place" : "", i, n);
                it_free(in, n + it_extra), it_free(out, n + it_extra), free(want);
            }
            EVP_CIPHER_CTX_free(e);
            EVP_CIPHER_free(c);
            free_ctx(im, ctx);
        }
    }
}

/* Every length across the padding boundaries, then a few large ones, in place too. */
IT_FN void diff_digest(const struct impl *im, const struct algo *a)
{
    const EVP_MD *md = EVP_get_digestbyname(a->evp);
    void *ctx = new_ctx(im, NULL, NULL, 0);
    int bad = 0;
    for (size_t n = 0; n < 300 + 3 * 65536; n = n < 300 ? n + 1 : n + 65536 + 7) {
        uint8_t *in = it_alloc(n + ALGO_MAX_OUT_EXTRA), want[64];
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
        it_free(in, n + ALGO_MAX_OUT_EXTRA);
    }
    CHECK(bad == 0, "%s: %d lengths differ from OpenSSL", im->alg, bad);
    free_ctx(im, ctx);
}

#endif
