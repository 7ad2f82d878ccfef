/* The stitched GCM kernels (asm/x86_64/aes-gcm-*.S) against their state at an earlier commit,
 * called directly (no impl layer), in one process: batches of ~MS ms of thread CPU time
 * alternate between the reference ("ref_" symbols, assembled by gcm_kernels.sh from the old
 * commit's source with the names changed) and the current kernel, the order swapping each
 * repeat. Prints per kernel the core cycles per 16-byte block of each side (at the clock
 * seen around each batch) and the median of the per-repeat ratios new speed / old speed.
 * First checks that both sides give the same output and state on a few lengths.
 *   gcm_kernels_bench [-r REPEATS] [-m MS] [-b BYTES] [-g GAP] [-k 128|192|256]
 * GAP: bytes between the end of the input and the output (default 2048), which moves the
 * output against the input modulo 4 KiB: half a page keeps every store far, in address bits
 * 11..0, from the loads around it (at 64 or 128 the zmm kernels before e353141 ran up to 2x
 * slower on some pages: vaes-common.inc, ZLAST). Built and run by gcm_kernels.sh. GCMK_DESCRIBE=1
 * prints the measured limits first; GCMK_NOCHECK=1 times even sides that disagree (for
 * experiments that take instructions out of a kernel to see what they cost). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "direct.h"
#include "direct_x86.h"
#include "silicon.h"

typedef size_t (*gcm_kernel)(const struct direct_aes_key *, const struct direct_ghash_key *,
                             struct direct_gcm_state *, uint8_t *, const uint8_t *, size_t);

/* weak: a kernel the reference commit does not have is 0 here (its row says so) */
#define REF_KERNEL(name)                                                                      \
    __attribute__((weak)) size_t name(const struct direct_aes_key *,                        \
                                      const struct direct_ghash_key *,                      \
                                      struct direct_gcm_state *, uint8_t *, const uint8_t *, \
                                      size_t)
REF_KERNEL(ref_aes_gcm_enc);
REF_KERNEL(ref_aes_gcm_dec);
REF_KERNEL(ref_aes_gcm_enc_vaes);
REF_KERNEL(ref_aes_gcm_dec_vaes);
REF_KERNEL(ref_aes_gcm_enc_vaes512);
REF_KERNEL(ref_aes_gcm_dec_vaes512);
REF_KERNEL(ref_aes_gcm_enc_vaes_vl);
REF_KERNEL(ref_aes_gcm_dec_vaes_vl);
REF_KERNEL(ref_aes_gcm_enc_vl);
REF_KERNEL(ref_aes_gcm_dec_vl);
REF_KERNEL(ref_aes_gcm_enc_vlk);
REF_KERNEL(ref_aes_gcm_dec_vlk);
#undef REF_KERNEL

struct pair {
    const char *name;
    gcm_kernel old, cur;
    const char *row; /* the product's aes-128-gcm row of cur (bench_direct_ok, bench.h) */
    int evex;        /* cur (or both) in EVEX on xmm or ymm: AVX, AVX512F, VL and BW usable too */
};

