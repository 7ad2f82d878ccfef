/* AES-GCM (NIST SP 800-38D) stitched on 256-bit registers: VAES counter mode (VAESENC VEX.256,
 * CPUID.7.0:ECX[9]) and VPCLMULQDQ GHASH (VEX.256, CPUID.7.0:ECX[10]; AVX2 for the other ymm
 * ops, CPUID.7.0:EBX[5]) in one loop; the method of aes-gcm-aesni.S with two blocks per
 * register. Sixteen blocks per group as eight ymm pairs: while the counter pairs go through
 * the rounds, pair j of the group to hash is multiplied by H^(16-2j), H^(15-2j) or sixteen
 * powers more (hsh, hsh32 of struct direct_ghash_key, side by side, multiplied by x as
 * aes-gcm-aesni.S explains) between the rounds; once per two groups (four in the EVEX form,
 * with hsh48 and hsh64 too) the lanes are reduced, then added. C prototypes: asm/direct.h.
 * AT&T syntax, VEX encoding throughout (but for the EVEX form below), VZEROUPPER at the end.
 *
 * Registers (VEX form): %ymm0..7 AES states (reduction scratch once stored), %ymm8 round key
 * (both lanes), %ymm9/10/11 low/high/middle product sums, %xmm12 = Y (upper lane zero),
 * %ymm13..15 scratch. %rdi key, %rsi GHASH key, %rdx state, %rcx out, %r8 in, %r9 blocks left,
 * %r10 last round key, %r11d rounds. The counter pair [c, c+1] (GCM byte order, stepping as
 * inc32) lives in the red zone at -40(%rsp) (the EVEX form steps lane 0 alone, VCTR16, and
 * keeps %rax at -48(%rsp) a moment in VCTRP).
 *
 * The EVEX form (GCM_VL, aes-gcm-vaes-vl.S; AVX512VL, AVX512BW): the same loop on the same
 * 256-bit registers, with what the other sixteen registers and VPTERNLOGQ allow: round keys
 * 0..9 and the last in %ymm16..26 (broadcast once a call, not once a round: rounds 10..13 of
 * AES-192/256 still come into %ymm27 each group), odd pairs' data and products in %ymm28..30
 * added with the even pair after them by one VPTERNLOGQ a sum (3 instructions per two pairs for
 * 6 VPXOR: 12 fewer a group, 9 in one that starts a sum; %ymm8 then VCTR16's P, %r10 its
 * row), four
 * groups a reduction (the first stage of
 * GCM_ENC_LAG2 and GCM_DEC_LOOP), the reduction's XORs in three VPTERNLOGQ, the byte-swap mask
 * in %ymm31. Why: on Sapphire Rapids
 * (family 6 model 0xa7, a VM, 2026-12-07) this kernel is bound by its vector instructions on
 * ports 0, 1 and 5, not by a unit: GCM's least-mix loop on ymm runs 3.00 cycles per 16 B with
 * VPTERNLOGQ (3.34 without; the loops as they were before 7a6d316 paired the half-sums), this
 * VEX form 4.17-4.33. Timing only, deleting the 12 sums' VPXOR
 * and the 8 round-0 VPXOR gave 1.125-1.130x; the EVEX form, correct, reads 1.129-1.140x the VEX
 * one (gcm_kernels.sh's vex->evex rows, four runs): 3.75-3.82 cycles per 16 B (3.56-3.62 with
 * the half-sums and the reductions of four groups, which VGMULK and _enc_vaes tell of). Tried
 * and not kept: the counters in one VPTERNLOGQ a pair (A ^ (B & T), T from a 32-entry table by
 * c mod 16, as aes-gcm-vaes512.S's header tells of its own try: 11 vector instructions a group
 * for 16) read 0.97x this form (1.029-1.031x without, two runs): the VPADDD chain stays. Nor
 * the counters whitened by one VPXOR a pair with a memory operand (P ^ [T(c), T(c+1)]: P the
 * block with its last byte cleared, XOR key 0, both lanes, in the red zone; T a 4 KiB table of
 * rows with the last byte c; %r10 walking it, the VPADDD chain and the old path only where the
 * last byte would carry): 8 vector instructions and 9 in all a group fewer, correct (t_direct),
 * read 0.985-0.997x in three runs (same VM, 2026-12-07, later). The EVEX form makes them
 * from that table since, with P in a register (VCTR16), as timed on the Zen 5 VM only.
 *
 * Where its gap to the ceiling is (Zen 4 VM, 2026-12-06, AES-128, 16 KiB, core cycles per
 * 16 B; this kernel 4.61-4.69, the least-mix ceiling 3.22, 69-70 %). A skeleton, eight ymm
 * AES chains and 24 independent VPCLMULQDQ per sixteen blocks (this kernel's ratio), ran
 * 3.44 with a multiply after every third VAESENC over rounds 1..9, 4.06 with three at the
 * start of each of rounds 1..8, 6.60 with three at their end; the rounds alone 2.57. Here,
 * with the data's byte swaps, Karatsuba half-sums and the sums' XORs all deleted (timing
 * only), 4.45 placed as below and 3.95 spread as in the skeleton; with them, the spread
 * gains nothing (not kept). Deleted alone, the byte swaps (8 VPSHUFB a group) gave
 * 1.04-1.05x, the half-sums (8 VPSHUFD, 8 VPXOR) 1.03-1.04x, the sums (24 VPXOR)
 * 1.02-1.04x; schoolbook instead of Karatsuba (a fourth multiply, no half-sum) 0.91-0.93x;
 * VXORPS for the sums' VPXOR 1.00x; independent VPXORs added to a skeleton's rounds cost
 * 0.07 cycles each. So the gap is the vector ALU work a stitched GCM cannot drop (shuffles
 * the most); on AVX2 (no VPTERNLOGQ, sixteen registers) there is no cheaper form of it that
 * we found. It costs as instructions, not only as vector pipe time: independent integer LEAs,
 * which no vector pipe issues, cost alike (added at each group's start, gcm_kernels.sh,
 * timing only: 16 of them 0.97x, 64 0.85-0.87x, 64 NOPs 0.95-0.97x), where the zmm kernel
 * absorbs most of the same (64 a sixteen blocks there 0.92-0.93x). This kernel's ~220
 * instructions a group seem to fill what the core holds in flight (our reading: no
 * performance counters on the VM). Whitened counters made in general registers, as OpenSSL
 * makes them (sixteen dwords a group, loaded by eight VMOVDQA in place of VPADDD and VPXOR),
 * ran 0.88-0.92x written one group ahead, 0.84-0.88x two ahead: more instructions in all.
 * Nor do fewer instructions win by loads: the round keys broadcast once to a table on the
 * stack and taken as VAESENC's memory operand (ten instructions a group fewer, eighty loads
 * more) ran 0.97-0.985x. Nor is it where the multiplies sit, though on Zen 4 VPCLMULQDQ ymm
 * issues once per two cycles and so bounds the ceiling: the 32 steps of a group's eight
 * multiplies spread evenly over rounds 1..9 and the last, over rounds 1..6 or 1..7, or two
 * VAESENCs apart over rounds 2..9, ran 0.972-0.993x (gcm_kernels.sh, 2026-12-06, a calm
 * host); nor the memory traffic or the counters (timing only): no output stores 0.99-1.04x,
 * the key powers from a register 1.01-1.03x, the byte-swap mask from a register 0.99-1.01x,
 * no counter carried from group to group 0.99-1.01x, the eight counters each from the first
 * (no chain) 0.98-1.01x. Nor does starting the next group's chains sooner: pairs 0-3 and 4-7
 * five rounds apart, each half's counters made while the other half finishes (two round keys
 * a step, in %ymm8 and %ymm12), ran 0.948-0.968x (timing only). */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

