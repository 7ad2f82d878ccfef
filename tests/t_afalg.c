/* The kernel path (backends/afalg*.c, src/kcrypto.c).
 *
 * Where AF_ALG is missing (this project's build machines: EAFNOSUPPORT) every kernel
 * implementation must say so with the kernel option to enable. Where it works (the emulated
 * kernels of tests/kernel) every available implementation must match known answers and
 * OpenSSL on random lengths, in place, across chained operations, in both directions. */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "afalg.h"
#include "algo.h"
#include "check.h"
#include "impl.h"
#include "kcrypto.h"
#include "registry.h"
#include "vectors.h"

static uint64_t seed = 0x9e3779b97f4a7c15u;

static uint32_t rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (uint32_t)(seed >> 11);
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static void unavailable(const struct impl *im, const char *why)
{
    char what[200];
    snprintf(what, sizeof what, "%s/%s", im->alg, im->name);
    UNAVAILABLE(what, why);
}

/* The kernel option each AF_ALG type needs (crypto/Kconfig), written out here so the test
 * does not take the backend's word for it. */
static const char *config_option(const char *afalg_type)
{
    static const char *const opt[][2] = {
        { "skcipher", "CONFIG_CRYPTO_USER_API_SKCIPHER" },
        { "aead", "CONFIG_CRYPTO_USER_API_AEAD" },
        { "hash", "CONFIG_CRYPTO_USER_API_HASH" },
    };
    for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++)
        if (strcmp(opt[i][0], afalg_type) == 0)
            return opt[i][1];
    return "no such AF_ALG type";
}

static int is_afalg(const struct impl *im)
{
    return strcmp(im->backend, "afalg") == 0;
}

/* The parser: what kcrypto_next yields is what was asked for, and the default is the top. */
static void test_parser(void)
{
    char why[256];
    int n = kcrypto_reload(why, sizeof why);
    CHECK(n >= 0, "/proc/crypto: %s", why);
    for (size_t i = 0; i < algo_count; i++) {
        const struct algo *a = &algo_table[i];
        if (!a->kernel)
            continue;
        const struct kcrypto_driver *def = kcrypto_default(a->kernel, a->afalg_type);
        int count = 0;
        for (const struct kcrypto_driver *d = kcrypto_next(a->kernel, a->afalg_type, NULL); d;
             d = kcrypto_next(a->kernel, a->afalg_type, d)) {
            count++;
            CHECK(strcmp(d->name, a->kernel) == 0 && !d->internal && d->driver[0],
                  "%s: entry %s/%s", a->kernel, d->name, d->driver);
            CHECK(def && def->priority >= d->priority, "%s: default below %s", a->kernel,
                  d->driver);
        }
        CHECK((count == 0) == (def == NULL), "%s: %d drivers, default %s", a->kernel, count,
              def ? def->driver : "none");
    }
}

/* One "kernel" implementation per algorithm the kernel names, whatever the machine. */
static void test_listing(void)
{
    for (size_t i = 0; i < algo_count; i++) {
        const struct algo *a = &algo_table[i];
        if (!a->kernel)
            continue;
        const struct impl *im = registry_find(a->id, "kernel");
        CHECK(im && im->path == PATH_KERNEL && is_afalg(im) && im->note,
              "%s: no kernel implementation", a->id);
    }
}

/* Without AF_ALG every implementation is unavailable, with the socket's errno and, for
 * EAFNOSUPPORT, the kernel option its AF_ALG type needs. */
static void test_unavailable(const char *status)
{
    const char *err = strstr(status, "EAFNOSUPPORT") ? "EAFNOSUPPORT"
                      : strstr(status, "EPERM")      ? "EPERM"
                      : strstr(status, "EACCES")     ? "EACCES"
                                                     : "socket(AF_ALG)";
    for (size_t i = 0; i < registry_count(); i++) {
        const struct impl *im = registry_get(i);
        if (!is_afalg(im))
            continue;
        char why[256] = "";
        const struct algo *a = algo_find(im->alg);
        int ok = im->check(im, why, sizeof why) == 0;
        CHECK(!ok && strstr(why, err), "%s/%s: available %d, why '%s'", im->alg, im->name, ok,
              why);
        if (strcmp(err, "EAFNOSUPPORT") == 0)
            CHECK(a && strstr(why, config_option(a->afalg_type)),
                  "%s/%s: reason names no kernel option: %s", im->alg, im->name, why);
        unavailable(im, why);
    }
    char why[256];
    CHECK(kcrypto_bind("hash", "sha256", "sha256_generic", why, sizeof why) < 0 &&
              strstr(why, err),
          "bind without AF_ALG: %s", why);
}

