/* OpenSSL ENGINEs (afalg, devcrypto, padlock) for backends/openssl.c: loading with a reason
 * a person can act on when it fails, and which algorithms an engine claims. */
#ifndef ACCELSCOPE_OSSL_ENGINE_H
#define ACCELSCOPE_OSSL_ENGINE_H

#include <stddef.h>

#include <openssl/engine.h>

/* The engine `id`, loaded and initialised once per process; NULL with a one-line reason in
 * why ("afalg engine refuses to bind: socket(AF_ALG): Address family not supported ..."). */
ENGINE *ossl_engine_get(const char *id, char *why, size_t n);

/* 1 when e serves the OpenSSL algorithm evp (a digest when digest, else a cipher): what
 * `openssl speed -engine ID` hands it; everything else stays in libcrypto's software. */
int ossl_engine_claims(ENGINE *e, int digest, const char *evp);

#endif
