/* VIA/Zhaoxin PadLock instructions, one per function, for i386 (cdecl: arguments on the
 * stack; EBX, ESI, EDI, EBP callee-saved; DF clear on entry). Contract and the registers
 * each instruction takes: asm/padlock.h. The instructions are emitted as bytes so any
 * assembler takes them.
 *
 * Never executed unless CPUID 0xC0000001 EDX says the unit is present and enabled (the C
 * glue checks). PadLock cannot be emulated (qemu has no model of it): these five
 * functions have been assembled and linked, never run; the glue around them is tested on
 * a C model of the instructions (tests/t_padlock.c).
 */
	.text

/* void padlock_asm_xcrypt_ecb(const void *cword, const void *key, void *out, const void *in,
 *                         size_t blocks) */
	.globl	padlock_asm_xcrypt_ecb
	.type	padlock_asm_xcrypt_ecb, @function
padlock_asm_xcrypt_ecb:
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	movl	16(%esp), %edx
	movl	20(%esp), %ebx
	movl	24(%esp), %edi
	movl	28(%esp), %esi
	movl	32(%esp), %ecx
	pushfl				/* writing EFLAGS makes the unit reload key and cword */
	popfl
	.byte	0xf3, 0x0f, 0xa7, 0xc8	/* rep xcryptecb */
	popl	%edi
	popl	%esi
	popl	%ebx
	ret
	.size	padlock_asm_xcrypt_ecb, . - padlock_asm_xcrypt_ecb

/* void padlock_asm_xcrypt_cbc(const void *cword, const void *key, void *out, const void *in,
 *                         size_t blocks, void *iv) */
	.globl	padlock_asm_xcrypt_cbc
	.type	padlock_asm_xcrypt_cbc, @function
padlock_asm_xcrypt_cbc:
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	movl	16(%esp), %edx
	movl	20(%esp), %ebx
	movl	24(%esp), %edi
	movl	28(%esp), %esi
	movl	32(%esp), %ecx
	movl	36(%esp), %eax
	pushfl
	popfl
	.byte	0xf3, 0x0f, 0xa7, 0xd0	/* rep xcryptcbc */
	popl	%edi
	popl	%esi
	popl	%ebx
	ret
	.size	padlock_asm_xcrypt_cbc, . - padlock_asm_xcrypt_cbc

/* void padlock_asm_xsha1(void *state, const void *in, size_t len): one shot (EAX = 0). */
	.globl	padlock_asm_xsha1
	.type	padlock_asm_xsha1, @function
padlock_asm_xsha1:
	pushl	%esi
	pushl	%edi
	movl	12(%esp), %edi
	movl	16(%esp), %esi
	movl	20(%esp), %ecx
	xorl	%eax, %eax
	.byte	0xf3, 0x0f, 0xa6, 0xc8	/* rep xsha1 */
	popl	%edi
	popl	%esi
	ret
	.size	padlock_asm_xsha1, . - padlock_asm_xsha1

/* void padlock_asm_xsha256(void *state, const void *in, size_t len) */
	.globl	padlock_asm_xsha256
	.type	padlock_asm_xsha256, @function
padlock_asm_xsha256:
	pushl	%esi
	pushl	%edi
	movl	12(%esp), %edi
	movl	16(%esp), %esi
	movl	20(%esp), %ecx
	xorl	%eax, %eax
	.byte	0xf3, 0x0f, 0xa6, 0xd0	/* rep xsha256 */
	popl	%edi
	popl	%esi
	ret
	.size	padlock_asm_xsha256, . - padlock_asm_xsha256

/* unsigned padlock_asm_xstore(void *out, unsigned divisor): bytes stored (0, 1, 2, 4, 8). */
	.globl	padlock_asm_xstore
	.type	padlock_asm_xstore, @function
padlock_asm_xstore:
	pushl	%edi
	movl	8(%esp), %edi
	movl	12(%esp), %edx
	.byte	0x0f, 0xa7, 0xc0	/* xstore */
	andl	$0x1f, %eax
	popl	%edi
	ret
	.size	padlock_asm_xstore, . - padlock_asm_xstore

	.section .note.GNU-stack, "", @progbits
