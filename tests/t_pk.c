/* Public-key operations (issue 12): every implementation verifies and loops, or says why it
 * cannot; known answers (RFC 8032, RFC 7748); signatures cross between implementations and a
 * corrupted one is refused, shown by impostors that must be caught; the model (one size, the
 * groups of -a); and `run` end to end, printing ops/s for every path in CSV. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/ec.h>

#include "algo.h"
#include "check.h"
#include "derive.h"
#include "engine.h"
#include "osslcap.h"
#include "../src/csvread.h"
#include "kat.h"
#include "pk_keys.h"
#include "pk_openssl.h"
#include "pk_vectors.h"
#include "registry.h"
#include "select.h"
#include "shell.h"

static const uint8_t seed[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };

/* In-process, the asm rows run unmasked (the mask is for a worker's start-up): the same
 * EVP calls, so their verification and loop still count. Slow keys: a few loops only. */
static void loops(const struct impl *im, const struct algo *a)
{
    char why[300];
    uint8_t *in = calloc(1, ALGO_PK_BUF), *out = calloc(1, ALGO_PK_BUF), iv[ALGO_MAX_IV] = { 0 };
    void *ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
    if (!in || !out || !ctx)
        abort();
    int n = a->key_bits >= 3072 && a->pk_op == PK_SIGN ? 3 : 20, bad = 0;
    CHECK(kat_pk_input(im, seed, in, why, sizeof why) == 0, "%s/%s: timed input: %s", a->id,
          im->name, why);
    if (im->init(im, ctx, seed, iv, 0, why, sizeof why) == 0) {
        for (int i = 0; i < n; i++)
            bad += im->op(ctx, out, in, a->key_bits) != 0;
        if (im->cleanup)
            im->cleanup(ctx);
        CHECK(!bad, "%s/%s: %d of %d ops failed in a loop", a->id, im->name, bad, n);
    } else {
        CHECK(0, "%s/%s: init: %s", a->id, im->name, why);
    }
    free(ctx);
    free(in);
    free(out);
}

static int post_quantum(const struct algo *a)
{
    return !strcmp(a->family, "ml-kem") || !strcmp(a->family, "ml-dsa");
}

static void test_every_impl(void)
{
    int verified = 0;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct impl *im = registry_get(i);
        const struct algo *a = algo_find(im->alg);
        char why[300], ref[64];
        if (a->kind != ALGO_PKEY)
            continue;
        if (im->check(im, why, sizeof why)) {
            UNAVAILABLE(im->alg, why);
            CHECK(*why, "%s/%s: unavailable without a reason", im->alg, im->name);
            if (post_quantum(a) && OpenSSL_version_num() < 0x30500000L)
                CHECK(strstr(why, "needs OpenSSL >= 3.5") != NULL, "%s: %s", im->alg, why);
            continue;
        }
        CHECK(!post_quantum(a) || OpenSSL_version_num() >= 0x30500000L,
              "%s offered by an OpenSSL without it", im->alg);
        if (check_pk_capped(im->alg, a->key_bits))
            continue;
        int rc = kat_pk_verify(im, seed, ref, sizeof ref, why, sizeof why);
        CHECK(rc == 0, "%s/%s verifies: %s", im->alg, im->name, why);
        verified += rc == 0;
        if (rc == 0)
            loops(im, a);
    }
    CHECK(verified >= (getenv("ACCELSCOPE_TEST_PK_BITS") ? 8 : 14), "at least the OpenSSL rows "
          "of RSA, ECDSA, Ed25519, X25519 verified (%d)", verified);
}

/* ---- Impostors: a row (OpenSSL's or the portable one) whose output or verdict is tampered
 * with. ---- */

static const char *cur_alg, *cur_base;

static const struct impl *real_of(const struct impl *fake)
{
    return registry_find(fake->alg, cur_base);
}

