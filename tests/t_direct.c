/* The direct backend (asm/x86_64 kernels, backends/direct*.c):
 *  - known answers from the standards' vectors in tests/vectors/ (OpenSSL's copies, each
 *    record's Title names its source): FIPS-197 / SP 800-38A (CBC, CTR), RFC 3686 (CTR), the
 *    GCM specification test cases (GCM, run through the CTR and GHASH kernels with the
 *    vector's own AAD), FIPS 180-4 / RFC 6234 examples (SHA-1, SHA-256);
 *  - differential tests against OpenSSL EVP through the impl table's init/op: every length
 *    0..4096 (block multiples for CBC; AEADs also at a few up to 32 KiB), out of place at odd
 *    offsets and in place, chains of ops split at random lengths, CTR counters about to
 *    carry, GCM decryption and forged tags;
 *  - the stitched GCM kernels leave no round key, key stream or whitened counter in %xmm0..15
 *    or in the 256 bytes under the stack pointer (check_gcm_wipe, through an asm shim);
 *  - the instructions: each kernel's code holds the crypto instruction it is named for, and
 *    availability follows CPUID and ACCELSCOPE_DENY (tests/deny.sh runs this binary with each
 *    feature denied): a denied impl says so, and every other implementation of its algorithm
 *    still gives OpenSSL's output (the fallback the engine would pick).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "algo.h"
#include "check.h"
#include "cpu.h"
#include "all.h"
#include "registry.h"
#include "vectors.h"

#if defined(__x86_64__)

#include "direct.h"
#include "direct_x86.h"

#define MAXLEN 4096
#define LONGLEN (2048 * 16) /* the longest AEAD message (diff_lengths) */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

/* ---- OpenSSL references ---- */
static int evp_cipher(const char *name, const uint8_t *key, const uint8_t *iv, int enc,
                      const uint8_t *in, size_t len, uint8_t *out)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ol = 0, fl = 0, ok = c && x && EVP_CipherInit_ex(x, c, NULL, key, iv, enc) &&
                                EVP_CIPHER_CTX_set_padding(x, 0) &&
                                EVP_CipherUpdate(x, out, &ol, in, (int)len) &&
                                EVP_CipherFinal_ex(x, out + ol, &fl);
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return ok ? 0 : -1;
}

/* GCM sealing with alen bytes of AAD: out = ct || tag. */
static int evp_seal_aad(const char *name, const uint8_t *key, const uint8_t *nonce,
                        const uint8_t *aad, size_t alen, const uint8_t *in, size_t len,
                        uint8_t *out)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ol = 0, fl = 0, al = 0;
    int ok = c && x && EVP_EncryptInit_ex(x, c, NULL, NULL, NULL) &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) &&
             EVP_EncryptInit_ex(x, NULL, NULL, key, nonce) &&
             (alen == 0 || EVP_EncryptUpdate(x, NULL, &al, aad, (int)alen)) &&
             EVP_EncryptUpdate(x, out, &ol, in, (int)len) &&
             EVP_EncryptFinal_ex(x, out + ol, &fl) &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, out + len);
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return ok ? 0 : -1;
}

/* One AEAD op as src/impl.h has it: algo_aad, out = ct || tag. */
static int evp_seal(const char *name, const uint8_t *key, const uint8_t *nonce,
                    const uint8_t *in, size_t len, uint8_t *out)
{
    return evp_seal_aad(name, key, nonce, algo_aad, ALGO_AAD_LEN, in, len, out);
}

static int evp_reference(const struct algo *a, const uint8_t *key, const uint8_t *iv,
                         int decrypt, const uint8_t *in, size_t len, uint8_t *out)
{
    switch (a->kind) {
    case ALGO_CIPHER: return evp_cipher(a->evp, key, iv, !decrypt, in, len, out);
    case ALGO_AEAD: return evp_seal(a->evp, key, iv, in, len, out);
    case ALGO_DIGEST: {
        unsigned ol = 0;
        return EVP_Digest(in, len, out, &ol, EVP_get_digestbyname(a->evp), NULL) ? 0 : -1;
    }
    default: return -1;
    }
}

/* ---- the impl table's entry points ---- */
struct run {
    const struct impl *im;
    void *ctx;
};

static int run_init(struct run *r, const struct impl *im, const uint8_t *key, const uint8_t *iv,
                    int decrypt)
{
    char why[256];
    r->im = im;
    r->ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
    if (!r->ctx)
        return -1;
    if (im->init(im, r->ctx, key, iv, decrypt, why, sizeof why) != 0) {
        printf("init %s/%s: %s\n", im->alg, im->name, why);
        free(r->ctx);
        r->ctx = NULL;
        return -1;
    }
    return 0;
}

static void run_done(struct run *r)
{
    if (r->ctx && r->im->cleanup)
        r->im->cleanup(r->ctx);
    free(r->ctx);
    r->ctx = NULL;
}

/* init + one op; -1 on init failure, else op's code. */
static int one_op(const struct impl *im, const uint8_t *key, const uint8_t *iv, int decrypt,
                  uint8_t *out, const uint8_t *in, size_t len)
{
    struct run r;
    if (run_init(&r, im, key, iv, decrypt) != 0)
        return -1;
    int rc = im->op(r.ctx, out, in, len);
    run_done(&r);
    return rc;
}

/* ---- known answers ---- */
/* GCM from the kernels with any AAD (the impl op fixes algo_aad): SP 800-38D 7.1. */
static void gcm_kernels(const uint8_t *key, size_t klen, const uint8_t iv[12],
                        const uint8_t *aad, size_t alen, const uint8_t *pt, size_t len,
                        uint8_t *ct, uint8_t tag[16])
{
    static const uint8_t zero[16];
    struct direct_aes_key k;
    struct direct_ghash_key gk;
    uint8_t h[16], j0[16], ctr[16], y[16] = { 0 }, b[16];
    direct_aes_set_encrypt_key(&k, key, (unsigned)klen * 8);
    direct_aes_encrypt_block(&k, h, zero);
    direct_ghash_init(&gk, h);
    memcpy(j0, iv, 12);
    j0[12] = j0[13] = j0[14] = 0, j0[15] = 1;
    memcpy(ctr, j0, 16);
    ctr[15] = 2;
    for (size_t off = 0; off < alen; off += 16) {
        memset(b, 0, 16);
        memcpy(b, aad + off, alen - off < 16 ? alen - off : 16);
        direct_ghash(y, &gk, b, 1);
    }
    for (size_t off = 0; off < len; off += 16) {
        size_t n = len - off < 16 ? len - off : 16;
        memset(b, 0, 16);
        memcpy(b, pt + off, n);
        direct_aes_ctr(&k, b, b, 1, ctr);
        memcpy(ct + off, b, n);
        memset(b + n, 0, 16 - n);
        direct_ghash(y, &gk, b, 1);
    }
    uint64_t ab = alen * 8, cb = len * 8;
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(ab >> (56 - 8 * i)), b[8 + i] = (uint8_t)(cb >> (56 - 8 * i));
    direct_ghash(y, &gk, b, 1);
    direct_aes_encrypt_block(&k, tag, j0);
    for (int i = 0; i < 16; i++)
        tag[i] ^= y[i];
}

static const struct impl *direct_find(const char *alg, const char *name)
{
    size_t n;
    const struct impl *v = backend_direct.impls(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].alg, alg) == 0 && strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

