/* Operations of the direct backend on x86-64 (backends/direct_x86.c), over the kernels of
 * asm/x86_64 (asm/direct.h); listed and gated by backends/direct.c. Semantics: src/impl.h. */
#ifndef ACCELSCOPE_DIRECT_X86_H
#define ACCELSCOPE_DIRECT_X86_H

#include <stddef.h>
#include <stdint.h>

#include "impl.h"

/* What an implementation runs: in struct impl's data. */
struct direct_spec {
    unsigned key_bits;  /* AES key size; 0 for digests */
    int vaes;           /* 1: 256-bit kernels: VAES CTR, and VPCLMULQDQ GHASH for GCM;
                           2: 512-bit ones first (AVX-512), then as 1 for what they leave */
    int twopass;        /* GCM as CTR then GHASH over 4 KiB chunks, not stitched */
    int nneed;
    int need[8];        /* enum feature: all must be usable (cpu_feature_status) */
};

/* Engine contexts are not promised 16-byte alignment; the ops align inside, hence + 15. */
extern const size_t direct_x86_cbc_ctx_size, direct_x86_ctr_ctx_size, direct_x86_gcm_ctx_size;

int direct_x86_cbc_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                        int decrypt, char *why, size_t n);
int direct_x86_cbc_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len);
int direct_x86_ctr_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                        int decrypt, char *why, size_t n);
int direct_x86_ctr_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len);
int direct_x86_gcm_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                        int decrypt, char *why, size_t n);
int direct_x86_gcm_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len);
/* direct_x86_gcm_op with alen bytes of AAD at aad in place of algo_aad (tests). */
int direct_x86_gcm_aad_op(void *ctx, const uint8_t *aad, size_t alen, uint8_t *out,
                          const uint8_t *in, size_t len);
int direct_x86_sha_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
                        int decrypt, char *why, size_t n);
int direct_x86_sha1_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len);
int direct_x86_sha256_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len);
/* 1 when every enum feature in need[0..nneed) is usable (cpu_feature_status); else 0 and
 * the first one's reason in why (NULL: none wanted). */
int direct_x86_need(const int *need, int nneed, char *why, size_t n);
/* 1 when the xmm and ymm GCM kernels run in EVEX form (aes-gcm-aesni-vl.S or -vlk.S,
 * aes-gcm-vaes-vl.S): AVX (the xmm form's VEX instructions), AVX512F, AVX512VL (EVEX on xmm
 * and ymm) and AVX512BW (VPSHUFB on %ymm16..31; the xmm form needs only F and VL, and the
 * Xeon Phis, which lack BW, lack VL too) usable, which cpu_feature_status says includes the
 * opmask and ZMM state enabled in XCR0; else 0, the SSE and VEX (AVX2) forms, and why (an
 * ACCELSCOPE_DENY of any of them is one). */
int direct_x86_gcm_evex(char *why, size_t n);
/* 1 when the xmm GCM kernel's EVEX form (where direct_x86_gcm_evex) runs with Karatsuba
 * products (aes-gcm-aesni-vlk.S), on a core whose carry-less multiplier bounds the loop (AMD
 * family 0x19 and later); else 0, schoolbook (aes-gcm-aesni-vl.S). why says which and why. */
int direct_x86_gcm_xmm_kara(char *why, size_t n);
/* Wipe the key schedules. */
void direct_x86_cbc_cleanup(void *ctx);
void direct_x86_ctr_cleanup(void *ctx);
void direct_x86_gcm_cleanup(void *ctx);

#endif
