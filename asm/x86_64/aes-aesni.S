/* AES with AES-NI (Intel SDM vol. 2: AESENC, AESENCLAST, AESDEC, AESDECLAST, AESIMC,
 * AESKEYGENASSIST; CPUID.1:ECX[25]), FIPS-197. C prototypes and conventions: asm/direct.h.
 * AT&T syntax. Key schedules must be 16-byte aligned (legacy-SSE memory operands).
 *
 * Round-key addressing: %r10 points at the last round key (rk + 16*rounds) and %r11d holds
 * the round count, so round keys 1..rounds-1 sit at fixed negative offsets from %r10 for every
 * key size; 12 and 14 rounds enter two or four keys earlier. */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

    .text

/* %r10 = last round key, %r11d = rounds, from the key in \k. */
.macro KEYPTR k
    movl    240(\k), %r11d
    movl    %r11d, %r10d
    shlq    $4, %r10
    addq    \k, %r10
.endm

/* Rounds 1..rounds-1 on one register, keys from memory. */
.macro MID1 op, x
    cmpl    $12, %r11d
    jb      2f
    je      1f
    \op     -208(%r10), \x
    \op     -192(%r10), \x
1:
    \op     -176(%r10), \x
    \op     -160(%r10), \x
2:
    \op     -144(%r10), \x
    \op     -128(%r10), \x
    \op     -112(%r10), \x
    \op     -96(%r10), \x
    \op     -80(%r10), \x
    \op     -64(%r10), \x
    \op     -48(%r10), \x
    \op     -32(%r10), \x
    \op     -16(%r10), \x
.endm

/* One round key (loaded once into %xmm15) applied to eight blocks in %xmm0..%xmm7. */
.macro KEY8 op, off
    movdqa  \off(%r10), %xmm15
    \op     %xmm15, %xmm0
    \op     %xmm15, %xmm1
    \op     %xmm15, %xmm2
    \op     %xmm15, %xmm3
    \op     %xmm15, %xmm4
    \op     %xmm15, %xmm5
    \op     %xmm15, %xmm6
    \op     %xmm15, %xmm7
.endm

.macro MID8 op
    cmpl    $12, %r11d
    jb      2f
    je      1f
    KEY8    \op, -208
    KEY8    \op, -192
1:
    KEY8    \op, -176
    KEY8    \op, -160
2:
    KEY8    \op, -144
    KEY8    \op, -128
    KEY8    \op, -112
    KEY8    \op, -96
    KEY8    \op, -80
    KEY8    \op, -64
    KEY8    \op, -48
    KEY8    \op, -32
    KEY8    \op, -16
.endm

/* int direct_aes_set_encrypt_key(struct direct_aes_key *k, const uint8_t *key, unsigned bits)
 * FIPS-197 5.2 word by word for every key size: w[i] = w[i-Nk] ^ temp, temp = w[i-1], with
 * SubWord(RotWord()) ^ Rcon every Nk words and, for Nk = 8, SubWord() at i mod 8 = 4.
 * AESKEYGENASSIST gives SubWord of dword 1 in dword 0 and RotWord(SubWord) in dword 1; Rcon is
 * kept in a register and xored in, so one loop serves 128, 192 and 256 bits. */
    .globl  direct_aes_set_encrypt_key
    .type   direct_aes_set_encrypt_key, @function
    .p2align 4
direct_aes_set_encrypt_key:
    endbr64
    cmpl    $128, %edx
    je      1f
    cmpl    $192, %edx
    je      1f
    cmpl    $256, %edx
    je      1f
    movl    $-1, %eax
    ret
1:
    movl    %edx, %r8d
    shrl    $5, %r8d                /* Nk */
    leal    6(%r8), %eax
    movl    %eax, 240(%rdi)         /* Nr = Nk + 6 */
    leal    7(%r8), %r9d
    shll    $2, %r9d                /* words = 4 * (Nr + 1) */
    xorl    %r10d, %r10d
.Lks_copy:
    movl    (%rsi,%r10,4), %eax
    movl    %eax, (%rdi,%r10,4)
    incq    %r10
    cmpq    %r8, %r10
    jb      .Lks_copy
    movl    $1, %r11d               /* Rcon[1] */
    xorl    %ecx, %ecx              /* i mod Nk */
