/* Microbenchmarks for src/limits.c: latency and reciprocal throughput of single
 * instructions. Each function runs iters iterations of a body of UBENCH_UNROLL (24, see
 * asm/ubench.h) instructions of one kind:
 *  _lat: one dependency chain (every instruction reads the last one's result), so the time
 *        per instruction is its latency;
 *  _tp:  twelve independent chains, enough to keep every unit busy while each result is
 *        pending (latency / reciprocal throughput < 12 on current cores), so the time per
 *        instruction is the reciprocal throughput.
 * Register contents are whatever the caller left: these instructions take the same time
 * whatever the data. The loop counter's DEC/JNZ runs beside the measured chain.
 * AT&T syntax; ymm functions end in VZEROUPPER. */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

    .text


/* void ubench_add_lat(uint64_t iters): dependent adds, one core cycle each. The addend is a
 * register (the iteration count): Golden Cove and later fold add-immediate chains at rename,
 * several a cycle (src/clock.c says what that read). */
    .globl  ubench_add_lat
    .type   ubench_add_lat, @function
    .p2align 4
ubench_add_lat:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    movq    %rdi, %rdx
    .p2align 4
1:
    .rept   24              /* UBENCH_UNROLL */
    addq    %rdx, %rax
    .endr
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_add_lat, .-ubench_add_lat

/* void ubench_aesenc_lat(uint64_t iters): AESENC chain */
    .globl  ubench_aesenc_lat
    .type   ubench_aesenc_lat, @function
    .p2align 4
ubench_aesenc_lat:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm0
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_aesenc_lat, .-ubench_aesenc_lat

/* void ubench_aesenc_tp(uint64_t iters): AESENC, 12 chains */
    .globl  ubench_aesenc_tp
    .type   ubench_aesenc_tp, @function
    .p2align 4
ubench_aesenc_tp:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm1
    aesenc  %xmm15, %xmm2
    aesenc  %xmm15, %xmm3
    aesenc  %xmm15, %xmm4
    aesenc  %xmm15, %xmm5
    aesenc  %xmm15, %xmm6
    aesenc  %xmm15, %xmm7
    aesenc  %xmm15, %xmm8
    aesenc  %xmm15, %xmm9
    aesenc  %xmm15, %xmm10
    aesenc  %xmm15, %xmm11
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm1
    aesenc  %xmm15, %xmm2
    aesenc  %xmm15, %xmm3
    aesenc  %xmm15, %xmm4
    aesenc  %xmm15, %xmm5
    aesenc  %xmm15, %xmm6
    aesenc  %xmm15, %xmm7
    aesenc  %xmm15, %xmm8
    aesenc  %xmm15, %xmm9
    aesenc  %xmm15, %xmm10
    aesenc  %xmm15, %xmm11
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_aesenc_tp, .-ubench_aesenc_tp

/* void ubench_vaesenc_lat(uint64_t iters): VAESENC ymm chain */
    .globl  ubench_vaesenc_lat
    .type   ubench_vaesenc_lat, @function
    .p2align 4
ubench_vaesenc_lat:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm0, %ymm0
    decq    %rdi
    jnz     1b
2:
    vzeroupper
    ret
    .size   ubench_vaesenc_lat, .-ubench_vaesenc_lat

/* void ubench_vaesenc_tp(uint64_t iters): VAESENC ymm, 12 chains */
    .globl  ubench_vaesenc_tp
    .type   ubench_vaesenc_tp, @function
    .p2align 4
ubench_vaesenc_tp:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm1, %ymm1
    vaesenc %ymm15, %ymm2, %ymm2
    vaesenc %ymm15, %ymm3, %ymm3
    vaesenc %ymm15, %ymm4, %ymm4
    vaesenc %ymm15, %ymm5, %ymm5
    vaesenc %ymm15, %ymm6, %ymm6
    vaesenc %ymm15, %ymm7, %ymm7
    vaesenc %ymm15, %ymm8, %ymm8
    vaesenc %ymm15, %ymm9, %ymm9
    vaesenc %ymm15, %ymm10, %ymm10
    vaesenc %ymm15, %ymm11, %ymm11
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm1, %ymm1
    vaesenc %ymm15, %ymm2, %ymm2
    vaesenc %ymm15, %ymm3, %ymm3
    vaesenc %ymm15, %ymm4, %ymm4
    vaesenc %ymm15, %ymm5, %ymm5
    vaesenc %ymm15, %ymm6, %ymm6
    vaesenc %ymm15, %ymm7, %ymm7
    vaesenc %ymm15, %ymm8, %ymm8
    vaesenc %ymm15, %ymm9, %ymm9
    vaesenc %ymm15, %ymm10, %ymm10
    vaesenc %ymm15, %ymm11, %ymm11
    decq    %rdi
    jnz     1b
