/* Public-key pairs from a 32-byte seed, the same for every backend of one process: the
 * OpenSSL rows, the portable C and the kernel's keys all sign with, verify with and derive
 * from one key, so their outputs compare (algo.h: ALGO_PKEY). Made once per seed and kept
 * (an RSA-4096 key takes a second or more to find), outside every timed loop.
 *
 * The seed drives a splitmix64 stream. RSA: each prime is the first prime (with p - 1 prime to
 * e = 65537) at or above a candidate drawn from the stream with its top two bits and bit 0
 * set, so p*q has exactly the key's bits. EC: the private scalar is the stream's bytes
 * reduced into [1, order). Ed25519 and X25519: the seed is the private key (RFC 8032 and
 * RFC 7748 define it as 32 arbitrary bytes). DSA: domain parameters by FIPS 186-4 A.1.1.2
 * from a fixed seed, then x from the stream. */
#ifndef ACCELSCOPE_PK_KEYS_H
#define ACCELSCOPE_PK_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "algo.h"

#define PKKEY_SEED 32

/* The key pair of a's family and size for seed: a new reference (EVP_PKEY_free it), or NULL
 * and why. */
EVP_PKEY *pkkey_get(const struct algo *a, const uint8_t seed[PKKEY_SEED], char *why, size_t n);

/* An RSA key's integers, big-endian, as the portable import takes them. */
struct pkkey_rsa {
    uint8_t n[512], e[8], d[512], p[256], q[256], dp[256], dq[256], qinv[256];
    size_t nlen, elen, dlen, plen, qlen, dplen, dqlen, qinvlen;
};
int pkkey_rsa_parts(EVP_PKEY *k, struct pkkey_rsa *out, char *why, size_t n);

/* An EC key's private scalar (big-endian; dlen 0 for a public key) and public point
 * (0x04 || X || Y), as portable_ec_import takes them. */
struct pkkey_ec {
    uint8_t d[66], pub[133];
    size_t dlen, publen;
};
int pkkey_ec_parts(EVP_PKEY *k, struct pkkey_ec *out, char *why, size_t n);

/* A DSA key's p, q, g, y and x, big-endian, as portable_dsa_import takes them. */
struct pkkey_dsa {
    uint8_t p[384], q[64], g[384], y[384], x[64];
    size_t plen, qlen, glen, ylen, xlen;
};
int pkkey_dsa_parts(EVP_PKEY *k, struct pkkey_dsa *out, char *why, size_t n);

/* DER encodings for the kernel: the private key as PKCS#8, or a self-signed X.509
 * certificate carrying the public key. malloc'd; 0, or -1 and why. */
int pkkey_pkcs8(EVP_PKEY *k, uint8_t **der, size_t *len, char *why, size_t n);
int pkkey_x509(EVP_PKEY *k, uint8_t **der, size_t *len, char *why, size_t n);

/* SHA-256 of len bytes at in into out (one-shot; the RSA and ECDSA rows sign digests). */
int pkkey_sha256(const uint8_t *in, size_t len, uint8_t out[32]);

#endif