/* A driver name nothing answers to: ENOENT, with what to load. */
static void test_enoent(void)
{
    char why[256];
    int fd = kcrypto_bind("hash", "sha256-no-such-driver", "sha256_generic", why, sizeof why);
    CHECK(fd < 0 && strstr(why, "ENOENT") && strstr(why, "modprobe -a sha256_generic"),
          "bind sha256-no-such-driver: fd %d, %s", fd, why);
    printf("enoent: %s\n", why);
}

static void *init_impl(const struct impl *im, const uint8_t *key, const uint8_t *iv, int dec)
{
    char why[256];
    void *ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
    if (ctx && im->init(im, ctx, key, iv, dec, why, sizeof why) == 0)
        return ctx;
    CHECK(0, "%s/%s: init (decrypt %d): %s", im->alg, im->name, dec, why);
    free(ctx);
    return NULL;
}

static void done_impl(const struct impl *im, void *ctx)
{
    if (im->cleanup)
        im->cleanup(ctx);
    free(ctx);
}

/* Lengths: short, past the zero-copy threshold, past one 64 KiB kernel message, past the
 * socket's default send buffer (~208 KiB: AEAD messages need it grown). */
static size_t pick_len(int k, unsigned block)
{
    static const size_t base[] = { 1, 17, 16384, 65536, 1, 240000 };
    static const size_t span[] = { 300, 4000, 8000, 20000, 64, 60000 };
    size_t len = base[k % 6] + rnd() % span[k % 6];
    len -= len % block;
    return len ? len : block;
}

static void diff_cipher(const struct impl *im, const struct algo *a)
{
    uint8_t key[ALGO_MAX_KEY], iv[ALGO_MAX_IV];
    fill(key, sizeof key);
    fill(iv, sizeof iv);
    const EVP_CIPHER *ec = EVP_get_cipherbyname(a->evp);
    void *enc = init_impl(im, key, iv, 0), *dec = init_impl(im, key, iv, 1);
    EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
    if (!ec || !enc || !dec || !e || !EVP_EncryptInit_ex(e, ec, NULL, key, iv)) {
        CHECK(0, "%s/%s: setup", a->id, im->name);
        goto out;
    }
    for (int k = 0; k < 8; k++) {
        size_t len = pick_len(k, a->block);
        uint8_t *pt = malloc(len), *buf = malloc(len + ALGO_MAX_OUT_EXTRA), *ref = malloc(len + 32);
        int outl = 0;
        fill(pt, len);
        memcpy(buf, pt, len);
        EVP_EncryptUpdate(e, ref, &outl, pt, (int)len);
        int r = im->op(enc, buf, buf, len);
        CHECK(r == 0 && memcmp(buf, ref, len) == 0, "%s/%s: encrypt op %d, %zu bytes: %s",
              a->id, im->name, k, len, r ? "failed" : "differs from OpenSSL");
        r = im->op(dec, buf, buf, len);
        CHECK(r == 0 && memcmp(buf, pt, len) == 0, "%s/%s: decrypt op %d, %zu bytes: %s",
              a->id, im->name, k, len, r ? "failed" : "not the plaintext");
        free(pt);
        free(buf);
        free(ref);
    }
out:
    EVP_CIPHER_CTX_free(e);
    if (enc)
        done_impl(im, enc);
    if (dec)
        done_impl(im, dec);
}

static int evp_seal(const struct algo *a, const uint8_t *key, const uint8_t *nonce,
                    const uint8_t *in, size_t len, uint8_t *out)
{
    EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
    int l = 0, ok = e && EVP_EncryptInit_ex(e, EVP_get_cipherbyname(a->evp), NULL, NULL, NULL) &&
                    EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) &&
                    EVP_EncryptInit_ex(e, NULL, NULL, key, nonce) &&
                    EVP_EncryptUpdate(e, NULL, &l, algo_aad, ALGO_AAD_LEN) &&
                    EVP_EncryptUpdate(e, out, &l, in, (int)len) &&
                    EVP_EncryptFinal_ex(e, out + l, &l) &&
                    EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_GET_TAG, ALGO_TAG_LEN, out + len);
    EVP_CIPHER_CTX_free(e);
    return ok ? 0 : -1;
}

