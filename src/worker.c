/* The measuring side of a worker process: `accelscope __worker ...`, exec'd by the engine so
 * that capability masks in its environment take effect when libcrypto starts. It verifies the
 * implementation's output against a reference, calibrates, then streams timed samples as
 * text lines on stdout (see engine.c for the reader):
 *   hello <pid> <capability vector>
 *   verified <reference>
 *   clock <pmu|tsc|none>
 *   sample <ops> <bytes> <wall_ns> <cpu_ns> <cycles>
 *   done
 * or, instead of a figure: unavailable|wrong|error <reason>. */
#include "worker.h"

#include <errno.h>
#include <stdarg.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "algo.h"
#include "cycles.h"
#include "kat.h"
#include "registry.h"
#include "select.h"

static uint64_t now_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* splitmix64: seeded, repeatable inputs so a mismatch can be replayed. */
static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0) {
            seed += 0x9e3779b97f4a7c15u;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
            seed ^= z ^ (z >> 31);
        }
        p[i] = (uint8_t)(seed >> (8 * (i % 8)));
    }
}

struct live {
    const struct impl *im;
    void *ctx;
};

static int live_init(struct live *l, const struct impl *im, const uint8_t *key,
                     const uint8_t *iv, int decrypt, char *why, size_t n)
{
    l->im = im;
    l->ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
    if (!l->ctx)
        abort();
    if (im->init(im, l->ctx, key, iv, decrypt, why, n)) {
        free(l->ctx);
        l->ctx = NULL;
        return -1;
    }
    return 0;
}

static void live_free(struct live *l)
{
    if (l->ctx && l->im->cleanup)
        l->im->cleanup(l->ctx);
    free(l->ctx);
    l->ctx = NULL;
}

static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return i;
    return n;
}

/* Two operations in a row, so chaining and nonce handling are checked, not one call only;
 * encryption's second op runs in place, as the timed loop does. Returns 0 when im agrees
 * with ref, -1 when its output differs (wrong output), -2 when an operation or the set-up
 * failed (an error: e.g. a size the implementation refuses). */
static int verify_pair(const struct algo *a, const struct impl *im, const struct impl *ref,
                       size_t len, int decrypt, char *why, size_t n)
{
    uint8_t key[ALGO_MAX_KEY], iv[ALGO_MAX_IV];
    size_t olen = algo_out_len(a, len), cap = len + ALGO_MAX_OUT_EXTRA;
    int dec = decrypt && algo_has_direction(a);
    /* One slot each, reused by both ops: a 16 MiB job costs 3 x 16 MiB here, not 7. */
    uint8_t *pt = malloc(cap), *got = calloc(1, cap), *want = calloc(1, cap);
    uint8_t *ct = dec ? malloc(2 * cap) : NULL;
    struct live r = { 0 }, t = { 0 };
    int rc = -1;
    if (!pt || !got || !want || (dec && !ct))
        abort();
    fill(key, sizeof key, len * 3 + 1);
    fill(iv, sizeof iv, len * 5 + 2);
    fill(pt, cap, len * 7 + 3);

    rc = -2; /* set-up failures are errors, not wrong output */
    if (live_init(&r, ref, key, iv, 0, why, n))
        goto out;
    if (live_init(&t, im, key, iv, dec, why, n))
        goto free_ref;
    rc = -1;
    if (!dec) {
        for (int k = 0; k < 2; k++) {
            if (ref->op(r.ctx, want, pt, len)) {
                snprintf(why, n, "reference %s failed", ref->name);
                rc = -2;
                goto free_impl;
            }
            int bad;
            if (k == 0) {
                bad = im->op(t.ctx, got, pt, len);
            } else {
                memcpy(got, pt, len);
                bad = im->op(t.ctx, got, got, len);
            }
            if (bad) {
                snprintf(why, n, "%zu-byte operation %d%s failed", len, k + 1,
                         k ? " (in place)" : "");
                rc = -2;
                goto free_impl;
            }
            size_t d = first_diff(got, want, olen);
            if (d < olen) {
                snprintf(why, n, "%zu-byte op %d%s differs from %s at byte %zu", len, k + 1,
                         k ? " (in place)" : "", ref->name, d);
                goto free_impl;
            }
        }
    } else {
        /* Ciphers: decrypt two chained ciphertexts. AEAD: open one sealed message twice
         * (the nonce does not advance on decrypt). */
        int chained = a->kind == ALGO_CIPHER;
        for (int k = 0; k < 2; k++)
            if ((k == 0 || chained) && ref->op(r.ctx, ct + k * cap, pt, len)) {
                snprintf(why, n, "reference %s failed", ref->name);
                rc = -2;
                goto free_impl;
            }
        for (int k = 0; k < 2; k++) {
            if (im->op(t.ctx, got, ct + (chained ? k : 0) * cap, len)) {
                snprintf(why, n, "%zu-byte decrypt op %d failed: the reference's message was "
                         "refused (tag or transform error)", len, k + 1);
                rc = -2;
                goto free_impl;
            }
            size_t d = first_diff(got, pt, len);
            if (d < len) {
                snprintf(why, n, "%zu-byte decrypt op %d differs from plaintext at byte %zu",
                         len, k + 1, d);
                goto free_impl;
            }
        }
    }
    rc = 0;
free_impl:
    live_free(&t);
free_ref:
    live_free(&r);
out:
    free(pt);
    free(ct);
    free(got);
    free(want);
    return rc;
}

