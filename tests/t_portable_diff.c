/* The portable C path against OpenSSL's EVP, through the impl table's init/op (the engine's
 * entry points): random keys, IVs and nonces; every length 0..64, random lengths up to 4096
 * and 1 MiB; out of place and in place; two ops in a row against one continued OpenSSL
 * chain; AEAD decrypt, forged tags and the nonce sequence. Seed: $PORTABLE_SEED. */
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "check.h"
#include "registry.h"

static uint64_t rng_state;

static uint64_t rnd(void) /* splitmix64: reproducible from the printed seed */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

/* Buffers sized exactly as the engine's (len + ALGO_MAX_OUT_EXTRA) so ASan sees overruns. */
static uint8_t *buf(size_t len)
{
    uint8_t *p = malloc(len + ALGO_MAX_OUT_EXTRA);
    if (!p)
        abort();
    fill(p, len + ALGO_MAX_OUT_EXTRA);
    return p;
}

/* The lengths every algorithm is tried at, filtered by its block. */
static size_t lengths(const struct algo *a, size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t l = 0; l <= 64 && n < max; l++)
        out[n++] = l;
    for (size_t l = 80; l <= 4096 && n < max; l += 16 + (l / 256) * 16)
        out[n++] = l;
    for (int i = 0; i < 40 && n < max; i++)
        out[n++] = (size_t)(rnd() % 4097);
    if (n + 2 <= max) {
        out[n++] = 1u << 20;
        out[n++] = (1u << 20) + 7;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (out[i] % a->block == 0)
            out[k++] = out[i];
    return k;
}

struct ctx {
    const struct impl *im;
    void *c;
};

static int ctx_init(struct ctx *x, const struct impl *im, const uint8_t *key, const uint8_t *iv,
                    int decrypt)
{
    char why[256] = "";
    x->im = im;
    x->c = calloc(1, im->ctx_size ? im->ctx_size : 1);
    int rc = im->init(im, x->c, key, iv, decrypt, why, sizeof why);
    CHECK(rc == 0, "%s: init: %s", im->alg, why);
    return rc;
}

static void ctx_free(struct ctx *x)
{
    if (x->im->cleanup)
        x->im->cleanup(x->c);
    free(x->c);
}

/* OpenSSL over in[0..l1) then in[l1..len): one chain, continued. */
static int evp_cipher(const EVP_CIPHER *ec, const uint8_t *key, const uint8_t *iv, int enc,
                      const uint8_t *in, size_t len, size_t l1, uint8_t *out)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n1 = 0, n2 = 0, ok = c && EVP_CipherInit_ex2(c, ec, key, iv, enc, NULL) &&
                         EVP_CIPHER_CTX_set_padding(c, 0) &&
                         EVP_CipherUpdate(c, out, &n1, in, (int)l1) &&
                         EVP_CipherUpdate(c, out + n1, &n2, in + l1, (int)(len - l1));
    EVP_CIPHER_CTX_free(c);
    return ok && (size_t)(n1 + n2) == len ? 0 : -1;
}

