/* AES-GCM (NIST SP 800-38D) stitched on 512-bit registers: VAES counter mode (VAESENC
 * EVEX.512, CPUID.7.0:ECX[9]) and VPCLMULQDQ GHASH (EVEX.512, CPUID.7.0:ECX[10]) with
 * AVX512F (CPUID.7.0:EBX[16]; XCR0 bits 5-7 for the opmask and ZMM state) and AVX512BW
 * (CPUID.7.0:EBX[30]) for VPSHUFB zmm; the method of aes-gcm-vaes.S with four blocks per
 * register. Thirty-two blocks per group as eight zmm quads, the hashed groups in pairs as
 * the ymm kernel's: while the counter quads go through the rounds, quad j of the group to
 * hash is multiplied between the rounds by H^(64-4j)..H^(61-4j) in the first group of a pair
 * (quads 0..3 from hsh64, 4..7 from hsh48 of struct direct_ghash_key) and by
 * H^(32-4j)..H^(29-4j) in the second (hsh32, hsh: the layout the ymm kernel reads), in
 * 64-byte steps, the powers times x as aes-gcm-aesni.S explains; both groups' products go
 * into the same sums, and once per pair (64 blocks) the four lanes are reduced, then added
 * into one. A group without a partner (nblocks & 32) is hashed alone by H^32..H^1. EVEX only
 * on zmm (no AVX512VL); xmm/ymm work is VEX on registers 0..15. C prototypes: asm/direct.h.
 * AT&T syntax, VZEROUPPER at the end.
 *
 * Registers: %zmm0..7 AES states (reduction scratch once stored), %zmm8 the counter quad
 * [c, c+1, c+2, c+3] (GCM byte order, stepping as inc32), %zmm9/10/11 low/high/middle
 * product sums (kept from the first group of a pair to the second: ZCTR32, ZROUNDS and ZLAST
 * touch only %zmm0..8, 13, 29), %xmm12 = Y (upper lanes zero), %zmm13..15 an odd quad's
 * data and products, %zmm26..28 an even quad's (two quads are added to the sums at once, by
 * VPTERNLOGQ), %zmm16 round key 0, %zmm17..25 rounds 1..9, %zmm29 rounds 10..13
 * (AES-192/256), loaded in their turn, %zmm30 the last round key, %zmm31 the byte swap of
 * each lane. %rdi key, %rsi GHASH key, %rdx state, %rcx out, %r8 in, %r9 blocks left,
 * %r10d the counter's last byte, %r11d rounds.
 *
 * Why so (Zen 5, family 0x1a, measured interleaved by tests/bench/gcm_kernels.sh): the
 * multiplier is the bound (26 VPCLMULQDQ a group at 2 cycles when each group was reduced,
 * 25 now), but the vector ALU work beside it (byte swaps, Karatsuba half-sums, the sums,
 * the fold) costs AES issue slots; the instructions of one group run alone and without
 * dependencies took 57 cycles against 52 for the multiplies. Adding two quads' products in
 * one VPTERNLOGQ and reducing the four lanes before folding them (the reduction is linear)
 * take 18 of the loop's 64 vector ALU instructions away, for four key broadcasts (loads) a
 * group with AES-256, two with AES-192.
 * On Sapphire Rapids (family 6 model 0xa7, a VM) one reduction per two groups instead of
 * one a group, for 1 KiB more of powers in the key, and ZGREDUCE's folding lo into mid, then
 * mid into hi (four instructions fewer) made the kernels 1.00-1.03x as fast with the key
 * 64-byte aligned (AES-128 1.01 enc, 1.03 dec; AES-256 about 1.01), 1.03-1.07x while the
 * powers' 64-byte loads split cache lines. The key (struct direct_ghash_key) is 64-byte
 * aligned: with it at 16, 32 or 48 bytes past a line this kernel ran 0.93-0.95x as fast
 * (AES-128; AES-256 the same), aes-gcm-vaes.S 0.98-1.02x (AES-128) and 0.94-0.96x
 * (AES-256), the key alone moved, timed interleaved in one process.
 * Where the remaining 29 % is not (Zen 5 VM, 2026-12-05, gcm_kernels.sh against this kernel,
 * AES-128, 16 KiB, a niced build on the other CPU): the kernel runs 2.1 core cycles per 16 B,
 * 8.6 a register of four blocks, where GCM's least-mix loop (silicon.h) runs 6.1: 71 % of the
 * ceiling against the 80 % issue 15 asks. The multiplies bound the loop as above, yet the gap
 * is not theirs alone: turning the middle multiplies into XORs (all but a pair's first quad
 * 7's, 7 or 8 of a group's 25) gave only 1.05x encrypting, 1.13x decrypting; the round-0 XOR
 * taken out (8 vector ALU instructions a group) 1.02-1.03x; the powers in a register for
 * the memory operands 0.99-1.04x. Spreading the eight quads' multiply steps (a load and three
 * multiplies each, 32 steps) over rounds 1..9 instead of 1..8 gave 0.95-1.00x, not kept (the
 * out-of-order core seems to overlap them with the last rounds already). Each half alone
 * (same VM, a later session, gcm_kernels.sh with GCMK_NOCHECK, 9 repeats): every VAESENC
 * deleted, the multiplies and their ALU work ran 1.76-1.92 cycles per 16 B (1.22-1.23x),
 * against the 1.56 the multiplier's own throughput allows; every VPCLMULQDQ turned into a
 * VPXORQ, the rounds and theirs ran 1.67-1.78 (1.20x and more), against AESENC's 1.25.
 * Neither half reaches its unit's bound alone, so the loss is not in their overlap only; the
 * byte swaps turned into XORs (1.00-1.02x) and the Karatsuba VPSHUFD (then one a quad) into
 * an AND (0.99x) are not it either. The ymm kernel (aes-gcm-vaes.S) reads the same:
 * multiplies into XORs 1.19-1.28x, rounds deleted 1.31-1.35x, rounds into XORs 0.96-1.03x.
 * Nor is it the rounds' latency (8 quads in flight at AESENC's latency 4 and two a cycle just
 * fill the unit, so a late round would delay its quad's chain): every VAESENC reading a
 * constant register
 * instead of its quad, no chain left, ran 0.94-1.00x (four runs, a later session); nor the
 * counters (the quads loaded ready-whitened, the 16 VPADDD and VPXORQ gone: 1.01-1.04x),
 * nor the data's memory traffic (the loads of the blocks hashed and XORed and the stores
 * all gone: 1.00-1.05x). Each part of the kernel the least-mix loop lacks costs a few
 * percent; no one part is the gap. Those shares are of one measurement of the limits; of the
 * fastest of 31 (direct.sh since, tests/bench/direct_bench.c says why) the stitched kernels
 * read 61-69 % (zmm), 65-68 % (ymm) of theirs.
 * Sapphire Rapids VM again (family 6 model 0xa7, 2026-12-06; direct.sh: AES-128 77.3-78.0 %
 * of the ceiling, AES-256 90.6-91.6 %). Its limits: VAESENC zmm and VPCLMULQDQ zmm 1.02
 * cycles each, GCM's least-mix loop AES-bound (10.1 a register). Only port 0 runs VAESENC zmm,
 * only port 5 the multiplies, byte swaps and VPSHUFD, and a 512-bit VPXORQ, VPADDD or
 * VPTERNLOGQ may take either. A group has 80 rounds, ~43 port-5 instructions and ~47 of
 * either: ~85 cycles if the two ports shared evenly, against the ~97 run (3.04 per 16 B,
 * gcm_kernels.sh), as if a third of the either-port ones took port 0 from the rounds. Timing
 * only: the 8 round-0 VPXORQ deleted 1.04-1.05x, the 7 VPADDD as well (as moves) 1.07x. Tried,
 * each correct (t_direct): (1) the counters in one VPTERNLOGQ a quad: c + i is base ^ m for
 * m = (c mod 32) + i < 32 (base = c with its low five bits cleared) and next ^ (m - 32) above
 * (next = inc32(base, 32)), so a quad is A ^ (B & T): A = base ^ key 0, B = base ^ next ^ 0x1f
 * in the last byte, T the call's m per lane (on the stack); 11 instructions a group for 16.
 * (2) Schoolbook multiplies: four a quad, the two middle products added by one VPTERNLOGQ, no
 * half-sums: 4.5 either-port instructions fewer for 8 more multiplies (a cost where the
 * multiplier bounds the loop, as on Zen 5 above). Alone each read 0.97-0.99x; together
 * 1.036-1.046x in five processes, and direct.sh read AES-128 81.0 % encrypting, 79.1 % and
 * 85.9 % decrypting. Not kept: with the functions' start moved in 16-byte steps (the loop
 * 64-byte aligned or not) the pair read 0.97-1.04x where this kernel reads 0.99-1.00x at every
 * step, and over 16 page offsets (256-byte steps) 1.02-1.05x but 0.98x at one, a cliff in
 * code layout that this VM, without performance counters, cannot locate; AES-256 read
 * 0.95-0.96x, 1 KiB 0.97-0.98x (the call's 512 bytes of T), 4 KiB 1.01-1.03x. A gain the link's
 * layout can take away, paid for by AES-256, is not one yet, and (2) would be Intel's alone.
 * The same VM, 2026-12-07, timing only (GCMK_NOCHECK): the counters and round 0 as one VPXORQ a
 * quad with a 64-byte table row (what a table of whitened last bytes would cost, the 8 VPADDD
 * and 8 VPXORQ gone) read 1.011-1.021x with the rows 64-byte aligned, 0.968-0.987x with them 32
 * bytes off (a message's groups start at counter 2 mod 32: such rows split cache lines), so no
 * counter form is the gap here either: the quads merely loaded, no counter work at all, read
 * 1.051-1.070x, but their last bytes made as the least-mix loop supposes (general registers: a
 * byte load from a table of b ^ k15 and a byte store a block, 64 instructions a group, into a
 * buffer two groups ahead) read 0.907-0.970x, and 0.958-0.987x with the quads loaded from
 * elsewhere (so not store forwarding). Round 1 from a per-key table as well (counter blocks
 * that differ in the last byte alone differ, after round 1, in column 0 alone: E's round 1 is
 * Base ^ D[last byte], Bernstein and Schwabe's counter-mode caching; 8 VAESENC a group fewer)
 * read 1.060-1.072x: not built, as it would beat the ceiling by skipping a tenth of the rounds
 * the ceiling counts, not by running them closer to it. The same VM, later that day: the next
 * group's counters, whitened, made after this group's last multiplies (after round 8, where
 * port 5 has nothing left to do) into eight 64-byte stack slots and loaded at the group's
 * start (correct, t_direct), read 0.921-0.927x; where a round's four multiply steps sit
 * among its VAESENCs does not matter here (each after the VAESENC of quads 1, 3, 5, 7 instead
 * of before: 0.990-1.015x; all four before the round's VAESENCs: 0.996-0.999x). What did
 * gain is TGMULK's shared half-sums (vaes-common.inc) and ZCTR32's counter byte in %r10d.
 * Tried and not kept (same VM, 2026-12-07, a later session): four groups a reduction while
 * four are left, as the ymm kernel's EVEX form (GCM_ENC_LAG2's \h4 and \h3 from H^128..H^65
 * in four more tables, 2 KiB more key; correct, t_direct, and 420 failures with one table's
 * offset wrong) read at 16 KiB 1.012-1.017x encrypting and 0.997-1.003x decrypting (four
 * runs), at 4 KiB 1.017 and 1.043x, AES-256 1.009 and 0.992x, but at 64 KiB 0.970-0.978x
 * both ways in four runs: with 128 KiB of data streaming through L1 the larger set of
 * powers seems to be evicted the more (our reading). A gain at the size issue 15 judges,
 * paid for where it does not look, is not one.
 * The Zen 5 VM again (family 0x1a model 2, 2026-12-07; this kernel 2.05-2.13 cycles per 16 B,
 * direct.sh 73-77 % of its ceiling in seven processes, host states apart). What the vector
 * pipes take, in loops of independent instructions timed against dependent adds: VAESENC
 * two a cycle, VPXORQ, VPTERNLOGQ and VPUNPCK*QDQ four, VPSHUFB, VPERMB and VPERMT2B two
 * (sixteen VAESENC with eight VPSHUFB 10.1 cycles, with eight VPXORQ 7.9), VPCLMULQDQ one per
 * two at every width, and beside other work each about three XORs' worth of issue (eight
 * with 48 VPXORQ 18 cycles, with 32 16; sixteen VAESENC, eight VPCLMULQDQ and 32 VPXORQ 18).
 * So a group's 80 VAESENC, 25 VPCLMULQDQ and ~60 others need ~54 cycles of the four pipes,
 * against the 50 of the multiplier alone and the ~67 run; the same instructions in this
 * kernel's order, registers only and no chains between groups, ran 53-54, with its memory
 * operands and stores 55-61. Tried, each correct (t_direct), neither kept: the pair's T and U
 * by two VPERMI2B (AVX512_VBMI) from the raw data, no byte swaps or unpacks (two vector ALU
 * instructions a pair fewer, two index loads more) 0.96-0.99x; the counters as aes-gcm-vaes.S's
 * EVEX form makes them (a VPXORQ a quad of P and four 16-byte rows, the rows table placed 32
 * bytes past a line so that a message's quads, from b = 2 mod 4, load whole lines)
 * 0.995-1.014x at 16 KiB. Nor is it the function's place: at 0, 16, 32 and 48 bytes past a
 * line direct.sh read the same within its noise (six alternating pairs of processes). */

