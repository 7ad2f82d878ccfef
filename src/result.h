/* What one measurement cell gives: raw figures; units and formatting belong to ui/ and CSV. */
#ifndef ACCELSCOPE_RESULT_H
#define ACCELSCOPE_RESULT_H

#include <stdint.h>

#define RESULT_MAX_THREADS 256
#define RESULT_MAX_ROUNDS 48 /* rounds kept per cell (the session takes at most 48) */

/* Why a round was retaken (the rules are stats.c's), each reason named once here:
 * X(NAME, key, words): NAME gives stats.h's mask bit STATS_<NAME> and result.retaken's index
 * RESULT_RETAKEN_<NAME>; key is the CSV's and JSON's word, words what `run` prints. The order
 * is the mask's bit order. */
#define RESULT_RETAKEN_REASONS(X)                                                              \
    X(DESCHEDULED, "descheduled", "descheduled")                                               \
    X(STOLEN, "stolen", "stolen from by the hypervisor")                                       \
    X(CLOCK_MOVED, "clock-moved", "clock probe moved across the window")                       \
    X(CLOCK_OFF, "clock-off", "clock probe off the cell's median")                             \
    X(SLOW_PHASE, "slow-memory", "host slowing the memory path (load probe)")                  \
    X(BUSY_BESIDE, "busy-beside", "programs busy on the other CPUs or SMT siblings")           \
    X(MOVED_CPU, "moved-cpu", "moved to another CPU")                                          \
    X(APART, "windows-apart", "with -t N windows apart")

enum {
#define RESULT_X(name, key, words) RESULT_RETAKEN_##name,
    RESULT_RETAKEN_REASONS(RESULT_X)
#undef RESULT_X
    RESULT_RETAKEN_COUNT
};

enum res_status {
    RES_PENDING,     /* not started */
    RES_RUNNING,     /* samples arriving; figures so far are live */
    RES_OK,          /* verified and measured */
    RES_WRONG,       /* output differs from the reference: no figure */
    RES_CRASHED,     /* a worker died by a signal */
    RES_TIMEOUT,     /* a worker went silent past the watchdog */
    RES_UNAVAILABLE, /* the implementation cannot run here; reason says why */
    RES_ERROR,       /* set-up or an operation failed; reason says what */
    RES_CANCELLED,   /* stopped by the user */
};

