/* Public-key operations in portable C ("no-asm"): X25519 (RFC 7748), Ed25519 (RFC 8032), RSA
 * PKCS#1 v1.5 signatures over SHA-256 (RFC 8017), ECDSA over P-256 and P-384 and ECDH (FIPS
 * 186-4, SP 800-56A) and DSA (FIPS 186-4), the last two with RFC 6979's deterministic nonces
 * (HMAC-SHA-256). Plain C, no asm, no intrinsics; 64x64->128-bit products use unsigned
 * __int128 where the compiler has one, else pairs of 64-bit words (wide.h; i686). Measured,
 * not recommended: nobody reviewed this code for side channels beyond what the comments say.
 *
 * Constant time (neither branch on nor index memory by secret values; masks select; a
 * window's table entry is read by scanning the whole table): X25519; Ed25519 key generation
 * and signing; the RSA private operation; ECDSA signing and public-key derivation, ECDH (a
 * fixed 4-bit window over every bit of the scalar with complete addition formulas, so no case
 * for doubling or infinity; the inversion to affine by Fermat); DSA signing (g^k by the same
 * fixed window as RSA, k^-1 by Fermat); the RFC 6979 nonce (HMAC, and a subtraction's borrow
 * for its range check). Branches that remain: on the nonce's range verdict (a candidate
 * rejected and discarded: about 2^-32 for P-256, up to half for a DSA q) and on r or s
 * being 0 (negligible). The i686 build's 64-bit carries are computed without comparisons
 * (wide.h), which gcc turns into jumps there. Not constant time:
 * verification (its inputs are public) and key import (once per key, outside any timed loop).
 * No blinding anywhere (OpenSSL blinds RSA, ECDSA and DSA). RSA signing has no check of the
 * result with the public exponent (OpenSSL checks): a portable figure is thus slightly
 * flattered, by a few percent at 2048 bits.
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

/* ---- ECDSA and ECDH over NIST P-256 and P-384 (FIPS 186-4 D.1.2.3, D.1.2.4) ---- */
#define PORTABLE_EC_LIMBS 6  /* words of a P-384 coordinate */
#define PORTABLE_DSIG_MAX 104 /* DER of (r, s) for P-384: 2 + 2 (2 + 49) bytes */

/* A key on one curve, with the curve's constants (no global tables). */
struct portable_ec {
    unsigned bits;      /* 256 or 384 */
    size_t bytes;       /* of a coordinate, a scalar, a shared secret */
    struct portable_mont p, n;
    uint64_t b[PORTABLE_EC_LIMBS], gx[PORTABLE_EC_LIMBS], gy[PORTABLE_EC_LIMBS];
    uint64_t one[PORTABLE_EC_LIMBS], p2[PORTABLE_EC_LIMBS]; /* R mod p; p - 2 */
    uint64_t qx[PORTABLE_EC_LIMBS], qy[PORTABLE_EC_LIMBS];  /* the public point */
    uint64_t d[PORTABLE_EC_LIMBS];                          /* the private scalar */
    int has_private;
};

/* bits 256 (P-256) or 384 (P-384). priv: the private scalar d, big-endian, in [1, n - 1];
 * pub: the public point as 0x04 || X || Y (SEC 1 2.3.3 uncompressed), on the curve. Either
 * may be NULL (not both): without pub it is d G, without priv the key only verifies; with
 * both, pub must be d G. 0, or -1 with the reason in why. */
int portable_ec_import(struct portable_ec *k, unsigned bits, const uint8_t *priv,
                       size_t privlen, const uint8_t *pub, size_t publen, char *why,
                       size_t whylen);
/* The public point, 0x04 || X || Y: 1 + 2 k->bytes bytes. */
void portable_ec_pubkey(const struct portable_ec *k, uint8_t *out);
/* ECDSA (FIPS 186-4 6.4) of a digest of any length (bits2int: its leftmost bits), nonce by
 * RFC 6979 3.2 with HMAC-SHA-256; sig gets the DER ECDSA-Sig-Value, at most
 * PORTABLE_DSIG_MAX bytes, minimal. 0, or -1 (public key only; r or s = 0). */
int portable_ecdsa_sign(const struct portable_ec *k, uint8_t *sig, size_t *siglen,
                        const uint8_t *digest, size_t dlen);
/* 0 when sig is minimal DER of (r, s) in [1, n - 1], nothing after it, and valid. */
int portable_ecdsa_verify(const struct portable_ec *k, const uint8_t *sig, size_t siglen,
                          const uint8_t *digest, size_t dlen);
/* ECDH (SP 800-56A 5.7.1.2): out = x(d Q) for the peer's 0x04 || X || Y, k->bytes bytes.
 * -1 when the peer's point is not on the curve or the product is the point at infinity. */
int portable_ecdh(const struct portable_ec *k, uint8_t *out, const uint8_t *peer,
                  size_t peerlen);
void portable_ec_free(struct portable_ec *k);

/* ---- DSA (FIPS 186-4 4.6, 4.7), p of 512 to 2048 bits, q of 160 to 384 bits ---- */
#define PORTABLE_DSA_LIMBS 32

struct portable_dsa {
    size_t pbytes, qbytes;
    struct portable_mont p, q;
    uint64_t g[PORTABLE_DSA_LIMBS], y[PORTABLE_DSA_LIMBS]; /* Montgomery form mod p */
    uint64_t x[PORTABLE_EC_LIMBS];
    int has_private;
};

/* Big-endian p, q, g, y and x (x NULL: a public key). Checked: p and q odd, q's bits a
 * multiple of 8, q of fewer 64-bit words than p, 1 < g, y < p, 0 < x < q and y = g^x mod p.
 * Not checked: that p and q are prime, q divides p - 1, g has order q. */
int portable_dsa_import(struct portable_dsa *k, const uint8_t *p, size_t plen,
                        const uint8_t *q, size_t qlen, const uint8_t *g, size_t glen,
                        const uint8_t *y, size_t ylen, const uint8_t *x, size_t xlen, char *why,
                        size_t whylen);
/* As portable_ecdsa_sign / _verify: DER Dss-Sig-Value, RFC 6979 nonce. */
int portable_dsa_sign(const struct portable_dsa *k, uint8_t *sig, size_t *siglen,
                      const uint8_t *digest, size_t dlen);
int portable_dsa_verify(const struct portable_dsa *k, const uint8_t *sig, size_t siglen,
                        const uint8_t *digest, size_t dlen);
void portable_dsa_free(struct portable_dsa *k);

/* ---- what ECDSA and DSA share, for tests ---- */
/* RFC 6979 3.2's k (HMAC-SHA-256) for the order q (qlen bytes big-endian, its bits a
 * multiple of 8, at most 384), the key x (qlen bytes) and the digest h1; k gets qlen bytes.
 * 0, or -1 for such a q. */
int portable_rfc6979_k(uint8_t *k, const uint8_t *q, size_t qlen, const uint8_t *x,
                       const uint8_t *h1, size_t hlen);
/* DER SEQUENCE { INTEGER r, INTEGER s } of len-byte big-endian r and s (minimal), and back
 * (refusing anything but minimal DER of two nonnegative integers of at most len bytes,
 * with nothing after). */
int portable_dsig_der(uint8_t *sig, size_t *siglen, const uint8_t *r, const uint8_t *s,
                      size_t len);
int portable_dsig_parse(const uint8_t *sig, size_t siglen, uint8_t *r, uint8_t *s, size_t len);

/* How this build multiplies 64-bit words, for `info`. */
extern const char *const portable_pk_wide_kind;

#endif