.Lks_word:
    movl    -4(%rdi,%r10,4), %eax
    testl   %ecx, %ecx
    jnz     .Lks_not_rot
    movd    %eax, %xmm0
    pshufd  $0, %xmm0, %xmm0
    aeskeygenassist $0, %xmm0, %xmm1
    pextrd  $1, %xmm1, %eax
    xorl    %r11d, %eax
    addl    %r11d, %r11d            /* Rcon doubles in GF(2^8) */
    testl   $0x100, %r11d
    jz      .Lks_xor
    xorl    $0x11b, %r11d
    jmp     .Lks_xor
.Lks_not_rot:
    cmpl    $8, %r8d
    jne     .Lks_xor
    cmpl    $4, %ecx
    jne     .Lks_xor
    movd    %eax, %xmm0
    pshufd  $0, %xmm0, %xmm0
    aeskeygenassist $0, %xmm0, %xmm1
    movd    %xmm1, %eax
.Lks_xor:
    movq    %r10, %rdx
    subq    %r8, %rdx
    xorl    (%rdi,%rdx,4), %eax
    movl    %eax, (%rdi,%r10,4)
    incl    %ecx
    cmpl    %r8d, %ecx
    jne     1f
    xorl    %ecx, %ecx
1:
    incq    %r10
    cmpq    %r9, %r10
    jb      .Lks_word
    pxor    %xmm0, %xmm0
    pxor    %xmm1, %xmm1
    xorl    %eax, %eax
    ret
    .size   direct_aes_set_encrypt_key, .-direct_aes_set_encrypt_key

/* void direct_aes_set_decrypt_key(struct direct_aes_key *dec, const struct direct_aes_key *enc)
 * Equivalent inverse cipher (FIPS-197 5.3.5): keys reversed, AESIMC on the middle ones. */
    .globl  direct_aes_set_decrypt_key
    .type   direct_aes_set_decrypt_key, @function
    .p2align 4
direct_aes_set_decrypt_key:
    endbr64
    movl    240(%rsi), %eax
    movl    %eax, 240(%rdi)
    movl    %eax, %ecx
    shlq    $4, %rcx
    movdqu  (%rsi,%rcx), %xmm0
    movdqu  %xmm0, (%rdi)
    movdqu  (%rsi), %xmm0
    movdqu  %xmm0, (%rdi,%rcx)
    leaq    -16(%rsi,%rcx), %rsi
    addq    $16, %rdi
    decl    %eax
1:
    aesimc  (%rsi), %xmm0
    movdqu  %xmm0, (%rdi)
    subq    $16, %rsi
    addq    $16, %rdi
    decl    %eax
    jnz     1b
    pxor    %xmm0, %xmm0
    ret
    .size   direct_aes_set_decrypt_key, .-direct_aes_set_decrypt_key

/* void direct_aes_encrypt_block(const struct direct_aes_key *k, uint8_t out[16],
 *                               const uint8_t in[16]) */
    .globl  direct_aes_encrypt_block
    .type   direct_aes_encrypt_block, @function
    .p2align 4
direct_aes_encrypt_block:
    endbr64
    KEYPTR  %rdi
    movdqu  (%rdx), %xmm0
    pxor    (%rdi), %xmm0
    MID1    aesenc, %xmm0
    aesenclast (%r10), %xmm0
    movdqu  %xmm0, (%rsi)
    ret
    .size   direct_aes_encrypt_block, .-direct_aes_encrypt_block

/* void direct_aes_cbc_encrypt(k, out, in, nblocks, iv)
 * CBC encryption is one dependency chain. The xor with the next plaintext block (and round
 * key 0) is folded into AESENCLAST's key, since AESENCLAST ends by xoring its key:
 * AESENCLAST(s, rkN ^ t) = C_i ^ t with t = P_(i+1) ^ rk0, which is the next block's state
 * after round 0. The chain is then rounds x AESENC latency per block, nothing more; C_i itself
 * is recovered off the chain. */
    .globl  direct_aes_cbc_encrypt
    .type   direct_aes_cbc_encrypt, @function
    .p2align 4
