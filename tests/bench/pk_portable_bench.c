/* Side-by-side speed of the portable public-key code (backends/portable/pk.h) against
 * OpenSSL's EVP (its default path: all capabilities), in one process. Batches alternate
 * between the two, each ~MS ms of thread CPU time; the ratio reported is the median of
 * per-repeat ratios (OpenSSL ops/s over portable ops/s: how many times slower portable is).
 *
 *   pk_portable_bench [-r REPEATS] [-m MS]
 * Targets (issue 12): X25519 within 3x, RSA-2048 sign within 4x; exit 1 when missed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "pk_openssl.h"

struct pk_case {
    const char *name;
    double target;             /* maximum slowdown; 0 = report only */
    void (*ours)(void *);      /* one operation each */
    int (*theirs)(void *);     /* 0 = ok */
    void *ctx;
};

/* ---- the operations, on a shared fixture ---- */

static struct fixture {
    uint8_t xk[32], xpeer[32], xout[32];
    uint8_t seed[32], pub[32], sig[64], msg[64];
    EVP_PKEY_CTX *xderive;
    EVP_MD_CTX *edsign, *edverify;
    EVP_PKEY *x_priv, *x_pub, *ed_key, *ed_pub;
    struct rsa_side {
        EVP_PKEY *key;
        EVP_PKEY_CTX *sign, *verify;
        struct portable_rsa pk;
        uint8_t digest[32], sig[512];
        size_t siglen;
    } rsa[4];
} fx;

static void our_x25519(void *c)
{
    (void)c;
    portable_x25519(fx.xout, fx.xk, fx.xpeer);
}

static int their_x25519(void *c)
{
    size_t len = 32;
    (void)c;
    return EVP_PKEY_derive(fx.xderive, fx.xout, &len) > 0 ? 0 : -1;
}

static void our_ed_sign(void *c)
{
    (void)c;
    portable_ed25519_sign(fx.sig, fx.msg, sizeof fx.msg, fx.seed, fx.pub);
}

static int their_ed_sign(void *c)
{
    size_t len = 64;
    (void)c;
    return EVP_DigestSign(fx.edsign, fx.sig, &len, fx.msg, sizeof fx.msg) > 0 ? 0 : -1;
}

static void our_ed_verify(void *c)
{
    (void)c;
    if (portable_ed25519_verify(fx.sig, fx.msg, sizeof fx.msg, fx.pub))
        abort(); /* the fixture's signature is valid */
}

static int their_ed_verify(void *c)
{
    (void)c;
    return EVP_DigestVerify(fx.edverify, fx.sig, 64, fx.msg, sizeof fx.msg) == 1 ? 0 : -1;
}

static void our_rsa_sign(void *c)
{
    struct rsa_side *r = c;
    portable_rsa_sign_sha256(&r->pk, r->sig, r->siglen, r->digest);
}

static int their_rsa_sign(void *c)
{
    struct rsa_side *r = c;
    size_t len = r->siglen;
    return EVP_PKEY_sign(r->sign, r->sig, &len, r->digest, 32) > 0 ? 0 : -1;
}

static void our_rsa_verify(void *c)
{
    struct rsa_side *r = c;
    if (portable_rsa_verify_sha256(&r->pk, r->sig, r->siglen, r->digest))
        abort();
}

static int their_rsa_verify(void *c)
{
    struct rsa_side *r = c;
    return EVP_PKEY_verify(r->verify, r->sig, r->siglen, r->digest, 32) == 1 ? 0 : -1;
}

/* ---- fixtures: keys made once, outside the timed loops ---- */

static int setup_x25519(void)
{
    static const uint8_t nine[32] = { 9 };
    uint8_t peer_secret[32];
    for (int i = 0; i < 32; i++) {
        fx.xk[i] = (uint8_t)(i * 37 + 11);
        peer_secret[i] = (uint8_t)(i * 53 + 5);
    }
    portable_x25519(fx.xpeer, peer_secret, nine);
    fx.x_priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, fx.xk, 32);
    fx.x_pub = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, fx.xpeer, 32);
    fx.xderive = fx.x_priv ? EVP_PKEY_CTX_new(fx.x_priv, NULL) : NULL;
    if (!fx.xderive || EVP_PKEY_derive_init(fx.xderive) <= 0 ||
        EVP_PKEY_derive_set_peer(fx.xderive, fx.x_pub) <= 0)
        return -1;
    uint8_t a[32], b[32];
    size_t len = 32;
    portable_x25519(a, fx.xk, fx.xpeer);
    return EVP_PKEY_derive(fx.xderive, b, &len) > 0 && memcmp(a, b, 32) == 0 ? 0 : -1;
}

static int setup_ed25519(void)
{
    for (int i = 0; i < 32; i++)
        fx.seed[i] = (uint8_t)(i * 29 + 3);
    memset(fx.msg, 'm', sizeof fx.msg);
    portable_ed25519_pubkey(fx.pub, fx.seed);
    fx.ed_key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, fx.seed, 32);
    fx.ed_pub = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, fx.pub, 32);
    fx.edsign = EVP_MD_CTX_new();
    fx.edverify = EVP_MD_CTX_new();
    if (!fx.ed_key || !fx.ed_pub || !fx.edsign || !fx.edverify ||
        EVP_DigestSignInit(fx.edsign, NULL, NULL, NULL, fx.ed_key) <= 0 ||
        EVP_DigestVerifyInit(fx.edverify, NULL, NULL, NULL, fx.ed_pub) <= 0)
        return -1;
    uint8_t mine[64];
    portable_ed25519_sign(mine, fx.msg, sizeof fx.msg, fx.seed, fx.pub);
    if (their_ed_sign(NULL) || memcmp(mine, fx.sig, 64) != 0)
        return -1;
    return their_ed_sign(NULL); /* a context signs more than once (checked here) */
}

