/* SHA-1 and SHA-256 compression with the SHA extensions (Intel SDM vol. 2: SHA1RNDS4,
 * SHA1NEXTE, SHA1MSG1/2, SHA256RNDS2, SHA256MSG1/2; CPUID.7.0:EBX[29]), FIPS 180-4 6.1.2 and
 * 6.2.2. C prototypes and conventions: asm/direct.h. AT&T syntax.
 *
 * The message schedule runs ahead of the rounds in the same instruction stream: it does not
 * depend on the state, so out-of-order execution overlaps it with the round chain, which is
 * what bounds the speed (SHA256RNDS2 / SHA1RNDS4 latency). */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

    .text

/* void direct_sha256_blocks(uint32_t state[8], const uint8_t *in, size_t nblocks)
 * SHA256RNDS2 wants the state as ABEF and CDGH (A in the top dword): %xmm1 = ABEF,
 * %xmm2 = CDGH. Each call does two rounds and leaves the new ABEF in its destination, so the
 * pair of calls per four rounds swaps the registers' roles and swaps them back. Message words
 * rotate through %xmm3..%xmm6; %xmm0 is the implicit W+K operand. */
    .globl  direct_sha256_blocks
    .type   direct_sha256_blocks, @function
    .p2align 4
direct_sha256_blocks:
    endbr64
    testq   %rdx, %rdx
    jz      .Ls256_ret
    movdqu  (%rdi), %xmm1           /* a b c d (dword 0 first) */
    movdqu  16(%rdi), %xmm2         /* e f g h */
    pshufd  $0xb1, %xmm1, %xmm1     /* b a d c */
    pshufd  $0x1b, %xmm2, %xmm2     /* h g f e */
    movdqa  %xmm1, %xmm7
    palignr $8, %xmm2, %xmm1        /* f e b a = ABEF */
    pblendw $0xf0, %xmm7, %xmm2     /* h g d c = CDGH */
    movdqa  .Ls256_bswap(%rip), %xmm8
    leaq    .Ls256_k(%rip), %rax
