/* AES-GCM (NIST SP 800-38D) stitched: AES-NI counter mode (CPUID.1:ECX[25]) and PCLMULQDQ
 * GHASH (CPUID.1:ECX[1]; SSSE3 for PSHUFB) in one loop, so the AES unit and the carry-less
 * multiplier work on the same cycles instead of one pass after the other. Eight blocks per
 * group: while the eight counter blocks go through the rounds, eight ciphertext blocks are
 * multiplied by H^16..H^9 or H^8..H^1 between the rounds and summed unreduced, one reduction
 * per two groups (aggregated reduction). Elements are byte-reflected as in ghash-pclmul.S, products
 * Karatsuba; the powers come multiplied by x (hsh of struct direct_ghash_key: Gueron and
 * Kounavis' "H<<1 mod P"), which spares the shift left by one, and the reduction is two
 * carry-less multiplies, not the shifts of ghash-pclmul.S: on cores where shifts and shuffles
 * share ports with AESENC (Zen 3), fewer of them leave more room to the rounds. Decryption
 * hashes the group it decrypts (the ciphertext is its input); encryption hashes the group it
 * wrote two iterations before, and the last two after the loop (GCM_ENC_LAG2). C prototypes:
 * asm/direct.h. AT&T syntax.
 * The EVEX form (GCM_VL, aes-gcm-aesni-vl.S; AVX, AVX512F, AVX512VL): the same loop, the
 * products schoolbook (four VPCLMULQDQ a block, VEX: without the VPCLMULQDQ feature, as on
 * Skylake-SP, EVEX cannot encode them) instead of Karatsuba (three, and a VPSHUFD and a PXOR
 * for the half-sum, as the SSE form did then), two blocks' products added to the sums, now in
 * %xmm16..18, by three VPTERNLOGQ where six PXOR did, and the reduction's XORs by
 * VPTERNLOGQ: 16 vector ALU instructions a group fewer than that SSE form for 8 more
 * multiplies. On Sapphire Rapids (a VM, family 6 model
 * 0xa7) this core is bound by the vector issue ports, not by AESENC or PCLMULQDQ (GCM's
 * least-mix loop on xmm, silicon.h, runs 6.0 cycles per 16 B, the kernel 7.9; loops before
 * 7a6d316):
 * tests/bench/gcm_kernels.sh's sse->evex rows read 1.08-1.10x (AES-128, 16 KiB, 2026-12-07);
 * the schoolbook products alone, each block's added by a PXOR, a VPTERNLOGQ and a PXOR,
 * 1.034-1.041x. Not kept: the EVEX form's counters (VPADDD from a memory constant into each
 * state, no MOVDQA first) and last round (VPXOR with the input as memory operand, no MOVDQU)
 * in VEX three-operand form, 16 instructions a group fewer: 0.994-1.011x in three runs (same
 * VM, later that day), within what the same code on both sides reads.
 * Nor were those the vector issue ports alone: the loads were near their three a cycle too
 * (about 141 a group: 72 round keys, 32 multiplies' powers, 8 byte-swap masks, 8 counter
 * steps, 16 blocks of data and a few more). Timing only, the powers from a register read
 * 1.066x. So the EVEX form now loads each block's power once into %xmm12 (VMOVDQA, then four
 * VPCLMULQDQ from the register; Y moves to %xmm19), keeps the byte-swap mask in %xmm8 and the
 * last round key in %xmm21 (one VPXORQ a block with the input as memory operand), and makes
 * its whitened counters from a table (CTR8VL): about 107 loads a group, from 141, and 8
 * vector ALU instructions fewer. Against the form before (gcm_kernels.sh, AES-128, 16 KiB,
 * Sapphire Rapids VM, 2026-12-07): 1.066-1.074x; with the counters made as before (VPADDD
 * and VPXOR a block) 1.014-1.027x, so the table's share is the most, where alone, with the
 * loads still near their bound, it read 0.988-0.998x. What is left is the vector ALU work
 * (per group 80 AESENC, 33 VPCLMULQDQ and about 42 others on three ports: 52 cycles, the
 * kernel about 55). Timing only, four of CTR8VL's eight VPXORQ made plain loads read
 * 1.015-1.027x; so the counters are now made two a ymm register (four VPXORQ a group) into
 * a 128-byte buffer in a stack frame and loaded from it by the AES states, a group ahead
 * (CTRBUF): 1.013-1.019x in three runs of 21 repeats, 0.997-1.044x (median 1.018) over 32
 * output offsets; made in the group that loads them, the stores' forwarding delayed each
 * group's first rounds: 0.970-0.980x.
 * Where the multiplier bounds the loop the schoolbook products cost more than they save: on
 * the Zen 5 VM (PCLMULQDQ one per two cycles, and each worth about three vector XORs of issue:
 * 8 beside 48 VPXORQ took 18 cycles, 16 alone; 2026-12-07) the sse->evex rows read 0.89-0.92x
 * at 1, 16 and 64 KiB (AES-128; AES-256 0.99-1.00x). So the EVEX form has a Karatsuba variant
 * (GCM_KARA, aes-gcm-aesni-vlk.S: the SSE form's pairs, GMULK, with the EVEX form's counters,
 * registers and VPTERNLOGQ), which AMD's cores with AVX-512 (family 0x19 and later) run
 * (direct_x86_gcm_xmm_kara): sse->vlk 1.038-1.044x at 16 KiB, 1.039-1.042x at 64 KiB,
 * 1.019-1.032x at 1 KiB, AES-256 1.028-1.031x (same VM, day and tool).
 * The SSE form (CPUs without AVX-512: most of those without VAES) makes its counters from the
 * same table, P in %xmm8 for the group (CTR8): a PXOR a block where a PADDD and a PXOR were,
 * 1.034-1.045x in three gcm_kernels.sh runs of 21 (Sapphire Rapids VM under
 * ACCELSCOPE_DENY=vaes,avx512f's code, 2026-12-07; the EVEX rows 0.994-1.009x); its share of
 * the xmm ceiling (direct.sh, 7 processes) went from 82.4 % and 82.9 % to 87.1 % and 87.3 %
 * (against the least-mix loops before 7a6d316; those since count Karatsuba's half-sums by
 * pairs, as GMULP now does them, and read about 2 % faster on xmm without VPTERNLOGQ).
 *
 * Registers: %xmm0..7 AES states (reduction scratch once stored), %xmm8 CTR8's P (on the
 * carry's way the byte-swap mask, then round key 0), then GMULP's scratch (rounds 1..8;
 * GHASH8), then the last round key (the middle rounds take theirs from memory: struct
 * direct_aes_key is 16-byte aligned, as AESENC's legacy-SSE memory operand must be),
 * %xmm9/10/11 low/high/middle product sums, %xmm12 = Y, %xmm13..15 GHASH scratch (the EVEX
 * form: sums in %xmm16..18, %xmm9..11 scratch with 13..15, %xmm12 a block's power (not
 * in _vlk, whose multiplies read the tables), Y in %xmm19, P in %xmm20 (both lanes of
 * %ymm20: CTR8VL), the last round key in %xmm21, %xmm8 the byte-swap mask, %ymm22..25
 * CTRBUF's scratch).
 * %rdi key, %rsi GHASH key, %rdx state, %rcx out, %r8 in, %r9 blocks left, %r10 last round
 * key (the EVEX form: CTR8VL's row), %r11d rounds, %rax the blocks done (the SSE form: CTR8's
 * row, the blocks done at -8(%rsp)). The next counter block lives in the red zone at
 * -24(%rsp), CTR8's P at -40(%rsp) (16-byte aligned: the kernels are leaves entered with
 * %rsp = 8 mod 16; the EVEX form: at 128(%rsp) in a frame below a pushed %rbp, 32-byte
 * aligned, CTRBUF's counters at 0..127(%rsp));
 * it steps as GCM's inc32 (SP 800-38D 6.2): its last 32 bits, big-endian, modulo 2^32. */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

