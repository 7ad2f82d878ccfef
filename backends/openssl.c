/* OpenSSL libcrypto through EVP: the hw path (no mask), the asm path (capability masks set in
 * the worker's environment before libcrypto starts: OpenSSL reads OPENSSL_ia32cap /
 * OPENSSL_armcap once, at start-up), and the ENGINEs: padlock where the CPU has it, afalg and
 * devcrypto on the kernel path. An engine row runs as `openssl speed -engine ID` does: the
 * engine gets the algorithms it claims, libcrypto's software the rest, and the worker
 * reports which (impl->offload, src/offload.h). */
#define OPENSSL_SUPPRESS_DEPRECATED /* the ENGINE API is the only door to engines in 3.0 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/engine.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>

#include "algo.h"
#include "cpu.h"
#include "all.h"
#include "ossl_engine.h"

/* The masks, in both words always: a value without ':' zeroes the second word. */
#if defined(__x86_64__) || defined(__i386__)
#define MASK_INT "OPENSSL_ia32cap=~0xffffffffffffffff:0"
/* clears AES-NI (57), PCLMULQDQ (33) | SHA (29), VAES (41), VPCLMULQDQ (42) */
#define MASK_SIMD "OPENSSL_ia32cap=~0x200000200000000:~0x60020000000"
#elif defined(__aarch64__)
#define MASK_INT "OPENSSL_armcap=0"
#define MASK_SIMD "OPENSSL_armcap=0x1" /* NEON kept; AES, PMULL, SHA* off */
#else
#define MASK_INT NULL
#define MASK_SIMD NULL
#endif

enum variant { V_PLAIN, V_INT, V_SIMD, V_PADLOCK, V_AFALG, V_DEVCRYPTO };

struct variant_desc {
    const char *name;  /* implementation name */
    enum path path;
    const char *env;   /* mask for the worker, NULL for none */
    const char *note;
    const char *engine; /* ENGINE id, NULL for none */
};

static const struct variant_desc variants[] = {
    [V_PLAIN] = { .name = "openssl", .path = PATH_HW,
                  .note = "OpenSSL default: its best code for this CPU" },
    [V_INT] = { .name = "openssl-int", .path = PATH_ASM, .env = MASK_INT,
                .note = "OpenSSL asm with every capability masked (integer code)" },
    [V_SIMD] = { .name = "openssl-simd", .path = PATH_ASM, .env = MASK_SIMD,
                 .note = "OpenSSL asm with SIMD kept, crypto extensions masked" },
    [V_PADLOCK] = { .name = "padlock-engine", .path = PATH_HW, .engine = "padlock",
                    .note = "OpenSSL's padlock ENGINE (VIA/Zhaoxin ACE)" },
    [V_AFALG] = { .name = "afalg-engine", .path = PATH_KERNEL, .engine = "afalg",
                  .note = "OpenSSL's afalg ENGINE, as `openssl speed -engine afalg`" },
    [V_DEVCRYPTO] = { .name = "devcrypto-engine", .path = PATH_KERNEL, .engine = "devcrypto",
                      .note = "OpenSSL's devcrypto ENGINE (/dev/crypto, cryptodev-linux)" },
};

struct ctx {
    EVP_CIPHER_CTX *c;
    EVP_MD_CTX *m;
    EVP_CIPHER *cipher;
    EVP_MD *md;
    const EVP_MD *md_use; /* md, or the legacy object an engine serves */
    ENGINE *engine;       /* the engine doing the work; NULL for libcrypto's software */
    const char *engine_id;
    const struct algo *a;
    int decrypt;
    uint8_t nonce[12];
};

struct data {
    const struct algo *a;
    enum variant v;
};

static int algo_in_libcrypto(const struct algo *a, char *why, size_t n)
{
    if (a->kind == ALGO_DIGEST) {
        EVP_MD *md = EVP_MD_fetch(NULL, a->evp, NULL);
        if (md) {
            EVP_MD_free(md);
            return 0;
        }
    } else {
        EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, a->evp, NULL);
        if (c) {
            EVP_CIPHER_free(c);
            return 0;
        }
    }
    snprintf(why, n, "%s has no %s (not in its default provider)",
             OpenSSL_version(OPENSSL_VERSION), a->evp);
    return -1;
}

/* An engine row: the engine must load; an algorithm it does not claim is measured all the
 * same (as `openssl speed -engine` would), reported as software, and said so up front. */