#include <cet.h> /* with -fcf-protection: marks the object IBT/SHSTK-compatible (the entries
                     start with ENDBR64, returns are plain RET) */

#include "vaes-common.inc"

    .text

/* Counters for the group into %zmm0..7, whitened with round key 0; the quad moves by 32:
 * VPADDD of 4 << 24 per step while the last byte of every lane takes the 32 without a carry
 * (c + 3 + 32 <= 255: c <= 0xdc), else through byte-reversed 32-bit integers (inc32 wraps
 * mod 2^32 there; see aes-gcm-aesni.S's CTR8). %r10d holds c (ZENTRY reads it; the fast path
 * adds 32, the other reads it again): a VPEXTRB a group, one instruction on port 0 and one on
 * port 5 here, the rounds' and the multiplies' ports, cost more than the ADD; and quad 0 is
 * whitened from %zmm8 directly, not moved first. Sapphire Rapids VM, gcm_kernels.sh, AES-128,
 * 16 KiB, 2026-12-07: 1.007-1.019x. */
/* %zmm1..7 and the next quad %zmm8 from quad 0 (in \first, %zmm0 or 8), a step of %zmm13
 * each. */
.macro ZSTEP8 first
    vpaddd  %zmm13, \first, %zmm1
    vpaddd  %zmm13, %zmm1, %zmm2
    vpaddd  %zmm13, %zmm2, %zmm3
    vpaddd  %zmm13, %zmm3, %zmm4
    vpaddd  %zmm13, %zmm4, %zmm5
    vpaddd  %zmm13, %zmm5, %zmm6
    vpaddd  %zmm13, %zmm6, %zmm7
    vpaddd  %zmm13, %zmm7, %zmm8
