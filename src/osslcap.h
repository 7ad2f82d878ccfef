/* OpenSSL's capability vector (OPENSSL_ia32cap / OPENSSL_armcap), decoded into the features
 * of feature.h, so `info` and the workers say what libcrypto really uses. */
#ifndef ACCELSCOPE_OSSLCAP_H
#define ACCELSCOPE_OSSLCAP_H

#include <stdint.h>

#include "feature.h"

/* Parses OpenSSL_version(OPENSSL_CPU_INFO) ("CPUINFO: OPENSSL_ia32cap=0x..:0x.."). Returns
 * the number of words read (0 when there is no vector). */
int osslcap_parse(const char *cpuinfo, uint64_t w[2]);

/* 1/0 whether the vector enables f; -1 when OpenSSL has no bit for f on this architecture. */
int osslcap_has(const uint64_t w[2], int nwords, enum feature f);

#endif
