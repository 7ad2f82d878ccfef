/* The core without workers: feature table, registry (only rows that can exist on this
 * architecture), libcpuid codename trust, selection parsing, capability decoding, CSV quoting
 * and atomic, no-clobber writing. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "algo.h"
#include "all.h"
#include "check.h"
#include "clock.h"
#include "cpu.h"
#include "csv.h"
#include "csvread.h"
#include "feature.h"
#include "kat.h"
#include "osslcap.h"
#include "registry.h"
#include "select.h"

static void test_features(void)
{
    for (int f = 0; f < FEAT_COUNT; f++) {
        CHECK(feature_by_key(feature_table[f].key) == f, "key %s maps back", feature_table[f].key);
        for (int g = f + 1; g < FEAT_COUNT; g++)
            CHECK(strcmp(feature_table[f].key, feature_table[g].key), "keys unique: %s",
                  feature_table[f].key);
    }
    CHECK(feature_by_key("nonsense") == -1, "unknown key");
    char why[200];
    /* No CPU has both x86 and ARM features: the other family reads as absent, with a reason. */
    int x86 = feature_host_arch() == ARCH_X86; /* not from the features: qemu64 has none */
    enum feature other = x86 ? FEAT_ARM_AES : FEAT_AESNI;
    CHECK(!cpu_feature_status(other, why, sizeof why) && strstr(why, "CPU lacks"),
          "absent feature has a reason: %s", why);
}

static void test_deny(void)
{
    char why[600];
    setenv("ACCELSCOPE_DENY", "aesni,bogus", 1);
    CHECK(cpu_deny_check(why, sizeof why) == -1 && strstr(why, "bogus") && strstr(why, "aesni"),
          "deny check names the bad word and the accepted ones: %s", why);
    setenv("ACCELSCOPE_DENY", "aesni,sha", 1);
    CHECK(cpu_deny_check(why, sizeof why) == 0, "valid deny list accepted");
    unsetenv("ACCELSCOPE_DENY");
    /* what a denial takes with it: AVX every VEX and EVEX set, AES-NI VAES, nothing else */
    unsigned char off[FEAT_COUNT] = { 0 };
    off[FEAT_AVX] = 1;
    CHECK(cpu_deny_close(off) == 1 && off[FEAT_AVX2] && off[FEAT_VAES] && off[FEAT_VPCLMULQDQ] &&
              off[FEAT_AVX512F] && off[FEAT_AVX512BW] && off[FEAT_AVX512VL] && !off[FEAT_AESNI] &&
              !off[FEAT_SSSE3] && !off[FEAT_SHA],
          "avx denied takes AVX2, VAES, VPCLMULQDQ and AVX-512, and only those");
    memset(off, 0, sizeof off);
    off[FEAT_AESNI] = 1;
    CHECK(cpu_deny_close(off) == 1 && off[FEAT_VAES] && !off[FEAT_AVX] && !off[FEAT_VPCLMULQDQ],
          "aesni denied takes VAES alone");
    memset(off, 0, sizeof off);
    off[FEAT_SHA] = 1;
    CHECK(cpu_deny_close(off) == 0, "sha denied takes nothing more");
    /* this process's ACCELSCOPE_DENY (tests/deny.sh runs the suites under each word): what
     * cpu_denied says is closed so, and a feature taken with another names the word */
    memset(off, 0, sizeof off);
    for (int f = 0; f < FEAT_COUNT; f++)
        off[f] = (unsigned char)cpu_denied((enum feature)f);
    unsigned char closed[FEAT_COUNT];
    memcpy(closed, off, sizeof closed);
    CHECK(cpu_deny_close(closed) == 0, "cpu_denied() is closed under what features need");
    for (int f = 0; f < FEAT_COUNT; f++)
        if (off[f] && cpu_get()->present[f] && cpu_get()->enabled[f])
            CHECK(cpu_feature_status((enum feature)f, why, sizeof why) == 0 &&
                      strstr(why, "denied by ACCELSCOPE_DENY"),
                  "denied %s says so: %s", feature_table[f].key, why);
}