2:
    vzeroupper
    ret
    .size   ubench_vaesenc_tp, .-ubench_vaesenc_tp

/* void ubench_pclmul_lat(uint64_t iters): PCLMULQDQ chain */
    .globl  ubench_pclmul_lat
    .type   ubench_pclmul_lat, @function
    .p2align 4
ubench_pclmul_lat:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm0
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_pclmul_lat, .-ubench_pclmul_lat

/* void ubench_pclmul_tp(uint64_t iters): PCLMULQDQ, 12 chains */
    .globl  ubench_pclmul_tp
    .type   ubench_pclmul_tp, @function
    .p2align 4
ubench_pclmul_tp:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm1
    pclmulqdq $0x00, %xmm15, %xmm2
    pclmulqdq $0x00, %xmm15, %xmm3
    pclmulqdq $0x00, %xmm15, %xmm4
    pclmulqdq $0x00, %xmm15, %xmm5
    pclmulqdq $0x00, %xmm15, %xmm6
    pclmulqdq $0x00, %xmm15, %xmm7
    pclmulqdq $0x00, %xmm15, %xmm8
    pclmulqdq $0x00, %xmm15, %xmm9
    pclmulqdq $0x00, %xmm15, %xmm10
    pclmulqdq $0x00, %xmm15, %xmm11
    pclmulqdq $0x00, %xmm15, %xmm0
    pclmulqdq $0x00, %xmm15, %xmm1
    pclmulqdq $0x00, %xmm15, %xmm2
    pclmulqdq $0x00, %xmm15, %xmm3
    pclmulqdq $0x00, %xmm15, %xmm4
    pclmulqdq $0x00, %xmm15, %xmm5
    pclmulqdq $0x00, %xmm15, %xmm6
    pclmulqdq $0x00, %xmm15, %xmm7
    pclmulqdq $0x00, %xmm15, %xmm8
    pclmulqdq $0x00, %xmm15, %xmm9
    pclmulqdq $0x00, %xmm15, %xmm10
    pclmulqdq $0x00, %xmm15, %xmm11
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_pclmul_tp, .-ubench_pclmul_tp

/* void ubench_sha256rnds2_lat(uint64_t iters): SHA256RNDS2 chain (implicit %xmm0) */
    .globl  ubench_sha256rnds2_lat
    .type   ubench_sha256rnds2_lat, @function
    .p2align 4
ubench_sha256rnds2_lat:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm1
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_sha256rnds2_lat, .-ubench_sha256rnds2_lat

/* void ubench_sha256rnds2_tp(uint64_t iters): SHA256RNDS2, 12 chains */
    .globl  ubench_sha256rnds2_tp
    .type   ubench_sha256rnds2_tp, @function
    .p2align 4
ubench_sha256rnds2_tp:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm2
    sha256rnds2 %xmm15, %xmm3
    sha256rnds2 %xmm15, %xmm4
    sha256rnds2 %xmm15, %xmm5
    sha256rnds2 %xmm15, %xmm6
    sha256rnds2 %xmm15, %xmm7
    sha256rnds2 %xmm15, %xmm8
    sha256rnds2 %xmm15, %xmm9
    sha256rnds2 %xmm15, %xmm10
    sha256rnds2 %xmm15, %xmm11
    sha256rnds2 %xmm15, %xmm12
    sha256rnds2 %xmm15, %xmm1
    sha256rnds2 %xmm15, %xmm2
    sha256rnds2 %xmm15, %xmm3
    sha256rnds2 %xmm15, %xmm4
    sha256rnds2 %xmm15, %xmm5
    sha256rnds2 %xmm15, %xmm6
    sha256rnds2 %xmm15, %xmm7
    sha256rnds2 %xmm15, %xmm8
    sha256rnds2 %xmm15, %xmm9
    sha256rnds2 %xmm15, %xmm10
    sha256rnds2 %xmm15, %xmm11
    sha256rnds2 %xmm15, %xmm12
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_sha256rnds2_tp, .-ubench_sha256rnds2_tp

