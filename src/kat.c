#include "kat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"

struct kat {
    const char *alg;
    const char *source; /* where the vector comes from */
    const char *key, *iv, *in, *out; /* hex; encrypt direction for ciphers */
};

static const struct kat kats[] = {
    { .alg = "aes-128-cbc", .source = "NIST SP 800-38A F.2.1",
      .key = "2b7e151628aed2a6abf7158809cf4f3c", .iv = "000102030405060708090a0b0c0d0e0f",
      .in = "6bc1bee22e409f96e93d7e117393172a", .out = "7649abac8119b246cee98e9b12e9197d" },
    { .alg = "aes-256-cbc", .source = "NIST SP 800-38A F.2.5",
      .key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
      .iv = "000102030405060708090a0b0c0d0e0f",
      .in = "6bc1bee22e409f96e93d7e117393172a", .out = "f58c4c04d6e5f1ba779eabfb5f7bfbd6" },
    { .alg = "aes-128-ctr", .source = "NIST SP 800-38A F.5.1",
      .key = "2b7e151628aed2a6abf7158809cf4f3c", .iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
      .in = "6bc1bee22e409f96e93d7e117393172a", .out = "874d6191b620e3261bef6864990db6ce" },
    { .alg = "idea-cbc", .source = "pyca/cryptography IDEA-CBC vectors (OpenSSL evpciph_idea.txt)",
      .key = "1f8e4973953f3fb0bd6b16662e9a3c17", .iv = "2fe2b333ceda8f98",
      .in = "45cf12964fc824ab76616ae2f4bf0822", .out = "2cb10d22ac22a375c0021ab6732936c1" },
    { .alg = "md5", .source = "RFC 1321 A.5", .in = "616263",
      .out = "900150983cd24fb0d6963f7d28e17f72" },
    { .alg = "sha1", .source = "FIPS 180-4 / FIPS 180-2 appendix A", .in = "616263",
      .out = "a9993e364706816aba3e25717850c26c9cd0d89d" },
    { .alg = "sha256", .source = "FIPS 180-4 / FIPS 180-2 appendix B", .in = "616263",
      .out = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { .alg = "sha512", .source = "FIPS 180-4 / FIPS 180-2 appendix C", .in = "616263",
      .out = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
             "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
};

static size_t unhex(const char *h, unsigned char *out, size_t max)
{
    size_t n = 0;
    for (; h && h[0] && h[1] && n < max; h += 2) {
        unsigned v;
        if (sscanf(h, "%2x", &v) != 1)
            break;
        out[n++] = (unsigned char)v;
    }
    return n;
}

int kat_check(const struct impl *im, char *why, size_t n)
{
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++) {
        const struct kat *k = &kats[i];
        if (strcmp(k->alg, im->alg))
            continue;
        unsigned char key[64] = { 0 }, iv[16] = { 0 }, in[64], want[64];
        unsigned char out[64 + ALGO_MAX_OUT_EXTRA];
        unhex(k->key, key, sizeof key);
        unhex(k->iv, iv, sizeof iv);
        size_t ilen = unhex(k->in, in, sizeof in), wlen = unhex(k->out, want, sizeof want);
        void *ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
        if (!ctx)
            abort();
        int rc = -2;
        if (im->init(im, ctx, key, iv, 0, why, n) == 0) {
            if (im->op(ctx, out, in, ilen))
                snprintf(why, n, "operation failed on the known answer (%s)", k->source);
            else if (memcmp(out, want, wlen) == 0)
                rc = 0;
            else {
                snprintf(why, n, "known answer (%s) does not match", k->source);
                rc = -1;
            }
            if (im->cleanup)
                im->cleanup(ctx);
        }
        free(ctx);
        return rc;
    }
    snprintf(why, n, "no known answer on file for %s", im->alg);
    return KAT_NONE;
}
