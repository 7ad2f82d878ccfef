/* Known answers a worker checks before trusting an implementation (and the only check
 * where no second implementation exists, as for IDEA on Debian's libcrypto). */
#ifndef ACCELSCOPE_KAT_H
#define ACCELSCOPE_KAT_H

#include <stddef.h>

#include "impl.h"

/* The status rule of impl.h: 0 = im reproduces its algorithm's known answer; nonzero = not,
 * and why says why: KAT_NONE = there is none on file (not a failure: check another way);
 * -1 = mismatch; -2 = set-up or the operation failed. */
#define KAT_NONE 1
int kat_check(const struct impl *im, char *why, size_t n);

#endif