#include "vaes-common.inc" /* GCM_ENC_LAG2 */

/* aes-gcm-aesni-vl.S assembles this file again with GCM_VL 1: the same kernels in EVEX form
 * (AVX512VL on xmm), named _vl; aes-gcm-aesni-vlk.S with GCM_KARA 1 too: that form with the
 * SSE form's Karatsuba pairs for products (GMULK), named _vlk. */
#ifndef GCM_VL
#define GCM_VL 0
#define GCM_ENC direct_aes_gcm_enc
#define GCM_DEC direct_aes_gcm_dec
#endif
    .set    VL, GCM_VL
#ifndef GCM_KARA
#define GCM_KARA 0
#endif
    .set    KARA, GCM_KARA
/* The counter's place: the red zone, or in the EVEX form the frame ENTRY makes (CTR8VL); the
 * SSE form's P (CTR8) and the blocks done (kept there while %rax walks the rows) beside it */
.if VL
    .set    CTRO, 128
.else
    .set    CTRO, -24
    .set    PO, -40
    .set    DONEO, -8
.endif

    .text

/* EVEX form: the whitened counters from a table. While the counter's last byte b takes the
 * 8 without a carry, block i is P ^ row(b + i): P (%xmm20) the counter with its last byte
 * cleared, xored with round key 0, row(v) (direct_aes_gcm_rows, 16 bytes a row) zero but for
 * v in its last byte; one VPXORQ a block pair (with its two rows as memory operand, %r10
 * walking the table) where a PADDD and a PXOR a block were, made a group ahead into the
 * frame (CTRBUF) and loaded from there into the states, 12 vector ALU instructions a group
 * fewer. The row is chosen by the counter, which is public (the IV and the blocks done), so
 * no secret picks a cache line. b steps in memory (ADDB): the counter there stays whole for
 * the carry's way and for LEAVE. A carry (b > 0xf7) takes CTR8's byte-reversing way; b then
 * wraps to b + 8 - 256, so %r10 moves by 128 - 4096, and P and the buffer are made anew (CTRP). */
.macro CTR8VL
    cmpb    $0xf7, CTRO+15(%rsp)
    ja      2f
    .irp s, 0, 1, 2, 3, 4, 5, 6, 7
    vmovdqa 16*\s(%rsp), %xmm\s
    .endr
    addb    $8, CTRO+15(%rsp)
    subq    $-128, %r10
    CTRBUF
    jmp     3f
