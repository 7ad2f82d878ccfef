/* The environment variables that change what accelscope measures (ACCELSCOPE_DENY,
 * ACCELSCOPE_AFALG_DRIVERS), checked the same way by run, info and the TUI. */
#ifndef ACCELSCOPE_ENV_H
#define ACCELSCOPE_ENV_H

#include <stddef.h>

/* 0 when every word of every such variable is understood; else -1 and why, naming the bad
 * word and what is accepted (a front end refuses to start: exit 2). */
int env_check(char *why, size_t n);

#endif