/* Lookups never discover: AF_ALG drivers appear only after registry_discover(), which adds
 * them once and moves nothing already listed (getrandom is on the kernel path, compiled in). */
static void test_discover(void)
{
    size_t n0 = registry_count(), kernel = 0;
    const struct impl *first = registry_get(0);
    for (size_t i = 0; i < n0; i++)
        kernel += strcmp(registry_get(i)->backend, "afalg") == 0;
    CHECK(kernel == 0 && registry_find("sha256", "kernel") == NULL,
          "no AF_ALG implementation before registry_discover() (%zu)", kernel);
    registry_discover();
    size_t n1 = registry_count();
    CHECK(n1 > n0 && registry_find("sha256", "kernel") != NULL,
          "registry_discover() adds the kernel path (%zu -> %zu)", n0, n1);
    CHECK(registry_get(0) == first, "discovery keeps what was listed in place");
    registry_discover();
    CHECK(registry_count() == n1, "registry_discover() twice lists the same (%zu)",
          registry_count());
}

/* kat_check follows impl.h's status rule: 0 = the known answer reproduced, KAT_NONE (not a
 * failure) = none on file, negative = mismatch or failure, each with a reason. */
static void test_kat(void)
{
    char why[256] = "";
    const struct impl *p = registry_find("sha256", "portable");
    CHECK(p && kat_check(p, why, sizeof why) == 0, "portable sha256 reproduces FIPS 180-4");
    p = registry_find("chacha20-poly1305", "portable");
    CHECK(p && kat_check(p, why, sizeof why) == KAT_NONE && why[0],
          "no known answer on file for chacha20-poly1305, and why says so: %s", why);
    setenv("ACCELSCOPE_TEST_FAULTS", "1", 1);
    size_t n = 0;
    const struct impl *v = backend_fault.impls(&n), *wrong = NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].name, "fault-wrong") == 0)
            wrong = &v[i];
    why[0] = 0;
    CHECK(wrong && kat_check(wrong, why, sizeof why) == -1 && why[0],
          "a wrong sha256 fails its known answer: %s", why);
    unsetenv("ACCELSCOPE_TEST_FAULTS");
}

static void test_registry(void)
{
    size_t n = registry_count();
    CHECK(n > 0, "registry lists implementations");
    int per_path[PATH_COUNT] = { 0 };
    for (size_t i = 0; i < n; i++) {
        const struct impl *im = registry_get(i);
        CHECK(algo_find(im->alg) != NULL, "%s/%s: algorithm known", im->alg, im->name);
        CHECK(im->path < PATH_COUNT, "%s/%s: path valid", im->alg, im->name);
        CHECK(im->check && im->init && im->op, "%s/%s: entry points", im->alg, im->name);
        CHECK(registry_find(im->alg, im->name) == im, "%s/%s: name unique", im->alg, im->name);
        char why[256] = "";
        if (im->check(im, why, sizeof why))
            CHECK(why[0] != 0, "%s/%s: unavailable has a reason", im->alg, im->name);
        per_path[im->path]++;
        if (i)
            CHECK(registry_get(i - 1)->path <= im->path, "listed in path order");
    }
    CHECK(per_path[PATH_HW] > 0 && per_path[PATH_ASM] > 0, "hw and asm paths present");
    const struct impl *o = registry_find("sha256", "openssl");
    CHECK(o && o->path == PATH_HW && !o->env, "openssl is hw with no mask");
    const struct impl *m = registry_find("sha256", "openssl-simd");
    CHECK(m && m->path == PATH_ASM, "openssl-simd is on the asm path");
#if defined(__x86_64__)
    CHECK(m && m->env && !strcmp(m->env, "OPENSSL_ia32cap=~0x200000200000000:~0x60020000000"),
          "simd mask keeps both words");
    const struct impl *in = registry_find("sha256", "openssl-int");
    CHECK(in && in->env && strchr(in->env, ':'), "int mask keeps both words");
#endif
    const struct impl *idea = registry_find("idea-cbc", "openssl");
    char why[256] = "";
    if (idea && idea->check(idea, why, sizeof why))
        CHECK(strstr(why, "IDEA") != NULL, "missing IDEA names it: %s", why);
    CHECK(registry_find("sha256", "fault-crash") == NULL, "fault injection off by default");
}

