/* The portable C path ("no-asm"): plain C, no asm, no intrinsics, endian-neutral.
 * A direct API for tests and for the glue in portable.c. Every function accepts len 0 and
 * out == in (in place); partial overlap is not supported.
 *
 * AES here is table-driven (T-tables): its memory accesses depend on key and data, so its
 * timing leaks them, as OpenSSL's own no-asm build does. */
#ifndef ACCELSCOPE_PORTABLE_H
#define ACCELSCOPE_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "ctr_stream.h"

/* ---- AES (FIPS-197) ---- */
struct portable_aes {
    uint32_t rk[60]; /* round keys, big-endian column words */
    unsigned rounds; /* 10, 12, 14 */
};

/* key_len 16, 24 or 32; -1 otherwise. */
int portable_aes_setkey_enc(struct portable_aes *k, const uint8_t *key, size_t key_len);
/* Round keys for the equivalent inverse cipher (FIPS-197 section 5.3.5). */
int portable_aes_setkey_dec(struct portable_aes *k, const uint8_t *key, size_t key_len);
void portable_aes_encrypt(const struct portable_aes *k, const uint8_t in[16], uint8_t out[16]);
void portable_aes_decrypt(const struct portable_aes *k, const uint8_t in[16], uint8_t out[16]);

/* CBC (SP 800-38A 6.2): len a multiple of 16; iv is updated to continue the chain. */
void portable_aes_cbc_encrypt(const struct portable_aes *k, uint8_t iv[16], uint8_t *out,
                              const uint8_t *in, size_t len);
void portable_aes_cbc_decrypt(const struct portable_aes *k, uint8_t iv[16], uint8_t *out,
                              const uint8_t *in, size_t len);

/* CTR (SP 800-38A 6.5) with a 128-bit big-endian counter, any len; the keystream of a
 * partial block carries over to the next call, as OpenSSL's EVP does. */
struct portable_aes_ctr {
    struct portable_aes key;
    uint8_t ctr[16];
    struct ctr_stream ks;
};
int portable_aes_ctr_init(struct portable_aes_ctr *c, const uint8_t *key, size_t key_len,
                          const uint8_t iv[16]);
void portable_aes_ctr_xor(struct portable_aes_ctr *c, uint8_t *out, const uint8_t *in,
                          size_t len);

/* GCM's counter mode: nblocks whole blocks, incrementing only the last 32 bits of ctr
 * (big-endian, wrapping), which is left at the next counter (SP 800-38D 6.5). */
void portable_aes_ctr32_xor(const struct portable_aes *k, uint8_t ctr[16], uint8_t *out,
                            const uint8_t *in, size_t nblocks);

/* ---- Constant-time AES: bitsliced, four blocks in eight 64-bit words (aes_ct.c) ----
 * No table lookups and no branches on key or data. One key schedule serves both
 * directions. Same semantics as the T-table functions above. */
struct portable_aes_ct {
    uint64_t sk[15][8]; /* round keys, bitsliced, the same in all four block lanes */
    unsigned rounds;
};
int portable_aes_ct_setkey(struct portable_aes_ct *k, const uint8_t *key, size_t key_len);
void portable_aes_ct_encrypt(const struct portable_aes_ct *k, const uint8_t in[16],
                             uint8_t out[16]);
void portable_aes_ct_decrypt(const struct portable_aes_ct *k, const uint8_t in[16],
                             uint8_t out[16]);
void portable_aes_ct_cbc_encrypt(const struct portable_aes_ct *k, uint8_t iv[16], uint8_t *out,
                                 const uint8_t *in, size_t len);
void portable_aes_ct_cbc_decrypt(const struct portable_aes_ct *k, uint8_t iv[16], uint8_t *out,
                                 const uint8_t *in, size_t len);
