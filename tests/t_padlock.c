/* The PadLock glue (backends/padlock.c) on a C model of the PadLock instructions.
 *
 * PadLock cannot be emulated, so this tests everything but the instructions: the control
 * word, the key schedules handed to the unit (the model runs AES from exactly what it is
 * given: its own expansion only where the unit would expand a 128-bit key itself), 16-byte
 * alignment of every pointer, the read-ahead rule (the model reads PADLOCK_FETCH blocks
 * ahead as C7/Nano do; caller buffers end at a guard page, so a read past them is a
 * crash), the CBC chain, CTR on ECB, SHA state and byte order, XSTORE short reads.
 * Results are compared with OpenSSL and the standards' vectors. Where the real unit is
 * absent (everywhere we can run) its availability must say why.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "cpu.h"
#include "cross/impl_tests.h"
#include "padlock.h"
#include "all.h"
#include "registry.h"

/* --- a model of the unit --- */

static uint8_t S[256], Si[256];
static int model_faults;

#define MODEL_CHECK(cond, ...)                                                                \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            if (model_faults++ < 5)                                                           \
                CHECK(0, __VA_ARGS__);                                                        \
        }                                                                                     \
    } while (0)

static uint8_t mul2(uint8_t x)
{
    return (uint8_t)(x << 1 ^ (x & 0x80 ? 0x1b : 0));
}

static uint8_t mul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (int i = 0; i < 8; i++, a = mul2(a), b >>= 1)
        if (b & 1)
            p ^= a;
    return p;
}

/* S-box through powers of the generator 3: inverse(3^i) = 3^(255-i). */
static void tables(void)
{
    uint8_t exp[256], x = 1;
    for (int i = 0; i < 255; i++, x = mul(x, 3))
        exp[i] = x;
    exp[255] = 1;
    S[0] = 0x63;
    for (int i = 0; i < 255; i++) {
        uint8_t inv = exp[(255 - i) % 255], s = inv;
        for (int r = 1; r < 5; r++)
            s ^= (uint8_t)(inv << r | inv >> (8 - r));
        S[exp[i]] = s ^ 0x63;
    }
    for (int i = 0; i < 256; i++)
        Si[S[i]] = (uint8_t)i;
}