static int engine_check(const struct data *d, char *why, size_t n)
{
    const char *id = variants[d->v].engine;
    ENGINE *e = ossl_engine_get(id, why, n);
    if (!e)
        return -1;
    if (ossl_engine_claims(e, d->a->kind == ALGO_DIGEST, d->a->evp))
        return 0;
    char lib[160] = "";
    if (algo_in_libcrypto(d->a, lib, sizeof lib)) {
        snprintf(why, n, "%s engine does not handle %s, and %s", id, d->a->id, lib);
        return -1;
    }
    snprintf(why, n, "%s engine does not handle %s: libcrypto software will do the work", id,
             d->a->id);
    return 0;
}

static int check(const struct impl *im, char *why, size_t n)
{
    const struct data *d = im->data;
    if ((d->v == V_INT || d->v == V_SIMD) && !im->env) {
        snprintf(why, n, "OpenSSL capability masks exist for x86 and aarch64 only");
        return -1;
    }
    if (d->v == V_PADLOCK && !cpu_feature_status(FEAT_PL_ACE, why, n))
        return -1;
    if (variants[d->v].engine)
        return engine_check(d, why, n);
    return algo_in_libcrypto(d->a, why, n);
}

static int init(const struct impl *im, void *vctx, const uint8_t *key, const uint8_t *iv,
                int decrypt, char *why, size_t n)
{
    const struct data *d = im->data;
    struct ctx *x = vctx;
    x->a = d->a;
    x->decrypt = decrypt;
    if ((x->engine_id = variants[d->v].engine)) {
        if (!(x->engine = ossl_engine_get(x->engine_id, why, n)))
            return -1;
        if (!ossl_engine_claims(x->engine, d->a->kind == ALGO_DIGEST, d->a->evp))
            x->engine = NULL; /* what `openssl speed -engine` does: software takes it */
    }
    if (d->a->kind == ALGO_DIGEST) {
        if (!(x->md = EVP_MD_fetch(NULL, d->a->evp, NULL)))
            goto no_alg;
        if (!(x->m = EVP_MD_CTX_new()))
            goto free_md;
        /* An engine serves the legacy digest object, not a provider's. */
        x->md_use = x->engine ? EVP_get_digestbyname(d->a->evp) : x->md;
        return 0;
    }
    if (!(x->cipher = EVP_CIPHER_fetch(NULL, d->a->evp, NULL)))
        goto no_alg;
    if (!(x->c = EVP_CIPHER_CTX_new()))
        goto free_cipher;
    /* An engine serves the legacy cipher object, not a provider's. */
    const EVP_CIPHER *use = x->engine ? EVP_get_cipherbyname(d->a->evp) : x->cipher;
    if (!EVP_CipherInit_ex(x->c, use, x->engine, key, iv, !decrypt))
        goto free_ctx;
    EVP_CIPHER_CTX_set_padding(x->c, 0);
    memcpy(x->nonce, iv, sizeof x->nonce);
    return 0;

free_ctx:
    EVP_CIPHER_CTX_free(x->c);
    x->c = NULL;
free_cipher:
    EVP_CIPHER_free(x->cipher);
    x->cipher = NULL;
    snprintf(why, n, "EVP set-up of %s failed", d->a->evp);
    return -1;
free_md:
    EVP_MD_free(x->md);
    x->md = NULL;
no_alg:
    snprintf(why, n, "libcrypto has no %s", d->a->evp);
    return -1;
}

/* One op per algorithm kind, chosen when the list is built, so the timed call goes straight
 * to EVP with no dispatch of ours in between (at 16 bytes an op is ~20 ns). */
static int aead_op(void *vctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ctx *x = vctx;
    int outl;
    if (!EVP_CipherInit_ex(x->c, NULL, NULL, NULL, x->nonce, -1))
        return -1;
    if (!EVP_CipherUpdate(x->c, NULL, &outl, algo_aad, ALGO_AAD_LEN))
        return -1;
    if (x->decrypt) {
        /* The tag travels after the ciphertext in the input. */
        if (!EVP_CIPHER_CTX_ctrl(x->c, EVP_CTRL_AEAD_SET_TAG, ALGO_TAG_LEN, (void *)(in + len)))
            return -1;
    }
    if (len && !EVP_CipherUpdate(x->c, out, &outl, in, (int)len))
        return -1;
    if (EVP_CipherFinal_ex(x->c, out + len, &outl) <= 0)
        return -1; /* on decrypt: the tag did not verify */
    if (!x->decrypt) {
        if (!EVP_CIPHER_CTX_ctrl(x->c, EVP_CTRL_AEAD_GET_TAG, ALGO_TAG_LEN, out + len))
            return -1;
        algo_nonce_next(x->nonce);
    }
    return 0;
}

