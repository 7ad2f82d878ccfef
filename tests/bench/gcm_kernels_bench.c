/* The stitched GCM kernels (asm/x86_64/aes-gcm-*.S) against their state at an earlier commit,
 * called directly (no impl layer), in one process: batches of ~MS ms of thread CPU time
 * alternate between the reference ("ref_" symbols, assembled by gcm_kernels.sh from the old
 * commit's source with the names changed) and the current kernel, the order swapping each
 * repeat. Prints per kernel the core cycles per 16-byte block of each side (at the clock
 * seen around each batch) and the median of the per-repeat ratios new speed / old speed.
 * First checks that both sides give the same output and state on a few lengths.
 *   gcm_kernels_bench [-r REPEATS] [-m MS] [-b BYTES] [-g GAP] [-k 128|256]
 * GAP: bytes between the end of the input and the output (default 64; a multiple of 4096
 * makes each store 4K-alias the input)   (built by gcm_kernels.sh) */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "direct.h"
#include "silicon.h"

typedef size_t (*gcm_kernel)(const struct direct_aes_key *, const struct direct_ghash_key *,
                             struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t);

size_t ref_aes_gcm_enc(const struct direct_aes_key *, const struct direct_ghash_key *,
                       struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t);
size_t ref_aes_gcm_dec(const struct direct_aes_key *, const struct direct_ghash_key *,
                       struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t);
size_t ref_aes_gcm_enc_vaes(const struct direct_aes_key *, const struct direct_ghash_key *,
                            struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t);
size_t ref_aes_gcm_dec_vaes(const struct direct_aes_key *, const struct direct_ghash_key *,
                            struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t);

struct pair {
    const char *name;
    gcm_kernel old, cur;
    int vaes;
};

static const struct pair pairs[] = {
    { "aesni enc", ref_aes_gcm_enc, direct_aes_gcm_enc, 0 },
    { "aesni dec", ref_aes_gcm_dec, direct_aes_gcm_dec, 0 },
    { "vaes  enc", ref_aes_gcm_enc_vaes, direct_aes_gcm_enc_vaes, 1 },
    { "vaes  dec", ref_aes_gcm_dec_vaes, direct_aes_gcm_dec_vaes, 1 },
};

static struct direct_aes_key key;
static struct direct_ghash_key gk;
static uint8_t *in, *out;

/* VAES (CPUID.7.0:ECX[9]), VPCLMULQDQ (ECX[10]), AVX2 (EBX[5]) and OS-enabled ymm state. */
static int have_vaes(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & 1u << 5) || !(c & 1u << 9) ||
        !(c & 1u << 10))
        return 0;
    __get_cpuid(1, &a, &b, &c, &d);
    if (!(c & 1u << 27))
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 6) == 6;
}

static int have_aesni(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & 1u << 25) && (c & 1u << 1) && (c & 1u << 9);
}

/* 0 when old and new agree on output, counter and Y for several lengths. */
static int agree(const struct pair *p)
{
    static const size_t lens[] = { 0, 8, 16, 24, 40, 64, 72, 136, 1024 };
    uint8_t *o1 = malloc(16384), *o2 = malloc(16384);
    int bad = 0;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0] && o1 && o2; i++) {
        struct direct_gcm_state s1 = { .ctr = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0xff,
                                                 0xff, 0xff, 0xf0 + (uint8_t)i },
                                       .y = { 7 } },
                                s2 = s1;
        size_t d1 = p->old(&key, &gk, &s1, o1, in, lens[i]);
        size_t d2 = p->cur(&key, &gk, &s2, o2, in, lens[i]);
        if (d1 != d2 || memcmp(o1, o2, d1 * 16) || memcmp(&s1, &s2, sizeof s1))
            bad = 1, printf("%s: differs from ref at %zu blocks\n", p->name, lens[i]);
    }
    free(o1), free(o2);
    return bad || !o1 || !o2;
}

/* Core cycles per 16-byte block over one batch of ~ms milliseconds. */
static double batch(gcm_kernel k, size_t nb, double ms)
{
    struct direct_gcm_state st = { .ctr = { 0 } };
    double c0 = silicon_core_mhz_now(), t0 = bench_now_cpu(), t;
    size_t blocks = 0;
    do {
        for (int i = 0; i < 16; i++)
            blocks += k(&key, &gk, &st, out, in, nb);
        t = bench_now_cpu() - t0;
    } while (t < ms / 1e3);
    double mhz = (c0 + silicon_core_mhz_now()) / 2;
    return t * mhz * 1e6 / (double)blocks;
}

int main(int argc, char **argv)
{
    int reps = 11, bits = 128;
    double ms = 40;
    size_t bytes = 16384, gap = 64;  /* out starts gap bytes past the end of in */
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-r"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-m"))
            ms = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "-b"))
            bytes = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "-g"))
            gap = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "-k"))
            bits = atoi(argv[i + 1]);
    }
    if (reps < 3 || reps > 64 || bytes < 256 || bytes > (1 << 20) || (bits != 128 && bits != 256) ||
        gap > (1 << 20)) {
        fprintf(stderr, "gcm_kernels_bench: -r 3..64, -b 256..1048576, -g 0..1048576, -k 128 or 256\n");
        return 2;
    }
    if (!have_aesni()) {
        printf("UNAVAILABLE: no AES-NI/PCLMULQDQ/SSSE3\n");
        return 0;
    }
    static const uint8_t k16[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, zero[16];
    uint8_t h[16];
    static uint8_t *buf;
    buf = aligned_alloc(4096, 2 * bytes + gap + 4096);
    if (!buf)
        abort();
    in = buf, out = buf + bytes + gap;
    for (size_t i = 0; i < bytes; i++)
        in[i] = (uint8_t)(i * 7 + 1);
    direct_aes_set_encrypt_key(&key, k16, (unsigned)bits);
    direct_aes_encrypt_block(&key, h, zero);
    direct_ghash_init(&gk, h);
    direct_ghash_shift(&gk);
    silicon_measure();
    if (getenv("GCMK_DESCRIBE"))
        silicon_describe(stdout);
    printf("AES-%d, %zu bytes, out %zu bytes after in, %d repeats of ~%.0f ms each side; cycles per 16 B (median)\n",
           bits, bytes, gap, reps, ms);
    int bad = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const struct pair *p = &pairs[i];
        if (p->vaes && !have_vaes()) {
            printf("%s  UNAVAILABLE: no VAES/VPCLMULQDQ/AVX2\n", p->name);
            continue;
        }
        if (!getenv("GCMK_NOCHECK") && agree(p)) {
            bad = 1;
            continue;
        }
        double co[64], cn[64], ratio[64];
        for (int r = 0; r < reps; r++) {
            if (r % 2)
                cn[r] = batch(p->cur, bytes / 16, ms), co[r] = batch(p->old, bytes / 16, ms);
            else
                co[r] = batch(p->old, bytes / 16, ms), cn[r] = batch(p->cur, bytes / 16, ms);
            ratio[r] = co[r] / cn[r];
        }
        printf("%s  old %6.2f  new %6.2f  cycles/16B   new/old speed %.3f\n", p->name,
               bench_median(co, reps), bench_median(cn, reps), bench_median(ratio, reps));
    }
    return bad;
}
