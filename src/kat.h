/* Known answers a worker checks before trusting an implementation (and the only check
 * where no second implementation exists, as for IDEA on Debian's libcrypto). */
#ifndef ACCELSCOPE_KAT_H
#define ACCELSCOPE_KAT_H

#include <stddef.h>

#include "impl.h"

/* 1 = im reproduces its algorithm's known answer; 0 = none on file; -1 = mismatch;
 * -2 = set-up or the operation failed (why says which). */
int kat_check(const struct impl *im, char *why, size_t n);

#endif
