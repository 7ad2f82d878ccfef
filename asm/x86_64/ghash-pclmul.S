/* GHASH (NIST SP 800-38D 6.4) with PCLMULQDQ (Intel SDM vol. 2; CPUID.1:ECX[1]), after
 * Gueron and Kounavis, "Intel Carry-Less Multiplication Instruction and its Usage for
 * Computing the GCM Mode" (2010): blocks are byte-reversed so a field element is a
 * bit-reflected 128-bit integer; products are Karatsuba (three PCLMULQDQ), shifted left one
 * bit to undo the reflection, and reduced modulo x^128 + x^7 + x^2 + x + 1 with shifts.
 * Up to sixteen blocks share one reduction: Y' = (Y^X1)H^n ^ X2 H^(n-1) ^ ... ^ Xn H, the
 * products summed unreduced (all steps are linear); the chain from one reduction to the next
 * bounds the speed, so the wider the group the better. C prototypes: asm/direct.h. AT&T syntax.
 *
 * Registers: %xmm0 = Y, %xmm1/%xmm2/%xmm3 = low/high/middle product sums, %xmm4 = block,
 * %xmm7 = byte-reversal mask, %xmm5/6 and %xmm8..12 scratch; %r10 points at H^k in the key
 * (hpow), its Karatsuba half-sum 128 bytes on (hkar). */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

    .text

/* Adds block %xmm4 times H^k (at %r10) to the unreduced sums; clobbers %xmm4..6. */
.macro MUL_ACC
    movdqa  %xmm4, %xmm5
    pclmulqdq $0x00, (%r10), %xmm5
    pxor    %xmm5, %xmm1
    pshufd  $0x4e, %xmm4, %xmm6
    pxor    %xmm4, %xmm6
    pclmulqdq $0x00, 128(%r10), %xmm6
    pxor    %xmm6, %xmm3
    pclmulqdq $0x11, (%r10), %xmm4
    pxor    %xmm4, %xmm2
.endm

/* Block j of a sixteen-block group, at \off in the input, times H^(16-j) = hrev[j]
 * (key offset \k; its Karatsuba half-sum in hkrev, 256 bytes on). */
.macro MUL16 off, k, first
    movdqu  \off(%rdx), %xmm4
    pshufb  %xmm7, %xmm4
    .if \first
    pxor    %xmm0, %xmm4
    .endif
    movdqa  %xmm4, %xmm5
    pclmulqdq $0x00, \k(%rsi), %xmm5
    pxor    %xmm5, %xmm1
    pshufd  $0x4e, %xmm4, %xmm6
    pxor    %xmm4, %xmm6
    pclmulqdq $0x00, 256+\k(%rsi), %xmm6
    pxor    %xmm6, %xmm3
    pclmulqdq $0x11, \k(%rsi), %xmm4
    pxor    %xmm4, %xmm2
.endm

/* Sums in %xmm1..3 to a reduced field element in %xmm0. */
.macro REDUCE
    /* Karatsuba: middle term = mid ^ lo ^ hi, added at bit 64 of the 256-bit product */
    pxor    %xmm1, %xmm3
    pxor    %xmm2, %xmm3
    movdqa  %xmm3, %xmm8
    pslldq  $8, %xmm8
    pxor    %xmm8, %xmm1
    psrldq  $8, %xmm3
    pxor    %xmm3, %xmm2
    /* [hi:lo] <<= 1: a product of reflected operands is reflected in 255 bits, not 256 */
    movdqa  %xmm1, %xmm8
    psrlq   $63, %xmm8
    movdqa  %xmm2, %xmm9
    psrlq   $63, %xmm9
    psllq   $1, %xmm1
    psllq   $1, %xmm2
    movdqa  %xmm8, %xmm10
    psrldq  $8, %xmm10
    pslldq  $8, %xmm8
    pslldq  $8, %xmm9
    por     %xmm8, %xmm1
    por     %xmm9, %xmm2
    por     %xmm10, %xmm2
    /* lo holds the coefficients of x^128..x^255 (reflected). Fold them with
     * x^128 = x^7 + x^2 + x + 1: first add what lo*(x^7+x^2+x) pushes past x^127 back into lo
     * (lo's low qword shifted by 63, 62, 57 into its high qword) ... */
    movdqa  %xmm1, %xmm8
    psllq   $63, %xmm8
    movdqa  %xmm1, %xmm9
    psllq   $62, %xmm9
    movdqa  %xmm1, %xmm10
    psllq   $57, %xmm10
    pxor    %xmm9, %xmm8
    pxor    %xmm10, %xmm8
    pslldq  $8, %xmm8
    pxor    %xmm8, %xmm1
    /* ... then hi ^= lo ^ lo*x ^ lo*x^2 ^ lo*x^7, the multiplications being 128-bit right
     * shifts by 1, 2, 7 in the reflected order, overflow dropped. */
    movdqa  %xmm1, %xmm9
    psrlq   $1, %xmm9
    movdqa  %xmm1, %xmm10
    psrlq   $2, %xmm10
    movdqa  %xmm1, %xmm11
    psrlq   $7, %xmm11
    pxor    %xmm10, %xmm9
    pxor    %xmm11, %xmm9
    movdqa  %xmm1, %xmm10
    psllq   $63, %xmm10
    movdqa  %xmm1, %xmm11
    psllq   $62, %xmm11
    movdqa  %xmm1, %xmm12
    psllq   $57, %xmm12
    pxor    %xmm11, %xmm10
    pxor    %xmm12, %xmm10
    psrldq  $8, %xmm10
    pxor    %xmm10, %xmm9
    pxor    %xmm1, %xmm9
    pxor    %xmm9, %xmm2
    movdqa  %xmm2, %xmm0
