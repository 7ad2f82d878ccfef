/* /proc/stat's cpu lines (proc(5)): what a worker reads around each timed sample. */
#ifndef ACCELSCOPE_PROCSTAT_H
#define ACCELSCOPE_PROCSTAT_H

#include <stddef.h>

/* One reading, seen from CPU `cpu` (the worker's). Ticks are USER_HZ (1/100 s). */
struct procstat {
    long long steal_mine;   /* steal ticks of `cpu`; -1 when it has no line */
    long long steal_all;    /* of every CPU (the "cpu" line); -1 when missing */
    long long others_user;  /* user + nice ticks of every other CPU: programs running there
                             * (guest time is inside user); -1 when there are none or `cpu`
                             * has no line (its own time could be among them) */
    long long others_total; /* all their ticks (user nice system idle iowait irq softirq
                             * steal); -1 when there are none */
    int others;             /* how many other CPUs have a line */
    long long others_ids;   /* the sum of their numbers: with `others`, tells a reading
                             * after a CPU went offline or came online from the one before */
    /* The same for the SMT siblings of `cpu` alone (hardware threads of its core, which share
     * its execution units): -1 when it has none, none has a line or `cpu` has none. */
    long long sib_user, sib_total;
    int sibs;               /* how many siblings have a line */
};

#define PROCSTAT_MAX_SIBLINGS 8 /* hardware threads a core (x86: 2; some POWER: 8) */

/* Parses the text of /proc/stat (NUL-terminated; a last line cut short is ignored). */
void procstat_parse(const char *text, int cpu, struct procstat *r);
/* The same, with the numbers of cpu's SMT siblings (procstat_siblings). */
void procstat_parse_sib(const char *text, int cpu, const int *sib, int nsib, struct procstat *r);

/* The other CPUs of a cpulist ("0,64", "2-3", "0-1,8-9": sysfs' thread_siblings_list), all
 * but `self`, into ids (at most max); their count, -1 for a malformed list. */
int procstat_cpulist(const char *text, int self, int *ids, int max);
/* cpu's SMT siblings from /sys/devices/system/cpu/cpuN/topology/thread_siblings_list;
 * 0 when it has none, -1 unreadable (no sysfs, cpu < 0). */
int procstat_siblings(int cpu, int *ids, int max);
/* The siblings' user ticks and all their ticks between two readings; -1 -1 when either reading
 * lacks them or the siblings changed (the worker moved). */
void procstat_sib_delta(const struct procstat *a, const struct procstat *b, long long *user,
                        long long *total);

/* The other CPUs' user ticks and all their ticks between two readings; -1 -1 when either
 * reading lacks them or the set of other CPUs changed between them. */
void procstat_others_delta(const struct procstat *a, const struct procstat *b,
                           long long *user, long long *total);

/* A buffer for pread()ing /proc/stat on this machine (sized from the configured CPUs);
 * free() it. */
char *procstat_buffer(size_t *size);

/* /proc/stat's text, read once ("" where unreadable); free() it. */
char *procstat_text(void);

/* cpu's user ticks (user + nice: programs, as others_user) and all its ticks in text; 0, or
 * -1 when it has no line. */
int procstat_cpu(const char *text, int cpu, long long *user, long long *total);

/* Reads /proc/stat once and parses it (a caller that reads it once; a worker reading it
 * around every sample keeps its descriptor and buffer instead). */
void procstat_now(int cpu, struct procstat *r);

#endif
