/* The key stream a chained CTR op leaves over: an op of any length ends mid-block, and the
 * next op spends the rest of that block's key stream first, as a CTR stream (and OpenSSL's
 * EVP) does. One convention for every backend: left counts the bytes of ks not yet used,
 * which are its last ones; 0, as in a zeroed context, means none. Inline: it runs on every
 * op, small ones included. */
#ifndef ACCELSCOPE_CTR_STREAM_H
#define ACCELSCOPE_CTR_STREAM_H

#include <stddef.h>
#include <stdint.h>

struct ctr_stream {
    uint8_t ks[16];
    unsigned left;
};

/* out = in XOR what is left of the key stream, up to len bytes; returns the bytes done. */
static inline size_t ctr_stream_use(struct ctr_stream *s, uint8_t *out, const uint8_t *in,
                                    size_t len)
{
    size_t i = 0;
    for (; i < len && s->left; i++, s->left--)
        out[i] = in[i] ^ s->ks[16 - s->left];
    return i;
}

/* s->ks has just been filled with a new block's key stream: the first len (< 16) bytes go
 * into out, the rest is left for the next op. */
static inline void ctr_stream_tail(struct ctr_stream *s, uint8_t *out, const uint8_t *in,
                                   size_t len)
{
    s->left = 16;
    ctr_stream_use(s, out, in, len);
}

#endif