/* void ubench_sha1rnds4_lat(uint64_t iters): SHA1RNDS4 chain */
    .globl  ubench_sha1rnds4_lat
    .type   ubench_sha1rnds4_lat, @function
    .p2align 4
ubench_sha1rnds4_lat:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm1
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_sha1rnds4_lat, .-ubench_sha1rnds4_lat

/* void ubench_sha1rnds4_tp(uint64_t iters): SHA1RNDS4, 12 chains */
    .globl  ubench_sha1rnds4_tp
    .type   ubench_sha1rnds4_tp, @function
    .p2align 4
ubench_sha1rnds4_tp:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm2
    sha1rnds4 $0, %xmm15, %xmm3
    sha1rnds4 $0, %xmm15, %xmm4
    sha1rnds4 $0, %xmm15, %xmm5
    sha1rnds4 $0, %xmm15, %xmm6
    sha1rnds4 $0, %xmm15, %xmm7
    sha1rnds4 $0, %xmm15, %xmm8
    sha1rnds4 $0, %xmm15, %xmm9
    sha1rnds4 $0, %xmm15, %xmm10
    sha1rnds4 $0, %xmm15, %xmm11
    sha1rnds4 $0, %xmm15, %xmm12
    sha1rnds4 $0, %xmm15, %xmm1
    sha1rnds4 $0, %xmm15, %xmm2
    sha1rnds4 $0, %xmm15, %xmm3
    sha1rnds4 $0, %xmm15, %xmm4
    sha1rnds4 $0, %xmm15, %xmm5
    sha1rnds4 $0, %xmm15, %xmm6
    sha1rnds4 $0, %xmm15, %xmm7
    sha1rnds4 $0, %xmm15, %xmm8
    sha1rnds4 $0, %xmm15, %xmm9
    sha1rnds4 $0, %xmm15, %xmm10
    sha1rnds4 $0, %xmm15, %xmm11
    sha1rnds4 $0, %xmm15, %xmm12
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_sha1rnds4_tp, .-ubench_sha1rnds4_tp

/* void ubench_vpclmul_lat(uint64_t iters): VPCLMULQDQ ymm chain */
    .globl  ubench_vpclmul_lat
    .type   ubench_vpclmul_lat, @function
    .p2align 4
ubench_vpclmul_lat:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    decq    %rdi
    jnz     1b
2:
    vzeroupper
    ret
    .size   ubench_vpclmul_lat, .-ubench_vpclmul_lat

/* void ubench_vpclmul_tp(uint64_t iters): VPCLMULQDQ ymm, 12 chains */
    .globl  ubench_vpclmul_tp
    .type   ubench_vpclmul_tp, @function
    .p2align 4
ubench_vpclmul_tp:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm1, %ymm1
    vpclmulqdq $0x00, %ymm15, %ymm2, %ymm2
    vpclmulqdq $0x00, %ymm15, %ymm3, %ymm3
    vpclmulqdq $0x00, %ymm15, %ymm4, %ymm4
    vpclmulqdq $0x00, %ymm15, %ymm5, %ymm5
    vpclmulqdq $0x00, %ymm15, %ymm6, %ymm6
    vpclmulqdq $0x00, %ymm15, %ymm7, %ymm7
    vpclmulqdq $0x00, %ymm15, %ymm8, %ymm8
    vpclmulqdq $0x00, %ymm15, %ymm9, %ymm9
    vpclmulqdq $0x00, %ymm15, %ymm10, %ymm10
    vpclmulqdq $0x00, %ymm15, %ymm11, %ymm11
    vpclmulqdq $0x00, %ymm15, %ymm0, %ymm0
    vpclmulqdq $0x00, %ymm15, %ymm1, %ymm1
    vpclmulqdq $0x00, %ymm15, %ymm2, %ymm2
    vpclmulqdq $0x00, %ymm15, %ymm3, %ymm3
    vpclmulqdq $0x00, %ymm15, %ymm4, %ymm4
    vpclmulqdq $0x00, %ymm15, %ymm5, %ymm5
    vpclmulqdq $0x00, %ymm15, %ymm6, %ymm6
    vpclmulqdq $0x00, %ymm15, %ymm7, %ymm7
    vpclmulqdq $0x00, %ymm15, %ymm8, %ymm8
    vpclmulqdq $0x00, %ymm15, %ymm9, %ymm9
    vpclmulqdq $0x00, %ymm15, %ymm10, %ymm10
    vpclmulqdq $0x00, %ymm15, %ymm11, %ymm11
    decq    %rdi
    jnz     1b
