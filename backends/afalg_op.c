/* Operations over AF_ALG sockets (linux/if_alg.h; Documentation/crypto/userspace-if.rst).
 *
 * One transform socket is bound and keyed at init; accept() gives the operation socket that
 * carries the data. A cipher or AEAD request is one message: control data (ALG_SET_OP,
 * ALG_SET_IV, ALG_SET_AEAD_ASSOCLEN) then the input, either copied by sendmsg or handed over
 * as pages by vmsplice+splice; read/recvmsg runs the transform and returns the output.
 * The IV is given with every message and carried here, not left to the kernel: whether a
 * driver writes the chained IV back is the driver's business. */
#include "afalg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/if_alg.h>

#include "ctr_stream.h"
#include "kcrypto.h"

#ifndef SOL_ALG
#define SOL_ALG 279 /* include/linux/socket.h */
#endif

/* One cipher message at most: fits the default pipe (16 pages) and the socket's default send
 * buffer (net.core.wmem_default, ~208 KiB) with room to spare, so no call can block on a
 * buffer only our own later read would drain. */
#define CHUNK (64u * 1024)

enum mode { MODE_CBC, MODE_CTR, MODE_AEAD, MODE_HASH };

struct ctx {
    const struct algo *a;
    enum mode mode;
    int tfm, op, pipe[2];
    int decrypt;
    size_t limit;          /* AEAD: the largest AAD+data+tag one message may carry */
    size_t zerocopy_min;   /* transfers from this size go by vmsplice/splice */
    uint8_t iv[16];        /* CBC IV, CTR counter block, AEAD nonce (12) */
    struct ctr_stream ks;  /* CTR: what is left of the block in progress */
    uint8_t aad_out[ALGO_AAD_LEN];
};

const size_t afalg_ctx_size = sizeof(struct ctx);

/* Zero-copy from this many bytes for ciphers and AEADs. Measured in the emulated kernel of
 * tests/kernel (6.1, -cpu max, the kernel's choice, medians of 15 interleaved rounds, one
 * process): zero-copy/copy time for cbc(aes) 1.01 at 1 KiB, 0.98 at 4 KiB, 0.95 at 16 KiB,
 * 0.92 at 64 KiB; ctr(aes) and gcm(aes) 1.18/1.10 at 1 KiB, 0.77-1.04 from 8 KiB. Below
 * ~16 KiB the two extra syscalls (sendmsg for the control data, vmsplice, splice) cost what
 * the copy saves. Hashes always go by sendmsg: algif_hash already maps the caller's pages
 * (af_alg_make_sg), so splicing saves nothing (0.91-1.07, no trend). Emulation inflates the
 * crypto, not the syscalls: on hardware the crossover may sit lower; ACCELSCOPE_AFALG_XFER
 * measures either. */
#define ZEROCOPY_MIN (16u * 1024)
#define NEVER ((size_t)-1)

/* Transfers of kind's ops at or above this many bytes go zero-copy, smaller ones by copy. */
static size_t zerocopy_min(enum algo_kind kind)
{
    /* ACCELSCOPE_AFALG_XFER=copy|zerocopy forces one transfer, to compare them. */
    const char *e = getenv("ACCELSCOPE_AFALG_XFER");
    if (e && strcmp(e, "copy") == 0)
        return NEVER;
    if (e && strcmp(e, "zerocopy") == 0)
        return 0;
    return kind == ALGO_DIGEST ? NEVER : ZEROCOPY_MIN;
}

const char *afalg_transfer_note(enum algo_kind kind)
{
    size_t z = zerocopy_min(kind);
    if (getenv("ACCELSCOPE_AFALG_XFER") && (z == NEVER || z == 0))
        return z ? "transfer: copy (sendmsg/read), forced by ACCELSCOPE_AFALG_XFER"
                 : "transfer: zero-copy (vmsplice/splice), forced by ACCELSCOPE_AFALG_XFER";
    if (z == NEVER)
        return "transfer: sendmsg/read (algif_hash maps the pages itself: splice saves nothing)";
    return "transfer: copy (sendmsg/read) below 16 KiB, zero-copy (vmsplice/splice) from 16 KiB";
}

/* AF_ALG charges a request's scatterlists to the socket's option memory (sock_kmalloc, capped
 * by net.core.optmem_max: 20 KiB by default before Linux 6.9), and an AEAD request cannot be
 * split. Measured in tests/kernel: 552-589 KiB pass at 20480, 1.44 MiB at 40960, 2.99 MiB at
 * 81920; this bound stays under all three. 0 when the sysctl cannot be read. */
