/* The RNG "algorithms" (backends/rng.c): every implementation listed fills exactly the bytes
 * asked for, at every length, with output that is not constant, does not repeat, and passes
 * the FIPS 140-2 monobit bound (1.1) on 1 MiB; a denied RDRAND/RDSEED says so. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "check.h"
#include "cpu.h"
#include "all.h"
#include "registry.h"

#define BIG (1u << 20)

static int fill(const struct impl *im, uint8_t *out, size_t len)
{
    char why[256];
    void *ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
    int rc = ctx ? im->init(im, ctx, NULL, NULL, 0, why, sizeof why) : -1;
    if (rc == 0)
        rc = im->op(ctx, out, NULL, len);
    if (ctx && im->cleanup)
        im->cleanup(ctx);
    free(ctx);
    return rc;
}

static void check_impl(const struct impl *im)
{
    static uint8_t a[BIG + 64], b[BIG + 64];
    int bad = 0;
    for (size_t len = 1; len <= 100 && bad < 3; len++) { /* every tail of an 8-byte draw */
        memset(a, 0xa5, len + 64);
        int ok = fill(im, a, len) == 0;
        for (size_t i = len; i < len + 64; i++)
            ok &= a[i] == 0xa5;
        CHECK(ok, "%s/%s: fill of %zu bytes failed or wrote past the end", im->alg, im->name,
              len);
        bad += !ok;
    }
    CHECK(fill(im, a, BIG) == 0 && fill(im, b, BIG) == 0, "%s/%s: 1 MiB fill", im->alg,
          im->name);
    CHECK(memcmp(a, b, BIG) != 0 && memcmp(a, a + BIG / 2, 64) != 0, "%s/%s repeats itself",
          im->alg, im->name);
    size_t ones = 0;
    for (size_t i = 0; i < BIG; i++)
        ones += (size_t)__builtin_popcount(a[i]);
    double bits = 8.0 * BIG, z = fabs((double)ones - bits / 2) / sqrt(bits / 4);
    CHECK(z < 6, "%s/%s: %zu ones in %.0f bits (z = %.1f)", im->alg, im->name, ones, bits, z);
}

int main(void)
{
    size_t n, seen = 0;
    const struct impl *v = backend_rng.impls(&n);
    for (size_t i = 0; i < n; i++) {
        const struct impl *im = &v[i];
        const struct algo *a = algo_find(im->alg);
        char why[256] = "";
        CHECK(a && a->kind == ALGO_RNG, "%s is not an RNG algorithm", im->alg);
        seen++;
        int feat = strcmp(im->alg, "rdrand") == 0   ? FEAT_RDRAND
                   : strcmp(im->alg, "rdseed") == 0 ? FEAT_RDSEED : -1;
        if (im->check(im, why, sizeof why)) {
            UNAVAILABLE(im->alg, why);
            if (feat >= 0 && cpu_denied((enum feature)feat) && cpu_get()->present[feat])
                CHECK(strstr(why, "ACCELSCOPE_DENY") != NULL, "%s denied, but why = '%s'",
                      im->alg, why);
            continue;
        }
        CHECK(feat < 0 || !cpu_denied((enum feature)feat), "%s available though denied",
              im->alg);
        check_impl(im);
    }
    /* RDRAND and RDSEED are rows on x86 only (with their reason where the CPU lacks them). */
    if (feature_host_arch() == ARCH_X86)
        CHECK(seen == 4, "rng lists %zu impls, want rdrand, rdseed, getrandom, rand-bytes", seen);
    else
        CHECK(seen == 2, "rng lists %zu impls off x86, want getrandom, rand-bytes", seen);
    return check_done();
}
