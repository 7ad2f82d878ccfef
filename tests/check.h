/* A minimal test harness: every test binary ends with "N passed, N failed". */
#ifndef ACCELSCOPE_CHECK_H
#define ACCELSCOPE_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed, check_failed;

/* Records one assertion; prints the failing ones with where they are. */
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (cond) {                                                                           \
            check_passed++;                                                                   \
        } else {                                                                              \
            check_failed++;                                                                   \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                       \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
        }                                                                                     \
    } while (0)

/* An implementation a test cannot exercise here: said, never skipped silently. */
#define UNAVAILABLE(what, why) printf("UNAVAILABLE: %s: %s\n", (what), (why))

static inline int check_done(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

/* Emulated runs may cap the public-key sizes the suites generate keys for
 * (ACCELSCOPE_TEST_PK_BITS, set by tests/cross/run.sh under qemu-i386: one RSA-4096 worker
 * generates its key for 170 s there). 1 when `bits` is over the cap, said as UNAVAILABLE. */
static inline int check_pk_capped(const char *what, unsigned bits)
{
    const char *cap = getenv("ACCELSCOPE_TEST_PK_BITS");
    if (!cap || !*cap || bits <= (unsigned)atoi(cap))
        return 0;
    printf("UNAVAILABLE: %s: %u-bit keys are over ACCELSCOPE_TEST_PK_BITS=%s (an emulated run; "
           "native runs cover them)\n", what, bits, cap);
    return 1;
}

/* Hex string to bytes; returns the byte count. */
static inline size_t check_unhex(const char *hex, unsigned char *out, size_t max)
{
    size_t n = 0;
    while (hex[0] && hex[1] && n < max) {
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1)
            break;
        out[n++] = (unsigned char)v;
        hex += 2;
    }
    return n;
}

#endif
