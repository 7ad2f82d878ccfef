/* The measurement session (session.h): selection, plan, availability, ceilings, running and
 * derived figures, for `run`, the TUI and the demo alike. */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lastrun.h"
#include "cpupick.h"
#include "derive.h"
#include "engine.h"
#include "plan.h"
#include "registry.h"
#include "session_priv.h"
#include "silicon.h"

static int live_sessions; /* the ceilings child is stopped when the last session goes */

double session_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void session_tell(struct session *s, enum session_event ev, size_t cell)
{
    if (s->listener)
        s->listener(s, ev, cell, s->listener_arg);
}

struct session *session_new(void)
{
    struct session *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    /* The kernel's drivers become implementations before the plan lists them. */
    registry_discover();
    select_defaults(&s->sel);
    s->sampling = -1;
    live_sessions++;
    session_rebuild(s);
    return s;
}

void session_free(struct session *s)
{
    if (!s)
        return;
    session_cancel(s);
    if (--live_sessions == 0)
        ceilings_stop();
    plan_free(&s->plan);
    free(s->grp);
    free(s->spelled);
    free(s->first);
    free(s->avail);
    free(s->why);
    lastrun_free(s->lastrun);
    free(s);
}

void session_set_lastrun(struct session *s, struct lastrun *ref)
{
    lastrun_free(s->lastrun);
    s->lastrun = ref;
}

const struct lastrun *session_lastrun(const struct session *s)
{
    return s->lastrun;
}

void session_set_listener(struct session *s, session_listener fn, void *arg)
{
    s->listener = fn;
    s->listener_arg = arg;
}

const struct selection *session_sel(const struct session *s)
{
    return &s->sel;
}

struct selection *session_sel_edit(struct session *s, char *why, size_t n)
{
    if (s->active || s->queued) {
        snprintf(why, n, "a measurement is running: cancel it first");
        return NULL;
    }
    return &s->sel;
}

char *session_cmdline(const struct session *s)
{
    char *args = select_args(&s->sel);
    size_t len = strlen(args) + 32;
    char *out = malloc(len);
    if (!out)
        abort();
    snprintf(out, len, "accelscope run%s%s", args[0] ? " " : "", args);
    free(args);
    return out;
}

const struct silicon *session_silicon(const struct session *s)
{
    return session_ceilings_ready(s) ? silicon_get() : NULL;
}

/* ---- availability ---- */

static long reg_index(const struct impl *im)
{
    size_t n = registry_count();
    for (size_t i = 0; i < n; i++)
        if (registry_get(i) == im)
            return (long)i;
    return -1;
}

void session_probe(struct session *s)
{
    size_t n = registry_count();
    free(s->avail);
    free(s->why);
    s->avail = calloc(n ? n : 1, 1);
    s->why = calloc(n ? n : 1, sizeof *s->why);
    if (!s->avail || !s->why)
        abort();
    for (size_t i = 0; i < n; i++) {
        const struct impl *im = registry_get(i);
        s->avail[i] = im->check(im, s->why[i], sizeof s->why[i]) == 0;
    }
    s->nprobed = n;
    s->probed = 1;
    if (!s->active)
        session_rebuild(s);
}

int session_avail(const struct session *s, const struct impl *im, char *why, size_t n)
{
    long i = reg_index(im);
    if (!s->probed || i < 0 || (size_t)i >= s->nprobed) {
        if (n)
            snprintf(why, n, "probing");
        return -1;
    }
    if (!s->avail[i] && n)
        snprintf(why, n, "%s", s->why[i]);
    return s->avail[i];
}

/* ---- plan ---- */

static const struct cell *find_old(const struct plan *old, const struct cell *c)
{
    for (size_t i = 0; i < old->n; i++) {
        const struct cell *o = &old->cells[i];
        if (o->impl == c->impl && o->bytes == c->bytes && o->decrypt == c->decrypt &&
            o->threads == c->threads)
            return o;
    }
    return NULL;
}

/* A cell that cannot run here says why before any run. */
void session_mark_unavailable(const struct session *s, struct cell *c)
{
    char why[200];
    if (session_avail(s, c->impl, why, sizeof why) == 0) {
        c->r.status = RES_UNAVAILABLE;
        snprintf(c->r.reason, sizeof c->r.reason, "%s", why);
    }
}

void session_rebuild(struct session *s)
{
    if (s->active)
        return;
    struct plan old = s->plan;
    plan_build(&s->plan, &s->sel);
    for (size_t i = 0; i < s->plan.n; i++) {
        struct cell *c = &s->plan.cells[i];
        const struct cell *o = find_old(&old, c);
        if (o && o->r.status != RES_PENDING && o->r.status != RES_RUNNING &&
            o->r.status != RES_UNAVAILABLE)
            c->r = o->r;
        else
            session_mark_unavailable(s, c);
        ceiling_of(c);
    }
    plan_free(&old);
    derive_cells(s->plan.cells, s->plan.n);
}

size_t session_ncells(const struct session *s)
{
    return s->plan.n;
}

const struct cell *session_cell(const struct session *s, size_t i)
{
    return i < s->plan.n ? &s->plan.cells[i] : NULL;
}

/* ---- running ---- */

/* The first algorithm selected that needs a block size (a public-key one has its key's). */
static const struct algo *first_sized(const struct selection *sel)
{
    for (int i = 0; i < sel->nalgs; i++)
        if (algo_sized(sel->algs[i]))
            return sel->algs[i];
    return NULL;
}