#include "vaes-common.inc"

/* aes-gcm-vaes-vl.S assembles this file again with GCM_VL 1: the same kernels in EVEX form
 * (AVX512VL on ymm), named _vaes_vl. */
#ifndef GCM_VL
#define GCM_VL 0
#define GCM_ENC direct_aes_gcm_enc_vaes
#define GCM_DEC direct_aes_gcm_dec_vaes
#endif
    .set    VL, GCM_VL

/* The round keys VGROUP names: VEX, %ymm8, where each is broadcast in its turn; EVEX, the
 * registers VENTRY fills (rounds 10..13 broadcast into KFAR as they come). */
#if GCM_VL
#define K1 %ymm17
#define K2 %ymm18
#define K3 %ymm19
#define K4 %ymm20
#define K5 %ymm21
#define K6 %ymm22
#define K7 %ymm23
#define K8 %ymm24
#define K9 %ymm25
#define KLAST %ymm26
#define KFAR %ymm27
#else
#define K1 %ymm8
#define K2 %ymm8
#define K3 %ymm8
#define K4 %ymm8
#define K5 %ymm8
#define K6 %ymm8
#define K7 %ymm8
#define K8 %ymm8
#define K9 %ymm8
#define KLAST %ymm8
#define KFAR %ymm8
#endif

    .text