2:
    movdqa  CTRO(%rsp), %xmm0
    pshufb  %xmm8, %xmm0
    .irp s, 1, 2, 3, 4, 5, 6, 7
    vpaddd  .Ld\s(%rip), %xmm0, %xmm\s
    .endr
    vpaddd  .Ld8(%rip), %xmm0, %xmm13
    pshufb  %xmm8, %xmm13
    movdqa  %xmm13, CTRO(%rsp)
    vmovdqa64 (%rdi), %xmm20
    .irp s, 0, 1, 2, 3, 4, 5, 6, 7
    pshufb  %xmm8, %xmm\s
    vpxorq  %xmm20, %xmm\s, %xmm\s
    .endr
    subq    $4096 - 128, %r10
    CTRP
3:
.endm

/* The EVEX form's P (%xmm20, and %ymm20's upper lane) from the counter at CTRO(%rsp), %r10
 * at the row of its last byte: that row's XOR clears the byte; then that group's counters
 * (CTRBUF). Scratch %xmm13 and CTRBUF's. */
.macro CTRP
    vmovdqa CTRO(%rsp), %xmm13
    vpxorq  (%r10), %xmm13, %xmm13
    vpxorq  (%rdi), %xmm13, %xmm20
    vinserti32x4 $1, %xmm20, %ymm20, %ymm20
    CTRBUF
.endm

/* The whitened counters of the group at %r10's row, two a ymm register, into the frame
 * (0..127(%rsp)), a group before they are loaded: stored in the group that loads them, they
 * reached the loads late (the header's figures). Rows past 255 are read when the next group
 * carries, and go unused: the table has those 7 more. */
.macro CTRBUF
    .irp s, 22, 23, 24, 25
    vpxorq  32*(\s-22)(%r10), %ymm20, %ymm\s
    vmovdqa64 %ymm\s, 32*(\s-22)(%rsp)
    .endr
.endm

/* Counters for the group into %xmm0..7, whitened with round key 0; the counter (GCM byte
 * order) moves by 8. While its last byte b takes the 8 without a carry (31 groups in 32),
 * block i is P ^ row(b + i), as in CTR8VL: P (PO(%rsp), the counter with its last byte
 * cleared, xored with round key 0) in %xmm8 once, then a PXOR a block with its row (%rax
 * walking the rows), where a PADDD of k << 24 and a PXOR with the key were: 8 vector ALU
 * instructions a group fewer. Otherwise the counter is byte-reversed, stepped as a 32-bit
 * integer and reversed back, block by block (the shuffles share AES ports on Zen 3, hence the
 * fast way), whitened, and P made anew. */
.macro CTR8
    .if VL
    CTR8VL
    .exitm
    .endif
    cmpb    $0xf7, CTRO+15(%rsp)
    ja      2f
    movdqa  PO(%rsp), %xmm8
    .irp s, 0, 1, 2, 3, 4, 5, 6, 7
    movdqa  %xmm8, %xmm\s
    pxor    16*\s(%rax), %xmm\s
    .endr
    addb    $8, CTRO+15(%rsp)
    subq    $-128, %rax
    jmp     3f
2:
    movdqa  CTRO(%rsp), %xmm0
    movdqa  .Lgbswap(%rip), %xmm8
    pshufb  %xmm8, %xmm0
    movdqa  %xmm0, %xmm1
    paddd   .Ld1(%rip), %xmm1
    movdqa  %xmm0, %xmm2
    paddd   .Ld2(%rip), %xmm2
    movdqa  %xmm0, %xmm3
    paddd   .Ld3(%rip), %xmm3
    movdqa  %xmm0, %xmm4
    paddd   .Ld4(%rip), %xmm4
    movdqa  %xmm0, %xmm5
    paddd   .Ld5(%rip), %xmm5
    movdqa  %xmm0, %xmm6
    paddd   .Ld6(%rip), %xmm6
    movdqa  %xmm0, %xmm7
    paddd   .Ld7(%rip), %xmm7
    movdqa  %xmm0, %xmm13
    paddd   .Ld8(%rip), %xmm13
    pshufb  %xmm8, %xmm13
    movdqa  %xmm13, CTRO(%rsp)
    pshufb  %xmm8, %xmm0
    pshufb  %xmm8, %xmm1
    pshufb  %xmm8, %xmm2
    pshufb  %xmm8, %xmm3
    pshufb  %xmm8, %xmm4
    pshufb  %xmm8, %xmm5
    pshufb  %xmm8, %xmm6
    pshufb  %xmm8, %xmm7
    movdqa  (%rdi), %xmm8
    .irp s, 0, 1, 2, 3, 4, 5, 6, 7
    pxor    %xmm8, %xmm\s
    .endr
    subq    $4096 - 128, %rax           /* b wrapped to b + 8 - 256 */
    SSEP
3:
.endm

/* The SSE form's P at PO(%rsp) from the counter at CTRO(%rsp), %rax at the row of its last
 * byte (whose XOR clears the byte). Scratch %xmm13. */
.macro SSEP
    movdqa  CTRO(%rsp), %xmm13
    pxor    (%rax), %xmm13
    pxor    (%rdi), %xmm13
    movdqa  %xmm13, PO(%rsp)
.endm