/* RNGs: nothing to compare with; refuse output that is constant or repeats. */
static int verify_rng(const struct impl *im, size_t len, char *why, size_t n)
{
    struct live t = { 0 };
    size_t m = len < 64 ? 64 : len;
    uint8_t *x = calloc(1, m + ALGO_MAX_OUT_EXTRA), *y = calloc(1, m + ALGO_MAX_OUT_EXTRA);
    int rc = -1;
    if (!x || !y)
        abort();
    if (live_init(&t, im, x, x, 0, why, n))
        goto out;
    if (im->op(t.ctx, x, NULL, m) || im->op(t.ctx, y, NULL, m)) {
        snprintf(why, n, "fill failed");
        goto free_impl;
    }
    size_t same = 0;
    for (size_t i = 1; i < m; i++)
        same += x[i] == x[0];
    if (same == m - 1 || memcmp(x, y, m) == 0) {
        snprintf(why, n, "output is constant or repeats");
        goto free_impl;
    }
    rc = 0;
free_impl:
    live_free(&t);
out:
    free(x);
    free(y);
    return rc;
}

static int verify(const struct algo *a, const struct impl *im, size_t len, int decrypt,
                  char *refname, size_t rn, char *why, size_t n)
{
    if (a->kind == ALGO_RNG) {
        snprintf(refname, rn, "non-repetition");
        return verify_rng(im, len, why, n);
    }
    int k = kat_check(im, why, n);
    if (k < 0)
        return k;
    const struct impl *ref = registry_reference(im);
    if (!ref) {
        if (k == 1) {
            snprintf(refname, rn, "known answer");
            return 0;
        }
        snprintf(why, n, "no reference implementation or known answer to verify against");
        return -2;
    }
    snprintf(refname, rn, "%s%s", ref->name, k == 1 ? "+known answer" : "");
    return verify_pair(a, im, ref, len, decrypt, why, n);
}

static void pin(int cpu)
{
    cpu_set_t all, one;
    if (cpu < 0 || sched_getaffinity(0, sizeof all, &all))
        return;
    int seen = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &all))
            continue;
        if (seen++ == cpu) {
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            sched_setaffinity(0, sizeof one, &one);
            return;
        }
    }
}

/* The ops one batch needs to last about a fiftieth of a sample, from a short warm-up: the
 * timed loop reads the clock after each batch, so a sample ends within about 2% of its target
 * even when the machine's speed changes between the warm-up and the samples. */
