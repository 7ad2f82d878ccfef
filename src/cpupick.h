/* Which CPU a group of one-worker cells runs on, and keeping the session's own process off it.
 *
 * On the Zen 5 VM the two vCPUs are not alike from one second to the next: for seconds at a
 * time one reads slow (a neighbour on its host core, by all signs) while the other does not,
 * and code slows by how much it leans on the memory path: pinned to the slow one, portable
 * sha256 at 256 B ran 213 MB/s and OpenSSL's SHA-NI code 830, on the fast one 335 and 990 in
 * the same seconds (tests/bench/cpus.sh). Workers left to the scheduler landed on either, so
 * two bars of one column could come from different machines, as it were, and the speed-up
 * between them moved from run to run by whatever their CPUs happened to be. */
#ifndef ACCELSCOPE_CPUPICK_H
#define ACCELSCOPE_CPUPICK_H

#include <sched.h>
#include <stddef.h>

#define CPUPICK_MAX 8 /* CPUs probed per pick: a 64-CPU machine is sampled, a window a pick */

/* The CPU of this process's affinity set whose load probe (clock.h) reads fastest now, the
 * best of a few readings on each of at most CPUPICK_MAX of them (from a window that moves on
 * with every call, so that on a large machine every CPU gets its turn); ~0.3 ms a CPU. A CPU
 * busy with other programs since the last look (cpupick_busy) is passed over unless all
 * are. The calling thread's affinity is as it was afterwards. -1 and why when there is
 * nothing to choose: one CPU, or the affinity set cannot be read or changed. */
int cpupick_fastest(char *why, size_t n);

/* The last verdict on `cpu` from /proc/stat: 1 when more than half of its ticks since the
 * verdict before were user time of programs other than accelscope's workers (passed over
 * then), 0 when not or not known. A pick judges the CPUs it probes. */
int cpupick_busy(int cpu);
/* Workers are about to run on CPUs no pick chose (-t N: each on a CPU of its own): their
 * ticks would read as other programs' on every CPU but the last picked, so every verdict
 * starts over: the next pick judges no CPU busy and takes its readings from there. */
void cpupick_forget(void);

/* Keeps the calling thread (accelscope has one) off `cpu` (the group's workers' CPU) while
 * the group runs, so that its own wake-ups (a sample line read, the next round's `go`) never
 * preempt a timed window. 0, or -1 when no other CPU is in the set or the set cannot be
 * changed (then nothing changed). cpupick_restore puts the set back (nothing to do when none was changed). One
 * process-wide state: a session runs one group at a time. */
int cpupick_avoid(int cpu);
void cpupick_restore(void);

/* The set this process may run on outside a group (while one keeps it off a CPU, the set
 * before): what -t all and the thread counts accepted are counted from. 0, or -1 unreadable. */
int cpupick_affinity(cpu_set_t *set);

#endif