static const struct pair pairs[] = {
    { .name = "aesni enc", .old = ref_aes_gcm_enc, .cur = direct_aes_gcm_enc, .row = "direct" },
    { .name = "aesni dec", .old = ref_aes_gcm_dec, .cur = direct_aes_gcm_dec, .row = "direct" },
    { .name = "vaes  enc", .old = ref_aes_gcm_enc_vaes, .cur = direct_aes_gcm_enc_vaes,
      .row = "direct-vaes" },
    { .name = "vaes  dec", .old = ref_aes_gcm_dec_vaes, .cur = direct_aes_gcm_dec_vaes,
      .row = "direct-vaes" },
    { .name = "zmm   enc", .old = ref_aes_gcm_enc_vaes512, .cur = direct_aes_gcm_enc_vaes512,
      .row = "direct-vaes512" },
    { .name = "zmm   dec", .old = ref_aes_gcm_dec_vaes512, .cur = direct_aes_gcm_dec_vaes512,
      .row = "direct-vaes512" },
    { .name = "ymmvl enc", .old = ref_aes_gcm_enc_vaes_vl, .cur = direct_aes_gcm_enc_vaes_vl,
      .row = "direct-vaes", .evex = 1 },
    { .name = "ymmvl dec", .old = ref_aes_gcm_dec_vaes_vl, .cur = direct_aes_gcm_dec_vaes_vl,
      .row = "direct-vaes", .evex = 1 },
    { .name = "xmmvl enc", .old = ref_aes_gcm_enc_vl, .cur = direct_aes_gcm_enc_vl,
      .row = "direct", .evex = 1 },
    { .name = "xmmvl dec", .old = ref_aes_gcm_dec_vl, .cur = direct_aes_gcm_dec_vl,
      .row = "direct", .evex = 1 },
    { .name = "xmmvlk enc", .old = ref_aes_gcm_enc_vlk, .cur = direct_aes_gcm_enc_vlk,
      .row = "direct", .evex = 1 },
    { .name = "xmmvlk dec", .old = ref_aes_gcm_dec_vlk, .cur = direct_aes_gcm_dec_vlk,
      .row = "direct", .evex = 1 },
    /* this tree's two forms of the ymm kernels against each other: "old" is the VEX one */
    { .name = "vex->evex enc", .old = direct_aes_gcm_enc_vaes, .cur = direct_aes_gcm_enc_vaes_vl,
      .row = "direct-vaes", .evex = 1 },
    { .name = "vex->evex dec", .old = direct_aes_gcm_dec_vaes, .cur = direct_aes_gcm_dec_vaes_vl,
      .row = "direct-vaes", .evex = 1 },
    /* and of the AES-NI ones: "old" is the SSE one */
    { .name = "sse->evex enc", .old = direct_aes_gcm_enc, .cur = direct_aes_gcm_enc_vl,
      .row = "direct", .evex = 1 },
    { .name = "sse->evex dec", .old = direct_aes_gcm_dec, .cur = direct_aes_gcm_dec_vl,
      .row = "direct", .evex = 1 },
    /* and the SSE form against the EVEX form's Karatsuba variant (_vlk) */
    { .name = "sse->vlk enc", .old = direct_aes_gcm_enc, .cur = direct_aes_gcm_enc_vlk,
      .row = "direct", .evex = 1 },
    { .name = "sse->vlk dec", .old = direct_aes_gcm_dec, .cur = direct_aes_gcm_dec_vlk,
      .row = "direct", .evex = 1 },
};

static struct direct_aes_key key;
static struct direct_ghash_key gk;
static uint8_t *in, *out;

/* 0 when old and new agree on output, counter and Y for several lengths up to max blocks
 * (from counters that wrap their last 32 bits within the first groups). */
static int agree(const struct pair *p, size_t max)
{
    static const size_t lens[] = { 0, 8, 16, 24, 40, 64, 72, 136, 1024 };
    uint8_t *o1 = malloc(max * 16), *o2 = malloc(max * 16);
    int bad = 0;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0] && lens[i] <= max && o1 && o2; i++) {
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

/* Core cycles per 16-byte block over one batch of ~ms milliseconds (wall clock), timed in
 * thread CPU time read at its ends (bench.h). */
static double batch(gcm_kernel k, size_t nb, double ms)
{
    struct direct_gcm_state st = { .ctr = { 0 } };
    double c0 = silicon_core_mhz_now(), t0 = bench_now_cpu(), w0 = bench_now_wall();
    size_t blocks = 0;
    do {
        for (int i = 0; i < 16; i++)
            blocks += k(&key, &gk, &st, out, in, nb);
    } while (bench_now_wall() - w0 < ms / 1e3);
    double t = bench_now_cpu() - t0, mhz = (c0 + silicon_core_mhz_now()) / 2;
    return t * mhz * 1e6 / (double)blocks;
}

struct opts {
    int reps, bits;
    double ms;
    size_t bytes, gap; /* out starts gap bytes past the end of in */
};

/* 0, or -1 with the accepted forms on stderr. */
static int parse(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){ .reps = 11, .bits = 128, .ms = 40, .bytes = 16384, .gap = 2048 };
    int ok = argc % 2 == 1; /* options come in pairs */
    for (int i = 1; ok && i + 1 < argc; i += 2) {
        const char *f = argv[i], *v = argv[i + 1];
        if (!strcmp(f, "-r"))
            o->reps = atoi(v);
        else if (!strcmp(f, "-m"))
            o->ms = atof(v);
        else if (!strcmp(f, "-b"))
            o->bytes = strtoul(v, NULL, 10);
        else if (!strcmp(f, "-g"))
            o->gap = strtoul(v, NULL, 10);
        else if (!strcmp(f, "-k"))
            o->bits = atoi(v);
        else
            ok = 0;
    }
    if (ok && o->reps >= 3 && o->reps <= 64 && o->ms > 0 && o->ms <= 1000 && o->bytes >= 256 &&
        o->bytes <= 1 << 20 && o->gap <= 1 << 20 &&
        (o->bits == 128 || o->bits == 192 || o->bits == 256))
        return 0;
    fprintf(stderr, "usage: gcm_kernels_bench [-r 3..64] [-m 0..1000 ms] [-b 256..1048576 bytes] "
                    "[-g 0..1048576 bytes] [-k 128|192|256]\n");
    return -1;
}

