/* A measurement session: the one place that decides anything about a measurement. `run`, the
 * TUI and the stage demo each hold a session and render it; none of them keeps its own loop,
 * its own plan or its own derived figures.
 *
 * A session owns
 *  - the selection (select.h): algorithms, sizes, paths, included and excluded
 *    implementations, threads, time per cell, direction; printable as the `accelscope run`
 *    command line that measures the same cells (session_cmdline);
 *  - the plan: one cell per (implementation, size) the selection asks for, in display order
 *    (algorithm, path, implementation, size); results survive a change of selection;
 *  - availability of every implementation, asked once (session_probe);
 *  - the silicon's ceilings (silicon.h), measured in a forked child that sends the struct back
 *    through a pipe, so the microbenchmarks' buffers and CPU time stay out of the caller and
 *    never run beside a worker;
 *  - running: which cell runs next, through the engine, polled beside the caller's other
 *    descriptors (session_pollfds / session_step), or to the end (session_run);
 *  - the derived figures of every cell (struct cell_derived): slowest verified cell of the
 *    same algorithm and size, speed-up over it, best of its column, ties.
 * It reports cell events to one listener. It never draws and never prints, except the
 * listener does. */
#ifndef ACCELSCOPE_SESSION_H
#define ACCELSCOPE_SESSION_H

#include <poll.h>
#include <stddef.h>

#include "cell.h"
#include "select.h"
#include "stats.h"

struct session;
struct silicon;
struct lastrun;

enum session_event {
    SESSION_CELL_START,  /* cell is running now */
    SESSION_CELL_SAMPLE, /* cell has new samples (its figures are live) */
    SESSION_CELL_DONE,   /* cell finished, whatever its status */
    SESSION_RUN_DONE,    /* the run ended: every cell done, or cancelled (cell = SIZE_MAX) */
    SESSION_CEILINGS,    /* the silicon's ceilings are known, or known to be unknown */
};

typedef void (*session_listener)(struct session *s, enum session_event ev, size_t cell,
                                 void *arg);

/* What a finished (or running) run amounts to. */
struct session_tally {
    size_t cells;        /* in the plan */
    size_t ok;           /* verified and measured */
    size_t failed;       /* wrong output, crashed, timed out, error */
    size_t unavailable;  /* cannot run here */
    size_t cancelled;    /* stopped by the user */
    size_t pending;      /* not reached (a cancelled run leaves them) */
    struct stats_retaken retaken; /* the measured cells' rounds retaken, and why */
    /* Where the last run's time went, from its start (after the ceilings) to its end; every
     * visit of a cell counts; a resumed run counts its own part only. */
    double wall;         /* seconds from its start to its end (0 while it runs) */
    double timed;        /* in the cells' timed windows, retaken rounds too (per worker) */
    double waited;       /* one-worker cells waiting out slow spells before windows */
    double starting;     /* from each column's start to its timing: workers started, verified */
    long rounds;         /* rounds taken in those windows, kept and retaken */
};

/* Progress of a run, for a progress line. */
struct session_progress {
    int active;          /* a run is going */
    size_t cell;         /* index of the cell running (valid when active) */
    size_t done, total;  /* cells finished in this run, and cells the run will go through */
    double elapsed;      /* seconds since the run started */
    double eta;          /* seconds left, estimated from the cells that ran */
};

/* A new session with the default selection (select_defaults). Never NULL. */
struct session *session_new(void);
void session_free(struct session *s);
void session_set_listener(struct session *s, session_listener fn, void *arg);

/* The machine's last saved run (lastrun.h), which the session owns from here (NULL: none; a
 * former one is freed): each cell finished from now on is set beside it (result.clock_ref_mhz,
 * last_mb_per_s), and an absolute figure whose clock or MB/s moved from it by more than
 * STATS_CLOCK_REF_PCT or STATS_ABSOLUTE_KEPT_PCT is not claimed to repeat. */
void session_set_lastrun(struct session *s, struct lastrun *ref);
const struct lastrun *session_lastrun(const struct session *s);

/* The selection. session_sel_edit() returns NULL (and why) while a run is going; after
 * editing, session_rebuild() makes the plan match it. */
const struct selection *session_sel(const struct session *s);
struct selection *session_sel_edit(struct session *s, char *why, size_t n);
void session_rebuild(struct session *s);

/* The selection as the `accelscope run` command line that measures the same cells
 * (malloc'd; the caller frees). */
char *session_cmdline(const struct session *s);

/* Asks every implementation whether it can run here; cheap (CPUID, a socket(), EVP
 * look-ups). Until then, session_avail() answers -1 "probing". */
void session_probe(struct session *s);
/* 1 available, 0 not (why says why), -1 not probed yet. */
int session_avail(const struct session *s, const struct impl *im, char *why, size_t n);

/* Ceilings: session_ceilings_start() forks the child (once; later calls do nothing).
 * Until it has answered, session_ceilings_ready() is 0 and a run asked for waits for them
 * (session_start() returns 1: "queued"). session_run() starts and awaits them itself. */
void session_ceilings_start(struct session *s);
int session_ceilings_ready(const struct session *s);
/* The silicon's figures once the ceilings are known (memory bandwidth for scaling.h), else
 * NULL: never measured in the caller's process. */
const struct silicon *session_silicon(const struct session *s);

/* The plan's cells, in display order. Valid until the next session_rebuild(). */
size_t session_ncells(const struct session *s);
const struct cell *session_cell(const struct session *s, size_t i);

/* Starts measuring the plan: 0 started, 1 queued until the ceilings are known, -1 refused
 * (nothing selected, a size an algorithm refuses, no implementation matches: why says so). */
int session_start(struct session *s, char *why, size_t n);
/* As session_start(), but the cells that already have a result keep it: only pending and
 * cancelled cells are measured (the demo resumes after a pause). */
int session_resume(struct session *s, char *why, size_t n);
/* Stops the run: the cell running becomes cancelled, the cells after it stay pending, every
 * figure measured is kept. A queued run is dropped. Either way the listener hears
 * SESSION_RUN_DONE. Returns 1 when there was a run. */
int session_cancel(struct session *s);
int session_running(const struct session *s);  /* a run is going or queued */
int session_queued(const struct session *s);   /* queued, waiting for the ceilings */

/* For a poll loop: the descriptors to watch (workers, the ceilings child) and a timeout in ms
 * (-1 = none needed); then session_step() reads whatever arrived, never blocking, and returns
 * 1 when a cell changed (redraw). */
int session_pollfds(const struct session *s, struct pollfd *fds, int max);
int session_timeout_ms(const struct session *s);
int session_step(struct session *s);

/* Headless: starts the run and polls until it ends. 0, or -1 and why as session_start(). */
int session_run(struct session *s, char *why, size_t n);

void session_progress(const struct session *s, struct session_progress *p);
void session_tally(const struct session *s, struct session_tally *t);

/* The largest thread count a run may use: CPUs this process may run on (affinity), capped
 * at RESULT_MAX_THREADS; *online gets the CPUs online. */
int session_max_threads(long *online);

#endif
