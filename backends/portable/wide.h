/* A 128-bit unsigned accumulator for 64x64->128 products: unsigned __int128 where the
 * compiler has it, else a pair of 64-bit words built from four 32x32->64 products (i686).
 * Both behave the same; the pair is slower. Define PORTABLE_WIDE_PAIR to test the pair on a
 * 64-bit host. */
#ifndef ACCELSCOPE_PORTABLE_WIDE_H
#define ACCELSCOPE_PORTABLE_WIDE_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(PORTABLE_WIDE_PAIR)
typedef unsigned __int128 wide;
#define WIDE_KIND "unsigned __int128"

static inline wide wmul(uint64_t a, uint64_t b)
{
    return (wide)a * b;
}

static inline wide wadd(wide a, wide b)
{
    return a + b;
}

static inline wide wadd64(wide a, uint64_t b)
{
    return a + b;
}

static inline wide wfrom64(uint64_t a)
{
    return a;
}

static inline uint64_t wlo(wide a)
{
    return (uint64_t)a;
}

static inline uint64_t whi(wide a)
{
    return (uint64_t)(a >> 64);
}

/* a >> n for 0 < n < 64, truncated to 64 bits */
static inline uint64_t wshr(wide a, unsigned n)
{
    return (uint64_t)(a >> n);
}

#else
typedef struct {
    uint64_t lo, hi;
} wide;
#define WIDE_KIND "pairs of 64-bit words (no 128-bit integer type)"

static inline wide wmul(uint64_t a, uint64_t b)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10; /* < 3 * 2^32 */
    wide r = { (mid << 32) | (uint32_t)p00, p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) };
    return r;
}

/* The carry out of x + y = s from the top bits alone: a comparison (s < x) compiles to a
 * conditional jump on i686 (gcc 12 -O2: cmpl; sbbl; jc in mont_mul), and these words are
 * secret in signing and ECDH. */
static inline uint64_t wcarry(uint64_t x, uint64_t y, uint64_t s)
{
    return ((x & y) | ((x | y) & ~s)) >> 63;
}

static inline wide wadd(wide a, wide b)
{
    wide r = { a.lo + b.lo, a.hi + b.hi };
    r.hi += wcarry(a.lo, b.lo, r.lo);
    return r;
}

static inline wide wadd64(wide a, uint64_t b)
{
    wide r = { a.lo + b, a.hi };
    r.hi += wcarry(a.lo, b, r.lo);
    return r;
}

static inline wide wfrom64(uint64_t a)
{
    wide r = { a, 0 };
    return r;
}

static inline uint64_t wlo(wide a)
{
    return a.lo;
}

static inline uint64_t whi(wide a)
{
    return a.hi;
}

static inline uint64_t wshr(wide a, unsigned n)
{
    return a.lo >> n | a.hi << (64 - n);
}
#endif

#endif