static void diff_cipher(const struct algo *a, const struct impl *im, const EVP_CIPHER *ec)
{
    size_t lens[512], n = lengths(a, lens, 512);
    int runs = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = lens[i];
        uint8_t key[ALGO_MAX_KEY], iv[ALGO_MAX_IV];
        fill(key, sizeof key);
        fill(iv, sizeof iv);
        if (a->block == 1 && i % 3 != 2) /* CTR: make the counter carry across words */
            memset(iv + (i % 3 ? 0 : 8), 0xff, i % 3 ? 16 : 8);
        uint8_t *pt = buf(len), *want = buf(len), *got = buf(len), *inpl = buf(len);
        /* a split point on a block boundary for the two-op chain */
        size_t l1 = len ? (size_t)(rnd() % (len + 1)) / a->block * a->block : 0;
        for (int dec = 0; dec <= 1; dec++) {
            const uint8_t *src = dec ? want : pt;
            uint8_t *expect = dec ? pt : want;
            if (!dec)
                CHECK(evp_cipher(ec, key, iv, 1, pt, len, len / 2 / a->block * a->block,
                                 want) == 0,
                      "%s: EVP failed at %zu", a->id, len);
            struct ctx x;
            if (ctx_init(&x, im, key, iv, dec) != 0)
                continue;
            CHECK(im->op(x.c, got, src, len) == 0 && memcmp(got, expect, len) == 0,
                  "%s/%s %s len %zu: out of place differs", a->id, im->name,
                  dec ? "decrypt" : "encrypt", len);
            ctx_free(&x);

            memcpy(inpl, src, len);
            if (ctx_init(&x, im, key, iv, dec) != 0)
                continue;
            CHECK(im->op(x.c, inpl, inpl, l1) == 0 && im->op(x.c, inpl + l1, inpl + l1,
                                                             len - l1) == 0 &&
                      memcmp(inpl, expect, len) == 0,
                  "%s/%s %s len %zu = %zu + %zu: in-place two-op chain differs", a->id,
                  im->name, dec ? "decrypt" : "encrypt", len, l1, len - l1);
            ctx_free(&x);
            runs++;
        }
        free(pt), free(want), free(got), free(inpl);
    }
    printf("%s/%s: %d runs against OpenSSL %s, lengths 0..%zu\n", a->id, im->name, runs,
           a->evp, (size_t)1 << 20);
}

/* OpenSSL seal: out = ct || tag. */
static int evp_seal(const EVP_CIPHER *ec, const uint8_t *key, const uint8_t *nonce,
                    const uint8_t *in, size_t len, uint8_t *out)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0, m = 0, ok = c && EVP_EncryptInit_ex2(c, ec, key, nonce, NULL) &&
                           EVP_EncryptUpdate(c, NULL, &n, algo_aad, ALGO_AAD_LEN) &&
                           EVP_EncryptUpdate(c, out, &n, in, (int)len) &&
                           EVP_EncryptFinal_ex(c, out + n, &m) &&
                           EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, ALGO_TAG_LEN,
                                               out + len) > 0;
    EVP_CIPHER_CTX_free(c);
    return ok && (size_t)(n + m) == len ? 0 : -1;
}

static void diff_aead(const struct algo *a, const struct impl *im, const EVP_CIPHER *ec)
{
    size_t lens[512], n = lengths(a, lens, 512);
    int runs = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = lens[i], total = len + ALGO_TAG_LEN;
        uint8_t key[ALGO_MAX_KEY], nonce[12], next[12];
        fill(key, sizeof key);
        fill(nonce, sizeof nonce);
        memcpy(next, nonce, 12);
        algo_nonce_next(next);
        uint8_t *pt = buf(len), *want = buf(len), *want2 = buf(len), *got = buf(len);
        CHECK(evp_seal(ec, key, nonce, pt, len, want) == 0 &&
                  evp_seal(ec, key, next, pt, len, want2) == 0,
              "%s: EVP seal failed at %zu", a->id, len);

        /* two seals in a row: the second under the advanced nonce; the second in place */
        struct ctx x;
        if (ctx_init(&x, im, key, nonce, 0) != 0)
            goto free_bufs;
        CHECK(im->op(x.c, got, pt, len) == 0 && memcmp(got, want, total) == 0,
              "%s len %zu: seal differs", a->id, len);
        memcpy(got, pt, len);
        CHECK(im->op(x.c, got, got, len) == 0 && memcmp(got, want2, total) == 0,
              "%s len %zu: second seal (nonce advanced, in place) differs", a->id, len);
        ctx_free(&x);

        /* open: in place, twice (the nonce stays), then forged tag and ciphertext */
        if (ctx_init(&x, im, key, nonce, 1) != 0)
            goto free_bufs;
        for (int k = 0; k < 2; k++) {
            memcpy(got, want, total);
            CHECK(im->op(x.c, got, got, len) == 0 && memcmp(got, pt, len) == 0,
                  "%s len %zu: open #%d differs", a->id, len, k + 1);
        }
        memcpy(got, want, total);
        got[len + rnd() % ALGO_TAG_LEN] ^= (uint8_t)(1u << (rnd() % 8));
        CHECK(im->op(x.c, want2, got, len) != 0,
              "%s len %zu: forged tag accepted", a->id, len);
        if (len) {
            memcpy(got, want, total);
            got[rnd() % len] ^= 0x01;
            CHECK(im->op(x.c, want2, got, len) != 0, "%s len %zu: forged ciphertext accepted",
                  a->id, len);
        }
        ctx_free(&x);
        runs++;
    free_bufs:
        free(pt), free(want), free(want2), free(got);
    }
    printf("%s: %d runs against OpenSSL %s\n", a->id, runs, a->evp);
}

