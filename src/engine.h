/* The measurement engine: runs one cell (one implementation, one size) in worker processes
 * and gathers their samples. Non-blocking, so the TUI can poll it beside the keyboard;
 * engine_run() wraps it for headless use. */
#ifndef ACCELSCOPE_ENGINE_H
#define ACCELSCOPE_ENGINE_H

#include <poll.h>
#include <stddef.h>

#include "impl.h"
#include "result.h"

struct engine_job {
    const struct impl *impl;
    size_t bytes;       /* one operation's input */
    int threads;        /* workers at once, each pinned to its own CPU */
    double seconds;     /* timed seconds per worker, split over the samples */
    int samples;        /* >= 5 */
    int decrypt;        /* ciphers and AEADs: measure the decrypt direction */
    double watchdog;    /* seconds of silence before a worker counts as hung; 0 = default */
};

#define ENGINE_DEFAULT_SECONDS 0.3
#define ENGINE_MIN_SAMPLES 5

struct engine;

/* The program a worker runs (default: /proc/self/exe). Tests point it at ./accelscope. */
void engine_set_exe(const char *path);

/* Starts the workers; never NULL (out of memory aborts). A cell that cannot start (an
 * unavailable implementation, fork failure) is finished at once with its status. */
struct engine *engine_start(const struct engine_job *job);

/* The descriptors to poll for input, and how long until the next watchdog check. */
int engine_pollfds(const struct engine *e, struct pollfd *fds, int max);
int engine_timeout_ms(const struct engine *e);

/* Reads whatever the workers have sent, reaps the dead, applies the watchdog.
 * Returns 1 once the cell is finished. Never blocks. */
int engine_step(struct engine *e);

/* Stops the workers; the cell becomes cancelled unless it had already finished. */
void engine_cancel(struct engine *e);

const struct result *engine_result(const struct engine *e);
void engine_free(struct engine *e);

/* Runs a job to the end; progress, if not NULL, sees the live result after each sample. */
void engine_run(const struct engine_job *job, struct result *out,
                void (*progress)(const struct result *r, void *arg), void *arg);

#endif