2:
    vzeroupper
    ret
    .size   ubench_vpclmul_tp, .-ubench_vpclmul_tp

/* void ubench_aes_clmul_mix(uint64_t iters): 18 AESENC (9 chains) and 6 PCLMULQDQ (6
 * chains) interleaved, about GCM's mix (10 AESENC to 3 PCLMULQDQ a block): do the two units
 * issue in parallel */
    .globl  ubench_aes_clmul_mix
    .type   ubench_aes_clmul_mix, @function
    .p2align 4
ubench_aes_clmul_mix:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm1
    aesenc  %xmm15, %xmm2
    pclmulqdq $0x00, %xmm15, %xmm9
    aesenc  %xmm15, %xmm3
    aesenc  %xmm15, %xmm4
    aesenc  %xmm15, %xmm5
    pclmulqdq $0x00, %xmm15, %xmm10
    aesenc  %xmm15, %xmm6
    aesenc  %xmm15, %xmm7
    aesenc  %xmm15, %xmm8
    pclmulqdq $0x00, %xmm15, %xmm11
    aesenc  %xmm15, %xmm0
    aesenc  %xmm15, %xmm1
    aesenc  %xmm15, %xmm2
    pclmulqdq $0x00, %xmm15, %xmm12
    aesenc  %xmm15, %xmm3
    aesenc  %xmm15, %xmm4
    aesenc  %xmm15, %xmm5
    pclmulqdq $0x00, %xmm15, %xmm13
    aesenc  %xmm15, %xmm6
    aesenc  %xmm15, %xmm7
    aesenc  %xmm15, %xmm8
    pclmulqdq $0x00, %xmm15, %xmm14
    decq    %rdi
    jnz     1b
2:
    ret
    .size   ubench_aes_clmul_mix, .-ubench_aes_clmul_mix

/* void ubench_vaes_vclmul_mix(uint64_t iters): the same mix on ymm, VAESENC and VPCLMULQDQ */
    .globl  ubench_vaes_vclmul_mix
    .type   ubench_vaes_vclmul_mix, @function
    .p2align 4
ubench_vaes_vclmul_mix:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm1, %ymm1
    vaesenc %ymm15, %ymm2, %ymm2
    vpclmulqdq $0x00, %ymm15, %ymm9, %ymm9
    vaesenc %ymm15, %ymm3, %ymm3
    vaesenc %ymm15, %ymm4, %ymm4
    vaesenc %ymm15, %ymm5, %ymm5
    vpclmulqdq $0x00, %ymm15, %ymm10, %ymm10
    vaesenc %ymm15, %ymm6, %ymm6
    vaesenc %ymm15, %ymm7, %ymm7
    vaesenc %ymm15, %ymm8, %ymm8
    vpclmulqdq $0x00, %ymm15, %ymm11, %ymm11
    vaesenc %ymm15, %ymm0, %ymm0
    vaesenc %ymm15, %ymm1, %ymm1
    vaesenc %ymm15, %ymm2, %ymm2
    vpclmulqdq $0x00, %ymm15, %ymm12, %ymm12
    vaesenc %ymm15, %ymm3, %ymm3
    vaesenc %ymm15, %ymm4, %ymm4
    vaesenc %ymm15, %ymm5, %ymm5
    vpclmulqdq $0x00, %ymm15, %ymm13, %ymm13
    vaesenc %ymm15, %ymm6, %ymm6
    vaesenc %ymm15, %ymm7, %ymm7
    vaesenc %ymm15, %ymm8, %ymm8
    vpclmulqdq $0x00, %ymm15, %ymm14, %ymm14
    decq    %rdi
    jnz     1b
2:
    vzeroupper
    ret
    .size   ubench_vaes_vclmul_mix, .-ubench_vaes_vclmul_mix

