/* What the session's files share (session.c: selection, plan, availability, progress;
 * session_ceil.c: the silicon's ceilings; session_run.c: running and scheduling). Not for
 * anyone else: the interface is session.h. */
#ifndef ACCELSCOPE_SESSION_PRIV_H
#define ACCELSCOPE_SESSION_PRIV_H

#include <stddef.h>

#include "plan.h"
#include "result.h"
#include "session.h"

struct engine;

/* One cell of the group being measured, with its engine (NULL once finished). */
struct member {
    size_t cell;
    struct engine *e;
};

struct session {
    struct selection sel;
    struct plan plan;
    session_listener listener;
    void *listener_arg;

    /* Availability, by registry index, asked once. */
    int probed;
    size_t nprobed;
    unsigned char *avail;
    char (*why)[200];

    int ceil_seen;         /* the process's ceilings are applied to this plan */
    struct lastrun *lastrun; /* the last saved run's clocks and figures (owned), or NULL */

    /* The run: one group at a time (the cells of one column: one algorithm, size and
     * direction), the rounds of its cells interleaved (session_run.c). */
    int active, queued;
    int resume;            /* this run measures only the cells without a result */
    struct member *grp;    /* the group's cells */
    size_t ngrp, capgrp;
    long sampling;         /* index in grp whose round is in flight; -1 none */
    size_t turn;           /* the member to sample next, round robin */
    unsigned grpseq;       /* groups begun in this session: result.group */
    size_t done, total;    /* cells finished in this run, and to go through */
    double t0, grp_t0;     /* monotonic start of the run and of the group */
    double busy;           /* seconds spent on groups, for the estimate of what is left */
    double wall, timed, waited, starting; /* the run's time, as session_tally has it */
    long rounds_all;       /* session_tally's rounds: every visit's, kept and retaken */
    size_t ran;            /* cells those groups measured */
    /* One-worker groups run on one CPU, picked when timing starts (cpupick.h), and the
     * session's process keeps off it until the group ends. */
    int grp_picked;        /* the pick was made (or not needed: -t N) for this group */
    int grp_away;          /* this process is kept off the group's CPU (cpupick_avoid) */
    double round_end;      /* monotonic time sched_step saw the group's last round back (a
                            * little after its end; 0 before the first, and not after one that
                            * ended the cell abnormally: both only make a worker wait) */
    /* Columns measured in a turbulent spell (stats_spell) go through once more after the
     * rest, with fresh workers (session_run.c group_spell). */
    unsigned char *spelled; /* by plan index: the cell waits to be measured anew */
    struct result *first;  /* by plan index: a cell's first figure while it is measured anew
                            * (NULL until one is) */
    size_t ngroups;        /* groups finished in this run */
    size_t nspells;        /* of those, measured in a spell */
    int again_decided;     /* the pending cells are through: second visits decided */
};

double session_mono(void);
void session_tell(struct session *s, enum session_event ev, size_t cell);
/* A cell that cannot run here says why (its status becomes unavailable). */
void session_mark_unavailable(const struct session *s, struct cell *c);

/* session_ceil.c */
void ceilings_input(void);          /* reads what the child sent, if anything */
int ceilings_apply(struct session *s); /* 1 when s got the ceilings just now */
int ceilings_measuring(void);
int ceilings_fd(void);              /* -1 when no child */
void ceilings_stop(void);
void ceiling_of(struct cell *c);    /* the cell's limit from the ceilings, 0 unknown */

/* session_run.c */
void sched_begin(struct session *s);
int sched_step(struct session *s);  /* 1 when a cell changed */
int sched_cancel(struct session *s);
int sched_pollfds(const struct session *s, struct pollfd *fds, int max);
int sched_timeout_ms(const struct session *s);
long sched_current(const struct session *s); /* the cell sampling or starting; -1 none */
/* A sample lasts --time / SCHED_SAMPLES: short samples make many pairs within the budget and
 * pairs close in time (the VM's speed moves within a second); each round also costs the
 * worker's warm-up (engine.c GO_LEAD_NS for -t N, worker.c WARM_NS for one worker), so not
 * much shorter. 32 (4.7 ms at the default --time) rather than 16: on the Emerald Rapids VM
 * (family 6 model 207, 2026-12-03) the memory path was calm only 18 % of the time, in spells
 * of a median 14 ms (tests/bench/probes_bench), so 9.4 ms windows with their probes seldom
 * fitted in one; with this and worker.h's 60 ms wait, trust.sh's runs called 97 % of cells
 * quiet (43 % before) and 92 % of speed-ups (27 %) in one pair of runs (46 % and 13 % in
 * the next, the host slower: README). Interleaved on a smaller selection, /16 and 20 ms gave
 * 3 % and 40 % of cells quiet, /32 and 60 ms 82 % and 57 %. */
#define SCHED_SAMPLES 32
#define SCHED_ROUND_CAP 48 /* rounds at most, disturbed ones too (a machine never settling) */
#if SCHED_ROUND_CAP > RESULT_MAX_ROUNDS
#error "every round a cell takes must have a slot in result.round_mb"
#endif
/* The stop rule, for member m of a group of n after its round (taken rounds so far): 1 when
 * the round cap or the group's budget is spent (budget seconds for each member that timed,
 * shared: what one did not need another may use; spent in timed windows, every round's, and
 * in one worker's waits for slow spells to pass, result.waited_ns, except for an m whose
 * offload verdict is open: that needs CPU time in windows); else 1 only once m's offload
 * verdict is in (result.offload_open: an ENGINE row's settled figure says nothing of where
 * its work went),
 * its own median has settled (stats_enough) and so has its paired ratio to each member that
 * may come out the slowest (the x N the column shows is against it); a possible slowest goes
 * on while any alive member still pairs with it unsettled. rs are the members' results so
 * far; a member that crashed or failed takes no part. */
int sched_stop_rule(const struct result *const rs[], const int alive[], size_t n, size_t m,
                    int taken, double budget);

#endif