static void diff_aead(const struct impl *im, const struct algo *a)
{
    uint8_t key[ALGO_MAX_KEY], nonce[12];
    fill(key, sizeof key);
    fill(nonce, sizeof nonce);
    void *enc = init_impl(im, key, nonce, 0);
    if (!enc)
        return;
    for (int k = 0; k < 8; k++) {
        size_t len = pick_len(k, 1);
        uint8_t *pt = malloc(len), *buf = malloc(len + ALGO_MAX_OUT_EXTRA);
        uint8_t *ref = malloc(len + ALGO_TAG_LEN);
        fill(pt, len);
        memcpy(buf, pt, len);
        int re = evp_seal(a, key, nonce, pt, len, ref);
        int r = im->op(enc, buf, buf, len);
        CHECK(re == 0 && r == 0 && memcmp(buf, ref, len + ALGO_TAG_LEN) == 0,
              "%s/%s: seal %d, %zu bytes: %s", a->id, im->name, k, len,
              r ? "failed" : "differs from OpenSSL");
        void *dec = init_impl(im, key, nonce, 1);
        if (dec) {
            r = im->op(dec, buf, buf, len);
            CHECK(r == 0 && memcmp(buf, pt, len) == 0, "%s/%s: open %d, %zu bytes: %s", a->id,
                  im->name, k, len, r ? "failed" : "not the plaintext");
            done_impl(im, dec);
        }
        dec = init_impl(im, key, nonce, 1);
        if (dec) {
            memcpy(buf, ref, len + ALGO_TAG_LEN);
            buf[len + rnd() % ALGO_TAG_LEN] ^= 0x01;
            CHECK(im->op(dec, buf, buf, len) != 0, "%s/%s: forged tag accepted (%zu bytes)",
                  a->id, im->name, len);
            done_impl(im, dec);
        }
        algo_nonce_next(nonce);
        free(pt);
        free(buf);
        free(ref);
    }
    /* Past what one AF_ALG request can carry here: refused, not hung, and the socket still
     * seals the next message. */
    size_t max = afalg_aead_max(NULL);
    if (max) {
        size_t len = max + 4096;
        uint8_t *buf = calloc(1, len + ALGO_MAX_OUT_EXTRA), ref[64 + ALGO_TAG_LEN];
        CHECK(buf && im->op(enc, buf, buf, len) != 0, "%s/%s: %zu bytes, past the limit, "
              "did not fail", a->id, im->name, len);
        memset(ref, 0, sizeof ref);
        int re = evp_seal(a, key, nonce, ref, 64, ref);
        CHECK(buf && re == 0 && im->op(enc, buf, buf, 64) == 0 &&
                  memcmp(buf, ref, 64 + ALGO_TAG_LEN) == 0,
              "%s/%s: no good seal after a refused message", a->id, im->name);
        free(buf);
    }
    done_impl(im, enc);
}

static void diff_digest(const struct impl *im, const struct algo *a)
{
    void *ctx = init_impl(im, NULL, NULL, 0);
    if (!ctx)
        return;
    for (int k = 0; k < 8; k++) {
        size_t len = pick_len(k, 1);
        uint8_t *buf = malloc(len + ALGO_MAX_OUT_EXTRA), ref[64];
        fill(buf, len);
        unsigned rl = 0;
        EVP_Digest(buf, len, ref, &rl, EVP_get_digestbyname(a->evp), NULL);
        int r = im->op(ctx, buf, buf, len);
        CHECK(r == 0 && rl == a->out_len && memcmp(buf, ref, rl) == 0,
              "%s/%s: digest of %zu bytes: %s", a->id, im->name, len,
              r ? "failed" : "differs from OpenSSL");
        free(buf);
    }
    done_impl(im, ctx);
}

/* Known answers from the standards' vectors (tests/vectors, copied from OpenSSL's test data:
 * FIPS 180 / RFC 1321 digests, SP 800-38A AES-CBC and AES-CTR). */
