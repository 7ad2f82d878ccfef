/* What the side-by-side benchmarks share: thread CPU time, medians, one implementation set
 * up for timing through the same init/op the engine uses, and the feature checks (the deny
 * list's words, a kernel's product row) that make a bench obey ACCELSCOPE_DENY as the
 * product and the suites do. */
#ifndef ACCELSCOPE_BENCH_H
#define ACCELSCOPE_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo.h"
#include "all.h"
#include "cpu.h"
#include "impl.h"

/* Thread CPU seconds: a busy shared machine steals wall time, not this. A system call (no
 * vDSO for it), 1.6 us a read on the Zen 5 VM of 2026-12-04: read it at the ends of a timed
 * stretch and let bench_now_wall() end the stretch, never inside a loop of fast ops (read
 * after every 16 ops of 16 KiB zmm CTR, ~6 us, it put the kernel at 70 % of its ceiling for
 * the 84 % the product measured). */
static inline double bench_now_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Monotonic wall seconds: never less than the time a short run took, which the thread CPU
 * clock of a VM can be (tests/bench/direct_bench.c's fastest runs read 150-180 % of the
 * ceiling by it on the Intel Xeon VM of 2026-12-03). */
static inline double bench_now_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 0, or 2 (the exit status for bad input) with the accepted words on stderr when
 * ACCELSCOPE_DENY holds a word that names no feature: a misspelt deny word would time what
 * it was meant to switch off. */
static inline int bench_deny_check(const char *prog)
{
    char why[512];
    if (cpu_deny_check(why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "%s: %s\n", prog, why);
    return 2;
}

/* Whether the product's row of a kernel (backends/direct.c, e.g. "aes-128-gcm" and
 * "direct-vaes512") can run here: its own check, so the features each kernel needs are
 * listed once, there (CPUID and XCR0 read in src/cpu_x86.c, ACCELSCOPE_DENY applied in
 * src/cpu.c). 1, or 0 with why: the benches then print UNAVAILABLE and the project's reason.
 * Only the direct backend is looked in, so a bench links no other backend. */
static inline int bench_direct_ok(const char *alg, const char *name, char *why, size_t n)
{
    size_t count;
    const struct impl *l = backend_direct.impls(&count);
    for (size_t i = 0; i < count; i++)
        if (!strcmp(l[i].alg, alg) && !strcmp(l[i].name, name))
            return l[i].check(&l[i], why, n) == 0;
    snprintf(why, n, "no %s row %s among the direct kernels of this build", alg, name);
    return 0;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v and returns its median. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct bench_side {
    const struct impl *im;
    void *ctx;
    uint8_t *in, *out; /* encryption may run in place on in; AEAD decrypt opens in (ct||tag) */
};

/* A zeroed buffer of n bytes on a 64-byte line, as the worker's (worker.c timed_open): the
 * benches time what the product times. On malloc's 16-byte alignment every zmm load and store
 * of a VAES kernel splits across two lines: the zmm GCM kernel at 16 KiB ran 1.00-1.03x as
 * fast aligned (AES-128, Zen 5 VM, the two layouts alternating in one process). */
static inline void *bench_buf(size_t n)
{
    n = (n + 63) / 64 * 64;
    void *p = aligned_alloc(64, n);
    if (!p)
        abort();
    return memset(p, 0, n);
}

static inline void bench_side_free(struct bench_side *s)
{
    if (s->ctx && s->im->cleanup)
        s->im->cleanup(s->ctx);
    free(s->ctx);
    free(s->in);
    free(s->out);
    s->ctx = NULL;
    s->in = s->out = NULL;
}

/* 0, or -1 with the reason on stderr. For AEAD decryption in holds a sealed message. */
static inline int bench_side_init(struct bench_side *s, const struct impl *im, size_t size,
                                  int decrypt)
{
    static const uint8_t key[ALGO_MAX_KEY] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    static const uint8_t iv[ALGO_MAX_IV] = { 9, 8, 7 };
    char why[256] = "";
    const struct algo *a = algo_find(im->alg);
    s->im = im;
    s->ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
    s->in = bench_buf(size + ALGO_MAX_OUT_EXTRA);
    s->out = bench_buf(size + ALGO_MAX_OUT_EXTRA);
    if (!s->ctx || !s->in || !s->out)
        abort();
    if (a->kind == ALGO_AEAD && decrypt) {
        void *enc = calloc(1, im->ctx_size ? im->ctx_size : 1);
        if (!enc)
            abort();
        int bad = im->init(im, enc, key, iv, 0, why, sizeof why) || im->op(enc, s->in, s->out, size);
        if (!bad && im->cleanup)
            im->cleanup(enc);
        free(enc);
        if (bad) {
            fprintf(stderr, "%s/%s: cannot seal a message to open: %s\n", im->alg, im->name, why);
            return -1;
        }
    }
    if (im->init(im, s->ctx, key, iv, decrypt, why, sizeof why)) {
        fprintf(stderr, "%s/%s: init failed: %s\n", im->alg, im->name, why);
        return -1;
    }
    return 0;
}

/* Before a speed counts, x and y must agree: two chained ops on the same seeded input (for
 * decryption, on a message y sealed), x's second in place as the benches may time it. 0 when
 * they do; else -1 with the reason on stderr. */
static inline int bench_agree(const struct impl *x, const struct impl *y, size_t size,
                              int decrypt)
{
    const struct algo *a = algo_find(x->alg);
    size_t cap = size + ALGO_MAX_OUT_EXTRA, olen = decrypt ? size : algo_out_len(a, size);
    struct bench_side sx = { 0 }, sy = { 0 }, seal = { 0 };
    int rc = -1;
    if (bench_side_init(&sx, x, size, decrypt) || bench_side_init(&sy, y, size, decrypt))
        goto out;
    if (decrypt && a->kind == ALGO_AEAD) {
        memcpy(sx.in, sy.in, cap); /* the message y sealed (bench_side_init) */
    } else {
        for (size_t i = 0; i < cap; i++)
            sx.in[i] = sy.in[i] = (uint8_t)(i * 131 + 7);
    }
    if (decrypt && a->kind == ALGO_CIPHER) {
        /* two chained ciphertexts from y's encryption, opened by both */
        if (bench_side_init(&seal, y, size, 0))
            goto out;
        if (y->op(seal.ctx, sx.in, sy.in, size))
            goto out;
        memcpy(sy.in, sx.in, size);
    }
    for (int k = 0; k < 2; k++) {
        int in_place = k == 1 && !decrypt;
        if (in_place)
            memcpy(sx.out, sx.in, size);
        if (x->op(sx.ctx, sx.out, in_place ? sx.out : sx.in, size) ||
            y->op(sy.ctx, sy.out, sy.in, size)) {
            fprintf(stderr, "%s: op %d failed in the agreement check\n", x->alg, k + 1);
            goto out;
        }
        if (memcmp(sx.out, sy.out, olen)) {
            fprintf(stderr, "%s: %s and %s disagree on op %d (%zu bytes): no figure\n",
                    x->alg, x->name, y->name, k + 1, size);
            goto out;
        }
    }
    rc = 0;
out:
    if (seal.im)
        bench_side_free(&seal);
    if (sx.im)
        bench_side_free(&sx);
    if (sy.im)
        bench_side_free(&sy);
    return rc;
}

#endif
