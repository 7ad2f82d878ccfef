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

/* void armce_aes_cbc_dec(drk, rounds, out, in, blocks, iv): the ciphertext block is kept
 * before the plaintext is stored, so out == in works. */
	.globl	armce_aes_cbc_dec
	.type	armce_aes_cbc_dec, %function
armce_aes_cbc_dec:
	cbz	x4, 2f
	load_keys x0, w1
	ld1	{v0.16b}, [x5]
1:	ld1	{v1.16b}, [x3], #16
	mov	v2.16b, v1.16b
	cipher	v1, w1, aesd, aesimc
	eor	v1.16b, v1.16b, v0.16b
	mov	v0.16b, v2.16b
	st1	{v1.16b}, [x2], #16
	subs	x4, x4, #1
	b.ne	1b
	st1	{v0.16b}, [x5]
2:	ret
	.size	armce_aes_cbc_dec, . - armce_aes_cbc_dec

/* void armce_aes_ctr(rk, rounds, out, in, blocks, ctr): the counter lives in x6 (high 64
 * bits) and x7 (low 64 bits) as numbers, so adds/adc carry across all 128 bits. */
	.globl	armce_aes_ctr
	.type	armce_aes_ctr, %function
armce_aes_ctr:
	cbz	x4, 2f
	load_keys x0, w1
	ldp	x6, x7, [x5]
	rev	x6, x6
	rev	x7, x7
1:	rev	x8, x6
	rev	x9, x7
	fmov	d0, x8
	mov	v0.d[1], x9
	adds	x7, x7, #1
	adc	x6, x6, xzr
	cipher	v0, w1, aese, aesmc
	ld1	{v1.16b}, [x3], #16
	eor	v1.16b, v1.16b, v0.16b
	st1	{v1.16b}, [x2], #16
	subs	x4, x4, #1
	b.ne	1b
	rev	x6, x6
	rev	x7, x7
	stp	x6, x7, [x5]
2:	ret
	.size	armce_aes_ctr, . - armce_aes_ctr

	.section .note.GNU-stack, "", %progbits