size_t afalg_aead_max(long *optmem)
{
    FILE *f = fopen("/proc/sys/net/core/optmem_max", "r");
    long v = 0;
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = 0;
        fclose(f);
    }
    if (optmem)
        *optmem = v;
    return v > 6144 ? (size_t)(v - 6144) * 36 : 0;
}

int afalg_check(const struct impl *im, char *why, size_t n)
{
    const struct afalg_target *t = im->data;
    int fd = kcrypto_bind(t->algo->afalg_type, t->bind, t->modules, why, n);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* Lets one AEAD message of up to ALGO_MAX_BYTES through: AF_ALG accounts it against the
 * operation socket's send and receive buffers (crypto/af_alg.c: af_alg_sndbuf, af_alg_rcvbuf)
 * and an AEAD request cannot be split. The FORCE variants need CAP_NET_ADMIN; without it the
 * buffers stop at net.core.wmem_max/rmem_max. */
static void grow_buffers(struct ctx *c)
{
    static const int opt[2][2] = { { SO_SNDBUFFORCE, SO_SNDBUF }, { SO_RCVBUFFORCE, SO_RCVBUF } };
    int want = (int)(ALGO_MAX_BYTES + 4 * CHUNK), got[2] = { 0, 0 };
    for (int i = 0; i < 2; i++) {
        if (setsockopt(c->op, SOL_SOCKET, opt[i][0], &want, sizeof want) != 0)
            setsockopt(c->op, SOL_SOCKET, opt[i][1], &want, sizeof want);
        socklen_t l = sizeof got[i];
        getsockopt(c->op, SOL_SOCKET, opt[i][1], &got[i], &l);
    }
    size_t lim = (size_t)(got[0] < got[1] ? got[0] : got[1]) & ~(size_t)4095;
    lim = lim > 2 * 4096 ? lim - 2 * 4096 : 0;
    size_t cap = afalg_aead_max(NULL);
    c->limit = cap && cap < lim ? cap : lim;
}

int afalg_init(const struct impl *im, void *ctx, const uint8_t *key, const uint8_t *iv,
               int decrypt, char *why, size_t n)
{
    const struct afalg_target *t = im->data;
    struct ctx *c = ctx;
    c->a = t->algo;
    c->tfm = c->op = c->pipe[0] = c->pipe[1] = -1;
    c->decrypt = decrypt;
    c->zerocopy_min = zerocopy_min(t->algo->kind);
    c->mode = c->a->kind == ALGO_DIGEST           ? MODE_HASH
              : c->a->kind == ALGO_AEAD           ? MODE_AEAD
              : c->a->mode == ALGO_MODE_CTR       ? MODE_CTR
                                                  : MODE_CBC;
    if (c->a->iv_len)
        memcpy(c->iv, iv, c->a->iv_len);

    c->tfm = kcrypto_bind(c->a->afalg_type, t->bind, t->modules, why, n);
    if (c->tfm < 0)
        return -1;
    if (c->a->key_len && setsockopt(c->tfm, SOL_ALG, ALG_SET_KEY, key, c->a->key_len) != 0) {
        snprintf(why, n, "%s: ALG_SET_KEY (%u bytes): %s", t->bind, c->a->key_len,
                 strerror(errno));
        goto close_tfm;
    }
    if (c->mode == MODE_AEAD &&
        setsockopt(c->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, ALGO_TAG_LEN) != 0) {
        snprintf(why, n, "%s: ALG_SET_AEAD_AUTHSIZE %d: %s", t->bind, ALGO_TAG_LEN,
                 strerror(errno));
        goto close_tfm;
    }
    c->op = accept4(c->tfm, NULL, NULL, SOCK_CLOEXEC);
    if (c->op < 0) {
        snprintf(why, n, "%s: accept on the AF_ALG socket: %s", t->bind, strerror(errno));
        goto close_tfm;
    }
    if (pipe2(c->pipe, O_CLOEXEC) != 0) {
        snprintf(why, n, "pipe for zero-copy transfers: %s", strerror(errno));
        goto close_op;
    }
    if (c->mode == MODE_AEAD)
        grow_buffers(c);
    return 0;

close_op:
    close(c->op);
    c->op = -1;
close_tfm:
    close(c->tfm);
    c->tfm = -1;
    return -1;
}

void afalg_cleanup(void *ctx)
{
    struct ctx *c = ctx;
    int *fds[] = { &c->pipe[0], &c->pipe[1], &c->op, &c->tfm };
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
}

/* Hands iov's bytes to the operation socket as pages: vmsplice maps them into the pipe,
 * splice moves them to the socket. All but the last piece say "more" (SPLICE_F_MORE becomes
 * MSG_MORE), so the kernel sees one message. */
static int splice_in(struct ctx *c, struct iovec *iov, int cnt, int more_after)
{
    size_t left = 0;
    for (int i = 0; i < cnt; i++)
        left += iov[i].iov_len;
    while (left) {
        while (cnt && iov->iov_len == 0) {
            iov++;
            cnt--;
        }
        ssize_t m = vmsplice(c->pipe[1], iov, (unsigned long)cnt, 0);
        if (m <= 0)
            return -1;
        left -= (size_t)m;
        for (size_t k = (size_t)m; k;) { /* consume m bytes of iov */
            size_t t = k < iov->iov_len ? k : iov->iov_len;
            iov->iov_base = (uint8_t *)iov->iov_base + t;
            iov->iov_len -= t;
            k -= t;
            if (!iov->iov_len && cnt > 1) {
                iov++;
                cnt--;
            }
        }
        for (ssize_t done = 0; done < m;) {
            unsigned fl = left || more_after ? SPLICE_F_MORE : 0;
            ssize_t s = splice(c->pipe[0], NULL, c->op, NULL, (size_t)(m - done), fl);
            if (s <= 0)
                return -1;
            done += s;
        }
    }
    return 0;
}

/* Sends one request: control data, then the input by copy or zero-copy. flags may carry
 * MSG_MORE (a hash update that is not the last). */
static int send_request(struct ctx *c, const uint8_t *iv, size_t ivlen, int assoclen,
                        struct iovec *iov, int cnt, size_t total, int flags)
{
    union {
        char buf[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16) +
                 CMSG_SPACE(sizeof(uint32_t))];
        struct cmsghdr align;
    } u;
    struct msghdr msg = { 0 };
    size_t clen = 0;
    memset(&u, 0, sizeof u);
    if (c->mode != MODE_HASH) {
        msg.msg_control = u.buf;
        msg.msg_controllen = sizeof u.buf;
        struct cmsghdr *h = CMSG_FIRSTHDR(&msg);
        h->cmsg_level = SOL_ALG;
        h->cmsg_type = ALG_SET_OP;
        h->cmsg_len = CMSG_LEN(sizeof(uint32_t));
        uint32_t opv = c->decrypt ? ALG_OP_DECRYPT : ALG_OP_ENCRYPT;
        memcpy(CMSG_DATA(h), &opv, sizeof opv);
        clen += CMSG_SPACE(sizeof(uint32_t));

        h = CMSG_NXTHDR(&msg, h);
        h->cmsg_level = SOL_ALG;
        h->cmsg_type = ALG_SET_IV;
        h->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + ivlen);
        struct af_alg_iv head = { .ivlen = (uint32_t)ivlen };
        memcpy(CMSG_DATA(h), &head, sizeof head);
        memcpy(CMSG_DATA(h) + offsetof(struct af_alg_iv, iv), iv, ivlen);
        clen += CMSG_SPACE(sizeof(struct af_alg_iv) + ivlen);

        if (assoclen >= 0) {
            h = CMSG_NXTHDR(&msg, h);
            h->cmsg_level = SOL_ALG;
            h->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
            h->cmsg_len = CMSG_LEN(sizeof(uint32_t));
            uint32_t al = (uint32_t)assoclen;
            memcpy(CMSG_DATA(h), &al, sizeof al);
            clen += CMSG_SPACE(sizeof(uint32_t));
        }
        msg.msg_controllen = clen;
    }
    if (total >= c->zerocopy_min) {
        if (clen && sendmsg(c->op, &msg, MSG_MORE) < 0)
            return -1;
        return splice_in(c, iov, cnt, flags & MSG_MORE);
    }
    msg.msg_iov = iov;
    msg.msg_iovlen = (size_t)cnt;
    /* DONTWAIT: a message the buffers cannot hold fails here instead of blocking forever. */
    ssize_t s = sendmsg(c->op, &msg, flags | MSG_DONTWAIT);
    return s == (ssize_t)total ? 0 : -1;
}

