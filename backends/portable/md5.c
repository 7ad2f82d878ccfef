/* MD5 (RFC 1321), fully unrolled: the 64 steps are written out so every shift count and
 * constant is an immediate. */
#include "portable.h"

#include "bytes.h"
#include "pad.h"

/* Each step waits for b from the step before, so the functions are written to put as few
 * operations as possible after b arrives: G's two halves are disjoint, so the half without
 * b is added early and b & z last (one operation on the critical path instead of three). */
#define F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define H(x, y, z) ((x) ^ ((y) ^ (z)))
#define I(x, y, z) ((y) ^ ((x) | ~(z)))
#define STEP(f, a, b, c, d, m, t, s) (a) = (b) + rotl32((a) + (m) + (t) + f(b, c, d), s)
#define STEP_G(f, a, b, c, d, m, t, s)                                                        \
    (a) = (b) + rotl32((a) + (m) + (t) + ((c) & ~(d)) + ((b) & (d)), s)

static void md5_blocks(uint32_t st[4], const uint8_t *p, size_t nblocks)
{
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    while (nblocks--) {
        uint32_t x[16];
        for (int i = 0; i < 16; i++)
            x[i] = load32_le(p + 4 * i);
        const uint32_t a0 = a, b0 = b, c0 = c, d0 = d;
        /* Round 1, RFC 1321 3.4 (T[i] = floor(2^32 * |sin i|)) */
        STEP(F, a, b, c, d, x[0], 0xd76aa478, 7);
        STEP(F, d, a, b, c, x[1], 0xe8c7b756, 12);
        STEP(F, c, d, a, b, x[2], 0x242070db, 17);
        STEP(F, b, c, d, a, x[3], 0xc1bdceee, 22);
        STEP(F, a, b, c, d, x[4], 0xf57c0faf, 7);
        STEP(F, d, a, b, c, x[5], 0x4787c62a, 12);
        STEP(F, c, d, a, b, x[6], 0xa8304613, 17);
        STEP(F, b, c, d, a, x[7], 0xfd469501, 22);
        STEP(F, a, b, c, d, x[8], 0x698098d8, 7);
        STEP(F, d, a, b, c, x[9], 0x8b44f7af, 12);
        STEP(F, c, d, a, b, x[10], 0xffff5bb1, 17);
        STEP(F, b, c, d, a, x[11], 0x895cd7be, 22);
        STEP(F, a, b, c, d, x[12], 0x6b901122, 7);
        STEP(F, d, a, b, c, x[13], 0xfd987193, 12);
        STEP(F, c, d, a, b, x[14], 0xa679438e, 17);
        STEP(F, b, c, d, a, x[15], 0x49b40821, 22);
        /* Round 2 */
        STEP_G(G, a, b, c, d, x[1], 0xf61e2562, 5);
        STEP_G(G, d, a, b, c, x[6], 0xc040b340, 9);
        STEP_G(G, c, d, a, b, x[11], 0x265e5a51, 14);
        STEP_G(G, b, c, d, a, x[0], 0xe9b6c7aa, 20);
        STEP_G(G, a, b, c, d, x[5], 0xd62f105d, 5);
        STEP_G(G, d, a, b, c, x[10], 0x02441453, 9);
        STEP_G(G, c, d, a, b, x[15], 0xd8a1e681, 14);
        STEP_G(G, b, c, d, a, x[4], 0xe7d3fbc8, 20);
        STEP_G(G, a, b, c, d, x[9], 0x21e1cde6, 5);
        STEP_G(G, d, a, b, c, x[14], 0xc33707d6, 9);
        STEP_G(G, c, d, a, b, x[3], 0xf4d50d87, 14);
        STEP_G(G, b, c, d, a, x[8], 0x455a14ed, 20);
        STEP_G(G, a, b, c, d, x[13], 0xa9e3e905, 5);
        STEP_G(G, d, a, b, c, x[2], 0xfcefa3f8, 9);
        STEP_G(G, c, d, a, b, x[7], 0x676f02d9, 14);
        STEP_G(G, b, c, d, a, x[12], 0x8d2a4c8a, 20);
        /* Round 3 */
        STEP(H, a, b, c, d, x[5], 0xfffa3942, 4);
        STEP(H, d, a, b, c, x[8], 0x8771f681, 11);
        STEP(H, c, d, a, b, x[11], 0x6d9d6122, 16);
        STEP(H, b, c, d, a, x[14], 0xfde5380c, 23);
        STEP(H, a, b, c, d, x[1], 0xa4beea44, 4);
        STEP(H, d, a, b, c, x[4], 0x4bdecfa9, 11);
        STEP(H, c, d, a, b, x[7], 0xf6bb4b60, 16);
        STEP(H, b, c, d, a, x[10], 0xbebfbc70, 23);
        STEP(H, a, b, c, d, x[13], 0x289b7ec6, 4);
        STEP(H, d, a, b, c, x[0], 0xeaa127fa, 11);
        STEP(H, c, d, a, b, x[3], 0xd4ef3085, 16);
        STEP(H, b, c, d, a, x[6], 0x04881d05, 23);
        STEP(H, a, b, c, d, x[9], 0xd9d4d039, 4);
        STEP(H, d, a, b, c, x[12], 0xe6db99e5, 11);
        STEP(H, c, d, a, b, x[15], 0x1fa27cf8, 16);
        STEP(H, b, c, d, a, x[2], 0xc4ac5665, 23);
        /* Round 4 */
        STEP(I, a, b, c, d, x[0], 0xf4292244, 6);
        STEP(I, d, a, b, c, x[7], 0x432aff97, 10);
        STEP(I, c, d, a, b, x[14], 0xab9423a7, 15);
        STEP(I, b, c, d, a, x[5], 0xfc93a039, 21);
        STEP(I, a, b, c, d, x[12], 0x655b59c3, 6);
        STEP(I, d, a, b, c, x[3], 0x8f0ccc92, 10);
        STEP(I, c, d, a, b, x[10], 0xffeff47d, 15);
        STEP(I, b, c, d, a, x[1], 0x85845dd1, 21);
        STEP(I, a, b, c, d, x[8], 0x6fa87e4f, 6);
        STEP(I, d, a, b, c, x[15], 0xfe2ce6e0, 10);
        STEP(I, c, d, a, b, x[6], 0xa3014314, 15);
        STEP(I, b, c, d, a, x[13], 0x4e0811a1, 21);
        STEP(I, a, b, c, d, x[4], 0xf7537e82, 6);
        STEP(I, d, a, b, c, x[11], 0xbd3af235, 10);
        STEP(I, c, d, a, b, x[2], 0x2ad7d2bb, 15);
        STEP(I, b, c, d, a, x[9], 0xeb86d391, 21);
        a += a0;
        b += b0;
        c += c0;
        d += d0;
        p += 64;
    }
    st[0] = a;
    st[1] = b;
    st[2] = c;
    st[3] = d;
}

static void md5_blocks_cb(void *st, const uint8_t *p, size_t nblocks)
{
    md5_blocks(st, p, nblocks);
}

void portable_md5(const uint8_t *in, size_t len, uint8_t out[16])
{
    uint32_t st[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
    portable_pad_hash(st, md5_blocks_cb, in, len, 64, PAD_LE);
    for (int i = 0; i < 4; i++)
        store32_le(out + 4 * i, st[i]);
}
