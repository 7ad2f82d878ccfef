/* Random number generators as algorithms (one op = fill N bytes): RDRAND and RDSEED through
 * asm/x86_64/rng-rdrand.S on the hw path (implementation "direct"), the kernel's getrandom(2)
 * on the kernel path, OpenSSL's RAND_bytes (its DRBG, seeded from the OS) on the hw path. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/rand.h>

#include "cpu.h"
#include "direct.h"
#include "all.h"

#if defined(__x86_64__)

typedef size_t (*fill_fn)(uint8_t *out, size_t len);

static const struct hwrng {
    enum feature feat;
    fill_fn fill;
} hw_rdrand = { FEAT_RDRAND, direct_rdrand_fill }, hw_rdseed = { FEAT_RDSEED, direct_rdseed_fill };

/* CPUID says yes; the instruction must also deliver. Some AMD parts have returned CF=1 with
 * all ones after suspend (fixed in firmware): draws that never change are refused. */
static int hw_check(const struct impl *im, char *why, size_t n)
{
    const struct hwrng *h = im->data;
    uint64_t v[4] = { 0 };
    if (!cpu_feature_status(h->feat, why, n))
        return -1;
    if (h->fill((uint8_t *)v, sizeof v) != sizeof v) {
        snprintf(why, n, "%s reports no data (CF=0) after the retries", im->alg);
        return -1;
    }
    if (v[0] == v[1] && v[1] == v[2] && v[2] == v[3]) {
        snprintf(why, n, "%s returns the constant %#llx: broken (update the CPU firmware)",
                 im->alg, (unsigned long long)v[0]);
        return -1;
    }
    return 0;
}

static int hw_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    const struct hwrng *h = *(const struct hwrng *const *)ctx;
    (void)in;
    return h->fill(out, len) == len ? 0 : -1;
}

#else

static const int hw_rdrand, hw_rdseed;

static int hw_check(const struct impl *im, char *why, size_t n)
{
    snprintf(why, n, "an x86-64 instruction: its kernel (asm/x86_64) is not in this build");
    (void)im;
    return -1;
}

static int hw_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)ctx, (void)out, (void)in, (void)len;
    return -1;
}

#endif

/* The context keeps which instruction to run: op() gets no impl. */
static int hw_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                   int decrypt, char *why, size_t n)
{
    (void)key, (void)iv, (void)decrypt, (void)why, (void)n;
    memcpy(ctx, &im->data, sizeof im->data);
    return 0;
}

static int getrandom_check(const struct impl *im, char *why, size_t n)
{
    uint8_t b;
    (void)im;
    if (getrandom(&b, 1, GRND_NONBLOCK) == 1)
        return 0;
    snprintf(why, n, "getrandom(2): %s%s", strerror(errno),
             errno == ENOSYS ? " (kernel older than 3.17)"
             : errno == EAGAIN ? " (entropy pool not yet initialised)" : "");
    return -1;
}

static int getrandom_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)ctx, (void)in;
    for (size_t done = 0; done < len;) {
        ssize_t r = getrandom(out + done, len - done, 0);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r > 0)
            done += (size_t)r;
    }
    return 0;
}

static int rand_bytes_check(const struct impl *im, char *why, size_t n)
{
    (void)im;
    if (RAND_status() == 1)
        return 0;
    snprintf(why, n, "OpenSSL RAND_status: the DRBG could not be seeded");
    return -1;
}

/* RAND_bytes takes an int length: large fills go in pieces. */
static int rand_bytes_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)ctx, (void)in;
    for (size_t done = 0; done < len;) {
        size_t k = len - done > (1u << 30) ? (1u << 30) : len - done;
        if (RAND_bytes(out + done, (int)k) != 1)
            return -1;
        done += k;
    }
    return 0;
}

static int plain_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                      int decrypt, char *why, size_t n)
{
    (void)im, (void)ctx, (void)key, (void)iv, (void)decrypt, (void)why, (void)n;
    return 0;
}

#define HW(alg_, data_, note_)                                                                \
    { .alg = alg_, .name = "direct", .backend = "rng", .path = PATH_HW, .data = &data_,       \
      .note = note_, .ctx_size = sizeof(void *), .check = hw_check, .init = hw_init,  \
      .op = hw_op }

static const struct impl list[] = {
    HW("rdrand", hw_rdrand, "RDRAND, 8 bytes per draw (asm/x86_64/rng-rdrand.S): the DRBG "
                            "output, reseeded by the CPU"),
    HW("rdseed", hw_rdseed, "RDSEED, 8 bytes per draw (asm/x86_64/rng-rdrand.S): the entropy "
                            "source itself, slow by design; retries when it runs dry"),
    { .alg = "getrandom", .name = "getrandom", .backend = "rng", .path = PATH_KERNEL,
      .note = "getrandom(2), the kernel's CRNG", .ctx_size = 1,
      .check = getrandom_check, .init = plain_init, .op = getrandom_op },
    { .alg = "rand-bytes", .name = "openssl", .backend = "rng", .path = PATH_HW,
      .note = "OpenSSL RAND_bytes: its CTR-DRBG (AES), seeded from the OS", .ctx_size = 1,
      .check = rand_bytes_check, .init = plain_init, .op = rand_bytes_op },
};

static const struct impl *impls(size_t *count)
{
#if defined(__x86_64__) || defined(__i386__)
    size_t skip = 0;
#else
    size_t skip = 2; /* RDRAND and RDSEED, the first two: x86 only, no rows elsewhere */
#endif
    *count = sizeof list / sizeof list[0] - skip;
    return list + skip;
}

const struct backend backend_rng = { .name = "rng", .impls = impls };