static int usable(const struct impl *im)
{
    char why[256];
    return im && im->check(im, why, sizeof why) == 0;
}

/* One GCM record through every usable direct GCM impl of its algorithm (stitched and
 * two-pass), sealed and opened in place with the record's own AAD; the impls it ran. */
static int kat_gcm_impls(const char *alg, const uint8_t *key, const uint8_t *iv,
                         const uint8_t *aad, size_t al, const uint8_t *pt, const uint8_t *ct,
                         const uint8_t *tag, size_t pl, const char *where)
{
    size_t n;
    const struct impl *v = backend_direct.impls(&n);
    int ran = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(v[i].alg, alg) != 0 || v[i].op != direct_x86_gcm_op || !usable(&v[i]))
            continue;
        uint8_t buf[MAXLEN + 16];
        struct run r;
        memcpy(buf, pt, pl);
        int ok = run_init(&r, &v[i], key, iv, 0) == 0 &&
                 direct_x86_gcm_aad_op(r.ctx, aad, al, buf, buf, pl) == 0 &&
                 memcmp(buf, ct, pl) == 0 && memcmp(buf + pl, tag, 16) == 0;
        run_done(&r);
        ok = ok && run_init(&r, &v[i], key, iv, 1) == 0 &&
             direct_x86_gcm_aad_op(r.ctx, aad, al, buf, buf, pl) == 0 &&
             memcmp(buf, pt, pl) == 0;
        run_done(&r);
        CHECK(ok, "%s/%s %s", alg, v[i].name, where);
        ran++;
    }
    return ran;
}

