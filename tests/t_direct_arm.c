/* The ARMv8 crypto-extension kernels (backends/direct_arm.c, asm/aarch64/) through their
 * impl table: known answers from the standards' vectors (FIPS-197/SP 800-38A/RFC 3686 AES,
 * FIPS 180 SHA, as copied into tests/vectors/), differential tests against OpenSSL on
 * random lengths, chained ops, in place, a forged GCM tag, and the project mask.
 * On aarch64 run it under qemu-aarch64 with -cpu max (every kernel) and -cpu cortex-a53
 * (no SHA512); elsewhere the backend lists nothing and the test says so. */
#include "cpu.h"
#include "cross/impl_tests.h"
#include "all.h"
#include "registry.h"

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
        CHECK(a != NULL && im->path == PATH_HW && !strcmp(im->backend, "direct_arm"),
              "%s: bad table row", im->alg);
        if (!a)
            continue;
        why[0] = 0;
        int on = im->check(im, why, sizeof why) == 0;
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