struct portable_aes_ct_ctr {
    struct portable_aes_ct key;
    uint8_t ctr[16];
    struct ctr_stream ks;
};
int portable_aes_ct_ctr_init(struct portable_aes_ct_ctr *c, const uint8_t *key, size_t key_len,
                             const uint8_t iv[16]);
void portable_aes_ct_ctr_xor(struct portable_aes_ct_ctr *c, uint8_t *out, const uint8_t *in,
                             size_t len);

/* ---- GCM (NIST SP 800-38D) with an 8-bit table GHASH (Shoup's method) ---- */
struct portable_gcm {
    struct portable_aes key;
    uint64_t htab[256][2]; /* htab[n] = n(x) * H, hi and lo halves: 4 KiB per key */
};
int portable_gcm_setkey(struct portable_gcm *g, const uint8_t *key, size_t key_len);
/* iv of any length >= 1 (12 is the fast path of SP 800-38D 7.1 step 2). */
void portable_gcm_seal(const struct portable_gcm *g, const uint8_t *iv, size_t iv_len,
                       const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                       size_t len, uint8_t tag[16]);
/* 0 when tag verifies (out = plaintext); else -1 and out is zeroed. */
int portable_gcm_open(const struct portable_gcm *g, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in,
                      size_t len, const uint8_t tag[16]);

/* ---- ChaCha20, Poly1305 and their AEAD (RFC 8439) ---- */
void portable_chacha20_xor(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12],
                           uint8_t *out, const uint8_t *in, size_t len);

struct portable_poly1305 {
    uint64_t h[5], r[5]; /* accumulator and key: 3 limbs of 64 bits, or 5 of 26 bits */
    uint64_t s[2];       /* the pad added at the end */
    uint8_t buf[16];
    size_t nbuf;
};
extern const char *const portable_poly1305_limbs; /* which limb size this build uses */
void portable_poly1305_init(struct portable_poly1305 *p, const uint8_t key[32]);
void portable_poly1305_update(struct portable_poly1305 *p, const uint8_t *in, size_t len);
void portable_poly1305_final(struct portable_poly1305 *p, uint8_t tag[16]);

void portable_chacha20_poly1305_seal(const uint8_t key[32], const uint8_t nonce[12],
                                     const uint8_t *aad, size_t aad_len, uint8_t *out,
                                     const uint8_t *in, size_t len, uint8_t tag[16]);
/* 0 when tag verifies; else -1 and out is zeroed. */
int portable_chacha20_poly1305_open(const uint8_t key[32], const uint8_t nonce[12],
                                    const uint8_t *aad, size_t aad_len, uint8_t *out,
                                    const uint8_t *in, size_t len, const uint8_t tag[16]);

/* ---- Digests, one shot: RFC 1321, FIPS 180-4 ---- */
void portable_md5(const uint8_t *in, size_t len, uint8_t out[16]);
void portable_sha1(const uint8_t *in, size_t len, uint8_t out[20]);
void portable_sha256(const uint8_t *in, size_t len, uint8_t out[32]);
void portable_sha512(const uint8_t *in, size_t len, uint8_t out[64]);

/* ---- IDEA (Lai-Massey, 1991), 64-bit blocks, 128-bit key ---- */
struct portable_idea {
    uint16_t k[52];
};
void portable_idea_setkey_enc(struct portable_idea *k, const uint8_t key[16]);
void portable_idea_setkey_dec(struct portable_idea *k, const uint8_t key[16]);
void portable_idea_block(const struct portable_idea *k, const uint8_t in[8], uint8_t out[8]);
/* CBC: len a multiple of 8; iv updated. Decrypt takes the decryption key schedule. */
void portable_idea_cbc_encrypt(const struct portable_idea *k, uint8_t iv[8], uint8_t *out,
                               const uint8_t *in, size_t len);
void portable_idea_cbc_decrypt(const struct portable_idea *k, uint8_t iv[8], uint8_t *out,
                               const uint8_t *in, size_t len);

#endif
