/* RDRAND and RDSEED buffer fills (Intel SDM vol. 2: RDRAND, RDSEED; CPUID.1:ECX[30],
 * CPUID.7.0:EBX[18]). CF=1 means the destination holds random data; CF=0 means the source had
 * none ready and the draw is retried: RDRAND 10 times (Intel Digital Random Number Generator
 * Software Implementation Guide, 5.2.1), RDSEED up to 1024 times with PAUSE between (its
 * source refills more slowly, 5.3.1). C prototypes: asm/direct.h. AT&T syntax.
 *
 * size_t fill(uint8_t *out, size_t len): returns bytes written (< len when the source ran
 * dry). %r8 = bytes left, %rax = draw. */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

    .text

.macro FILL name, insn, tries, wait
    .globl  \name
    .type   \name, @function
    .p2align 4
\name:
    endbr64
    movq    %rsi, %r8
1:
    testq   %r8, %r8
    jz      5f
    movl    $\tries, %ecx
2:
    \insn   %rax
    jc      3f
    .if \wait
    pause
    .endif
    decl    %ecx
    jnz     2b
    jmp     5f
3:
    cmpq    $8, %r8
    jb      4f
    movq    %rax, (%rdi)
    addq    $8, %rdi
    subq    $8, %r8
    jmp     1b
4:                                  /* tail: the low bytes of one last draw */
    movb    %al, (%rdi)
    shrq    $8, %rax
    incq    %rdi
    decq    %r8
    jnz     4b
5:
    movq    %rsi, %rax
    subq    %r8, %rax
    xorl    %ecx, %ecx
    ret
    .size   \name, .-\name
.endm

    FILL    direct_rdrand_fill, rdrand, 10, 0
    FILL    direct_rdseed_fill, rdseed, 1024, 1

    .section .note.GNU-stack, "", @progbits