direct_aes_cbc_encrypt:
    endbr64
    testq   %rcx, %rcx
    jz      .Lcbce_ret
    KEYPTR  %rdi
    movdqu  (%r8), %xmm0
    movdqa  (%rdi), %xmm1           /* rk0 */
    movdqa  (%r10), %xmm2           /* rk last */
    movdqu  (%rdx), %xmm3
    pxor    %xmm1, %xmm3
    pxor    %xmm3, %xmm0            /* P0 ^ IV ^ rk0 */
.Lcbce_loop:
    MID1    aesenc, %xmm0
    decq    %rcx
    jz      .Lcbce_last
    movdqu  16(%rdx), %xmm3
    pxor    %xmm1, %xmm3            /* t = P(i+1) ^ rk0 */
    movdqa  %xmm2, %xmm4
    pxor    %xmm3, %xmm4
    aesenclast %xmm4, %xmm0         /* C(i) ^ t */
    movdqa  %xmm0, %xmm5
    pxor    %xmm3, %xmm5            /* C(i) */
    movdqu  %xmm5, (%rsi)
    addq    $16, %rdx
    addq    $16, %rsi
    jmp     .Lcbce_loop
.Lcbce_last:
    aesenclast %xmm2, %xmm0
    movdqu  %xmm0, (%rsi)
    movdqu  %xmm0, (%r8)
    pxor    %xmm0, %xmm0
    pxor    %xmm3, %xmm3
    pxor    %xmm5, %xmm5
.Lcbce_ret:
    ret
    .size   direct_aes_cbc_encrypt, .-direct_aes_cbc_encrypt

/* void direct_aes_cbc_decrypt(dec, out, in, nblocks, iv)
 * Eight blocks in flight (AESDEC latency x throughput is about 8 on current cores). The xor
 * with the previous ciphertext is folded into AESDECLAST's key; all eight ciphertexts are read
 * before any plaintext is stored, so out == in works. */
    .globl  direct_aes_cbc_decrypt
    .type   direct_aes_cbc_decrypt, @function
    .p2align 4
direct_aes_cbc_decrypt:
    endbr64
    KEYPTR  %rdi
    movdqu  (%r8), %xmm14           /* previous ciphertext block */
    cmpq    $8, %rcx
    jb      .Lcbcd_tail
.Lcbcd_8:
    movdqa  (%rdi), %xmm15
    movdqu  0(%rdx), %xmm0
    movdqu  16(%rdx), %xmm1
    movdqu  32(%rdx), %xmm2
    movdqu  48(%rdx), %xmm3
    movdqu  64(%rdx), %xmm4
    movdqu  80(%rdx), %xmm5
    movdqu  96(%rdx), %xmm6
    movdqu  112(%rdx), %xmm7
    pxor    %xmm15, %xmm0
    pxor    %xmm15, %xmm1
    pxor    %xmm15, %xmm2
    pxor    %xmm15, %xmm3
    pxor    %xmm15, %xmm4
    pxor    %xmm15, %xmm5
    pxor    %xmm15, %xmm6
    pxor    %xmm15, %xmm7
    MID8    aesdec
    movdqa  (%r10), %xmm15
    pxor    %xmm15, %xmm14
    aesdeclast %xmm14, %xmm0
    movdqu  0(%rdx), %xmm13
    pxor    %xmm15, %xmm13
    aesdeclast %xmm13, %xmm1
    movdqu  16(%rdx), %xmm13
    pxor    %xmm15, %xmm13
    aesdeclast %xmm13, %xmm2
    movdqu  32(%rdx), %xmm13
    pxor    %xmm15, %xmm13
    aesdeclast %xmm13, %xmm3
    movdqu  48(%rdx), %xmm13
    pxor    %xmm15, %xmm13
    aesdeclast %xmm13, %xmm4
    movdqu  64(%rdx), %xmm13
    pxor    %xmm15, %xmm13
    aesdeclast %xmm13, %xmm5
    movdqu  80(%rdx), %xmm13
    pxor    %xmm15, %xmm13
    aesdeclast %xmm13, %xmm6
    movdqu  96(%rdx), %xmm13
    pxor    %xmm15, %xmm13
    aesdeclast %xmm13, %xmm7
    movdqu  112(%rdx), %xmm14
    movdqu  %xmm0, 0(%rsi)
    movdqu  %xmm1, 16(%rsi)
    movdqu  %xmm2, 32(%rsi)
    movdqu  %xmm3, 48(%rsi)
    movdqu  %xmm4, 64(%rsi)
    movdqu  %xmm5, 80(%rsi)
    movdqu  %xmm6, 96(%rsi)
    movdqu  %xmm7, 112(%rsi)
    addq    $128, %rdx
    addq    $128, %rsi
    subq    $8, %rcx
    cmpq    $8, %rcx
    jae     .Lcbcd_8