static void kat(const struct impl *im, const struct algo *a)
{
    const char *file = a->kind == ALGO_DIGEST ? (strcmp(a->id, "md5") == 0 ? "evpmd_md.txt"
                                                                           : "evpmd_sha.txt")
                       : a->kind == ALGO_CIPHER ? "evpciph_aes_common.txt"
                                                : NULL;
    if (!file)
        return; /* AEAD: the engine's fixed AAD matches no published vector; see diff_aead */
    struct vec_file vf;
    struct vec_rec r;
    memset(&r, 0, sizeof r); /* vec_next frees what r held */
    if (vec_open(&vf, file) != 0) {
        CHECK(0, "%s", vf.why);
        return;
    }
    int used = 0;
    while (vec_next(&vf, &r) == 1) {
        size_t il = 0, ol = 0, kl = 0, vl = 0;
        uint8_t *in = NULL;
        const uint8_t *want = NULL, *key = NULL, *iv = NULL;
        if (a->kind == ALGO_DIGEST && vec_is(&r, "Digest", a->evp)) {
            in = vec_input(&r, &il);
            want = vec_get(&r, "Output", &ol);
        } else if (a->kind == ALGO_CIPHER && vec_is(&r, "Cipher", a->evp) && vec_for_op(&r, 0)) {
            const uint8_t *p = vec_get(&r, "Plaintext", &il);
            in = p && il ? malloc(il) : NULL;
            if (in)
                memcpy(in, p, il);
            want = vec_get(&r, "Ciphertext", &ol);
            key = vec_get(&r, "Key", &kl);
            iv = vec_get(&r, "IV", &vl);
        }
        if (in && want && il && il < (1u << 20) && (!key || kl == a->key_len)) {
            void *ctx = init_impl(im, key, iv, 0);
            uint8_t *buf = malloc(il + ALGO_MAX_OUT_EXTRA);
            if (ctx && buf) {
                memcpy(buf, in, il);
                int rc = im->op(ctx, buf, buf, il);
                size_t n = a->kind == ALGO_DIGEST ? a->out_len : il;
                CHECK(rc == 0 && n == ol && memcmp(buf, want, n) == 0,
                      "%s/%s: %s line %d (%s)", a->id, im->name, file, r.line, r.title);
                used++;
            }
            if (ctx)
                done_impl(im, ctx);
            free(buf);
        }
        free(in);
        vec_rec_free(&r);
    }
    vec_close(&vf);
    CHECK(used > 0, "%s/%s: no known answer in %s", a->id, im->name, file);
}

/* Every available implementation with the transfer the backend picks by size; the kernel's
 * choice also with each transfer forced, so both paths are verified whatever the sizes. */
static void test_available(void)
{
    static const char *const modes[] = { NULL, "copy", "zerocopy" };
    int tested = 0;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        if (modes[m])
            setenv("ACCELSCOPE_AFALG_XFER", modes[m], 1); /* read at init */
        for (size_t i = 0; i < registry_count(); i++) {
            const struct impl *im = registry_get(i);
            if (!is_afalg(im) || (modes[m] && strcmp(im->name, "kernel") != 0))
                continue;
            char why[256];
            const struct algo *a = algo_find(im->alg);
            if (im->check(im, why, sizeof why)) {
                unavailable(im, why);
                continue;
            }
            int before = check_failed;
            kat(im, a);
            if (a->kind == ALGO_CIPHER)
                diff_cipher(im, a);
            else if (a->kind == ALGO_AEAD)
                diff_aead(im, a);
            else if (a->kind == ALGO_DIGEST)
                diff_digest(im, a);
            printf("%s %s %s%s%s\n", check_failed == before ? "ok" : "FAILED", a->id, im->name,
                   modes[m] ? " transfer=" : "", modes[m] ? modes[m] : "");
            tested++;
        }
    }
    unsetenv("ACCELSCOPE_AFALG_XFER");
    CHECK(tested > 0, "AF_ALG works but no kernel implementation was available");
}

/* Runs fn in a child process (its own registry, environment and seccomp filter); the
 * child's failures print there and come back as its exit status. */
static void in_child(const char *what, void (*fn)(const void *), const void *arg)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int before = check_failed;
        fn(arg);
        fflush(stdout);
        _exit(check_failed > before ? 1 : 0);
    }
    int st = 0;
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "%s: child failed (status %#x)", what, st);
}

/* The directory of tests/kernel's captured tables: $T_AFALG_FIXTURES, tests/kernel from the
 * repository root, or three levels above the binary (build/<dir>/tests/t_afalg). */
static const char *fixture(const char *name, char *buf, size_t n)
{
    const char *env = getenv("T_AFALG_FIXTURES");
    char exe[512];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[l > 0 ? l : 0] = 0;
    for (int i = 0; i < 3 && strrchr(exe, '/'); i++)
        *strrchr(exe, '/') = 0;
    const char *dirs[] = { env ? env : "", "tests/kernel", exe };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(buf, n, "%s%s%s", dirs[i], i == 2 ? "/../tests/kernel/" : "/", name);
        if (dirs[i][0] && access(buf, R_OK) == 0)
            return buf;
    }
    return NULL;
}

/* The backend built from a captured /proc/crypto (Linux 6.1, -cpu max): every driver of the
 * algorithm, highest priority first, internal helpers (__cbc-aes-aesni) left out, and
 * "kernel" labelled with the driver the kernel resolves to. */
