/* The AF_ALG backend's parts: the implementation list (afalg.c) and the operations over
 * kernel sockets (afalg_op.c). */
#ifndef ACCELSCOPE_AFALG_H
#define ACCELSCOPE_AFALG_H

#include "algo.h"
#include "impl.h"

/* What one implementation binds: impl.data points at one of these. */
struct afalg_target {
    const struct algo *algo;
    const char *bind;    /* algorithm name ("cbc(aes)": the kernel's choice) or driver name */
    const char *modules; /* what to modprobe when nothing answers to the name */
};

/* How kind's ops reach the kernel, for notes: zero-copy (vmsplice/splice) from a size on,
 * copy (sendmsg/read) below it, the faster of the two as measured (see afalg_op.c):
 * "transfer: copy (sendmsg/read) below 16 KiB, zero-copy (vmsplice/splice) from 16 KiB" */
const char *afalg_transfer_note(enum algo_kind kind);
/* The largest AEAD message (AAD + data + tag) one request can carry here, from
 * net.core.optmem_max (stored in *optmem when not NULL); 0 when unknown. */
size_t afalg_aead_max(long *optmem);

/* Every ACCELSCOPE_AFALG_DRIVERS entry is alg:driver with alg a kernel-path algorithm; 0, or
 * -1 and why naming the bad entry and the accepted form. */
int afalg_env_check(char *why, size_t n);

extern const size_t afalg_ctx_size;
int afalg_check(const struct impl *im, char *why, size_t n);
int afalg_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
               int decrypt, char *why, size_t n);
int afalg_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len);
void afalg_cleanup(void *ctx);

#endif