/* The zmm loops (EVEX.512: AVX512F, CPUID.7.0:EBX[16], with VAES CPUID.7.0:ECX[9] or
 * VPCLMULQDQ CPUID.7.0:ECX[10]), as the ymm ones; the bodies are written by macros. */
.macro ZLOOP name
    .globl  \name
    .type   \name, @function
    .p2align 4
\name:
    endbr64
    testq   %rdi, %rdi
    jz      2f
    .p2align 4
1:
.endm

.macro ZLOOP_END name
    decq    %rdi
    jnz     1b
2:
    vzeroupper
    ret
    .size   \name, .-\name
.endm

/* UBENCH_UNROLL of \op on zmm: one chain (\tp 0) or twelve. */
.macro ZBODY tp, op:vararg
    .rept   2
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    .if \tp
    \op     %zmm15, %zmm\j, %zmm\j
    .else
    \op     %zmm15, %zmm0, %zmm0
    .endif
    .endr
    .endr
.endm

/* void ubench_vaesenc512_lat(uint64_t iters), _tp: VAESENC zmm */
    ZLOOP   ubench_vaesenc512_lat
    ZBODY   0, vaesenc
    ZLOOP_END ubench_vaesenc512_lat
    ZLOOP   ubench_vaesenc512_tp
    ZBODY   1, vaesenc
    ZLOOP_END ubench_vaesenc512_tp
/* void ubench_vpclmul512_lat(uint64_t iters), _tp: VPCLMULQDQ zmm */
    ZLOOP   ubench_vpclmul512_lat
    ZBODY   0, vpclmulqdq $0x00,
    ZLOOP_END ubench_vpclmul512_lat
    ZLOOP   ubench_vpclmul512_tp
    ZBODY   1, vpclmulqdq $0x00,
    ZLOOP_END ubench_vpclmul512_tp

/* void ubench_vaes512_vclmul512_mix(uint64_t iters): the mix of ubench_aes_clmul_mix on zmm,
 * 18 VAESENC (9 chains) and 6 VPCLMULQDQ (6 chains) */
    ZLOOP   ubench_vaes512_vclmul512_mix
    vaesenc %zmm15, %zmm0, %zmm0
    vaesenc %zmm15, %zmm1, %zmm1
    vaesenc %zmm15, %zmm2, %zmm2
    vpclmulqdq $0x00, %zmm15, %zmm9, %zmm9
    vaesenc %zmm15, %zmm3, %zmm3
    vaesenc %zmm15, %zmm4, %zmm4
    vaesenc %zmm15, %zmm5, %zmm5
    vpclmulqdq $0x00, %zmm15, %zmm10, %zmm10
    vaesenc %zmm15, %zmm6, %zmm6
    vaesenc %zmm15, %zmm7, %zmm7
    vaesenc %zmm15, %zmm8, %zmm8
    vpclmulqdq $0x00, %zmm15, %zmm11, %zmm11
    vaesenc %zmm15, %zmm0, %zmm0
    vaesenc %zmm15, %zmm1, %zmm1
    vaesenc %zmm15, %zmm2, %zmm2
    vpclmulqdq $0x00, %zmm15, %zmm12, %zmm12
    vaesenc %zmm15, %zmm3, %zmm3
    vaesenc %zmm15, %zmm4, %zmm4
    vaesenc %zmm15, %zmm5, %zmm5
    vpclmulqdq $0x00, %zmm15, %zmm13, %zmm13
    vaesenc %zmm15, %zmm6, %zmm6
    vaesenc %zmm15, %zmm7, %zmm7
    vaesenc %zmm15, %zmm8, %zmm8
    vpclmulqdq $0x00, %zmm15, %zmm14, %zmm14
    ZLOOP_END ubench_vaes512_vclmul512_mix

