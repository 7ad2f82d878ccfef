/* A seeded generator for the differential tests: splitmix64, so a run repeats from the seed
 * it prints. Not for keys anyone uses. */
#ifndef ACCELSCOPE_TESTS_SEEDED_H
#define ACCELSCOPE_TESTS_SEEDED_H

#include <stddef.h>
#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

#endif