/* The keys and the buffers (in, then out gap bytes after its end). */
static void setup(const struct opts *o)
{
    static const uint8_t k32[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, zero[16];
    uint8_t h[16];
    uint8_t *buf = aligned_alloc(4096, (2 * o->bytes + o->gap + 4095) & ~(size_t)4095);
    if (!buf)
        abort();
    in = buf, out = buf + o->bytes + o->gap;
    for (size_t i = 0; i < o->bytes; i++)
        in[i] = (uint8_t)(i * 7 + 1);
    direct_aes_set_encrypt_key(&key, k32, (unsigned)o->bits);
    direct_aes_encrypt_block(&key, h, zero);
    direct_ghash_init(&gk, h);
    direct_ghash_shift(&gk);
}

/* Old and new timed alternately, the order swapped each repeat; one line. */
static void time_pair(const struct pair *p, const struct opts *o)
{
    double co[64], cn[64], ratio[64];
    size_t nb = o->bytes / 16;
    for (int r = 0; r < o->reps; r++) {
        if (r % 2)
            cn[r] = batch(p->cur, nb, o->ms), co[r] = batch(p->old, nb, o->ms);
        else
            co[r] = batch(p->old, nb, o->ms), cn[r] = batch(p->cur, nb, o->ms);
        ratio[r] = co[r] / cn[r];
    }
    printf("%s  old %6.2f  new %6.2f  cycles/16B   new/old speed %.3f\n", p->name,
           bench_median(co, o->reps), bench_median(cn, o->reps), bench_median(ratio, o->reps));
}

int main(int argc, char **argv)
{
    if (bench_deny_check("gcm_kernels_bench"))
        return 2;
    struct opts o;
    if (parse(argc, argv, &o))
        return 2;
    char why[160];
    if (!bench_direct_ok("aes-128-gcm", "direct", why, sizeof why)) {
        printf("UNAVAILABLE: %s\n", why);
        return 0;
    }
    setup(&o);
    silicon_measure();
    if (getenv("GCMK_DESCRIBE"))
        silicon_describe(stdout);
    printf("AES-%d, %zu bytes, out %zu bytes after in, %d repeats of ~%.0f ms each side; cycles "
           "per 16 B (median)\n", o.bits, o.bytes, o.gap, o.reps, o.ms);
    int bad = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const struct pair *p = &pairs[i];
        if (!bench_direct_ok("aes-128-gcm", p->row, why, sizeof why))
            printf("%s  UNAVAILABLE: %s\n", p->name, why);
        else if (p->evex && !direct_x86_gcm_evex(why, sizeof why))
            printf("%s  UNAVAILABLE: %s\n", p->name, why);
        else if (!p->old)
            printf("%s  UNAVAILABLE: the reference commit has no such kernel\n", p->name);
        else if (!getenv("GCMK_NOCHECK") && agree(p, o.bytes / 16))
            bad = 1;
        else
            time_pair(p, &o);
    }
    return bad;
}
