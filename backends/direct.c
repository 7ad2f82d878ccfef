/* The direct backend: accelscope's own crypto-instruction kernels (asm/x86_64, conventions
 * in asm/direct.h) on the hw path, implementation "direct". Each is listed on every x86-64
 * machine and available only where every instruction set it runs is usable: present per
 * CPUID, enabled by the OS, not denied by ACCELSCOPE_DENY (src/cpu.h). Elsewhere the list is
 * empty and describe() says why; aarch64 and PadLock kernels are other backends. */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "direct_x86.h"
#include "all.h"

#if defined(__x86_64__)

static int check(const struct impl *im, char *why, size_t n)
{
    const struct direct_spec *s = im->data;
    return direct_x86_need(s->need, s->nneed, why, n) ? 0 : -1;
}

/* SSE4.1 (PEXTRD, PBLENDW) and SSSE3 (PSHUFB) come with every CPU that has AES-NI or SHA;
 * SSSE3 is listed where PSHUFB carries the data so denying it is honoured. AVX is not: a
 * denied AVX denies every VEX and EVEX set with it (cpu_denied, src/cpu.c). */
#define NEED(...) .nneed = sizeof((int[]){ __VA_ARGS__ }) / sizeof(int), .need = { __VA_ARGS__ }
static const struct direct_spec aes128 = { .key_bits = 128, NEED(FEAT_AESNI) };
static const struct direct_spec aes192 = { .key_bits = 192, NEED(FEAT_AESNI) };
static const struct direct_spec aes256 = { .key_bits = 256, NEED(FEAT_AESNI) };
static const struct direct_spec ctr128 = { .key_bits = 128, NEED(FEAT_AESNI, FEAT_SSSE3) };
static const struct direct_spec ctr256 = { .key_bits = 256, NEED(FEAT_AESNI, FEAT_SSSE3) };
static const struct direct_spec vctr128 = { .key_bits = 128, .vaes = 1,
                                            NEED(FEAT_AESNI, FEAT_SSSE3, FEAT_VAES, FEAT_AVX2) };
static const struct direct_spec vctr256 = { .key_bits = 256, .vaes = 1,
                                            NEED(FEAT_AESNI, FEAT_SSSE3, FEAT_VAES, FEAT_AVX2) };
/* AVX512F for EVEX.512 and ZMM state, AVX512BW for VPSHUFB zmm; no AVX512VL: the kernels
 * run EVEX only on zmm (asm/direct.h) */
#define Z_NEED FEAT_VAES, FEAT_AVX2, FEAT_AVX512F, FEAT_AVX512BW
static const struct direct_spec zctr128 = { .key_bits = 128, .vaes = 2,
                                            NEED(FEAT_AESNI, FEAT_SSSE3, Z_NEED) };
static const struct direct_spec zctr256 = { .key_bits = 256, .vaes = 2,
                                            NEED(FEAT_AESNI, FEAT_SSSE3, Z_NEED) };
#define GCM_NEED NEED(FEAT_AESNI, FEAT_PCLMULQDQ, FEAT_SSSE3)
#define VGCM_NEED                                                                             \
    NEED(FEAT_AESNI, FEAT_PCLMULQDQ, FEAT_SSSE3, FEAT_VAES, FEAT_VPCLMULQDQ, FEAT_AVX2)
#define ZGCM_NEED                                                                             \
    NEED(FEAT_AESNI, FEAT_PCLMULQDQ, FEAT_SSSE3, FEAT_VPCLMULQDQ, Z_NEED)
static const struct direct_spec zgcm128 = { .key_bits = 128, .vaes = 2, ZGCM_NEED };
static const struct direct_spec zgcm256 = { .key_bits = 256, .vaes = 2, ZGCM_NEED };
static const struct direct_spec gcm128 = { .key_bits = 128, GCM_NEED };
static const struct direct_spec gcm256 = { .key_bits = 256, GCM_NEED };
static const struct direct_spec vgcm128 = { .key_bits = 128, .vaes = 1, VGCM_NEED };
static const struct direct_spec vgcm256 = { .key_bits = 256, .vaes = 1, VGCM_NEED };
static const struct direct_spec gcm128_2p = { .key_bits = 128, .twopass = 1, GCM_NEED };
static const struct direct_spec gcm256_2p = { .key_bits = 256, .twopass = 1, GCM_NEED };
static const struct direct_spec vgcm128_2p = { .key_bits = 128, .vaes = 1, .twopass = 1,
                                               VGCM_NEED };
static const struct direct_spec vgcm256_2p = { .key_bits = 256, .vaes = 1, .twopass = 1,
                                               VGCM_NEED };
static const struct direct_spec sha = { NEED(FEAT_SHA, FEAT_SSSE3) };