/* The EVEX form's P for VCTR16 (%ymm8, both lanes: the counter at -40(%rsp) with the row of
 * its last byte b xored in, which clears that byte, and round key 0) and %r10 at row(b).
 * %rax (the blocks done) waits in the red zone below the counter while it holds the table's
 * address. Scratch %ymm13. */
.macro VCTRP
    movzbl  -25(%rsp), %r10d
    shll    $4, %r10d
    movq    %rax, -48(%rsp)
    leaq    direct_aes_gcm_rows(%rip), %rax
    addq    %rax, %r10
    movq    -48(%rsp), %rax
    vbroadcasti32x4 -40(%rsp), %ymm8
    vbroadcasti32x4 (%r10), %ymm13
    vpternlogq $0x96, %ymm16, %ymm13, %ymm8
.endm

/* Counters for the group into %ymm0..7, whitened with round key 0; the counter pair (GCM
 * byte order) moves by 16: VPADDD of 2 << 24 per step while the last byte of both lanes
 * takes the 16 without a carry (c + 1 + 16 <= 255), else through byte-reversed 32-bit
 * integers (see aes-gcm-aesni.S's CTR8).
 * The EVEX form makes them whitened from a table, as aes-gcm-aesni.S's CTR8VL makes them.
 * While lane 0's last byte b takes the 16 without a carry (b <= 0xef), pair j is
 * P ^ [row(b + 2j), row(b + 2j + 1)]: P (%ymm8, both lanes) the counter with its last
 * byte cleared, xored with round key 0, and the two rows one 32-byte memory operand of the
 * VPXORQ (direct_aes_gcm_rows, %r10 at row(b); a message's groups start at b = 2 mod 16,
 * where that operand never splits a cache line). One vector instruction a pair where a
 * VPADDD and a VPXORQ were, no step constant loaded: 8 vector ALU instructions a group fewer.
 * Zen 5 VM (family 0x1a, 2026-12-07, gcm_kernels.sh against the VPADDD chain, AES-128):
 * 1.004-1.020x at 16 KiB in six runs (the same code's aesni and xmmvl rows beside it
 * 0.994-1.005x), 1.011-1.017x at 64 KiB, AES-256 1.013-1.017x, output 64 bytes past the
 * input 1.020x, 1 KiB 0.998-1.010x. (On the Sapphire Rapids VM, 2026-12-07, a form with P
 * in the red zone, each pair a VPXOR of P and its rows, read 0.985-0.997x: see the header;
 * this one was not timed there.) The row is chosen by the counter, which is public, so no
 * secret picks a cache line. b steps in memory (ADDB, lane 0 only: the carry's way rebuilds
 * lane 1 from it, and VLEAVE stores lane 0); a carry (b > 0xef) takes the byte-reversing
 * way, then P and %r10 are made anew (VCTRP). */
