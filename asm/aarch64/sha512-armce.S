/* SHA-512 compression (FIPS 180-4 6.4.2) with the ARMv8.2 SHA512 instructions. Contract:
 * asm/direct_arm.h. Needs HWCAP_SHA512; the C glue checks.
 *
 * The state lives in pairs, low half first: AB = (a, b) in v0, CD in v1, EF in v2, GH in v3.
 * One "double round" does rounds t and t+1 with KW = (K[t]+W[t], K[t+1]+W[t+1]):
 *   T  = SHA512H (GH + swap(KW)), (f, g), (d, e)   -> (T1[t+1], T1[t]) as (low, high)
 *   EF' = CD + T                                      (e[t+2], e[t+1])
 *   AB' = SHA512H2 T, CD, AB                          (a[t+2], a[t+1])
 *   CD' = AB, GH' = EF
 * which follows from the instructions' definitions in the Arm ARM (SHA512H: Ch and Sigma1
 * of two rounds; SHA512H2: Maj and Sigma0). The schedule is a ring of eight pairs v16..v23:
 *   pair j+8 = SHA512SU1(SHA512SU0(pair j, pair j+1), pair j+7, (pair j+4).hi:(pair j+5).lo).
 */
	.arch	armv8.2-a+crypto+sha3
	.section .rodata
	.align	4
.Lk512:
	.quad	0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc
	.quad	0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118
	.quad	0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2
	.quad	0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694
	.quad	0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65
	.quad	0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5
	.quad	0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4
	.quad	0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70
	.quad	0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df
	.quad	0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b
	.quad	0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30
	.quad	0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8
	.quad	0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8
	.quad	0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3
	.quad	0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec
	.quad	0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b
	.quad	0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178
	.quad	0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b
	.quad	0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c
	.quad	0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817
	.text

.macro	dround w, w1, w4, w5, w7, next
	ld1	{v28.2d}, [x9], #16
	add	v28.2d, v28.2d, \w\().2d
	ext	v4.16b, v28.16b, v28.16b, #8
	add	v4.2d, v4.2d, v3.2d
	ext	v5.16b, v2.16b, v3.16b, #8
	ext	v6.16b, v1.16b, v2.16b, #8
	sha512h	q4, q5, v6.2d
	add	v7.2d, v1.2d, v4.2d
	sha512h2 q4, q1, v0.2d
	mov	v3.16b, v2.16b
	mov	v2.16b, v7.16b
	mov	v1.16b, v0.16b
	mov	v0.16b, v4.16b
	.if	\next
	sha512su0 \w\().2d, \w1\().2d
	ext	v5.16b, \w4\().16b, \w5\().16b, #8
	sha512su1 \w\().2d, \w7\().2d, v5.2d
	.endif
.endm

/* Eight double rounds: the schedule ring comes back to where it started. */
.macro	pass next
	dround	v16, v17, v20, v21, v23, \next
	dround	v17, v18, v21, v22, v16, \next
	dround	v18, v19, v22, v23, v17, \next
	dround	v19, v20, v23, v16, v18, \next
	dround	v20, v21, v16, v17, v19, \next
	dround	v21, v22, v17, v18, v20, \next
	dround	v22, v23, v18, v19, v21, \next
	dround	v23, v16, v19, v20, v22, \next
.endm

/* void armce_sha512_blocks(uint64_t state[8], const uint8_t *in, size_t blocks) */
	.globl	armce_sha512_blocks
	.type	armce_sha512_blocks, %function
armce_sha512_blocks:
	cbz	x2, 2f
	ld1	{v0.2d, v1.2d, v2.2d, v3.2d}, [x0]
	adrp	x10, .Lk512
	add	x10, x10, :lo12:.Lk512
1:	ld1	{v16.16b, v17.16b, v18.16b, v19.16b}, [x1], #64
	ld1	{v20.16b, v21.16b, v22.16b, v23.16b}, [x1], #64
	.irp	r, 16, 17, 18, 19, 20, 21, 22, 23
	rev64	v\r\().16b, v\r\().16b
	.endr
	mov	v24.16b, v0.16b
	mov	v25.16b, v1.16b
	mov	v26.16b, v2.16b
	mov	v27.16b, v3.16b
	mov	x9, x10
	.rept	4
	pass	1
	.endr
	pass	0
	add	v0.2d, v0.2d, v24.2d
	add	v1.2d, v1.2d, v25.2d
	add	v2.2d, v2.2d, v26.2d
	add	v3.2d, v3.2d, v27.2d
	subs	x2, x2, #1
	b.ne	1b
	st1	{v0.2d, v1.2d, v2.2d, v3.2d}, [x0]
2:	ret
	.size	armce_sha512_blocks, . - armce_sha512_blocks

	.section .note.GNU-stack, "", %progbits