.Lcbcd_tail:
    testq   %rcx, %rcx
    jz      .Lcbcd_done
.Lcbcd_1:
    movdqu  (%rdx), %xmm0
    movdqa  %xmm0, %xmm13
    pxor    (%rdi), %xmm0
    MID1    aesdec, %xmm0
    aesdeclast (%r10), %xmm0
    pxor    %xmm14, %xmm0
    movdqa  %xmm13, %xmm14
    movdqu  %xmm0, (%rsi)
    addq    $16, %rdx
    addq    $16, %rsi
    decq    %rcx
    jnz     .Lcbcd_1
.Lcbcd_done:
    movdqu  %xmm14, (%r8)
    pxor    %xmm0, %xmm0
    pxor    %xmm1, %xmm1
    pxor    %xmm2, %xmm2
    pxor    %xmm3, %xmm3
    pxor    %xmm4, %xmm4
    pxor    %xmm5, %xmm5
    pxor    %xmm6, %xmm6
    pxor    %xmm7, %xmm7
    ret
    .size   direct_aes_cbc_decrypt, .-direct_aes_cbc_decrypt

/* void direct_aes_ctr(k, out, in, nblocks, ctr)
 * The counter lives byte-reversed in %xmm13 (a little-endian 128-bit integer), so PADDQ
 * steps its low 64 bits; %r9 mirrors those bits to see a carry coming. Groups of eight whose
 * counters stay below the carry go the fast way; otherwise single blocks with a full 128-bit
 * increment (the high qword is bumped when the low one wraps). */
    .globl  direct_aes_ctr
    .type   direct_aes_ctr, @function
    .p2align 4
direct_aes_ctr:
    endbr64
    KEYPTR  %rdi
    movdqa  .Lbswap128(%rip), %xmm14
    movdqu  (%r8), %xmm13
    pshufb  %xmm14, %xmm13
    movq    %xmm13, %r9
