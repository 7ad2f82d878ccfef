/* GHASH with VPCLMULQDQ on 256-bit registers (Intel SDM vol. 2: VPCLMULQDQ VEX.256,
 * CPUID.7.0:ECX[10]; AVX2 for the other ymm ops): the method of ghash-pclmul.S with two blocks
 * per register, so each carry-less multiply instruction does two blocks' work. Sixteen
 * blocks per reduction as eight pairs (the chain from one reduction to the next is what bounds
 * GHASH, so the wider the group the better); pair j multiplies blocks 2j, 2j+1 by H^(16-2j),
 * H^(15-2j), which the key keeps side by side (hrev, hkrev). The lanes are summed before the
 * one reduction. C prototype: asm/direct.h. AT&T syntax, VEX encoding throughout (no SSE/AVX
 * transitions), VZEROUPPER at the end. */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

    .text

/* Sums in %xmm1..3 to a reduced field element in %xmm0; see ghash-pclmul.S's REDUCE. */
.macro VREDUCE
    vpxor   %xmm1, %xmm3, %xmm3
    vpxor   %xmm2, %xmm3, %xmm3
    vpslldq $8, %xmm3, %xmm8
    vpxor   %xmm8, %xmm1, %xmm1
    vpsrldq $8, %xmm3, %xmm3
    vpxor   %xmm3, %xmm2, %xmm2
    /* [hi:lo] <<= 1 */
    vpsrlq  $63, %xmm1, %xmm8
    vpsrlq  $63, %xmm2, %xmm9
    vpsllq  $1, %xmm1, %xmm1
    vpsllq  $1, %xmm2, %xmm2
    vpsrldq $8, %xmm8, %xmm10
    vpslldq $8, %xmm8, %xmm8
    vpslldq $8, %xmm9, %xmm9
    vpor    %xmm8, %xmm1, %xmm1
    vpor    %xmm9, %xmm2, %xmm2
    vpor    %xmm10, %xmm2, %xmm2
    /* fold lo into hi modulo x^128 + x^7 + x^2 + x + 1 */
    vpsllq  $63, %xmm1, %xmm8
    vpsllq  $62, %xmm1, %xmm9
    vpsllq  $57, %xmm1, %xmm10
    vpxor   %xmm9, %xmm8, %xmm8
    vpxor   %xmm10, %xmm8, %xmm8
    vpslldq $8, %xmm8, %xmm8
    vpxor   %xmm8, %xmm1, %xmm1
    vpsrlq  $1, %xmm1, %xmm9
    vpsrlq  $2, %xmm1, %xmm10
    vpsrlq  $7, %xmm1, %xmm11
    vpxor   %xmm10, %xmm9, %xmm9
    vpxor   %xmm11, %xmm9, %xmm9
    vpsllq  $63, %xmm1, %xmm10
    vpsllq  $62, %xmm1, %xmm11
    vpsllq  $57, %xmm1, %xmm12
    vpxor   %xmm11, %xmm10, %xmm10
    vpxor   %xmm12, %xmm10, %xmm10
    vpsrldq $8, %xmm10, %xmm10
    vpxor   %xmm10, %xmm9, %xmm9
    vpxor   %xmm1, %xmm9, %xmm9
    vpxor   %xmm9, %xmm2, %xmm0
.endm

/* size_t direct_ghash_vpclmul(uint8_t y[16], const struct direct_ghash_key *k,
 *                             const uint8_t *in, size_t nblocks) */
    .globl  direct_ghash_vpclmul
    .type   direct_ghash_vpclmul, @function
    .p2align 4
direct_ghash_vpclmul:
    endbr64
    movq    %rcx, %rax
    andq    $-16, %rax                  /* blocks done */
    jz      .Lvg_ret
    movq    %rax, %rcx
    vbroadcasti128 .Lvgbswap(%rip), %ymm7
    vmovdqu (%rdi), %xmm0
    vpshufb %xmm7, %xmm0, %xmm0
