/* Merkle-Damgard padding shared by MD5 and the SHA family: the message, a 1 bit, zeros,
 * then the bit length (RFC 1321 3.1-3.2, FIPS 180-4 5.1). */
#ifndef ACCELSCOPE_PORTABLE_PAD_H
#define ACCELSCOPE_PORTABLE_PAD_H

#include <stddef.h>
#include <stdint.h>

enum pad_order {
    PAD_LE,      /* MD5: 64-bit little-endian length */
    PAD_BE,      /* SHA-1, SHA-256: 64-bit big-endian length */
    PAD_BE128,   /* SHA-512: 128-bit big-endian length */
};

/* Compresses nblocks whole blocks of p into the chaining state st. */
typedef void portable_blocks_fn(void *st, const uint8_t *p, size_t nblocks);

/* Hashes in[0..len) into st: the whole blocks straight from in, the tail padded. block is
 * 64 or 128 bytes. */
void portable_pad_hash(void *st, portable_blocks_fn *blocks, const uint8_t *in, size_t len,
                       size_t block, enum pad_order order);

#endif
