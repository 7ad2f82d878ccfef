/* SHA-1 compression (FIPS 180-4 6.1.2) with the ARMv8 SHA1 instructions. Contract:
 * asm/direct_arm.h. Needs HWCAP_SHA1; the C glue checks.
 *
 * SHA1C/SHA1P/SHA1M do four rounds (Ch, Parity, Maj) on ABCD (v0) with E in a scalar;
 * SHA1H gives the E of the next four rounds, rol(A, 30), from the ABCD before them, so E
 * alternates between s1 and s20. SHA1SU0/SU1 build schedule quad j+4 from quads j..j+3
 * (ring v4..v7). Constants K0..K3 in v16..v19.
 */
	.arch	armv8-a+crypto
	.text

.macro	quad op, k, w, w1, w2, w3, ecur, enext, next
	add	v21.4s, \w\().4s, \k\().4s
	sha1h	\enext, s0
	\op	q0, \ecur, v21.4s
	.if	\next
	sha1su0	\w\().4s, \w1\().4s, \w2\().4s
	sha1su1	\w\().4s, \w3\().4s
	.endif
.endm

.macro	kconst reg, val
	movz	w9, #(\val & 0xffff)
	movk	w9, #(\val >> 16), lsl #16
	dup	\reg\().4s, w9
.endm

/* void armce_sha1_blocks(uint32_t state[5], const uint8_t *in, size_t blocks) */
	.globl	armce_sha1_blocks
	.type	armce_sha1_blocks, %function
armce_sha1_blocks:
	cbz	x2, 2f
	ld1	{v0.4s}, [x0]
	ldr	s1, [x0, #16]
	kconst	v16, 0x5a827999
	kconst	v17, 0x6ed9eba1
	kconst	v18, 0x8f1bbcdc
	kconst	v19, 0xca62c1d6
1:	ld1	{v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	rev32	v4.16b, v4.16b
	rev32	v5.16b, v5.16b
	rev32	v6.16b, v6.16b
	rev32	v7.16b, v7.16b
	mov	v2.16b, v0.16b
	mov	v3.16b, v1.16b
	/* rounds 0-19: Ch */
	quad	sha1c, v16, v4, v5, v6, v7, s1, s20, 1
	quad	sha1c, v16, v5, v6, v7, v4, s20, s1, 1
	quad	sha1c, v16, v6, v7, v4, v5, s1, s20, 1
	quad	sha1c, v16, v7, v4, v5, v6, s20, s1, 1
	quad	sha1c, v16, v4, v5, v6, v7, s1, s20, 1
	/* rounds 20-39: Parity */
	quad	sha1p, v17, v5, v6, v7, v4, s20, s1, 1
	quad	sha1p, v17, v6, v7, v4, v5, s1, s20, 1
	quad	sha1p, v17, v7, v4, v5, v6, s20, s1, 1
	quad	sha1p, v17, v4, v5, v6, v7, s1, s20, 1
	quad	sha1p, v17, v5, v6, v7, v4, s20, s1, 1
	/* rounds 40-59: Maj */
	quad	sha1m, v18, v6, v7, v4, v5, s1, s20, 1
	quad	sha1m, v18, v7, v4, v5, v6, s20, s1, 1
	quad	sha1m, v18, v4, v5, v6, v7, s1, s20, 1
	quad	sha1m, v18, v5, v6, v7, v4, s20, s1, 1
	quad	sha1m, v18, v6, v7, v4, v5, s1, s20, 1
	/* rounds 60-79: Parity; the last four quads need no further schedule */
	quad	sha1p, v19, v7, v4, v5, v6, s20, s1, 1
	quad	sha1p, v19, v4, v5, v6, v7, s1, s20, 0
	quad	sha1p, v19, v5, v6, v7, v4, s20, s1, 0
	quad	sha1p, v19, v6, v7, v4, v5, s1, s20, 0
	quad	sha1p, v19, v7, v4, v5, v6, s20, s1, 0
	add	v0.4s, v0.4s, v2.4s
	add	v1.4s, v1.4s, v3.4s
	subs	x2, x2, #1
	b.ne	1b
	st1	{v0.4s}, [x0]
	str	s1, [x0, #16]
2:	ret
	.size	armce_sha1_blocks, . - armce_sha1_blocks

	.section .note.GNU-stack, "", %progbits