static void diff_digest(const struct algo *a, const struct impl *im, const EVP_MD *md)
{
    size_t lens[512], n = lengths(a, lens, 512);
    int runs = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = lens[i];
        uint8_t *in = buf(len), *got = buf(len), want[EVP_MAX_MD_SIZE];
        unsigned wl = 0;
        CHECK(EVP_Digest(in, len, want, &wl, md, NULL) && wl == a->out_len,
              "%s: EVP_Digest failed", a->id);
        struct ctx x;
        if (ctx_init(&x, im, NULL, NULL, 0) == 0) {
            CHECK(im->op(x.c, got, in, len) == 0 && memcmp(got, want, wl) == 0,
                  "%s len %zu: digest differs", a->id, len);
            CHECK(im->op(x.c, in, in, len) == 0 && memcmp(in, want, wl) == 0,
                  "%s len %zu: in-place digest differs", a->id, len);
            ctx_free(&x);
            runs++;
        }
        free(in), free(got);
    }
    printf("%s: %d runs against OpenSSL %s\n", a->id, runs, a->evp);
}

/* One implementation of a against OpenSSL; legacy: whether the legacy provider loaded. */
static void diff_one(const struct algo *a, const struct impl *im, int legacy)
{
    if (a->kind == ALGO_DIGEST) {
        EVP_MD *md = EVP_MD_fetch(NULL, a->evp, NULL);
        CHECK(md != NULL, "%s: OpenSSL has no %s", a->id, a->evp);
        if (md)
            diff_digest(a, im, md);
        EVP_MD_free(md);
        return;
    }
    EVP_CIPHER *ec = EVP_CIPHER_fetch(NULL, a->evp, NULL);
    if (!ec) {
        char why[160];
        snprintf(why, sizeof why,
                 "libcrypto has no %s (not in the default provider%s): differential part "
                 "skipped, known answers in t_portable cover it",
                 a->evp, legacy ? " nor the legacy one" : ", no legacy provider");
        UNAVAILABLE(a->id, why);
        return;
    }
    if (a->kind == ALGO_AEAD)
        diff_aead(a, im, ec);
    else
        diff_cipher(a, im, ec);
    EVP_CIPHER_free(ec);
}

int main(void)
{
    const char *s = getenv("PORTABLE_SEED");
    rng_state = s ? strtoull(s, NULL, 0) : 20261130;
    printf("seed %llu (set PORTABLE_SEED to repeat another)\n", (unsigned long long)rng_state);
    /* IDEA lives in the legacy provider if anywhere; keep the default one as fallback */
    OSSL_PROVIDER *legacy = OSSL_PROVIDER_try_load(NULL, "legacy", 1);

    for (size_t i = 0; i < algo_count; i++) {
        const struct algo *a = &algo_table[i];
        if (a->kind == ALGO_RNG)
            continue;
        const struct impl *im = registry_find(a->id, "portable");
        CHECK(im != NULL, "%s: no portable implementation", a->id);
        if (!im || !a->evp)
            continue;
        diff_one(a, im, legacy != NULL);
        /* the bitsliced constant-time AES rows go through the same checks */
        const struct impl *ct = registry_find(a->id, "portable-ct");
        if (ct)
            diff_one(a, ct, legacy != NULL);
        else if (strncmp(a->id, "aes-", 4) == 0 && !strstr(a->id, "gcm"))
            CHECK(0, "%s: no portable-ct implementation", a->id);
    }
    if (legacy)
        OSSL_PROVIDER_unload(legacy);
    return check_done();
}
