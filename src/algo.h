/* The algorithms accelscope measures, and what one operation on each means. */
#ifndef ACCELSCOPE_ALGO_H
#define ACCELSCOPE_ALGO_H

#include <stddef.h>
#include <stdint.h>

#include "feature.h"

enum algo_kind {
    ALGO_CIPHER, /* one op = encrypt/decrypt N bytes continuing the chain (CBC IV, CTR counter) */
    ALGO_AEAD,   /* one op = seal one N-byte message: fresh nonce, ALGO_AAD_LEN bytes AAD, tag */
    ALGO_DIGEST, /* one op = hash one N-byte message: init, update, final */
    ALGO_RNG,    /* one op = fill N bytes with random data */
};

#define ALGO_AAD_LEN 13 /* as `openssl speed -aead` (a TLS record header) */
#define ALGO_TAG_LEN 16
#define ALGO_MAX_KEY 32
#define ALGO_MAX_IV 16
#define ALGO_MAX_OUT_EXTRA 64 /* out buffers are N + this: room for a tag or a digest */
#define ALGO_MAX_BYTES (16u << 20)
#define ALGO_MAX_ACCEL 6

/* The construction around the primitive: what the ceiling model, the OpenSSL backend and the
 * kernels need to know without reading the algorithm's name. */
enum algo_mode {
    ALGO_MODE_NONE,  /* digests, RNGs */
    ALGO_MODE_CBC,
    ALGO_MODE_CTR,
    ALGO_MODE_GCM,
    ALGO_MODE_CHACHA20_POLY1305,
};

struct algo {
    const char *id;         /* canonical id: "aes-256-cbc" */
    enum algo_kind kind;
    enum algo_mode mode;
    unsigned rounds;        /* AES rounds (10, 12, 14); 0 for every other primitive */
    unsigned key_len;       /* bytes; 0 for digests and RNGs */
    unsigned iv_len;        /* bytes: CBC/CTR IV, AEAD nonce; 0 for digests */
    unsigned block;         /* sizes must be multiples of this (CBC: 16, IDEA: 8); 1 otherwise */
    unsigned out_len;       /* digest length; 0 = same as input (ciphers, AEAD adds the tag) */
    const char *evp;        /* OpenSSL EVP name, NULL where OpenSSL has none */
    const char *kernel;     /* Linux crypto API name (AF_ALG), NULL where none */
    const char *afalg_type; /* AF_ALG salg_type: "skcipher", "aead", "hash", "rng" */
    int in_default;         /* part of the default selection of `run` and the TUI */
    /* The CPU features whose instructions compute this algorithm in OpenSSL and the
     * kernels (crypto extensions; vector units are not listed): without any of them, the
     * hardware path runs the same code as the asm path's SIMD variant. */
    enum feature accel[ALGO_MAX_ACCEL];
    unsigned naccel;
};

extern const struct algo algo_table[];
extern const size_t algo_count;

const struct algo *algo_find(const char *id);

/* Bytes an op writes for an input of len bytes (encrypt direction; AEAD adds the tag). */
size_t algo_out_len(const struct algo *a, size_t len);

/* 0 when len is an acceptable block size for a; otherwise a reason in why. */
int algo_check_size(const struct algo *a, size_t len, char *why, size_t n);

/* Ciphers and AEADs have an encrypt and a decrypt direction; digests and RNGs do not. */
int algo_has_direction(const struct algo *a);

/* The AEAD nonce sequence every implementation follows: bytes 4..11 form a big-endian
 * counter that an encrypt op advances by one after sealing. Decrypt ops do not advance it. */
void algo_nonce_next(uint8_t nonce[12]);

/* The fixed AAD every AEAD op authenticates. */
extern const uint8_t algo_aad[ALGO_AAD_LEN];

#endif