static int fake_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                     int decrypt, char *why, size_t n)
{
    const struct impl *r = real_of(im);
    return r->init(r, ctx, key, iv, decrypt, why, n);
}

static int fake_check(const struct impl *im, char *why, size_t n)
{
    (void)im, (void)why, (void)n;
    return 0;
}

static void fake_cleanup(void *ctx)
{
    registry_find(cur_alg, cur_base)->cleanup(ctx);
}

/* A signature or secret with one bit flipped (for DER signatures: inside r). */
static int flip_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    int rc = registry_find(cur_alg, cur_base)->op(ctx, out, in, len);
    out[2 + 5] ^= 1;
    return rc;
}

/* A secret flipped except for src/kat_pk.c's recorded exchange (its peer seed starts with
 * 0x20): only the comparison with another implementation can catch it. */
static int flip_off_kat_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    int rc = registry_find(cur_alg, cur_base)->op(ctx, out, in, len);
    if (in[2] != 0x20)
        out[2 + 5] ^= 1;
    return rc;
}

/* A verifier that accepts anything. */
static int yes_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    registry_find(cur_alg, cur_base)->op(ctx, out, in, len);
    return 0;
}

/* The row base/alg with op in place of its own must fail verification, saying says. */
static void impostor(const char *base, const char *alg,
                     int (*op)(void *, uint8_t *, const uint8_t *, size_t), const char *says)
{
    const struct impl *r = registry_find(alg, base);
    char why[300] = "", ref[64] = "";
    if (!r || r->check(r, why, sizeof why)) {
        UNAVAILABLE(alg, r ? why : "no such row");
        return;
    }
    if (check_pk_capped(alg, algo_find(alg)->key_bits))
        return;
    cur_alg = alg;
    cur_base = base;
    struct impl fake = *r;
    fake.name = "impostor";
    fake.backend = "test";
    fake.check = fake_check;
    fake.init = fake_init;
    fake.op = op;
    fake.cleanup = fake_cleanup;
    int rc = kat_pk_verify(&fake, seed, ref, sizeof ref, why, sizeof why);
    CHECK(rc == -1 && strstr(why, says), "%s/%s impostor caught as wrong output (%d: %s)", alg,
          base, rc, why);
}

static void test_impostors(void)
{
    impostor("openssl", "rsa2048-sign", flip_op, "known answer");
    impostor("openssl", "rsa3072-sign", flip_op, "does not verify");
    impostor("openssl", "ed25519-sign", flip_op, "known answer");
    impostor("openssl", "rsa2048-verify", yes_op, "accepts a corrupted");
    impostor("openssl", "x25519", flip_op, "known answer");
    /* ECDSA, ECDH, DSA: an OpenSSL signer has no verifier of its own name here, so only the
     * portable reference's verify can catch it; a bad secret only the portable one's. */
    static const char *const signers[] = { "ecdsa-p256-sign", "ecdsa-p384-sign",
                                           "dsa2048-sign" };
    static const char *const verifiers[] = { "ecdsa-p256-verify", "ecdsa-p384-verify",
                                             "dsa2048-verify" };
    for (int b = 0; b < 2; b++) {
        const char *base = b ? "portable" : "openssl";
        for (int i = 0; i < 3; i++) {
            impostor(base, signers[i], flip_op, "does not verify");
            impostor(base, verifiers[i], yes_op, "accepts a corrupted");
        }
        impostor(base, "ecdh-p256", flip_op, "known answer");
        impostor(base, "ecdh-p256", flip_off_kat_op, "differs from");
    }
}

/* The OpenSSL ECDSA, ECDH and DSA rows are verified against the portable code now (issue
 * 12: a second implementation), and the portable rows against OpenSSL's. */
