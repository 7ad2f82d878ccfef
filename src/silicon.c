/* The silicon's limits: see limits.h for the model. Timing uses the TSC (RDTSC) around the
 * loops of asm/x86_64/ubench.S. Runs are converted to core cycles at the clock of dependent-add
 * samples taken beside them, because the clock moves (boost, a busy host), and the median of
 * several such windows is kept (core_per_insn); ceilings are quoted at the fastest clock
 * seen. */
#include "silicon.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "clock.h"
#include "cpu.h"

static struct silicon lim;
static int measured;

#if defined(__x86_64__)

#include "direct.h"

#define WINDOWS 7
#define PAIRS 5

static const struct probe {
    const char *name;
    void (*lat)(uint64_t);
    void (*tp)(uint64_t);
    enum feature need[2];
    int nneed;
} probes[SIL_COUNT] = {
    [SIL_AESENC] = { "AESENC", ubench_aesenc_lat, ubench_aesenc_tp, { FEAT_AESNI }, 1 },
    [SIL_VAESENC] = { "VAESENC ymm", ubench_vaesenc_lat, ubench_vaesenc_tp,
                      { FEAT_VAES, FEAT_AVX2 }, 2 },
    [SIL_PCLMULQDQ] = { "PCLMULQDQ", ubench_pclmul_lat, ubench_pclmul_tp, { FEAT_PCLMULQDQ }, 1 },
    [SIL_VPCLMULQDQ] = { "VPCLMULQDQ ymm", ubench_vpclmul_lat, ubench_vpclmul_tp,
                         { FEAT_VPCLMULQDQ, FEAT_AVX2 }, 2 },
    [SIL_SHA256RNDS2] = { "SHA256RNDS2", ubench_sha256rnds2_lat, ubench_sha256rnds2_tp,
                          { FEAT_SHA }, 1 },
    [SIL_SHA1RNDS4] = { "SHA1RNDS4", ubench_sha1rnds4_lat, ubench_sha1rnds4_tp, { FEAT_SHA }, 1 },
};

static double fastest_add = 1e30; /* fewest TSC cycles per dependent add seen: top clock */

