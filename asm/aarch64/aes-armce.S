/* AES with the ARMv8 cryptographic extension: AESE/AESMC (encrypt), AESD/AESIMC (decrypt).
 * Contract and calling convention: asm/direct_arm.h. Needs HWCAP_AES; the C glue checks.
 *
 * AESE k does AddRoundKey(k), SubBytes, ShiftRows; AESMC does MixColumns. So a cipher of r
 * rounds is r-1 times (AESE, AESMC), one AESE, and an EOR with the last round key.
 * Round keys are kept so that the last one is always v30: 10 rounds use v20..v30, 12 use
 * v18..v30, 14 use v16..v30; each block enters at the first key its key length needs.
 */
	.arch	armv8-a+crypto
	.text

/* Loads rounds+1 round keys from \rk (clobbered) into v(30-rounds)..v30. */
.macro	load_keys rk, rounds
	cmp	\rounds, #12
	b.lt	.Lk10\@
	b.eq	.Lk12\@
	ld1	{v16.16b, v17.16b}, [\rk], #32
.Lk12\@:
	ld1	{v18.16b, v19.16b}, [\rk], #32
.Lk10\@:
	ld1	{v20.16b, v21.16b, v22.16b, v23.16b}, [\rk], #64
	ld1	{v24.16b, v25.16b, v26.16b, v27.16b}, [\rk], #64
	ld1	{v28.16b, v29.16b, v30.16b}, [\rk]
.endm

/* One block in \b through the cipher (\r = aese/aesd, \m = aesmc/aesimc). */
.macro	cipher b, rounds, r, m
	cmp	\rounds, #12
	b.lt	.Lr10\@
	b.eq	.Lr12\@
	\r	\b\().16b, v16.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v17.16b
	\m	\b\().16b, \b\().16b
.Lr12\@:
	\r	\b\().16b, v18.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v19.16b
	\m	\b\().16b, \b\().16b
.Lr10\@:
	\r	\b\().16b, v20.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v21.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v22.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v23.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v24.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v25.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v26.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v27.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v28.16b
	\m	\b\().16b, \b\().16b
	\r	\b\().16b, v29.16b
	eor	\b\().16b, \b\().16b, v30.16b
.endm

/* Four independent blocks at once: AESE/AESMC have latency, so four chains in flight keep
 * the unit busy where one would wait (CBC decryption and CTR have no dependency between
 * blocks). */
.macro	cipher4 b0, b1, b2, b3, rounds, r, m
	cmp	\rounds, #12
	b.lt	.Lq10\@
	b.eq	.Lq12\@
	\r	\b0\().16b, v16.16b
	\r	\b1\().16b, v16.16b
	\r	\b2\().16b, v16.16b
	\r	\b3\().16b, v16.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v17.16b
	\r	\b1\().16b, v17.16b
	\r	\b2\().16b, v17.16b
	\r	\b3\().16b, v17.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
.Lq12\@:
	\r	\b0\().16b, v18.16b
	\r	\b1\().16b, v18.16b
	\r	\b2\().16b, v18.16b
	\r	\b3\().16b, v18.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v19.16b
	\r	\b1\().16b, v19.16b
	\r	\b2\().16b, v19.16b
	\r	\b3\().16b, v19.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
.Lq10\@:
	\r	\b0\().16b, v20.16b
	\r	\b1\().16b, v20.16b
	\r	\b2\().16b, v20.16b
	\r	\b3\().16b, v20.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v21.16b
	\r	\b1\().16b, v21.16b
	\r	\b2\().16b, v21.16b
	\r	\b3\().16b, v21.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v22.16b
	\r	\b1\().16b, v22.16b
	\r	\b2\().16b, v22.16b
	\r	\b3\().16b, v22.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v23.16b
	\r	\b1\().16b, v23.16b
	\r	\b2\().16b, v23.16b
	\r	\b3\().16b, v23.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v24.16b
	\r	\b1\().16b, v24.16b
	\r	\b2\().16b, v24.16b
	\r	\b3\().16b, v24.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v25.16b
	\r	\b1\().16b, v25.16b
	\r	\b2\().16b, v25.16b
	\r	\b3\().16b, v25.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v26.16b
	\r	\b1\().16b, v26.16b
	\r	\b2\().16b, v26.16b
	\r	\b3\().16b, v26.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v27.16b
	\r	\b1\().16b, v27.16b
	\r	\b2\().16b, v27.16b
	\r	\b3\().16b, v27.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v28.16b
	\r	\b1\().16b, v28.16b
	\r	\b2\().16b, v28.16b
	\r	\b3\().16b, v28.16b
	\m	\b0\().16b, \b0\().16b
	\m	\b1\().16b, \b1\().16b
	\m	\b2\().16b, \b2\().16b
	\m	\b3\().16b, \b3\().16b
	\r	\b0\().16b, v29.16b
	\r	\b1\().16b, v29.16b
	\r	\b2\().16b, v29.16b
	\r	\b3\().16b, v29.16b
	eor	\b0\().16b, \b0\().16b, v30.16b
	eor	\b1\().16b, \b1\().16b, v30.16b
	eor	\b2\().16b, \b2\().16b, v30.16b
	eor	\b3\().16b, \b3\().16b, v30.16b
.endm

/* uint32_t armce_aes_subword(uint32_t w) */
	.globl	armce_aes_subword
	.type	armce_aes_subword, %function
armce_aes_subword:
	dup	v0.4s, w0
	movi	v1.16b, #0
	aese	v0.16b, v1.16b
	umov	w0, v0.s[0]
	ret
	.size	armce_aes_subword, . - armce_aes_subword

