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

#include "derive.h"
#include "engine.h"
#include "plan.h"
#include "registry.h"
#include "silicon.h"

enum ceil_state { CEIL_NONE, CEIL_MEASURING, CEIL_READY };

/* The ceilings are the machine's, not a session's: one child per process measures them, and
 * every session (the TUI's and the demo's) adopts the answer, so two sets of microbenchmarks
 * never run side by side. The child sends one struct silicon through the pipe. */
static struct {
    enum ceil_state state;
    pid_t pid;
    int fd;
    struct silicon buf;
    size_t got;
} ceilings = { .pid = -1, .fd = -1 };
static int live_sessions; /* the child is stopped when the last session goes */

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

    /* The run. */
    int active, queued;
    struct engine *e;      /* the cell running, NULL between cells */
    size_t cur;            /* its index */
    size_t done, total;    /* cells finished in this run, and to go through */
    double t0, cell_t0;    /* monotonic start of the run and of the cell */
    double busy;           /* seconds spent on cells that really ran */
    size_t ran;            /* how many of those */
    int resume;            /* this run measures only the cells without a result */
};

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void tell(struct session *s, enum session_event ev, size_t cell)
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
    live_sessions++;
    session_rebuild(s);
    return s;
}

static void ceilings_stop(void)
{
    if (ceilings.fd >= 0)
        close(ceilings.fd);
    ceilings.fd = -1;
    if (ceilings.pid > 0) {
        kill(ceilings.pid, SIGKILL);
        waitpid(ceilings.pid, NULL, 0);
    }
    ceilings.pid = -1;
    if (ceilings.state == CEIL_MEASURING)
        ceilings.state = CEIL_NONE; /* a later session measures them again */
}

void session_free(struct session *s)
{
    if (!s)
        return;
    session_cancel(s);
    if (--live_sessions == 0)
        ceilings_stop();
    plan_free(&s->plan);
    free(s->avail);
    free(s->why);
    free(s);
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
            o->r.threads == c->r.threads)
            return o;
    }
    return NULL;
}

static void ceiling_of(struct cell *c)
{
    char why[300];
    double mb;
    c->limit_mb_per_s = 0;
    if (ceilings.state == CEIL_READY &&
        silicon_ceiling(c->impl->alg, c->decrypt, &mb, why, sizeof why) == 0)
        c->limit_mb_per_s = mb;
}

/* A cell that cannot run here says why before any run. */
static void mark_unavailable(const struct session *s, struct cell *c)
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
            mark_unavailable(s, c);
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

/* ---- ceilings ---- */

/* The child: measure, send the struct, leave. It dies with the parent. */
static void ceilings_child(int fd)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    silicon_measure();
    const char *p = (const char *)silicon_get();
    size_t left = sizeof(struct silicon);
    while (left) {
        ssize_t k = write(fd, p, left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            _exit(1);
        p += k;
        left -= (size_t)k;
    }
    _exit(0);
}

static void ceilings_ready(const struct silicon *got, const char *fail)
{
    ceilings_stop();
    if (got)
        silicon_adopt(got);
    else
        silicon_adopt_failure(fail);
    ceilings.state = CEIL_READY;
}

/* This session's cells get the ceilings once they are known; 1 when that happened now. */
static int ceilings_apply(struct session *s)
{
    if (ceilings.state != CEIL_READY || s->ceil_seen)
        return 0;
    s->ceil_seen = 1;
    for (size_t i = 0; i < s->plan.n; i++)
        ceiling_of(&s->plan.cells[i]);
    tell(s, SESSION_CEILINGS, SIZE_MAX);
    return 1;
}

void session_ceilings_start(struct session *s)
{
    if (ceilings.state == CEIL_NONE) {
        int p[2];
        pid_t pid = -1;
        if (pipe2(p, O_CLOEXEC) == 0) {
            fflush(NULL);
            if ((pid = fork()) == 0) {
                close(p[0]);
                ceilings_child(p[1]);
            }
            close(p[1]);
            if (pid < 0)
                close(p[0]);
        }
        if (pid < 0) {
            ceilings_ready(NULL, strerror(errno));
        } else {
            fcntl(p[0], F_SETFL, O_NONBLOCK); /* session_step() reads whatever has come */
            ceilings.state = CEIL_MEASURING;
            ceilings.pid = pid;
            ceilings.fd = p[0];
            ceilings.got = 0;
        }
    }
    ceilings_apply(s);
}