/* One AES round (key at \off(%rdi)) on the eight states. The key comes as AESENC's memory
 * operand, a load fused into each (loads are not what runs short here: Zen 3 does up to
 * three a cycle, AMD's Software Optimization Guide for Family 19h, 56665), which spares the
 * MOVDQA of each round and leaves fewer ops in the window: 1.02x (AES-128, 16 KiB, Zen 3). */
.macro AESR off
    .irp s, 0, 1, 2, 3, 4, 5, 6, 7
    aesenc  \off(%rdi), %xmm\s
    .endr
.endm

/* Block \j of the group at \disp(\src) times hsh[\kb+\j] (H^(16-\kb-\j) x; its Karatsuba
 * half-sum in hksh, 256 bytes on), added to the sums, in four steps (\part 0..3) that RMUL
 * spreads between a round's AESENCs. \start: this group starts a sum, so block 7 (the first
 * multiplied) sets the sums (in the EVEX form the middle one; block 6 the others; in the SSE
 * form and _vlk the pair 7, 6 all three) and block 0 takes Y. */
.if VL
/* EVEX form: schoolbook products (four a block, no half-sums), a pair of blocks (odd \j,
 * then \j - 1) added to the sums %xmm16 (low), %xmm17 (high), %xmm18 (middle) at once by
 * VPTERNLOGQ; the odd block works in %xmm13 (data, then its high product), 14 (low), 15 and
 * 9 (middle), the even one in %xmm10, 11, 15 and 9; the block's power in %xmm12, loaded once
 * for its four multiplies. The multiplies stay VEX (xmm0..15): AVX512VL without VPCLMULQDQ
 * does not give them EVEX. */
.macro GMULP part, j, src, disp, kb, start
    .if KARA                         /* _vlk: the pair sets the sums (7, 6); block 0 takes Y */
    GMULK   \part, \j%2, 16*\j+\disp(\src), 768+16*(\kb+\j)(%rsi), 1024+16*(\kb+\j+1)(%rsi), \
            1024+16*(\kb+\j)(%rsi), \start&&(\j>=6), \start&&(\j==0)
    .exitm
    .endif
    .if \j % 2
    GMULV   \part, \j, \src, \disp, \kb, \start, 13, 14
    .else
    GMULV   \part, \j, \src, \disp, \kb, \start, 10, 11
    .endif
.endm

/* EVEX form with Karatsuba products (_vlk), a pair of blocks at a time as TGMULK
 * (vaes-common.inc) and the SSE form's GMULP take them: odd \j (data, then its middle product,
 * in %xmm13; low %xmm14, high 15) and \j - 1 (data %xmm9, T 10, U 11, each then a product),
 * three multiplies a block where GMULV takes four, the products added to the sums %xmm16
 * (low), 17 (high), 18 (middle) by a VPTERNLOGQ a sum for the pair; Y in %xmm19, the byte
 * swap in %xmm8. The multiplies stay VEX (xmm0..15), as GMULV's. \pw the block's power
 * (hsh), \pko the odd block's half-sum (hksh) for the even call, \pk the even one's. */
.macro GMULK part, odd, data, pw, pko, pk, first, takey
    .if \odd
    .if \part == 0
    vmovdqu \data, %xmm13
    vpshufb %xmm8, %xmm13, %xmm13
    .elseif \part == 1
    vpclmulqdq $0x00, \pw, %xmm13, %xmm14
    .elseif \part == 3
    vpclmulqdq $0x11, \pw, %xmm13, %xmm15
    .endif
    .else
    .if \part == 0
    vmovdqu \data, %xmm9
    vpshufb %xmm8, %xmm9, %xmm9
    .if \takey
    vpxorq  %xmm19, %xmm9, %xmm9
    .endif
    .elseif \part == 1
    vpunpcklqdq %xmm9, %xmm13, %xmm10
    vpunpckhqdq %xmm9, %xmm13, %xmm11
    vpxor   %xmm11, %xmm10, %xmm10
    vpclmulqdq $0x00, \pko, %xmm10, %xmm13
    .elseif \part == 2
    vpclmulqdq $0x01, \pk, %xmm10, %xmm10
    vpclmulqdq $0x00, \pw, %xmm9, %xmm11
    .else
    vpclmulqdq $0x11, \pw, %xmm9, %xmm9
    VSUM    \first, 14, 11, 16
    VSUM    \first, 13, 10, 18
    VSUM    \first, 15, 9, 17
    .endif
    .endif
.endm

/* The EVEX form's sum %xmm\sum takes two products, %xmm\a ^ %xmm\b: set by them (\set), else
 * added by one VPTERNLOGQ (0x96: a ^ b ^ c). */
.macro VSUM set, a, b, sum
    .if \set
    vpxorq  %xmm\a, %xmm\b, %xmm\sum
    .else
    vpternlogq $0x96, %xmm\a, %xmm\b, %xmm\sum
    .endif
.endm

.macro GMULV part, j, src, disp, kb, start, a, l
    .if \part == 0
    vmovdqu \disp+16*\j(\src), %xmm\a
    vpshufb %xmm8, %xmm\a, %xmm\a
    vmovdqa 768+16*(\kb+\j)(%rsi), %xmm12
    .if \j == 0 && \start
    vpxorq  %xmm19, %xmm\a, %xmm\a
    .endif
    .elseif \part == 1
    vpclmulqdq $0x00, %xmm12, %xmm\a, %xmm\l
    .elseif \part == 2
    vpclmulqdq $0x01, %xmm12, %xmm\a, %xmm15
    vpclmulqdq $0x10, %xmm12, %xmm\a, %xmm9
    .else
    vpclmulqdq $0x11, %xmm12, %xmm\a, %xmm\a
    VSUM    (\j==7)&&\start, 15, 9, 18
    .if \j % 2 == 0
    VSUM    (\j==6)&&\start, 14, 11, 16
    VSUM    (\j==6)&&\start, 13, 10, 17
    .endif
    .endif