static void test_select(void)
{
    struct selection s;
    char why[1024];
    select_defaults(&s);
    CHECK(s.nalgs == 13 && s.nsizes == 6, "defaults: 13 algorithms x 6 sizes (%d, %d)", s.nalgs,
          s.nsizes);
    size_t v = 0;
    CHECK(select_parse_size("4k", &v, why, sizeof why) == 0 && v == 4096, "4k");
    CHECK(select_parse_size("16M", &v, why, sizeof why) == 0 && v == 16u << 20, "16M");
    CHECK(select_parse_size("1KiB", &v, why, sizeof why) == 0 && v == 1024, "1KiB");
    CHECK(select_parse_size("0", &v, why, sizeof why) == -1 && strstr(why, "16 MiB"), "0 refused");
    CHECK(select_parse_size("16777217", &v, why, sizeof why) == -1, "16 MiB + 1 refused");
    CHECK(select_parse_size("17M", &v, why, sizeof why) == -1, "17M refused");
    CHECK(select_parse_size("12q", &v, why, sizeof why) == -1, "bad suffix refused");
    CHECK(select_parse_size("-5", &v, why, sizeof why) == -1, "negative refused");
    CHECK(select_algs(&s, "sha256,nope", why, sizeof why) == -1 && strstr(why, "aes-128-cbc"),
          "unknown algorithm lists the accepted ones");
    CHECK(select_paths(&s, "hw,gpu", why, sizeof why) == -1 && strstr(why, "kernel"),
          "unknown path lists the accepted ones");
    CHECK(select_algs(&s, "aes-128-cbc", why, sizeof why) == 0 &&
          select_sizes(&s, "100", why, sizeof why) == 0 &&
          select_check(&s, why, sizeof why) == -1 && strstr(why, "16-byte"),
          "CBC size rule: %s", why);
    CHECK(select_algs(&s, "idea-cbc", why, sizeof why) == 0 &&
          select_sizes(&s, "24", why, sizeof why) == 0 && select_check(&s, why, sizeof why) == 0,
          "IDEA accepts multiples of 8");
    CHECK(select_algs(&s, "aes-128-ctr,sha256", why, sizeof why) == 0 &&
          select_sizes(&s, "1,13", why, sizeof why) == 0 && select_check(&s, why, sizeof why) == 0,
          "CTR and digests accept any size");
}

