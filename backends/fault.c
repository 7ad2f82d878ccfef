/* Deliberately broken implementations that prove the engine contains faults: one traps on an
 * illegal instruction, one returns wrong output, one is wrong only in place, one hangs, one
 * makes its process fail at exit after reporting its samples. They exist only when the
 * test-only variable ACCELSCOPE_TEST_FAULTS=1 is set, and wrap sha256 so any machine can
 * run them. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "all.h"
#include "registry.h"

enum fault { F_CRASH, F_WRONG, F_INPLACE, F_HANG, F_EXIT };

/* An undefined instruction, so the worker dies by SIGILL as it would running an instruction
 * the CPU lacks (x86 UD2; Arm UDF #0). */
static void illegal_instruction(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("ud2");
#elif defined(__aarch64__)
    __asm__ volatile("udf #0");
#else
    raise(SIGILL);
#endif
}

static const struct impl *real(void)
{
    return registry_find("sha256", "openssl");
}

static int check(const struct impl *im, char *why, size_t n)
{
    (void)im;
    const struct impl *r = real();
    if (!r)
        return snprintf(why, n, "no OpenSSL sha256 to wrap"), -1;
    return r->check(r, why, n);
}

static void fail_at_exit(void)
{
    _exit(3); /* as a sanitizer that found something at exit would */
}

static int init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                int decrypt, char *why, size_t n)
{
    *(const struct impl **)ctx = im;
    if ((enum fault)(intptr_t)im->data == F_EXIT)
        atexit(fail_at_exit);
    const struct impl *r = real();
    return r->init(r, (char *)ctx + 64, key, iv, decrypt, why, n);
}

static int op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    const struct impl *im = *(const struct impl **)ctx;
    enum fault f = (enum fault)(intptr_t)im->data;
    if (f == F_CRASH)
        illegal_instruction();
    if (f == F_HANG)
        for (;;)
            pause();
    int in_place = out == in;
    int rc = real()->op((char *)ctx + 64, out, in, len);
    if (f == F_WRONG || (f == F_INPLACE && in_place))
        out[len % 32] ^= 0x01;
    return rc;
}

static void cleanup(void *ctx)
{
    const struct impl *r = real();
    if (r->cleanup)
        r->cleanup((char *)ctx + 64);
}

#define FAULT(nm, f)                                                                          \
    { .alg = "sha256", .name = nm, .backend = "fault", .path = PATH_HW,                        \
      .note = "test-only fault injection", .ctx_size = 64 + 4096, .data = (void *)(intptr_t)f, \
      .check = check, .init = init, .op = op, .cleanup = cleanup }

static const struct impl faults[] = {
    FAULT("fault-crash", F_CRASH), FAULT("fault-wrong", F_WRONG),
    FAULT("fault-inplace", F_INPLACE), FAULT("fault-hang", F_HANG), FAULT("fault-exit", F_EXIT),
};

static const struct impl *impls(size_t *count)
{
    const char *on = getenv("ACCELSCOPE_TEST_FAULTS");
    *count = on && !strcmp(on, "1") ? sizeof faults / sizeof faults[0] : 0;
    return faults;
}

const struct backend backend_fault = { .name = "fault", .impls = impls };