.endm
.else
/* SSE form: a pair of blocks at a time, odd \j (multiplied first) and \j - 1, as TGMULK
 * (vaes-common.inc) does it: both byte-swapped, their low halves unpacked into one register
 * (T = [odd lo, even lo]), their high halves into another (U), one PXOR makes both half-sums
 * (M = T ^ U), and each product takes its qword by PCLMULQDQ's immediate; the powers and
 * half-sums are the tables' as before. A PSHUFD and a PXOR a block become a PUNPCK a block and
 * a PXOR a pair, a vector ALU instruction a pair fewer (three MOVDQA more, which rename takes).
 * Scratch %xmm13..15 and %xmm8 (free between CTR8 and the last round). \start: the pair 7, 6
 * sets the sums; block 0 takes Y (the pair 1, 0). gcm_kernels.sh against the form before
 * (Sapphire Rapids VM, 2026-12-07, AES-128, 16 KiB, two runs of 21): 1.012-1.022x
 * encrypting, 1.012-1.019x decrypting; 64 KiB 1.021 and 1.024x, 1 KiB 1.015 and 1.012x,
 * AES-256 1.008 and 1.010x, output 64 bytes past the input 1.012 and 1.014x. GCM's least-mix
 * loops (ubench.S GCMMIX) have counted the half-sums this way since. Measured there only: on
 * cores that do not eliminate register moves (Westmere, Sandy Bridge) the three MOVDQA more
 * may cost what the PSHUFD and PXOR saved. Not kept: four groups a
 * reduction (H^32..H^17 from hsh32, GCM_ENC_LAG2's \h4 and \h3) read 0.999-1.001x
 * encrypting, 1.023-1.025x decrypting against the form before. */
.macro GMULP part, j, src, disp, kb, start
    .if \j % 2
    .if \part == 0
    movdqu  \disp+16*\j(\src), %xmm13
    pshufb  .Lgbswap(%rip), %xmm13
    movdqu  \disp+16*(\j-1)(\src), %xmm14
    pshufb  .Lgbswap(%rip), %xmm14
    .if \j == 1 && \start
    pxor    %xmm12, %xmm14
    .endif
    .elseif \part == 1
    movdqa  %xmm13, %xmm15
    punpcklqdq %xmm14, %xmm15         /* T */
    punpckhqdq %xmm14, %xmm13         /* U */
    .elseif \part == 2
    movdqa  %xmm15, %xmm14
    pxor    %xmm13, %xmm14            /* M */
    GPROD   (\j==7)&&\start, $0x00, 768+16*(\kb+\j)(%rsi), 15, 9
    .else
    pclmulqdq $0x01, 768+16*(\kb+\j-1)(%rsi), %xmm15
    GADD    (\j==7)&&\start, 15, 9
    .endif
    .else
    .if \part == 0
    GPROD   (\j==6)&&\start, $0x10, 768+16*(\kb+\j+1)(%rsi), 13, 10
    .elseif \part == 1
    pclmulqdq $0x11, 768+16*(\kb+\j)(%rsi), %xmm13
    GADD    (\j==6)&&\start, 13, 10
    .elseif \part == 2
    GPROD   (\j==6)&&\start, $0x00, 1024+16*(\kb+\j+1)(%rsi), 14, 11
    .else
    pclmulqdq $0x01, 1024+16*(\kb+\j)(%rsi), %xmm14
    GADD    (\j==6)&&\start, 14, 11
    .endif
    .endif
.endm

/* The odd block's product (of %xmm\src, the pair's T, U or M, by \pw's qword \imm picks): into
 * the sum %xmm\sum itself where the pair sets the sums (\set), else into %xmm8. */
.macro GPROD set, imm, pw, src, sum
    .if \set
    movdqa  %xmm\src, %xmm\sum
    pclmulqdq \imm, \pw, %xmm\sum
    .else
    movdqa  %xmm\src, %xmm8
    pclmulqdq \imm, \pw, %xmm8
    .endif
.endm

/* The even block's product %xmm\prod, and the odd one's (%xmm8, unless it set the sum), added
 * to the sum %xmm\sum. */
.macro GADD set, prod, sum
    .if !(\set)
    pxor    %xmm8, %xmm\sum
    .endif
    pxor    %xmm\prod, %xmm\sum
.endm

/* direct_ghash1's one block, Karatsuba, the SSE form's way before it went by pairs: (Y ^ the
 * block at (%rdx)) times hsh[15] = H x, its products the sums GREDUCE takes (%xmm9 low, 10
 * high, 11 middle). */