static void test_osslcap(void)
{
    uint64_t w[2];
    int n = osslcap_parse("CPUINFO: OPENSSL_ia32cap=0x0200000200000000:0x20000000", w);
    CHECK(n == 2 && w[0] == 0x0200000200000000ull && w[1] == 0x20000000ull, "parse both words");
#if defined(__x86_64__) || defined(__i386__)
    CHECK(osslcap_has(w, n, FEAT_AESNI) == 1 && osslcap_has(w, n, FEAT_PCLMULQDQ) == 1 &&
          osslcap_has(w, n, FEAT_SHA) == 1 && osslcap_has(w, n, FEAT_AVX) == 0,
          "decode AES-NI, PCLMULQDQ, SHA");
    CHECK(osslcap_has(w, n, FEAT_PL_ACE) == -1, "no OpenSSL bit for PadLock");
#endif
    CHECK(osslcap_parse("no vector", w) == 0, "absent vector");
#if defined(__x86_64__) || defined(__i386__)
    /* the bits a worker's mask forced off, from OpenSSL's " env:" clause */
    static const struct {
        const char *capvec;
        int ok;
        uint64_t c0, c1;
    } envs[] = {
        { "CPUINFO: OPENSSL_ia32cap=0x1:0x2 env:~0x200000200000000:~0x60020000000", 1,
          0x200000200000000, 0x60020000000 },
        { "CPUINFO: OPENSSL_ia32cap=0x400:0x0 env:~0xffffffffffffffff:0", 1, ~0ull, ~0ull },
        { "CPUINFO: OPENSSL_ia32cap=0x10:0x0 env:0x10", 1, ~0x10ull, ~0ull },
        { "CPUINFO: OPENSSL_ia32cap=0x10:0x0 env::~0x20", 1, 0, 0x20 },
        { "CPUINFO: OPENSSL_ia32cap=0x10:0x0", 0, 0, 0 },
        { "CPUINFO: OPENSSL_ia32cap=0x400:0x0 env:", 1, ~0ull, ~0ull },
        { "CPUINFO: OPENSSL_ia32cap=0x400:0x0 env:zzz", 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++) {
        uint64_t c[2] = { 1, 1 };
        int ok = osslcap_env_cleared(envs[i].capvec, c);
        CHECK(ok == envs[i].ok && c[0] == envs[i].c0 && c[1] == envs[i].c1,
              "cleared bits of '%s': %d 0x%llx:0x%llx", envs[i].capvec, ok,
              (unsigned long long)c[0], (unsigned long long)c[1]);
    }
    /* the closure, whatever this process denies: each pair's second goes with its first,
     * and nothing more (no pair read backwards) */
    static const struct {
        enum feature deny;
        enum feature off[4], on[2];
    } closures[] = {
        { FEAT_AESNI, { FEAT_AESNI, FEAT_VAES, FEAT_AESNI, FEAT_AESNI }, { FEAT_PCLMULQDQ, FEAT_SHA } },
        { FEAT_VAES, { FEAT_VAES, FEAT_VAES, FEAT_VAES, FEAT_VAES }, { FEAT_AESNI, FEAT_AVX2 } },
        { FEAT_SSSE3, { FEAT_SHA, FEAT_AESNI, FEAT_VPCLMULQDQ, FEAT_AVX512VL }, { FEAT_RDRAND, FEAT_BMI2 } },
        { FEAT_AVX2, { FEAT_AVX512F, FEAT_AVX512BW, FEAT_AVX512VL, FEAT_AVX2 }, { FEAT_AVX, FEAT_VAES } },
        { FEAT_AVX512BW, { FEAT_AVX512BW, FEAT_AVX512BW, FEAT_AVX512BW, FEAT_AVX512BW }, { FEAT_AVX512F, FEAT_AVX2 } },
    };
    for (size_t i = 0; i < sizeof closures / sizeof closures[0]; i++) {
        unsigned char only[FEAT_COUNT] = { 0 };
        uint64_t m[2];
        only[closures[i].deny] = 1;
        int ok = osslcap_deny_bits_of(only, m) == 1;
        for (int k = 0; k < 4; k++) {
            const struct feature_desc *fd = &feature_table[closures[i].off[k]];
            ok = ok && ((m[fd->capw] >> fd->capb) & 1);
        }
        for (int k = 0; k < 2; k++) {
            const struct feature_desc *fd = &feature_table[closures[i].on[k]];
            ok = ok && !((m[fd->capw] >> fd->capb) & 1);
        }
        CHECK(ok, "denied %s alone: OpenSSL's mask 0x%llx:0x%llx", feature_table[closures[i].deny].key,
              (unsigned long long)m[0], (unsigned long long)m[1]);
    }
    /* what this process's ACCELSCOPE_DENY takes (tests/deny.sh runs this under each word):
     * every denied feature's bit, and VAES with AES-NI, AVX2 with AVX, AVX-512 with AVX2 */
    uint64_t dm[2];
    int any = osslcap_deny_bits(dm), denied = 0;
    for (int f = 0; f < FEAT_COUNT; f++) {
        const struct feature_desc *fd = &feature_table[f];
        if (fd->arch != ARCH_X86 || fd->capw < 0 || !cpu_denied((enum feature)f))
            continue;
        denied = 1;
        CHECK((dm[fd->capw] >> fd->capb) & 1, "denied %s is in OpenSSL's mask", fd->key);
    }
    CHECK(any == denied && (denied || (dm[0] == 0 && dm[1] == 0)), "a mask only with a denial");
    static const enum feature pairs[][2] = { { FEAT_AESNI, FEAT_VAES },
                                             { FEAT_PCLMULQDQ, FEAT_VPCLMULQDQ },
                                             { FEAT_AVX, FEAT_AVX2 },
                                             { FEAT_AVX, FEAT_AVX512BW },
                                             { FEAT_SSSE3, FEAT_AVX512F } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const struct feature_desc *also = &feature_table[pairs[i][1]];
        if (cpu_denied(pairs[i][0]))
            CHECK((dm[also->capw] >> also->capb) & 1, "%s denied takes %s from OpenSSL",
                  feature_table[pairs[i][0]].key, also->key);
    }
#endif
    /* ACCELSCOPE_DENY's bits added to a mask: each form OpenSSL 3 reads (crypto/cpuid.c:
     * "~N" clears from the detected word, "N" replaces it, "" keeps it, no ':' zeroes word 2;
     * crypto/armcap.c: one whole value) */
    static const struct {
        const char *name, *base;
        uint64_t d0, d1;
        const char *want; /* NULL: refused */
    } adds[] = {
        { "OPENSSL_ia32cap", "~0x200000200000000:~0x60020000000", 0x200000000000000, 0x20,
          "OPENSSL_ia32cap=~0x200000200000000:~0x60020000020" },
        { "OPENSSL_ia32cap", "~0xffffffffffffffff:0", 0x1, 0x20,
          "OPENSSL_ia32cap=~0xffffffffffffffff:0x0" },
        { "OPENSSL_ia32cap", "~0x0:~0x802B0120", 0x200000000000000, 0x20000000,
          "OPENSSL_ia32cap=~0x200000000000000:~0xa02b0120" },
        { "OPENSSL_ia32cap", "0x2ff", 0x1, 0, "OPENSSL_ia32cap=0x2fe:0x0" },
        { "OPENSSL_ia32cap", ":~0x20000000", 0x200000000000000, 0,
          "OPENSSL_ia32cap=~0x200000000000000:~0x20000000" },
        { "OPENSSL_ia32cap", "1023:0x30", 0x3, 0x10, "OPENSSL_ia32cap=0x3fc:0x20" },
        { "OPENSSL_ia32cap", "", 0x1, 0x20, "OPENSSL_ia32cap=0x0:0x0" }, /* 0, not kept */
        { "OPENSSL_ia32cap", ":", 1, 0, NULL },
        { "OPENSSL_ia32cap", "zzz", 1, 0, NULL },
        { "OPENSSL_ia32cap", "~", 1, 0, "OPENSSL_ia32cap=~0x1:0x0" },
        { "OPENSSL_ia32cap", " 5", 1, 0, NULL },
        { "OPENSSL_ia32cap", "-1", 1, 0, NULL },
        { "OPENSSL_ia32cap", "0x1:", 1, 0, NULL },
        { "OPENSSL_ia32cap", "0x1:~", 1, 0, "OPENSSL_ia32cap=0x0:~0x0" },
        { "OPENSSL_ia32cap", "0x123456789abcdef0123", 1, 0, NULL },
        { "OPENSSL_armcap", "0x3d", 0x4, 0, "OPENSSL_armcap=0x39" },
        { "OPENSSL_armcap", "0x1", 0x1, 0, "OPENSSL_armcap=0x0" },
        { "OPENSSL_armcap", "~0x4", 0x4, 0, NULL },
    };
    for (size_t i = 0; i < sizeof adds / sizeof adds[0]; i++) {
        char buf[OSSLCAP_ENV_MAX];
        uint64_t d[2] = { adds[i].d0, adds[i].d1 };
        int rc = osslcap_add_deny(adds[i].name, adds[i].base, d, buf, sizeof buf);
        CHECK(adds[i].want ? rc == 0 && !strcmp(buf, adds[i].want) : rc == -1,
              "%s=%s with the denied bits: rc %d '%s' (want %s)", adds[i].name, adds[i].base, rc,
              rc ? "" : buf, adds[i].want ? adds[i].want : "refused");
    }
}

static void test_csv_quote(void)
{
    char b[64];
    csv_quote("plain", b, sizeof b);
    CHECK(!strcmp(b, "plain"), "plain field");
    csv_quote("a,b", b, sizeof b);
    CHECK(!strcmp(b, "\"a,b\""), "comma quoted");
    csv_quote("say \"hi\"", b, sizeof b);
    CHECK(!strcmp(b, "\"say \"\"hi\"\"\""), "quotes doubled: %s", b);
    csv_quote("two\nlines", b, sizeof b);
    CHECK(!strcmp(b, "\"two\nlines\""), "newline quoted");
}

static int files_in(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = -1;
        pclose(p);
    }
    return n;
}

