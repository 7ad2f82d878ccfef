#ifndef ACCELSCOPE_WORKER_H
#define ACCELSCOPE_WORKER_H

/* The longest a worker's warm-up waits for a slow spell of the memory path to pass before a
 * window (`go wait <lref>`, worker.c), ns. */
#define WORKER_WAIT_MAX_NS 20000000u

/* Entry point of `accelscope __worker ALG IMPL BYTES DECRYPT SECONDS SAMPLES CPU`. */
int worker_main(int argc, char **argv);

#endif
