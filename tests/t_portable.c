/* Known answers for the portable C path, from the standards' own vectors (tests/vectors/,
 * OpenSSL's copies; each record's Title names its source):
 *   evpciph_aes_common.txt  FIPS-197 (ECB), NIST SP 800-38A (CBC, CTR), RFC 3686 (CTR),
 *                           the GCM specification / SP 800-38D test cases (GCM)
 *   evpciph_chacha.txt      RFC 7539 / 8439 (ChaCha20, ChaCha20-Poly1305)
 *   evpmac_poly1305.txt     RFC 7539 / 8439 and others (Poly1305)
 *   evpmd_md.txt            RFC 1321 appendix A.5 (MD5)
 *   evpmd_sha.txt           FIPS 180-4 examples / RFC 6234 8.5 (SHA-1, SHA-256, SHA-512)
 *   evpciph_idea.txt        IDEA, the pyca/cryptography set (Lai-Massey reference values)
 * Each vector runs through the direct API (backends/portable/portable.h) and, where the
 * algorithm is registered, through the impl table's init/op, the engine's entry points. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "algo.h"
#include "check.h"
#include "portable/portable.h"
#include "registry.h"
#include "vectors.h"

/* Where a failing vector came from: file:line [Title]. */
#define AT(vf, r) (vf)->path, (r)->line, (r)->title

static int used[8]; /* records exercised per file, so a silent parser cannot pass */

static const struct impl *portable_impl(const char *alg)
{
    return registry_find(alg, "portable");
}

/* One cipher op through the impl table: init then a single op over the whole input. */
static int impl_run(const struct impl *im, const uint8_t *key, const uint8_t *iv, int decrypt,
                    const uint8_t *in, size_t len, uint8_t *out)
{
    char why[256];
    void *ctx = calloc(1, im->ctx_size);
    int rc = ctx ? im->init(im, ctx, key, iv, decrypt, why, sizeof why) : -1;
    if (rc == 0)
        rc = im->op(ctx, out, in, len);
    if (ctx && im->cleanup)
        im->cleanup(ctx);
    free(ctx);
    return rc;
}

/* ---- AES: ECB, CBC, CTR, GCM ---- */
static int aes_mode(const char *alg, const char *mode, int *bits)
{
    char want[32];
    for (int b = 128; b <= 256; b += 64) {
        snprintf(want, sizeof want, "AES-%d-%s", b, mode);
        if (strcasecmp(alg, want) == 0) {
            *bits = b;
            return 1;
        }
    }
    return 0;
}

/* The portable AES rows: T-tables and the bitsliced constant-time code. */
static const char *const aes_impls[] = { "portable", "portable-ct" };

/* One ECB, CBC or CTR vector through the direct API of T-table (ct = 0) or bitsliced AES. */
static void aes_direct(int ct, const char *mode, int dec, const uint8_t *key, size_t kl,
                       const uint8_t *iv, const uint8_t *src, size_t pl, uint8_t *out)
{
    struct portable_aes k;
    struct portable_aes_ct kc;
    uint8_t chain[16];
    memcpy(chain, iv, 16);
    if (ct)
        portable_aes_ct_setkey(&kc, key, kl);
    else if (dec)
        portable_aes_setkey_dec(&k, key, kl);
    else
        portable_aes_setkey_enc(&k, key, kl);
    if (strcmp(mode, "ECB") == 0) {
        for (size_t i = 0; i + 16 <= pl; i += 16)
            if (ct)
                (dec ? portable_aes_ct_decrypt : portable_aes_ct_encrypt)(&kc, src + i, out + i);
            else
                (dec ? portable_aes_decrypt : portable_aes_encrypt)(&k, src + i, out + i);
    } else if (strcmp(mode, "CBC") == 0) {
        if (ct)
            (dec ? portable_aes_ct_cbc_decrypt
                 : portable_aes_ct_cbc_encrypt)(&kc, chain, out, src, pl);
        else
            (dec ? portable_aes_cbc_decrypt : portable_aes_cbc_encrypt)(&k, chain, out, src, pl);
    } else if (ct) {
        struct portable_aes_ct_ctr c;
        portable_aes_ct_ctr_init(&c, key, kl, iv);
        portable_aes_ct_ctr_xor(&c, out, src, pl);
    } else {
        struct portable_aes_ctr c;
        portable_aes_ctr_init(&c, key, kl, iv);
        portable_aes_ctr_xor(&c, out, src, pl);
    }
}

