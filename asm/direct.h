/* The crypto kernels of asm/x86_64/ (the microbenchmark loops are in ubench.h) and their C
 * calling convention (System V AMD64 ABI: arguments in rdi, rsi, rdx, rcx, r8, r9; xmm/ymm
 * registers are all caller-saved; the kernels touch no callee-saved register except where
 * they save it; VAES kernels end in vzeroupper).
 *
 * Kernels do one job each and trust their caller: lengths are in whole 16-byte (AES, GHASH)
 * or 64-byte (SHA) blocks, buffers need no alignment, in == out is allowed wherever both
 * exist. Which kernel may run (CPUID, the deny list) is decided in C, in backends/direct.c;
 * calling a kernel on a CPU without its instructions raises SIGILL.
 *
 * Only x86_64 builds assemble these (the Makefile picks asm/$(ASMDIR)/ *.S files); this header is
 * plain declarations and compiles everywhere.
 */
#ifndef ACCELSCOPE_ASM_DIRECT_H
#define ACCELSCOPE_ASM_DIRECT_H

#include <stddef.h>
#include <stdint.h>

/* An expanded AES key: round keys 0..rounds at rk + 16*i, then the round count (10, 12, 14)
 * at byte offset 240, which the kernels read. A decryption schedule is the "equivalent
 * inverse cipher" one of FIPS-197 5.3.5: reversed, with InvMixColumns (AESIMC) applied to the
 * middle keys, as AESDEC expects. */
struct direct_aes_key {
    uint8_t rk[15 * 16] __attribute__((aligned(16)));
    uint32_t rounds;
};

/* aes-aesni.S (AES-NI: CPUID.1:ECX[25]) */
/* bits is 128, 192 or 256; returns 0, or -1 for another value. */
int direct_aes_set_encrypt_key(struct direct_aes_key *k, const uint8_t *key, unsigned bits);
/* Builds dec from an expanded encryption key. */
void direct_aes_set_decrypt_key(struct direct_aes_key *dec, const struct direct_aes_key *enc);
void direct_aes_encrypt_block(const struct direct_aes_key *k, uint8_t out[16],
                              const uint8_t in[16]);
/* CBC over nblocks; iv is read and left holding the last ciphertext block (the chain). */
void direct_aes_cbc_encrypt(const struct direct_aes_key *k, uint8_t *out, const uint8_t *in,
                            size_t nblocks, uint8_t iv[16]);
/* dec is a decryption schedule; eight blocks in flight. */
void direct_aes_cbc_decrypt(const struct direct_aes_key *dec, uint8_t *out, const uint8_t *in,
                            size_t nblocks, uint8_t iv[16]);
/* CTR: ctr is a 128-bit big-endian counter (as OpenSSL's AES-CTR), the key stream is
 * E(ctr), E(ctr+1), ...; ctr is left at the next unused value. Eight blocks in flight. */
void direct_aes_ctr(const struct direct_aes_key *k, uint8_t *out, const uint8_t *in,
                    size_t nblocks, uint8_t ctr[16]);

/* aes-vaes.S (VAES CPUID.7.0:ECX[9] with AVX2 CPUID.7.0:EBX[5] for 256-bit ymm registers):
 * CTR as direct_aes_ctr, sixteen blocks in flight (eight ymm, two blocks each). It works in
 * groups of 16 blocks and stops early, before a group whose counters would carry out of the
 * low 64 bits; returns the blocks it did (a multiple of 16), the caller does the rest. */
size_t direct_aes_ctr_vaes(const struct direct_aes_key *k, uint8_t *out, const uint8_t *in,
                           size_t nblocks, uint8_t ctr[16]);

/* aes-vaes512.S (VAES CPUID.7.0:ECX[9] on 512-bit zmm registers: AVX512F CPUID.7.0:EBX[16],
 * AVX512BW CPUID.7.0:EBX[30] for VPSHUFB zmm, ZMM state enabled in XCR0 bits 5-7): CTR as
 * direct_aes_ctr, thirty-two blocks in flight (eight zmm, four blocks each). It works in
 * groups of 32 blocks and stops early, before a group whose counters would carry out of the
 * low 64 bits; returns the blocks it did (a multiple of 32), the caller does the rest (with
 * direct_aes_ctr_vaes and direct_aes_ctr). Uses %zmm16..31 (caller-saved in the ABI) and
 * zeroes them, with the key stream, before returning. */
size_t direct_aes_ctr_vaes512(const struct direct_aes_key *k, uint8_t *out, const uint8_t *in,
                              size_t nblocks, uint8_t ctr[16]);

/* ghash-pclmul.S (PCLMULQDQ: CPUID.1:ECX[1]; SSSE3 for PSHUFB): GHASH of NIST SP 800-38D
 * 6.4. The key holds H^1..H^16 byte-reflected, for eight (xmm) or sixteen (ymm) blocks per
 * reduction. */