.endm

/* Writes hkar for the element in \x at byte offset \off of the key in %rdi. */
.macro STORE_POW x, off
    movdqa  \x, \off(%rdi)
    pshufd  $0x4e, \x, %xmm5
    pxor    \x, %xmm5
    movdqa  %xmm5, 128+\off(%rdi)
.endm

/* void direct_ghash_init(struct direct_ghash_key *k, const uint8_t h[16]) */
    .globl  direct_ghash_init
    .type   direct_ghash_init, @function
    .p2align 4
direct_ghash_init:
    endbr64
    movdqa  .Lgbswap(%rip), %xmm7
    movdqu  (%rsi), %xmm0
    pshufb  %xmm7, %xmm0
    STORE_POW %xmm0, 0
    movdqa  %xmm0, 256+240(%rdi)    /* hrev[15] = H */
    movdqa  %xmm5, 512+240(%rdi)
    movq    %rdi, %r10              /* multiply by H = hpow[0] */
    movl    $1, %ecx                /* computing H^(ecx+1) */
.Lgi_next:
    movdqa  %xmm0, %xmm4
    pxor    %xmm1, %xmm1
    pxor    %xmm2, %xmm2
    pxor    %xmm3, %xmm3
    MUL_ACC
    REDUCE
    pshufd  $0x4e, %xmm0, %xmm5
    pxor    %xmm0, %xmm5
    movl    $15, %eax
    subl    %ecx, %eax
    shll    $4, %eax
    movdqa  %xmm0, 256(%rdi,%rax)   /* hrev[15 - ecx] */
    movdqa  %xmm5, 512(%rdi,%rax)
    cmpl    $8, %ecx
    jae     1f
    movl    %ecx, %eax
    shll    $4, %eax
    movdqa  %xmm0, (%rdi,%rax)      /* hpow[ecx] */
    movdqa  %xmm5, 128(%rdi,%rax)
1:
    incl    %ecx
    cmpl    $16, %ecx
    jb      .Lgi_next
    pxor    %xmm0, %xmm0
    pxor    %xmm4, %xmm4
    ret
    .size   direct_ghash_init, .-direct_ghash_init

/* void direct_ghash(uint8_t y[16], const struct direct_ghash_key *k, const uint8_t *in,
 *                   size_t nblocks) */
    .globl  direct_ghash
    .type   direct_ghash, @function
    .p2align 4
direct_ghash:
    endbr64
    testq   %rcx, %rcx
    jz      .Lg_ret
    movdqa  .Lgbswap(%rip), %xmm7
    movdqu  (%rdi), %xmm0
    pshufb  %xmm7, %xmm0
.Lg_16:
    cmpq    $16, %rcx
    jb      .Lg_chunk
    pxor    %xmm1, %xmm1
    pxor    %xmm2, %xmm2
    pxor    %xmm3, %xmm3
    /* the block that takes Y goes last: only its product waits for the last reduction */
    MUL16   16, 272, 0
    MUL16   32, 288, 0
    MUL16   48, 304, 0
    MUL16   64, 320, 0
    MUL16   80, 336, 0
    MUL16   96, 352, 0
    MUL16   112, 368, 0
    MUL16   128, 384, 0
    MUL16   144, 400, 0
    MUL16   160, 416, 0
    MUL16   176, 432, 0
    MUL16   192, 448, 0
    MUL16   208, 464, 0
    MUL16   224, 480, 0
    MUL16   240, 496, 0
    MUL16   0, 256, 1
    REDUCE
    addq    $256, %rdx
    subq    $16, %rcx
    jmp     .Lg_16
.Lg_chunk:                          /* the last 1..15 blocks, eight at most per reduction */
    testq   %rcx, %rcx
    jz      .Lg_out
    movl    $8, %r9d
    cmpq    %r9, %rcx
    cmovbq  %rcx, %r9               /* n = min(8, left) */
    subq    %r9, %rcx
    movq    %r9, %r10
    shlq    $4, %r10
    leaq    -16(%rsi,%r10), %r10    /* H^n */
    pxor    %xmm1, %xmm1
    pxor    %xmm2, %xmm2
    pxor    %xmm3, %xmm3
    movdqu  (%rdx), %xmm4
    pshufb  %xmm7, %xmm4
    pxor    %xmm0, %xmm4
.Lg_block:
    MUL_ACC
    addq    $16, %rdx
    subq    $16, %r10
    decq    %r9
    jz      .Lg_reduce
    movdqu  (%rdx), %xmm4
    pshufb  %xmm7, %xmm4
    jmp     .Lg_block
.Lg_reduce:
    REDUCE
    jmp     .Lg_chunk
.Lg_out:
    pshufb  %xmm7, %xmm0
    movdqu  %xmm0, (%rdi)
.Lg_ret:
    ret
    .size   direct_ghash, .-direct_ghash

    .section .rodata
    .p2align 4
.Lgbswap:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0

    .section .note.GNU-stack, "", @progbits