static void model_expand(uint8_t *w, const uint8_t *key, int nk)
{
    uint8_t rc = 1;
    memcpy(w, key, 4 * nk);
    for (int i = nk; i < 4 * (nk + 7); i++) {
        uint8_t t[4] = { w[4 * i - 4], w[4 * i - 3], w[4 * i - 2], w[4 * i - 1] };
        if (i % nk == 0) {
            uint8_t r[4] = { (uint8_t)(S[t[1]] ^ rc), S[t[2]], S[t[3]], S[t[0]] };
            memcpy(t, r, 4);
            rc = mul2(rc);
        } else if (nk == 8 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = S[t[j]];
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
}

static void mix(uint8_t *s, int inverse)
{
    static const uint8_t fwd[4] = { 2, 3, 1, 1 }, inv[4] = { 14, 11, 13, 9 };
    const uint8_t *m = inverse ? inv : fwd;
    for (int c = 0; c < 16; c += 4) {
        uint8_t col[4];
        for (int r = 0; r < 4; r++) {
            col[r] = 0;
            for (int k = 0; k < 4; k++)
                col[r] ^= mul(s[c + k], m[(k - r + 4) % 4]);
        }
        memcpy(s + c, col, 4);
    }
}

/* FIPS-197 5.1 and, with an equivalent inverse schedule, 5.3.5. */
static void model_block(uint8_t *b, const uint8_t *w, int rounds, int dec)
{
    for (int i = 0; i < 16; i++)
        b[i] ^= w[i];
    for (int r = 1; r <= rounds; r++) {
        uint8_t t[16];
        for (int c = 0; c < 4; c++)
            for (int row = 0; row < 4; row++) {
                int from = dec ? (c - row + 4) % 4 : (c + row) % 4;
                uint8_t v = b[4 * from + row];
                t[4 * c + row] = dec ? Si[v] : S[v];
            }
        if (r < rounds)
            mix(t, dec);
        for (int i = 0; i < 16; i++)
            b[i] = t[i] ^ w[16 * r + i];
    }
}

static size_t model_readahead; /* bytes read ahead, over all calls */

/* What every XCRYPT checks and reads before it runs; returns the schedule to use. */
static const uint8_t *model_start(const void *cword, const void *key, void *out,
                                  const void *in, size_t blocks, int *rounds, int *dec,
                                  uint8_t *own)
{
    uint32_t cw = *(const uint32_t *)cword;
    int ksize = (int)(cw >> 10 & 3), keygen = !!(cw & PADLOCK_CW_KEYGEN);
    *rounds = (int)(cw & 0xf);
    *dec = !!(cw & PADLOCK_CW_DECRYPT);
    MODEL_CHECK((((uintptr_t)cword | (uintptr_t)key | (uintptr_t)out | (uintptr_t)in) & 15) == 0,
                "unaligned pointer handed to XCRYPT");
    MODEL_CHECK(blocks > 0, "XCRYPT with ECX = 0");
    MODEL_CHECK(ksize < 3 && *rounds == 10 + 2 * ksize, "control word: %d rounds, ksize %d",
                *rounds, ksize);
    MODEL_CHECK(keygen == (ksize != 0), "control word: keygen %d for ksize %d", keygen, ksize);
    MODEL_CHECK((cw & ~0xe8fu) == 0 && ((const uint32_t *)cword)[1] == 0,
                "control word: reserved bits set (%#x)", cw);
    /* The unit fetches PADLOCK_FETCH blocks at a time: touch what it would. */
    size_t fetched = (blocks + PADLOCK_FETCH - 1) / PADLOCK_FETCH * PADLOCK_FETCH;
    volatile const uint8_t *p = in;
    for (size_t i = 16 * blocks; i < 16 * fetched; i++)
        (void)p[i];
    model_readahead += 16 * (fetched - blocks);
    if (keygen)
        return key;
    uint8_t enc[176];
    model_expand(enc, key, 4);
    if (!*dec)
        memcpy(own, enc, 176);
    for (int r = 0; *dec && r <= 10; r++) {
        memcpy(own + 16 * r, enc + 16 * (10 - r), 16);
        if (r && r < 10)
            mix(own + 16 * r, 1);
    }
    return own;
}

static void model_ecb(const void *cword, const void *key, void *out, const void *in,
                      size_t blocks)
{
    int rounds, dec;
    uint8_t own[240];
    const uint8_t *w = model_start(cword, key, out, in, blocks, &rounds, &dec, own);
    for (size_t i = 0; i < blocks; i++) {
        uint8_t b[16];
        memcpy(b, (const uint8_t *)in + 16 * i, 16);
        model_block(b, w, rounds, dec);
        memcpy((uint8_t *)out + 16 * i, b, 16);
    }
}

static void model_cbc(const void *cword, const void *key, void *out, const void *in,
                      size_t blocks, void *iv)
{
    int rounds, dec;
    uint8_t own[240], chain[16];
    const uint8_t *w = model_start(cword, key, out, in, blocks, &rounds, &dec, own);
    MODEL_CHECK(((uintptr_t)iv & 15) == 0, "unaligned IV handed to XCRYPTCBC");
    memcpy(chain, iv, 16);
    for (size_t i = 0; i < blocks; i++) {
        uint8_t b[16], c[16];
        memcpy(b, (const uint8_t *)in + 16 * i, 16);
        memcpy(c, b, 16);
        for (int j = 0; !dec && j < 16; j++)
            b[j] ^= chain[j];
        model_block(b, w, rounds, dec);
        for (int j = 0; dec && j < 16; j++)
            b[j] ^= chain[j];
        memcpy(chain, dec ? c : b, 16);
        memcpy((uint8_t *)out + 16 * i, b, 16);
    }
    memset(iv, 0xa5, 16); /* what the unit leaves there is not for the glue to trust */
}

static void model_sha(const char *name, const uint32_t *h0, int words, void *state,
                      const void *in, size_t len)
{
    uint32_t *st = state;
    uint8_t d[32];
    MODEL_CHECK(((uintptr_t)state & 15) == 0, "unaligned state handed to XSHA");
    MODEL_CHECK(memcmp(st, h0, 4 * words) == 0, "XSHA %s state does not start at H0", name);
    EVP_Digest(in, len, d, NULL, EVP_get_digestbyname(name), NULL);
    for (int i = 0; i < words; i++)
        st[i] = (uint32_t)d[4 * i] << 24 | d[4 * i + 1] << 16 | d[4 * i + 2] << 8 | d[4 * i + 3];
    memset(st + words, 0x5a, 4 * (32 - words)); /* the unit uses the whole 128 bytes */
}

static const uint32_t h1[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
static const uint32_t h256[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

static void model_sha1(void *state, const void *in, size_t len)
{
    model_sha("SHA1", h1, 5, state, in, len);
}

static void model_sha256(void *state, const void *in, size_t len)
{
    model_sha("SHA256", h256, 8, state, in, len);
}

/* XSTORE: 0, 4 or 8 bytes a call, in turn; the stream is kept to check the glue's copy. */
static uint8_t rng_log[4096];
static size_t rng_logged, rng_calls;

static unsigned model_xstore(void *out, unsigned divisor)
{
    (void)divisor;
    unsigned n = (unsigned)(rng_calls++ % 3) * 4;
    uint8_t b[8];
    fill(b, sizeof b);
    memcpy(out, b, 8); /* the unit may write all 8 whatever it reports */
    if (rng_logged + n <= sizeof rng_log)
        memcpy(rng_log + rng_logged, b, n);
    rng_logged += n;
    return n;
}

static const struct padlock_ops model = { model_ecb, model_cbc, model_sha1, model_sha256,
                                          model_xstore };

/* --- buffers that end at a guard page --- */

static void *guard_alloc(size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), total = (n + pg - 1) / pg * pg + pg;
    uint8_t *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED || mprotect(base + total - pg, pg, PROT_NONE))
        abort();
    return base + total - pg - n;
}

static void guard_free(void *p, size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), total = (n + pg - 1) / pg * pg + pg;
    uint8_t *end = (uint8_t *)p + n + pg;
    munmap(end - total, total);
}

/* Misaligned by one byte: the glue must bounce them. */
static void *odd_alloc(size_t n)
{
    return (uint8_t *)guard_alloc(n + 1);
}

static void odd_free(void *p, size_t n)
{
    guard_free(p, n + 1);
}

static void rng_test(const struct impl *im)
{
    uint8_t out[203];
    void *ctx = new_ctx(im, NULL, NULL, 0);
    rng_logged = rng_calls = 0;
    int rc = im->op(ctx, out, NULL, sizeof out);
    CHECK(rc == 0 && rng_logged >= sizeof out && memcmp(out, rng_log, sizeof out) == 0,
          "xstore glue: output is not the unit's byte stream");
    free_ctx(im, ctx);
}

int main(void)
{
    size_t n = 0;
    const struct impl *list = backend_padlock.impls(&n);
#if !defined(__i386__) && !defined(__x86_64__)
    CHECK(n == 0, "padlock lists %zu implementations off x86", n);
    UNAVAILABLE("padlock (all)", "PadLock exists only on x86");
    return check_done();
#endif
    CHECK(n == 8, "padlock lists %zu implementations, expected 8 (xstore last)", n);
    /* The real unit: on every machine we can test on it is absent, and must say why. */
    for (size_t i = 0; i < n; i++) {
        char why[256] = "";
        if (list[i].check(&list[i], why, sizeof why)) {
            UNAVAILABLE(list[i].alg, why);
            CHECK(strstr(why, "PadLock") != NULL, "%s: reason names no PadLock unit: %s",
                  list[i].alg, why);
        }
    }

    tables();
    padlock_use_ops(&model);
    static void *(*const allocs[])(size_t) = { guard_alloc, odd_alloc };
    static void (*const frees[])(void *, size_t) = { guard_free, odd_free };
    for (size_t i = 0; i < n; i++) {
        const struct impl *im = &list[i];
        const struct algo *a = algo_find(im->alg);
        CHECK(a && im->path == PATH_HW && !strcmp(im->backend, "padlock"), "%s: bad row",
              im->alg);
        if (!a)
            continue;
        if (a->kind == ALGO_RNG) {
            rng_test(im);
            continue;
        }
        known_answers(im, a);
        for (int k = 0; k < 2; k++) {
            it_alloc = allocs[k];
            it_free = frees[k];
            it_extra = 0;
            if (a->kind == ALGO_DIGEST)
                diff_digest(im, a);
            else
                diff_cipher(im, a);
        }
        it_alloc = malloc;
        it_free = it_free_malloc;
        printf("ok: %s padlock (on the model)\n", im->alg);
    }
    CHECK(model_readahead > 0, "the model never read ahead: the rule went untested");
    CHECK(model_faults == 0, "%d contract violations seen by the model", model_faults);
    padlock_use_ops(NULL);
    return check_done();
}
