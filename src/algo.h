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
    ALGO_PKEY,   /* one op = one public-key operation (sign, verify, derive...): see below */
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

/* Public-key operations (ALGO_PKEY). Their one "size" is the key or curve size in bits; the
 * engine counts one byte per operation, so a result's mb_per_s x 10^6 is operations per
 * second (algo_rate()). Keys come from a 32-byte seed (init's key): every implementation given
 * the same seed holds the same key pair, so signatures and secrets compare across them.
 * An op's in and out are records (algo_pk_put/algo_pk_get: a 2-byte big-endian length, then
 * the bytes):
 *   SIGN:   in = message; out = signature. RSA, ECDSA and DSA sign the message as a SHA-256
 *           digest (32 bytes, as `openssl speed`); Ed25519 and ML-DSA sign it as it is.
 *   VERIFY: in = message, then signature; returns 0 only when the signature verifies.
 *   DERIVE: in = the peer's public key (imported once and kept while the bytes stay the
 *           same: a fresh peer outside the timed loop); out = the shared secret.
 *   KEYGEN: out = a public key. ENCAPS: in = public key; out = ciphertext, then secret.
 *   DECAPS: in = ciphertext; out = secret. */
enum algo_pk_op { PK_NONE, PK_SIGN, PK_VERIFY, PK_DERIVE, PK_KEYGEN, PK_ENCAPS, PK_DECAPS };

#define ALGO_PK_BUF 8192   /* bytes of an op's in and out buffers for public-key algorithms */
#define ALGO_PK_MSG_LEN 32 /* the message every timed sign and verify works on */

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
    /* ALGO_PKEY only */
    const char *family;     /* "rsa", "ecdsa", "ed25519", "x25519", "ecdh", "dsa", "ml-kem",
                             * "ml-dsa": the operations of one family share their keys */
    enum algo_pk_op pk_op;
    unsigned key_bits;      /* the algorithm's one size: RSA modulus, curve, parameter set */
    const char *pk_type;    /* OpenSSL key type: "RSA", "EC", "ED25519", "ML-KEM-768"... */
    const char *group;      /* EC curve name for OpenSSL ("P-256"), NULL otherwise */
};

extern const struct algo algo_table[];
extern const size_t algo_count;

const struct algo *algo_find(const char *id);

/* Bytes an op writes for an input of len bytes (encrypt direction; AEAD adds the tag). */
size_t algo_out_len(const struct algo *a, size_t len);

/* 0 when len is an acceptable block size for a; otherwise a reason in why. */
int algo_check_size(const struct algo *a, size_t len, char *why, size_t n);

/* 0 for algorithms measured at one size of their own (public-key: the key size, whatever
 * `-s` says); 1 for those measured at the sizes selected. */
int algo_sized(const struct algo *a);

/* The size a cell of a measures at when the selection asks for size. */
size_t algo_cell_size(const struct algo *a, size_t size);

/* Bytes counted per operation of len bytes: len, or 1 for public-key operations. */
size_t algo_op_bytes(const struct algo *a, size_t len);

/* A result's mb_per_s in the algorithm's own unit: MB/s, or operations per second. */
double algo_rate(const struct algo *a, double mb_per_s);
const char *algo_unit(const struct algo *a); /* "MB/s" or "ops/s" */

/* Bytes an op of len bytes needs in its in and out buffers (past len: ALGO_MAX_OUT_EXTRA). */
size_t algo_buf_len(const struct algo *a, size_t len);

/* The operation's name ("sign", "verify", "derive", ...), "" for other kinds. */
const char *algo_pk_op_name(enum algo_pk_op op);

/* The algorithm of the same family and key size doing op ("rsa2048-sign" -> verify:
 * "rsa2048-verify"), NULL when there is none. */
const struct algo *algo_pk_sibling(const struct algo *a, enum algo_pk_op op);

/* Groups accepted by -a besides the ids: 1 when a belongs to group name, 0 when not, -1 when
 * name is no group. "pk": every public-key operation but RSA-1024 (asked for by name). */
int algo_in_group(const char *name, const struct algo *a);
extern const char *const algo_groups; /* "pk, rsa, ecdsa, eddsa, kex, pq": for messages */

/* Records of public-key ops: put writes len and the bytes at p (returns the bytes used, 0
 * when they do not fit in cap); get reads one (returns the bytes used, 0 when malformed). */
size_t algo_pk_put(uint8_t *p, size_t cap, const uint8_t *data, size_t len);
size_t algo_pk_get(const uint8_t *p, size_t cap, const uint8_t **data, size_t *len);

/* Ciphers and AEADs have an encrypt and a decrypt direction; digests and RNGs do not. */
int algo_has_direction(const struct algo *a);

/* The AEAD nonce sequence every implementation follows: bytes 4..11 form a big-endian
 * counter that an encrypt op advances by one after sealing. Decrypt ops do not advance it. */
void algo_nonce_next(uint8_t nonce[12]);

/* The fixed AAD every AEAD op authenticates. */
extern const uint8_t algo_aad[ALGO_AAD_LEN];

#endif
