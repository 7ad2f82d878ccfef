/* The worker protocol end to end: real worker processes (ACCELSCOPE_BIN, default
 * ./accelscope) for the OpenSSL paths, the masks in effect on the asm path, threads, decrypt,
 * the fault injections: a trapping, a wrong and a hanging implementation, and the figures
 * against ones worked out by hand from a scripted worker's known samples. */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "algo.h"
#include "check.h"
#include "engine.h"
#include "osslcap.h"
#include "registry.h"

static struct result run(const char *alg, const char *name, size_t bytes, int threads,
                         int decrypt, double watchdog)
{
    struct result r;
    memset(&r, 0, sizeof r);
    const struct impl *im = registry_find(alg, name);
    if (!im) {
        r.status = RES_ERROR;
        snprintf(r.reason, sizeof r.reason, "no implementation %s/%s", alg, name);
        return r;
    }
    struct engine_job j = { .impl = im, .bytes = bytes, .threads = threads, .seconds = 0.02,
                            .samples = 5, .decrypt = decrypt, .watchdog = watchdog };
    engine_run(&j, &r, NULL, NULL);
    return r;
}

/* Every OpenSSL implementation of every algorithm: verified and measured, or unavailable
 * with a reason. */
static void test_openssl_paths(void)
{
    for (size_t i = 0; i < registry_count(); i++) {
        const struct impl *im = registry_get(i);
        if (strcmp(im->backend, "openssl"))
            continue;
        const struct algo *a = algo_find(im->alg);
        char why[256];
        if (im->check(im, why, sizeof why)) {
            UNAVAILABLE(im->name, why);
            continue;
        }
        size_t len = a->block > 1 ? 4 * a->block : 100;
        struct result r = run(im->alg, im->name, len, 1, 0, 0);
        CHECK(r.status == RES_OK && r.mb_per_s > 0 && r.samples >= 5,
              "%s/%s: ok with figures (status %d: %s)", im->alg, im->name, r.status, r.reason);
        CHECK(r.reference[0] != 0, "%s/%s: verified against something", im->alg, im->name);
    }
}

/* The asm path's worker really runs with the capability mask: its vector lacks AES-NI. */
static void test_mask_in_effect(void)
{
#if defined(__x86_64__)
    struct result hw = run("aes-128-ctr", "openssl", 64, 1, 0, 0);
    struct result simd = run("aes-128-ctr", "openssl-simd", 64, 1, 0, 0);
    struct result in = run("aes-128-ctr", "openssl-int", 64, 1, 0, 0);
    uint64_t wh[2], ws[2], wi[2];
    int nh = osslcap_parse(hw.capvec, wh), ns = osslcap_parse(simd.capvec, ws),
        ni = osslcap_parse(in.capvec, wi);
    CHECK(nh == 2 && ns == 2 && ni == 2, "workers report the vector: '%s' '%s'", hw.capvec,
          simd.capvec);
    if (osslcap_has(wh, nh, FEAT_AESNI) == 1) {
        CHECK(osslcap_has(ws, ns, FEAT_AESNI) == 0 && osslcap_has(ws, ns, FEAT_PCLMULQDQ) == 0,
              "simd mask clears AES-NI and PCLMULQDQ: %s", simd.capvec);
        CHECK(osslcap_has(ws, ns, FEAT_SHA) == 0 && osslcap_has(ws, ns, FEAT_VAES) == 0,
              "simd mask clears SHA and VAES: %s", simd.capvec);
        CHECK(osslcap_has(ws, ns, FEAT_SSSE3) == osslcap_has(wh, nh, FEAT_SSSE3) &&
              osslcap_has(ws, ns, FEAT_AVX2) == osslcap_has(wh, nh, FEAT_AVX2),
              "simd mask keeps SSSE3 and AVX2");
        CHECK(wi[0] == 0 || osslcap_has(wi, ni, FEAT_SSSE3) == 0, "int mask clears SIMD: %s",
              in.capvec);
        CHECK(wi[1] == 0, "int mask zeroes the second word: %s", in.capvec);
    } else {
        UNAVAILABLE("mask check", "libcrypto does not use AES-NI here");
    }
#else
    UNAVAILABLE("mask check", "x86_64 masks only in this test");
#endif
}

static void test_faults(void)
{
    struct result r = run("sha256", "fault-crash", 64, 1, 0, 0);
    CHECK(r.status == RES_CRASHED, "trap gives crashed (status %d: %s)", r.status, r.reason);
    char st[48];
    CHECK(!strcmp(result_status_text(&r, st, sizeof st), "crashed (SIGILL)"),
          "named SIGILL: %s", result_status_text(&r, st, sizeof st));
    r = run("sha256", "fault-wrong", 64, 1, 0, 0);
    CHECK(r.status == RES_WRONG && r.mb_per_s == 0 && r.reason[0],
          "wrong output, no figure (status %d: %s)", r.status, r.reason);
    r = run("sha256", "fault-inplace", 64, 1, 0, 0);
    CHECK(r.status == RES_WRONG && strstr(r.reason, "in place"),
          "wrong only in place is caught before timing (status %d: %s)", r.status, r.reason);
    r = run("sha256", "fault-exit", 64, 1, 0, 0);
    CHECK(r.status == RES_ERROR && strstr(r.reason, "status 3"),
          "a worker failing at exit gives no figure (status %d: %s)", r.status, r.reason);
    r = run("sha256", "fault-hang", 64, 1, 0, 1.0);
    CHECK(r.status == RES_TIMEOUT, "hang gives timed out (status %d: %s)", r.status, r.reason);
    /* The engine lives on: the next cell is fine. */
    r = run("sha256", "openssl", 64, 1, 0, 0);
    CHECK(r.status == RES_OK, "a good cell after the faults");
}

