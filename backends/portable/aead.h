/* What the AEADs share once the expected tag is computed. */
#ifndef ACCELSCOPE_PORTABLE_AEAD_H
#define ACCELSCOPE_PORTABLE_AEAD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 0 when the 16-byte tags match; else -1 with the len bytes of out (plaintext that must not
 * be released) zeroed. No early exit: the time taken says nothing about where they differ. */
static inline int aead_tag_check(const uint8_t want[16], const uint8_t tag[16], uint8_t *out,
                                 size_t len)
{
    unsigned diff = 0;
    for (int i = 0; i < 16; i++)
        diff |= (unsigned)(want[i] ^ tag[i]);
    if (!diff)
        return 0;
    if (len)
        memset(out, 0, len);
    return -1;
}

#endif
