/* Does accelscope's public-key op cost time per operation that `openssl speed`'s loop does not?
 * In one process, on one key, batches alternate between the loop `openssl speed` runs (apps/
 * speed.c in 3.0: EVP_PKEY_sign, _verify or _derive on a context set up once, no digest
 * set, 36 raw bytes for RSA and 20 for ECDSA, verifying the signature it made) and the
 * "openssl" row's op() on the input the worker times (kat_pk_input), each batch ~MS ms of
 * thread CPU time. Reported: accelscope's ops/s over the speed loop's, the median of the
 * per-repeat ratios; the drift of a shared VM hits both sides of a repeat alike.
 *
 *   pk_loop_bench [-r REPEATS] [-m MS]
 * Exit 1 when a ratio is outside 0.95-1.05 (issue 12's band for hw against openssl speed). */
#include <openssl/evp.h>

#include "bench/bench.h"
#include "kat.h"
#include "pk_keys.h"
#include "registry.h"

static const uint8_t seed[PKKEY_SEED] = { 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21 };
static const uint8_t peer_seed[PKKEY_SEED] = { 99, 98, 97 };

struct speed_side {
    EVP_PKEY *key, *peer;
    EVP_PKEY_CTX *pc;
    enum algo_pk_op op;
    uint8_t buf[36], sig[1024], out[1024];
    size_t buflen, siglen;
};

/* openssl speed's set-up for one operation on a's key. 0, or -1 with why on stderr. */
static int speed_init(struct speed_side *s, const struct algo *a)
{
    char why[200] = "";
    s->op = a->pk_op;
    s->buflen = !strcmp(a->family, "rsa") ? 36 : 20;
    for (size_t i = 0; i < sizeof s->buf; i++)
        s->buf[i] = (uint8_t)(i * 29 + 3);
    if (!(s->key = pkkey_get(a, seed, why, sizeof why)) ||
        !(s->pc = EVP_PKEY_CTX_new(s->key, NULL)))
        goto fail;
    if (a->pk_op == PK_DERIVE) {
        if (!(s->peer = pkkey_get(a, peer_seed, why, sizeof why)) ||
            EVP_PKEY_derive_init(s->pc) <= 0 || EVP_PKEY_derive_set_peer(s->pc, s->peer) <= 0)
            goto fail;
        return 0;
    }
    EVP_PKEY_CTX *sc = EVP_PKEY_CTX_new(s->key, NULL);
    s->siglen = sizeof s->sig;
    int ok = sc && EVP_PKEY_sign_init(sc) > 0 &&
             EVP_PKEY_sign(sc, s->sig, &s->siglen, s->buf, s->buflen) > 0 &&
             (a->pk_op == PK_SIGN ? EVP_PKEY_sign_init(s->pc) : EVP_PKEY_verify_init(s->pc)) > 0;
    EVP_PKEY_CTX_free(sc);
    if (ok)
        return 0;
fail:
    fprintf(stderr, "%s: openssl speed's set-up failed %s\n", a->id, why);
    return -1;
}

static int speed_op(struct speed_side *s)
{
    size_t len = sizeof s->out;
    switch (s->op) {
    case PK_SIGN:
        return EVP_PKEY_sign(s->pc, s->out, &len, s->buf, s->buflen) > 0 ? 0 : -1;
    case PK_VERIFY:
        return EVP_PKEY_verify(s->pc, s->sig, s->siglen, s->buf, s->buflen) == 1 ? 0 : -1;
    default:
        return EVP_PKEY_derive(s->pc, s->out, &len) > 0 ? 0 : -1;
    }
}

static void speed_free(struct speed_side *s)
{
    EVP_PKEY_CTX_free(s->pc);
    EVP_PKEY_free(s->key);
    EVP_PKEY_free(s->peer);
}

/* Operations per CPU second over ~ms (wall clock), the CPU clock read at the ends (bench.h;
 * after every 8 ops it was 1-2 % of 8 RSA verifications); < 0 when an op failed. */
static double rate(struct speed_side *sp, struct bench_side *ac, double ms)
{
    double t0 = bench_now_cpu(), w0 = bench_now_wall();
    long n = 0;
    do {
        for (int i = 0; i < 8; i++)
            if (sp ? speed_op(sp) : ac->im->op(ac->ctx, ac->out, ac->in, 0))
                return -1;
        n += 8;
    } while (bench_now_wall() - w0 < ms / 1e3);
    return (double)n / (bench_now_cpu() - t0);
}

/* One algorithm: the median ratio, or -1. */
static double one(const char *alg, int repeats, double ms)
{
    const struct algo *a = algo_find(alg);
    const struct impl *im = registry_find(alg, "openssl");
    char why[200] = "";
    struct speed_side sp = { 0 };
    struct bench_side ac = { 0 };
    double r = -1, *v = calloc((size_t)repeats, sizeof *v);
    if (!v)
        abort();
    ac.im = im;
    ac.ctx = im ? calloc(1, im->ctx_size) : NULL;
    ac.in = calloc(1, ALGO_PK_BUF);
    ac.out = calloc(1, ALGO_PK_BUF);
    if (!ac.in || !ac.out || (im && !ac.ctx))
        abort();
    char ref[64];
    /* Verified as the worker verifies it (kat.h) before its speed counts. */
    if (im && kat_pk_verify(im, seed, ref, sizeof ref, why, sizeof why)) {
        fprintf(stderr, "%s: not verified, not timed: %s\n", alg, why);
        goto out;
    }
    if (!im || speed_init(&sp, a) || kat_pk_input(im, seed, ac.in, why, sizeof why) ||
        im->init(im, ac.ctx, seed, NULL, 0, why, sizeof why)) {
        fprintf(stderr, "%s: accelscope's set-up failed %s\n", alg, why);
        goto out;
    }
    rate(&sp, NULL, ms); /* warm both */
    rate(NULL, &ac, ms);
    for (int k = 0; k < repeats; k++) {
        double s = k % 2 ? rate(&sp, NULL, ms) : 0, x = rate(NULL, &ac, ms);
        s = k % 2 ? s : rate(&sp, NULL, ms); /* order alternates: ABBA */
        if (s <= 0 || x <= 0)
            goto out;
        v[k] = x / s;
    }
    r = bench_median(v, repeats);
    printf("%-20s %7.3f   (accelscope's op over openssl speed's loop, median of %d)\n", alg, r,
           repeats);
out:
    if (im && ac.ctx)
        im->cleanup(ac.ctx);
    free(ac.ctx);
    free(ac.in);
    free(ac.out);
    speed_free(&sp);
    free(v);
    return r;
}

int main(int argc, char **argv)
{
    if (bench_deny_check("pk_loop_bench"))
        return 2;
    static const char *const algs[] = { "rsa2048-sign", "rsa2048-verify", "ecdsa-p256-sign",
                                        "ecdsa-p256-verify", "x25519" };
    int repeats = 15, fail = 0;
    double ms = 40;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-r"))
            repeats = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-m"))
            ms = atof(argv[i + 1]);
    }
    if (repeats < 1 || repeats > 1000 || !(ms >= 1 && ms <= 10000) || argc % 2 == 0) {
        fprintf(stderr, "usage: pk_loop_bench [-r REPEATS 1-1000] [-m MS 1-10000]\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof algs / sizeof *algs; i++) {
        double r = one(algs[i], repeats, ms);
        fail |= !(r >= 0.95 && r <= 1.05);
    }
    return fail;
}