static void test_threads_and_decrypt(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online >= 2) {
        struct result r = run("aes-128-ctr", "openssl", 1024, 2, 0, 0);
        CHECK(r.status == RES_OK && r.threads == 2 && r.thread_mb[0] > 0 && r.thread_mb[1] > 0,
              "two workers, two figures");
        CHECK(fabs(r.mb_per_s - (r.thread_mb[0] + r.thread_mb[1])) <= 1e-9 * r.mb_per_s,
              "throughput is the sum of the workers' medians: %.3f vs %.3f + %.3f", r.mb_per_s,
              r.thread_mb[0], r.thread_mb[1]);
        CHECK(r.samples >= 10, "samples from both workers (%d)", r.samples);
    } else {
        UNAVAILABLE("threads", "one CPU online");
    }
    static const char *const algs[] = { "aes-256-cbc", "aes-128-ctr", "aes-128-gcm",
                                        "chacha20-poly1305" };
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        struct result r = run(algs[i], "openssl", 256, 1, 1, 0);
        CHECK(r.status == RES_OK, "%s decrypt verified and measured (%d: %s)", algs[i],
              r.status, r.reason);
    }
}

/* The figures from known samples: a scripted worker (a shell script in the worker's place)
 * sends sample lines whose MB/s are known, and the result must hold the figures worked out
 * by hand: per-worker medians (odd and even counts), their sum, the summed minima and
 * maxima, the spread. */
static void test_aggregate(const char *bin)
{
    char path[] = "/tmp/accelscope-t_engine-XXXXXX";
    int fd = mkstemp(path);
    /* sample OPS BYTES WALL_NS CPU_NS CYCLES: 10^6 bytes per 10^9 ns is 1 MB/s. Worker 0
     * (argument 8, the CPU, is 0): 10 30 20 50 40 MB/s, median 30. Worker 1: 4 1 3 2 MB/s,
     * median 2.5. */
    static const char script[] =
        "#!/bin/sh\n"
        "echo hello $$ x; echo verified scripted; echo clock none\n"
        "if [ \"$8\" = 1 ]; then set -- 4 1 3 2; else set -- 10 30 20 50 40; fi\n"
        "for m in \"$@\"; do echo \"sample 1 ${m}000000 1000000000 1000000000 0\"; done\n"
        "echo done\n";
    CHECK(fd >= 0 && write(fd, script, sizeof script - 1) == (ssize_t)(sizeof script - 1) &&
              fchmod(fd, 0700) == 0, "scripted worker written");
    close(fd);
    engine_set_exe(path);
    struct result r = run("sha256", "openssl", 64, 2, 0, 0);
    engine_set_exe(bin);
    unlink(path);
    CHECK(r.status == RES_OK && r.samples == 9, "scripted cell ok, 9 samples (status %d: %s)",
          r.status, r.reason);
    CHECK(r.thread_mb[0] == 30 && r.thread_mb[1] == 2.5,
          "worker medians 30 and 2.5 (odd and even counts): %g, %g", r.thread_mb[0],
          r.thread_mb[1]);
    CHECK(r.mb_per_s == 32.5, "throughput 30 + 2.5 = 32.5: %g", r.mb_per_s);
    CHECK(r.mb_min == 11 && r.mb_max == 54, "min 10 + 1 = 11, max 50 + 4 = 54: %g, %g",
          r.mb_min, r.mb_max);
    CHECK(fabs(r.spread_pct - 43.0 / 65 * 100) < 1e-9, "spread (54 - 11) / (2 x 32.5): %g%%",
          r.spread_pct);
    CHECK(r.bytes == 160000000ull && r.ops == 9, "bytes and ops summed: %llu, %llu",
          (unsigned long long)r.bytes, (unsigned long long)r.ops);
}

static void test_cancel(void)
{
    const struct impl *im = registry_find("sha256", "openssl");
    struct engine_job j = { .impl = im, .bytes = 64, .threads = 1, .seconds = 5, .samples = 5 };
    struct engine *e = engine_start(&j);
    usleep(200000);
    engine_step(e);
    engine_cancel(e);
    CHECK(engine_result(e)->status == RES_CANCELLED, "cancel marks the cell");
    engine_free(e);
}

int main(void)
{
    const char *bin = getenv("ACCELSCOPE_BIN");
    bin = bin ? bin : "./accelscope";
    engine_set_exe(bin);
    setenv("ACCELSCOPE_TEST_FAULTS", "1", 1);
    test_openssl_paths();
    test_mask_in_effect();
    test_faults();
    test_threads_and_decrypt();
    test_aggregate(bin);
    test_cancel();
    return check_done();
}
