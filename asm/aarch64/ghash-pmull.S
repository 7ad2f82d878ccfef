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
 */
	.arch	armv8-a+crypto
	.text

/* void armce_ghash(uint8_t xi[16], const uint8_t h[16], const uint8_t *in, size_t blocks)
 * v0 = xi, v1 = h, v2 = h with halves swapped, v3 = 0x87 in both halves, v4 = zero. */
	.globl	armce_ghash
	.type	armce_ghash, %function
armce_ghash:
	cbz	x3, 2f
	ld1	{v0.16b}, [x0]
	ld1	{v1.16b}, [x1]
	rbit	v0.16b, v0.16b
	rbit	v1.16b, v1.16b
	ext	v2.16b, v1.16b, v1.16b, #8
	mov	x9, #0x87
	dup	v3.2d, x9
	movi	v4.16b, #0
1:	ld1	{v5.16b}, [x2], #16
	rbit	v5.16b, v5.16b
	eor	v0.16b, v0.16b, v5.16b

	pmull	v5.1q, v0.1d, v1.1d		// lo = a0*b0
	pmull2	v6.1q, v0.2d, v1.2d		// hi = a1*b1
	pmull	v7.1q, v0.1d, v2.1d		// a0*b1
	pmull2	v16.1q, v0.2d, v2.2d		// a1*b0
	eor	v7.16b, v7.16b, v16.16b		// mid
	ext	v16.16b, v4.16b, v7.16b, #8	// mid << 64 (low half of 256)
	eor	v5.16b, v5.16b, v16.16b
	ext	v16.16b, v7.16b, v4.16b, #8	// mid >> 64 (high half)
	eor	v6.16b, v6.16b, v16.16b		// now P3:P2 = v6, P1:P0 = v5

	pmull2	v7.1q, v6.2d, v3.2d		// W = P3 * 0x87, added at bit 64
	ext	v16.16b, v4.16b, v7.16b, #8
	eor	v5.16b, v5.16b, v16.16b		// P1 ^= W.lo
	ext	v16.16b, v7.16b, v4.16b, #8
	eor	v6.16b, v6.16b, v16.16b		// P2 ^= W.hi (P3 is now spent)
	pmull	v7.1q, v6.1d, v3.1d		// V = P2 * 0x87, added at bit 0
	eor	v0.16b, v5.16b, v7.16b

	subs	x3, x3, #1
	b.ne	1b
	rbit	v0.16b, v0.16b
	st1	{v0.16b}, [x0]
2:	ret
	.size	armce_ghash, . - armce_ghash

	.section .note.GNU-stack, "", %progbits