int session_ceilings_ready(const struct session *s)
{
    (void)s;
    return ceilings.state == CEIL_READY;
}

static void ceilings_input(void)
{
    if (ceilings.fd < 0)
        return;
    ssize_t k = read(ceilings.fd, (char *)&ceilings.buf + ceilings.got, sizeof ceilings.buf - ceilings.got);
    if (k < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (k > 0) {
        ceilings.got += (size_t)k;
        if (ceilings.got == sizeof ceilings.buf)
            ceilings_ready(&ceilings.buf, NULL);
        return;
    }
    ceilings_ready(NULL, k < 0 ? strerror(errno) : "the measuring child died before answering");
}

/* ---- running ---- */

/* The scheduling decision: the next cell of this run still to measure, from index i. */
static size_t next_cell(const struct session *s, size_t i)
{
    while (i < s->plan.n && s->plan.cells[i].r.status != RES_PENDING)
        i++;
    return i;
}

static void start_cell(struct session *s)
{
    struct cell *c = &s->plan.cells[s->cur];
    struct engine_job job = { .impl = c->impl, .bytes = c->bytes, .threads = s->sel.threads,
                              .seconds = s->sel.seconds, .samples = ENGINE_MIN_SAMPLES,
                              .decrypt = s->sel.decrypt };
    memset(&c->r, 0, sizeof c->r);
    c->r.status = RES_RUNNING;
    c->r.threads = s->sel.threads;
    s->cell_t0 = mono();
    s->e = engine_start(&job);
    tell(s, SESSION_CELL_START, s->cur);
}

static void run_end(struct session *s)
{
    s->active = 0;
    derive_cells(s->plan.cells, s->plan.n);
    tell(s, SESSION_RUN_DONE, SIZE_MAX);
}

/* Takes the finished cell's result and starts the next; cells that end at once (an
 * implementation found unavailable by the engine) pass in the same call. */
static void advance(struct session *s)
{
    while (s->e && engine_step(s->e)) {
        struct cell *c = &s->plan.cells[s->cur];
        c->r = *engine_result(s->e);
        if (c->r.status != RES_UNAVAILABLE) {
            s->busy += mono() - s->cell_t0;
            s->ran++;
        }
        engine_free(s->e);
        s->e = NULL;
        s->done++;
        derive_cells(s->plan.cells, s->plan.n);
        tell(s, SESSION_CELL_DONE, s->cur);
        s->cur = next_cell(s, s->cur + 1);
        if (s->cur >= s->plan.n) {
            run_end(s);
            return;
        }
        start_cell(s);
    }
}

/* Every cell that can run goes back to pending (with s->resume, only the cells without a
 * result: pending or cancelled); what cannot run says why. */
static void begin(struct session *s)
{
    s->queued = 0;
    s->active = 1;
    s->done = s->total = 0;
    s->busy = 0;
    s->ran = 0;
    s->t0 = mono();
    for (size_t i = 0; i < s->plan.n; i++) {
        struct cell *c = &s->plan.cells[i];
        if (s->resume && c->r.status != RES_PENDING && c->r.status != RES_CANCELLED)
            continue;
        memset(&c->r, 0, sizeof c->r);
        c->r.status = RES_PENDING;
        c->r.threads = s->sel.threads;
        mark_unavailable(s, c);
        s->total += c->r.status == RES_PENDING;
    }
    derive_cells(s->plan.cells, s->plan.n);
    s->cur = next_cell(s, 0);
    if (s->cur >= s->plan.n) {
        run_end(s);
        return;
    }
    start_cell(s);
    advance(s);
}

static int refuse(const struct session *s, char *why, size_t n)
{
    if (!s->sel.nalgs || !s->sel.nsizes) {
        snprintf(why, n, "nothing to measure: pick at least one algorithm and one size");
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
    if (ceilings.state == CEIL_MEASURING) {
        s->queued = 1;
        return 1;
    }
    begin(s);
    return 0;
}

int session_cancel(struct session *s)
{
    if (s->queued) {
        s->queued = 0;
        tell(s, SESSION_RUN_DONE, SIZE_MAX);
        return 1;
    }
    if (!s->active)
        return 0;
    if (s->e) {
        engine_cancel(s->e);
        s->plan.cells[s->cur].r = *engine_result(s->e);
        engine_free(s->e);
        s->e = NULL;
        tell(s, SESSION_CELL_DONE, s->cur);
    }
    run_end(s);
    return 1;
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
    if (ceilings.fd >= 0 && k < max)
        fds[k++] = (struct pollfd){ .fd = ceilings.fd, .events = POLLIN };
    if (s->e)
        k += engine_pollfds(s->e, fds + k, max - k);
    return k;
}

int session_timeout_ms(const struct session *s)
{
    if (!s->e)
        return -1;
    /* Every pipe closed but a worker not yet reaped: it is exiting; look again shortly
     * rather than sleep until the watchdog. */
    struct pollfd fds[RESULT_MAX_THREADS];
    if (!engine_pollfds(s->e, fds, RESULT_MAX_THREADS))
        return 5;
    return engine_timeout_ms(s->e);
}

int session_step(struct session *s)
{
    int changed = 0;
    ceilings_input();
    if (ceilings_apply(s)) {
        changed = 1;
        if (s->queued)
            begin(s);
    }
    if (!s->e)
        return changed;
    struct cell *c = &s->plan.cells[s->cur];
    int before = c->r.samples;
    if (engine_step(s->e)) {
        advance(s);
        return 1;
    }
    c->r = *engine_result(s->e);
    if (c->r.samples != before) {
        tell(s, SESSION_CELL_SAMPLE, s->cur);
        changed = 1;
    }
    return changed;
}

int session_run(struct session *s, char *why, size_t n)
{
    if (session_start(s, why, n) < 0)
        return -1;
    struct pollfd fds[RESULT_MAX_THREADS + 1];
    while (session_running(s)) {
        int k = session_pollfds(s, fds, (int)(sizeof fds / sizeof fds[0]));
        int t = session_timeout_ms(s);
        /* Wake at least every 100 ms to notice exits whose pipe closed earlier. */
        if (poll(fds, (nfds_t)k, t < 0 || t > 100 ? 100 : t) < 0 && errno != EINTR)
            break;
        session_step(s);
    }
    return 0;
}

/* ---- progress and tally ---- */

void session_progress(const struct session *s, struct session_progress *p)
{
    *p = (struct session_progress){ .active = s->active, .cell = s->cur, .done = s->done,
                                     .total = s->total };
    if (!s->active)
        return;
    double now = mono();
    p->elapsed = now - s->t0;
    /* Seconds left: cells still to run at the mean cost of those that ran, or the time asked
     * per cell plus a worker's start-up before any has. */
    double per = s->ran ? s->busy / (double)s->ran : s->sel.seconds + 0.15;
    double in_cell = s->e ? now - s->cell_t0 : 0;
    double eta = (double)(s->total - s->done) * per - (in_cell < per ? in_cell : per);
    p->eta = eta > 0 ? eta : 0;
}

void session_tally(const struct session *s, struct session_tally *t)
{
    *t = (struct session_tally){ .cells = s->plan.n };
    for (size_t i = 0; i < s->plan.n; i++) {
        switch (s->plan.cells[i].r.status) {
        case RES_OK: t->ok++; break;
        case RES_UNAVAILABLE: t->unavailable++; break;
        case RES_CANCELLED: t->cancelled++; break;
        case RES_PENDING: case RES_RUNNING: t->pending++; break;
        default: t->failed++; break;
        }
    }
}

int session_max_threads(long *online)
{
    /* Each worker gets a CPU of its own: the ones this process may run on (taskset, cgroup
     * cpusets), not merely the ones online. */
    long on = sysconf(_SC_NPROCESSORS_ONLN), usable = on;
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0)
        usable = CPU_COUNT(&mine);
    if (online)
        *online = on;
    if (usable > RESULT_MAX_THREADS)
        usable = RESULT_MAX_THREADS;
    return usable < 1 ? 1 : (int)usable;
}