static int setup_rsa(struct rsa_side *r, int bits)
{
    char why[200];
    r->key = EVP_RSA_gen((unsigned)bits);
    r->siglen = (size_t)bits / 8;
    for (int i = 0; i < 32; i++)
        r->digest[i] = (uint8_t)(i * 7 + bits);
    if (!r->key || rsa_import_from(&r->pk, r->key, 0, why, sizeof why)) {
        fprintf(stderr, "RSA-%d: %s\n", bits, r->key ? why : "OpenSSL cannot make the key");
        return -1;
    }
    r->sign = rsa_ctx(r->key, 1);
    r->verify = rsa_ctx(r->key, 0);
    uint8_t mine[512];
    portable_rsa_sign_sha256(&r->pk, mine, r->siglen, r->digest);
    if (!r->sign || !r->verify || their_rsa_sign(r) || memcmp(mine, r->sig, r->siglen) != 0)
        return -1;
    return 0;
}

/* ---- timing ---- */

static double time_ours(const struct pk_case *c, long n)
{
    double t0 = bench_now_cpu();
    for (long i = 0; i < n; i++)
        c->ours(c->ctx);
    return bench_now_cpu() - t0;
}

static double time_theirs(const struct pk_case *c, long n)
{
    double t0 = bench_now_cpu();
    for (long i = 0; i < n; i++)
        if (c->theirs(c->ctx))
            abort();
    return bench_now_cpu() - t0;
}

/* How many ops fill about ms of CPU for this side. */
static long calibrate(const struct pk_case *c, int ours, double ms)
{
    long n = 1;
    for (;;) {
        double t = ours ? time_ours(c, n) : time_theirs(c, n);
        if (t >= ms / 1e3 / 4 || n > (1L << 30))
            return (long)((double)n * (ms / 1e3) / (t > 0 ? t : 1e-9)) + 1;
        n *= 2;
    }
}

/* Prints the medians; returns 0, or 1 when the target is missed. */
static int measure(const struct pk_case *c, int repeats, double ms)
{
    double ratio[64], ours[64], theirs[64];
    long no = calibrate(c, 1, ms), nt = calibrate(c, 0, ms);
    for (int r = 0; r < repeats; r++) {
        ours[r] = (double)no / time_ours(c, no);
        theirs[r] = (double)nt / time_theirs(c, nt);
        ratio[r] = theirs[r] / ours[r];
    }
    double q = bench_median(ratio, repeats);
    double o = bench_median(ours, repeats), t = bench_median(theirs, repeats);
    int miss = c->target > 0 && q > c->target;
    printf("%-16s %12.0f %12.0f %8.2fx", c->name, o, t, q);
    if (c->target > 0)
        printf("   (target <= %.0fx: %s)", c->target, miss ? "MISSED" : "met");
    printf("\n");
    return miss;
}

int main(int argc, char **argv)
{
    if (bench_deny_check("pk_portable_bench"))
        return 2;
    int repeats = 7;
    double ms = 200;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc) {
            repeats = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
            ms = atof(argv[++i]);
        } else {
            fprintf(stderr, "usage: pk_portable_bench [-r REPEATS 1-64] [-m MS > 0]\n");
            return 2;
        }
    }
    if (repeats < 1 || repeats > 64 || !(ms > 0)) {
        fprintf(stderr, "pk_portable_bench: -r takes 1 to 64, -m a positive number of ms\n");
        return 2;
    }
    static const int bits[4] = { 1024, 2048, 3072, 4096 };
    if (setup_x25519() || setup_ed25519()) {
        fprintf(stderr, "pk_portable_bench: portable and OpenSSL disagree (or OpenSSL failed)\n");
        return 1;
    }
    struct pk_case cases[2 + 1 + 8];
    int n = 0;
    cases[n++] = (struct pk_case){ "x25519", 3, our_x25519, their_x25519, NULL };
    cases[n++] = (struct pk_case){ "ed25519-sign", 0, our_ed_sign, their_ed_sign, NULL };
    cases[n++] = (struct pk_case){ "ed25519-verify", 0, our_ed_verify, their_ed_verify, NULL };
    static char names[8][24];
    for (int i = 0; i < 4; i++) {
        if (setup_rsa(&fx.rsa[i], bits[i])) {
            fprintf(stderr, "pk_portable_bench: RSA-%d: portable and OpenSSL disagree\n",
                    bits[i]);
            return 1;
        }
        snprintf(names[2 * i], sizeof names[0], "rsa%d-sign", bits[i]);
        snprintf(names[2 * i + 1], sizeof names[0], "rsa%d-verify", bits[i]);
        cases[n++] = (struct pk_case){ names[2 * i], bits[i] == 2048 ? 4 : 0, our_rsa_sign,
                                       their_rsa_sign, &fx.rsa[i] };
        cases[n++] = (struct pk_case){ names[2 * i + 1], 0, our_rsa_verify, their_rsa_verify,
                                       &fx.rsa[i] };
    }
    printf("portable C (pk.h, products: %s) vs OpenSSL %s EVP, all capabilities;\n"
           "median of %d alternating batches of ~%.0f ms thread CPU each\n",
           portable_pk_wide_kind, OPENSSL_VERSION_TEXT, repeats, ms);
    printf("%-16s %12s %12s %9s\n", "operation", "portable/s", "openssl/s", "slower");
    int missed = 0;
    for (int i = 0; i < n; i++)
        missed |= measure(&cases[i], repeats, ms);
    return missed;
}