#define COMMON .backend = "direct", .path = PATH_HW, .check = check

#define CBC(alg_, spec)                                                                       \
    { .alg = alg_, .name = "direct", COMMON, .data = &spec,                                   \
      .note = "AES-NI (asm/x86_64/aes-aesni.S): CBC encryption is one chain, rounds x "       \
              "AESENC latency per block; decryption keeps 8 blocks in flight",                \
      .ctx_size = 0, .init = direct_x86_cbc_init, .op = direct_x86_cbc_op,                    \
      .cleanup = direct_x86_cbc_cleanup }
#define CTR(alg_, spec, name_, note_)                                                         \
    { .alg = alg_, .name = name_, COMMON, .data = &spec, .note = note_, .ctx_size = 0,        \
      .init = direct_x86_ctr_init, .op = direct_x86_ctr_op, .cleanup = direct_x86_ctr_cleanup }
#define CTR_NI "AES-NI xmm (asm/x86_64/aes-aesni.S), 8 blocks in flight, 128-bit counter"
#define CTR_V "VAES ymm (asm/x86_64/aes-vaes.S), 16 blocks in flight as 8 x 2, 128-bit counter"
#define CTR_Z "VAES zmm (asm/x86_64/aes-vaes512.S), 32 blocks in flight as 8 x 4, 128-bit "   \
              "counter; heavy 512-bit code lowers the core clock on some Intel CPUs (AVX-512 "  \
              "licence levels; Ice Lake-SP among those with VAES)"
#define GCM(alg_, spec, name_, note_)                                                         \
    { .alg = alg_, .name = name_, COMMON, .data = &spec, .note = note_, .ctx_size = 0,        \
      .init = direct_x86_gcm_init, .op = direct_x86_gcm_op, .cleanup = direct_x86_gcm_cleanup }
#define GCM_NI "AES-NI CTR and PCLMULQDQ GHASH stitched (asm/x86_64/aes-gcm-aesni.S): 8 "    \
               "blocks in flight, multiplied between the rounds, 16 per reduction; EVEX form "  \
               "(schoolbook products added by VPTERNLOGQ: aes-gcm-aesni-vl.S) where "          \
               "AVX512F/VL/BW are usable (on AMD's cores, family 0x19 on, where PCLMULQDQ "   \
               "takes two cycles, with Karatsuba products: aes-gcm-aesni-vlk.S), else SSE"
#define GCM_V "VAES CTR and VPCLMULQDQ GHASH on ymm stitched (asm/x86_64/aes-gcm-vaes.S): "   \
              "16 blocks in flight as 8 x 2, by H^32..H^1 between the rounds, one reduction "   \
              "per 32 blocks; EVEX form (32 registers, VPTERNLOGQ, by H^64..H^1, one "          \
              "reduction per 64 blocks: aes-gcm-vaes-vl.S) where AVX512F/VL/BW are usable, "    \
              "else VEX (AVX2)"
#define GCM_Z "VAES CTR and VPCLMULQDQ GHASH on zmm stitched (asm/x86_64/aes-gcm-vaes512.S): " \
              "32 blocks in flight as 8 x 4, by H^64..H^1 between the rounds, one reduction "   \
              "per 64 blocks; heavy 512-bit code lowers the core clock on some Intel CPUs "     \
              "(AVX-512 licence levels; Ice Lake-SP among those with VAES)"
#define GCM_NI2 "two passes, for comparison with direct: AES-NI CTR (8 in flight) then "       \
                "PCLMULQDQ GHASH (16 per reduction) over 4 KiB chunks"
#define GCM_V2 "two passes, for comparison with direct-vaes: VAES ymm CTR (16 in flight) "     \
               "then VPCLMULQDQ ymm GHASH (16 per reduction) over 4 KiB chunks"
#define SHA(alg_, fn, note_)                                                                  \
    { .alg = alg_, .name = "direct", COMMON, .data = &sha, .note = note_, .ctx_size = 16,     \
      .init = direct_x86_sha_init, .op = fn }

