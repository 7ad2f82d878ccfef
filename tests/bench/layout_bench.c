/* Does a kernel's speed depend on where its input and output lie? Each of accelscope's own CTR
 * and stitched GCM kernels (asm/x86_64/) is timed with its input and output on random page
 * pairs of one 64 MiB mapping, the output GAP bytes into its page: GAP 64 and 128 (the zmm
 * kernels ran up to 2.3x slower on some such pairs until their last round did every load
 * before the first store: vaes-common.inc, ZLAST) and GAP a random multiple of 16. The input
 * always starts a page: only their distance modulo 4 KiB and their pages vary. Per kernel:
 * each class's slowest layout over the median of the random-gap layouts. A layout over
 * TRAP_RATIO (1.15x) is timed again, alternating with a control layout (the random-gap one
 * nearest the median), and its best time over the control's decides: still over, the
 * kernel has a layout trap and the run exits 1. AES-128, 16 KiB. Before any of it, the
 * kernel's output is checked (verify); a wrong one is not timed and fails the run too.
 * On the Zen 4 VM (2026-12-06) it finds one: the AES-NI GCM encryption kernel with the
 * output 64 bytes past the input modulo 4 KiB, 1.14-1.31x in four runs (1.5x in an interleaved
 * harness) on some pages, whether it hashes the group before or the one before last
 * (GCM_ENC_LAG2). Tried without effect there (timing only): its last round with every load
 * before the first store (since 2026-12-07 its code, as every kernel's: vaes-common.inc, ZLAST;
 * on the Sapphire Rapids VM layout.sh has not flagged it in seven runs); the next group's
 * input address made to wait for this group's last block. Not fixed on Zen 4: the worker
 * encrypts in place; direct_bench writes a second buffer, whose distance the heap sets.
 *   layout_bench [-n LAYOUTS_PER_CLASS] [-s SEED]
 * Built and run by layout.sh; exits 2 on a bad argument or a failed mapping. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <openssl/evp.h>

#include "bench/bench.h"
#include "direct.h"
#include "direct_x86.h"
#include "silicon.h"

enum { BYTES = 16384, CLASSES = 3 };
#define TRAP_RATIO 1.15 /* a layout this much slower than the kernel's median is a trap */

/* One call of a kernel on nb blocks; returns the blocks it did. */
typedef size_t (*run_fn)(const void *kernel, uint8_t *out, const uint8_t *in, size_t nb);

typedef size_t (*gcm_kernel)(const struct direct_aes_key *, const struct direct_ghash_key *,
                             struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t);
typedef size_t (*ctr_kernel)(const struct direct_aes_key *, uint8_t *, const uint8_t *, size_t,
                             uint8_t[16]);

static const uint8_t key_bytes[16] = { 1, 2, 3 };
static struct direct_aes_key key;
static struct direct_ghash_key gk;

static size_t run_gcm(const void *k, uint8_t *out, const uint8_t *in, size_t nb)
{
    struct direct_gcm_state st = { .ctr = { 0 } };
    return ((gcm_kernel)k)(&key, &gk, &st, out, in, nb);
}

/* the counter's low 64 bits start at 0 each call, so the VAES kernels never stop early */
static size_t run_ctr(const void *k, uint8_t *out, const uint8_t *in, size_t nb)
{
    uint8_t ctr[16] = { 0 };
    return ((ctr_kernel)k)(&key, out, in, nb, ctr);
}

static size_t ctr_aesni(const struct direct_aes_key *k, uint8_t *out, const uint8_t *in,
                        size_t nb, uint8_t ctr[16])
{
    direct_aes_ctr(k, out, in, nb, ctr);
    return nb;
}

struct kernel {
    const char *name;
    const void *fn;
    run_fn run;
    const char *alg, *row; /* the product's row of the kernel (bench_direct_ok, bench.h) */
    int hash_input; /* GCM decryption: hashes what it reads */
    int evex;       /* the EVEX form of the xmm or ymm GCM kernels: AVX512F/VL/BW usable too */
};