static int read_full(int fd, uint8_t *out, size_t len)
{
    while (len) {
        ssize_t r = read(fd, out, len);
        if (r <= 0)
            return -1;
        out += r;
        len -= (size_t)r;
    }
    return 0;
}

static void ctr_add(uint8_t ctr[16], uint64_t blocks)
{
    for (int i = 15; i >= 0 && blocks; i--) {
        uint64_t s = ctr[i] + (blocks & 0xff);
        ctr[i] = (uint8_t)s;
        blocks = (blocks >> 8) + (s >> 8);
    }
}

/* Whole blocks through the kernel, one message per CHUNK, chaining the IV here. */
static int cipher_blocks(struct ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    for (size_t off = 0; off < len; off += CHUNK) {
        size_t m = len - off < CHUNK ? len - off : CHUNK;
        uint8_t next[16];
        if (c->mode == MODE_CBC && c->decrypt)
            memcpy(next, in + off + m - 16, 16); /* in may be overwritten: in place */
        struct iovec v = { .iov_base = (void *)(in + off), .iov_len = m };
        if (send_request(c, c->iv, 16, -1, &v, 1, m, 0) || read_full(c->op, out + off, m))
            return -1;
        if (c->mode == MODE_CTR)
            ctr_add(c->iv, m / 16);
        else
            memcpy(c->iv, c->decrypt ? next : out + off + m - 16, 16);
    }
    return 0;
}