.endm

.macro ZCTR32
    cmpl    $0xdc, %r10d
    ja      2f
    addl    $32, %r10d
    vmovdqa64 .Lzb4(%rip), %zmm13
    vpxorq  %zmm16, %zmm8, %zmm0
    ZSTEP8  %zmm8
    .irp j, 1, 2, 3, 4, 5, 6, 7
    vpxorq  %zmm16, %zmm\j, %zmm\j
    .endr
    jmp     3f
2:
    vmovdqa64 .Lzd4(%rip), %zmm13
    vpshufb %zmm31, %zmm8, %zmm0
    ZSTEP8  %zmm0
    vpshufb %zmm31, %zmm8, %zmm8
    vpextrb $15, %xmm8, %r10d
    .irp j, 0, 1, 2, 3, 4, 5, 6, 7
    vpshufb %zmm31, %zmm\j, %zmm\j
    vpxorq  %zmm16, %zmm\j, %zmm\j
    .endr
3:
.endm

/* Quad \j of the group at \disp(\src) times its four powers at \h in the key (Karatsuba
 * half-sums 256 bytes on), added to the sums, two quads at a time as TGMULK (vaes-common.inc)
 * says: odd quads in %zmm13..15, even ones in %zmm26..28 (the odd partner's powers at \h + 64).
 * \start: this group starts a sum (the first of a pair, or a group alone), so quads 7 and 6
 * set the sums and quad 0 takes Y; else quads 7 and 6 add to the sums the group before left. */