.Ls256_block:
    movdqa  %xmm1, %xmm9
    movdqa  %xmm2, %xmm10
    /* rounds 0..3 */
    movdqu  0(%rsi), %xmm3
    pshufb  %xmm8, %xmm3
    movdqa  %xmm3, %xmm0
    paddd   0(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    /* rounds 4..7 */
    movdqu  16(%rsi), %xmm4
    pshufb  %xmm8, %xmm4
    movdqa  %xmm4, %xmm0
    paddd   16(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    /* rounds 8..11 */
    movdqu  32(%rsi), %xmm5
    pshufb  %xmm8, %xmm5
    movdqa  %xmm5, %xmm0
    paddd   32(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm4, %xmm3
    /* rounds 12..15 */
    movdqu  48(%rsi), %xmm6
    pshufb  %xmm8, %xmm6
    movdqa  %xmm6, %xmm0
    paddd   48(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm5, %xmm4
    /* rounds 16..19 */
    movdqa  %xmm6, %xmm7
    palignr $4, %xmm5, %xmm7
    paddd   %xmm7, %xmm3
    sha256msg2 %xmm6, %xmm3
    movdqa  %xmm3, %xmm0
    paddd   64(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm6, %xmm5
    /* rounds 20..23 */
    movdqa  %xmm3, %xmm7
    palignr $4, %xmm6, %xmm7
    paddd   %xmm7, %xmm4
    sha256msg2 %xmm3, %xmm4
    movdqa  %xmm4, %xmm0
    paddd   80(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm3, %xmm6
    /* rounds 24..27 */
    movdqa  %xmm4, %xmm7
    palignr $4, %xmm3, %xmm7
    paddd   %xmm7, %xmm5
    sha256msg2 %xmm4, %xmm5
    movdqa  %xmm5, %xmm0
    paddd   96(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm4, %xmm3
    /* rounds 28..31 */
    movdqa  %xmm5, %xmm7
    palignr $4, %xmm4, %xmm7
    paddd   %xmm7, %xmm6
    sha256msg2 %xmm5, %xmm6
    movdqa  %xmm6, %xmm0
    paddd   112(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm5, %xmm4
    /* rounds 32..35 */
    movdqa  %xmm6, %xmm7
    palignr $4, %xmm5, %xmm7
    paddd   %xmm7, %xmm3
    sha256msg2 %xmm6, %xmm3
    movdqa  %xmm3, %xmm0
    paddd   128(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm6, %xmm5
    /* rounds 36..39 */
    movdqa  %xmm3, %xmm7
    palignr $4, %xmm6, %xmm7
    paddd   %xmm7, %xmm4
    sha256msg2 %xmm3, %xmm4
    movdqa  %xmm4, %xmm0
    paddd   144(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm3, %xmm6
    /* rounds 40..43 */
    movdqa  %xmm4, %xmm7
    palignr $4, %xmm3, %xmm7
    paddd   %xmm7, %xmm5
    sha256msg2 %xmm4, %xmm5
    movdqa  %xmm5, %xmm0
    paddd   160(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm4, %xmm3
    /* rounds 44..47 */
    movdqa  %xmm5, %xmm7
    palignr $4, %xmm4, %xmm7
    paddd   %xmm7, %xmm6
    sha256msg2 %xmm5, %xmm6
    movdqa  %xmm6, %xmm0
    paddd   176(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm5, %xmm4
    /* rounds 48..51 */
    movdqa  %xmm6, %xmm7
    palignr $4, %xmm5, %xmm7
    paddd   %xmm7, %xmm3
    sha256msg2 %xmm6, %xmm3
    movdqa  %xmm3, %xmm0
    paddd   192(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm6, %xmm5
    /* rounds 52..55 */
    movdqa  %xmm3, %xmm7
    palignr $4, %xmm6, %xmm7
    paddd   %xmm7, %xmm4
    sha256msg2 %xmm3, %xmm4
    movdqa  %xmm4, %xmm0
    paddd   208(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    sha256msg1 %xmm3, %xmm6
    /* rounds 56..59 */
    movdqa  %xmm4, %xmm7
    palignr $4, %xmm3, %xmm7
    paddd   %xmm7, %xmm5
    sha256msg2 %xmm4, %xmm5
    movdqa  %xmm5, %xmm0
    paddd   224(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    /* rounds 60..63 */
    movdqa  %xmm5, %xmm7
    palignr $4, %xmm4, %xmm7
    paddd   %xmm7, %xmm6
    sha256msg2 %xmm5, %xmm6
    movdqa  %xmm6, %xmm0
    paddd   240(%rax), %xmm0
    sha256rnds2 %xmm1, %xmm2
    pshufd  $0x0e, %xmm0, %xmm0
    sha256rnds2 %xmm2, %xmm1
    paddd   %xmm9, %xmm1
    paddd   %xmm10, %xmm2
    addq    $64, %rsi
    decq    %rdx
    jnz     .Ls256_block
    pshufd  $0x1b, %xmm1, %xmm1     /* a b e f */
    pshufd  $0xb1, %xmm2, %xmm2     /* g h c d */
    movdqa  %xmm1, %xmm7
    pblendw $0xf0, %xmm2, %xmm1     /* a b c d */
    palignr $8, %xmm7, %xmm2        /* e f g h */
    movdqu  %xmm1, (%rdi)
    movdqu  %xmm2, 16(%rdi)
.Ls256_ret:
    ret
    .size   direct_sha256_blocks, .-direct_sha256_blocks

/* void direct_sha1_blocks(uint32_t state[5], const uint8_t *in, size_t nblocks)
 * %xmm0 = ABCD (A in the top dword); E rides in the top dword of %xmm1/%xmm2, which alternate:
 * SHA1NEXTE derives the next group's E from ABCD as it was four rounds earlier and adds it to
 * the message words. Message words are loaded fully byte-reversed (W0 in the top dword), as
 * SHA1RNDS4 and SHA1MSG1/2 expect; they rotate through %xmm3..%xmm6. */
    .globl  direct_sha1_blocks
    .type   direct_sha1_blocks, @function
    .p2align 4
direct_sha1_blocks:
    endbr64
    testq   %rdx, %rdx
    jz      .Ls1_ret
    movdqu  (%rdi), %xmm0
    pshufd  $0x1b, %xmm0, %xmm0     /* A in dword 3 */
    movd    16(%rdi), %xmm1
    pslldq  $12, %xmm1              /* E in dword 3 */
    movdqa  .Ls1_bswap(%rip), %xmm7
.Ls1_block:
    movdqa  %xmm0, %xmm8
    movdqa  %xmm1, %xmm9
    /* rounds 0..3 */
    movdqu  0(%rsi), %xmm3
    pshufb  %xmm7, %xmm3
    paddd   %xmm3, %xmm1
    movdqa  %xmm0, %xmm2
    sha1rnds4 $0, %xmm1, %xmm0
    /* rounds 4..7 */
    movdqu  16(%rsi), %xmm4
    pshufb  %xmm7, %xmm4
    sha1nexte %xmm4, %xmm2
    movdqa  %xmm0, %xmm1
    sha1rnds4 $0, %xmm2, %xmm0
    sha1msg1 %xmm4, %xmm3
    /* rounds 8..11 */
    movdqu  32(%rsi), %xmm5
    pshufb  %xmm7, %xmm5
    sha1nexte %xmm5, %xmm1
    movdqa  %xmm0, %xmm2
    sha1rnds4 $0, %xmm1, %xmm0
    sha1msg1 %xmm5, %xmm4
    pxor    %xmm5, %xmm3
    /* rounds 12..15 */
    movdqu  48(%rsi), %xmm6
    pshufb  %xmm7, %xmm6
    sha1nexte %xmm6, %xmm2
    movdqa  %xmm0, %xmm1
    sha1msg2 %xmm6, %xmm3
    sha1rnds4 $0, %xmm2, %xmm0
    sha1msg1 %xmm6, %xmm5
    pxor    %xmm6, %xmm4
    /* rounds 16..19 */
    sha1nexte %xmm3, %xmm1
    movdqa  %xmm0, %xmm2
    sha1msg2 %xmm3, %xmm4
    sha1rnds4 $0, %xmm1, %xmm0
    sha1msg1 %xmm3, %xmm6
    pxor    %xmm3, %xmm5
    /* rounds 20..23 */
    sha1nexte %xmm4, %xmm2
    movdqa  %xmm0, %xmm1
    sha1msg2 %xmm4, %xmm5
    sha1rnds4 $1, %xmm2, %xmm0
    sha1msg1 %xmm4, %xmm3
    pxor    %xmm4, %xmm6
    /* rounds 24..27 */
    sha1nexte %xmm5, %xmm1
    movdqa  %xmm0, %xmm2
    sha1msg2 %xmm5, %xmm6
    sha1rnds4 $1, %xmm1, %xmm0
    sha1msg1 %xmm5, %xmm4
    pxor    %xmm5, %xmm3
    /* rounds 28..31 */
    sha1nexte %xmm6, %xmm2
    movdqa  %xmm0, %xmm1
    sha1msg2 %xmm6, %xmm3
    sha1rnds4 $1, %xmm2, %xmm0
    sha1msg1 %xmm6, %xmm5
    pxor    %xmm6, %xmm4
    /* rounds 32..35 */
    sha1nexte %xmm3, %xmm1
    movdqa  %xmm0, %xmm2
    sha1msg2 %xmm3, %xmm4
    sha1rnds4 $1, %xmm1, %xmm0
    sha1msg1 %xmm3, %xmm6
    pxor    %xmm3, %xmm5
    /* rounds 36..39 */
    sha1nexte %xmm4, %xmm2
    movdqa  %xmm0, %xmm1
    sha1msg2 %xmm4, %xmm5
    sha1rnds4 $1, %xmm2, %xmm0
    sha1msg1 %xmm4, %xmm3
    pxor    %xmm4, %xmm6
    /* rounds 40..43 */
    sha1nexte %xmm5, %xmm1
    movdqa  %xmm0, %xmm2
    sha1msg2 %xmm5, %xmm6
    sha1rnds4 $2, %xmm1, %xmm0
    sha1msg1 %xmm5, %xmm4
    pxor    %xmm5, %xmm3
    /* rounds 44..47 */
    sha1nexte %xmm6, %xmm2
    movdqa  %xmm0, %xmm1
    sha1msg2 %xmm6, %xmm3
    sha1rnds4 $2, %xmm2, %xmm0
    sha1msg1 %xmm6, %xmm5
    pxor    %xmm6, %xmm4
    /* rounds 48..51 */
    sha1nexte %xmm3, %xmm1
    movdqa  %xmm0, %xmm2
    sha1msg2 %xmm3, %xmm4
    sha1rnds4 $2, %xmm1, %xmm0
    sha1msg1 %xmm3, %xmm6
    pxor    %xmm3, %xmm5
    /* rounds 52..55 */
    sha1nexte %xmm4, %xmm2
    movdqa  %xmm0, %xmm1
    sha1msg2 %xmm4, %xmm5
    sha1rnds4 $2, %xmm2, %xmm0
    sha1msg1 %xmm4, %xmm3
    pxor    %xmm4, %xmm6
    /* rounds 56..59 */
    sha1nexte %xmm5, %xmm1
    movdqa  %xmm0, %xmm2
    sha1msg2 %xmm5, %xmm6
    sha1rnds4 $2, %xmm1, %xmm0
    sha1msg1 %xmm5, %xmm4
    pxor    %xmm5, %xmm3
    /* rounds 60..63 */
    sha1nexte %xmm6, %xmm2
    movdqa  %xmm0, %xmm1
    sha1msg2 %xmm6, %xmm3
    sha1rnds4 $3, %xmm2, %xmm0
    sha1msg1 %xmm6, %xmm5
    pxor    %xmm6, %xmm4
    /* rounds 64..67 */
    sha1nexte %xmm3, %xmm1
    movdqa  %xmm0, %xmm2
    sha1msg2 %xmm3, %xmm4
    sha1rnds4 $3, %xmm1, %xmm0
    sha1msg1 %xmm3, %xmm6
    pxor    %xmm3, %xmm5
    /* rounds 68..71 */
    sha1nexte %xmm4, %xmm2
    movdqa  %xmm0, %xmm1
    sha1msg2 %xmm4, %xmm5
    sha1rnds4 $3, %xmm2, %xmm0
    pxor    %xmm4, %xmm6
    /* rounds 72..75 */
    sha1nexte %xmm5, %xmm1
    movdqa  %xmm0, %xmm2
    sha1msg2 %xmm5, %xmm6
    sha1rnds4 $3, %xmm1, %xmm0
    /* rounds 76..79 */
    sha1nexte %xmm6, %xmm2
    movdqa  %xmm0, %xmm1
    sha1rnds4 $3, %xmm2, %xmm0
    sha1nexte %xmm9, %xmm1
    paddd   %xmm8, %xmm0
    addq    $64, %rsi
    decq    %rdx
    jnz     .Ls1_block
    pshufd  $0x1b, %xmm0, %xmm0
    movdqu  %xmm0, (%rdi)
    pextrd  $3, %xmm1, 16(%rdi)
.Ls1_ret:
    ret
    .size   direct_sha1_blocks, .-direct_sha1_blocks

    .section .rodata
    .p2align 6
/* FIPS 180-4 4.2.2: first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes. */
.Ls256_k:
    .long   0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5
    .long   0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
    .long   0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3
    .long   0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
    .long   0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc
    .long   0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
    .long   0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7
    .long   0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
    .long   0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13
    .long   0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
    .long   0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3
    .long   0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
    .long   0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5
    .long   0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
    .long   0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208
    .long   0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
.Ls256_bswap:       /* big-endian words: swap bytes within each dword */
    .byte   3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
.Ls1_bswap:         /* whole 16 bytes reversed: words swapped and in reverse order */
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0

    .section .note.GNU-stack, "", @progbits