static const struct kernel kernels[] = {
    { .name = "ctr aesni", .fn = (const void *)ctr_aesni, .run = run_ctr,
      .alg = "aes-128-ctr", .row = "direct" },
    { .name = "ctr ymm  ", .fn = (const void *)direct_aes_ctr_vaes, .run = run_ctr,
      .alg = "aes-128-ctr", .row = "direct-vaes" },
    { .name = "ctr zmm  ", .fn = (const void *)direct_aes_ctr_vaes512, .run = run_ctr,
      .alg = "aes-128-ctr", .row = "direct-vaes512" },
    { .name = "gcm aesni enc", .fn = (const void *)direct_aes_gcm_enc, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct" },
    { .name = "gcm aesni dec", .fn = (const void *)direct_aes_gcm_dec, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct", .hash_input = 1 },
    { .name = "gcm xmmvl enc", .fn = (const void *)direct_aes_gcm_enc_vl, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct", .evex = 1 },
    { .name = "gcm xmmvl dec", .fn = (const void *)direct_aes_gcm_dec_vl, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct", .hash_input = 1, .evex = 1 },
    { .name = "gcm xmmvlk enc", .fn = (const void *)direct_aes_gcm_enc_vlk, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct", .evex = 1 },
    { .name = "gcm xmmvlk dec", .fn = (const void *)direct_aes_gcm_dec_vlk, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct", .hash_input = 1, .evex = 1 },
    { .name = "gcm ymm   enc", .fn = (const void *)direct_aes_gcm_enc_vaes, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct-vaes" },
    { .name = "gcm ymm   dec", .fn = (const void *)direct_aes_gcm_dec_vaes, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct-vaes", .hash_input = 1 },
    { .name = "gcm ymmvl enc", .fn = (const void *)direct_aes_gcm_enc_vaes_vl, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct-vaes", .evex = 1 },
    { .name = "gcm ymmvl dec", .fn = (const void *)direct_aes_gcm_dec_vaes_vl, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct-vaes", .hash_input = 1, .evex = 1 },
    { .name = "gcm zmm   enc", .fn = (const void *)direct_aes_gcm_enc_vaes512, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct-vaes512" },
    { .name = "gcm zmm   dec", .fn = (const void *)direct_aes_gcm_dec_vaes512, .run = run_gcm,
      .alg = "aes-128-gcm", .row = "direct-vaes512", .hash_input = 1 },
};

/* Thread CPU seconds per 16 B over ~ms of wall time. Ratios need no clock: a host's spell
 * on the add chains (silicon.h) would move a cycle figure and not the kernel. */
static double batch(const struct kernel *k, uint8_t *out, const uint8_t *in, double ms)
{
    double t0 = bench_now_cpu(), w0 = bench_now_wall();
    size_t blocks = 0;
    do {
        for (int i = 0; i < 16; i++)
            blocks += k->run(k->fn, out, in, BYTES / 16);
    } while (bench_now_wall() - w0 < ms / 1e3);
    return (bench_now_cpu() - t0) / (double)blocks;
}

static double best_of(const struct kernel *k, uint8_t *out, const uint8_t *in, int n)
{
    double best = 1e30;
    for (int i = 0; i < n; i++) {
        double c = batch(k, out, in, 12);
        best = c < best ? c : best;
    }
    return best;
}

struct layout {
    uint8_t *in, *out;
};

/* Input at a random page start, output gap bytes into another page at least 8 pages away
 * (16 KiB each: never overlapping); both below pages - 8, so the output's end (at most
 * 4080 + 16384 bytes in) stays in the mapping. */
static struct layout pick(uint8_t *map, size_t pages, size_t gap)
{
    size_t pi, po;
    do {
        pi = (size_t)rand() % (pages - 8);
        po = (size_t)rand() % (pages - 8);
    } while ((pi > po ? pi - po : po - pi) < 8);
    return (struct layout){ map + pi * 4096, map + po * 4096 + gap };
}

/* Before its times count: the kernel's output on a layout of the trap class against
 * OpenSSL's AES-128-CTR from a zero counter (the CTR kernels count all 128 bits, the GCM
 * ones the low 32: the same over these 1024 blocks), and a GCM kernel's hash against
 * direct_ghash (t_direct checks it against known answers) over the ciphertext. 0 when both
 * agree; else -1, saying which. */
static int verify(const struct kernel *k, struct layout l)
{
    static const uint8_t iv[16];
    uint8_t want[BYTES], y[16] = { 0 };
    int len = 0;
    for (size_t i = 0; i < BYTES; i++)
        l.in[i] = (uint8_t)(i * 131 + 7);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ok = x && EVP_EncryptInit_ex(x, EVP_aes_128_ctr(), NULL, key_bytes, iv) &&
             EVP_EncryptUpdate(x, want, &len, l.in, BYTES) && len == BYTES;
    EVP_CIPHER_CTX_free(x);
    if (!ok) {
        printf("%s  cannot verify: OpenSSL's AES-128-CTR failed\n", k->name);
        return -1;
    }
    size_t done;
    if (k->run == run_gcm) {
        struct direct_gcm_state st = { .ctr = { 0 } };
        done = ((gcm_kernel)k->fn)(&key, &gk, &st, l.out, l.in, BYTES / 16);
        direct_ghash(y, &gk, k->hash_input ? l.in : l.out, BYTES / 16);
        if (memcmp(st.y, y, 16)) {
            printf("%s  WRONG: its hash differs from direct_ghash's; not timed\n", k->name);
            return -1;
        }
    } else {
        done = k->run(k->fn, l.out, l.in, BYTES / 16);
    }
    if (done != BYTES / 16 || memcmp(l.out, want, BYTES)) {
        printf("%s  WRONG: its output differs from OpenSSL's AES-128-CTR; not timed\n", k->name);
        return -1;
    }
    return 0;
}

/* A suspect layout timed again, alternating with the control (the random-gap layout nearest
 * the median), best of three each: its time over the control's. */
static double again(const struct kernel *k, struct layout sus, struct layout ctl)
{
    double bs = 1e30, bc = 1e30;
    for (int r = 0; r < 3; r++) {
        double x = batch(k, sus.out, sus.in, 12), y = batch(k, ctl.out, ctl.in, 12);
        bs = x < bs ? x : bs;
        bc = y < bc ? y : bc;
    }
    return bs / bc;
}

/* 0 when no layout is over TRAP_RATIO, 1 when one is (a trap). Every layout of a class over
 * it in the first pass is timed again against the control, so neither a slow spell nor a
 * spike that hides a lesser trap decides. */
static int judge(const struct kernel *k, uint8_t *map, size_t pages, int n, double core_mhz)
{
    static const char *const cls[CLASSES] = { "gap 64", "gap 128", "random gap" };
    double c[CLASSES][256], worst[CLASSES] = { 0 };
    struct layout at[CLASSES][256], wl[CLASSES] = { { 0 } };
    for (int i = 0; i < n; i++)
        for (int g = 0; g < CLASSES; g++) {
            size_t gap = g == 0 ? 64 : g == 1 ? 128 : (size_t)(rand() % 256) * 16;
            at[g][i] = pick(map, pages, gap);
            c[g][i] = best_of(k, at[g][i].out, at[g][i].in, 2);
        }
    double sorted[256];
    memcpy(sorted, c[CLASSES - 1], (size_t)n * sizeof sorted[0]);
    double med = bench_median(sorted, n);
    int ci = 0;
    for (int i = 1; i < n; i++)
        if (fabs(c[CLASSES - 1][i] - med) < fabs(c[CLASSES - 1][ci] - med))
            ci = i;
    int trap = 0;
    for (int g = 0; g < CLASSES; g++)
        for (int i = 0; i < n; i++) {
            double r = c[g][i] / med;
            if (r > TRAP_RATIO) /* a slow spell, or the layout? */
                r = again(k, at[g][i], at[CLASSES - 1][ci]);
            if (r > worst[g])
                worst[g] = r, wl[g] = at[g][i];
            trap |= r > TRAP_RATIO;
        }
    if (core_mhz > 0)
        printf("%s  median %6.2f cycles/16B;", k->name, med * core_mhz * 1e6);
    else
        printf("%s  median %6.2f ns/16B;", k->name, med * 1e9);
    for (int g = 0; g < CLASSES; g++)
        printf("  %s worst %.2fx", cls[g], worst[g]);
    printf("%s\n", trap ? "  TRAP" : "");
    for (int g = 0; trap && g < CLASSES; g++)
        if (worst[g] > TRAP_RATIO)
            printf("    %s: %.2fx the control with the output %zu bytes past the input "
                   "modulo 4 KiB\n", cls[g], worst[g],
                   (size_t)(wl[g].out - wl[g].in) & 4095);
    return trap;
}

int main(int argc, char **argv)
{
    if (bench_deny_check("layout_bench"))
        return 2;
    int n = 20;
    unsigned seed = 1;
    int ok = argc % 2 == 1;
    for (int i = 1; ok && i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n"))
            n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-s")) {
            char *end;
            seed = (unsigned)strtoul(argv[i + 1], &end, 10);
            ok = *argv[i + 1] && !*end;
        }
        else
            ok = 0;
    }
    if (!ok || n < 5 || n > 256) {
        fprintf(stderr, "usage: layout_bench [-n 5..256 layouts per class, default 20: more "
                        "finds rarer traps and more false alarms] [-s SEED, default 1]\n");
        return 2;
    }
    char why[160];
    if (!bench_direct_ok("aes-128-gcm", "direct", why, sizeof why)) {
        printf("UNAVAILABLE: %s\n", why);
        return 0;
    }
    size_t pages = (64u << 20) / 4096;
    uint8_t *map = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (map == MAP_FAILED) {
        perror("layout_bench: mmap 64 MiB");
        return 2;
    }
    memset(map, 0x5a, pages * 4096); /* 64 MiB: many physical pages to sample */
    static const uint8_t zero[16];
    uint8_t h[16];
    direct_aes_set_encrypt_key(&key, key_bytes, 128);
    direct_aes_encrypt_block(&key, h, zero);
    direct_ghash_init(&gk, h);
    direct_ghash_shift(&gk);
    double core_mhz = silicon_measure() == 0 ? silicon_get()->core_mhz : 0; /* display only */
    srand(seed);
    printf("AES-128, %d B, %d layouts per class (seed %u): each class's slowest layout over the "
           "random-gap median (over %.2fx: timed again against a control)\n", BYTES, n, seed,
           TRAP_RATIO);
    int traps = 0;
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        if (!bench_direct_ok(kernels[i].alg, kernels[i].row, why, sizeof why))
            printf("%s  UNAVAILABLE: %s\n", kernels[i].name, why);
        else if (kernels[i].evex && !direct_x86_gcm_evex(why, sizeof why))
            printf("%s  UNAVAILABLE: %s\n", kernels[i].name, why);
        else if (verify(&kernels[i], pick(map, pages, 64)))
            traps++;
        else
            traps += judge(&kernels[i], map, pages, n, core_mhz);
    }
    printf("%d kernel(s) with a layout trap or a wrong output\n", traps);
    return traps != 0;
}