.macro VCTR16
    .if VL
    cmpb    $0xef, -25(%rsp)
    ja      2f
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    vpxorq  32*\j(%r10), %ymm8, %ymm\j
    .endr
    addb    $16, -25(%rsp)
    addq    $256, %r10
    jmp     1f                        /* (labels 4..9 are GCM_ENC_LAG2's) */
    .else
    vmovdqu -40(%rsp), %ymm0
    cmpb    $0xee, -25(%rsp)          /* the upper lane, c + 1, must take 16 too */
    ja      2f
    vmovdqu .Lvb2(%rip), %ymm8
    vpaddd  %ymm8, %ymm0, %ymm1
    vpaddd  %ymm8, %ymm1, %ymm2
    vpaddd  %ymm8, %ymm2, %ymm3
    vpaddd  %ymm8, %ymm3, %ymm4
    vpaddd  %ymm8, %ymm4, %ymm5
    vpaddd  %ymm8, %ymm5, %ymm6
    vpaddd  %ymm8, %ymm6, %ymm7
    vpaddd  %ymm8, %ymm7, %ymm13
    vmovdqu %ymm13, -40(%rsp)
    jmp     3f
    .endif
2:
    .if VL                            /* lane 1 from lane 0, which alone steps in memory */
    vbroadcasti128 -40(%rsp), %ymm0
    .endif
    vbroadcasti128 .Lvgbswap(%rip), %ymm8
    vpshufb %ymm8, %ymm0, %ymm0
    .if VL
    vpaddd  .Lvd01(%rip), %ymm0, %ymm0
    .endif
    vpaddd  .Lvd2(%rip), %ymm0, %ymm1
    vpaddd  .Lvd2(%rip), %ymm1, %ymm2
    vpaddd  .Lvd2(%rip), %ymm2, %ymm3
    vpaddd  .Lvd2(%rip), %ymm3, %ymm4
    vpaddd  .Lvd2(%rip), %ymm4, %ymm5
    vpaddd  .Lvd2(%rip), %ymm5, %ymm6
    vpaddd  .Lvd2(%rip), %ymm6, %ymm7
    vpaddd  .Lvd2(%rip), %ymm7, %ymm13
    vpshufb %ymm8, %ymm13, %ymm13
    vmovdqu %ymm13, -40(%rsp)
    vpshufb %ymm8, %ymm0, %ymm0
    vpshufb %ymm8, %ymm1, %ymm1
    vpshufb %ymm8, %ymm2, %ymm2
    vpshufb %ymm8, %ymm3, %ymm3
    vpshufb %ymm8, %ymm4, %ymm4
    vpshufb %ymm8, %ymm5, %ymm5
    vpshufb %ymm8, %ymm6, %ymm6
    vpshufb %ymm8, %ymm7, %ymm7
3:
    .if VL
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    vpxorq  %ymm16, %ymm\j, %ymm\j
    .endr
    VCTRP
    .else
    vbroadcasti128 (%rdi), %ymm8
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    vpxor   %ymm8, %ymm\j, %ymm\j
    .endr
    .endif
1:
.endm

/* AES round \r on the eight pairs with \key (both lanes): VEX, broadcast into %ymm8 each
 * time; EVEX, the register VENTRY filled (rounds 0..9 in %ymm16..25), or for rounds 10..13
 * %ymm27, broadcast here. */
.macro VAESR r, key
    .if VL
    .if \r >= 10
    vbroadcasti32x4 16*\r(%rdi), \key
    .endif
    VAESRK  \key
    .else
    vbroadcasti128 16*\r(%rdi), %ymm8
    VAESRK  %ymm8
    .endif
.endm

.macro VAESRK key
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    vaesenc \key, %ymm\j, %ymm\j
    .endr
.endm

/* VPXOR, or where a register may be one of %ymm16..31, VPXORQ (EVEX) */
.macro VXOR a, b, c
    .if VL
    vpxorq  \a, \b, \c
    .else
    vpxor   \a, \b, \c
    .endif
.endm

