/* Known answers a worker checks before trusting an implementation (and the only check
 * where no second implementation exists, as for IDEA on Debian's libcrypto). */
#ifndef ACCELSCOPE_KAT_H
#define ACCELSCOPE_KAT_H

#include <stddef.h>
#include <stdint.h>

#include "impl.h"

/* The status rule of impl.h: 0 = im reproduces its algorithm's known answer; nonzero = not,
 * and why says why: KAT_NONE = there is none on file (not a failure: check another way);
 * -1 = mismatch; -2 = set-up or the operation failed. */
#define KAT_NONE 1
int kat_check(const struct impl *im, char *why, size_t n);

/* Public-key rows (algo.h: ALGO_PKEY), keys from seed (32 bytes): a signature made by im
 * verifies with the reference's verifier and the other way round, one with a flipped bit is
 * refused by both; the two sides of an exchange derive one secret, the reference's too; and
 * RFC 8032 / RFC 7748 known answers. Same status rule; refname says what it checked with. */
int kat_pk_verify(const struct impl *im, const uint8_t *seed, char *refname, size_t rn,
                  char *why, size_t n);

/* The input of im's timed op into in (ALGO_PK_BUF bytes): the message, for a verify row with
 * a valid signature, for a derive row the peer's seed. 0, or -1 and why. */
int kat_pk_input(const struct impl *im, const uint8_t *seed, uint8_t *in, char *why, size_t n);

#endif