static void test_csv_file(void)
{
    char dir[] = "/tmp/accelscope-t_core-XXXXXX", path[256], why[512];
    CHECK(mkdtemp(dir) != NULL, "temp dir");
    snprintf(path, sizeof path, "%s/out.csv", dir);
    struct cell rows[2];
    memset(rows, 0, sizeof rows);
    rows[0].impl = registry_find("sha256", "openssl");
    rows[0].bytes = 16;
    rows[0].r.status = RES_OK;
    rows[0].r.threads = 1;
    rows[0].r.mb_per_s = 123.456;
    snprintf(rows[0].r.cycle_clock, sizeof rows[0].r.cycle_clock, "tsc");
    rows[1] = rows[0];
    rows[1].r.status = RES_WRONG;
    snprintf(rows[1].r.reason, sizeof rows[1].r.reason, "differs at byte 3, \"quoted\"");

    CHECK(csv_write_file(path, 0, rows, 2, why, sizeof why) == 0, "write new: %s", why);
    static struct csvr c;
    char *text = csvr_slurp(path);
    CHECK(text && csvr_parse(&c, text) == 0 && c.nrows == 3, "parse back: 3 rows");
    int st = csvr_col(&c, "status"), mb = csvr_col(&c, "mb_per_s"), rs = csvr_col(&c, "reason");
    static const char *const required[] = { "timestamp", "host", "cpu", "kernel", "openssl",
        "algorithm", "path", "implementation", "bytes", "threads", "ops", "seconds", "mb_per_s",
        "cycles_per_byte", "cycle_clock", "cpu_utilisation", "samples", "spread_pct", "status",
        "reason", "limit_mb_per_s" };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        CHECK(csvr_col(&c, required[i]) >= 0, "column %s", required[i]);
    if (c.nrows == 3 && st >= 0 && mb >= 0 && rs >= 0) {
        CHECK(!strcmp(c.f[1][st], "ok") && !strcmp(c.f[1][mb], "123.456"), "ok row");
        CHECK(!strcmp(c.f[2][st], "wrong output") && !strcmp(c.f[2][mb], ""),
              "wrong row has no figure");
        CHECK(!strcmp(c.f[2][rs], "differs at byte 3, \"quoted\""), "reason round-trips");
        for (int r = 1; r < 3; r++)
            CHECK(c.nfields[r] == c.nfields[0], "row %d has every column", r);
    }
    csvr_free(&c);

    /* No clobber: the old file stays byte for byte, no temporary left behind. */
    CHECK(csv_write_file(path, 0, rows, 1, why, sizeof why) == -1 && strstr(why, "--force"),
          "existing file refused: %s", why);
    char *again = csvr_slurp(path);
    CHECK(again && text && !strcmp(again, text), "existing file untouched");
    CHECK(files_in(dir) == 1, "no temporary left (%d files)", files_in(dir));
    CHECK(csv_write_file(path, 1, rows, 1, why, sizeof why) == 0, "--force replaces");
    free(again);
    again = csvr_slurp(path);
    CHECK(again && text && strcmp(again, text) != 0, "replaced content");
    free(again);
    free(text);

    char bad[400];
    snprintf(bad, sizeof bad, "%s/missing/out.csv", dir);
    CHECK(csv_write_file(bad, 0, rows, 1, why, sizeof why) == -1 && strstr(why, "does not exist"),
          "missing folder: %s", why);
    CHECK(csv_check_dest(dir, 0, why, sizeof why) == -1 && strstr(why, "folder"), "a folder");
    CHECK(csv_check_dest("/dev/null", 1, why, sizeof why) == -1 && strstr(why, "regular file"),
          "a device is never replaced, even forced: %s", why);
    char lnk[400];
    snprintf(lnk, sizeof lnk, "%s/link.csv", dir);
    CHECK(symlink(path, lnk) == 0 && csv_write_file(lnk, 1, rows, 1, why, sizeof why) == -1 &&
              strstr(why, "symbolic link"), "a symbolic link is not replaced: %s", why);
    unlink(lnk);
    struct stat devnull;
    CHECK(stat("/dev/null", &devnull) == 0 && S_ISCHR(devnull.st_mode), "/dev/null intact");
    if (geteuid() != 0) {
        char ro[300];
        snprintf(ro, sizeof ro, "%s/ro", dir);
        mkdir(ro, 0500);
        snprintf(bad, sizeof bad, "%s/out.csv", ro);
        CHECK(csv_write_file(bad, 0, rows, 1, why, sizeof why) == -1, "read-only folder");
        rmdir(ro);
    } else {
        UNAVAILABLE("read-only folder check", "running as root, which may write anywhere");
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

/* libcpuid's codename is shown only where its tables know the family and model; injected
 * (vendor, family, model) as libcpuid 0.6.2 would see them, whatever this CPU is. */
static void test_codename(void)
{
    static const struct {
        const char *vendor;
        int family, model;
        const char *libver, *libcpuid_says;
        int trusted;
    } cases[] = {
        { "AuthenticAMD", 0x1a, 0x02, "0.6.2", "Abu Dhabi", 0 },     /* Zen 5 (Turin) */
        { "AuthenticAMD", 0x1a, 0x44, "0.6.2", "Abu Dhabi", 0 },     /* Zen 5 (Granite Ridge) */
        { "AuthenticAMD", 0x19, 0x11, "0.6.2", "EPYC (Milan)", 0 },  /* Zen 4 Genoa */
        { "AuthenticAMD", 0x19, 0x01, "0.6.2", "EPYC (Milan)", 1 },  /* Zen 3 Milan */
        { "AuthenticAMD", 0x19, 0x61, "0.6.2", "Ryzen 7 (Raphael)", 1 },
        { "AuthenticAMD", 0x17, 0x31, "0.6.2", "EPYC (Rome)", 1 },
        { "AuthenticAMD", 0x15, 0x02, "0.6.2", "Vishera", 1 },
        { "HygonGenuine", 0x18, 0x00, "0.6.2", "C86 7 (Dhyana)", 1 },
        { "GenuineIntel", 6, 0x55, "0.6.2", "Skylake (Xeon)", 1 },   /* Skylake-SP */
        { "GenuineIntel", 6, 0x2c, "0.6.2", "Gulftown (Core i7)", 1 }, /* Westmere */
        { "GenuineIntel", 6, 0x97, "0.6.2", "Alder Lake-S (Core i9)", 1 },
        { "GenuineIntel", 6, 0x8f, "0.6.2", "Ice Lake (Xeon-D)", 0 }, /* Sapphire Rapids */
        { "GenuineIntel", 6, 0xaa, "0.6.2", "Unknown P6", 0 },       /* Meteor Lake */
        { "GenuineIntel", 0x13, 0x01, "0.6.2", "Unknown Intel CPU", 0 },
        { "CentaurHauls", 6, 0x0f, "0.6.2", "Isaiah", 0 },
        { "AuthenticAMD", 0x1a, 0x02, "0.7.1", "Turin", 1 }, /* a newer libcpuid is believed */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char note[96] = "stale";
        int t = cpu_codename_trusted(cases[i].vendor, cases[i].family, cases[i].model,
                                     cases[i].libver, note, sizeof note);
        CHECK(t == cases[i].trusted, "%s family 0x%x model 0x%x, libcpuid %s says '%s': %s",
              cases[i].vendor, cases[i].family, cases[i].model, cases[i].libver,
              cases[i].libcpuid_says, cases[i].trusted ? "believed" : "withheld");
        if (t) {
            CHECK(note[0] == 0, "no note when believed: '%s'", note);
        } else {
            char want[96];
            snprintf(want, sizeof want, "unknown to libcpuid %s (family 0x%x model 0x%x)",
                     cases[i].libver, cases[i].family, cases[i].model);
            CHECK(!strcmp(note, want), "note '%s', want '%s'", note, want);
        }
    }
}

/* Only what can exist here: off x86 no PadLock or RDRAND/RDSEED rows and no reason in x86
 * words (CPUID); on x86 those rows stay, with their reason where the CPU lacks the unit. The
 * clock line names this architecture's counter. */
static void test_only_here(void)
{
    int x86 = feature_host_arch() == ARCH_X86, padlock_rows = 0;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct impl *im = registry_get(i);
        int x86_only = !strncmp(im->name, "padlock", 7) || !strcmp(im->alg, "rdrand") ||
                       !strcmp(im->alg, "rdseed") || !strcmp(im->alg, "xstore");
        padlock_rows += !strcmp(im->name, "padlock-engine");
        CHECK(x86 || !x86_only, "%s/%s is x86-only, yet a row here", im->alg, im->name);
        char why[256] = "";
        if (im->check(im, why, sizeof why) != 0)
            CHECK(x86 || !strstr(why, "CPUID"), "%s/%s: x86 words off x86: %s", im->alg,
                  im->name, why);
    }
    CHECK(!x86 || padlock_rows >= 5, "x86: padlock-engine rows for AES-CBC/CTR (%d)",
          padlock_rows);
    const char *label;
    char what[200];
    double mhz = clock_counter_mhz(&label, what, sizeof what);
#if defined(__aarch64__)
    CHECK(!strcmp(label, "generic timer") && mhz > 0 && strstr(what, "CNTFRQ_EL0"),
          "aarch64 counter: %s %.1f MHz (%s)", label, mhz, what);
#elif defined(__x86_64__) || defined(__i386__)
    CHECK(!strcmp(label, "TSC") && (mhz > 0 || strstr(what, "CPUID")), "x86 counter: %s %.1f (%s)",
          label, mhz, what);
#else
    CHECK(mhz == 0 && what[0], "no counter here, with a reason: %s", what);
#endif
}

int main(void)
{
    test_only_here();
    test_features();
    test_codename();
    test_deny();
    test_discover();
    test_registry();
    test_kat();
    test_select();
    test_osslcap();
    test_csv_quote();
    test_csv_file();
    return check_done();
}
