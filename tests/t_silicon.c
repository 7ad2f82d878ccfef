/* The silicon's limits (src/limits.c): the microbenchmarks give plausible, self-consistent
 * figures, honour ACCELSCOPE_DENY, the ceilings follow the stated model, and the fastest
 * CBC encryption actually measured lands near its ceiling without beating it (a ceiling that
 * is beaten, or far off, is a wrong model or a wrong clock). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cpu.h"
#include "silicon.h"
#include "all.h"
#include "registry.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void check_insns(const struct silicon *l)
{
    static const enum feature need[SIL_COUNT] = {
        [SIL_AESENC] = FEAT_AESNI, [SIL_VAESENC] = FEAT_VAES,
        [SIL_PCLMULQDQ] = FEAT_PCLMULQDQ, [SIL_VPCLMULQDQ] = FEAT_VPCLMULQDQ,
        [SIL_SHA256RNDS2] = FEAT_SHA,
        [SIL_SHA1RNDS4] = FEAT_SHA,
    };
    double ratio = l->core_mhz / l->tsc_mhz;
    for (int i = 0; i < SIL_COUNT; i++) {
        const struct silicon_insn_result *r = &l->insn[i];
        int wide = i == SIL_VAESENC || i == SIL_VPCLMULQDQ;
        int usable = cpu_has(need[i]) && (!wide || cpu_has(FEAT_AVX2));
        CHECK(r->ok == usable, "%s measured=%d but usable=%d", r->name, r->ok, usable);
        if (!r->ok) {
            UNAVAILABLE(r->name, r->why);
            if (cpu_denied(need[i]) && cpu_get()->present[need[i]])
                CHECK(strstr(r->why, "ACCELSCOPE_DENY") != NULL, "%s: why = '%s'", r->name,
                      r->why);
            continue;
        }
        CHECK(r->lat_core >= 0.5 && r->lat_core <= 40, "%s latency %.2f core cycles", r->name,
              r->lat_core);
        CHECK(r->tp_core >= 0.1 && r->tp_core <= r->lat_core * 1.25,
              "%s reciprocal throughput %.2f vs latency %.2f", r->name, r->tp_core, r->lat_core);
        /* counted at the clock of its own window, about the fastest one seen */
        CHECK(r->lat_core <= r->lat_tsc * ratio * 1.5 && r->lat_core >= r->lat_tsc * 0.3,
              "%s: %.2f core cycles against %.2f TSC cycles at %.2f core/TSC", r->name,
              r->lat_core, r->lat_tsc, ratio);
    }
}

static void check_model(const struct silicon *l)
{
    char why[400];
    double e128, d128, e256, ctr, gcm, v;
    if (!l->insn[SIL_AESENC].ok) {
        CHECK(silicon_ceiling("aes-128-cbc", 0, &v, why, sizeof why) != 0 && v == 0,
              "a ceiling without AESENC figures");
        return;
    }
    CHECK(silicon_ceiling("aes-128-cbc", 0, &e128, why, sizeof why) == 0, "cbc: %s", why);
    double want = 16 / (10 * l->insn[SIL_AESENC].lat_core) * l->core_mhz;
    CHECK(fabs(e128 - want) < 1e-6 * want, "aes-128-cbc encrypt %.1f, model says %.1f", e128,
          want);
    CHECK(strstr(why, "latency") != NULL, "the CBC-encrypt model names latency: %s", why);
    CHECK(silicon_ceiling("aes-128-cbc", 1, &d128, why, sizeof why) == 0 && d128 > e128,
          "CBC decryption (parallel) %.0f should beat encryption (a chain) %.0f", d128, e128);
    CHECK(silicon_ceiling("aes-256-cbc", 0, &e256, why, sizeof why) == 0 &&
              fabs(e256 * 14 - e128 * 10) < 1e-6 * e128 * 10,
          "aes-256-cbc ceiling %.1f is not 10/14 of aes-128's %.1f", e256, e128);
    CHECK(silicon_ceiling("aes-128-ctr", 0, &ctr, why, sizeof why) == 0 && ctr >= d128 * 0.999,
          "CTR %.0f at least CBC decryption's %.0f", ctr, d128);
    if (l->insn[SIL_PCLMULQDQ].ok)
        CHECK(silicon_ceiling("aes-128-gcm", 0, &gcm, why, sizeof why) == 0 && gcm <= ctr,
              "GCM %.0f bounded by CTR %.0f: %s", gcm, ctr, why);
    CHECK(silicon_ceiling("md5", 0, &v, why, sizeof why) != 0 && strstr(why, "no ceiling"),
          "md5 has no model, why = '%s'", why);
    if (l->insn[SIL_SHA256RNDS2].ok)
        CHECK(silicon_ceiling("sha256", 0, &v, why, sizeof why) == 0 && v > 0, "sha256: %s", why);
}