static void fixture_child(const void *path)
{
    setenv("ACCELSCOPE_PROC_CRYPTO", path, 1);
    char why[256];
    CHECK(kcrypto_reload(why, sizeof why) > 50, "fixture: %s", why);
    registry_discover();
    const struct kcrypto_driver *d = kcrypto_default("cbc(aes)", "skcipher");
    CHECK(d && strcmp(d->driver, "cbc-aes-aesni") == 0 && d->priority == 400 &&
              strcmp(d->module, "aesni_intel") == 0 && strcmp(d->selftest, "passed") == 0,
          "fixture: cbc(aes) resolves to %s", d ? d->driver : "nothing");
    d = kcrypto_default("sha256", "hash");
    CHECK(d && strcmp(d->driver, "sha256-avx2") == 0, "fixture: sha256 resolves to %s",
          d ? d->driver : "nothing");
    CHECK(kcrypto_by_driver("__cbc-aes-aesni") && kcrypto_by_driver("__cbc-aes-aesni")->internal,
          "fixture: __cbc-aes-aesni not seen as internal");

    static const char *const want[][5] = {
        { "aes-128-cbc", "kernel", "cbc-aes-aesni", "cbc(aes-generic)", NULL },
        { "aes-256-gcm", "kernel", "generic-gcm-aesni",
          "gcm_base(ctr(aes-generic),ghash-generic)", NULL },
        { "sha256", "kernel", "sha256-avx2", "sha256-avx", "sha256-ssse3" },
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        size_t k = 1;
        for (size_t i = 0; i < registry_count(); i++) {
            const struct impl *im = registry_get(i);
            if (!is_afalg(im) || strcmp(im->alg, want[w][0]) != 0)
                continue;
            CHECK(k >= 5 || !want[w][k] || strcmp(im->name, want[w][k]) == 0,
                  "fixture: %s implementation %zu is %s, want %s", want[w][0], k, im->name,
                  k < 5 && want[w][k] ? want[w][k] : "none");
            k++;
        }
        CHECK(k >= 4, "fixture: %s has %zu kernel implementations", want[w][0], k - 1);
    }
    const struct impl *im = registry_find("aes-128-cbc", "kernel");
    CHECK(im && strstr(im->note, "cbc-aes-aesni") && strstr(im->note, "400"),
          "fixture: kernel note: %s", im ? im->note : "none");
    im = registry_find("aes-128-cbc", "cbc(aes-generic)");
    CHECK(im && strstr(im->note, "priority 100") && strstr(im->note, "self-test passed"),
          "fixture: driver note: %s", im ? im->note : "none");
}

/* A sandbox that refuses AF_ALG sockets (seccomp returning EPERM or EACCES) is named as
 * such, not mistaken for a kernel without AF_ALG. */
static void seccomp_child(const void *arg)
{
    int err = *(const int *)arg;
#if defined(__x86_64__)
    const unsigned arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    const unsigned arch = AUDIT_ARCH_AARCH64;
#else
    const unsigned arch = 0;
#endif
    if (!arch) {
        UNAVAILABLE("seccomp test", "filter written for x86_64 and aarch64 only");
        return;
    }
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 0, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_ALG, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = { .len = sizeof f / sizeof f[0], .filter = f };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
        UNAVAILABLE("seccomp test", "cannot install a seccomp filter here");
        return;
    }
    const char *name = err == EPERM ? "EPERM" : "EACCES";
    char why[256];
    CHECK(!kcrypto_afalg_status(why, sizeof why) && strstr(why, name) && strstr(why, "seccomp"),
          "seccomp %s: status says %s", name, why);
    registry_discover();
    const struct impl *im = registry_find("sha256", "kernel");
    CHECK(im && im->check(im, why, sizeof why) && strstr(why, name) &&
              strstr(why, "sandbox"),
          "seccomp %s: kernel/sha256 says %s", name, im ? why : "(missing)");
    printf("seccomp %s: %s\n", name, why);
}

int main(void)
{
    char status[256];
    const char *s = getenv("T_AFALG_SEED");
    if (s)
        seed = strtoull(s, NULL, 0) | 1;
    printf("seed %#llx\n", (unsigned long long)seed);
    int ok = kcrypto_afalg_status(status, sizeof status);
    printf("afalg: %s\n", status);
    char fx[600];
    if (fixture("proc-crypto-6.1-max.txt", fx, sizeof fx))
        in_child("fixture", fixture_child, fx);
    else
        CHECK(0, "tests/kernel/proc-crypto-6.1-max.txt not found (set T_AFALG_FIXTURES)");
    static const int errs[] = { EPERM, EACCES };
    for (size_t i = 0; i < 2; i++)
        in_child("seccomp", seccomp_child, &errs[i]);
    registry_discover();
    test_parser();
    test_listing();
    if (ok) {
        test_enoent();
        test_available();
    } else {
        test_unavailable(status);
    }
    return check_done();
}