.Lvg_16:
    vpxor   %xmm1, %xmm1, %xmm1
    vpxor   %xmm2, %xmm2, %xmm2
    vpxor   %xmm3, %xmm3, %xmm3
    /* pair 0 takes Y: it goes last, so only its products wait for the last reduction */
    vmovdqu 32(%rdx), %ymm4
    vpshufb %ymm7, %ymm4, %ymm4
    vpclmulqdq $0x00, 288(%rsi), %ymm4, %ymm5
    vpxor   %ymm5, %ymm1, %ymm1
    vpshufd $0x4e, %ymm4, %ymm6
    vpxor   %ymm4, %ymm6, %ymm6
    vpclmulqdq $0x00, 544(%rsi), %ymm6, %ymm6
    vpxor   %ymm6, %ymm3, %ymm3
    vpclmulqdq $0x11, 288(%rsi), %ymm4, %ymm4
    vpxor   %ymm4, %ymm2, %ymm2
    vmovdqu 64(%rdx), %ymm4
    vpshufb %ymm7, %ymm4, %ymm4
    vpclmulqdq $0x00, 320(%rsi), %ymm4, %ymm5
    vpxor   %ymm5, %ymm1, %ymm1
    vpshufd $0x4e, %ymm4, %ymm6
    vpxor   %ymm4, %ymm6, %ymm6
    vpclmulqdq $0x00, 576(%rsi), %ymm6, %ymm6
    vpxor   %ymm6, %ymm3, %ymm3
    vpclmulqdq $0x11, 320(%rsi), %ymm4, %ymm4
    vpxor   %ymm4, %ymm2, %ymm2
    vmovdqu 96(%rdx), %ymm4
    vpshufb %ymm7, %ymm4, %ymm4
    vpclmulqdq $0x00, 352(%rsi), %ymm4, %ymm5
    vpxor   %ymm5, %ymm1, %ymm1
    vpshufd $0x4e, %ymm4, %ymm6
    vpxor   %ymm4, %ymm6, %ymm6
    vpclmulqdq $0x00, 608(%rsi), %ymm6, %ymm6
    vpxor   %ymm6, %ymm3, %ymm3
    vpclmulqdq $0x11, 352(%rsi), %ymm4, %ymm4
    vpxor   %ymm4, %ymm2, %ymm2
    vmovdqu 128(%rdx), %ymm4
    vpshufb %ymm7, %ymm4, %ymm4
    vpclmulqdq $0x00, 384(%rsi), %ymm4, %ymm5
    vpxor   %ymm5, %ymm1, %ymm1
    vpshufd $0x4e, %ymm4, %ymm6
    vpxor   %ymm4, %ymm6, %ymm6
    vpclmulqdq $0x00, 640(%rsi), %ymm6, %ymm6
    vpxor   %ymm6, %ymm3, %ymm3
    vpclmulqdq $0x11, 384(%rsi), %ymm4, %ymm4
    vpxor   %ymm4, %ymm2, %ymm2
    vmovdqu 160(%rdx), %ymm4
    vpshufb %ymm7, %ymm4, %ymm4
    vpclmulqdq $0x00, 416(%rsi), %ymm4, %ymm5
    vpxor   %ymm5, %ymm1, %ymm1
    vpshufd $0x4e, %ymm4, %ymm6
    vpxor   %ymm4, %ymm6, %ymm6
    vpclmulqdq $0x00, 672(%rsi), %ymm6, %ymm6
    vpxor   %ymm6, %ymm3, %ymm3
    vpclmulqdq $0x11, 416(%rsi), %ymm4, %ymm4
    vpxor   %ymm4, %ymm2, %ymm2
    vmovdqu 192(%rdx), %ymm4
    vpshufb %ymm7, %ymm4, %ymm4
    vpclmulqdq $0x00, 448(%rsi), %ymm4, %ymm5
    vpxor   %ymm5, %ymm1, %ymm1
    vpshufd $0x4e, %ymm4, %ymm6
    vpxor   %ymm4, %ymm6, %ymm6
    vpclmulqdq $0x00, 704(%rsi), %ymm6, %ymm6
    vpxor   %ymm6, %ymm3, %ymm3
    vpclmulqdq $0x11, 448(%rsi), %ymm4, %ymm4
    vpxor   %ymm4, %ymm2, %ymm2
    vmovdqu 224(%rdx), %ymm4
    vpshufb %ymm7, %ymm4, %ymm4
    vpclmulqdq $0x00, 480(%rsi), %ymm4, %ymm5
    vpxor   %ymm5, %ymm1, %ymm1
    vpshufd $0x4e, %ymm4, %ymm6
    vpxor   %ymm4, %ymm6, %ymm6
    vpclmulqdq $0x00, 736(%rsi), %ymm6, %ymm6
    vpxor   %ymm6, %ymm3, %ymm3
    vpclmulqdq $0x11, 480(%rsi), %ymm4, %ymm4
    vpxor   %ymm4, %ymm2, %ymm2
    vmovdqu 0(%rdx), %ymm4
    vpshufb %ymm7, %ymm4, %ymm4
    vpxor   %ymm0, %ymm4, %ymm4         /* Y into the first block (upper lane of Y is 0) */
    vpclmulqdq $0x00, 256(%rsi), %ymm4, %ymm5
    vpxor   %ymm5, %ymm1, %ymm1
    vpshufd $0x4e, %ymm4, %ymm6
    vpxor   %ymm4, %ymm6, %ymm6
    vpclmulqdq $0x00, 512(%rsi), %ymm6, %ymm6
    vpxor   %ymm6, %ymm3, %ymm3
    vpclmulqdq $0x11, 256(%rsi), %ymm4, %ymm4
    vpxor   %ymm4, %ymm2, %ymm2
    /* the two lanes' sums are one sum */
    vextracti128 $1, %ymm1, %xmm8
    vpxor   %xmm8, %xmm1, %xmm1
    vextracti128 $1, %ymm2, %xmm8
    vpxor   %xmm8, %xmm2, %xmm2
    vextracti128 $1, %ymm3, %xmm8
    vpxor   %xmm8, %xmm3, %xmm3
    VREDUCE
    addq    $256, %rdx
    subq    $16, %rcx
    jnz     .Lvg_16
    vpshufb %xmm7, %xmm0, %xmm0
    vmovdqu %xmm0, (%rdi)
    vpxor   %xmm4, %xmm4, %xmm4
    vzeroupper
.Lvg_ret:
    ret
    .size   direct_ghash_vpclmul, .-direct_ghash_vpclmul

    .section .rodata
    .p2align 4
.Lvgbswap:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0

    .section .note.GNU-stack, "", @progbits
