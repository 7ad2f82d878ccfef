#include "pad.h"

#include <string.h>

#include "bytes.h"

void portable_pad_hash(void *st, portable_blocks_fn *blocks, const uint8_t *in, size_t len,
                       size_t block, enum pad_order order)
{
    size_t full = len / block;
    if (full)
        blocks(st, in, full);
    size_t rest = len - full * block;
    size_t lenbytes = order == PAD_BE128 ? 16 : 8;
    uint8_t tail[256] = { 0 };
    if (rest)
        memcpy(tail, in + full * block, rest);
    tail[rest] = 0x80;
    size_t n = rest + 1 + lenbytes <= block ? block : 2 * block;
    uint64_t bits_lo = (uint64_t)len << 3, bits_hi = (uint64_t)len >> 61;
    if (order == PAD_LE) {
        store64_le(tail + n - 8, bits_lo);
    } else {
        store64_be(tail + n - 8, bits_lo);
        if (order == PAD_BE128)
            store64_be(tail + n - 16, bits_hi);
    }
    blocks(st, tail, n / block);
}