static void aes_block_modes(struct vec_file *vf, const struct vec_rec *r, const char *mode,
                            int bits)
{
    size_t kl, ivl, pl, cl;
    const uint8_t *key = vec_get(r, "Key", &kl), *iv = vec_get(r, "IV", &ivl);
    const uint8_t *pt = vec_get(r, "Plaintext", &pl), *ct = vec_get(r, "Ciphertext", &cl);
    uint8_t *out = malloc(pl + ALGO_MAX_OUT_EXTRA), zero_iv[16] = { 0 };
    CHECK(kl == (size_t)bits / 8 && pl == cl, "%s:%d [%s]: malformed record", AT(vf, r));
    for (int dec = 0; dec <= 1; dec++) {
        if (!vec_for_op(r, dec))
            continue;
        const uint8_t *src = dec ? ct : pt, *want = dec ? pt : ct;
        for (int bs = 0; bs <= 1; bs++) {
            memset(out, 0, pl);
            aes_direct(bs, mode, dec, key, kl, iv && ivl == 16 ? iv : zero_iv, src, pl, out);
            CHECK(memcmp(out, want, pl) == 0, "%s:%d [%s]: %s AES-%d-%s %s differs", AT(vf, r),
                  aes_impls[bs], bits, mode, dec ? "decrypt" : "encrypt");

            char alg[32];
            snprintf(alg, sizeof alg, "aes-%d-%s", bits, strcmp(mode, "CBC") ? "ctr" : "cbc");
            const struct impl *im = strcmp(mode, "ECB") ? registry_find(alg, aes_impls[bs]) : NULL;
            if (im && ivl == 16) {
                memset(out, 0, pl);
                CHECK(impl_run(im, key, iv, dec, src, pl, out) == 0 &&
                          memcmp(out, want, pl) == 0,
                      "%s:%d [%s]: impl %s/%s %s differs", AT(vf, r), alg, im->name,
                      dec ? "decrypt" : "encrypt");
            }
        }
    }
    free(out);
}

static void aes_gcm(struct vec_file *vf, const struct vec_rec *r, int bits)
{
    size_t kl, ivl, al, pl, cl, tl;
    const uint8_t *key = vec_get(r, "Key", &kl), *iv = vec_get(r, "IV", &ivl);
    const uint8_t *aad = vec_get(r, "AAD", &al), *tag = vec_get(r, "Tag", &tl);
    const uint8_t *pt = vec_get(r, "Plaintext", &pl), *ct = vec_get(r, "Ciphertext", &cl);
    uint8_t *out = malloc(pl + ALGO_MAX_OUT_EXTRA), got[16];
    struct portable_gcm g;
    CHECK(portable_gcm_setkey(&g, key, kl) == 0 && kl == (size_t)bits / 8, "%s:%d [%s]: key",
          AT(vf, r));
    if (vec_negative(r)) { /* a wrong tag: opening must fail and release nothing */
        uint8_t full[16] = { 0 };
        memcpy(full, tag, tl < 16 ? tl : 16);
        memset(out, 0xa5, cl);
        CHECK(tl == 16 && portable_gcm_open(&g, iv, ivl, aad, al, out, ct, cl, full) != 0,
              "%s:%d [%s]: GCM accepted a forged tag", AT(vf, r));
        size_t leaked = 0;
        for (size_t i = 0; i < cl; i++)
            leaked += out[i] != 0;
        CHECK(leaked == 0, "%s:%d [%s]: %zu plaintext bytes left after a failed open",
              AT(vf, r), leaked);
        free(out);
        return;
    }
    if (vec_for_op(r, 0)) {
        portable_gcm_seal(&g, iv, ivl, aad, al, out, pt, pl, got);
        CHECK(memcmp(out, ct, pl) == 0 && memcmp(got, tag, tl) == 0,
              "%s:%d [%s]: AES-%d-GCM seal differs", AT(vf, r), bits);
    }
    if (vec_for_op(r, 1) && tl == 16) { /* truncated tags cannot be checked by open */
        memcpy(out, ct, cl); /* in place */
        CHECK(portable_gcm_open(&g, iv, ivl, aad, al, out, out, cl, tag) == 0 &&
                  memcmp(out, pt, pl) == 0,
              "%s:%d [%s]: AES-%d-GCM open differs", AT(vf, r), bits);
    }
    free(out);
}