.macro GMULB
    movdqu  (%rdx), %xmm10
    pshufb  .Lgbswap(%rip), %xmm10
    pxor    %xmm12, %xmm10
    movdqa  %xmm10, %xmm9
    pclmulqdq $0x00, 768+16*15(%rsi), %xmm9
    pshufd  $0x4e, %xmm10, %xmm11
    pxor    %xmm10, %xmm11
    pclmulqdq $0x00, 1024+16*15(%rsi), %xmm11
    pclmulqdq $0x11, 768+16*15(%rsi), %xmm10
.endm
.endif

.macro GMUL j, src, disp, kb, start
    .irp part, 0, 1, 2, 3
    GMULP   \part, \j, \src, \disp, \kb, \start
    .endr
.endm

/* Round \r (1..8) with, where \mul, the multiply of block \j = 8 - \r (the block that takes Y
 * goes last, so only its product waits for the previous reduction; in the SSE form its pair,
 * 1 and 0, loads and takes Y in round 7 and all six products wait; in _vlk block 0 takes Y in
 * round 8, and block 1's middle product, made of both blocks' halves, waits with it), its
 * steps between the
 * AESENCs so that the scheduler sees PCLMULQDQ and AESENC mixed evenly. */
.macro RMUL r, j, mul, src, disp, kb, start
    .if \mul
    aesenc  16*\r(%rdi), %xmm0
    .irp s, 1, 2, 3, 4, 5, 6, 7
    .if \s % 2                       /* step (s - 1) / 2 before the AESENCs of states 1, 3, 5, 7 */
    GMULP   (\s - 1) / 2, \j, \src, \disp, \kb, \start
    .endif
    aesenc  16*\r(%rdi), %xmm\s
    .endr
    .else
    AESR    16*\r
    .endif
.endm

/* The eight multiplies alone (the last group encrypted, hashed after the loop). */
.macro GHASH8 src, disp, kb, start
    .irp j, 7, 6, 5, 4, 3, 2, 1, 0
    GMUL    \j, \src, \disp, \kb, \start
    .endr
.endm

/* Last round of the eight blocks: each one's key xored with its input gives E(ctr) ^ in at
 * once; the group's stores after all its loads (VLAST, vaes-common.inc, says why). */
.macro LAST8
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    .if VL
    vpxorq  16*\j(%r8), %xmm21, %xmm13
    .else
    movdqu  16*\j(%r8), %xmm13
    pxor    %xmm8, %xmm13
    .endif
    aesenclast %xmm13, %xmm\j
    .endr
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    movdqu  %xmm\j, 16*\j(%rcx)
    .endr
.endm

/* One group: AES of eight counter blocks, with (\mul) the products of the eight blocks at
 * \disp(\src) by hsh[\kb..\kb+7] (see GMUL); output stored. */
.macro GROUP mul, src, disp, kb, start
    CTR8
    RMUL    1, 7, \mul, \src, \disp, \kb, \start
    RMUL    2, 6, \mul, \src, \disp, \kb, \start
    RMUL    3, 5, \mul, \src, \disp, \kb, \start
    RMUL    4, 4, \mul, \src, \disp, \kb, \start
    RMUL    5, 3, \mul, \src, \disp, \kb, \start
    RMUL    6, 2, \mul, \src, \disp, \kb, \start
    RMUL    7, 1, \mul, \src, \disp, \kb, \start
    RMUL    8, 0, \mul, \src, \disp, \kb, \start
    AESR    144
    cmpl    $10, %r11d
    je      1f
    AESR    160
    AESR    176
    cmpl    $12, %r11d
    je      1f
    AESR    192
    AESR    208
1:
    .if !VL
    movdqa  (%r10), %xmm8
    .endif
    LAST8
.endm

/* On to the next group; ZF set when none is left. */
.macro NEXT
    addq    $128, %rcx
    addq    $128, %r8
    subq    $8, %r9
.endm

/* The sums to Y (%xmm12; the EVEX form: %xmm19, scratch %xmm9 too), scratch %xmm0. The
 * Karatsuba middle made whole (mid ^= lo ^ hi); the powers being H^i * x (hsh), no shift is
 * left to do, and the 256-bit product
 * [hi:mid:lo] folds in two steps, lo into mid, then mid into hi, each a carry-less multiply
 * by x^128 mod the field polynomial's reflected top, 0xc2 << 56 (.Lpoly's high qword), and
 * a swap of halves, as ZGREDUCE of aes-gcm-vaes512.S. Splitting mid into lo and hi first
 * came to the same sum with two shifts, a copy and an XOR more (17 instructions, 13 now):
 * the kernels ran 1.015-1.027x as fast decrypting, 1.003-1.008x encrypting (Zen 4 VM,
 * AES-128, 16 KiB, three gcm_kernels.sh runs). */
.if VL
/* EVEX form: the middle sum is whole already (schoolbook; _vlk's Karatsuba one is made whole
 * by the first VPTERNLOGQ); the sums in %xmm16..18 go to the
 * multiplier through %xmm0 (VEX: xmm0..15), the XORs by VPTERNLOGQ. Not TGREDUCE
 * (vaes-common.inc): that one makes a Karatsuba middle whole and multiplies in EVEX, which
 * needs the VPCLMULQDQ feature. */