static void kat_ciphers(void)
{
    struct vec_file vf;
    struct vec_rec r = { 0 };
    int n_cbc = 0, n_ctr = 0, n_gcm = 0, n_gcm_impl = 0;
    if (vec_open(&vf, "evpciph_aes_common.txt") != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    while (vec_next(&vf, &r) == 1) {
        if (strcmp(r.kind, "Cipher") != 0 || !r.alg || vec_negative(&r))
            continue;
        char alg[32];
        snprintf(alg, sizeof alg, "%s", r.alg);
        for (char *p = alg; *p; p++)
            *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
        size_t kl, ivl, pl, cl, al, tl;
        const uint8_t *key = vec_get(&r, "Key", &kl), *iv = vec_get(&r, "IV", &ivl);
        const uint8_t *pt = vec_get(&r, "Plaintext", &pl), *ct = vec_get(&r, "Ciphertext", &cl);
        if (!key || !pt || !ct || pl != cl || pl > MAXLEN)
            continue;
        uint8_t out[MAXLEN + 64];
        if (strstr(alg, "-gcm")) {
            const uint8_t *aad = vec_get(&r, "AAD", &al), *tag = vec_get(&r, "Tag", &tl);
            if (!iv || ivl != 12 || !tag || tl != 16 || !vec_for_op(&r, 0) ||
                !usable(direct_find("aes-128-gcm", "direct")))
                continue;
            uint8_t t[16];
            gcm_kernels(key, kl, iv, aad, aad ? al : 0, pt, pl, out, t);
            CHECK(memcmp(out, ct, pl) == 0 && memcmp(t, tag, 16) == 0,
                  "GCM kernels %s:%d [%s]", vf.path, r.line, r.title);
            n_gcm++;
            char where[700];
            snprintf(where, sizeof where, "%s:%d [%s]", vf.path, r.line, r.title);
            n_gcm_impl += kat_gcm_impls(alg, key, iv, aad, aad ? al : 0, pt, ct, tag, pl, where);
            continue;
        }
        int cbc = strstr(alg, "-cbc") != NULL, ctr = strstr(alg, "-ctr") != NULL;
        const struct impl *im = (cbc || ctr) ? direct_find(alg, "direct") : NULL;
        if (!usable(im))
            continue;
        for (int dec = 0; dec <= 1; dec++) {
            if (!vec_for_op(&r, dec))
                continue;
            memcpy(out, dec ? ct : pt, pl);
            int rc = one_op(im, key, iv, dec, out, out, pl); /* in place */
            CHECK(rc == 0 && memcmp(out, dec ? pt : ct, pl) == 0, "%s %s %s:%d [%s]", alg,
                  dec ? "decrypt" : "encrypt", vf.path, r.line, r.title);
            *(cbc ? &n_cbc : &n_ctr) += 1;
        }
    }
    vec_rec_free(&r);
    vec_close(&vf);
    if (usable(direct_find("aes-128-cbc", "direct")))
        CHECK(n_cbc >= 12, "too few CBC vectors ran: %d", n_cbc);
    if (usable(direct_find("aes-128-ctr", "direct")))
        CHECK(n_ctr >= 6, "too few CTR vectors ran: %d", n_ctr);
    if (usable(direct_find("aes-128-gcm", "direct")))
        CHECK(n_gcm >= 8 && n_gcm_impl >= 8, "too few GCM vectors ran: %d (%d through "
              "the impls)", n_gcm, n_gcm_impl);
}

static void kat_digests(void)
{
    struct vec_file vf;
    struct vec_rec r = { 0 };
    int ran = 0;
    if (vec_open(&vf, "evpmd_sha.txt") != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    while (vec_next(&vf, &r) == 1) {
        const char *alg = vec_is(&r, "Digest", "SHA1") ? "sha1"
                          : vec_is(&r, "Digest", "SHA256") ? "sha256" : NULL;
        const struct impl *im = alg ? direct_find(alg, "direct") : NULL;
        if (!usable(im))
            continue;
        size_t len = 0, ol = 0;
        uint8_t *msg = vec_input(&r, &len);
        const uint8_t *want = vec_get(&r, "Output", &ol);
        uint8_t md[64];
        CHECK(msg && want && one_op(im, NULL, NULL, 0, md, msg, len) == 0 &&
                  memcmp(md, want, ol) == 0,
              "%s %s:%d [%s]", alg, vf.path, r.line, r.title);
        free(msg);
        ran++;
    }
    vec_rec_free(&r);
    vec_close(&vf);
    if (usable(direct_find("sha256", "direct")))
        CHECK(ran >= 6, "too few SHA vectors ran: %d", ran);
}

/* ---- differential ---- */
/* One length against OpenSSL: out of place at an odd offset and in place; a cipher decrypted
 * back, an AEAD opened and a forged tag refused. 1 when all agree. */
static int diff_length(const struct impl *im, const struct algo *a, size_t len)
{
    static uint8_t in[LONGLEN + 80], want[LONGLEN + 80], got[LONGLEN + 80], buf[LONGLEN + 80];
    uint8_t key[32], iv[16];
    size_t off = len % 7; /* unaligned buffers */
    fill(key, sizeof key), fill(iv, sizeof iv), fill(in, len + off);
    const uint8_t *src = in + off;
    if (evp_reference(a, key, iv, 0, src, len, want) != 0) {
        CHECK(0, "%s: OpenSSL reference failed at %zu", a->id, len);
        return 0;
    }
    size_t olen = algo_out_len(a, len);
    int rc = one_op(im, key, iv, 0, got + 1, src, len);
    memcpy(buf, src, len);
    int rc2 = one_op(im, key, iv, 0, buf, buf, len);
    int ok = rc == 0 && rc2 == 0 && memcmp(got + 1, want, olen) == 0 &&
             memcmp(buf, want, olen) == 0;
    if (ok && a->kind == ALGO_CIPHER) { /* decrypt back, in place */
        memcpy(buf, want, len);
        ok = one_op(im, key, iv, 1, buf, buf, len) == 0 && memcmp(buf, src, len) == 0;
    }
    if (ok && a->kind == ALGO_AEAD) { /* open, in place; then a forged tag */
        memcpy(buf, want, len + 16);
        ok = one_op(im, key, iv, 1, buf, buf, len) == 0 && memcmp(buf, src, len) == 0;
        memcpy(buf, want, len + 16);
        buf[len ? rnd() % len : len + rnd() % 16] ^= (uint8_t)(1u << (rnd() % 8));
        ok = ok && one_op(im, key, iv, 1, buf, buf, len) != 0;
    }
    CHECK(ok, "%s/%s length %zu differs from OpenSSL", a->id, im->name, len);
    return ok;
}

/* Every length 0..MAXLEN (block multiples for CBC); AEADs also at some past it, where the zmm
 * GCM kernel's 32-block groups (paired, one reduction per 64 blocks) run many times: 96
 * blocks and a tail, 1024 and 1056 blocks, 1119 and 2047 with tails (a group alone, then
 * the smaller kernels), 2048. */
static void diff_lengths(const struct impl *im, const struct algo *a)
{
    static const size_t longer[] = { 96 * 16 + 7,    1024 * 16, 1056 * 16,
                                     1119 * 16 + 5, 2047 * 16 + 15, LONGLEN };
    size_t step = a->block > 1 ? a->block : 1;
    int bad = 0;
    for (size_t len = 0; len <= MAXLEN && bad < 5; len += step)
        bad += !diff_length(im, a, len);
    for (size_t i = 0; a->kind == ALGO_AEAD && i < sizeof longer / sizeof longer[0]; i++)
        diff_length(im, a, longer[i]);
}

/* A chain of ops of random lengths must equal one OpenSSL pass (CBC IV, CTR counter and
 * key-stream position carried across ops). */
static void diff_chain(const struct impl *im, const struct algo *a, const uint8_t *iv_in)
{
    enum { LEN = 3 * MAXLEN };
    static uint8_t in[LEN], want[LEN], got[LEN];
    uint8_t key[32], iv[16];
    fill(key, sizeof key), fill(in, LEN);
    if (iv_in)
        memcpy(iv, iv_in, 16);
    else
        fill(iv, 16);
    for (int dec = 0; dec <= 1; dec++) {
        struct run r;
        CHECK(evp_cipher(a->evp, key, iv, !dec, in, LEN, want) == 0, "%s reference", a->id);
        if (run_init(&r, im, key, iv, dec) != 0) {
            CHECK(0, "%s init", a->id);
            return;
        }
        memcpy(got, in, LEN);
        int rc = 0;
        for (size_t off = 0; off < LEN;) {
            size_t n = rnd() % 700;
            n -= n % a->block;
            if (n > LEN - off)
                n = LEN - off;
            rc |= im->op(r.ctx, got + off, got + off, n); /* in place */
            off += n;
        }
        run_done(&r);
        CHECK(rc == 0 && memcmp(got, want, LEN) == 0, "%s/%s %s chain differs from OpenSSL%s",
              a->id, im->name, dec ? "decrypt" : "encrypt", iv_in ? " (counter carry)" : "");
    }
}

/* Successive AEAD ops advance the nonce as algo_nonce_next says, its counter (bytes 4..11)
 * starting two ops short of a carry into byte 10, into byte 7 (from the last four bytes into
 * the four before: backends/direct_x86.c j0_next keeps them in two words) and of wrapping to
 * 0. Opening does not advance it: the same message opens twice on one context. */
static void diff_aead_sequence(const struct impl *im, const struct algo *a)
{
    uint8_t key[32], nonce[12], in[1000], want[1100], got[1100];
    for (int carry = 11; carry >= 4; carry -= carry == 11 ? 3 : 4) { /* 11, 8, 4 */
        struct run r;
        fill(key, 32), fill(nonce, 12);
        memset(nonce + carry, 0xff, (size_t)(12 - carry));
        nonce[11] = 0xfe; /* the third op's nonce has carried out of bytes carry..11 */
        if (run_init(&r, im, key, nonce, 0) != 0) {
            CHECK(0, "%s init", a->id);
            return;
        }
        for (int i = 0; i < 4; i++) {
            size_t len = rnd() % sizeof in;
            fill(in, len);
            evp_seal(a->evp, key, nonce, in, len, want);
            CHECK(im->op(r.ctx, got, in, len) == 0 && memcmp(got, want, len + 16) == 0,
                  "%s/%s op %d of a sequence (carry from byte %d) differs from OpenSSL", a->id,
                  im->name, i, carry);
            algo_nonce_next(nonce);
        }
        run_done(&r);
    }
    size_t len = rnd() % sizeof in;
    struct run r;
    fill(in, len);
    evp_seal(a->evp, key, nonce, in, len, want);
    if (run_init(&r, im, key, nonce, 1) != 0) {
        CHECK(0, "%s init (decrypt)", a->id);
        return;
    }
    for (int i = 0; i < 2; i++)
        CHECK(im->op(r.ctx, got, want, len) == 0 && memcmp(got, in, len) == 0,
              "%s/%s open %d of one message on one context fails (the nonce moved?)", a->id,
              im->name, i);
    run_done(&r);
}

/* direct_x86_gcm_aad_op seals pt (len bytes, copied to sin) into sout and opens a copy of
 * want (OpenSSL's ct || tag, in oin) into oout; 1 when both give what OpenSSL gives. sin,
 * sout, oin and oout may be one buffer (in place). *r is left on the opening context, or on
 * none where the sealing failed or an init did: the caller ends it with run_done. */
static int gcm_seal_open(struct run *r, const struct impl *im, const uint8_t *key,
                         const uint8_t *nonce, const uint8_t *aad, size_t alen, uint8_t *sin,
                         uint8_t *sout, uint8_t *oin, uint8_t *oout, const uint8_t *pt,
                         const uint8_t *want, size_t len)
{
    memcpy(sin, pt, len);
    int ok = run_init(r, im, key, nonce, 0) == 0 &&
             direct_x86_gcm_aad_op(r->ctx, aad, alen, sout, sin, len) == 0 &&
             memcmp(sout, want, len + 16) == 0;
    run_done(r);
    memmove(oin, want, len + 16);
    return ok && run_init(r, im, key, nonce, 1) == 0 &&
           direct_x86_gcm_aad_op(r->ctx, aad, alen, oout, oin, len) == 0 &&
           memcmp(oout, pt, len) == 0;
}

/* GCM with any AAD (the op fixes algo_aad's 13 bytes): direct_x86_gcm_aad_op against
 * OpenSSL at random lengths 0..4096 (and each group edge) with random AAD of 0..299 bytes, in
 * place, sealed and opened; a flipped AAD bit must be refused. */
static void diff_gcm_aad(const struct impl *im, const struct algo *a)
{
    static uint8_t in[MAXLEN + 16], want[MAXLEN + 16], buf[MAXLEN + 16], aad[300];
    uint8_t key[32], nonce[12];
    int bad = 0;
    for (int t = 0; t < 300 && bad < 5; t++) {
        size_t len = t < 40 ? (size_t)(t / 4) * 128 + (size_t)t % 4 * 16 - (t % 4 == 3)
                            : rnd() % (MAXLEN + 1);
        size_t alen = t % 5 == 0 ? 0 : rnd() % sizeof aad;
        struct run r;
        fill(key, 32), fill(nonce, 12), fill(in, len), fill(aad, alen);
        CHECK(evp_seal_aad(a->evp, key, nonce, aad, alen, in, len, want) == 0, "reference");
        int ok = gcm_seal_open(&r, im, key, nonce, aad, alen, buf, buf, buf, buf, in, want, len);
        if (ok && alen) {
            memcpy(buf, want, len + 16);
            aad[rnd() % alen] ^= (uint8_t)(1u << (rnd() % 8));
            ok = direct_x86_gcm_aad_op(r.ctx, aad, alen, buf, buf, len) != 0;
        }
        run_done(&r);
        CHECK(ok, "%s/%s: length %zu with %zu bytes of AAD differs from OpenSSL", a->id,
              im->name, len, alen);
        bad += !ok;
    }
}

/* A span of n bytes flush against an inaccessible page: at the end of the pages before it
 * (end 1) or at the start of those after it (end 0). Pages kept for the whole run. */
static uint8_t *guarded(int which, size_t n, int end)
{
    static uint8_t *base[3];
    static size_t pg;
    enum { DATA = 2 }; /* pages of data between the two guards */
    if (!base[which]) {
        pg = (size_t)sysconf(_SC_PAGESIZE);
        void *m = mmap(NULL, (DATA + 2) * pg, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED || mprotect(m, pg, PROT_NONE) ||
            mprotect((uint8_t *)m + (DATA + 1) * pg, pg, PROT_NONE))
            abort();
        base[which] = (uint8_t *)m + pg;
    }
    return end ? base[which] + DATA * pg - n : base[which];
}

/* The op reads the AAD, the input and the tag, and writes the output, within their bytes:
 * each of them flush against a page no access may touch (PROT_NONE: a byte past or before
 * ends the test by SIGSEGV), at the start of its own and at its end, every AAD and message
 * length 0..40 (every partial block, the zero-padded AAD's wide loads) and some longer ones,
 * sealed and opened out of place against OpenSSL. */
static void guard_gcm(const struct impl *im, const struct algo *a)
{
    static uint8_t pt[400], want[416];
    uint8_t key[32], nonce[12];
    int bad = 0;
    for (size_t k = 0; k < 41 * 41 + 40 && bad < 5; k++) {
        size_t alen = k < 41 * 41 ? k / 41 : rnd() % 300;
        size_t len = k < 41 * 41 ? k % 41 : 41 + rnd() % (sizeof pt - 41);
        for (int end = 0; end < 2; end++) {
            uint8_t *aad = guarded(0, alen, end);
            struct run r;
            fill(key, 32), fill(nonce, 12), fill(pt, len), fill(aad, alen);
            CHECK(evp_seal_aad(a->evp, key, nonce, aad, alen, pt, len, want) == 0, "reference");
            /* sealing: pt in, ct || tag out; opening: ct || tag in, pt out */
            int ok = gcm_seal_open(&r, im, key, nonce, aad, alen, guarded(1, len, end),
                                   guarded(2, len + 16, end), guarded(1, len + 16, end),
                                   guarded(2, len, end), pt, want, len);
            run_done(&r);
            CHECK(ok, "%s/%s: %zu bytes with %zu of AAD, each against a guard page (%s)",
                  a->id, im->name, len, alen, end ? "at its end" : "at its start");
            bad += !ok;
        }
    }
}

typedef size_t gcm_kernel(const struct direct_aes_key *, const struct direct_ghash_key *,
                          struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t);

enum { GCM_NB = 160 }; /* five groups of the widest kernel (32), ten of the ymm one: past a
                       * reduction of four groups (GCM_ENC_LAG2) with each remainder */

/* A stitched kernel's counter is GCM's inc32 (SP 800-38D 6.2: the low 32 bits wrap, the
 * rest stays), and the state it leaves (next counter, GHASH of its ciphertext) carries on:
 * checked against single blocks E(ctr) and direct_ghash over a counter whose last byte
 * carries mid-call, from counter bytes 12..14 = mid (0xffffff: the 32 bits wrap), NB blocks
 * (a whole number of groups, at most GCM_NB) asked for with group - 1 more. */
/* A kernel's AES key and GHASH key (H = E_K(0), its powers as the kernels read them). */
static void gcm_kernel_keys(struct direct_aes_key *k, struct direct_ghash_key *gk,
                            const uint8_t *key, unsigned bits)
{
    static const uint8_t zero[16];
    uint8_t h[16];
    direct_aes_set_encrypt_key(k, key, bits);
    direct_aes_encrypt_block(k, h, zero);
    direct_ghash_init(gk, h);
    direct_ghash_shift(gk);
}

/* What a kernel must make of nb blocks at in: E(ctr) ^ in block by block, the counter
 * stepped as inc32 (left in ctr), and y hashed over the ciphertext (in when decrypting). */
static void gcm_kernel_ref(const struct direct_aes_key *k, const struct direct_ghash_key *gk,
                           uint8_t ctr[16], uint8_t y[16], const uint8_t *in, uint8_t *want,
                           size_t nb, int decrypt)
{
    uint8_t ks[16];
    for (size_t b = 0; b < nb; b++) {
        direct_aes_encrypt_block(k, ks, ctr);
        for (int i = 0; i < 16; i++)
            want[b * 16 + i] = in[b * 16 + i] ^ ks[i];
        for (int i = 15; i >= 12 && ++ctr[i] == 0; i--)
            ;
    }
    direct_ghash(y, gk, decrypt ? in : want, nb);
}

static void check_gcm_inc32(gcm_kernel *fn, int decrypt, size_t group, unsigned mid,
                            unsigned start, unsigned bits, size_t NB, const char *name)
{
    /* got: a widest group (32 blocks) of room past the most asked for, for the canary */
    uint8_t key[32], in[GCM_NB * 16], got[(GCM_NB + 32) * 16], want[GCM_NB * 16], ctr[16],
        y[16];
    struct direct_aes_key k;
    struct direct_ghash_key gk;
    struct direct_gcm_state st;
    fill(key, sizeof key), fill(in, sizeof in), fill(st.ctr, 12), fill(st.y, 16);
    st.ctr[12] = (uint8_t)(mid >> 16), st.ctr[13] = (uint8_t)(mid >> 8);
    st.ctr[14] = (uint8_t)mid, st.ctr[15] = (uint8_t)start;
    gcm_kernel_keys(&k, &gk, key, bits);
    memcpy(ctr, st.ctr, 16), memcpy(y, st.y, 16);
    gcm_kernel_ref(&k, &gk, ctr, y, in, want, NB, decrypt);
    memset(got, 0xa5, sizeof got); /* past NB blocks, nothing may be written */
    size_t done = fn(&k, &gk, &st, got, in, NB + group - 1);
    int kept = 1;
    for (size_t i = NB * 16; i < sizeof got; i++)
        kept &= got[i] == 0xa5;
    CHECK(done == NB && memcmp(got, want, NB * 16) == 0 && memcmp(st.ctr, ctr, 16) == 0 &&
              memcmp(st.y, y, 16) == 0 && kept,
          "%s AES-%u from ...%06x%02x, %zu blocks: %zu done, output, counter or GHASH "
          "differs across the carry, or bytes past them written", name, bits, mid, start, NB,
          done);
}

/* Every last counter byte a group can start from near the carry: the kernels step that byte
 * alone while it cannot carry, so each side of that bound is met; with the 32 bits wrapping
 * and with a carry that stops in byte 14 (a kernel that rebuilt bytes 12..14 wrongly after a
 * carry, or only wrapped them, would pass the first alone). Every key size: AES-192
 * has no GCM row (the kernels' 12-round path is reached from here only), and the zmm kernel
 * takes AES-192/256's later round keys from memory (ZROUNDS far). */
static void check_gcm_wraps(gcm_kernel *enc, gcm_kernel *dec, size_t group, const char *name)
{
    static const unsigned mids[] = { 0xffffff, 0x123456 };
    for (size_t m = 0; m < sizeof mids / sizeof mids[0]; m++)
        for (unsigned bits = 128; bits <= 256; bits += 64)
            for (unsigned start = 0x100 - 2 * (unsigned)group; start <= 0xff; start++) {
                check_gcm_inc32(enc, 0, group, mids[m], start, bits, GCM_NB, name);
                check_gcm_inc32(dec, 1, group, mids[m], start, bits, GCM_NB, name);
            }
    /* every number of groups up to GCM_NB: the encryption kernels' ends differ by it (one
     * group hashed alone, a pair, a pair's second left open: GCM_ENC_LAG2) */
    for (unsigned bits = 128; bits <= 256; bits += 64)
        for (size_t nb = group; nb <= GCM_NB; nb += group) {
            unsigned start = 0x100 - (unsigned)(nb % 0x100 / 2 + 1);
            check_gcm_inc32(enc, 0, group, 0xffffff, start, bits, nb, name);
            check_gcm_inc32(dec, 1, group, 0xffffff, start, bits, nb, name);
        }
}

/* Each kernel in place and out of place, its input and output each flush against a page no
 * access may touch (guarded: a read or write past them ends the test by SIGSEGV) at their
 * end and at their start, every whole number of groups up to GCM_NB, AES-128 and AES-256,
 * against gcm_kernel_ref: what the rows' own guard and in-place tests give the kernel a row
 * runs, for every kernel on every machine that can run it (on a machine with AVX-512VL the
 * SSE and VEX forms are no row's, nor the xmm EVEX form's schoolbook _vl on AMD's cores or
 * its Karatsuba _vlk elsewhere: direct_x86_gcm_xmm_kara). */
static void check_gcm_guarded(gcm_kernel *fn, int decrypt, size_t group, const char *name)
{
    uint8_t key[32], src[GCM_NB * 16], want[GCM_NB * 16], ctr[16], y[16];
    struct direct_aes_key k;
    struct direct_ghash_key gk;
    struct direct_gcm_state st;
    for (unsigned bits = 128; bits <= 256; bits += 128)
        for (size_t nb = group; nb <= GCM_NB; nb += group)
            for (int end = 0; end < 2; end++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    fill(key, sizeof key), fill(src, nb * 16), fill(st.ctr, 16);
                    fill(st.y, 16);
                    gcm_kernel_keys(&k, &gk, key, bits);
                    memcpy(ctr, st.ctr, 16), memcpy(y, st.y, 16);
                    gcm_kernel_ref(&k, &gk, ctr, y, src, want, nb, decrypt);
                    uint8_t *in = guarded(1, nb * 16, end);
                    uint8_t *out = inplace ? in : guarded(2, nb * 16, end);
                    memcpy(in, src, nb * 16);
                    size_t done = fn(&k, &gk, &st, out, in, nb);
                    CHECK(done == nb && memcmp(out, want, nb * 16) == 0 &&
                              memcmp(st.ctr, ctr, 16) == 0 && memcmp(st.y, y, 16) == 0,
                          "%s %s AES-%u, %zu blocks %s, against a guard page at their %s: "
                          "%zu done, or output, counter or GHASH differs", name,
                          decrypt ? "dec" : "enc", bits, nb, inplace ? "in place" : "apart",
                          end ? "end" : "start", done);
                }
}

/* Fewer blocks than a group: a kernel does nothing and says so (0 done), before any setup
 * (the EVEX AES-NI ones make a stack frame after that exit: a call that returned through it
 * unbalanced would not come back here). The op never asks for so few; the contract
 * (asm/direct.h) allows it. */
static void check_gcm_short(gcm_kernel *enc, gcm_kernel *dec, size_t group, const char *name)
{
    uint8_t key[16], in[32 * 16], out[32 * 16];
    struct direct_aes_key k;
    struct direct_ghash_key gk;
    struct direct_gcm_state st, was;
    fill(key, sizeof key), fill(in, sizeof in), fill(st.ctr, 16), fill(st.y, 16);
    direct_aes_set_encrypt_key(&k, key, 128);
    direct_ghash_init(&gk, key);
    direct_ghash_shift(&gk);
    was = st;
    for (size_t nb = 0; nb < group; nb++)
        for (int d = 0; d < 2; d++) {
            memset(out, 0xa5, sizeof out);
            size_t done = (d ? dec : enc)(&k, &gk, &st, out, in, nb);
            int kept = 1;
            for (size_t i = 0; i < sizeof out; i++)
                kept &= out[i] == 0xa5;
            CHECK(done == 0 && kept && memcmp(&st, &was, sizeof st) == 0,
                  "%s %s of %zu blocks (under a group): %zu done, or output or state written",
                  name, d ? "dec" : "enc", nb, done);
        }
}

/* t_peek_call(fn, args, below, n, xmm): fn(args[0..5]) with the n bytes below this shim's
 * stack pointer first set to 0xa5, then %xmm0..15 as fn left them into xmm (256 bytes) and
 * those n bytes into below, before anything else can touch them; fn's return value. The
 * kernels promise to leave no key, key stream or whitened counter in registers or in the
 * stack they used (asm/direct.h; LEAVE in each), which only the bytes under the stack
 * pointer after the call can show; C cannot read there. */
size_t t_peek_call(void *fn, const uint64_t args[6], uint8_t *below, size_t n, uint8_t *xmm);
__asm__(".text\n"
        ".globl t_peek_call\n"
        ".hidden t_peek_call\n"
        ".type t_peek_call, @function\n"
        "t_peek_call:\n"
        "endbr64\n"
        "pushq %rbx\n pushq %r12\n pushq %r13\n pushq %r14\n pushq %r15\n"
        "movq %rdi, %rbx\n movq %rsi, %r12\n movq %rdx, %r13\n movq %rcx, %r14\n"
        "movq %r8, %r15\n"
        "movq %rsp, %rdi\n subq %r14, %rdi\n movq %r14, %rcx\n movb $0xa5, %al\n rep stosb\n"
        "movq 0(%r12), %rdi\n movq 8(%r12), %rsi\n movq 16(%r12), %rdx\n"
        "movq 24(%r12), %rcx\n movq 32(%r12), %r8\n movq 40(%r12), %r9\n"
        "call *%rbx\n"
        "movdqu %xmm0, 0(%r15)\n movdqu %xmm1, 16(%r15)\n movdqu %xmm2, 32(%r15)\n"
        "movdqu %xmm3, 48(%r15)\n movdqu %xmm4, 64(%r15)\n movdqu %xmm5, 80(%r15)\n"
        "movdqu %xmm6, 96(%r15)\n movdqu %xmm7, 112(%r15)\n movdqu %xmm8, 128(%r15)\n"
        "movdqu %xmm9, 144(%r15)\n movdqu %xmm10, 160(%r15)\n movdqu %xmm11, 176(%r15)\n"
        "movdqu %xmm12, 192(%r15)\n movdqu %xmm13, 208(%r15)\n movdqu %xmm14, 224(%r15)\n"
        "movdqu %xmm15, 240(%r15)\n"
        "movq %rsp, %rsi\n subq %r14, %rsi\n movq %r13, %rdi\n movq %r14, %rcx\n rep movsb\n"
        "popq %r15\n popq %r14\n popq %r13\n popq %r12\n popq %rbx\n"
        "ret\n"
        ".size t_peek_call, .-t_peek_call\n");

/* After a call of a few groups: no round key, whitened counter (key 0 ^ counter, or its P:
 * the counter's last byte cleared, as the table ways make it), or key stream block of the
 * call in %xmm0..15 or anywhere in the 256 bytes under the caller's stack pointer (the
 * AES-NI forms' red zone, the EVEX form's frame of up to 168 bytes). The GHASH products the
 * kernels leave (LEAVE says which) are not key material of these kinds. */
static void check_gcm_wipe(gcm_kernel *fn, int decrypt, size_t group, unsigned bits,
                           const char *name)
{
    enum { NG = 4, BELOW = 256, MAXS = 15 + 3 * (NG + 1) * 32 };
    static uint8_t secret[MAXS][16];
    uint8_t key[32], in[NG * 32 * 16], out[NG * 32 * 16], below[BELOW], xmm[256], ctr[16];
    struct direct_aes_key k;
    struct direct_ghash_key gk;
    struct direct_gcm_state st;
    size_t nb = NG * group, ns = 0;
    fill(key, sizeof key), fill(in, sizeof in), fill(st.ctr, 16), fill(st.y, 16);
    st.ctr[15] = (uint8_t)(0x100 - group); /* the carry's way in the call, and the fast one */
    direct_aes_set_encrypt_key(&k, key, bits);
    direct_ghash_init(&gk, key);
    direct_ghash_shift(&gk);
    for (unsigned r = 0; r <= k.rounds; r++)
        memcpy(secret[ns++], k.rk + 16 * r, 16);
    memcpy(ctr, st.ctr, 16);
    for (size_t b = 0; b < nb + group; b++) {
        direct_aes_encrypt_block(&k, secret[ns++], ctr);
        for (int i = 0; i < 16; i++)
            secret[ns][i] = ctr[i] ^ k.rk[i];
        memcpy(secret[ns + 1], secret[ns], 16);
        secret[ns + 1][15] = k.rk[15];
        ns += 2;
        for (int i = 15; i >= 12 && ++ctr[i] == 0; i--)
            ;
    }
    const uint64_t args[6] = { (uintptr_t)&k, (uintptr_t)&gk, (uintptr_t)&st, (uintptr_t)out,
                               (uintptr_t)in, nb };
    size_t done = t_peek_call((void *)fn, args, below, BELOW, xmm);
    int found = -1;
    size_t at = 0;
    for (size_t s = 0; s < ns && found < 0; s++) {
        for (size_t o = 0; o + 16 <= BELOW && found < 0; o++)
            if (memcmp(below + o, secret[s], 16) == 0)
                found = (int)s, at = o;
        for (size_t r = 0; r < 16 && found < 0; r++)
            if (memcmp(xmm + 16 * r, secret[s], 16) == 0)
                found = (int)s, at = 1000 + r;
    }
    char where[64] = "";
    if (found >= 0)
        snprintf(where, sizeof where, at >= 1000 ? "in %%xmm%zu" : "%zu bytes under %%rsp",
                 at >= 1000 ? at - 1000 : BELOW - at);
    CHECK(done == nb && found < 0,
          "%s %s AES-%u: %zu of %zu blocks done; secret %d left %s (0..%u the round keys, then "
          "a block's key stream, whitened counter and P; -1 none)", name,
          decrypt ? "dec" : "enc", bits, done, nb, found, where, k.rounds);
}

/* direct_ghash1, the GCM op's one-block GHASH (the lengths block, a padded last block),
 * against direct_ghash's one-block path, on random keys, states and blocks, a zero state, a
 * zero block, and the block given as the state itself (y == in). */
static void check_ghash1(void)
{
    static const uint8_t zero[16];
    if (!usable(direct_find("aes-128-gcm", "direct"))) {
        printf("UNAVAILABLE: direct_ghash1: the direct GCM rows are unavailable here\n");
        return;
    }
    for (int i = 0; i < 200; i++) {
        uint8_t key[16], h[16], y0[16], in[16], want[16], got[16];
        struct direct_aes_key k;
        struct direct_ghash_key gk;
        fill(key, 16), fill(y0, 16), fill(in, 16);
        if (i == 1 || i == 2)
            memset(i == 1 ? y0 : in, 0, 16);
        direct_aes_set_encrypt_key(&k, key, 128);
        direct_aes_encrypt_block(&k, h, zero);
        direct_ghash_init(&gk, h);
        direct_ghash_shift(&gk);
        memcpy(want, y0, 16), memcpy(got, y0, 16);
        direct_ghash(want, &gk, i == 3 ? want : in, 1);
        direct_ghash1(got, &gk, i == 3 ? got : in);
        CHECK(memcmp(got, want, 16) == 0, "direct_ghash1 differs from direct_ghash (case %d)", i);
    }
}

/* Every stitched kernel, each where the row that runs it can: the EVEX forms of the xmm and
 * ymm ones are what the direct and direct-vaes rows take where direct_x86_gcm_evex says so
 * (their tests run them there; the xmm one's schoolbook _vl, or its Karatsuba _vlk where
 * direct_x86_gcm_xmm_kara says so), so the other forms are checked only here on such
 * machines. */
static void check_gcm_kernels(void)
{
    static const struct {
        gcm_kernel *enc, *dec;
        size_t group;
        const char *name, *row;
        int evex;
    } k[] = {
        { direct_aes_gcm_enc, direct_aes_gcm_dec, 8, "direct_aes_gcm_enc/dec", "direct", 0 },
        { direct_aes_gcm_enc_vl, direct_aes_gcm_dec_vl, 8, "direct_aes_gcm_enc/dec_vl", "direct",
          1 },
        { direct_aes_gcm_enc_vlk, direct_aes_gcm_dec_vlk, 8, "direct_aes_gcm_enc/dec_vlk",
          "direct", 1 },
        { direct_aes_gcm_enc_vaes, direct_aes_gcm_dec_vaes, 16, "direct_aes_gcm_enc/dec_vaes",
          "direct-vaes", 0 },
        { direct_aes_gcm_enc_vaes_vl, direct_aes_gcm_dec_vaes_vl, 16,
          "direct_aes_gcm_enc/dec_vaes_vl", "direct-vaes", 1 },
        { direct_aes_gcm_enc_vaes512, direct_aes_gcm_dec_vaes512, 32,
          "direct_aes_gcm_enc/dec_vaes512", "direct-vaes512", 0 },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        char why[256] = "";
        if (!usable(direct_find("aes-128-gcm", k[i].row)))
            printf("UNAVAILABLE: %s: the %s rows are unavailable here\n", k[i].name, k[i].row);
        else if (k[i].evex && !direct_x86_gcm_evex(why, sizeof why))
            printf("UNAVAILABLE: %s: %s\n", k[i].name, why);
        else {
            check_gcm_wraps(k[i].enc, k[i].dec, k[i].group, k[i].name);
            check_gcm_guarded(k[i].enc, 0, k[i].group, k[i].name);
            check_gcm_guarded(k[i].dec, 1, k[i].group, k[i].name);
            check_gcm_short(k[i].enc, k[i].dec, k[i].group, k[i].name);
            for (unsigned bits = 128; bits <= 256; bits += 64)
                for (int d = 0; d < 2; d++)
                    check_gcm_wipe(d ? k[i].dec : k[i].enc, d, k[i].group, bits, k[i].name);
        }
    }
}

/* ---- the instructions ---- */
struct opcode {
    const char *kernel;
    const void *fn;
    uint8_t bytes[7];
    size_t n;
    const char *insn;
    size_t within; /* bytes from the entry searched */
};

/* Each kernel's code must contain its instruction's encoding (Intel SDM vol. 2) within its
 * first bytes (320; each kernel's first one sits within ~300; the zmm CTR kernel, which
 * first broadcasts its round keys, 400; the stitched GCM kernels, over 1.5 KiB each, 640,
 * but 4096 for the EVEX AES-NI encryption kernel's VPTERNLOGQ, first met in its third group,
 * and 1024 for the decryption one's (at 826 bytes, 2026-12-07; the encryption one's at 3572),
 * and for the SSE and VEX decryption kernels' first multiply since they hash by pairs (at 578
 * and 482 bytes, 413069f):
 * every kernel that far is still code): proof the impl's output comes
 * from the crypto instructions, not a table. */
static void check_opcodes(void)
{
    static const struct opcode ops[] = {
        { "direct_aes_cbc_encrypt", (const void *)direct_aes_cbc_encrypt,
          { 0x0f, 0x38, 0xdc }, 3, "AESENC", 320 },
        { "direct_aes_cbc_decrypt", (const void *)direct_aes_cbc_decrypt,
          { 0x0f, 0x38, 0xde }, 3, "AESDEC", 320 },
        { "direct_aes_ctr", (const void *)direct_aes_ctr, { 0x0f, 0x38, 0xdc }, 3, "AESENC",
          320 },
        { "direct_aes_ctr_vaes", (const void *)direct_aes_ctr_vaes, { 0xc4, 0xc2, 0x7d, 0xdc },
          4, "VAESENC ymm", 320 },
        /* EVEX (SDM vol. 2 2.7): 62, P0 b2 = R X' B R' set inverted for zmm17 as the
         * source, map 0F38; P1 7d = W0, vvvv zmm0, 66; P2 48 = L'L 10 (512 bit), V' 1; DC
         * = VAESENC, ModRM c1 (zmm0, zmm17). Sixteen key broadcasts come first: 400. */
        { "direct_aes_ctr_vaes512", (const void *)direct_aes_ctr_vaes512,
          { 0x62, 0xb2, 0x7d, 0x48, 0xdc, 0xc1 }, 6, "VAESENC zmm", 400 },
        { "direct_ghash", (const void *)direct_ghash, { 0x0f, 0x3a, 0x44 }, 3,
          "PCLMULQDQ", 320 },
        { "direct_ghash1", (const void *)direct_ghash1, { 0x0f, 0x3a, 0x44 }, 3, "PCLMULQDQ",
          64 },
        /* the stitched kernels set up two ways of counting first; each is over 1.5 KiB */
        { "direct_aes_gcm_enc", (const void *)direct_aes_gcm_enc, { 0x0f, 0x38, 0xdc }, 3,
          "AESENC", 640 },
        { "direct_aes_gcm_dec", (const void *)direct_aes_gcm_dec, { 0x0f, 0x3a, 0x44 }, 3,
          "PCLMULQDQ", 1024 },
        { "direct_aes_gcm_enc_vaes", (const void *)direct_aes_gcm_enc_vaes,
          { 0xc4, 0xc2, 0x7d, 0xdc }, 4, "VAESENC ymm", 640 },
        { "direct_aes_gcm_dec_vaes", (const void *)direct_aes_gcm_dec_vaes,
          { 0xc4, 0x63, 0x15, 0x44 }, 4, "VPCLMULQDQ ymm", 1024 },
        /* VAESENC zmm as in direct_aes_ctr_vaes512; EVEX VPCLMULQDQ zmm9, zmm13,
         * 1984(%rsi), imm 0x00: 62, P0 73 = R X' B R' (zmm9), map 0F3A; P1 15 = W0, vvvv
         * zmm13, 66; P2 48 = 512 bit; 44, ModRM 4e (disp8, zmm9, rsi), then disp8 1f (x 64
         * by EVEX's compressed displacement: quad 7's powers, hsh48 + 192) */
        { "direct_aes_gcm_enc_vaes512", (const void *)direct_aes_gcm_enc_vaes512,
          { 0x62, 0xb2, 0x7d, 0x48, 0xdc, 0xc1 }, 6, "VAESENC zmm", 640 },
        { "direct_aes_gcm_dec_vaes512", (const void *)direct_aes_gcm_dec_vaes512,
          { 0x62, 0x73, 0x15, 0x48, 0x44, 0x4e }, 6, "VPCLMULQDQ zmm", 640 },
        /* EVEX on ymm: VAESENC ymm0, ymm0, ymm17 as above with P2 28 (L'L 01, 256 bit);
         * VPCLMULQDQ ymm9, ymm28, 2528(%rsi), imm 0x00: P0 73, P1 1d = vvvv ymm28 (with
         * V' 0 in P2 20), 44, ModRM 4e, disp8 4f (x 32: pair 7's powers, hsh64 + 224, in the
         * decryption kernel's first loop, four groups a reduction) */
        { "direct_aes_gcm_enc_vaes_vl", (const void *)direct_aes_gcm_enc_vaes_vl,
          { 0x62, 0xb2, 0x7d, 0x28, 0xdc, 0xc1 }, 6, "VAESENC ymm (EVEX)", 640 },
        { "direct_aes_gcm_dec_vaes_vl", (const void *)direct_aes_gcm_dec_vaes_vl,
          { 0x62, 0x73, 0x1d, 0x20, 0x44, 0x4e }, 6, "VPCLMULQDQ ymm (EVEX)", 640 },
        /* EVEX on xmm: VPTERNLOGQ xmm18, xmm9, xmm15, imm 0x96 (a^b^c): 62, P0 c3 = R' 0
         * (xmm18), map 0F3A; P1 b5 = W1, vvvv xmm9, 66; P2 08 = 128 bit; 25, ModRM d7. The
         * encryption kernel's first two groups multiply nothing (GCM_ENC_LAG2). */
        { "direct_aes_gcm_enc_vl", (const void *)direct_aes_gcm_enc_vl,
          { 0x62, 0xc3, 0xb5, 0x08, 0x25, 0xd7, 0x96 }, 7, "VPTERNLOGQ xmm", 4096 },
        { "direct_aes_gcm_dec_vl", (const void *)direct_aes_gcm_dec_vl,
          { 0x62, 0xc3, 0xb5, 0x08, 0x25, 0xd7, 0x96 }, 7, "VPTERNLOGQ xmm", 1024 },
        /* the Karatsuba variant's VPTERNLOGQ xmm16, xmm11, xmm14 (a pair's low products into
         * the sum): P0 c3, P1 a5 = W1, vvvv xmm11; 25, ModRM c6 (at 3792 and 1042 bytes,
         * 2026-12-07), which _vl's schoolbook sums have too; so also what only Karatsuba
         * pairs do, VPUNPCKLQDQ xmm10, xmm13, xmm9 (VEX c4 41 11: R and B extend, vvvv
         * xmm13; 6c, ModRM d1; at 3498 and 752) */
        { "direct_aes_gcm_enc_vlk", (const void *)direct_aes_gcm_enc_vlk,
          { 0x62, 0xc3, 0xa5, 0x08, 0x25, 0xc6, 0x96 }, 7, "VPTERNLOGQ xmm", 4096 },
        { "direct_aes_gcm_dec_vlk", (const void *)direct_aes_gcm_dec_vlk,
          { 0x62, 0xc3, 0xa5, 0x08, 0x25, 0xc6, 0x96 }, 7, "VPTERNLOGQ xmm", 1536 },
        { "direct_aes_gcm_enc_vlk", (const void *)direct_aes_gcm_enc_vlk,
          { 0xc4, 0x41, 0x11, 0x6c, 0xd1 }, 5, "VPUNPCKLQDQ xmm (Karatsuba pairs)", 4096 },
        { "direct_aes_gcm_dec_vlk", (const void *)direct_aes_gcm_dec_vlk,
          { 0xc4, 0x41, 0x11, 0x6c, 0xd1 }, 5, "VPUNPCKLQDQ xmm (Karatsuba pairs)", 1024 },
        { "direct_ghash_vpclmul", (const void *)direct_ghash_vpclmul, { 0xc4, 0xe3, 0x5d, 0x44 },
          4, "VPCLMULQDQ ymm", 320 },
        { "direct_sha256_blocks", (const void *)direct_sha256_blocks, { 0x0f, 0x38, 0xcb }, 3,
          "SHA256RNDS2", 320 },
        { "direct_sha1_blocks", (const void *)direct_sha1_blocks, { 0x0f, 0x3a, 0xcc }, 3,
          "SHA1RNDS4", 320 },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const uint8_t *p = ops[i].fn;
        int found = 0;
        for (size_t j = 0; j + ops[i].n <= ops[i].within && !found; j++)
            found = memcmp(p + j, ops[i].bytes, ops[i].n) == 0;
        CHECK(found, "%s holds no %s", ops[i].kernel, ops[i].insn);
    }
}

/* Availability must be exactly "every needed feature usable", and a denial must say so. */
static void check_available(const struct impl *im)
{
    const struct direct_spec *s = im->data;
    char why[256] = "", fwhy[256] = "";
    int want = 1, denied = 0, present = 1;
    for (int i = 0; i < s->nneed; i++) {
        if (!cpu_feature_status((enum feature)s->need[i], fwhy, sizeof fwhy))
            want = 0;
        denied |= cpu_denied((enum feature)s->need[i]);
        present &= cpu_get()->present[s->need[i]] && cpu_get()->enabled[s->need[i]];
    }
    int got = im->check(im, why, sizeof why) == 0;
    CHECK(got == want, "%s/%s available=%d, CPU features say %d", im->alg, im->name, got, want);
    if (!got) {
        UNAVAILABLE(im->name, why);
        CHECK(why[0] != 0, "%s/%s unavailable without a reason", im->alg, im->name);
    }
    if (denied && present) /* else the CPU's lack is the first reason */
        CHECK(!got && strstr(why, "ACCELSCOPE_DENY"), "%s/%s: denied, but why = '%s'", im->alg,
              im->name, why);
}

/* With a direct impl denied, the other implementations of its algorithm (what the engine falls
 * back to) still give OpenSSL's answers. */
static void check_fallback(const struct algo *a)
{
    static uint8_t in[2100], want[2200], got[2200];
    static const size_t lens[] = { 16, 64, 1024, 2048 };
    int tried = 0;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct impl *im = registry_get(i);
        char why[256];
        if (strcmp(im->alg, a->id) != 0 || strcmp(im->backend, "direct") == 0 ||
            im->path == PATH_KERNEL || im->check(im, why, sizeof why))
            continue;
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            uint8_t key[32], iv[16];
            fill(key, 32), fill(iv, 16), fill(in, lens[l]);
            evp_reference(a, key, iv, 0, in, lens[l], want);
            CHECK(one_op(im, key, iv, 0, got, in, lens[l]) == 0 &&
                      memcmp(got, want, algo_out_len(a, lens[l])) == 0,
                  "fallback %s/%s differs from OpenSSL at %zu", a->id, im->name, lens[l]);
        }
        tried++;
    }
    CHECK(tried > 0, "%s: direct denied and no other implementation to fall back to", a->id);
}