static void test_references(void)
{
    static const char *const algs[] = { "ecdsa-p256-sign", "ecdsa-p256-verify",
                                         "ecdsa-p384-sign", "ecdsa-p384-verify",
                                         "ecdh-p256",       "dsa2048-sign",
                                         "dsa2048-verify" };
    for (size_t i = 0; i < sizeof algs / sizeof *algs; i++)
        for (int b = 0; b < 2; b++) {
            const char *name = b ? "portable" : "openssl", *other = b ? "openssl" : "portable";
            const struct impl *im = registry_find(algs[i], name);
            char why[300] = "", ref[64] = "";
            if (!im || im->check(im, why, sizeof why)) {
                UNAVAILABLE(algs[i], im ? why : "no such row");
                continue;
            }
            if (check_pk_capped(algs[i], algo_find(algs[i])->key_bits))
                continue;
            int rc = kat_pk_verify(im, seed, ref, sizeof ref, why, sizeof why);
            CHECK(rc == 0 && !strncmp(ref, other, strlen(other)),
                  "%s/%s verified against %s (%d, reference %s: %s)", algs[i], name, other, rc,
                  ref, why);
        }
}

/* ---- The standards' answers through OpenSSL (pk_vectors.h): the rows' keys come from
 * seeds, so the RFC keys are imported and used with the rows' settings (EVP_PKEY_verify with
 * SHA-256 set, EVP_PKEY_derive). ---- */

/* DER of hex r and s by OpenSSL's own encoder; its length, 0 on failure. */
static size_t rfc_der(const char *r, const char *s, unsigned char *out, size_t cap)
{
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *br = pkv_bn(r), *bs = pkv_bn(s);
    unsigned char *der = NULL;
    int len = sig && br && bs && ECDSA_SIG_set0(sig, br, bs) ? i2d_ECDSA_SIG(sig, &der) : -1;
    if (!sig || len <= 0)
        BN_free(br), BN_free(bs);
    size_t n = len > 0 && (size_t)len <= cap ? (size_t)len : 0;
    if (n)
        memcpy(out, der, n);
    OPENSSL_free(der);
    ECDSA_SIG_free(sig);
    return n;
}

/* Both RFC 6979 signatures of the key verify; each corrupted in r, or over another message,
 * does not. */
static void rfc_sigs(const char *source, EVP_PKEY *k, const struct sig_vec *sv)
{
    for (int m = 0; m < 2; m++) {
        unsigned char sig[128], h[32];
        size_t n = rfc_der(sv[m].r, sv[m].s, sig, sizeof sig);
        pkkey_sha256((const uint8_t *)sv[m].msg, strlen(sv[m].msg), h);
        CHECK(n && pkv_verify(k, sig, n, h), "%s \"%s\": OpenSSL verifies the RFC's (r, s)",
              source, sv[m].msg);
        sig[6] ^= 0x04;
        CHECK(!pkv_verify(k, sig, n, h), "%s \"%s\": OpenSSL refuses r corrupted", source,
              sv[m].msg);
        sig[6] ^= 0x04;
        pkkey_sha256((const uint8_t *)sv[!m].msg, strlen(sv[!m].msg), h);
        CHECK(!pkv_verify(k, sig, n, h), "%s: OpenSSL accepts it for \"%s\"", source,
              sv[!m].msg);
    }
}