/* Pair \j of the group at \disp(\src) times the pair of powers at \hb+32j in the key (hsh,
 * hsh32, and in the EVEX form hsh48 and hsh64: H^(16-2j) x, H^(15-2j) x, or 16, 32 or 48
 * more; Karatsuba half-sums 256 bytes on), added to the sums, in four steps (\part 0..3) that
 * VRMUL spreads between a round's VAESENCs. \start: this group starts a sum, so pair 7 (the
 * first multiplied; both forms take pairs two at a time, so pairs 7 and 6) sets the sums and
 * pair 0 takes Y. VEX: VGMULR, two pairs at a time in %ymm13..15, the products added by
 * VPXOR. EVEX: VGMULK, the same by VPTERNLOGQ. */
.macro VGMULP part, j, src, disp, hb, start
    .if VL
    VGMULK  \part, \j, \src, \disp, \hb, \start
    .else
    VGMULR  \part, \j, \src, \disp, \hb, \start
    .endif
.endm

/* VEX: a pair of registers at a time, odd \j (multiplied first) and \j - 1, as TGMULK
 * (vaes-common.inc) does it without VPTERNLOGQ: both byte-swapped, their low halves unpacked
 * into %ymm15 (T = [odd lo, even lo] a lane), their high halves into %ymm13 (U), one VPXOR
 * making both half-sums (%ymm14, M = T ^ U), each product taking its qword by VPCLMULQDQ's
 * immediate from the tables as before and added to its sum at once (the three-operand form
 * leaves three registers enough). A VPSHUFD and a VPXOR a register became a VPUNPCK a register
 * and a VPXOR a pair. \start: the pair 7, 6 sets the sums, register 0 takes Y.
 * gcm_kernels.sh against the form before (measured there only: the Sapphire Rapids VM running
 * the code ACCELSCOPE_DENY=avx512f picks, not a Zen 3 or Alder Lake; 2026-12-07, AES-128,
 * two runs of 21): 1.018-1.023x encrypting, 1.013-1.018x decrypting
 * at 16 KiB, 1.013 and 1.015x at 64 KiB, AES-256 1.000-1.003x, 1 KiB 1.001 and 1.033x. */
.macro VGMULR part, j, src, disp, hb, start
    .if \j % 2
    .if \part == 0
    vmovdqu \disp+32*\j(\src), %ymm13
    vpshufb .Lvgbswap32(%rip), %ymm13, %ymm13
    vmovdqu \disp+32*(\j-1)(\src), %ymm14
    vpshufb .Lvgbswap32(%rip), %ymm14, %ymm14
    .if \j == 1 && \start
    vpxor   %ymm12, %ymm14, %ymm14
    .endif
    .elseif \part == 1
    vpunpcklqdq %ymm14, %ymm13, %ymm15
    vpunpckhqdq %ymm14, %ymm13, %ymm13
    .elseif \part == 2
    VPROD   (\j==7)&&\start, $0x00, \hb+32*\j(%rsi), 15, 14, 9
    .else
    vpxor   %ymm13, %ymm15, %ymm14
    vpclmulqdq $0x01, \hb+32*(\j-1)(%rsi), %ymm15, %ymm15
    vpxor   %ymm15, %ymm9, %ymm9
    .endif
    .else
    .if \part == 0
    VPROD   (\j==6)&&\start, $0x10, \hb+32*(\j+1)(%rsi), 13, 15, 10
    .elseif \part == 1
    vpclmulqdq $0x11, \hb+32*\j(%rsi), %ymm13, %ymm13
    vpxor   %ymm13, %ymm10, %ymm10
    .elseif \part == 2
    VPROD   (\j==6)&&\start, $0x00, \hb+256+32*(\j+1)(%rsi), 14, 15, 11
    .else
    vpclmulqdq $0x01, \hb+256+32*\j(%rsi), %ymm14, %ymm14
    vpxor   %ymm14, %ymm11, %ymm11
    .endif
    .endif
.endm

/* The odd register's product of %ymm\src by \pw (qwords as \imm picks): the sum %ymm\sum
 * itself where the pair sets the sums (\set), else through %ymm\tmp into it. */