/* CTR over any length: a partial last block leaves keystream for the next op, as a chained
 * CTR stream does; that keystream comes from encrypting a zero block at the counter. */
static int ctr_op(struct ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    size_t i = ctr_stream_use(&c->ks, out, in, len);
    size_t mid = (len - i) & ~(size_t)15;
    if (cipher_blocks(c, out + i, in + i, mid))
        return -1;
    i += mid;
    if (i < len) {
        int dec = c->decrypt;
        memset(c->ks.ks, 0, sizeof c->ks.ks);
        c->decrypt = 0; /* CTR keystream: the same in both directions */
        int r = cipher_blocks(c, c->ks.ks, c->ks.ks, 16);
        c->decrypt = dec;
        if (r)
            return -1;
        ctr_stream_tail(&c->ks, out + i, in + i, len - i);
    }
    return 0;
}

/* The kernel's AEAD takes AAD || input and returns AAD || output (crypto/algif_aead.c):
 * encrypt appends the tag; decrypt consumes it and fails with EBADMSG when it is wrong. */
static int aead_op(struct ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    size_t inlen = len + (c->decrypt ? ALGO_TAG_LEN : 0);
    size_t outlen = len + (c->decrypt ? 0 : ALGO_TAG_LEN);
    if (ALGO_AAD_LEN + len + ALGO_TAG_LEN > c->limit)
        return -1;
    struct iovec vin[2] = { { (void *)algo_aad, ALGO_AAD_LEN }, { (void *)in, inlen } };
    if (send_request(c, c->iv, 12, ALGO_AAD_LEN, vin, 2, ALGO_AAD_LEN + inlen, 0))
        return -1;
    struct iovec vout[2] = { { c->aad_out, ALGO_AAD_LEN }, { out, outlen } };
    struct msghdr msg = { .msg_iov = vout, .msg_iovlen = 2 };
    ssize_t r = recvmsg(c->op, &msg, 0);
    if (r != (ssize_t)(ALGO_AAD_LEN + outlen))
        return -1;
    if (!c->decrypt)
        algo_nonce_next(c->iv);
    return 0;
}

static int hash_op(struct ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    struct iovec v = { .iov_base = (void *)in, .iov_len = len };
    if (len >= c->zerocopy_min) {
        if (splice_in(c, &v, 1, 0))
            return -1;
    } else if (send(c->op, in, len, 0) != (ssize_t)len) {
        return -1;
    }
    return read_full(c->op, out, c->a->out_len);
}

int afalg_op(void *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    struct ctx *c = ctx;
    switch (c->mode) {
    case MODE_HASH: return hash_op(c, out, in, len);
    case MODE_AEAD: return aead_op(c, out, in, len);
    case MODE_CTR: return ctr_op(c, out, in, len);
    case MODE_CBC: return len % 16 ? -1 : cipher_blocks(c, out, in, len);
    }
    return -1;
}