.Lctr_loop:
    cmpq    $8, %rcx
    jb      .Lctr_tail
    movq    %r9, %rax
    addq    $8, %rax
    jc      .Lctr_slow8
    movdqa  %xmm13, %xmm0
    movdqa  %xmm13, %xmm1
    paddq   .Lq1(%rip), %xmm1
    movdqa  %xmm13, %xmm2
    paddq   .Lq2(%rip), %xmm2
    movdqa  %xmm13, %xmm3
    paddq   .Lq3(%rip), %xmm3
    movdqa  %xmm13, %xmm4
    paddq   .Lq4(%rip), %xmm4
    movdqa  %xmm13, %xmm5
    paddq   .Lq5(%rip), %xmm5
    movdqa  %xmm13, %xmm6
    paddq   .Lq6(%rip), %xmm6
    movdqa  %xmm13, %xmm7
    paddq   .Lq7(%rip), %xmm7
    paddq   .Lq8(%rip), %xmm13
    movq    %rax, %r9
    movdqa  (%rdi), %xmm15
    pshufb  %xmm14, %xmm0
    pshufb  %xmm14, %xmm1
    pshufb  %xmm14, %xmm2
    pshufb  %xmm14, %xmm3
    pshufb  %xmm14, %xmm4
    pshufb  %xmm14, %xmm5
    pshufb  %xmm14, %xmm6
    pshufb  %xmm14, %xmm7
    pxor    %xmm15, %xmm0
    pxor    %xmm15, %xmm1
    pxor    %xmm15, %xmm2
    pxor    %xmm15, %xmm3
    pxor    %xmm15, %xmm4
    pxor    %xmm15, %xmm5
    pxor    %xmm15, %xmm6
    pxor    %xmm15, %xmm7
    MID8    aesenc
    /* last round: its key xored with the input gives E(ctr) ^ in directly */
    movdqa  (%r10), %xmm15
    movdqu  0(%rdx), %xmm8
    movdqu  16(%rdx), %xmm9
    movdqu  32(%rdx), %xmm10
    movdqu  48(%rdx), %xmm11
    pxor    %xmm15, %xmm8
    pxor    %xmm15, %xmm9
    pxor    %xmm15, %xmm10
    pxor    %xmm15, %xmm11
    aesenclast %xmm8, %xmm0
    aesenclast %xmm9, %xmm1
    aesenclast %xmm10, %xmm2
    aesenclast %xmm11, %xmm3
    movdqu  64(%rdx), %xmm8
    movdqu  80(%rdx), %xmm9
    movdqu  96(%rdx), %xmm10
    movdqu  112(%rdx), %xmm11
    pxor    %xmm15, %xmm8
    pxor    %xmm15, %xmm9
    pxor    %xmm15, %xmm10
    pxor    %xmm15, %xmm11
    aesenclast %xmm8, %xmm4
    aesenclast %xmm9, %xmm5
    aesenclast %xmm10, %xmm6
    aesenclast %xmm11, %xmm7
    movdqu  %xmm0, 0(%rsi)
    movdqu  %xmm1, 16(%rsi)
    movdqu  %xmm2, 32(%rsi)
    movdqu  %xmm3, 48(%rsi)
    movdqu  %xmm4, 64(%rsi)
    movdqu  %xmm5, 80(%rsi)
    movdqu  %xmm6, 96(%rsi)
    movdqu  %xmm7, 112(%rsi)
    addq    $128, %rdx
    addq    $128, %rsi
    subq    $8, %rcx
    jmp     .Lctr_loop
.Lctr_slow8:
    movl    $8, %eax
    jmp     .Lctr_1
.Lctr_tail:
    movq    %rcx, %rax
    testq   %rax, %rax
    jz      .Lctr_done
.Lctr_1:
    movdqa  %xmm13, %xmm0
    pshufb  %xmm14, %xmm0
    pxor    (%rdi), %xmm0
    MID1    aesenc, %xmm0
    aesenclast (%r10), %xmm0
    movdqu  (%rdx), %xmm8
    pxor    %xmm8, %xmm0
    movdqu  %xmm0, (%rsi)
    paddq   .Lq1(%rip), %xmm13
    addq    $1, %r9
    jnc     1f
    paddq   .Lqhi1(%rip), %xmm13
1:
    addq    $16, %rdx
    addq    $16, %rsi
    decq    %rcx
    decq    %rax
    jnz     .Lctr_1
    jmp     .Lctr_loop
.Lctr_done:
    pshufb  %xmm14, %xmm13
    movdqu  %xmm13, (%r8)
    pxor    %xmm0, %xmm0
    pxor    %xmm1, %xmm1
    pxor    %xmm2, %xmm2
    pxor    %xmm3, %xmm3
    pxor    %xmm4, %xmm4
    pxor    %xmm5, %xmm5
    pxor    %xmm6, %xmm6
    pxor    %xmm7, %xmm7
    /* the last round key, and it xored with blocks of the input, which give it back */
    pxor    %xmm8, %xmm8
    pxor    %xmm9, %xmm9
    pxor    %xmm10, %xmm10
    pxor    %xmm11, %xmm11
    pxor    %xmm15, %xmm15
    ret
    .size   direct_aes_ctr, .-direct_aes_ctr

    .section .rodata
    .p2align 4
.Lbswap128:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lq1:   .quad 1, 0
.Lq2:   .quad 2, 0
.Lq3:   .quad 3, 0
.Lq4:   .quad 4, 0
.Lq5:   .quad 5, 0
.Lq6:   .quad 6, 0
.Lq7:   .quad 7, 0
.Lq8:   .quad 8, 0
.Lqhi1: .quad 0, 1

    .section .note.GNU-stack, "", @progbits
