/* What on this machine will make figures noisy or different from another run's, looked at
 * before a run: load against the CPUs, other busy processes, the cpufreq governor, a VM's
 * steal time, a host's slow spells of the memory path, the user's own OpenSSL capability
 * mask. Each finding is one line a person can
 * act on; `run` prints them and the TUI shows them at start. */
#ifndef ACCELSCOPE_NOISE_H
#define ACCELSCOPE_NOISE_H

#include <stddef.h>

#define NOISE_MAX 7

struct noise {
    int n;
    char line[NOISE_MAX][200];
};

/* Looks (~150 ms: steal is read before and after the load probes). Never fails: what cannot
 * be read is not reported. */
void noise_survey(struct noise *out);

/* The findings joined with "; " into buf ("" when none). */
const char *noise_join(const struct noise *nz, char *buf, size_t n);

#endif