.macro ZGMULQ part, j, src, disp, h, start
    TGMULK  \part, \j%2, zmm, \disp+64*\j(\src), \h(%rsi), \h+64+256(%rsi), \h+256(%rsi), \
            \start&&(\j>=6), \start&&(\j==0), 13, 14, 15, 26, 27, 28
.endm

/* The powers of quad \j, 64 bytes a quad: \hb = 768 (hsh), H^16..H^1 for quads 4..7 and
 * H^32..H^17 (hsh32, 512 bytes on) for 0..3; \hb = 1792 (hsh48), H^48..H^33 and H^64..H^49
 * (hsh64). */
.macro ZGMULP part, j, src, disp, hb, start
    .if \j < 4
    ZGMULQ  \part, \j, \src, \disp, \hb+512+64*\j, \start
    .else
    ZGMULQ  \part, \j, \src, \disp, \hb+64*(\j-4), \start
    .endif
.endm

/* Round \r (1..8, key %zmm\key) with, where \mul, the multiply of quad \j = 8 - \r (quad 0,
 * which waits for the previous reduction, last), its steps between the VAESENCs. */
.macro ZRMUL key, j, mul, src, disp, hb, start
    .if \mul
    vaesenc %zmm\key, %zmm0, %zmm0
    .irp s, 1, 2, 3, 4, 5, 6, 7
    .if \s % 2                       /* step (s - 1) / 2 before the VAESENCs of quads 1, 3, 5, 7 */
    ZGMULP  (\s - 1) / 2, \j, \src, \disp, \hb, \start
    .endif
    vaesenc %zmm\key, %zmm\s, %zmm\s
    .endr
    .else
    ZROUND  8, %zmm\key
    .endif
