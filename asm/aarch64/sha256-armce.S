/* SHA-256 compression (FIPS 180-4 6.2.2) with the ARMv8 SHA2 instructions. Contract:
 * asm/direct_arm.h. Needs HWCAP_SHA2; the C glue checks.
 *
 * SHA256H/SHA256H2 do four rounds on ABCD (v0) and EFGH (v1) given four W+K words; H2
 * needs the ABCD from before H, hence the copy in v18. SHA256SU0/SU1 extend the message
 * schedule by four words: quad j+4 from quads j..j+3, kept in a ring of v4..v7.
 */
	.arch	armv8-a+crypto
	.section .rodata
	.align	4
.Lk256:
	.word	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
	.word	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
	.word	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
	.word	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
	.word	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
	.word	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
	.word	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
	.word	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
	.text

/* Four rounds with schedule quad \w and constants from [x9]; when \next is 1 the quad is
 * replaced by the one four quads later (\w1..\w3 are the three quads after \w). */
.macro	quad w, w1, w2, w3, next
	ld1	{v17.4s}, [x9], #16
	add	v17.4s, v17.4s, \w\().4s
	mov	v18.16b, v0.16b
	sha256h	q0, q1, v17.4s
	sha256h2 q1, q18, v17.4s
	.if	\next
	sha256su0 \w\().4s, \w1\().4s
	sha256su1 \w\().4s, \w2\().4s, \w3\().4s
	.endif
.endm

/* Sixteen rounds: the schedule ring comes back to where it started. */
.macro	pass next
	quad	v4, v5, v6, v7, \next
	quad	v5, v6, v7, v4, \next
	quad	v6, v7, v4, v5, \next
	quad	v7, v4, v5, v6, \next
.endm

/* void armce_sha256_blocks(uint32_t state[8], const uint8_t *in, size_t blocks) */
	.globl	armce_sha256_blocks
	.type	armce_sha256_blocks, %function
armce_sha256_blocks:
	cbz	x2, 2f
	ld1	{v0.4s, v1.4s}, [x0]
	adrp	x10, .Lk256
	add	x10, x10, :lo12:.Lk256
1:	ld1	{v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	rev32	v4.16b, v4.16b
	rev32	v5.16b, v5.16b
	rev32	v6.16b, v6.16b
	rev32	v7.16b, v7.16b
	mov	v2.16b, v0.16b
	mov	v3.16b, v1.16b
	mov	x9, x10
	.rept	3
	pass	1
	.endr
	pass	0
	add	v0.4s, v0.4s, v2.4s
	add	v1.4s, v1.4s, v3.4s
	subs	x2, x2, #1
	b.ne	1b
	st1	{v0.4s, v1.4s}, [x0]
2:	ret
	.size	armce_sha256_blocks, . - armce_sha256_blocks

	.section .note.GNU-stack, "", %progbits