.macro VPROD set, imm, pw, src, tmp, sum
    .if \set
    vpclmulqdq \imm, \pw, %ymm\src, %ymm\sum
    .else
    vpclmulqdq \imm, \pw, %ymm\src, %ymm\tmp
    vpxor   %ymm\tmp, %ymm\sum, %ymm\sum
    .endif
.endm

/* EVEX: two pairs at a time, TGMULK (vaes-common.inc) says how; odd pairs in %ymm28..30, even
 * ones in %ymm13..15. Schoolbook products instead (four multiplies a pair, its two middle ones
 * added to the sum by one VPTERNLOGQ, no half-sums), though GCM's least-mix loop on ymm runs
 * 6.00 cycles a register that way against 6.50 in Karatsuba's (the loop before 7a6d316; now
 * 6.0-6.2 both), read 0.960-0.973x (gcm_kernels.sh, Sapphire Rapids VM, AES-128, 16 KiB,
 * 2026-12-07). */
.macro VGMULK part, j, src, disp, hb, start
    TGMULK  \part, \j%2, ymm, \disp+32*\j(\src), \hb+32*\j(%rsi), \hb+256+32*(\j+1)(%rsi), \
            \hb+256+32*\j(%rsi), \start&&(\j>=6), \start&&(\j==0), 28, 29, 30, 13, 14, 15
.endm

.macro VGMUL j, src, disp, hb, start
    .irp part, 0, 1, 2, 3
    VGMULP  \part, \j, \src, \disp, \hb, \start
    .endr
.endm

/* Round \r (1..8, key \key as VAESR takes it) with, where \mul, the multiply of pair
 * \j = 8 - \r (pairs 1 and 0, which take Y and so wait for the previous reduction, last:
 * loaded in round 7), its steps between the VAESENCs so that the scheduler sees VPCLMULQDQ
 * and VAESENC mixed evenly. */
.macro VRMUL r, key, j, mul, src, disp, hb, start
    .if \mul
    .if !VL
    vbroadcasti128 16*\r(%rdi), %ymm8
    .endif
    VRMULK  \key, \j, \src, \disp, \hb, \start
    .else
    VAESR   \r, \key
    .endif
.endm

.macro VRMULK key, j, src, disp, hb, start
    vaesenc \key, %ymm0, %ymm0
    .irp s, 1, 2, 3, 4, 5, 6, 7
    .if \s % 2                       /* step (s - 1) / 2 before the VAESENCs of pairs 1, 3, 5, 7 */
    VGMULP  (\s - 1) / 2, \j, \src, \disp, \hb, \start
    .endif
    vaesenc \key, %ymm\s, %ymm\s
    .endr
.endm

/* The eight pairs' multiplies alone (the last two groups encrypted, hashed after the loop). */
.macro VGHASH16 src, disp, hb, start
    .irp j, 7, 6, 5, 4, 3, 2, 1, 0
    VGMUL   \j, \src, \disp, \hb, \start
    .endr
.endm

/* One group: AES of sixteen counter blocks, with (\mul) the products of the sixteen blocks at
 * \disp(\src) by the powers at \hb (see VGMUL); output stored. */
.macro VGROUP mul, src, disp, hb, start
    VCTR16
    VRMUL   1, K1, 7, \mul, \src, \disp, \hb, \start
    VRMUL   2, K2, 6, \mul, \src, \disp, \hb, \start
    VRMUL   3, K3, 5, \mul, \src, \disp, \hb, \start
    VRMUL   4, K4, 4, \mul, \src, \disp, \hb, \start
    VRMUL   5, K5, 3, \mul, \src, \disp, \hb, \start
    VRMUL   6, K6, 2, \mul, \src, \disp, \hb, \start
    VRMUL   7, K7, 1, \mul, \src, \disp, \hb, \start
    VRMUL   8, K8, 0, \mul, \src, \disp, \hb, \start
    VAESR   9, K9
    cmpl    $10, %r11d
    je      1f
    VAESR   10, KFAR
    VAESR   11, KFAR
    cmpl    $12, %r11d
    je      1f
    VAESR   12, KFAR
    VAESR   13, KFAR