static void test_rfc_in_rows(void)
{
    for (size_t i = 0; i < sizeof ecdsa_vecs / sizeof *ecdsa_vecs; i++) {
        const struct ecdsa_vec *v = &ecdsa_vecs[i];
        EVP_PKEY *k = pkv_ec_key(v->bits, NULL, v->ux, v->uy);
        CHECK(k != NULL, "%s: OpenSSL takes the public key", v->source);
        if (k)
            rfc_sigs(v->source, k, v->sig);
        EVP_PKEY_free(k);
    }
    for (size_t i = 0; i < sizeof dsa_vecs / sizeof *dsa_vecs; i++) {
        const struct dsa_vec *dv = &dsa_vecs[i];
        EVP_PKEY *d = pkv_dsa_key(dv->p, dv->q, dv->g, dv->y, NULL);
        if (d)
            rfc_sigs(dv->source, d, dv->sig);
        else
            UNAVAILABLE(dv->source, "this OpenSSL takes no DSA keys of this size");
        EVP_PKEY_free(d);
    }
    for (size_t i = 0; i < sizeof ecdh_vecs / sizeof *ecdh_vecs; i++) {
        const struct ecdh_vec *v = &ecdh_vecs[i];
        EVP_PKEY *a = pkv_ec_key(v->bits, v->i, v->gix, v->giy);
        EVP_PKEY *b = pkv_ec_key(v->bits, v->r, v->grx, v->gry);
        unsigned char z1[48], z2[48], want[48];
        size_t l1 = a && b ? pkv_derive(a, b, z1) : 0, l2 = a && b ? pkv_derive(b, a, z2) : 0;
        size_t wl = check_unhex(v->girx, want, sizeof want);
        CHECK(l1 == wl && l2 == wl && !memcmp(z1, want, wl) && !memcmp(z2, want, wl),
              "%s: OpenSSL derives g^ir's x both ways", v->source);
        EVP_PKEY_free(a);
        EVP_PKEY_free(b);
    }
}

/* Known answers, directly: RFC 8032 7.1 TEST 2 through the OpenSSL row. */
static void test_known_answer(void)
{
    const struct impl *im = registry_find("ed25519-sign", "openssl");
    uint8_t key[32], in[8] = { 0, 1, 0x72 }, out[ALGO_PK_BUF], want[64], iv[ALGO_MAX_IV] = { 0 };
    char why[200];
    check_unhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", key, 32);
    check_unhex("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e"
                "458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00", want, 64);
    void *ctx = calloc(1, im->ctx_size);
    if (!ctx)
        abort();
    CHECK(im->init(im, ctx, key, iv, 0, why, sizeof why) == 0 && im->op(ctx, out, in, 255) == 0 &&
          out[0] == 0 && out[1] == 64 && !memcmp(out + 2, want, 64),
          "RFC 8032 7.1 TEST 2 signature");
    im->cleanup(ctx);
    free(ctx);
}

/* One op of the row on record in (the message, then a signature for verify); its status. */
static int op_on(const struct impl *im, const uint8_t *in, uint8_t *out)
{
    char why[200];
    uint8_t iv[ALGO_MAX_IV] = { 0 };
    void *ctx = calloc(1, im->ctx_size);
    if (!ctx)
        abort();
    int rc = im->init(im, ctx, seed, iv, 0, why, sizeof why) ? -2 : im->op(ctx, out, in, 0);
    im->cleanup(ctx);
    free(ctx);
    return rc;
}

/* The OpenSSL RSA rows sign the DigestInfo bytes with no digest on the context (as `openssl
 * speed` signs prepared bytes): the signature must be the one a context with SHA-256 set
 * makes, byte for byte; the verify row must accept that one; a message that is not a
 * SHA-256 digest's length is refused by both, as SHA-256's context refuses it. */
