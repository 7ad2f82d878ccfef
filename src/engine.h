/* The measurement engine: runs one cell (one implementation, one size) in worker processes
 * and gathers their samples. Non-blocking, so the TUI can poll it beside the keyboard.
 *
 * Paced (job->paced = 1), the caller decides when each sample round is taken:
 *   STARTING --every worker verified--> IDLE --engine_go()--> SAMPLING --every worker's
 *   sample in--> IDLE ... engine_stop() --> STOPPING --workers said done and exited-->
 *   FINISHED. Failures, the watchdog and engine_cancel() finish from any state.
 * A round is one timed sample of every worker, their windows started together: the workers
 * wait on their stdin, and `go <t0>` gives them all one CLOCK_MONOTONIC start instant 3 ms
 * ahead (one worker gets a plain `go` and warms up for worker.c's WARM_NS from its own
 * wake-up; with job->alternate the cell's two workers take the rounds in turn, one window a
 * round, each calibrated before its first). The figures in the result come from the
 * undisturbed rounds (src/stats.h); the scheduler asks stats_enough() after each round and
 * retakes the rest.
 * Not paced (job->paced = 0, as older callers), the engine takes job->samples rounds itself,
 * within --time as before, and gives a figure (noisy) even when every round was disturbed. */
#ifndef ACCELSCOPE_ENGINE_H
#define ACCELSCOPE_ENGINE_H

#include <poll.h>
#include <stddef.h>

#include "impl.h"
#include "result.h"
#include "stats.h"

struct engine_job {
    const struct impl *impl;
    size_t bytes;       /* one operation's input */
    int threads;        /* workers at once, each pinned to its own CPU */
    double seconds;     /* timed seconds per worker: a sample lasts seconds / samples */
    int samples;        /* >= 5; unpaced, the rounds the engine takes */
    int decrypt;        /* ciphers and AEADs: measure the decrypt direction */
    double watchdog;    /* seconds of silence before a worker counts as hung; 0 = default */
    int paced;          /* 1: the caller calls engine_go()/engine_stop(); 0: the engine does */
    unsigned group;     /* copied into the result (result.h) */
    int noisy_fallback; /* paced: when every round was disturbed, finish RES_OK with the
                         * figures of all rounds, quality noisy, rounds 0, instead of
                         * RES_ERROR "no undisturbed sample" (unpaced always does this) */
    int alternate;      /* paced, one thread: two worker processes, both verified, take the
                         * rounds in turn (each round one of them, as one worker would); the
                         * figures are of all rounds, result.process_mb of each process's,
                         * and a figure the two do not share is noisy
                         * (result.process_apart) */
};

/* --time's default: the default run (every algorithm at six sizes, about 420 cells on an x86
 * machine with every path) in under 90 s, a third of it overhead (start-up, warm-up before
 * each round). At 0.3 it took 157 s. */
#define ENGINE_DEFAULT_SECONDS 0.15
#define ENGINE_MIN_SAMPLES 5
/* engine_run(): rounds in all, in units of job->samples, before giving up on getting
 * job->samples undisturbed ones. */
#define ENGINE_RUN_ROUNDS 3

struct engine;

/* The program a worker runs (default: /proc/self/exe). Tests point it at ./accelscope. */
void engine_set_exe(const char *path);

/* The run's usual load-probe rate that samples are judged against (stats.h
 * STATS_SLOW_PHASE), from every engine of this process; 0 while too few samples have come.
 * engine_load_forget starts over (tests). */
double engine_load_ref(void);
void engine_load_forget(void);
/* What a one-worker sample's figure does to the usual one (tests feed it directly). */
void engine_load_feed(double figure);

/* Starts the workers; never NULL (out of memory aborts). A cell that cannot start (an
 * unavailable implementation, fork failure) is finished at once with its status. */
struct engine *engine_start(const struct engine_job *job);

enum engine_state {
    ENGINE_STARTING, /* workers verifying */
    ENGINE_IDLE,     /* every worker ready (or done with its last sample), none in flight */
    ENGINE_SAMPLING, /* a round in flight (the first one calibrates first) */
    ENGINE_FINISHED, /* the result is final: it never changes again */
    ENGINE_STOPPING, /* engine_stop() called, waiting for the workers to exit */
};
enum engine_state engine_state(const struct engine *e);

/* Only in IDLE: sends `go` to every worker at once (the barrier for -t N); SAMPLING until
 * each has sent its sample line. 0, or -1 when not IDLE. */
int engine_go(struct engine *e);

/* Sends `quit`: a round in flight completes, then the cell finishes RES_OK with the rounds it
 * has, or RES_ERROR "no undisturbed sample" without any (but see job->noisy_fallback);
 * engine_step() returns 1. */
void engine_stop(struct engine *e);

/* Only in IDLE, one worker: moves it to CPU `cpu` (an id of this process's affinity set) for
 * its rounds from now on (`pin`: worker.c). 0, or -1 when not IDLE or the cell has more than
 * one worker (those are pinned at start). */
int engine_pin(struct engine *e, int cpu);

/* Whether the CPUs this cell's workers calibrate on at the next engine_go() (that call only)
 * have run timed rounds until just now (the session's rounds back to back): then they skip
 * their wait for a steady clock (worker.c steady; `cal warm`), which only a CPU coming from
 * idle needs. */
void engine_warm(struct engine *e, int warm);

/* Rounds asked for so far with engine_go(), disturbed or not. */
int engine_rounds_taken(const struct engine *e);

/* The descriptors to poll for input, and how long until the next watchdog check. The
 * watchdog runs while STARTING, SAMPLING and STOPPING; in IDLE, paced, nothing is due (1000). */
int engine_pollfds(const struct engine *e, struct pollfd *fds, int max);
int engine_timeout_ms(const struct engine *e);

/* Reads whatever the workers have sent, reaps the dead, applies the watchdog.
 * Returns 1 once the cell is finished. Never blocks. */
int engine_step(struct engine *e);

/* Stops the workers; the cell becomes cancelled unless it had already finished. */
void engine_cancel(struct engine *e);

const struct result *engine_result(const struct engine *e);
void engine_free(struct engine *e);

/* Runs a job to the end, paced through engine_go()/engine_stop(): job->samples undisturbed
 * rounds, retaking disturbed ones up to ENGINE_RUN_ROUNDS x job->samples rounds. progress,
 * if not NULL, sees the live result after each round. */
void engine_run(const struct engine_job *job, struct result *out,
                void (*progress)(const struct result *r, void *arg), void *arg);

#endif