1:
    .if !VL
    vbroadcasti128 (%r10), %ymm8
    .endif
    VLAST   8, ymm, 32, VXOR, vmovdqu, KLAST, %r8, %rcx, %ymm13 /* stores after loads */
.endm

/* On to the next group; ZF set when none is left. */
.macro VNEXT
    addq    $256, %rcx
    addq    $256, %r8
    subq    $16, %r9
.endm

/* Each lane's 256-bit product [hi:mid:lo] reduced, both lanes at once, then the lanes added
 * into Y (%xmm12): ZGREDUCE of aes-gcm-vaes512.S on ymm, in the VEX form without VPTERNLOGQ
 * (mid made whole, lo folded into mid, mid into hi; the reduction is linear over GF(2), so
 * reducing each lane and adding them is the same sum as adding them first). Adding the lanes
 * first and reducing one, as GREDUCE of aes-gcm-aesni.S, took 19 instructions (three
 * VEXTRACTI128, two shifts) where this takes 12 (one VEXTRACTI128): 1.016-1.030x as fast at 16
 * KiB in five runs of gcm_kernels.sh (Zen 4 VM, AES-128; the same code on both sides reads
 * 0.98-1.03 there), 1.004-1.024x at 1 and 64 KiB. Scratch %ymm0. */
.macro VGREDUCE
    .if VL                          /* the same sums as below, in VPTERNLOGQ */
    TGREDUCE ymm, .Lvpoly(%rip)
    .else
    vpxor   %ymm9, %ymm11, %ymm11
    vpxor   %ymm10, %ymm11, %ymm11
    vpclmulqdq $0x10, .Lvpoly(%rip), %ymm9, %ymm0
    vpshufd $0x4e, %ymm9, %ymm9
    vpxor   %ymm0, %ymm9, %ymm9
    vpxor   %ymm9, %ymm11, %ymm11
    vpclmulqdq $0x10, .Lvpoly(%rip), %ymm11, %ymm0
    vpshufd $0x4e, %ymm11, %ymm11
    vpxor   %ymm0, %ymm11, %ymm11
    vpxor   %ymm11, %ymm10, %ymm10
    .endif
    vextracti128 $1, %ymm10, %xmm0
    vpxor   %xmm0, %xmm10, %xmm12
.endm

/* Blocks done (nblocks & ~15) in %rax and %r9, key pointers, counter pair and Y loaded; to
 * \out when there is nothing to do. */
.macro VENTRY out
    endbr64
    movq    %r9, %rax
    andq    $-16, %rax
    jz      \out
    movq    %rax, %r9
    movl    240(%rdi), %r11d
    movl    %r11d, %r10d
    shlq    $4, %r10
    addq    %rdi, %r10
    vmovdqu (%rdx), %xmm0
    vmovdqa .Lvgbswap(%rip), %xmm2
    vpshufb %xmm2, %xmm0, %xmm1
    vpaddd  .Lvd1(%rip), %xmm1, %xmm1
    vpshufb %xmm2, %xmm1, %xmm1
    vinserti128 $1, %xmm1, %ymm0, %ymm0
    vmovdqu %ymm0, -40(%rsp)
    vmovdqu 16(%rdx), %xmm12
    vpshufb .Lvgbswap(%rip), %xmm12, %xmm12
    .if VL
    .irp i, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25
    vbroadcasti32x4 16*(\i-16)(%rdi), %ymm\i
    .endr
    vbroadcasti32x4 (%r10), %ymm26
    vbroadcasti32x4 .Lvgbswap(%rip), %ymm31
    VCTRP
    .endif
.endm