static void test_rsa_digestinfo(void)
{
    static const char *const sizes[] = { "rsa1024", "rsa2048" };
    uint8_t m[ALGO_PK_MSG_LEN], *in = calloc(1, ALGO_PK_BUF), *out = calloc(1, ALGO_PK_BUF);
    uint8_t want[512];
    char why[200], id[32];
    if (!in || !out)
        abort();
    for (size_t i = 0; i < sizeof m; i++)
        m[i] = (uint8_t)(i * 37 + 5);
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        snprintf(id, sizeof id, "%s-sign", sizes[z]);
        const struct algo *a = algo_find(id);
        EVP_PKEY *k = pkkey_get(a, seed, why, sizeof why);
        EVP_PKEY_CTX *c = k ? rsa_ctx(k, 1) : NULL;
        size_t wlen = sizeof want;
        CHECK(c && EVP_PKEY_sign(c, want, &wlen, m, sizeof m) == 1, "%s: reference: %s", id,
              why);
        for (int asm_row = 0; asm_row < 2; asm_row++) {
            const char *name = asm_row ? "openssl-int" : "openssl";
            const struct impl *s = registry_find(id, name);
            snprintf(id, sizeof id, "%s-verify", sizes[z]);
            const struct impl *v = registry_find(id, name);
            snprintf(id, sizeof id, "%s-sign", sizes[z]);
            algo_pk_put(in, ALGO_PK_BUF, m, sizeof m);
            CHECK(s && op_on(s, in, out) == 0 && out[0] * 256u + out[1] == wlen &&
                      !memcmp(out + 2, want, wlen),
                  "%s/%s: the signature of a context with SHA-256 set", id, name);
            size_t used = algo_pk_put(in, ALGO_PK_BUF, m, sizeof m);
            algo_pk_put(in + used, ALGO_PK_BUF - used, want, wlen);
            CHECK(v && op_on(v, in, out) == 0, "%s/%s: verify accepts SHA-256's signature",
                  sizes[z], name);
            used = algo_pk_put(in, ALGO_PK_BUF, m, sizeof m - 1);
            algo_pk_put(in + used, ALGO_PK_BUF - used, want, wlen);
            CHECK(s && v && op_on(s, in, out) != 0 && op_on(v, in, out) != 0,
                  "%s/%s: a 31-byte message is refused by sign and verify", sizes[z], name);
        }
        EVP_PKEY_CTX_free(c);
        EVP_PKEY_free(k);
    }
    free(in);
    free(out);
}

static void test_model(void)
{
    struct selection s;
    char why[2048];
    const struct algo *r = algo_find("rsa2048-sign");
    memset(&s, 0, sizeof s);
    CHECK(r && !algo_sized(r) && r->key_bits == 2048 && algo_cell_size(r, 16) == 2048,
          "rsa2048-sign has one size, its key's");
    CHECK(algo_check_size(r, 16, why, sizeof why) && strstr(why, "key size"), "16 refused: %s",
          why);
    CHECK(algo_pk_sibling(r, PK_VERIFY) == algo_find("rsa2048-verify"), "sibling");
    CHECK(algo_pk_sibling(algo_find("ecdsa-p256-sign"), PK_VERIFY) ==
              algo_find("ecdsa-p256-verify"), "ECDSA sibling keeps the curve");
    CHECK(select_algs(&s, "pk", why, sizeof why) == 0 && s.nalgs > 10, "-a pk: %s", why);
    int has1024 = 0, has2048 = 0, sized = 0;
    for (int i = 0; i < s.nalgs; i++) {
        has1024 |= !strcmp(s.algs[i]->id, "rsa1024-sign");
        has2048 |= !strcmp(s.algs[i]->id, "rsa2048-sign");
        sized |= algo_sized(s.algs[i]);
    }
    CHECK(has2048 && !has1024 && !sized, "pk: every public-key op but RSA-1024");
    CHECK(select_algs(&s, "rsa1024-sign", why, sizeof why) == 0, "RSA-1024 by name");
    CHECK(select_algs(&s, "all", why, sizeof why) == 0, "all");
    for (int i = 0; i < s.nalgs; i++)
        CHECK(algo_sized(s.algs[i]), "%s: public-key ops are opt-in", s.algs[i]->id);
    CHECK(select_algs(&s, "rsa9", why, sizeof why) && strstr(why, "pk,"), "groups named: %s",
          why);
}