.endm

/* The eight quads' multiplies alone (the last two groups encrypted, hashed after the loop). */
.macro ZGHASH32 src, disp, hb, start
    .irp j, 7, 6, 5, 4, 3, 2, 1, 0
    .irp part, 0, 1, 2, 3
    ZGMULP  \part, \j, \src, \disp, \hb, \start
    .endr
    .endr
.endm

/* One group: AES of thirty-two counter blocks, with (\mul) the products of the thirty-two
 * blocks at \disp(\src) by the powers at \hb (see ZGMULP), added into the sums or (\start)
 * setting them; output stored. */
.macro ZGROUP mul, src, disp, hb, start
    ZCTR32
    ZRMUL   17, 7, \mul, \src, \disp, \hb, \start
    ZRMUL   18, 6, \mul, \src, \disp, \hb, \start
    ZRMUL   19, 5, \mul, \src, \disp, \hb, \start
    ZRMUL   20, 4, \mul, \src, \disp, \hb, \start
    ZRMUL   21, 3, \mul, \src, \disp, \hb, \start
    ZRMUL   22, 2, \mul, \src, \disp, \hb, \start
    ZRMUL   23, 1, \mul, \src, \disp, \hb, \start
    ZRMUL   24, 0, \mul, \src, \disp, \hb, \start
    ZROUNDS 8, 9, %r11d, 29
    ZLAST   8, %r8, %rcx, %zmm13
.endm

/* On to the next group; ZF set when none is left. */
.macro ZNEXT
    addq    $512, %rcx
    addq    $512, %r8
    subq    $32, %r9
.endm

/* The Karatsuba middle made whole (mid ^= lo ^ hi) and each lane's 256-bit product
 * [hi:mid:lo] reduced, four lanes at once; then the lanes added into Y (%xmm12, upper lanes
 * zero). The two folds of GREDUCE (aes-gcm-aesni.S: a carry-less multiply by .Lzpoly's 0xc2
 * << 56, the halves swapped) go lo into mid, then mid into hi, as the Linux kernel's
 * aes-gcm-avx10-x86_64.S does: the same sum as splitting mid into lo and hi first, without
 * the two shifts and two XORs that takes. Reducing before folding is the same sum (the
 * reduction is linear over GF(2)) in fewer instructions. Scratch %zmm0. */
.macro ZGREDUCE
    TGREDUCE zmm, .Lzpoly(%rip)
    vextracti64x4 $1, %zmm10, %ymm0
    vpxor   %ymm0, %ymm10, %ymm10
    vextracti128 $1, %ymm10, %xmm0
    vpxor   %xmm0, %xmm10, %xmm12