.macro GREDUCE
    .if KARA                         /* _vlk: the Karatsuba middle made whole first */
    vpternlogq $0x96, %xmm16, %xmm17, %xmm18
    .endif
    vmovdqa64 %xmm16, %xmm0
    vpclmulqdq $0x10, .Lpoly(%rip), %xmm0, %xmm0
    vpshufd $0x4e, %xmm16, %xmm9
    vpternlogq $0x96, %xmm0, %xmm9, %xmm18
    vmovdqa64 %xmm18, %xmm0
    vpclmulqdq $0x10, .Lpoly(%rip), %xmm0, %xmm0
    vpshufd $0x4e, %xmm18, %xmm9
    vpternlogq $0x96, %xmm0, %xmm9, %xmm17
    vmovdqa64 %xmm17, %xmm19
.endm
.else
.macro GREDUCE
    pxor    %xmm9, %xmm11
    pxor    %xmm10, %xmm11
    movdqa  %xmm9, %xmm0
    pclmulqdq $0x10, .Lpoly(%rip), %xmm0
    pshufd  $0x4e, %xmm9, %xmm9
    pxor    %xmm0, %xmm9
    pxor    %xmm9, %xmm11
    movdqa  %xmm11, %xmm0
    pclmulqdq $0x10, .Lpoly(%rip), %xmm0
    pshufd  $0x4e, %xmm11, %xmm11
    pxor    %xmm0, %xmm11
    pxor    %xmm11, %xmm10
    movdqa  %xmm10, %xmm12
.endm
.endif

/* Entry: blocks done (nblocks & ~7) in %r9 and in %rax (the SSE form: at -8(%rsp), %rax at
 * CTR8's row, P made), key pointers, counter and Y loaded; jumps to \out (the kernel's RET,
 * %rax 0) when there is nothing to do. */
.macro ENTRY out
    endbr64
    movq    %r9, %rax
    andq    $-8, %rax
    jz      \out
    .if VL                              /* a frame for CTRBUF's 128 bytes and the counter, */
    pushq   %rbp                        /* 32-byte aligned: a ymm store there never splits */
    .cfi_adjust_cfa_offset 8            /* a cache line, whatever the caller's depth */
    .cfi_offset %rbp, -16
    movq    %rsp, %rbp
    .cfi_def_cfa_register %rbp
    subq    $144, %rsp
    andq    $-32, %rsp
    .endif
    movq    %rax, %r9
    movdqu  (%rdx), %xmm0
    movdqa  %xmm0, CTRO(%rsp)
    .if !VL                             /* %rax to the row of the counter's last byte (CTR8) */
    movq    %rax, DONEO(%rsp)
    movzbl  CTRO+15(%rsp), %r11d
    shll    $4, %r11d
    leaq    direct_aes_gcm_rows(%rip), %rax
    addq    %r11, %rax
    SSEP
    .endif
    movl    240(%rdi), %r11d
    movl    %r11d, %r10d
    shlq    $4, %r10
    addq    %rdi, %r10
    movdqu  16(%rdx), %xmm12
    pshufb  .Lgbswap(%rip), %xmm12
    .if VL
    vmovdqa64 %xmm12, %xmm19
    vmovdqa64 (%r10), %xmm21            /* the last round key; %r10 then walks the rows */
    leaq    direct_aes_gcm_rows(%rip), %r10
    movzbl  CTRO+15(%rsp), %eax
    shll    $4, %eax
    addq    %rax, %r10
    movq    %r9, %rax                   /* blocks done, again */
    CTRP
    movdqa  .Lgbswap(%rip), %xmm8
    .endif
.endm

/* State back to GCM byte order; no key stream or key left in registers, nor in the EVEX
 * form's frame (its whitened counters), which it pops, nor in the SSE form's P at -40(%rsp)
 * (round key 0 xored with a public counter); the SSE form's %rax, the blocks done, back from
 * -8(%rsp). %xmm9..11, 14 and 15 keep the last blocks' products by powers of H and reduction
 * terms, %xmm12 Y as stored: not wiped, as in direct_ghash1. */
.macro LEAVE
    .if VL
    vmovdqa64 %xmm19, %xmm12
    .endif
    movdqa  CTRO(%rsp), %xmm0
    movdqu  %xmm0, (%rdx)
    pshufb  .Lgbswap(%rip), %xmm12
    movdqu  %xmm12, 16(%rdx)
    pxor    %xmm0, %xmm0
    pxor    %xmm1, %xmm1
    pxor    %xmm2, %xmm2
    pxor    %xmm3, %xmm3
    pxor    %xmm4, %xmm4
    pxor    %xmm5, %xmm5
    pxor    %xmm6, %xmm6
    pxor    %xmm7, %xmm7
    pxor    %xmm8, %xmm8
    pxor    %xmm13, %xmm13
    .if !VL                             /* P is round key 0 xored with a public counter */
    movdqa  %xmm0, PO(%rsp)
    movq    DONEO(%rsp), %rax
    .endif
    .if VL
    vpxorq  %xmm16, %xmm16, %xmm16
    vpxorq  %xmm17, %xmm17, %xmm17
    vpxorq  %xmm18, %xmm18, %xmm18
    vpxorq  %xmm19, %xmm19, %xmm19
    vpxorq  %xmm20, %xmm20, %xmm20
    vpxorq  %xmm21, %xmm21, %xmm21
    .irp s, 22, 23, 24, 25
    vpxorq  %xmm\s, %xmm\s, %xmm\s
    vmovdqa64 %ymm20, 32*(\s-22)(%rsp)
    .endr
    movq    %rbp, %rsp
    popq    %rbp
    .cfi_def_cfa %rsp, 8
    .cfi_restore %rbp
    .endif
