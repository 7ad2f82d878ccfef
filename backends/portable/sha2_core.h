/* The SHA-2 compression function (FIPS 180-4 6.2.2, 6.4.2), written once for SHA-256 and
 * SHA-512, which differ only in word size, constants and rotation counts. Sixteen rounds
 * are written out with the working variables renamed instead of moved; the schedule lives
 * in a 16-word ring, computed on the fly.
 *
 * The includer defines SHA2_WORD, SHA2_K (the round constants), SHA2_ROUNDS, SHA2_LOAD (a
 * big-endian word load), SIG0/SIG1/sig0/sig1 (the four sigma functions) and SHA2_BLOCKS
 * (the name of the function to define, of type portable_blocks_fn). A template, included
 * once per file: no include guard. */
#include <stddef.h>
#include <stdint.h>

#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define SCHED(i)                                                                              \
    (w[(i)&15] += sig1(w[((i)-2) & 15]) + w[((i)-7) & 15] + sig0(w[((i)-15) & 15]))

/* Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), and this round's a ^ b is the next round's b ^ c:
 * ab receives it, bc brings it from the round before (two names, alternating). */
#define RND(a, b, c, d, e, f, g, h, k, wi, ab, bc)                                            \
    do {                                                                                      \
        SHA2_WORD t1 = h + SIG1(e) + CH(e, f, g) + (k) + (wi);                                \
        d += t1;                                                                              \
        ab = a ^ b;                                                                           \
        h = t1 + SIG0(a) + (b ^ (ab & bc));                                                   \
    } while (0)

#define EIGHT(j, W)                                                                           \
    RND(a, b, c, d, e, f, g, h, SHA2_K[(j) + 0], W((j) + 0), x, y);                           \
    RND(h, a, b, c, d, e, f, g, SHA2_K[(j) + 1], W((j) + 1), y, x);                           \
    RND(g, h, a, b, c, d, e, f, SHA2_K[(j) + 2], W((j) + 2), x, y);                           \
    RND(f, g, h, a, b, c, d, e, SHA2_K[(j) + 3], W((j) + 3), y, x);                           \
    RND(e, f, g, h, a, b, c, d, SHA2_K[(j) + 4], W((j) + 4), x, y);                           \
    RND(d, e, f, g, h, a, b, c, SHA2_K[(j) + 5], W((j) + 5), y, x);                           \
    RND(c, d, e, f, g, h, a, b, SHA2_K[(j) + 6], W((j) + 6), x, y);                           \
    RND(b, c, d, e, f, g, h, a, SHA2_K[(j) + 7], W((j) + 7), y, x)

#define LOADW(i) (w[i] = SHA2_LOAD(p + sizeof(SHA2_WORD) * (i)))

static void SHA2_BLOCKS(void *state, const uint8_t *p, size_t nblocks)
{
    SHA2_WORD *st = state;
    while (nblocks--) {
        SHA2_WORD w[16];
        SHA2_WORD a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6],
                  h = st[7];
        SHA2_WORD x, y = b ^ c;
        EIGHT(0, LOADW);
        EIGHT(8, LOADW);
        for (int j = 16; j < SHA2_ROUNDS; j += 16) {
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
        p += 16 * sizeof(SHA2_WORD);
    }
}
