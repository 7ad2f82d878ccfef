/* SHA-256 (FIPS 180-4 6.2). Sixteen rounds are written out with the working variables
 * renamed instead of moved; the schedule lives in a 16-word ring (FIPS 180-4 6.2.2 step 1
 * computed on the fly). */
#include "portable.h"

#include "bytes.h"
#include "pad.h"

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
static const uint32_t k256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define SIG0(x) (rotr32(x, 2) ^ rotr32(x, 13) ^ rotr32(x, 22))
#define SIG1(x) (rotr32(x, 6) ^ rotr32(x, 11) ^ rotr32(x, 25))
#define sig0(x) (rotr32(x, 7) ^ rotr32(x, 18) ^ ((x) >> 3))
#define sig1(x) (rotr32(x, 17) ^ rotr32(x, 19) ^ ((x) >> 10))

#define SCHED(i)                                                                              \
    (w[(i)&15] += sig1(w[((i)-2) & 15]) + w[((i)-7) & 15] + sig0(w[((i)-15) & 15]))

#define RND(a, b, c, d, e, f, g, h, k, wi)                                                    \
    do {                                                                                      \
        uint32_t t1 = h + SIG1(e) + CH(e, f, g) + (k) + (wi);                                 \
        d += t1;                                                                              \
        h = t1 + SIG0(a) + MAJ(a, b, c);                                                      \
    } while (0)

#define EIGHT(j, W)                                                                           \
    RND(a, b, c, d, e, f, g, h, k256[(j) + 0], W((j) + 0));                                   \
    RND(h, a, b, c, d, e, f, g, k256[(j) + 1], W((j) + 1));                                   \
    RND(g, h, a, b, c, d, e, f, k256[(j) + 2], W((j) + 2));                                   \
    RND(f, g, h, a, b, c, d, e, k256[(j) + 3], W((j) + 3));                                   \
    RND(e, f, g, h, a, b, c, d, k256[(j) + 4], W((j) + 4));                                   \
    RND(d, e, f, g, h, a, b, c, k256[(j) + 5], W((j) + 5));                                   \
    RND(c, d, e, f, g, h, a, b, k256[(j) + 6], W((j) + 6));                                   \
    RND(b, c, d, e, f, g, h, a, k256[(j) + 7], W((j) + 7))

#define LOADW(i) (w[i] = load32_be(p + 4 * (i)))

static void sha256_blocks(void *state, const uint8_t *p, size_t nblocks)
{
    uint32_t *st = state;
    while (nblocks--) {
        uint32_t w[16];
        uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6],
                 h = st[7];
        EIGHT(0, LOADW);
        EIGHT(8, LOADW);
        for (int j = 16; j < 64; j += 16) {
            EIGHT(j, SCHED);
            EIGHT(j + 8, SCHED);
        }
        st[0] += a;
        st[1] += b;
        st[2] += c;
        st[3] += d;
        st[4] += e;
        st[5] += f;
        st[6] += g;
        st[7] += h;
        p += 64;
    }
}

void portable_sha256(const uint8_t *in, size_t len, uint8_t out[32])
{
    uint32_t st[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 }; /* FIPS 180-4 5.3.3 */
    portable_pad_hash(st, sha256_blocks, in, len, 64, PAD_BE);
    for (int i = 0; i < 8; i++)
        store32_be(out + 4 * i, st[i]);
}
