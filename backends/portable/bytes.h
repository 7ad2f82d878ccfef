/* Endian-neutral loads and stores: byte shifts, which GCC and Clang turn into single
 * (byte-swapping) moves, so the code is correct on any host without an #ifdef. */
#ifndef ACCELSCOPE_PORTABLE_BYTES_H
#define ACCELSCOPE_PORTABLE_BYTES_H

#include <stdint.h>

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