static void test_cli(const char *bin)
{
    char args[512];
    snprintf(args, sizeof args, "run --no-save -a rsa2048-sign,ecdsa-p256-verify,x25519 -p all "
                                "-T 0.2 --csv -");
    int rc = shell_run("", bin, args, NULL);
    CHECK(rc == 0, "run exits 0 (%d): %s", rc, shell_err);
    const char *want[] = { "rsa2048-sign", "ecdsa-p256-verify", "x25519" };
    FILE *f = fmemopen(shell_out, strlen(shell_out), "r");
    struct csvread_set set = { 0 };
    char why[300];
    CHECK(f && csvread_stream(f, "out", &set, why, sizeof why) == 0, "CSV reads back: %s", why);
    for (size_t k = 0; k < 3; k++) {
        int hw = 0, asm_ = 0;
        for (size_t i = 0; i < set.n; i++) {
            const struct csvread_row *w = &set.rows[i];
            if (strcmp(w->algorithm, want[k]))
                continue;
            int figure = w->ok && w->ops_per_s > 0 && w->us_per_op > 0 &&
                         fabs(w->mb_per_s * 1e6 - w->ops_per_s) <= 1e-9 * w->ops_per_s;
            hw |= !strcmp(w->path, "hw") && figure;
            asm_ |= !strcmp(w->path, "asm") && figure;
            if (!w->ok)
                UNAVAILABLE(want[k], w->reason);
        }
        CHECK(hw, "%s: ops/s on the hw path", want[k]);
        CHECK(asm_ || !strcmp(OpenSSL_version(OPENSSL_CPU_INFO), ""),
              "%s: ops/s on the asm path", want[k]);
    }
    CHECK(strstr(shell_out, ",ops_per_s,us_per_op") != NULL, "CSV header has the columns");
    if (f)
        fclose(f);
    csvread_free(&set);
    rc = shell_run("", bin, "run --no-save -q -a x25519 -s 16,64 -p hw -T 0.05", NULL);
    CHECK(rc == 0 && strstr(shell_err, "-s does not apply"), "-s with a public-key op is "
          "said (%d): %s", rc, shell_err);
    rc = shell_run("", bin, "run --no-save -a x25519 -p hw -T 0.05", NULL);
    CHECK(rc == 0 && strstr(shell_out, "ops/s") && strstr(shell_out, "255-bit"),
          "the table says ops/s and the key size: %s", shell_out);
}

/* The hw row runs the asm row's code when OpenSSL's vector has none of the bits the
 * big-number code reads (x86: BMI2, ADX, AVX2, AVX-512F): said as "same code", no second bar. */
static int same_code_with(const char *capvec)
{
    struct cell c[2];
    memset(c, 0, sizeof c);
    c[0].impl = registry_find("x25519", "openssl-int");
    c[1].impl = registry_find("x25519", "openssl");
    for (int i = 0; i < 2; i++) {
        c[i].bytes = 255;
        c[i].r.status = RES_OK;
        c[i].r.mb_per_s = 0.004 + 0.001 * i;
        snprintf(c[i].r.capvec, sizeof c[i].r.capvec, "%s", capvec);
    }
    derive_cells(c, 2);
    return c[1].d.same_as == c[0].impl;
}

static void test_same_code(void)
{
#if defined(__x86_64__) || defined(__i386__)
    CHECK(!same_code_with("OPENSSL_ia32cap=0x0:0x80100"), "BMI2+ADX: x25519's hw row differs");
    CHECK(same_code_with("OPENSSL_ia32cap=0x0:0x0"), "no BMI2/ADX: same code as openssl-int");
#else
    /* OpenSSL 3.0's Arm big-number code reads no capability bit: always the same code. */
    CHECK(same_code_with("OPENSSL_armcap=0x3d"), "Arm: same code as openssl-int");
#endif
}

/* A CSV of public-key rows: ops_per_s is the figure (mb_per_s empty), read back as a rate of
 * ops; without either figure an ok row is refused; compare shows ops/s. */