/* State back to GCM byte order; no key stream or key left in registers. */
.macro VLEAVE
    vmovdqu -40(%rsp), %xmm0
    vmovdqu %xmm0, (%rdx)
    vpshufb .Lvgbswap(%rip), %xmm12, %xmm12
    vmovdqu %xmm12, 16(%rdx)
    vpxor   %xmm8, %xmm8, %xmm8
    vpxor   %xmm13, %xmm13, %xmm13
    .if VL                          /* round keys, the odd pairs' data and products */
    .irp r, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    vpxorq  %ymm\r, %ymm\r, %ymm\r
    .endr
    .endif
    vzeroupper                      /* also clears the upper lanes of the key stream */
    vpxor   %xmm0, %xmm0, %xmm0
    vpxor   %xmm1, %xmm1, %xmm1
    vpxor   %xmm2, %xmm2, %xmm2
    vpxor   %xmm3, %xmm3, %xmm3
    vpxor   %xmm4, %xmm4, %xmm4
    vpxor   %xmm5, %xmm5, %xmm5
    vpxor   %xmm6, %xmm6, %xmm6
    vpxor   %xmm7, %xmm7, %xmm7
.endm

/* size_t direct_aes_gcm_enc_vaes(k, gk, st, out, in, nblocks)
 * As direct_aes_gcm_enc (aes-gcm-aesni.S) with groups of sixteen, each hashed while the one
 * after next is encrypted (GCM_ENC_LAG2, vaes-common.inc, says why): hashed groups pair up,
 * g(2i) by H^32..H^17 (hsh32, at 1280 in the key) and g(2i+1) by H^16..H^1 (hsh, at 768), one
 * reduction per pair; a last group without a partner by H^16..H^1 alone. Zen 4 VM,
 * gcm_kernels.sh against hashing the next group (AES-128): 1.037-1.048x at 4 and 16 KiB,
 * 1.020x at 1 KiB. The EVEX form hashes four groups a reduction while four are left to encrypt
 * (H^64..H^49, hsh64 at 2304, and H^48..H^33, hsh48 at 1792, before the pair's powers), then
 * goes on in pairs: half the reductions, the Y they feed waited for half as often;
 * gcm_kernels.sh against pairs (Sapphire Rapids VM, AES-128, 16 KiB, 2026-12-07): encryption
 * 1.013-1.018x, decryption 1.004-1.024x, 1.014x over 21 repeats. */
    .globl  GCM_ENC
    .type   GCM_ENC, @function
    .p2align 4
GCM_ENC:
    VENTRY  .Lvge_ret
    .if VL
    GCM_ENC_LAG2 VGROUP, VNEXT, VGHASH16, VGREDUCE, 256, 1280, 768, 2304, 1792
    .else
    GCM_ENC_LAG2 VGROUP, VNEXT, VGHASH16, VGREDUCE, 256, 1280, 768
    .endif
    VLEAVE
.Lvge_ret:
    ret
    .size   GCM_ENC, .-GCM_ENC

/* size_t direct_aes_gcm_dec_vaes(k, gk, st, out, in, nblocks): as _enc_vaes, hashing the
 * input, two groups and one reduction at a time (the EVEX form four while four are left), a
 * last group alone */
    .globl  GCM_DEC
    .type   GCM_DEC, @function
    .p2align 4
GCM_DEC:
    VENTRY  .Lvgd_ret
    .if VL
    GCM_DEC_LOOP VGROUP, VNEXT, VGREDUCE, 256, 1280, 768, 2304, 1792
    .else
    GCM_DEC_LOOP VGROUP, VNEXT, VGREDUCE, 256, 1280, 768
    .endif
    VLEAVE
.Lvgd_ret:
    ret
    .size   GCM_DEC, .-GCM_DEC

    .section .rodata
    .p2align 6                      /* each 32-byte constant within a cache line */
.Lvpoly: .quad 1, 0xc200000000000000, 1, 0xc200000000000000
.Lvgbswap32:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lvgbswap:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lvd2:  .long 2, 0, 0, 0, 2, 0, 0, 0
.Lvb2:  .long 0, 0, 0, 2 << 24, 0, 0, 0, 2 << 24
.Lvd1:  .long 1, 0, 0, 0
.Lvd01: .long 0, 0, 0, 0, 1, 0, 0, 0

    .section .note.GNU-stack, "", @progbits
