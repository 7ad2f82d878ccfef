/* GHASH (NIST SP 800-38D 6.4) with the ARMv8 64x64 -> 128-bit carry-less multiply (PMULL,
 * PMULL2 on .1q). Contract: asm/direct_arm.h. Needs HWCAP_PMULL; the C glue checks.
 *
 * GCM numbers the bits of a block from the most significant bit of byte 0 (x^0) on. RBIT
 * reverses the bits of every byte, after which bit i of the little-endian 128-bit value is
 * the coefficient of x^i: plain polynomial order, so the product is an ordinary carry-less
 * product and the reduction by x^128 + x^7 + x^2 + x + 1 folds the high half down with
 * x^128 = 0x87. RBIT again gives the specification's byte order back.
 *
 * Product of a = a1:a0 and b = b1:b0 (64-bit halves), as four 64-bit words P3:P2:P1:P0:
 *   lo = a0*b0, hi = a1*b1, mid = a0*b1 ^ a1*b0; P = hi<<128 ^ mid<<64 ^ lo.
 * Reduction in two folds: P3*0x87 into P2:P1, then (new P2)*0x87 into P1:P0. After the
 * first fold P2 has grown by at most 7 bits, so the second product stays below 2^128.
 *
 * Four blocks at a time use the powers of H (the glue computes them with this function):
 *   X' = (X ^ b0)*H^4 ^ b1*H^3 ^ b2*H^2 ^ b3*H,
 * the four products summed unreduced (reduction is linear) and reduced once.
 *
 * Registers: v0 = X; v16..v19 = H^4..H^1 and v20..v23 the same with halves swapped;
 * v24 = 0x87 in both halves; v25 = zero; v26/v27/v28 = lo/hi/mid sums; v1..v7 temporaries.
 */
	.arch	armv8-a+crypto
	.text

/* lo/hi/mid ^= the partial products of \a and the power in \h (\hs: halves swapped). */
.macro	mulacc a, h, hs
	pmull	v5.1q, \a\().1d, \h\().1d
	pmull2	v6.1q, \a\().2d, \h\().2d
	pmull	v7.1q, \a\().1d, \hs\().1d
	eor	v26.16b, v26.16b, v5.16b
	pmull2	v5.1q, \a\().2d, \hs\().2d
	eor	v27.16b, v27.16b, v6.16b
	eor	v28.16b, v28.16b, v7.16b
	eor	v28.16b, v28.16b, v5.16b
.endm

/* v0 = (hi:lo with mid folded in) mod the GCM polynomial. */
.macro	reduce
	ext	v5.16b, v25.16b, v28.16b, #8	// mid << 64 (low half of 256)
	eor	v26.16b, v26.16b, v5.16b
	ext	v5.16b, v28.16b, v25.16b, #8	// mid >> 64 (high half)
	eor	v27.16b, v27.16b, v5.16b	// now P3:P2 = v27, P1:P0 = v26
	pmull2	v6.1q, v27.2d, v24.2d		// W = P3 * 0x87, added at bit 64
	ext	v5.16b, v25.16b, v6.16b, #8
	eor	v26.16b, v26.16b, v5.16b	// P1 ^= W.lo
	ext	v5.16b, v6.16b, v25.16b, #8
	eor	v27.16b, v27.16b, v5.16b	// P2 ^= W.hi (P3 is now spent)
	pmull	v6.1q, v27.1d, v24.1d		// V = P2 * 0x87, added at bit 0
	eor	v0.16b, v26.16b, v6.16b
.endm

.macro	clear_sums
	movi	v26.16b, #0
	movi	v27.16b, #0
	movi	v28.16b, #0
.endm

/* void armce_ghash(uint8_t xi[16], const uint8_t htable[4][16], const uint8_t *in,
 *                  size_t blocks); htable[i] = H^(i+1). */
	.globl	armce_ghash
	.type	armce_ghash, %function
armce_ghash:
	cbz	x3, 9f
	ld1	{v0.16b}, [x0]
	rbit	v0.16b, v0.16b
	ld1	{v19.16b, v20.16b, v21.16b, v22.16b}, [x1]	// H^1..H^4
	rbit	v19.16b, v19.16b
	rbit	v18.16b, v20.16b
	rbit	v17.16b, v21.16b
	rbit	v16.16b, v22.16b
	ext	v20.16b, v16.16b, v16.16b, #8
	ext	v21.16b, v17.16b, v17.16b, #8
	ext	v22.16b, v18.16b, v18.16b, #8
	ext	v23.16b, v19.16b, v19.16b, #8
	mov	x9, #0x87
	dup	v24.2d, x9
	movi	v25.16b, #0
	cmp	x3, #4
	b.lo	2f
1:	ld1	{v1.16b, v2.16b, v3.16b, v4.16b}, [x2], #64
	rbit	v1.16b, v1.16b
	rbit	v2.16b, v2.16b
	rbit	v3.16b, v3.16b
	rbit	v4.16b, v4.16b
	eor	v1.16b, v1.16b, v0.16b
	clear_sums
	mulacc	v1, v16, v20
	mulacc	v2, v17, v21
	mulacc	v3, v18, v22
	mulacc	v4, v19, v23
	reduce
	sub	x3, x3, #4
	cmp	x3, #4
	b.hs	1b
	cbz	x3, 3f
2:	ld1	{v1.16b}, [x2], #16
	rbit	v1.16b, v1.16b
	eor	v1.16b, v1.16b, v0.16b
	clear_sums
	mulacc	v1, v19, v23
	reduce
	subs	x3, x3, #1
	b.ne	2b
3:	rbit	v0.16b, v0.16b
	st1	{v0.16b}, [x0]
9:	ret
	.size	armce_ghash, . - armce_ghash

	.section .note.GNU-stack, "", %progbits