static void check_ctr_carry(const struct impl *im, const struct algo *a)
{
    static const char *const ivs[] = {
        "0123456789abcdefffffffffffffffe0", /* low 64 bits carry mid-chain */
        "00000000fffffffffffffffffffffff9", /* carry through the high half too */
        "ffffffffffffffffffffffffffffffd0", /* the whole 128-bit counter wraps */
        "000000000000000000000000fffffffa", /* low 32 bits carry (OpenSSL's ctr32 step) */
    };
    for (size_t i = 0; i < sizeof ivs / sizeof ivs[0]; i++) {
        uint8_t iv[16];
        check_unhex(ivs[i], iv, 16);
        diff_chain(im, a, iv);
    }
}

int main(void)
{
    size_t n;
    const struct impl *v = backend_direct.impls(&n);
    CHECK(n >= 13, "direct lists %zu impls on x86-64", n);
    check_opcodes();
    kat_ciphers();
    kat_digests();
    for (size_t i = 0; i < n; i++) {
        const struct impl *im = &v[i];
        const struct algo *a = algo_find(im->alg);
        CHECK(a && strcmp(im->backend, "direct") == 0 && im->path == PATH_HW,
              "%s/%s: unknown algorithm or wrong path", im->alg, im->name);
        if (!a)
            continue;
        check_available(im);
        char why[256];
        if (im->check(im, why, sizeof why)) {
            check_fallback(a);
            continue;
        }
        diff_lengths(im, a);
        if (a->kind == ALGO_CIPHER)
            diff_chain(im, a, NULL);
        if (a->kind == ALGO_CIPHER && a->block == 1)
            check_ctr_carry(im, a);
        if (a->kind == ALGO_AEAD) {
            diff_aead_sequence(im, a);
            diff_gcm_aad(im, a);
            guard_gcm(im, a);
        }
    }
    check_gcm_kernels();
    check_ghash1();
    return check_done();
}

#else

int main(void)
{
    size_t n;
    backend_direct.impls(&n);
    CHECK(n == 0, "direct lists %zu impls off x86-64", n);
    UNAVAILABLE("direct", "asm/x86_64 kernels run on x86-64 only");
    return check_done();
}

#endif
