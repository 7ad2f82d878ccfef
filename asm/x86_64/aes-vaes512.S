/* AES-CTR with VAES on 512-bit registers (Intel SDM vol. 2: VAESENC/VAESENCLAST EVEX.512,
 * CPUID.7.0:ECX[9] with AVX512F, CPUID.7.0:EBX[16]; VPSHUFB zmm is AVX512BW,
 * CPUID.7.0:EBX[30]; the OS must save opmask and ZMM state, XCR0 bits 5-7, SDM vol. 1 13.3).
 * Each zmm register carries four counter blocks, eight registers keep thirty-two blocks in
 * flight; the round keys sit broadcast in %zmm16..%zmm30 for the whole call. Only 512-bit
 * EVEX forms touch %zmm16..31 (no AVX512VL needed); the xmm work is VEX on %xmm0..15.
 * C prototype and conventions: asm/direct.h. AT&T syntax; every key register is zeroed before
 * the return, which ends in VZEROUPPER. */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

#include "vaes-common.inc"

    .text

/* size_t direct_aes_ctr_vaes512(k, out, in, nblocks, ctr)
 * As direct_aes_ctr_vaes (aes-vaes.S), in groups of thirty-two; the counter lives
 * byte-reversed in %zmm13 as [ctr, ctr+1, ctr+2, ctr+3] (VPADDQ on the low 64 bits: a group
 * whose counters would carry out of them is left to the caller), %r9 mirrors its low 64 bits.
 * Key registers: %zmm16 = round key 0, %zmm17.. rounds 1..rounds-1, %zmm30 the last. */
    .globl  direct_aes_ctr_vaes512
    .type   direct_aes_ctr_vaes512, @function
    .p2align 4
direct_aes_ctr_vaes512:
    endbr64
    xorl    %eax, %eax              /* blocks done */
    cmpq    $32, %rcx
    jb      .Lzctr_ret              /* nothing for this kernel: no zmm state touched */
    movl    240(%rdi), %r10d
    shlq    $4, %r10                /* the last round key's offset */
    ZKEYS   %r10
    vbroadcasti32x4 .Lzbswap(%rip), %zmm31
    vbroadcasti32x4 .Lzq4(%rip), %zmm12
    vmovdqu (%r8), %xmm13
    vpshufb .Lzbswap(%rip), %xmm13, %xmm13
    vmovq   %xmm13, %r9
    vshufi64x2 $0, %zmm13, %zmm13, %zmm13
    vpaddq  .Lzq0123(%rip), %zmm13, %zmm13
.Lzctr_loop:
    cmpq    $32, %rcx
    jb      .Lzctr_done
    movq    %r9, %r11
    addq    $32, %r11
    jc      .Lzctr_done
    movq    %r11, %r9
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    vpshufb %zmm31, %zmm13, %zmm\j
    vpaddq  %zmm12, %zmm13, %zmm13
    .endr
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    vpxorq  %zmm16, %zmm\j, %zmm\j
    .endr
    ZROUNDS 8, 1, 240(%rdi)
    ZLAST   8, %rdx, %rsi, %zmm8
    addq    $512, %rdx
    addq    $512, %rsi
    subq    $32, %rcx
    addq    $32, %rax
    jmp     .Lzctr_loop
.Lzctr_done:
    vpshufb .Lzbswap(%rip), %xmm13, %xmm13
    vmovdqu %xmm13, (%r8)
    ZWIPE   8
.Lzctr_ret:
    ret
    .size   direct_aes_ctr_vaes512, .-direct_aes_ctr_vaes512

    .section .rodata
    .p2align 6
.Lzq0123: .quad 0, 0, 1, 0, 2, 0, 3, 0
.Lzbswap:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lzq4:  .quad 4, 0

    .section .note.GNU-stack, "", @progbits