/* GCM's least instruction mix a register of blocks, for its ceiling (src/silicon.h): \r
 * AES rounds; a product's carry-less multiplies, four schoolbook or three Karatsuba (\kara)
 * with the data's half-sums, two registers' at once (their low halves and their high halves
 * unpacked into two registers, one XOR of those, as vaes-common.inc's TGMULK; H's are
 * precomputed; one shuffle and one XOR a register before 2026-12-07); and the vector ALU
 * work no stitched GCM goes without: the XOR with the data and the byte swap of the block
 * hashed, then the products added into the sums: an XOR each, or with VPTERNLOGQ (\tern) two
 * at once (schoolbook's four in two; Karatsuba's three, two registers' six in three). The
 * counter and round key 0 are not here: general registers can make them, and a load brings
 * them. Every instruction writes a register nothing reads (sources %\reg\()12..15) but
 * VPTERNLOGQ, which reads its own sum (%\reg\()9, 10: a chain of at most four one-cycle
 * instructions a body, far under the rounds), so the loop is throughput alone: what the units
 * and the vector issue ports do with the mix.
 * Four registers a body (UBENCH_GCM_REGS); \xor is VPXOR (VEX) or VPXORQ (EVEX). */
.macro GCMMIX reg, r, tern, kara, xor
    .irp j, 0, 1, 2, 3
    .rept   \r
    vaesenc %\reg\()15, %\reg\()14, %\reg\()0
    .endr
    vpclmulqdq $0x00, %\reg\()15, %\reg\()14, %\reg\()1
    vpclmulqdq $0x11, %\reg\()15, %\reg\()13, %\reg\()2
    vpclmulqdq $0x01, %\reg\()15, %\reg\()14, %\reg\()3
    .if \kara
    .if \j % 2 == 0                  /* a pair's half-sums: their halves unpacked, one XOR */
    vpunpcklqdq %\reg\()13, %\reg\()14, %\reg\()4
    vpunpckhqdq %\reg\()13, %\reg\()14, %\reg\()5
    \xor    %\reg\()12, %\reg\()14, %\reg\()7
    .endif
    .else
    vpclmulqdq $0x10, %\reg\()15, %\reg\()13, %\reg\()4
    .endif
    \xor    %\reg\()15, %\reg\()13, %\reg\()6
    vpshufb %\reg\()12, %\reg\()13, %\reg\()8
    .if \tern
    vpternlogq $0x96, %\reg\()15, %\reg\()14, %\reg\()9
    .if \kara == 0 || \j % 2 == 0
    vpternlogq $0x96, %\reg\()15, %\reg\()13, %\reg\()10
    .endif
    .else
    \xor    %\reg\()15, %\reg\()14, %\reg\()9
    \xor    %\reg\()15, %\reg\()13, %\reg\()10
    \xor    %\reg\()12, %\reg\()13, %\reg\()11
    .if \kara == 0
    \xor    %\reg\()12, %\reg\()15, %\reg\()7
    .endif
    .endif
    .endr
.endm

/* void ubench_gcm_<loop>(uint64_t iters): the loops of src/silicon.h's SILICON_GCM_LOOPS,
 * GCMMIX on xmm (VEX: AVX), ymm (VAES, VPCLMULQDQ, AVX2) and zmm (AVX512F, AVX512BW), with
 * 10 and 14 rounds, schoolbook (s) or Karatsuba (k), with VPTERNLOGQ (t: EVEX, AVX512F and
 * AVX512VL on xmm and ymm) or without */
.macro GCMLOOP name, reg, r, tern, kara, xor
    ZLOOP   \name
    GCMMIX  \reg, \r, \tern, \kara, \xor
    ZLOOP_END \name
.endm
.irp r, 10, 14
    GCMLOOP ubench_gcm_x\r\()s, xmm, \r, 0, 0, vpxor
    GCMLOOP ubench_gcm_x\r\()st, xmm, \r, 1, 0, vpxorq
    GCMLOOP ubench_gcm_x\r\()k, xmm, \r, 0, 1, vpxor
    GCMLOOP ubench_gcm_x\r\()kt, xmm, \r, 1, 1, vpxorq
    GCMLOOP ubench_gcm_y\r\()s, ymm, \r, 0, 0, vpxor
    GCMLOOP ubench_gcm_y\r\()st, ymm, \r, 1, 0, vpxorq
    GCMLOOP ubench_gcm_y\r\()k, ymm, \r, 0, 1, vpxor
    GCMLOOP ubench_gcm_y\r\()kt, ymm, \r, 1, 1, vpxorq
    GCMLOOP ubench_gcm_z\r\()st, zmm, \r, 1, 0, vpxorq
    GCMLOOP ubench_gcm_z\r\()kt, zmm, \r, 1, 1, vpxorq
.endr

    .section .note.GNU-stack, "", @progbits
