/* Public-key operations in portable C ("no-asm"): X25519 (RFC 7748), Ed25519 (RFC 8032) and
 * RSA PKCS#1 v1.5 signatures over SHA-256 (RFC 8017). Plain C, no asm, no intrinsics; 64x64
 * ->128-bit products use unsigned __int128 where the compiler has one, else pairs of 64-bit
 * words (wide.h; i686). Measured, not recommended: nobody reviewed this code for side
 * channels beyond what the comments say.
 *
 * Constant time: X25519, Ed25519 key generation and signing, and the RSA private operation
 * neither branch on nor index memory by secret values (masks select; a window's table entry
 * is read by scanning the whole table). RSA signing has no blinding (OpenSSL blinds) and no
 * check of the result with the public exponent (OpenSSL checks): a portable figure is thus
 * slightly flattered, by a few percent at 2048 bits. Verification is variable time: its
 * inputs are public. So is RSA key import (once per key, outside any timed loop).
 *
 * Shape as agreed with pkcore, with two differences, both source compatible:
 * - portable_rsa_import's reason buffer length is named whylen (the brief's "n" collides
 *   with the modulus parameter's name).
 * - p, q, dp, dq and qinv may be NULL (with their lengths 0): a public key, which verifies;
 *   signing with it returns -1. d is accepted for OpenSSL's layout and not used (the private
 *   operation is CRT).
 * No global state: any number of threads may call any of these at once (on distinct outputs).
 * portable_rsa_import allocates nothing (the key lives in the struct, about 4.5 KiB);
 * portable_rsa_free only wipes it. */
#ifndef ACCELSCOPE_PORTABLE_PK_H
#define ACCELSCOPE_PORTABLE_PK_H

#include <stddef.h>
#include <stdint.h>

/* ---- X25519 (RFC 7748 section 5): out = X25519(scalar, point); _base: point u = 9 ---- */
void portable_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t point[32]);
void portable_x25519_base(uint8_t out[32], const uint8_t scalar[32]);

/* ---- Ed25519 (RFC 8032 section 5.1), pure (no context, no prehash) ---- */
void portable_ed25519_pubkey(uint8_t pub[32], const uint8_t seed[32]);
/* pub must be portable_ed25519_pubkey(seed): it enters the hash as given. */
void portable_ed25519_sign(uint8_t sig[64], const uint8_t *msg, size_t len,
                           const uint8_t seed[32], const uint8_t pub[32]);
/* 0 when valid; -1 for a bad signature, a public key that does not decode, or S >= L. The
 * check is the cofactorless one, [S]B = R + [k]A compared as encodings, as OpenSSL's. */
int portable_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t len,
                            const uint8_t pub[32]);

/* ---- RSA (RFC 8017): RSASSA-PKCS1-v1_5 with SHA-256 ---- */
#define PORTABLE_RSA_MAX_BITS 4096
#define PORTABLE_RSA_LIMBS (PORTABLE_RSA_MAX_BITS / 64)

/* One modulus with its Montgomery constants: R = 2^(64 * limbs). */
struct portable_mont {
    unsigned limbs;
    uint64_t m[PORTABLE_RSA_LIMBS];  /* the modulus, least significant limb first */
    uint64_t rr[PORTABLE_RSA_LIMBS]; /* R^2 mod m */
    uint64_t minv;                   /* -m^-1 mod 2^64 */
};

struct portable_rsa {
    size_t nbytes;      /* the signature length: the modulus's length in bytes */
    uint64_t e;         /* the public exponent (at most 64 bits) */
    int has_private;
    struct portable_mont n, p, q; /* p and q: limbs each, n: at most twice as many */
    uint64_t r3p[PORTABLE_RSA_LIMBS / 2];  /* R^3 mod p: one step into Montgomery form */
    uint64_t r3q[PORTABLE_RSA_LIMBS / 2];
    uint64_t dp[PORTABLE_RSA_LIMBS / 2], dq[PORTABLE_RSA_LIMBS / 2];
    uint64_t qinv[PORTABLE_RSA_LIMBS / 2]; /* q^-1 mod p */
};

/* Big-endian unsigned integers, as OpenSSL's BN_bn2bin gives them (leading zeros allowed).
 * Accepts moduli of 512 to 4096 bits and 1 < e < 2^64 odd; p and q must have the same
 * number of 64-bit words and p * q = n. 0, or -1 with the reason in why. */
int portable_rsa_import(struct portable_rsa *k, const uint8_t *n, size_t nlen, const uint8_t *e,
                        size_t elen, const uint8_t *d, size_t dlen, const uint8_t *p,
                        size_t plen, const uint8_t *q, size_t qlen, const uint8_t *dp,
                        size_t dplen, const uint8_t *dq, size_t dqlen, const uint8_t *qinv,
                        size_t qinvlen, char *why, size_t whylen);
/* siglen must be k->nbytes. 0 = ok, -1 otherwise (wrong length, public key only). */
int portable_rsa_sign_sha256(const struct portable_rsa *k, uint8_t *sig, size_t siglen,
                             const uint8_t digest[32]);
/* 0 when sig is a valid signature of digest. */
int portable_rsa_verify_sha256(const struct portable_rsa *k, const uint8_t *sig, size_t siglen,
                               const uint8_t digest[32]);
void portable_rsa_free(struct portable_rsa *k);

/* How this build multiplies 64-bit words, for `info`. */
extern const char *const portable_pk_wide_kind;

#endif