static uint64_t calibrate(const struct impl *im, void *ctx, uint8_t *out, const uint8_t *in,
                          size_t len, uint64_t target, int *failed)
{
    uint64_t ops = 0, t0 = now_ns(CLOCK_MONOTONIC), t;
    do {
        if (im->op(ctx, out, in, len)) {
            *failed = 1;
            return 0;
        }
        ops++;
        t = now_ns(CLOCK_MONOTONIC) - t0;
    } while (t < 20000000u && t < target / 50);
    uint64_t per = t / ops ? t / ops : 1;
    uint64_t want = target / 50 / per;
    return want ? want : 1;
}

struct job {
    const struct algo *a;
    const struct impl *im;
    size_t len;
    int decrypt, samples, cpu;
    double seconds;
};

#define MAX_SAMPLES 256 /* what engine.c keeps per worker */

/* A whole decimal integer in [lo, hi], or -1. */
static int int_arg(const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!*text || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* __worker ALG IMPL BYTES DECRYPT SECONDS SAMPLES CPU, validated as strictly as `run`
 * validates what it passes: the engine is not the only possible caller. 0, or -1 and why. */
static int parse_args(int argc, char **argv, struct job *j, char *why, size_t n)
{
    char sz[200];
    long dec, samples, cpu;
    cpu_set_t all;
    if (argc != 8)
        return snprintf(why, n, "bad arguments; accepted: __worker ALG IMPL BYTES DECRYPT "
                        "SECONDS SAMPLES CPU"), -1;
    if (!(j->a = algo_find(argv[1])))
        return snprintf(why, n, "unknown algorithm '%s'", argv[1]), -1;
    if (!(j->im = registry_find(argv[1], argv[2]))) {
        registry_discover(); /* a kernel driver: found only by looking */
        j->im = registry_find(argv[1], argv[2]);
    }
    if (!j->im)
        return snprintf(why, n, "no implementation %s of %s", argv[2], argv[1]), -1;
    if (select_parse_size(argv[3], &j->len, sz, sizeof sz) ||
        algo_check_size(j->a, j->len, sz, sizeof sz))
        return snprintf(why, n, "%s", sz), -1;
    if (int_arg(argv[4], 0, 1, &dec))
        return snprintf(why, n, "bad direction '%s'; accepted: 0 (encrypt), 1 (decrypt)",
                        argv[4]), -1;
    char *end;
    j->seconds = strtod(argv[5], &end);
    if (!*argv[5] || *end || !(j->seconds >= SELECT_MIN_TIME && j->seconds <= SELECT_MAX_TIME))
        return snprintf(why, n, "bad seconds '%s'; accepted: %g to %g", argv[5],
                        SELECT_MIN_TIME, SELECT_MAX_TIME), -1;
    if (int_arg(argv[6], 1, MAX_SAMPLES, &samples))
        return snprintf(why, n, "bad samples '%s'; accepted: 1 to %d", argv[6], MAX_SAMPLES), -1;
    /* A CPU id in this process's affinity set: they need not be 0..count-1 (taskset -c 1). */
    int known = sched_getaffinity(0, sizeof all, &all) == 0;
    if (int_arg(argv[7], -1, CPU_SETSIZE - 1, &cpu) ||
        (cpu >= 0 && known && !CPU_ISSET((int)cpu, &all)))
        return snprintf(why, n, "bad cpu '%s'; accepted: -1 (any) or a CPU this process may "
                        "use", argv[7]), -1;
    j->decrypt = (int)dec;
    j->samples = (int)samples;
    j->cpu = (int)cpu;
    return 0;
}

/* The timed buffers: seeded input; for decryption, real ciphertext so AEAD tags verify.
 * Sets up *t for the timed ops. 0, or -1 after saying why. */
static int prepare(const struct job *j, uint8_t **in, uint8_t **out, struct live *t)
{
    char why[200];
    size_t cap = (j->len + ALGO_MAX_OUT_EXTRA + 63) / 64 * 64;
    uint8_t key[ALGO_MAX_KEY], iv[ALGO_MAX_IV];
    *in = aligned_alloc(64, cap);
    *out = aligned_alloc(64, cap);
    if (!*in || !*out)
        abort();
    fill(key, sizeof key, 11);
    fill(iv, sizeof iv, 12);
    fill(*in, cap, 13);
    int dec = j->decrypt && algo_has_direction(j->a);
    if (dec) {
        const struct impl *r = registry_reference(j->im);
        r = r ? r : j->im;
        struct live e = { 0 };
        if (live_init(&e, r, key, iv, 0, why, sizeof why)) {
            say("error preparing ciphertext: %s", why);
            return -1;
        }
        int bad = r->op(e.ctx, *out, *in, j->len);
        live_free(&e);
        if (bad) {
            say("error preparing ciphertext: %s failed to encrypt", r->name);
            return -1;
        }
        memcpy(*in, *out, algo_out_len(j->a, j->len));
    }
    if (live_init(t, j->im, key, iv, dec, why, sizeof why)) {
        say("error %s", why);
        return -1;
    }
    return 0;
}

/* The samples: each runs batches of ops until its share of the time has passed, so the
 * timed seconds come out as asked (a fixed op count from the warm-up overshot under load).
 * Encryption and digests run in place, as `openssl speed` does (it matters: some libcrypto
 * paths differ in speed between in-place and separate buffers). Decryption keeps the
 * ciphertext intact so every AEAD op opens a message whose tag verifies. */
static int time_samples(const struct job *j, struct live *t, uint8_t *in, uint8_t *out)
{
    struct cycles cyc;
    cycles_open(&cyc);
    say("clock %s", cyc.name);
    int failed = 0, dec = j->decrypt && algo_has_direction(j->a);
    uint64_t target = (uint64_t)(j->seconds / j->samples * 1e9);
    uint8_t *dst = dec ? out : in;
    uint64_t batch = calibrate(j->im, t->ctx, dst, in, j->len, target, &failed);
    for (int s = 0; s < j->samples && !failed; s++) {
        uint64_t ops = 0, w0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        uint64_t y0 = cycles_read(&cyc), w1;
        do {
            for (uint64_t i = 0; i < batch && !failed; i++)
                failed = j->im->op(t->ctx, dst, in, j->len) != 0;
            ops += batch;
            w1 = now_ns(CLOCK_MONOTONIC);
        } while (!failed && w1 - w0 < target);
        uint64_t y1 = cycles_read(&cyc);
        uint64_t c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        if (!failed)
            say("sample %llu %llu %llu %llu %llu", (unsigned long long)ops,
                (unsigned long long)(ops * j->len), (unsigned long long)(w1 - w0),
                (unsigned long long)(c1 - c0), (unsigned long long)(y1 - y0));
    }
    cycles_close(&cyc);
    return failed ? -1 : 0;
}

int worker_main(int argc, char **argv)
{
    char why[300], ref[64];
    struct job j;
    if (parse_args(argc, argv, &j, why, sizeof why)) {
        say("error worker: %s", why);
        return 2;
    }
    /* A worker must not outlive the program that reads it (killed TUI, SIGKILL'd run). */
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        return 1;
    pin(j.cpu);
    say("hello %d %s", (int)getpid(), OpenSSL_version(OPENSSL_CPU_INFO));
    if (j.im->check(j.im, why, sizeof why) != 0) {
        say("unavailable %s", why);
        return 0;
    }
    int v = verify(j.a, j.im, j.len, j.decrypt, ref, sizeof ref, why, sizeof why);
    if (v) {
        say("%s %s", v == -1 ? "wrong" : "error", why);
        return 0;
    }
    say("verified %s", ref);
    uint8_t *in = NULL, *out = NULL;
    struct live t = { 0 };
    int rc = prepare(&j, &in, &out, &t) ? -2 : time_samples(&j, &t, in, out);
    live_free(&t);
    free(in);
    free(out);
    if (rc == -1)
        say("error operation failed while timing");
    else if (!rc)
        say("done");
    return 0;
}
