#ifndef ACCELSCOPE_WORKER_H
#define ACCELSCOPE_WORKER_H

/* The longest a worker's warm-up waits for a slow spell of the memory path to pass before a
 * window (`go wait <lref>`, worker.c), ns. 60 ms, not 20: on the Emerald Rapids VM the slow
 * spells lasted a median 28 ms (90th percentile 300 ms; session_priv.h SCHED_SAMPLES has the
 * rest); a wait is a retake avoided, and a retake costs a warm-up and a window too. */
#define WORKER_WAIT_MAX_NS 60000000u

/* Entry point of `accelscope __worker ALG IMPL BYTES DECRYPT SECONDS SAMPLES CPU`. */
int worker_main(int argc, char **argv);

#endif
