/* OpenSSL's capability vector (OPENSSL_ia32cap / OPENSSL_armcap), decoded into the features
 * of feature.h, so `info` and the workers say what libcrypto really uses. */
#ifndef ACCELSCOPE_OSSLCAP_H
#define ACCELSCOPE_OSSLCAP_H

#include <stdint.h>

#include <stddef.h>

#include "feature.h"

/* Parses OpenSSL_version(OPENSSL_CPU_INFO) ("CPUINFO: OPENSSL_ia32cap=0x..:0x.."). Returns
 * the number of words read (0 when there is no vector). */
int osslcap_parse(const char *cpuinfo, uint64_t w[2]);

/* 1/0 whether the vector enables f; -1 when OpenSSL has no bit for f on this architecture. */
int osslcap_has(const uint64_t w[2], int nwords, enum feature f);

/* The bits a worker's mask forced off, from the " env:VALUE" OpenSSL appends to a vector
 * (capvec, as osslcap_parse reads): "~N" clears N, a whole "N" the bits it lacks. 1 when
 * there is such a clause, else 0 and none. */
int osslcap_env_cleared(const char *capvec, uint64_t c[2]);

/* The capability bits ACCELSCOPE_DENY takes from OpenSSL, per word: the features
 * cpu_denied() with an OpenSSL bit on this architecture, and those no CPU has without one of
 * them (VAES without AES-NI, AVX2 without AVX...: OpenSSL's code for them tests only their
 * own bit). 1 when there are any, else 0. */
int osslcap_deny_bits(uint64_t d[2]);
/* The same for the features marked in denied (indexed by enum feature). */
int osslcap_deny_bits_of(const unsigned char denied[FEAT_COUNT], uint64_t d[2]);

/* ACCELSCOPE_DENY reaches OpenSSL's rows too: a feature denied is one their workers do not
 * have, so the hw row of a denied feature runs what libcrypto runs on a CPU without it. The
 * worker of a row whose own mask is row_env (NAME=VALUE, or NULL) gets the result in its
 * environment: row_env itself when nothing is denied, else the row's mask (or, for a row
 * without one, the user's own OPENSSL_ia32cap / OPENSSL_armcap, or the CPU's vector) with the
 * denied bits cleared as well, in buf (OSSLCAP_ENV_MAX bytes). */
#define OSSLCAP_ENV_MAX 96
const char *osslcap_worker_env(const char *row_env, char *buf, size_t n);

/* base, the value of mask variable name (OPENSSL_ia32cap: "[~]N[:[~]N]" as OpenSSL 3's
 * crypto/cpuid.c reads it; OPENSSL_armcap: a whole "N"), with the bits d cleared as well, as
 * NAME=VALUE in buf; 0, or -1 when base is not such a value. */
int osslcap_add_deny(const char *name, const char *base, const uint64_t d[2], char *buf,
                     size_t n);

/* 1 and why when a denial cannot reach OpenSSL's rows without a mask of their own (the hw
 * rows: a mask of the user's that this code does not read as OpenSSL does; aarch64's
 * libcrypto not giving its vector), else 0. The asm rows' masks always take it. */
int osslcap_deny_missed(char *why, size_t n);

#endif
