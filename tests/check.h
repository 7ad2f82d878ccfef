/* A minimal test harness: every test binary ends with "N passed, N failed". */
#ifndef ACCELSCOPE_CHECK_H
#define ACCELSCOPE_CHECK_H

#include <stdio.h>
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