struct direct_ghash_key {
    uint8_t hpow[8][16] __attribute__((aligned(16))); /* hpow[i] = H^(i+1), reflected */
    uint8_t hkar[8][16] __attribute__((aligned(16))); /* both halves: hi ^ lo of hpow[i] */
    uint8_t hrev[16][16] __attribute__((aligned(16))); /* hrev[i] = H^(16-i): ymm pairs */
    uint8_t hkrev[16][16] __attribute__((aligned(16))); /* hkar in the same order */
    /* For the stitched GCM kernels, filled by direct_ghash_shift (not by direct_ghash_init):
     * hsh[i] = hrev[i] times x ("H<<1 mod P" of Gueron and Kounavis, which spares the shift
     * after each product), hksh its Karatsuba half-sums. */
    uint8_t hsh[16][16] __attribute__((aligned(16)));
    uint8_t hksh[16][16] __attribute__((aligned(16)));
    /* the same for H^32..H^17: hsh32[i] = H^(32-i) times x (VAES: 32 blocks per reduction) */
    uint8_t hsh32[16][16] __attribute__((aligned(16)));
    uint8_t hksh32[16][16] __attribute__((aligned(16)));
    /* and for H^48..H^33, H^64..H^49 (the zmm kernel and the ymm one's EVEX form: 64 blocks
     * per reduction); after the rest, which keeps the offsets the older kernels read */
    uint8_t hsh48[16][16] __attribute__((aligned(16)));
    uint8_t hksh48[16][16] __attribute__((aligned(16)));
    uint8_t hsh64[16][16] __attribute__((aligned(16)));
    uint8_t hksh64[16][16] __attribute__((aligned(16)));
} __attribute__((aligned(64))); /* the zmm kernel reads its powers 64 bytes at a time: not
                                   split across cache lines (1.1x as fast on Sapphire Rapids) */
/* The offsets the kernels read (asm/x86_64/aes-gcm-*.S, ghash-vpclmul.S), each half-sum
 * table 256 bytes after its powers. */
_Static_assert(offsetof(struct direct_ghash_key, hsh) == 768 &&
                   offsetof(struct direct_ghash_key, hksh) == 1024 &&
                   offsetof(struct direct_ghash_key, hsh32) == 1280 &&
                   offsetof(struct direct_ghash_key, hksh32) == 1536 &&
                   offsetof(struct direct_ghash_key, hsh48) == 1792 &&
                   offsetof(struct direct_ghash_key, hksh48) == 2048 &&
                   offsetof(struct direct_ghash_key, hsh64) == 2304 &&
                   offsetof(struct direct_ghash_key, hksh64) == 2560,
               "struct direct_ghash_key: the kernels' offsets moved");
/* h is E_K(0^128) as bytes. */
void direct_ghash_init(struct direct_ghash_key *k, const uint8_t h[16]);
/* hsh, hksh and hsh32 .. hksh64 from hrev, after direct_ghash_init (backends/direct_x86.c;
 * runs direct_ghash for the powers above 16). */
void direct_ghash_shift(struct direct_ghash_key *k);
/* y = (y ^ X1) * H ... over nblocks 16-byte blocks; y in GCM byte order. */
void direct_ghash(uint8_t y[16], const struct direct_ghash_key *k, const uint8_t *in,
                  size_t nblocks);
/* aes-gcm-aesni.S: y = (y ^ in) * H for one block, as direct_ghash with nblocks 1, by the
 * stitched kernels' reduction; needs hsh and hksh (direct_ghash_shift). */
void direct_ghash1(uint8_t y[16], const struct direct_ghash_key *k, const uint8_t in[16]);

/* ghash-vpclmul.S (VPCLMULQDQ: CPUID.7.0:ECX[10], with AVX2 for ymm): direct_ghash over the
 * first nblocks & ~15 blocks, sixteen per reduction as eight ymm pairs; returns the blocks
 * done, the caller hashes the rest with direct_ghash. */
size_t direct_ghash_vpclmul(uint8_t y[16], const struct direct_ghash_key *k, const uint8_t *in,
                            size_t nblocks);

/* aes-gcm-aesni.S (AES-NI, PCLMULQDQ, SSSE3) and aes-gcm-vaes.S (VAES, VPCLMULQDQ, AVX2 on
 * ymm): GCM's bulk, SP 800-38D 7.1/7.2, with CTR and GHASH stitched into one loop. The state
 * is GCM's: ctr the next counter block (its last 32 bits step as inc32, mod 2^32), y the GHASH
 * accumulator; both in GCM byte order, both left for the next call. _enc encrypts and hashes
 * what it wrote, _dec hashes its input and decrypts it; in == out is allowed. They do the first
 * nblocks & ~7 blocks (AES-NI: 8 per group, one reduction per two groups by H^16..H^1) or
 * nblocks & ~15 (VAES: 16 per group as 8 ymm pairs, one reduction per two groups by
 * H^32..H^1), return the blocks done,
 * and the caller does the rest. They need gk's hsh and hksh (direct_ghash_shift). The AES-NI
 * pair uses 40 bytes of the red zone below its return address (the counter, the blocks done,
 * and P, round key 0 xored with the counter, which it wipes); the VAES ymm pair 48 (the
 * counter pair, and the blocks done for a moment in the EVEX form). */
