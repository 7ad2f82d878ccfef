/* SHA-1 (FIPS 180-4 6.1), all 80 rounds written out with the five working variables
 * renamed rather than moved; the schedule is a 16-word ring (FIPS 180-4 6.1.3). */
#include "portable.h"

#include "bytes.h"
#include "pad.h"

#define F1(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))         /* Ch,     rounds 0..19 */
#define F2(b, c, d) ((b) ^ (c) ^ (d))                   /* Parity, 20..39, 60..79 */
#define F3(b, c, d) (((b) & (c)) | ((d) & ((b) | (c)))) /* Maj,    40..59 */

#define LOADW(i) (w[i] = load32_be(p + 4 * (i)))
#define SCHED(i)                                                                              \
    (w[(i)&15] = rotl32(w[((i)-3) & 15] ^ w[((i)-8) & 15] ^ w[((i)-14) & 15] ^ w[(i)&15], 1))

#define RND(f, k, a, b, c, d, e, wi)                                                          \
    do {                                                                                      \
        e += rotl32(a, 5) + f(b, c, d) + (k) + (wi);                                          \
        b = rotl32(b, 30);                                                                    \
    } while (0)

#define FIVE(f, k, i, W)                                                                      \
    RND(f, k, a, b, c, d, e, W((i) + 0));                                                     \
    RND(f, k, e, a, b, c, d, W((i) + 1));                                                     \
    RND(f, k, d, e, a, b, c, W((i) + 2));                                                     \
    RND(f, k, c, d, e, a, b, W((i) + 3));                                                     \
    RND(f, k, b, c, d, e, a, W((i) + 4))

/* FIPS 180-4 4.2.1 */
#define K1 0x5a827999
#define K2 0x6ed9eba1
#define K3 0x8f1bbcdc
#define K4 0xca62c1d6

static void sha1_blocks(void *state, const uint8_t *p, size_t nblocks)
{
    uint32_t *st = state;
    while (nblocks--) {
        uint32_t w[16];
        uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4];
        FIVE(F1, K1, 0, LOADW);
        FIVE(F1, K1, 5, LOADW);
        FIVE(F1, K1, 10, LOADW);
        RND(F1, K1, a, b, c, d, e, LOADW(15));
        RND(F1, K1, e, a, b, c, d, SCHED(16));
        RND(F1, K1, d, e, a, b, c, SCHED(17));
        RND(F1, K1, c, d, e, a, b, SCHED(18));
        RND(F1, K1, b, c, d, e, a, SCHED(19));
        FIVE(F2, K2, 20, SCHED);
        FIVE(F2, K2, 25, SCHED);
        FIVE(F2, K2, 30, SCHED);
        FIVE(F2, K2, 35, SCHED);
        FIVE(F3, K3, 40, SCHED);
        FIVE(F3, K3, 45, SCHED);
        FIVE(F3, K3, 50, SCHED);
        FIVE(F3, K3, 55, SCHED);
        FIVE(F2, K4, 60, SCHED);
        FIVE(F2, K4, 65, SCHED);
        FIVE(F2, K4, 70, SCHED);
        FIVE(F2, K4, 75, SCHED);
        st[0] += a;
        st[1] += b;
        st[2] += c;
        st[3] += d;
        st[4] += e;
        p += 64;
    }
}

void portable_sha1(const uint8_t *in, size_t len, uint8_t out[20])
{
    uint32_t st[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
    portable_pad_hash(st, sha1_blocks, in, len, 64, PAD_BE);
    for (int i = 0; i < 5; i++)
        store32_be(out + 4 * i, st[i]);
}