.endm

/* size_t direct_aes_gcm_enc(const struct direct_aes_key *k, const struct direct_ghash_key *gk,
 *                           struct direct_gcm_state *st, uint8_t *out, const uint8_t *in,
 *                           size_t nblocks)
 * Groups g0, g1, ...: each hashed while the one after next is encrypted (GCM_ENC_LAG2,
 * vaes-common.inc, says why); hashed groups pair up, g(2i) by H^16..H^9 and g(2i+1) by
 * H^8..H^1, one reduction per pair; a last group without a partner is hashed by H^8..H^1
 * alone. Against hashing the group before (Zen 4 VM, AES-128, 16 KiB, three gcm_kernels.sh
 * runs): 1.023-1.025x, as fast as decryption now. */
    .globl  GCM_ENC
    .type   GCM_ENC, @function
    .p2align 4
GCM_ENC:
    .if VL
    .cfi_startproc
    .endif
    ENTRY   .Lge_ret
    GCM_ENC_LAG2 GROUP, NEXT, GHASH8, GREDUCE, 128, 0, 8
    LEAVE
.Lge_ret:
    ret
    .if VL
    .cfi_endproc
    .endif
    .size   GCM_ENC, .-GCM_ENC

/* size_t direct_aes_gcm_dec(k, gk, st, out, in, nblocks): as _enc, hashing the input, two
 * groups and one reduction at a time, a last group alone */
    .globl  GCM_DEC
    .type   GCM_DEC, @function
    .p2align 4
GCM_DEC:
    .if VL
    .cfi_startproc
    .endif
    ENTRY   .Lgd_ret
    GCM_DEC_LOOP GROUP, NEXT, GREDUCE, 128, 0, 8
    LEAVE
.Lgd_ret:
    ret
    .if VL
    .cfi_endproc
    .endif
    .size   GCM_DEC, .-GCM_DEC

.if !VL
/* void direct_ghash1(uint8_t y[16], const struct direct_ghash_key *k, const uint8_t in[16])
 * y = (y ^ in) * H for one block, in GCM byte order: a multiply as the kernels' (GMULB, by
 * hsh[15] = H x) and their reduction (GREDUCE), a chain of three carry-less multiplies where
 * direct_ghash's one-block path (ghash-pclmul.S) loops and reduces by shifts. A GCM op's
 * tag waits for it on the lengths block; the AAD's and the message's padded last blocks go
 * through it too. Needs hsh and hksh (direct_ghash_shift). Works in %xmm0 and %xmm9..12
 * alone (the block and its products in the sums' registers) and wipes them. */
    .globl  direct_ghash1
    .type   direct_ghash1, @function
    .p2align 4
direct_ghash1:
    endbr64
    movdqu  (%rdi), %xmm12
    pshufb  .Lgbswap(%rip), %xmm12
    GMULB
    GREDUCE
    pshufb  .Lgbswap(%rip), %xmm12
    movdqu  %xmm12, (%rdi)
    pxor    %xmm0, %xmm0
    .irp r, 9, 10, 11, 12
    pxor    %xmm\r, %xmm\r
    .endr
    ret
    .size   direct_ghash1, .-direct_ghash1
.endif

    .section .rodata
    .p2align 4
.Lgbswap:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lpoly: .quad 1, 0xc200000000000000
.Ld1:   .long 1, 0, 0, 0
.Ld2:   .long 2, 0, 0, 0
.Ld3:   .long 3, 0, 0, 0
.Ld4:   .long 4, 0, 0, 0
.Ld5:   .long 5, 0, 0, 0
.Ld6:   .long 6, 0, 0, 0
.Ld7:   .long 7, 0, 0, 0
.Ld8:   .long 8, 0, 0, 0
/* The rows of the table ways' counters (row v: zero but for v in its last byte), one copy
 * for every GCM kernel that reads them: this file's two forms and aes-gcm-vaes.S's EVEX form
 * (the SSE assembly of this file defines it). */
.if !VL
    .p2align 6
    .globl  direct_aes_gcm_rows
    .hidden direct_aes_gcm_rows
    .type   direct_aes_gcm_rows, @object
direct_aes_gcm_rows:
    .set    .Lrowv, 0
    .rept   0x106 + 1
    .byte   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, .Lrowv & 0xff
    .set    .Lrowv, .Lrowv + 1
    .endr
    /* CTRBUF reads rows up to b + 15, b <= 0xf7 (CTR8VL), or b + 7, b <= 0xff (CTRP); the
     * SSE form's CTR8 up to b + 7, b <= 0xf7, its SSEP b <= 0xff; aes-gcm-vaes.S's EVEX VCTR16
     * up to b + 15, b <= 0xef, its VCTRP b <= 0xff */
    .if . - direct_aes_gcm_rows < 16 * (0x106 + 1)
    .error "direct_aes_gcm_rows too short for CTRBUF and CTR8 (rows up to 0x106)"
    .endif
    .size   direct_aes_gcm_rows, . - direct_aes_gcm_rows
.endif

    .section .note.GNU-stack, "", @progbits