static struct impl list[] = {
    CBC("aes-128-cbc", aes128),
    CBC("aes-192-cbc", aes192),
    CBC("aes-256-cbc", aes256),
    CTR("aes-128-ctr", ctr128, "direct", CTR_NI),
    CTR("aes-256-ctr", ctr256, "direct", CTR_NI),
    CTR("aes-128-ctr", vctr128, "direct-vaes", CTR_V),
    CTR("aes-256-ctr", vctr256, "direct-vaes", CTR_V),
    CTR("aes-128-ctr", zctr128, "direct-vaes512", CTR_Z),
    CTR("aes-256-ctr", zctr256, "direct-vaes512", CTR_Z),
    GCM("aes-128-gcm", gcm128, "direct", GCM_NI),
    GCM("aes-256-gcm", gcm256, "direct", GCM_NI),
    GCM("aes-128-gcm", vgcm128, "direct-vaes", GCM_V),
    GCM("aes-256-gcm", vgcm256, "direct-vaes", GCM_V),
    GCM("aes-128-gcm", zgcm128, "direct-vaes512", GCM_Z),
    GCM("aes-256-gcm", zgcm256, "direct-vaes512", GCM_Z),
    GCM("aes-128-gcm", gcm128_2p, "direct-2pass", GCM_NI2),
    GCM("aes-256-gcm", gcm256_2p, "direct-2pass", GCM_NI2),
    GCM("aes-128-gcm", vgcm128_2p, "direct-vaes-2pass", GCM_V2),
    GCM("aes-256-gcm", vgcm256_2p, "direct-vaes-2pass", GCM_V2),
    SHA("sha1", direct_x86_sha1_op, "SHA extensions (asm/x86_64/sha-shani.S): SHA1RNDS4"),
    SHA("sha256", direct_x86_sha256_op,
        "SHA extensions (asm/x86_64/sha-shani.S): SHA256RNDS2"),
};

/* Context sizes are link-time constants of direct_x86.c, so they are filled in here. */
static const struct impl *impls(size_t *count)
{
    static int sized;
    if (!sized) {
        for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
            if (list[i].op == direct_x86_cbc_op)
                list[i].ctx_size = direct_x86_cbc_ctx_size;
            else if (list[i].op == direct_x86_ctr_op)
                list[i].ctx_size = direct_x86_ctr_ctx_size;
            else if (list[i].op == direct_x86_gcm_op)
                list[i].ctx_size = direct_x86_gcm_ctx_size;
        }
        sized = 1;
    }
    *count = sizeof list / sizeof list[0];
    return list;
}

static void describe(FILE *out)
{
    static const enum feature used[] = { FEAT_AESNI, FEAT_VAES, FEAT_AVX, FEAT_AVX2,
                                         FEAT_PCLMULQDQ, FEAT_VPCLMULQDQ, FEAT_AVX512F,
                                         FEAT_AVX512BW, FEAT_AVX512VL, FEAT_SHA, FEAT_SSSE3 };
    char why[160] = "";
    for (size_t i = 0; i < sizeof used / sizeof used[0]; i++) {
        int ok = cpu_feature_status(used[i], why, sizeof why);
        fprintf(out, "direct %s: %s\n", feature_table[used[i]].key, ok ? "used" : why);
    }
    /* which form the direct and direct-vaes GCM rows' xmm and ymm kernels run here, if they
     * run (both follow direct_x86_gcm_evex; the xmm one's EVEX form direct_x86_gcm_xmm_kara) */
    static const struct {
        const struct direct_spec *spec; /* the row, AES-128 */
        const char *width, *evex, *other; /* its kernel's width, its two forms' files */
        const char *kara; /* the EVEX form with Karatsuba products, where it has one */
    } forms[] = {
        { &gcm128, "xmm", "EVEX (asm/x86_64/aes-gcm-aesni-vl.S)",
          "SSE (asm/x86_64/aes-gcm-aesni.S)", "EVEX Karatsuba (asm/x86_64/aes-gcm-aesni-vlk.S)" },
        { &vgcm128, "ymm", "EVEX (asm/x86_64/aes-gcm-vaes-vl.S)",
          "VEX (asm/x86_64/aes-gcm-vaes.S)", NULL },
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        const struct impl *v = NULL;
        for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
            if (list[i].data == forms[f].spec)
                v = &list[i];
        if (check(v, why, sizeof why) != 0)
            fprintf(out, "direct %s gcm: not run: %s\n", forms[f].width, why);
        else if (direct_x86_gcm_evex(why, sizeof why)) {
            if (forms[f].kara && direct_x86_gcm_xmm_kara(why, sizeof why))
                fprintf(out, "direct %s gcm: %s: %s\n", forms[f].width, forms[f].kara, why);
            else
                fprintf(out, "direct %s gcm: %s\n", forms[f].width, forms[f].evex);
        }
        else
            fprintf(out, "direct %s gcm: %s: %s\n", forms[f].width, forms[f].other, why);
    }
}

#else

static const struct impl *impls(size_t *count)
{
    *count = 0;
    return NULL;
}

static void describe(FILE *out)
{
#if defined(__i386__)
    fprintf(out, "direct: no kernels: asm/x86_64 is for x86-64 builds only\n");
#else
    (void)out; /* not x86: nothing of x86 to speak of */
#endif
}

#endif

const struct backend backend_direct = { .name = "direct", .impls = impls, .describe = describe };
