/* AES-CTR with VAES on 256-bit registers (Intel SDM vol. 2: VAESENC/VAESENCLAST with VEX.256,
 * CPUID.7.0:ECX[9]; AVX2 for the 256-bit integer ops, CPUID.7.0:EBX[5]). Each ymm register
 * carries two counter blocks, eight registers keep sixteen blocks in flight. C prototype and
 * conventions: asm/direct.h. AT&T syntax; ends in VZEROUPPER so SSE code after it pays no
 * transition penalty. Eight registers are just VAESENC's latency times its rate on Zen 4
 * (4.1 cycles, two a cycle); twelve (24 blocks a group, then 16 and 8 as they fit), which
 * leave that slack, ran 1.015-1.042x at AES-128 and 0.983-0.993x at AES-256 (16 KiB, old and
 * new alternating in one process, 2026-12-06): not kept for so little. */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

#include "vaes-common.inc" /* VLAST */

    .text

/* One round key broadcast to both lanes of %ymm15, applied to %ymm0..%ymm7. */
.macro VKEY8 op, off
    vbroadcasti128 \off(%r10), %ymm15
    \op     %ymm15, %ymm0, %ymm0
    \op     %ymm15, %ymm1, %ymm1
    \op     %ymm15, %ymm2, %ymm2
    \op     %ymm15, %ymm3, %ymm3
    \op     %ymm15, %ymm4, %ymm4
    \op     %ymm15, %ymm5, %ymm5
    \op     %ymm15, %ymm6, %ymm6
    \op     %ymm15, %ymm7, %ymm7
.endm


/* size_t direct_aes_ctr_vaes(k, out, in, nblocks, ctr)
 * As direct_aes_ctr (aes-aesni.S), in groups of sixteen; the counter lives byte-reversed in
 * %xmm13/%ymm13 as [ctr, ctr+1], %r9 mirrors its low 64 bits to stop before a carry. */
    .globl  direct_aes_ctr_vaes
    .type   direct_aes_ctr_vaes, @function
    .p2align 4
direct_aes_ctr_vaes:
    endbr64
    movl    240(%rdi), %r10d
    shlq    $4, %r10
    addq    %rdi, %r10              /* last round key */
    xorl    %r11d, %r11d            /* blocks done */
    vbroadcasti128 .Lvbswap(%rip), %ymm14
    vmovdqu (%r8), %xmm13
    vpshufb %xmm14, %xmm13, %xmm13
    vmovq   %xmm13, %r9
    vpaddq  .Lvq1(%rip), %xmm13, %xmm12
    vinserti128 $1, %xmm12, %ymm13, %ymm13
.Lvctr_loop:
    cmpq    $16, %rcx
    jb      .Lvctr_done
    movq    %r9, %rax
    addq    $16, %rax
    jc      .Lvctr_done
    movq    %rax, %r9
    vpshufb %ymm14, %ymm13, %ymm0
    vpaddq  .Lvq2(%rip), %ymm13, %ymm13
    vpshufb %ymm14, %ymm13, %ymm1
    vpaddq  .Lvq2(%rip), %ymm13, %ymm13
    vpshufb %ymm14, %ymm13, %ymm2
    vpaddq  .Lvq2(%rip), %ymm13, %ymm13
    vpshufb %ymm14, %ymm13, %ymm3
    vpaddq  .Lvq2(%rip), %ymm13, %ymm13
    vpshufb %ymm14, %ymm13, %ymm4
    vpaddq  .Lvq2(%rip), %ymm13, %ymm13
    vpshufb %ymm14, %ymm13, %ymm5
    vpaddq  .Lvq2(%rip), %ymm13, %ymm13
    vpshufb %ymm14, %ymm13, %ymm6
    vpaddq  .Lvq2(%rip), %ymm13, %ymm13
    vpshufb %ymm14, %ymm13, %ymm7
    vpaddq  .Lvq2(%rip), %ymm13, %ymm13
    vbroadcasti128 (%rdi), %ymm15
    vpxor   %ymm15, %ymm0, %ymm0
    vpxor   %ymm15, %ymm1, %ymm1
    vpxor   %ymm15, %ymm2, %ymm2
    vpxor   %ymm15, %ymm3, %ymm3
    vpxor   %ymm15, %ymm4, %ymm4
    vpxor   %ymm15, %ymm5, %ymm5
    vpxor   %ymm15, %ymm6, %ymm6
    vpxor   %ymm15, %ymm7, %ymm7
    cmpl    $12, 240(%rdi)
    jb      2f
    je      1f
    VKEY8   vaesenc, -208
    VKEY8   vaesenc, -192
1:
    VKEY8   vaesenc, -176
    VKEY8   vaesenc, -160
2:
    VKEY8   vaesenc, -144
    VKEY8   vaesenc, -128
    VKEY8   vaesenc, -112
    VKEY8   vaesenc, -96
    VKEY8   vaesenc, -80
    VKEY8   vaesenc, -64
    VKEY8   vaesenc, -48
    VKEY8   vaesenc, -32
    VKEY8   vaesenc, -16
    vbroadcasti128 (%r10), %ymm15
    /* the group's stores after all its loads: with each store right after its VAESENCLAST,
     * the output 64 bytes past the input modulo 4 KiB ran 1.30-1.37x slower than other
     * layouts (tests/bench/layout.sh, Sapphire Rapids VM, AES-128, 16 KiB, two runs,
     * 2026-12-07; VLAST, vaes-common.inc, says why) */
    VLAST   8, ymm, 32, vpxor, vmovdqu, %ymm15, %rdx, %rsi, %ymm8
    addq    $256, %rdx
    addq    $256, %rsi
    subq    $16, %rcx
    addq    $16, %r11
    jmp     .Lvctr_loop
.Lvctr_done:
    vpshufb %xmm14, %xmm13, %xmm13
    vmovdqu %xmm13, (%r8)
    movq    %r11, %rax
    vpxor   %xmm0, %xmm0, %xmm0
    vpxor   %xmm1, %xmm1, %xmm1
    vpxor   %xmm2, %xmm2, %xmm2
    vpxor   %xmm3, %xmm3, %xmm3
    /* the last round key, and it xored with a block of the input, which gives it back */
    vpxor   %xmm8, %xmm8, %xmm8
    vpxor   %xmm15, %xmm15, %xmm15
    vzeroupper
    ret
    .size   direct_aes_ctr_vaes, .-direct_aes_ctr_vaes

    .section .rodata
    .p2align 4
.Lvbswap:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lvq1:  .quad 1, 0
    .p2align 5
.Lvq2:  .quad 2, 0, 2, 0

    .section .note.GNU-stack, "", @progbits
