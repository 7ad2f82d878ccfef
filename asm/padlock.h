/* Calling convention of the VIA/Zhaoxin PadLock kernels in asm/x86/padlock.S (i386 cdecl),
 * and the table through which the C glue (backends/padlock.c) reaches them.
 *
 * Each kernel is one PadLock instruction with its registers loaded; nothing else.
 * VIA "PadLock Programming Guide" and the Linux drivers/crypto/padlock-*.c describe them:
 *   REP XCRYPTECB  F3 0F A7 C8   ESI in, EDI out, ECX blocks, EDX control word, EBX key
 *   REP XCRYPTCBC  F3 0F A7 D0   as ECB, plus EAX = IV
 *   REP XSHA1      F3 0F A6 C8   ESI in, EDI state (128-byte buffer), ECX total length,
 *   REP XSHA256    F3 0F A6 D0   EAX bytes already hashed (0: one shot, the unit pads)
 *   XSTORE         0F A7 C0      EDI out (8 bytes), EDX divisor; EAX[4:0] bytes stored
 * Preconditions the glue guarantees, never the kernels:
 *  - the unit is present and enabled (CPUID 0xC0000001 EDX, via cpu_feature_status);
 *  - control word, key schedule, IV, data and SHA state are 16-byte aligned;
 *  - ECX > 0, and the unit may read ahead up to PADLOCK_FETCH blocks past the input of an
 *    XCRYPT whose block count is not a multiple of that (Linux padlock-aes.c: C7 and Nano
 *    prefetch), so such input lies in a buffer with that much room;
 *  - the key is reloaded: the kernels write EFLAGS (pushf/popf) before XCRYPT, which is
 *    how the unit is told that the key or control word in memory may have changed.
 */
#ifndef ACCELSCOPE_PADLOCK_H
#define ACCELSCOPE_PADLOCK_H

#include <stddef.h>
#include <stdint.h>

#define PADLOCK_ALIGN 16
#define PADLOCK_FETCH 8 /* blocks; a multiple of every model's read-ahead (1, 2, 4, 8) */

/* The XCRYPT control word, 16 bytes: the low 32 bits are these fields, the rest zero. */
#define PADLOCK_CW_ROUNDS(r) ((uint32_t)(r) & 0xf)  /* bits 0-3: 10, 12 or 14 */
#define PADLOCK_CW_KEYGEN (1u << 7)                  /* key schedule supplied in memory */
#define PADLOCK_CW_DECRYPT (1u << 9)
#define PADLOCK_CW_KSIZE(bits) ((uint32_t)((bits) - 128) / 64 << 10) /* 0/1/2 for 128/192/256 */

void padlock_asm_xcrypt_ecb(const void *cword, const void *key, void *out, const void *in,
                        size_t blocks);
void padlock_asm_xcrypt_cbc(const void *cword, const void *key, void *out, const void *in,
                        size_t blocks, void *iv);
void padlock_asm_xsha1(void *state, const void *in, size_t len);
void padlock_asm_xsha256(void *state, const void *in, size_t len);
unsigned padlock_asm_xstore(void *out, unsigned divisor);

/* The instructions as the glue calls them: the kernels above on i386 builds. */
struct padlock_ops {
    void (*ecb)(const void *cword, const void *key, void *out, const void *in, size_t blocks);
    void (*cbc)(const void *cword, const void *key, void *out, const void *in, size_t blocks,
                void *iv);
    void (*sha1)(void *state, const void *in, size_t len);
    void (*sha256)(void *state, const void *in, size_t len);
    unsigned (*xstore)(void *out, unsigned divisor);
};

/* Tests only: run the glue on a model of the instructions (tests/t_padlock.c), on any
 * architecture, bypassing the feature check. NULL restores the real table. */
void padlock_use_ops(const struct padlock_ops *ops);

#endif
