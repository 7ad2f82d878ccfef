/* What the side-by-side benchmarks share: thread CPU time, medians, and one implementation
 * set up for timing through the same init/op the engine uses. */
#ifndef ACCELSCOPE_BENCH_H
#define ACCELSCOPE_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "algo.h"
#include "impl.h"

/* Thread CPU seconds: a busy shared machine steals wall time, not this. */
static inline double bench_now_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
    s->in = calloc(1, size + ALGO_MAX_OUT_EXTRA);
    s->out = calloc(1, size + ALGO_MAX_OUT_EXTRA);
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

#endif
