/* Deliberately broken implementations that prove the engine contains faults: one traps on an
 * illegal instruction, one returns wrong output, one is wrong only in place, one hangs, one
 * makes its process fail at exit after reporting its samples; two depend on the process: of
 * the worker processes that run them, every second one (counted in the file that
 * ACCELSCOPE_TEST_PROCESSES names) runs at a tenth of the speed (fault-modes), or crashes
 * (fault-second-crash), as a process whose code is slow or broken by where it was loaded
 * would. They exist only when the
 * test-only variable ACCELSCOPE_TEST_FAULTS=1 is set, and wrap sha256 so any machine can
 * run them. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "all.h"
#include "registry.h"

enum fault { F_CRASH, F_WRONG, F_INPLACE, F_HANG, F_EXIT, F_MODES, F_SECOND_CRASH };

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

/* This process is an even one of those that ran a process-dependent fault: it appends a
 * byte to the counting file once, and its place is where its own byte ended (with O_APPEND
 * each write lands at the end of the others', and the offset is this descriptor's: two
 * processes writing at once still get places of their own). Without the variable, no
 * process is. */
static int even_process(void)
{
    static int known, even;
    if (known)
        return even;
    known = 1;
    const char *path = getenv("ACCELSCOPE_TEST_PROCESSES");
    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
    off_t at = fd >= 0 && write(fd, "p", 1) == 1 ? lseek(fd, 0, SEEK_CUR) : -1;
    even = at > 0 && at % 2 == 0;
    if (fd >= 0)
        close(fd);
    return even;
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
    if ((f == F_MODES || f == F_SECOND_CRASH) && even_process()) {
        if (f == F_SECOND_CRASH)
            illegal_instruction();
        uint8_t digest[64]; /* sha256's 32 bytes: out may be in, which must stay as it is */
        for (int k = 0; k < 9; k++) /* the same digest, nine times over: a tenth of the speed */
            real()->op((char *)ctx + 64, digest, in, len);
    }
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
    FAULT("fault-modes", F_MODES), FAULT("fault-second-crash", F_SECOND_CRASH),
};

static const struct impl *impls(size_t *count)
{
    const char *on = getenv("ACCELSCOPE_TEST_FAULTS");
    *count = on && !strcmp(on, "1") ? sizeof faults / sizeof faults[0] : 0;
    return faults;
}

const struct backend backend_fault = { .name = "fault", .impls = impls };