static void test_csv(const char *bin)
{
    char path[] = "/tmp/accelscope-t_pk-XXXXXX", args[200], why[300];
    int fd = mkstemp(path);
    const char *text = "algorithm,path,implementation,bytes,mb_per_s,status,ops_per_s,us_per_op\n"
                       "rsa2048-sign,hw,openssl,2048,,ok,500.0,2000.000\n";
    CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text), "temp file");
    close(fd);
    struct csvread_set set = { 0 };
    CHECK(csvread_file(path, &set, why, sizeof why) == 0 && set.n == 1 && set.rows[0].ok &&
              set.rows[0].ops_per_s == 500.0 && fabs(set.rows[0].mb_per_s * 1e6 - 500) < 1e-6,
          "a public-key row reads back as 500 ops/s: %s", why);
    csvread_free(&set);
    snprintf(args, sizeof args, "compare %s", path);
    CHECK(shell_run("", bin, args, NULL) == 0 && strstr(shell_out, "A ops/s") &&
              strstr(shell_out, "500.0") && strstr(shell_out, "2048-bit"),
          "compare shows ops/s at the key size: %s%s", shell_out, shell_err);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("algorithm,bytes,mb_per_s,status,ops_per_s\nrsa2048-sign,2048,,ok,\n", f);
        fclose(f);
    }
    CHECK(csvread_file(path, &set, why, sizeof why) != 0 && strstr(why, "line 2"),
          "an ok row without a figure is refused: %s", why);
    unlink(path);
}

/* The asm row's worker really runs with the big-number bits masked (x86: BMI2, ADX, AVX2,
 * AVX-512F cleared in the vector it reports), and the hw row's keeps them. */
static void test_mask(const char *bin)
{
    struct result r[2];
    const char *names[2] = { "openssl", "openssl-int" };
    uint64_t w[2][2];
    int nw[2];
    engine_set_exe(bin);
    for (int i = 0; i < 2; i++) {
        struct engine_job job = { .impl = registry_find("x25519", names[i]), .bytes = 255,
                                  .threads = 1, .seconds = 0.05, .samples = 5,
                                  .noisy_fallback = 1 }; /* a loaded machine: still a figure */
        engine_run(&job, &r[i], NULL, NULL);
        nw[i] = osslcap_parse(r[i].capvec, w[i]);
        CHECK(r[i].status == RES_OK && r[i].mb_per_s > 0, "x25519/%s measured: %s", names[i],
              r[i].reason);
    }
#if defined(__x86_64__) || defined(__i386__)
    if (osslcap_has(w[0], nw[0], FEAT_BMI2) != 1 || osslcap_has(w[0], nw[0], FEAT_ADX) != 1) {
        UNAVAILABLE("x25519 mask", "OpenSSL's vector has no BMI2+ADX here: nothing to mask");
        return;
    }
    static const enum feature masked[] = { FEAT_BMI2, FEAT_ADX, FEAT_AVX2, FEAT_AVX512F };
    for (size_t k = 0; k < sizeof masked / sizeof masked[0]; k++)
        CHECK(osslcap_has(w[1], nw[1], masked[k]) == 0, "openssl-int clears %s: %s",
              feature_table[masked[k]].label, r[1].capvec);
    CHECK(osslcap_has(w[1], nw[1], FEAT_AESNI) == osslcap_has(w[0], nw[0], FEAT_AESNI),
          "openssl-int keeps the first word (AES-NI as hw): %s", r[1].capvec);
#else
    (void)nw;
    UNAVAILABLE("x25519 mask", "capability bits checked on x86 only (Arm: none is read)");
#endif
}

int main(void)
{
    const char *bin = getenv("ACCELSCOPE_BIN");
    test_model();
    test_known_answer();
    test_rsa_digestinfo();
    test_same_code();
    test_every_impl();
    test_impostors();
    test_references();
    test_rfc_in_rows();
    test_cli(bin ? bin : "./accelscope");
    test_csv(bin ? bin : "./accelscope");
    test_mask(bin ? bin : "./accelscope");
    shell_done();
    return check_done();
}