struct direct_gcm_state {
    uint8_t ctr[16];
    uint8_t y[16];
};
size_t direct_aes_gcm_enc(const struct direct_aes_key *k, const struct direct_ghash_key *gk,
                          struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                          size_t nblocks);
size_t direct_aes_gcm_dec(const struct direct_aes_key *k, const struct direct_ghash_key *gk,
                          struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                          size_t nblocks);
/* aes-gcm-aesni-vl.S: those two in EVEX form (also AVX, AVX512F, AVX512VL, the opmask and
 * ZMM state in XCR0): schoolbook products added a pair of blocks at a time by VPTERNLOGQ into
 * sums in %xmm16..18; the same contract, reading only hsh of the key (no half-sums). %zmm16..25
 * are used and zeroed before returning; a call of a group or more makes a frame of up to 168
 * bytes below its return address (%rbp pushed, 32-byte aligned), whose whitened counters it
 * wipes. */
size_t direct_aes_gcm_enc_vl(const struct direct_aes_key *k, const struct direct_ghash_key *gk,
                             struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                             size_t nblocks);
size_t direct_aes_gcm_dec_vl(const struct direct_aes_key *k, const struct direct_ghash_key *gk,
                             struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                             size_t nblocks);
/* aes-gcm-aesni-vlk.S: the _vl kernels with Karatsuba products (the SSE form's pairs), so
 * reading hksh too; the same contract otherwise. */
size_t direct_aes_gcm_enc_vlk(const struct direct_aes_key *k, const struct direct_ghash_key *gk,
                              struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                              size_t nblocks);
size_t direct_aes_gcm_dec_vlk(const struct direct_aes_key *k, const struct direct_ghash_key *gk,
                              struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                              size_t nblocks);
size_t direct_aes_gcm_enc_vaes(const struct direct_aes_key *k,
                               const struct direct_ghash_key *gk, struct direct_gcm_state *st,
                               uint8_t *out, const uint8_t *in, size_t nblocks);
size_t direct_aes_gcm_dec_vaes(const struct direct_aes_key *k,
                               const struct direct_ghash_key *gk, struct direct_gcm_state *st,
                               uint8_t *out, const uint8_t *in, size_t nblocks);

/* aes-gcm-vaes-vl.S: the _vaes kernels in EVEX form (also AVX512F, AVX512VL, AVX512BW, the
 * opmask and ZMM state in XCR0), with the round keys in %ymm16..27 and the products added by
 * VPTERNLOGQ, four groups a reduction (H^64..H^1) where four are left; the same contract, and
 * hsh48 and hsh64 with their half-sums too. %ymm16..31 are used and zeroed before returning. */
size_t direct_aes_gcm_enc_vaes_vl(const struct direct_aes_key *k,
                                  const struct direct_ghash_key *gk,
                                  struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                                  size_t nblocks);
size_t direct_aes_gcm_dec_vaes_vl(const struct direct_aes_key *k,
                                  const struct direct_ghash_key *gk,
                                  struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                                  size_t nblocks);

/* aes-gcm-vaes512.S (VAES, VPCLMULQDQ on zmm: AVX512F, AVX512BW, ZMM state in XCR0): as the
 * _vaes kernels with thirty-two blocks per group as eight zmm quads, groups paired by
 * H^64..H^33 and H^32..H^1 and reduced once a pair (a last group alone by H^32..H^1); they
 * do the first nblocks & ~31 blocks and return that, the caller does the rest (the _vaes
 * and AES-NI kernels). They read hsh, hsh32, hsh48 and hsh64 with their half-sums, 64 bytes
 * a quad. %zmm16..31 are used and zeroed before returning, with the key stream and the
 * products. */
size_t direct_aes_gcm_enc_vaes512(const struct direct_aes_key *k,
                                  const struct direct_ghash_key *gk,
                                  struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                                  size_t nblocks);
size_t direct_aes_gcm_dec_vaes512(const struct direct_aes_key *k,
                                  const struct direct_ghash_key *gk,
                                  struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
                                  size_t nblocks);

/* sha-shani.S (SHA extensions: CPUID.7.0:EBX[29]; SSE4.1 for PBLENDW): FIPS 180-4
 * compression of nblocks 64-byte blocks into state (h0..h4 / h0..h7, host order). */
void direct_sha1_blocks(uint32_t state[5], const uint8_t *in, size_t nblocks);
void direct_sha256_blocks(uint32_t state[8], const uint8_t *in, size_t nblocks);

/* rng-rdrand.S (RDRAND: CPUID.1:ECX[30]; RDSEED: CPUID.7.0:EBX[18]): fill len bytes, 8 at a
 * time. A draw that reports no data (CF=0) is retried, RDRAND up to 10 times as Intel's DRNG
 * guide advises, RDSEED up to 1024 times with PAUSE between; returns the bytes written, less
 * than len only when the source ran dry. */
size_t direct_rdrand_fill(uint8_t *out, size_t len);
size_t direct_rdseed_fill(uint8_t *out, size_t len);

#endif