#if defined(__x86_64__)
/* Fastest of many 16 KiB CBC encryptions through the direct impl, in TSC time: the quietest
 * moment, to set against a ceiling taken from the fastest microbenchmark runs. */
static void check_reality(const struct silicon *l)
{
    size_t n;
    const struct impl *v = backend_direct.impls(&n), *im = NULL;
    for (size_t i = 0; i < n && !im; i++)
        if (strcmp(v[i].alg, "aes-128-cbc") == 0 && strcmp(v[i].name, "direct") == 0)
            im = &v[i];
    char why[300];
    double ceil;
    if (!im || im->check(im, why, sizeof why) ||
        silicon_ceiling("aes-128-cbc", 0, &ceil, why, sizeof why) != 0) {
        UNAVAILABLE("direct aes-128-cbc against its ceiling", im ? why : "no direct impl");
        return;
    }
    static uint8_t buf[16384 + 64];
    uint8_t key[16] = { 1 }, iv[16] = { 2 };
    void *ctx = calloc(1, im->ctx_size);
    CHECK(ctx && im->init(im, ctx, key, iv, 0, why, sizeof why) == 0, "init");
    double best = 1e30;
    for (int r = 0; r < 200; r++) {
        uint64_t t0 = __builtin_ia32_rdtsc();
        im->op(ctx, buf, buf, 16384);
        uint64_t t1 = __builtin_ia32_rdtsc();
        if (t1 - t0 < best)
            best = (double)(t1 - t0);
    }
    free(ctx);
    double mbs = 16384 / best * l->tsc_mhz;
    printf("direct aes-128-cbc encrypt: best %.0f MB/s, ceiling %.0f MB/s (%.1f%%)\n", mbs, ceil,
           100 * mbs / ceil);
    /* wide enough for a busy shared host, narrow enough to catch a wrong model (x1.4 for
     * 10 vs 14 rounds, x2 for a throughput taken for a latency) or a wrong clock */
    CHECK(mbs <= ceil * 1.25, "measured %.0f MB/s beats the ceiling %.0f: wrong model or clock",
          mbs, ceil);
    CHECK(mbs >= ceil * 0.65, "measured %.0f MB/s is far below the ceiling %.0f", mbs, ceil);
}
#endif

static void check_describe(int measured)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    silicon_describe(f);
    fclose(f);
    int lines = 0, bad = 0;
    for (char *save = NULL, *ln = strtok_r(text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        char *colon = strstr(ln, ": ");
        bad += !colon || colon == ln || !colon[2];
        lines++;
    }
    CHECK(lines >= (measured ? 3 : 1) && !bad, "silicon_describe: %d lines, %d not \"key: value\"", lines, bad);
    free(text);
}

int main(void)
{
    double t0 = now_ms();
    int rc = silicon_measure();
    double t1 = now_ms();
    const struct silicon *l = silicon_get();
    double t2 = now_ms();
#if defined(__x86_64__)
    CHECK(rc == 0, "silicon_measure: %s", l->why);
#else
    if (rc != 0)
        UNAVAILABLE("limits", l->why);
#endif
    check_describe(rc == 0);
    if (rc != 0)
        return check_done();
    printf("silicon_measure took %.0f ms; core %.0f MHz, TSC %.0f MHz\n", t1 - t0, l->core_mhz,
           l->tsc_mhz);
    CHECK(t1 - t0 < 1500, "silicon_measure took %.0f ms (budget ~300)", t1 - t0);
    CHECK(t2 - t1 < 5, "the second call measured again (%.1f ms)", t2 - t1);
    CHECK(l->tsc_mhz > 100 && l->tsc_mhz < 10000, "TSC %.0f MHz", l->tsc_mhz);
    CHECK(l->core_mhz > 0.3 * l->tsc_mhz && l->core_mhz < 4 * l->tsc_mhz,
          "core %.0f MHz against TSC %.0f MHz", l->core_mhz, l->tsc_mhz);
    CHECK(l->memcpy_l1_mb_s > 1000 && l->memcpy_ram_mb_s > 100 &&
              l->memcpy_l1_mb_s > l->memcpy_ram_mb_s * 0.8,
          "memcpy %.0f MB/s (16 KiB), %.0f MB/s (16 MiB)", l->memcpy_l1_mb_s, l->memcpy_ram_mb_s);
    double now = silicon_core_mhz_now();
    CHECK(now > 0.3 * l->core_mhz && now < 1.5 * l->core_mhz, "core clock now %.0f MHz", now);
    check_insns(l);
    check_model(l);
#if defined(__x86_64__)
    check_reality(l);
#endif
    return check_done();
}