.endm

/* Blocks done (nblocks & ~31) in %rax and %r9, round keys broadcast, counter quad, its last
 * byte (%r10d, ZCTR32) and Y loaded; to \out when there is nothing to do (no zmm state
 * touched). */
.macro ZENTRY out
    endbr64
    movq    %r9, %rax
    andq    $-32, %rax
    jz      \out
    movq    %rax, %r9
    movl    240(%rdi), %r11d
    movl    %r11d, %r10d
    shlq    $4, %r10
    ZKEYS   %r10, 25
    vbroadcasti32x4 .Lzgbswap(%rip), %zmm31
    vbroadcasti32x4 (%rdx), %zmm8
    vpshufb %zmm31, %zmm8, %zmm8
    vpaddd  .Lzd0123(%rip), %zmm8, %zmm8
    vpshufb %zmm31, %zmm8, %zmm8
    vpextrb $15, %xmm8, %r10d
    vmovdqu 16(%rdx), %xmm12
    vpshufb .Lzgbswap(%rip), %xmm12, %xmm12
.endm

/* State back to GCM byte order; no key, key stream or product left in registers (VEX.128
 * zeroes a whole zmm0..15, EVEX.512 zeroes zmm16..31). */
.macro ZLEAVE
    vmovdqu %xmm8, (%rdx)
    vpshufb .Lzgbswap(%rip), %xmm12, %xmm12
    vmovdqu %xmm12, 16(%rdx)
    ZWIPE   15
.endm

/* size_t direct_aes_gcm_enc_vaes512(k, gk, st, out, in, nblocks)
 * As direct_aes_gcm_enc_vaes (aes-gcm-vaes.S) with groups of thirty-two, each hashed while
 * the one after next is encrypted (GCM_ENC_LAG2, vaes-common.inc, says why): hashed groups
 * pair up, g(2i) by H^64..H^33 (hsh64, hsh48 at 1792) and g(2i+1) by H^32..H^1 (hsh32, hsh
 * at 768), one reduction per pair; a last group without a partner by H^32..H^1 alone. Zen 4
 * VM, gcm_kernels.sh against hashing the next group (AES-128): 1.021-1.025x at 16 and
 * 64 KiB, 1.010x at 4 KiB, 1.000x at 2 KiB, 0.990-0.991x at 1 KiB (two groups, both hashed
 * after the loop). */
    .globl  direct_aes_gcm_enc_vaes512
    .type   direct_aes_gcm_enc_vaes512, @function
    .p2align 4
direct_aes_gcm_enc_vaes512:
    ZENTRY  .Lzge_ret
    GCM_ENC_LAG2 ZGROUP, ZNEXT, ZGHASH32, ZGREDUCE, 512, 1792, 768
    ZLEAVE
.Lzge_ret:
    ret
    .size   direct_aes_gcm_enc_vaes512, .-direct_aes_gcm_enc_vaes512

/* size_t direct_aes_gcm_dec_vaes512(k, gk, st, out, in, nblocks): as _enc_vaes512, hashing
 * each group's input while it is decrypted, two groups and one reduction at a time, a last
 * group alone */
    .globl  direct_aes_gcm_dec_vaes512
    .type   direct_aes_gcm_dec_vaes512, @function
    .p2align 4
direct_aes_gcm_dec_vaes512:
    ZENTRY  .Lzgd_ret
    GCM_DEC_LOOP ZGROUP, ZNEXT, ZGREDUCE, 512, 1792, 768
    ZLEAVE
.Lzgd_ret:
    ret
    .size   direct_aes_gcm_dec_vaes512, .-direct_aes_gcm_dec_vaes512

    .section .rodata
    .p2align 6
.Lzb4:  .long 0, 0, 0, 4 << 24, 0, 0, 0, 4 << 24, 0, 0, 0, 4 << 24, 0, 0, 0, 4 << 24
.Lzd4:  .long 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0
.Lzd0123: .long 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0
.Lzgbswap:
    .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
    .p2align 6
.Lzpoly: .quad 1, 0xc200000000000000, 1, 0xc200000000000000
        .quad 1, 0xc200000000000000, 1, 0xc200000000000000

    .section .note.GNU-stack, "", @progbits
