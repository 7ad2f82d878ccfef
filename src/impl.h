/* Implementations: one algorithm on one backend, on one of the four paths.
 *
 * Operation semantics (the same on every path, as `openssl speed`):
 *  - ALGO_CIPHER: init(key, iv, decrypt) starts a chain; op() transforms len bytes and the
 *    next op() continues the chain (CBC: the last ciphertext block is the next IV; CTR: the
 *    counter goes on). len is a multiple of the algorithm's block.
 *  - ALGO_AEAD: iv is the 12-byte nonce. Encrypt op: out = ciphertext(len) || tag(16), with
 *    algo_aad as AAD, then the nonce advances (algo_nonce_next). Decrypt op: in =
 *    ciphertext(len) || tag(16), out = plaintext(len), nonce unchanged; returns nonzero when the
 *    tag does not verify.
 *  - ALGO_DIGEST: out = H(in[0..len)); key and iv are unused.
 *  - ALGO_RNG: out = len random bytes; in is unused.
 *  out may equal in (in place). Buffers have ALGO_MAX_OUT_EXTRA spare bytes past len.
 *
 * Status returns, one rule for check, init, op (and kat_check, src/kat.h): 0 = ok (usable,
 * done, verified); nonzero = not, with a reason a person can act on in why wherever the
 * function takes one. No entry point is a yes/no question returning 1 for yes.
 */
#ifndef ACCELSCOPE_IMPL_H
#define ACCELSCOPE_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum path { PATH_C, PATH_ASM, PATH_HW, PATH_KERNEL, PATH_COUNT };

struct impl {
    const char *alg;      /* algorithm id (algo_table) */
    const char *name;     /* unique per algorithm: "openssl", "openssl-simd", "cbc-aes-aesni" */
    const char *backend;  /* backend name: "portable", "openssl", "direct", "afalg", "fault" */
    enum path path;
    const char *env;      /* NAME=VALUE set in the worker's environment before exec, or NULL */
    const char *note;     /* caveat shown in `info` and the TUI ("T-table AES: timing leaks") */
    size_t ctx_size;      /* bytes of context the engine allocates for init/op/cleanup */
    const void *data;     /* backend-private (EVP name, driver name, kernel entry points) */
    /* 0 when usable here; else nonzero and a reason a person can act on in why. */
    int (*check)(const struct impl *im, char *why, size_t n);
    /* 0 on success; else nonzero and a reason in why. ctx is ctx_size zeroed bytes. */
    int (*init)(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                int decrypt, char *why, size_t n);
    int (*op)(void *ctx, uint8_t *out, const uint8_t *in, size_t len); /* 0 = ok */
    void (*cleanup)(void *ctx); /* may be NULL */
    /* Optional, ENGINE rows: after init, writes the engine's id in id; 0 when ctx runs the
     * engine's code, nonzero when libcrypto's own software took the work (the engine does
     * not claim the algorithm). The worker reports it; src/offload.c judges the row. */
    int (*offload)(void *ctx, char *id, size_t n);
};

/* A backend lists its implementations once, at start-up; the array lives as long as the
 * program (static, or built once from what the machine offers). */
struct backend {
    const char *name;
    const struct impl *(*impls)(size_t *count);
    /* Optional: prints what this backend knows of the machine (drivers, engines, limits)
     * as "key: value" lines for `info` and the TUI's machine view. */
    void (*describe)(FILE *out);
    /* Optional, for backends whose implementations are found at run time (AF_ALG: reads
     * /proc/crypto, binds sockets to instantiate templates): called once, by
     * registry_discover(); until then impls() lists none of them. */
    void (*discover)(void);
    /* Optional: 0 when the environment variables this backend reads are well formed; else
     * nonzero and why (naming the accepted form). Every front end refuses a bad one. */
    int (*check_env)(char *why, size_t n);
};

extern const char *const path_id[PATH_COUNT];    /* "c", "asm", "hw", "kernel" */
extern const char *const path_label[PATH_COUNT]; /* "no-asm", "asm", "hardware", "kernel" */
int path_by_id(const char *id);                  /* -1 when unknown */

#endif
