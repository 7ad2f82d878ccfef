#ifndef ACCELSCOPE_WORKER_H
#define ACCELSCOPE_WORKER_H

/* The longest a worker's warm-up waits for a slow spell of the memory path to pass before a
 * window (`go wait <lref>`, worker.c), ns. 60 ms, not 20: on the Emerald Rapids VM the slow
 * spells lasted a median 28 ms (90th percentile 300 ms; session_priv.h SCHED_SAMPLES has the
 * rest); a wait is a retake avoided, and a retake costs a warm-up and a window too. */
#define WORKER_WAIT_MAX_NS 60000000u

/* The size of the -t N workers' shared start barrier (engine.c barrier_open): a slot of 8
 * bytes for each worker, a page. */
#define WORKER_BARRIER_BYTES 4096

/* Entry point of `accelscope __worker ALG IMPL BYTES DECRYPT SECONDS SAMPLES CPU [FD:N:I]`:
 * FD:N:I, the memory of the start barrier of the N workers of a -t N cell, this one the I-th
 * (worker.c barrier_wait). */
int worker_main(int argc, char **argv);

#endif