static int digest_op(void *vctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ctx *x = vctx;
    unsigned int mdlen;
    return EVP_DigestInit_ex(x->m, x->md_use, x->engine) && EVP_DigestUpdate(x->m, in, len) &&
                   EVP_DigestFinal_ex(x->m, out, &mdlen)
               ? 0
               : -1;
}

static int cipher_op(void *vctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ctx *x = vctx;
    int outl;
    int ok = x->decrypt ? EVP_DecryptUpdate(x->c, out, &outl, in, (int)len)
                        : EVP_EncryptUpdate(x->c, out, &outl, in, (int)len);
    return ok ? 0 : -1;
}

static int (*const ops[])(void *, uint8_t *, const uint8_t *, size_t) = {
    [ALGO_CIPHER] = cipher_op, [ALGO_AEAD] = aead_op, [ALGO_DIGEST] = digest_op,
};

/* Whether the context runs the engine's code: its cipher is the one the engine hands out
 * (a digest context is set up per operation, with x->engine). */
static int offload(void *vctx, char *id, size_t n)
{
    struct ctx *x = vctx;
    snprintf(id, n, "%s", x->engine_id ? x->engine_id : "none");
    if (!x->engine)
        return 1;
    if (x->c)
        return EVP_CIPHER_CTX_get0_cipher(x->c) ==
                       ENGINE_get_cipher(x->engine, EVP_CIPHER_CTX_get_nid(x->c))
                   ? 0
                   : 1;
    return 0;
}

static void cleanup(void *vctx)
{
    struct ctx *x = vctx;
    EVP_CIPHER_CTX_free(x->c);
    EVP_CIPHER_free(x->cipher);
    EVP_MD_CTX_free(x->m);
    EVP_MD_free(x->md);
}

static struct impl *list;
static struct data *datas;
static size_t nlist;

static const struct impl *impls(size_t *count)
{
    if (!list) {
        size_t cap = algo_count * (sizeof variants / sizeof variants[0]);
        list = calloc(cap, sizeof *list);
        datas = calloc(cap, sizeof *datas);
        if (!list || !datas)
            abort();
        for (size_t i = 0; i < algo_count; i++) {
            const struct algo *a = &algo_table[i];
            if (!a->evp)
                continue;
            for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
                /* PadLock ACE does AES (the only algorithm with rounds) in CBC and CTR, and
                 * exists only on VIA/Zhaoxin x86: no row on other architectures */
                int aes_cbc_ctr =
                    a->rounds && (a->mode == ALGO_MODE_CBC || a->mode == ALGO_MODE_CTR);
                if (v == V_PADLOCK && (!aes_cbc_ctr || feature_host_arch() != ARCH_X86))
                    continue;
                datas[nlist] = (struct data){ .a = a, .v = (enum variant)v };
                list[nlist] = (struct impl){
                    .alg = a->id, .name = variants[v].name, .backend = "openssl",
                    .path = variants[v].path, .env = variants[v].env, .note = variants[v].note,
                    .ctx_size = sizeof(struct ctx), .data = &datas[nlist],
                    .check = check, .init = init, .op = ops[a->kind], .cleanup = cleanup,
                    .offload = variants[v].engine ? offload : NULL,
                };
                nlist++;
            }
        }
    }
    *count = nlist;
    return list;
}

static void describe(FILE *out)
{
    fprintf(out, "openssl.version: %s\n", OpenSSL_version(OPENSSL_VERSION));
    fprintf(out, "openssl.cpuinfo: %s\n", OpenSSL_version(OPENSSL_CPU_INFO));
    fprintf(out, "openssl.asm-int mask: %s\n", MASK_INT ? MASK_INT : "(none on this architecture)");
    fprintf(out, "openssl.asm-simd mask: %s\n", MASK_SIMD ? MASK_SIMD : "(none on this architecture)");
}

const struct backend backend_openssl = {
    .name = "openssl", .impls = impls, .describe = describe,
};