/* void armce_aes_invert(uint8_t *drk, const uint8_t *erk, unsigned rounds) */
	.globl	armce_aes_invert
	.type	armce_aes_invert, %function
armce_aes_invert:
	add	x3, x1, w2, uxtw #4		// x3 = &erk[rounds]
	ld1	{v0.16b}, [x3]
	st1	{v0.16b}, [x0], #16		// drk[0] = erk[rounds]
	sub	x3, x3, #16
	sub	w4, w2, #1
1:	ld1	{v0.16b}, [x3]			// drk[i] = InvMixColumns(erk[rounds-i])
	sub	x3, x3, #16
	aesimc	v0.16b, v0.16b
	st1	{v0.16b}, [x0], #16
	subs	w4, w4, #1
	b.ne	1b
	ld1	{v0.16b}, [x1]
	st1	{v0.16b}, [x0]			// drk[rounds] = erk[0]
	ret
	.size	armce_aes_invert, . - armce_aes_invert

/* void armce_aes_cbc_enc(rk, rounds, out, in, blocks, iv) */
	.globl	armce_aes_cbc_enc
	.type	armce_aes_cbc_enc, %function
armce_aes_cbc_enc:
	cbz	x4, 2f
	load_keys x0, w1
	ld1	{v0.16b}, [x5]
1:	ld1	{v1.16b}, [x3], #16
	eor	v0.16b, v0.16b, v1.16b
	cipher	v0, w1, aese, aesmc
	st1	{v0.16b}, [x2], #16
	subs	x4, x4, #1
	b.ne	1b
	st1	{v0.16b}, [x5]
2:	ret
	.size	armce_aes_cbc_enc, . - armce_aes_cbc_enc

/* void armce_aes_cbc_dec(drk, rounds, out, in, blocks, iv): four blocks a pass, then one
 * at a time; ciphertext is kept before plaintext is stored, so out == in works. */
	.globl	armce_aes_cbc_dec
	.type	armce_aes_cbc_dec, %function
armce_aes_cbc_dec:
	cbz	x4, 3f
	load_keys x0, w1
	ld1	{v0.16b}, [x5]
	cmp	x4, #4
	b.lo	2f
1:	ld1	{v1.16b, v2.16b, v3.16b, v4.16b}, [x3], #64
	mov	v5.16b, v1.16b
	mov	v6.16b, v2.16b
	mov	v7.16b, v3.16b
	mov	v31.16b, v4.16b
	cipher4	v1, v2, v3, v4, w1, aesd, aesimc
	eor	v1.16b, v1.16b, v0.16b
	eor	v2.16b, v2.16b, v5.16b
	eor	v3.16b, v3.16b, v6.16b
	eor	v4.16b, v4.16b, v7.16b
	mov	v0.16b, v31.16b
	st1	{v1.16b, v2.16b, v3.16b, v4.16b}, [x2], #64
	sub	x4, x4, #4
	cmp	x4, #4
	b.hs	1b
	cbz	x4, 4f
2:	ld1	{v1.16b}, [x3], #16
	mov	v2.16b, v1.16b
	cipher	v1, w1, aesd, aesimc
	eor	v1.16b, v1.16b, v0.16b
	mov	v0.16b, v2.16b
	st1	{v1.16b}, [x2], #16
	subs	x4, x4, #1
	b.ne	2b
4:	st1	{v0.16b}, [x5]
3:	ret
	.size	armce_aes_cbc_dec, . - armce_aes_cbc_dec

/* void armce_aes_ctr(rk, rounds, out, in, blocks, ctr): the counter lives in x6 (high 64
 * bits) and x7 (low 64 bits) as numbers, so adds/adc carry across all 128 bits. Four
 * blocks a pass, then one at a time. */
.macro	ctrblock v
	rev	x8, x6
	rev	x9, x7
	mov	\v\().d[0], x8
	mov	\v\().d[1], x9
	adds	x7, x7, #1
	adc	x6, x6, xzr
.endm

	.globl	armce_aes_ctr
	.type	armce_aes_ctr, %function
armce_aes_ctr:
	cbz	x4, 3f
	load_keys x0, w1
	ldp	x6, x7, [x5]
	rev	x6, x6
	rev	x7, x7
	cmp	x4, #4
	b.lo	2f
1:	ctrblock v0
	ctrblock v1
	ctrblock v2
	ctrblock v3
	cipher4	v0, v1, v2, v3, w1, aese, aesmc
	ld1	{v4.16b, v5.16b, v6.16b, v7.16b}, [x3], #64
	eor	v4.16b, v4.16b, v0.16b
	eor	v5.16b, v5.16b, v1.16b
	eor	v6.16b, v6.16b, v2.16b
	eor	v7.16b, v7.16b, v3.16b
	st1	{v4.16b, v5.16b, v6.16b, v7.16b}, [x2], #64
	sub	x4, x4, #4
	cmp	x4, #4
	b.hs	1b
	cbz	x4, 4f
2:	ctrblock v0
	cipher	v0, w1, aese, aesmc
	ld1	{v1.16b}, [x3], #16
	eor	v1.16b, v1.16b, v0.16b
	st1	{v1.16b}, [x2], #16
	subs	x4, x4, #1
	b.ne	2b
4:	rev	x6, x6
	rev	x7, x7
	stp	x6, x7, [x5]
3:	ret
	.size	armce_aes_ctr, . - armce_aes_ctr

	.section .note.GNU-stack, "", %progbits