static int refuse(const struct session *s, char *why, size_t n)
{
    const struct algo *sized = first_sized(&s->sel);
    if (!s->sel.nalgs || (!s->sel.nsizes && sized)) {
        snprintf(why, n, "nothing to measure: pick at least one algorithm and one size%s%s%s",
                 sized ? " (" : "", sized ? sized->id : "", sized ? " needs a block size)" : "");
        return -1;
    }
    if (select_check(&s->sel, why, n))
        return -1;
    if (!s->plan.n) {
        snprintf(why, n, "no implementation matches that selection; see 'accelscope info' "
                 "for the implementations");
        return -1;
    }
    return 0;
}

static int start(struct session *s, char *why, size_t n);

int session_start(struct session *s, char *why, size_t n)
{
    s->resume = 0;
    return start(s, why, n);
}

int session_resume(struct session *s, char *why, size_t n)
{
    s->resume = 1;
    return start(s, why, n);
}

static int start(struct session *s, char *why, size_t n)
{
    if (s->active || s->queued) {
        snprintf(why, n, "a measurement is already running");
        return -1;
    }
    session_rebuild(s);
    if (refuse(s, why, n))
        return -1;
    if (!s->probed)
        session_probe(s);
    /* The ceilings are measured before any worker runs, never beside one; a plan without a
     * modelled algorithm (md5 alone) never pays for the microbenchmarks. */
    int modelled = 0;
    for (size_t i = 0; i < s->plan.n && !modelled; i++)
        modelled = silicon_has_model(s->plan.cells[i].impl->alg);
    if (modelled)
        session_ceilings_start(s);
    if (ceilings_measuring()) {
        s->queued = 1;
        return 1;
    }
    sched_begin(s);
    return 0;
}

int session_cancel(struct session *s)
{
    if (s->queued) {
        s->queued = 0;
        session_tell(s, SESSION_RUN_DONE, SIZE_MAX);
        return 1;
    }
    return s->active ? sched_cancel(s) : 0;
}

int session_running(const struct session *s)
{
    return s->active || s->queued;
}

int session_queued(const struct session *s)
{
    return s->queued;
}

int session_pollfds(const struct session *s, struct pollfd *fds, int max)
{
    int k = 0;
    if (ceilings_fd() >= 0 && k < max)
        fds[k++] = (struct pollfd){ .fd = ceilings_fd(), .events = POLLIN };
    return k + (s->active ? sched_pollfds(s, fds + k, max - k) : 0);
}

int session_timeout_ms(const struct session *s)
{
    return s->active ? sched_timeout_ms(s) : -1;
}

int session_step(struct session *s)
{
    int changed = 0;
    ceilings_input();
    if (ceilings_apply(s)) {
        changed = 1;
        if (s->queued)
            sched_begin(s);
    }
    return s->active ? sched_step(s) | changed : changed;
}

int session_run(struct session *s, char *why, size_t n)
{
    if (session_start(s, why, n) < 0)
        return -1;
    struct pollfd *fds = NULL;
    int cap = 0;
    while (session_running(s)) {
        /* Every worker of the group being measured, and the ceilings child. */
        int need = (int)(s->ngrp + 1) * (select_max_threads(&s->sel) + 1) + 1;
        if (need > cap) {
            cap = need;
            fds = realloc(fds, (size_t)cap * sizeof *fds);
            if (!fds)
                abort();
        }
        int k = session_pollfds(s, fds, cap);
        int t = session_timeout_ms(s);
        /* Wake at least every 100 ms to notice exits whose pipe closed earlier. */
        if (poll(fds, (nfds_t)k, t < 0 || t > 100 ? 100 : t) < 0 && errno != EINTR)
            break;
        session_step(s);
    }
    free(fds);
    return 0;
}

/* ---- progress and tally ---- */

void session_progress(const struct session *s, struct session_progress *p)
{
    long cur = sched_current(s);
    *p = (struct session_progress){ .active = s->active, .cell = cur < 0 ? 0 : (size_t)cur,
                                     .done = s->done, .total = s->total };
    if (!s->active)
        return;
    double now = session_mono();
    p->elapsed = now - s->t0;
    /* Seconds left: cells still to run at the mean cost of those that ran, or the time asked
     * per cell plus a worker's start-up before any has; less what the group has done. */
    double per = s->ran ? s->busy / (double)s->ran : s->sel.seconds + 0.15;
    double in_grp = now - s->grp_t0, grp_cost = per * (double)s->ngrp;
    double eta = (double)(s->total - s->done) * per - (in_grp < grp_cost ? in_grp : grp_cost);
    p->eta = eta > 0 ? eta : 0;
}

void session_tally(const struct session *s, struct session_tally *t)
{
    *t = (struct session_tally){ .cells = s->plan.n, .wall = s->active ? 0 : s->wall,
                                 .timed = s->timed, .waited = s->waited,
                                 .starting = s->starting, .rounds = s->rounds_all };
    for (size_t i = 0; i < s->plan.n; i++) {
        switch (s->plan.cells[i].r.status) {
        case RES_OK: t->ok++; break;
        case RES_UNAVAILABLE: t->unavailable++; break;
        case RES_CANCELLED: t->cancelled++; break;
        case RES_PENDING: case RES_RUNNING: t->pending++; break;
        default: t->failed++; break;
        }
        stats_retaken_add(&t->retaken, &s->plan.cells[i].r);
    }
}

int session_max_threads(long *online)
{
    /* Each worker gets a CPU of its own: the ones this process may run on (taskset, cgroup
     * cpusets), not merely the ones online. */
    long on = sysconf(_SC_NPROCESSORS_ONLN), usable = on;
    cpu_set_t mine;
    if (cpupick_affinity(&mine) == 0)
        usable = CPU_COUNT(&mine);
    if (online)
        *online = on;
    if (usable > RESULT_MAX_THREADS)
        usable = RESULT_MAX_THREADS;
    return usable < 1 ? 1 : (int)usable;
}
