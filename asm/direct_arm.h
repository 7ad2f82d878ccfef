/* Calling convention of the ARMv8 crypto-extension kernels in asm/aarch64/ (AAPCS64).
 *
 * The kernels do one job each on whole blocks; key expansion, padding, partial blocks, the
 * GCM construction and feature checks live in the C glue (backends/direct_arm.c). No kernel
 * keeps state between calls other than what it is handed. Pointers need no alignment; in
 * and out may be equal (in place) but must not otherwise overlap. They use only v0-v7 and
 * v16-v31 (AAPCS64 caller-saved), so nothing is saved or restored.
 *
 * Round keys are the FIPS-197 key schedule as bytes, round key i at rk + 16*i, rounds + 1
 * of them (rounds = 10, 12, 14). Decryption keys (armce_aes_invert) are the schedule of the
 * equivalent inverse cipher (FIPS-197 5.3.5), which is what AESD/AESIMC expect.
 *
 * Instructions: AESE/AESMC/AESD/AESIMC need HWCAP_AES; PMULL/PMULL2 (1Q) HWCAP_PMULL;
 * SHA1C/P/M/H/SU0/SU1 HWCAP_SHA1; SHA256H/H2/SU0/SU1 HWCAP_SHA2; SHA512H/H2/SU0/SU1
 * HWCAP_SHA512 (Linux Documentation/arch/arm64/elf_hwcaps.rst). The caller checks.
 */
#ifndef ACCELSCOPE_DIRECT_ARM_H
#define ACCELSCOPE_DIRECT_ARM_H

#include <stddef.h>
#include <stdint.h>

#define ARMCE_AES_MAX_ROUNDS 14

/* S-box applied to each byte of w (AES SubWord): AESE with a zero round key on a vector
 * whose four columns are all w, so ShiftRows has no effect. */
uint32_t armce_aes_subword(uint32_t w);

/* drk = equivalent-inverse-cipher schedule of erk: erk reversed, AESIMC on the middle keys. */
void armce_aes_invert(uint8_t *drk, const uint8_t *erk, unsigned rounds);

/* CBC over blocks 16-byte blocks; iv is read and replaced by the last ciphertext block. */
void armce_aes_cbc_enc(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in,
                       size_t blocks, uint8_t iv[16]);
void armce_aes_cbc_dec(const uint8_t *drk, unsigned rounds, uint8_t *out, const uint8_t *in,
                       size_t blocks, uint8_t iv[16]);

/* out = in XOR E(ctr), E(ctr+1), ...: ctr is a 128-bit big-endian counter, advanced by
 * blocks on return (NIST SP 800-38A 6.5 with the standard incrementing function). */
void armce_aes_ctr(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in,
                   size_t blocks, uint8_t ctr[16]);

/* GHASH (NIST SP 800-38D 6.4): for each block, xi = (xi XOR block) * H in GF(2^128).
 * htable[i] = H^(i+1), all in the specification's byte order (H = E_K(0^128) as it comes
 * out of AES); four blocks at a time use all four, a single block only htable[0], so the
 * powers can be computed with this function: H^(i+1) = GHASH with xi = 0 over H^i. */
void armce_ghash(uint8_t xi[16], const uint8_t htable[4][16], const uint8_t *in,
                 size_t blocks);

/* Compression functions (FIPS 180-4) on 64-byte (SHA-1, SHA-256) or 128-byte (SHA-512)
 * blocks; state words in host order, as in the specification's H0..H7. */
void armce_sha1_blocks(uint32_t state[5], const uint8_t *in, size_t blocks);
void armce_sha256_blocks(uint32_t state[8], const uint8_t *in, size_t blocks);
void armce_sha512_blocks(uint64_t state[8], const uint8_t *in, size_t blocks);

#endif