struct result {
    enum res_status status;
    char reason[200];       /* why, for every status but ok */
    char capvec[160];       /* OpenSSL's capability vector in the worker (OPENSSL_CPU_INFO) */
    char reference[64];     /* what the output was checked against */
    int threads;            /* workers asked for */
    int samples;            /* timed samples received, all workers */
    int samples_wanted;     /* per worker */
    uint64_t ops;           /* timed operations, all workers */
    uint64_t bytes;         /* timed bytes, all workers */
    double seconds;         /* timed wall seconds, mean per worker, disturbed rounds too */
    double mb_per_s;        /* sum over workers of each worker's median sample, 10^6 B/s */
    double mb_min, mb_max;  /* sums of the workers' slowest / fastest samples */
    double spread_pct;      /* (max - min) / (2 x median) x 100: the samples' +- half-range */
    double cpu_util;        /* CPU time (user+sys) / wall time, per worker: 1.0 = one core busy */
    double cycles_per_byte; /* 0 when no cycle clock */
    char cycle_clock[16];   /* "pmu", "pmu-user", "tsc" or "none" */
    double thread_mb[RESULT_MAX_THREADS]; /* each worker's median */
    /* Each round's figure (MB/s, summed over the workers), in the order taken; 0 for a
     * disturbed round. The session takes the rounds of a column's cells in turn, so round k
     * of two cells of one column ran moments apart: their ratio is free of the machine's
     * drift (derive.c pairs them). */
    int nround;
    float round_mb[RESULT_MAX_ROUNDS];
    unsigned group;         /* the session's group its rounds were taken in: a column split
                             * into groups (many cells at -t N) was not interleaved across
                             * them, so rounds pair only within one group */
    /* Measuring through the noise (src/stats.h has the rules). Every figure above comes from
     * the undisturbed sample rounds only; a round is one sample of every worker, windows
     * started together. */
    int rounds;             /* undisturbed rounds: the samples the figures are made of */
    int disturbed;          /* rounds left out: descheduled, stolen from, the clock moved,
                             * the load probe slow, -t N windows apart, or (one worker) moved
                             * or beside programs busy on the other CPUs (stats.h) */
    int retaken[RESULT_RETAKEN_COUNT]; /* of those, how many for each reason (a round may
                                        * have several): where a run's time and quiet went */
    double ci_pct;          /* 95 % CI of the median: half-width in % of the median */
    double ci_lo, ci_hi;    /* that interval, 10^6 B/s (sums of the workers' bounds) */
    double clock_mhz;       /* median effective core clock of the samples (dependent adds) */
    double clock_ref_mhz;   /* the clock the machine's last saved run ran this cell at
                             * (lastrun.h; the session sets it when the cell is done), 0 =
                             * none: the absolute figure is judged beside it */
    double last_mb_per_s;   /* that run's figure for this cell where it claimed it repeats
                             * (absolute quiet) and ran the same code; 0 = none */
    double vector_rate;     /* median rate of the vector probe (AVX2 adds, port-bound), 10^6
                             * adds/s: compare within a machine only; 0 where not measured */
    double load_rate;       /* median of the rounds' stats_sample_load (the load probe per
                             * MHz of the clock probe): within a machine only; 0 = none */
    int slow_phase;         /* that median is more than STATS_LOAD_TOL below the run's usual
                             * rate (the engine's when the cell's last round came): the cell
                             * ran while the host slowed the memory path, which moves code by
                             * how much it uses it; noisy, and so is any xN made from it */
    uint64_t waited_ns;     /* one worker: the time its warm-ups waited for slow spells of
                             * the memory path to pass before windows (worker.c), all rounds */
    int quality;            /* enum result_quality */
    int corun;              /* one worker, and its rounds together ran beside programs busy
                             * on the other CPUs or on its core's SMT siblings (stats.h
                             * stats_shared): noisy whatever its interval, and so is any xN
                             * made from it */
    /* One worker: the cell's rounds were taken in turn by two worker processes (engine.h
     * job.alternate); each one's median, 10^6 B/s (0: none, or it kept under two rounds).
     * process_apart: the two lie further apart than their intervals allow
     * (stats_process_apart): the figure depends on the process that measured it; noisy, and
     * so is any xN made from it. */
    double process_mb[2];
    double process_ci_pct[2]; /* each one's 95 % interval: half-width in % of its median */
    int process_apart;
    double overlap_pct;     /* -t N: time all N windows ran at once, in % of their union
                             * (summed over all rounds taken); 100 for one worker */
    double sys_pct;         /* system time in % of the timed windows' CPU time; -1 unknown */
    /* ENGINE rows (src/offload.h): 1 when the work stayed in libcrypto's software, which
     * makes the figure a software one whatever path the row is on; fallback_why says so. */
    int fallback;
    char fallback_why[160];
    /* A kernel-path ENGINE row that claims the work and opened the kernel's descriptors, while
     * its timed windows hold too little CPU time to tell user from system time
     * (OFFLOAD_MIN_CPU_NS): its verdict is still open, so it does not stop early (session_run.c
     * sched_stop_rule), only at its round cap or budget. */
    int offload_open;
};

enum result_quality {
    RESULT_UNRATED, /* no figure yet */
    RESULT_QUIET,   /* interval within +-5 % and most rounds undisturbed */
    RESULT_NOISY,   /* interval wider than +-5 %, most rounds disturbed, or too few rounds */
};

/* "ok", "wrong output", "crashed (SIGILL)", "timed out", "unavailable", ... */
const char *result_status_text(const struct result *r, char *buf, unsigned n);

/* 1 when r's figure may stand beside its column's: verified and measured (or live, still
 * running), and the work was the row's own (not an engine row whose work libcrypto's
 * software did). derive.c and the scheduler's stop rule both compare only such figures. */
int result_comparable(const struct result *r);

/* A reason's CSV/JSON key ("slow-memory") and words for people; NULL out of range. */
const char *result_retaken_key(int why);
const char *result_retaken_words(int why);

/* The status in a number's width, for tables: "ok", "WRONG", "CRASHED", "TIMEOUT", "n/a"... */
const char *result_status_short(enum res_status s);

#endif
