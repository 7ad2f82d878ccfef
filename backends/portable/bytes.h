/* Endian-neutral loads and stores of big- and little-endian words at any alignment. */
#ifndef ACCELSCOPE_PORTABLE_BYTES_H
#define ACCELSCOPE_PORTABLE_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint32_t bswap32(uint32_t v) /* compilers turn this into one instruction */
{
    return v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
}

static inline uint64_t bswap64(uint64_t v)
{
    return (uint64_t)bswap32((uint32_t)v) << 32 | bswap32((uint32_t)(v >> 32));
}

/* Where the compiler names the byte order, a word moves with memcpy (one load or store) and
 * is swapped if need be: GCC splits the byte-by-byte form into byte stores in some loops,
 * and a word loaded from byte stores stalls (no store forwarding). Elsewhere: bytes. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) &&                              \
    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#define BYTES_LE (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

static inline uint32_t load32_be(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return BYTES_LE ? bswap32(v) : v;
}

static inline uint32_t load32_le(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return BYTES_LE ? v : bswap32(v);
}

static inline uint64_t load64_be(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return BYTES_LE ? bswap64(v) : v;
}

static inline uint64_t load64_le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return BYTES_LE ? v : bswap64(v);
}

static inline void store32_be(uint8_t *p, uint32_t v)
{
    v = BYTES_LE ? bswap32(v) : v;
    memcpy(p, &v, 4);
}

static inline void store32_le(uint8_t *p, uint32_t v)
{
    v = BYTES_LE ? v : bswap32(v);
    memcpy(p, &v, 4);
}

static inline void store64_be(uint8_t *p, uint64_t v)
{
    v = BYTES_LE ? bswap64(v) : v;
    memcpy(p, &v, 8);
}

static inline void store64_le(uint8_t *p, uint64_t v)
{
    v = BYTES_LE ? v : bswap64(v);
    memcpy(p, &v, 8);
}

#else
static inline uint32_t load32_be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline uint64_t load64_be(const uint8_t *p)
{
    return (uint64_t)load32_be(p) << 32 | load32_be(p + 4);
}

static inline uint64_t load64_le(const uint8_t *p)
{
    return (uint64_t)load32_le(p + 4) << 32 | load32_le(p);
}

static inline void store32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline void store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void store64_be(uint8_t *p, uint64_t v)
{
    store32_be(p, (uint32_t)(v >> 32));
    store32_be(p + 4, (uint32_t)v);
}

static inline void store64_le(uint8_t *p, uint64_t v)
{
    store32_le(p, (uint32_t)v);
    store32_le(p + 4, (uint32_t)(v >> 32));
}

#endif

/* Clears key material on the stack: a memset, which the compiler may drop as dead for a
 * dying local, kept by an empty asm that takes the address and may read memory; inline and
 * word-wide (a 16-byte local in one or two stores), where explicit_bzero is a call into
 * libc and a volatile pointer a store a byte. */
static inline void wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* Rotations written so a count of 0 is never shifted by 32 (undefined). */
static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return x << (n & 31) | x >> (-n & 31);
}

static inline uint32_t rotr32(uint32_t x, unsigned n)
{
    return x >> (n & 31) | x << (-n & 31);
}

static inline uint64_t rotr64(uint64_t x, unsigned n)
{
    return x >> (n & 63) | x << (-n & 63);
}

#endif