static void kat_aes(void)
{
    struct vec_file vf;
    struct vec_rec r = { 0 };
    int rc, per[4] = { 0 };
    if (vec_open(&vf, "evpciph_aes_common.txt") != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    while ((rc = vec_next(&vf, &r)) == 1) {
        static const char *const modes[] = { "ECB", "CBC", "CTR", "GCM" };
        int bits;
        for (int m = 0; m < 4; m++) {
            if (strcmp(r.kind, "Cipher") != 0 || !aes_mode(r.alg, modes[m], &bits))
                continue;
            if (m == 3)
                aes_gcm(&vf, &r, bits);
            else if (!vec_negative(&r))
                aes_block_modes(&vf, &r, modes[m], bits);
            per[m]++;
            used[0]++;
        }
    }
    CHECK(rc == 0, "%s", vf.why);
    printf("aes: %d ECB, %d CBC, %d CTR, %d GCM vectors\n", per[0], per[1], per[2], per[3]);
    CHECK(per[0] >= 3 && per[1] >= 6 && per[2] >= 6 && per[3] >= 20, "too few AES vectors");
    vec_rec_free(&r);
    vec_close(&vf);
}

/* ---- ChaCha20, ChaCha20-Poly1305, Poly1305 ---- */
static void kat_chacha(void)
{
    struct vec_file vf;
    struct vec_rec r = { 0 };
    int rc, n_stream = 0, n_aead = 0, n_na = 0;
    /* The impl op binds its AAD to algo_aad, which no vector uses: the AEAD impls are
     * checked against OpenSSL in t_portable_diff instead. */
    if (vec_open(&vf, "evpciph_chacha.txt") != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    while ((rc = vec_next(&vf, &r)) == 1) {
        size_t kl, ivl, al, pl, cl, tl;
        const uint8_t *key = vec_get(&r, "Key", &kl), *iv = vec_get(&r, "IV", &ivl);
        const uint8_t *aad = vec_get(&r, "AAD", &al), *tag = vec_get(&r, "Tag", &tl);
        const uint8_t *pt = vec_get(&r, "Plaintext", &pl), *ct = vec_get(&r, "Ciphertext", &cl);
        if (!pt || kl != 32)
            continue;
        uint8_t *out = malloc(pl + ALGO_MAX_OUT_EXTRA), got[16];
        if (vec_is(&r, "Cipher", "chacha20")) {
            /* EVP's 16-byte IV: 32-bit little-endian block counter, then the nonce */
            CHECK(ivl == 16, "%s:%d [%s]: IV", AT(&vf, &r));
            uint32_t ctr = (uint32_t)iv[0] | (uint32_t)iv[1] << 8 | (uint32_t)iv[2] << 16 |
                           (uint32_t)iv[3] << 24;
            portable_chacha20_xor(key, ctr, iv + 4, out, pt, pl);
            CHECK(cl == pl && memcmp(out, ct, pl) == 0, "%s:%d [%s]: ChaCha20 differs",
                  AT(&vf, &r));
            n_stream++;
        } else if (vec_is(&r, "Cipher", "chacha20-poly1305") && ivl != 12) {
            n_na++; /* IV-length rejections: the nonce is 12 bytes by construction here */
        } else if (vec_is(&r, "Cipher", "chacha20-poly1305")) {
            if (vec_negative(&r)) {
                CHECK(portable_chacha20_poly1305_open(key, iv, aad, al, out, ct, cl, tag) != 0,
                      "%s:%d [%s]: forged tag accepted", AT(&vf, &r));
            } else {
                portable_chacha20_poly1305_seal(key, iv, aad, al, out, pt, pl, got);
                CHECK(cl == pl && memcmp(out, ct, pl) == 0 && tl == 16 &&
                          memcmp(got, tag, 16) == 0,
                      "%s:%d [%s]: seal differs", AT(&vf, &r));
                memcpy(out, ct, cl);
                CHECK(portable_chacha20_poly1305_open(key, iv, aad, al, out, out, cl, tag) == 0 &&
                          memcmp(out, pt, pl) == 0,
                      "%s:%d [%s]: open differs", AT(&vf, &r));
            }
            n_aead++;
        }
        free(out);
    }
    CHECK(rc == 0, "%s", vf.why);
    printf("chacha: %d ChaCha20, %d ChaCha20-Poly1305 vectors (%d IV-length cases n/a)\n",
           n_stream, n_aead, n_na);
    CHECK(n_stream >= 10 && n_aead >= 5, "too few ChaCha vectors");
    used[1] += n_stream + n_aead;
    vec_rec_free(&r);
    vec_close(&vf);
}

static void kat_poly1305(void)
{
    struct vec_file vf;
    struct vec_rec r = { 0 };
    int rc, n = 0;
    if (vec_open(&vf, "evpmac_poly1305.txt") != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    while ((rc = vec_next(&vf, &r)) == 1) {
        size_t kl, il, ol;
        const uint8_t *key = vec_get(&r, "Key", &kl), *in = vec_get(&r, "Input", &il);
        const uint8_t *want = vec_get(&r, "Output", &ol);
        if (!vec_is(&r, "MAC", "Poly1305") || kl != 32 || ol != 16 || vec_negative(&r))
            continue;
        /* whole, then fed in uneven pieces: the buffering must not change the tag */
        static const size_t steps[] = { 0, 1, 7, 15, 16, 17 };
        for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
            struct portable_poly1305 p;
            uint8_t tag[16];
            portable_poly1305_init(&p, key);
            size_t step = steps[s] ? steps[s] : il;
            for (size_t off = 0; off < il; off += step)
                portable_poly1305_update(&p, in + off, il - off < step ? il - off : step);
            portable_poly1305_final(&p, tag);
            CHECK(memcmp(tag, want, 16) == 0, "%s:%d [%s]: Poly1305 (pieces of %zu) differs",
                  AT(&vf, &r), steps[s]);
        }
        n++;
    }
    CHECK(rc == 0, "%s", vf.why);
    printf("poly1305: %d vectors (%s)\n", n, portable_poly1305_limbs);
    CHECK(n >= 20, "too few Poly1305 vectors");
    used[2] += n;
    vec_rec_free(&r);
    vec_close(&vf);
}

/* ---- Digests ---- */
static void kat_digest_file(const char *file, int slot)
{
    static const struct {
        const char *evp, *alg;
        void (*fn)(const uint8_t *, size_t, uint8_t *);
        size_t n;
    } hashes[] = {
        { "MD5", "md5", portable_md5, 16 },
        { "SHA1", "sha1", portable_sha1, 20 },
        { "SHA256", "sha256", portable_sha256, 32 },
        { "SHA512", "sha512", portable_sha512, 64 },
    };
    struct vec_file vf;
    struct vec_rec r = { 0 };
    int rc, per[4] = { 0 };
    if (vec_open(&vf, file) != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    while ((rc = vec_next(&vf, &r)) == 1) {
        for (int h = 0; h < 4; h++) {
            if (!vec_is(&r, "Digest", hashes[h].evp))
                continue;
            size_t len = 0, ol;
            uint8_t *msg = vec_input(&r, &len), got[64];
            const uint8_t *want = vec_get(&r, "Output", &ol);
            CHECK(msg && ol == hashes[h].n, "%s:%d [%s]: malformed", AT(&vf, &r));
            if (!msg)
                continue;
            hashes[h].fn(msg, len, got);
            CHECK(memcmp(got, want, ol) == 0, "%s:%d [%s]: %s differs", AT(&vf, &r),
                  hashes[h].alg);
            const struct impl *im = portable_impl(hashes[h].alg);
            CHECK(im != NULL, "no portable %s", hashes[h].alg);
            if (im) {
                uint8_t *out = malloc(hashes[h].n + ALGO_MAX_OUT_EXTRA);
                CHECK(impl_run(im, NULL, NULL, 0, msg, len, out) == 0 &&
                          memcmp(out, want, ol) == 0,
                      "%s:%d [%s]: impl %s differs", AT(&vf, &r), hashes[h].alg);
                free(out);
            }
            free(msg);
            per[h]++;
            used[slot]++;
        }
    }
    CHECK(rc == 0, "%s", vf.why);
    printf("%s: %d MD5, %d SHA-1, %d SHA-256, %d SHA-512 vectors\n", file, per[0], per[1],
           per[2], per[3]);
    vec_rec_free(&r);
    vec_close(&vf);
}

/* ---- IDEA ---- */
static void kat_idea(void)
{
    struct vec_file vf;
    struct vec_rec r = { 0 };
    int rc, n_ecb = 0, n_cbc = 0;
    const struct impl *im = portable_impl("idea-cbc");
    CHECK(im != NULL, "no portable idea-cbc");
    if (vec_open(&vf, "evpciph_idea.txt") != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    while ((rc = vec_next(&vf, &r)) == 1) {
        size_t kl, ivl, pl, cl;
        const uint8_t *key = vec_get(&r, "Key", &kl), *iv = vec_get(&r, "IV", &ivl);
        const uint8_t *pt = vec_get(&r, "Plaintext", &pl), *ct = vec_get(&r, "Ciphertext", &cl);
        int ecb = vec_is(&r, "Cipher", "IDEA-ECB"), cbc = vec_is(&r, "Cipher", "IDEA-CBC");
        if ((!ecb && !cbc) || kl != 16 || pl != cl || pl % 8)
            continue;
        uint8_t *out = malloc(pl + ALGO_MAX_OUT_EXTRA);
        struct portable_idea ke, kd;
        portable_idea_setkey_enc(&ke, key);
        portable_idea_setkey_dec(&kd, key);
        for (int dec = 0; dec <= 1; dec++) {
            const uint8_t *src = dec ? ct : pt, *want = dec ? pt : ct;
            if (ecb) {
                for (size_t i = 0; i < pl; i += 8)
                    portable_idea_block(dec ? &kd : &ke, src + i, out + i);
            } else {
                uint8_t chain[8];
                memcpy(chain, iv, 8);
                (dec ? portable_idea_cbc_decrypt : portable_idea_cbc_encrypt)(dec ? &kd : &ke,
                                                                              chain, out, src,
                                                                              pl);
            }
            CHECK(memcmp(out, want, pl) == 0, "%s:%d [%s]: IDEA-%s %s differs", AT(&vf, &r),
                  ecb ? "ECB" : "CBC", dec ? "decrypt" : "encrypt");
            if (cbc && im) {
                CHECK(ivl == 8 && impl_run(im, key, iv, dec, src, pl, out) == 0 &&
                          memcmp(out, want, pl) == 0,
                      "%s:%d [%s]: impl idea-cbc %s differs", AT(&vf, &r),
                      dec ? "decrypt" : "encrypt");
            }
        }
        ecb ? n_ecb++ : n_cbc++;
        free(out);
    }
    CHECK(rc == 0, "%s", vf.why);
    printf("idea: %d ECB, %d CBC vectors\n", n_ecb, n_cbc);
    CHECK(n_ecb >= 10 && n_cbc >= 10, "too few IDEA vectors");
    used[5] += n_ecb + n_cbc;
    vec_rec_free(&r);
    vec_close(&vf);
}

/* Every algorithm of the table but the RNGs has a portable implementation on path c. */
static void registered(void)
{
    for (size_t i = 0; i < algo_count; i++) {
        const struct algo *a = &algo_table[i];
        if (a->kind == ALGO_RNG)
            continue;
        const struct impl *im = portable_impl(a->id);
        char why[128];
        CHECK(im && im->path == PATH_C && strcmp(im->backend, "portable") == 0 &&
                  im->check(im, why, sizeof why) == 0,
              "%s: no available portable impl on path c", a->id);
        if (im && strncmp(a->id, "aes-", 4) == 0)
            CHECK(im->note && strstr(im->note, "T-table"), "%s: T-table note missing", a->id);
        /* AES-CBC and -CTR also have the bitsliced, constant-time code beside the tables */
        if (strncmp(a->id, "aes-", 4) == 0 && !strstr(a->id, "gcm")) {
            const struct impl *ct = registry_find(a->id, "portable-ct");
            CHECK(ct && ct->path == PATH_C && ct->check(ct, why, sizeof why) == 0 && ct->note &&
                      strstr(ct->note, "constant time"),
                  "%s: no available portable-ct impl on path c with its note", a->id);
        }
    }
}

int main(void)
{
    registered();
    kat_aes();
    kat_chacha();
    kat_poly1305();
    kat_digest_file("evpmd_md.txt", 3);
    kat_digest_file("evpmd_sha.txt", 4);
    kat_idea();
    CHECK(used[3] >= 7 && used[4] >= 9, "too few digest vectors (%d md, %d sha)", used[3],
          used[4]);
    return check_done();
}