/* TSC cycles per instruction of one run of iters iterations. */
static double tsc_run(void (*fn)(uint64_t), uint64_t iters)
{
    uint64_t t0 = __builtin_ia32_rdtsc();
    fn(iters);
    uint64_t t1 = __builtin_ia32_rdtsc();
    return (double)(t1 - t0) / ((double)iters * UBENCH_UNROLL);
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Cycles per instruction. Runs alternate with dependent-add samples in windows of PAIRS;
 * within a window (~0.5 ms, too short for the clock to move much) the fastest run and the
 * fastest add sample are taken, which drops interruptions of either, and their ratio is the
 * instruction's time in core cycles at that window's clock. The median over WINDOWS windows
 * is kept (a constant of the silicon, whatever the clock did between windows; on a shared
 * host either half can be slowed for longer than a window, so neither extreme is trusted).
 * *tsc is the fastest run in TSC cycles. */
static double core_per_insn(void (*fn)(uint64_t), uint64_t iters, double *tsc)
{
    double core[WINDOWS], best_tsc = 1e30;
    fn(iters / 8 + 1); /* warm up: caches, the unit's power state */
    for (int w = 0; w < WINDOWS; w++) {
        double add = 1e30, t = 1e30;
        for (int r = 0; r < PAIRS; r++) {
            double a = tsc_run(ubench_add_lat, 4000), x = tsc_run(fn, iters);
            add = a < add ? a : add;
            t = x < t ? x : t;
        }
        if (add < fastest_add)
            fastest_add = add;
        if (t < best_tsc)
            best_tsc = t;
        core[w] = t / add;
    }
    *tsc = best_tsc;
    qsort(core, WINDOWS, sizeof core[0], cmpd);
    return core[WINDOWS / 2];
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Large buffers on transparent huge pages where the kernel allows: first touch of 4 KiB
 * pages costs more than the copies in a VM (~0.5 s for 128 MiB in this VM). */
static void *big_alloc(size_t bytes)
{
    const size_t huge = 2u << 20;
    if (bytes < huge || bytes % huge)
        return malloc(bytes);
    void *p = aligned_alloc(huge, bytes);
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

/* Best MB/s of memcpy over bytes-sized buffers; the call goes through a volatile pointer so
 * the copies cannot be elided. */
static double memcpy_mb_s(size_t bytes, int reps)
{
    void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
    uint8_t *a = big_alloc(bytes), *b = big_alloc(bytes);
    double best = 0;
    if (!a || !b)
        goto out_free;
    memset(a, 1, bytes), memset(b, 2, bytes);
    size_t inner = bytes >= (1u << 20) ? 1 : (4u << 20) / bytes;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        for (size_t i = 0; i < inner; i++)
            cpy(i & 1 ? a : b, i & 1 ? b : a, bytes);
        double dt = now_s() - t0;
        double mbs = dt > 0 ? (double)bytes * inner / dt / 1e6 : 0;
        if (mbs > best)
            best = mbs;
    }
out_free:
    free(a);
    free(b);
    return best;
}

static void measure(void)
{
    char why[128] = "";
    double t0 = now_s();
    lim.tsc_mhz = clock_tsc_mhz(why, sizeof why);
    if (lim.tsc_mhz <= 0) {
        snprintf(lim.why, sizeof lim.why, "%s", why);
        return;
    }
    double unused;
    core_per_insn(ubench_add_lat, 8000, &unused); /* the clock settles */
    for (int i = 0; i < SIL_COUNT; i++) {
        const struct probe *p = &probes[i];
        struct silicon_insn_result *r = &lim.insn[i];
        r->name = p->name;
        int ok = 1;
        for (int k = 0; k < p->nneed && ok; k++)
            ok = cpu_feature_status(p->need[k], r->why, sizeof r->why);
        if (!ok)
            continue;
        r->lat_core = core_per_insn(p->lat, 2000, &r->lat_tsc);
        r->tp_core = core_per_insn(p->tp, 4000, &r->tp_tsc);
        r->ok = 1;
    }
    lim.core_mhz = lim.tsc_mhz / fastest_add; /* one add per core cycle, at the top clock */
    lim.memcpy_l1_mb_s = memcpy_mb_s(16384, 5);
    lim.memcpy_ram_mb_s = memcpy_mb_s(16u << 20, 3);
    lim.ok = 1;
    lim.measure_ms = (now_s() - t0) * 1e3;
}

double silicon_core_mhz_now(void)
{
    if (silicon_measure() != 0)
        return 0;
    double add = 1e30;
    for (int r = 0; r < 3; r++) {
        uint64_t t0 = __builtin_ia32_rdtsc();
        ubench_add_lat(4000);
        uint64_t t1 = __builtin_ia32_rdtsc();
        double c = (double)(t1 - t0) / (4000.0 * UBENCH_UNROLL);
        if (c < add)
            add = c;
    }
    return lim.tsc_mhz / add;
}

#else

double silicon_core_mhz_now(void)
{
    return 0;
}

static void measure(void)
{
    snprintf(lim.why, sizeof lim.why, "no instruction microbenchmarks for this architecture");
    static const char *const names[SIL_COUNT] = { "AESENC", "VAESENC ymm", "PCLMULQDQ",
                                                  "VPCLMULQDQ ymm", "SHA256RNDS2", "SHA1RNDS4" };
    for (int i = 0; i < SIL_COUNT; i++) {
        lim.insn[i].name = names[i];
        snprintf(lim.insn[i].why, sizeof lim.insn[i].why, "x86-64 only");
    }
}

#endif

int silicon_measure(void)
{
    if (!measured) {
        measure();
        measured = 1;
    }
    return lim.ok ? 0 : -1;
}

const struct silicon *silicon_get(void)
{
    silicon_measure();
    return &lim;
}

static int need(enum silicon_insn i, char *why, size_t n)
{
    if (lim.insn[i].ok)
        return 1;
    snprintf(why, n, "%s not measured: %s", lim.insn[i].name, lim.insn[i].why);
    return 0;
}

/* MB/s from bytes per core cycles. */
static double rate(double bytes, double cycles)
{
    return bytes / cycles * lim.core_mhz;
}

static int aes_rounds(const char *alg)
{
    return strncmp(alg, "aes-128-", 8) == 0 ? 10 : strncmp(alg, "aes-192-", 8) == 0 ? 12 : 14;
}

/* CTR: AES-NI xmm, or VAES ymm where measured and faster. */
static int ctr_ceiling(int rounds, double *mbs, char *why, size_t n)
{
    if (!need(SIL_AESENC, why, n))
        return -1;
    const struct silicon_insn_result *a = &lim.insn[SIL_AESENC], *v = &lim.insn[SIL_VAESENC];
    double x = rate(16, rounds * a->tp_core);
    if (v->ok && rate(32, rounds * v->tp_core) > x) {
        *mbs = rate(32, rounds * v->tp_core);
        snprintf(why, n, "32 B per %d x VAESENC ymm recip. throughput %.2f core cycles",
                 rounds, v->tp_core);
    } else {
        *mbs = x;
        snprintf(why, n, "16 B per %d x AESENC recip. throughput %.2f core cycles", rounds,
                 a->tp_core);
    }
    return 0;
}

/* The algorithms the model below covers: AES-CBC/CTR/GCM, SHA-1, SHA-256. */
static int modelled(const char *alg)
{
    size_t len = strlen(alg);
    if (strncmp(alg, "aes-", 4) == 0 && len == 11)
        return !strcmp(alg + 7, "-cbc") || !strcmp(alg + 7, "-ctr") || !strcmp(alg + 7, "-gcm");
    return !strcmp(alg, "sha256") || !strcmp(alg, "sha1");
}

int silicon_ceiling(const char *alg, int decrypt, double *mb_per_s, char *why, size_t n)
{
    char model[400];
    double mbs = 0;
    *mb_per_s = 0;
    /* Decided before measuring, so a run of md5 alone never pays for microbenchmarks. */
    if (!modelled(alg)) {
        snprintf(why, n, "no ceiling model for %s", alg);
        return -1;
    }
    if (silicon_measure() != 0) {
        snprintf(why, n, "no limits: %s", lim.why);
        return -1;
    }
    size_t len = strlen(alg);
    int aes = strncmp(alg, "aes-", 4) == 0 && len == 11;
    if (aes && strcmp(alg + 7, "-cbc") == 0) {
        int r = aes_rounds(alg);
        if (!need(SIL_AESENC, why, n))
            return -1;
        const struct silicon_insn_result *a = &lim.insn[SIL_AESENC];
        if (decrypt) {
            mbs = rate(16, r * a->tp_core);
            snprintf(model, sizeof model, "16 B per %d x AESENC recip. throughput %.2f core "
                     "cycles (AESDEC taken as AESENC)", r, a->tp_core);
        } else {
            mbs = rate(16, r * a->lat_core);
            snprintf(model, sizeof model, "16 B per %d x AESENC latency %.2f core cycles", r,
                     a->lat_core);
        }
    } else if (aes && strcmp(alg + 7, "-ctr") == 0) {
        if (ctr_ceiling(aes_rounds(alg), &mbs, model, sizeof model) != 0)
            return snprintf(why, n, "%s", model), -1;
    } else if (aes && strcmp(alg + 7, "-gcm") == 0) {
        char ctr[160];
        if (ctr_ceiling(aes_rounds(alg), &mbs, ctr, sizeof ctr) != 0)
            return snprintf(why, n, "%s", ctr), -1;
        if (!need(SIL_PCLMULQDQ, why, n))
            return -1;
        const struct silicon_insn_result *p = &lim.insn[SIL_PCLMULQDQ];
        const struct silicon_insn_result *v = &lim.insn[SIL_VPCLMULQDQ];
        double g = rate(16, 3 * p->tp_core);
        int wide = v->ok && rate(32, 3 * v->tp_core) > g;
        if (wide)
            g = rate(32, 3 * v->tp_core);
        snprintf(model, sizeof model, "min(CTR: %s; GHASH: %d B per 3 x %s recip. "
                 "throughput %.2f core cycles)", ctr, wide ? 32 : 16, wide ? v->name : p->name,
                 wide ? v->tp_core : p->tp_core);
        if (g < mbs)
            mbs = g;
    } else if (strcmp(alg, "sha256") == 0) {
        if (!need(SIL_SHA256RNDS2, why, n))
            return -1;
        mbs = rate(64, 32 * lim.insn[SIL_SHA256RNDS2].lat_core);
        snprintf(model, sizeof model, "64 B per 32 x SHA256RNDS2 latency %.2f core cycles",
                 lim.insn[SIL_SHA256RNDS2].lat_core);
    } else if (strcmp(alg, "sha1") == 0) {
        if (!need(SIL_SHA1RNDS4, why, n))
            return -1;
        mbs = rate(64, 20 * lim.insn[SIL_SHA1RNDS4].lat_core);
        snprintf(model, sizeof model, "64 B per 20 x SHA1RNDS4 latency %.2f core cycles",
                 lim.insn[SIL_SHA1RNDS4].lat_core);
    } else {
        snprintf(why, n, "no ceiling model for %s", alg);
        return -1;
    }
    *mb_per_s = mbs;
    snprintf(why, n, "%s at %.0f MHz core", model, lim.core_mhz);
    return 0;
}

void silicon_describe(FILE *out)
{
    static const char *const algs[] = { "aes-128-cbc", "aes-192-cbc", "aes-256-cbc",
                                        "aes-128-ctr", "aes-256-ctr", "aes-128-gcm",
                                        "aes-256-gcm", "sha1", "sha256" };
    if (silicon_measure() != 0) {
        fprintf(out, "limits: %s\n", lim.why);
        return;
    }
    fprintf(out, "limits clock: core %.0f MHz (dependent adds), TSC %.0f MHz; cycles below "
            "are core cycles, TSC cycles in brackets\n", lim.core_mhz, lim.tsc_mhz);
    for (int i = 0; i < SIL_COUNT; i++) {
        const struct silicon_insn_result *r = &lim.insn[i];
        if (!r->ok)
            fprintf(out, "limits %s: not measured: %s\n", r->name, r->why);
        else
            fprintf(out, "limits %s: latency %.2f [%.2f], reciprocal throughput %.2f [%.2f]\n",
                    r->name, r->lat_core, r->lat_tsc, r->tp_core, r->tp_tsc);
    }
    fprintf(out, "limits memcpy: %.0f MB/s (16 KiB), %.0f MB/s (16 MiB)\n", lim.memcpy_l1_mb_s,
            lim.memcpy_ram_mb_s);
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        char why[300];
        double enc, dec;
        int e = silicon_ceiling(algs[i], 0, &enc, why, sizeof why);
        if (e != 0) {
            fprintf(out, "limits ceiling %s: none: %s\n", algs[i], why);
            continue;
        }
        if (strstr(algs[i], "-cbc") && silicon_ceiling(algs[i], 1, &dec, why, sizeof why) == 0)
            fprintf(out, "limits ceiling %s: encrypt %.0f MB/s, decrypt %.0f MB/s\n", algs[i],
                    enc, dec);
        else
            fprintf(out, "limits ceiling %s: %.0f MB/s\n", algs[i], enc);
    }
    fprintf(out, "limits measured in: %.0f ms\n", lim.measure_ms);
}

/* The figures measured by another process of this same program (the session's ceilings
 * child, a fork: its string pointers are valid here too, the image is the same). */
void silicon_adopt(const struct silicon *l)
{
    lim = *l;
    measured = 1;
}

void silicon_adopt_failure(const char *why)
{
    memset(&lim, 0, sizeof lim);
    snprintf(lim.why, sizeof lim.why, "%s", why);
    measured = 1;
}

int silicon_has_model(const char *alg)
{
    return modelled(alg);
}
