/* The parent side of the worker protocol (the lines are listed in worker.c). Each worker
 * gets a socket as stdin for commands (send() with MSG_NOSIGNAL: a worker that died cannot
 * kill us with SIGPIPE) and a pipe for its stdout and stderr. */
#include "engine.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "algo.h"
#include "offload.h"
#include "osslcap.h"
#include "spawn.h"
#include "worker.h"

/* Rounds a cell may take: the scheduler's budget ends it long before. */
#define MAX_ROUNDS 4096

struct worker {
    pid_t pid;
    int fd;             /* read end of the worker's stdout+stderr; -1 once closed */
    int cmd;            /* our end of its stdin socket; -1 once closed */
    int cpu;            /* the CPU id it is pinned to (-t N), -1 when it is not */
    int exited, status; /* waitpid() outcome */
    int ready;          /* said ready: verified, waiting for commands */
    int calibrated;
    int pending;        /* a cal or go sent, its answer not yet in */
    int done;           /* sent "done" */
    int final;          /* sent a line that ends it without figures */
    char line[512];
    size_t used;
    struct stats_sample *s;
    int ns, cap;
    char last[200];     /* last line that was not protocol (an assertion, ASan...) */
};

struct engine {
    struct engine_job job;
    struct result r;
    struct worker *w;
    int n;
    int finished;
    int stopping;       /* quit sent */
    int go_after_cal;   /* a calibration round is in flight: `go` follows it */
    int warm;           /* engine_warm: the next engine_go's `cal` is `cal warm` */
    int rounds_sent;
    double last_news;   /* monotonic seconds of the last line from any worker, or of a go */
    struct offload_evidence off; /* user/sys of every sample; the rest from `offload` lines */
    int offload_lines;
    char engine_id[32];
    /* job.alternate: the round in flight or next is worker `turn`'s; worker 0's samples
     * hold every round's, in the order taken, whichever worker took it (the cell's one
     * stream, as one worker's would be). */
    int alt, turn;
};

/* The cell is measured as by one worker: one window a round, judged as a lone worker's. */
static int solo(const struct engine *e)
{
    return e->n == 1 || e->alt;
}

static char exe_path[4096] = "/proc/self/exe";

void engine_set_exe(const char *path)
{
    snprintf(exe_path, sizeof exe_path, "%s", path);
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void finish(struct engine *e, enum res_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void finish(struct engine *e, enum res_status st, const char *fmt, ...)
{
    if (e->finished)
        return;
    e->finished = 1;
    e->r.status = st;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->r.reason, sizeof e->r.reason, fmt, ap);
        va_end(ap);
    }
    for (int i = 0; i < e->n; i++)
        if (e->w[i].pid > 0 && !e->w[i].exited)
            kill(e->w[i].pid, SIGKILL);
}

/* Sends a command line to worker i if it still listens. */
static void tell(struct engine *e, int i, const char *cmd, int pending)
{
    size_t len = strlen(cmd);
    struct worker *w = &e->w[i];
    if (w->cmd < 0)
        return;
    /* A worker that died does not read: its exit is found by engine_step. */
    if (send(w->cmd, cmd, len, MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)len)
        w->pending = pending;
}

/* Sends a command line to every worker still listening. */
static void tell_all(struct engine *e, const char *cmd, int pending)
{
    for (int i = 0; i < e->n; i++)
        tell(e, i, cmd, pending);
}

/* The run's usual load-probe figure (stats_sample_load; STATS_SLOW_PHASE): the 90th
 * percentile of the last LOAD_RING samples of every engine of this process, recomputed every
 * LOAD_EVERY; 0 until LOAD_EVERY have come. Process-wide, not per cell: a slow phase of the
 * host outlasts a cell's visit, and its worker's own median would be the slow rate itself. */
#define LOAD_RING 4096
#define LOAD_EVERY 16
static float load_ring[LOAD_RING];
static size_t load_seen;
static double load_ref;

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The usual figure not reached in a block of LOAD_VALVE samples (fewer than LOAD_VALVE_CALM
 * read no more than STATS_LOAD_TOL / 2 under it; the blocks are counted from the ring's
 * start, so a change is seen 256-511 samples later): not a phase but a new regime (a
 * migrated VM, a lasting neighbour), and the ring starts over rather than retake every round
 * from then on. Counted by the samples that reached it, not by those under it: on the
 * Emerald Rapids VM (probes_bench, 2026-12-03) the host was calm 2-51 % of single turns in
 * spells of some 10-20 ms, with the load figure bimodal (calm readings within 1 %, slow ones
 * 10-50 % lower), so "most samples under it" fired at every half-slow stretch and re-based
 * the reference on slow spells' figures. Half the tolerance, not all of it: a host 12 %
 * slower with a 3 % jitter puts a tenth of its samples within 10 % of the old figure, and
 * would never start over (helper-16's replay). Replayed on probes_bench's single turns
 * (PROBES_SINGLES, two readings 15 turns apart as a sample's, no settle wait), the old rule
 * started over 11 times in 20 s at 10 % calm and 4 times in 10 s at 51 %, this one never.
 * A probe too noisy to judge by (one wide mode) is not caught by any such count: about a
 * tenth of samples reach a 90th percentile by definition; its rounds are retaken, up to the
 * round cap, and their cells come out noisy. */
#define LOAD_VALVE 256
#define LOAD_VALVE_CALM 4
static size_t load_calm;

void engine_load_feed(double rate)
{
    if (!(rate > 0) || !isfinite(rate)) /* a NaN from a sample line would upset the sort */
        return;
    load_calm += load_ref > 0 && rate >= load_ref * (1 - STATS_LOAD_TOL / 2);
    load_ring[load_seen++ % LOAD_RING] = (float)rate;
    if (load_seen % LOAD_VALVE == 0) {
        int restart = load_ref > 0 && load_calm < LOAD_VALVE_CALM;
        load_calm = 0;
        if (restart) {
            load_seen = 0;
            load_ref = 0;
            return;
        }
    }
    if (load_seen % LOAD_EVERY)
        return;
    static float sorted[LOAD_RING];
    size_t n = load_seen < LOAD_RING ? load_seen : LOAD_RING;
    memcpy(sorted, load_ring, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_float);
    load_ref = sorted[n * 9 / 10];
}

double engine_load_ref(void)
{
    return load_ref;
}

void engine_load_forget(void)
{
    load_seen = 0;
    load_calm = 0;
    load_ref = 0;
}

/* The barrier: every worker gets the same start instant, GO_LEAD_NS ahead, which covers
 * the wake-up of a worker blocked on its stdin and lets its core clock settle (worker.c).
 * One worker has nobody to start with: a plain `go` has it warm up for worker.c's WARM_NS
 * from its own wake-up. That round is about 1 ms shorter (of some 3.5 ms of overhead, over
 * 5000-6000 rounds in a default run), mostly because its warm-up runs the operation for
 * about 1.6 ms instead of about 2.5: the wake-up slack itself is some 0.1 ms. */
#define GO_LEAD_NS 3000000u

static void go_all(struct engine *e)
{
    struct timespec ts;
    char cmd[48];
    if (solo(e)) {
        /* With the usual load figure known, it waits out a slow spell before its window
         * (worker.c): judged by the same rule the round will be, so a wait is a retake
         * avoided, not a figure made up. */
        if (load_ref > 0)
            snprintf(cmd, sizeof cmd, "go wait %.9g\n", load_ref);
        else
            snprintf(cmd, sizeof cmd, "go\n");
        if (e->alt)
            tell(e, e->turn, cmd, 1);
        else
            tell_all(e, cmd, 1);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long t0 = (unsigned long long)ts.tv_sec * 1000000000u +
                            (unsigned long long)ts.tv_nsec + GO_LEAD_NS;
    snprintf(cmd, sizeof cmd, "go %llu\n", t0);
    /* The worker pinned to this process's CPU last: woken, it preempts this process there, and
     * the others' `go` waited behind its whole warm-up. Seen with perf sched on the Zen 5 VM
     * (2026-12-05): the second worker read its `go` 3 ms late, past t0, and started its window
     * 0.3-0.4 ms after the first (overlap 85-89 %, the round retaken as windows-apart). */
    int here = sched_getcpu();
    for (int last = 0; last < 2; last++)
        for (int i = 0; i < e->n; i++)
            if ((e->w[i].cpu >= 0 && e->w[i].cpu == here) == last)
                tell(e, i, cmd, 1);
}

/* job.alternate: each process's median and interval, from the rounds it took (round k was
 * worker k % 2's) that the cell's figure kept: judged once, as the cell's figure judged
 * them. Under two kept rounds a process says nothing. */
static void processes(struct engine *e)
{
    double v[2][RESULT_MAX_ROUNDS], ci[2] = { 0, 0 };
    int k[2] = { 0, 0 };
    for (int i = 0; i < e->r.nround && e->n == 2; i++)
        if (e->r.round_mb[i] > 0)
            v[i % 2][k[i % 2]++] = e->r.round_mb[i];
    for (int w = 0; w < 2; w++) {
        double lo, hi, m = k[w] >= 2 ? stats_median(v[w], k[w]) : 0;
        e->r.process_mb[w] = m;
        if (m > 0 && stats_median_ci(v[w], k[w], &lo, &hi))
            ci[w] = (hi - lo) / 2 / m * 100;
        e->r.process_ci_pct[w] = ci[w];
    }
    /* Judged too when every round was disturbed and the figures are of all of them
     * (job.noisy_fallback): the cell is noisy either way, and apart says more of why. */
    e->r.process_apart = stats_process_apart(e->r.process_mb[0], ci[0], e->r.process_mb[1],
                                             ci[1]);
    if (e->r.process_apart)
        e->r.quality = RESULT_NOISY;
}

/* Recomputes the live figures from every complete round so far. */
static void aggregate(struct engine *e, int all_if_none)
{
    if (e->alt) {
        const struct stats_sample *all = e->w[0].s;
        stats_summarize(&all, 1, e->w[0].ns, e->r.cycle_clock, all_if_none, &e->r);
        processes(e);
        return;
    }
    const struct stats_sample *ptr[RESULT_MAX_THREADS] = { 0 };
    int rounds = MAX_ROUNDS, n = e->n < RESULT_MAX_THREADS ? e->n : RESULT_MAX_THREADS;
    for (int i = 0; i < n; i++) {
        ptr[i] = e->w[i].s;
        rounds = e->w[i].ns < rounds ? e->w[i].ns : rounds;
    }
    stats_summarize(ptr, n, n ? rounds : 0, e->r.cycle_clock, all_if_none, &e->r);
}

/* The user and system time, the other CPUs' and the SMT siblings' ticks, and the load probes
 * at the end are optional (older workers, scripted tests). */
static int parse_sample(const char *s, struct stats_sample *x, struct offload_evidence *off)
{
    unsigned long long v[9], u = 0, sys = 0;
    x->others_user = x->others_ticks = x->sib_user = x->sib_ticks = -1;
    x->moved = 0;
    x->lrate0 = x->lrate1 = 0;
    v[7] = 0;
    int k = sscanf(s, "%llu %llu %llu %llu %llu %ld %ld %llu %llu %lf %lf %lf %lf %llu %llu %lld "
                   "%lld %d %lld %lld %lf %lf %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &x->nivcsw, &x->steal, &v[5], &v[6], &x->mhz0, &x->mhz1, &x->vrate0,
                   &x->vrate1, &u, &sys, &x->others_user, &x->others_ticks, &x->moved,
                   &x->sib_user, &x->sib_ticks, &x->lrate0, &x->lrate1, &v[7]);
    if (k != 13 && k != 15 && k != 18 && k != 20 && k != 22 && k != 23)
        return -1;
    x->waited_ns = v[7];
    off->user_ns += u;
    off->sys_ns += sys;
    x->ops = v[0];
    x->bytes = v[1];
    x->wall_ns = v[2];
    x->cpu_ns = v[3];
    x->cycles = v[4];
    x->t0 = v[5];
    x->t1 = v[6];
    return 0;
}

/* Whether a cell whose every round was disturbed still gets a (noisy) figure. */
static int fallback(const struct engine *e)
{
    return !e->job.paced || e->job.noisy_fallback;
}

/* `offload <claimed> <kfds> <id>` of each worker: one that fell back makes the cell's. */
static void on_offload(struct engine *e, const char *s)
{
    int claimed, kfds;
    char id[32];
    if (sscanf(s, "%d %d %31s", &claimed, &kfds, id) != 3)
        return;
    e->off.claimed = e->offload_lines++ ? e->off.claimed && claimed : claimed;
    e->off.kfds = e->offload_lines > 1 && e->off.kfds < kfds ? e->off.kfds : kfds;
    snprintf(e->engine_id, sizeof e->engine_id, "%s", id);
}

/* What the figures were made of: the system time share, and for ENGINE rows whether the work
 * stayed in software. */
static void judge_offload(struct engine *e)
{
    e->r.sys_pct = offload_sys_pct(e->off.user_ns, e->off.sys_ns);
    e->off.kernel = e->job.impl->path == PATH_KERNEL;
    e->r.fallback = e->offload_lines && offload_judge(&e->off, e->engine_id, e->job.impl->alg,
                                                      e->r.fallback_why,
                                                      sizeof e->r.fallback_why);
    e->r.offload_open = e->offload_lines && !e->r.fallback && e->off.kernel && e->r.sys_pct < 0;
}

static void on_sample(struct engine *e, struct worker *w, const char *s)
{
    struct stats_sample x;
    w->pending = 0;
    w = e->alt ? &e->w[0] : w; /* the stream the sample joins */
    /* Once finished (failed, cancelled, stopped) a cell's result never changes: a line
     * still in the pipe of a worker killed with the cell is read and dropped. */
    if (e->finished || w->ns >= MAX_ROUNDS || parse_sample(s, &x, &e->off))
        return;
    /* One worker only, as the co-runner rule: -t N workers are pinned to CPUs 0..N-1, maybe
     * SMT siblings or a board's little cores, and probe side by side. Judged against the
     * figure usual before it: a sample does not vouch for itself. */
    x.lref = solo(e) ? load_ref : 0;
    if (solo(e))
        engine_load_feed(stats_sample_load(&x));
    if (w->ns == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        w->s = realloc(w->s, (size_t)w->cap * sizeof *w->s);
        if (!w->s)
            abort();
    }
    w->s[w->ns++] = x;
    e->r.waited_ns += x.waited_ns; /* every round's, kept or retaken: time the cell spent */
    e->r.status = RES_RUNNING;
    aggregate(e, fallback(e));
    judge_offload(e); /* live: a fallback is never drawn as the kernel's, not even for a while */
}

static void on_calibrated(struct engine *e, struct worker *w)
{
    w->pending = 0;
    w->calibrated = 1;
    if (e->alt) { /* only the worker whose round it is calibrated */
        if (e->go_after_cal && !e->finished) {
            e->go_after_cal = 0;
            go_all(e);
        }
        return;
    }
    for (int i = 0; i < e->n; i++)
        if (!e->w[i].calibrated)
            return;
    /* All calibrated: the timed windows start together, as on every later round. */
    if (e->go_after_cal && !e->finished) {
        e->go_after_cal = 0;
        go_all(e);
    }
}

static void on_line(struct engine *e, struct worker *w, char *s)
{
    e->last_news = mono();
    if (!strncmp(s, "hello ", 6)) {
        char *cap = strchr(s + 6, ' ');
        if (cap && e->r.capvec[0] == 0)
            snprintf(e->r.capvec, sizeof e->r.capvec, "%s", cap + 1);
    } else if (!strncmp(s, "verified ", 9)) {
        snprintf(e->r.reference, sizeof e->r.reference, "%s", s + 9);
    } else if (!strncmp(s, "clock ", 6)) {
        snprintf(e->r.cycle_clock, sizeof e->r.cycle_clock, "%s", s + 6);
    } else if (!strncmp(s, "offload ", 8)) {
        on_offload(e, s + 8);
    } else if (!strcmp(s, "ready")) {
        w->ready = 1;
    } else if (!strncmp(s, "calibrated ", 11)) {
        on_calibrated(e, w);
    } else if (!strncmp(s, "sample ", 7)) {
        on_sample(e, w, s + 7);
    } else if (!strcmp(s, "done")) {
        w->done = 1;
    } else if (!strncmp(s, "unavailable ", 12)) {
        w->final = 1;
        finish(e, RES_UNAVAILABLE, "%s", s + 12);
    } else if (!strncmp(s, "wrong ", 6)) {
        w->final = 1;
        finish(e, RES_WRONG, "%s", s + 6);
    } else if (!strncmp(s, "error ", 6)) {
        w->final = 1;
        finish(e, RES_ERROR, "%s", s + 6);
    } else if (*s) {
        snprintf(w->last, sizeof w->last, "%.199s", s);
    }
}

static void drain(struct engine *e, struct worker *w)
{
    for (;;) {
        ssize_t k = read(w->fd, w->line + w->used, sizeof w->line - 1 - w->used);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (k <= 0) {
            close(w->fd);
            w->fd = -1;
            return;
        }
        w->used += (size_t)k;
        w->line[w->used] = 0;
        char *start = w->line, *nl;
        while ((nl = memchr(start, '\n', w->used - (size_t)(start - w->line)))) {
            *nl = 0;
            on_line(e, w, start);
            start = nl + 1;
        }
        w->used -= (size_t)(start - w->line);
        memmove(w->line, start, w->used);
        if (w->used == sizeof w->line - 1)
            w->used = 0; /* an overlong line is noise: drop it */
    }
}

extern char **environ;

/* Our environment with NAME=VALUE put in place of any NAME already there, built before
 * fork() so the child does nothing but exec. */
static char **worker_env(const char *set)
{
    size_t n = 0, k = 0, name = set ? strcspn(set, "=") : 0;
    while (environ[n])
        n++;
    char **v = malloc((n + 2) * sizeof *v);
    if (!v)
        abort();
    for (size_t i = 0; i < n; i++)
        if (!set || strncmp(environ[i], set, name) || environ[i][name] != '=')
            v[k++] = environ[i];
    if (set)
        v[k++] = (char *)set;
    v[k] = NULL;
    return v;
}

/* The idx-th CPU of this process's affinity set, -1 when there is none: ids need not be
 * 0..count-1 (taskset -c 2,3; a container's cpuset). The set now, not cpupick's saved one:
 * it is what the worker inherits and checks its argument against (a -t N group is never
 * kept off a CPU: session_run.c group_pin). */
static int nth_cpu(int idx)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set))
        return -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set) && idx-- == 0)
            return c;
    return -1;
}

/* -t N: the memory of the workers' start barrier (worker.c barrier_wait), a memfd each
 * worker inherits, above fd 2 (spawn_piped_keep); -1 where there is none: then the start
 * instant alone lines the windows up, as before the barrier. Not executable where the kernel
 * can say so (vm.memfd_noexec=2 refuses a memfd without MFD_NOEXEC_SEAL, 6.3 and later;
 * older kernels refuse the flag: EINVAL). */
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
static int barrier_open(void)
{
    int fd = memfd_create("accelscope-barrier", MFD_CLOEXEC | MFD_NOEXEC_SEAL);
    if (fd < 0 && errno == EINVAL)
        fd = memfd_create("accelscope-barrier", MFD_CLOEXEC);
    if (fd >= 0 && fd <= 2) { /* a caller running with fd 0-2 closed */
        int up = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        close(fd);
        fd = up;
    }
    if (fd >= 0 && ftruncate(fd, WORKER_BARRIER_BYTES)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

static pid_t spawn(const struct engine_job *j, int idx, struct worker *w, int bar, char *why,
                   size_t n)
{
    char bytes[32], dec[4], secs[32], samples[16], cpu[16], barrier[32];
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
        snprintf(why, n, "socketpair: %s", strerror(errno));
        return -1;
    }
    snprintf(bytes, sizeof bytes, "%zu", j->bytes);
    snprintf(dec, sizeof dec, "%d", j->decrypt ? 1 : 0);
    snprintf(secs, sizeof secs, "%.6f", j->seconds);
    snprintf(samples, sizeof samples, "%d", j->samples);
    w->cpu = j->threads > 1 ? nth_cpu(idx) : -1; /* -t N: one worker on each CPU */
    snprintf(cpu, sizeof cpu, "%d", w->cpu);
    snprintf(barrier, sizeof barrier, "%d:%d:%d", bar, j->threads, idx);
    char *argv[] = { "accelscope", "__worker", (char *)j->impl->alg, (char *)j->impl->name,
                     bytes, dec, secs, samples, cpu, bar >= 0 ? barrier : NULL, NULL };
    char mask[OSSLCAP_ENV_MAX];
    char **envp = worker_env(osslcap_worker_env(j->impl->env, mask, sizeof mask));
    pid_t pid = spawn_piped_keep(exe_path, argv, envp, sv[1], bar, &w->fd, why, n);
    free(envp);
    close(sv[1]);
    if (pid < 0)
        close(sv[0]);
    else
        w->cmd = sv[0];
    return pid;
}

struct engine *engine_start(const struct engine_job *job)
{
    struct engine *e = calloc(1, sizeof *e);
    if (!e)
        abort();
    e->job = *job;
    if (e->job.threads < 1)
        e->job.threads = 1;
    if (e->job.samples < ENGINE_MIN_SAMPLES)
        e->job.samples = ENGINE_MIN_SAMPLES;
    if (e->job.seconds <= 0)
        e->job.seconds = ENGINE_DEFAULT_SECONDS;
    e->r.threads = e->job.threads;
    e->r.group = e->job.group;
    e->r.samples_wanted = e->job.samples;
    e->r.sys_pct = -1;
    snprintf(e->r.cycle_clock, sizeof e->r.cycle_clock, "none");
    e->last_news = mono();
    char why[200];
    if (job->impl->check(job->impl, why, sizeof why) != 0) {
        finish(e, RES_UNAVAILABLE, "%s", why);
        return e;
    }
    e->alt = e->job.alternate && e->job.paced && e->job.threads == 1;
    int workers = e->alt ? 2 : e->job.threads;
    e->w = calloc((size_t)workers, sizeof *e->w);
    if (!e->w)
        abort();
    e->r.status = RES_RUNNING;
    /* Only where each worker has a CPU of its own: one spinning at the barrier could hold the
     * CPU its late partner needs. */
    int bar = workers > 1 && !e->alt && nth_cpu(workers - 1) >= 0 ? barrier_open() : -1;
    for (int i = 0; i < workers; i++) {
        e->w[i].fd = e->w[i].cmd = e->w[i].cpu = -1;
        e->w[i].pid = spawn(&e->job, i, &e->w[i], bar, why, sizeof why);
        e->n = i + 1;
        if (e->w[i].pid < 0) {
            finish(e, RES_ERROR, "%s", why);
            break;
        }
    }
    if (bar >= 0) /* the workers hold it now */
        close(bar);
    return e;
}

enum engine_state engine_state(const struct engine *e)
{
    if (e->finished)
        return ENGINE_FINISHED;
    if (e->stopping)
        return ENGINE_STOPPING;
    int sampling = e->go_after_cal;
    for (int i = 0; i < e->n; i++) {
        if (!e->w[i].ready)
            return ENGINE_STARTING;
        sampling |= e->w[i].pending;
    }
    return sampling ? ENGINE_SAMPLING : ENGINE_IDLE;
}

int engine_go(struct engine *e)
{
    if (engine_state(e) != ENGINE_IDLE)
        return -1;
    /* The time spent idle is no silence: the watchdog counts from here. */
    e->last_news = mono();
    /* Said for this go only (engine_warm): a later caller that does not say starts cold. */
    const char *cal = e->warm ? "cal warm\n" : "cal\n";
    e->warm = 0;
    if (e->alt) { /* the workers in turn; each one's first round calibrates it first */
        e->turn = e->rounds_sent++ % e->n;
        e->go_after_cal = !e->w[e->turn].calibrated;
        if (e->go_after_cal)
            tell(e, e->turn, cal, 1);
        else
            go_all(e);
        return 0;
    }
    e->rounds_sent++;
    int calibrated = 1;
    for (int i = 0; i < e->n; i++)
        calibrated &= e->w[i].calibrated;
    /* The first round calibrates every worker first, so that the first timed windows too
     * start together. */
    e->go_after_cal = !calibrated;
    if (calibrated)
        go_all(e);
    else
        tell_all(e, cal, 1);
    return 0;
}

int engine_pin(struct engine *e, int cpu)
{
    char cmd[32];
    if (!solo(e) || cpu < 0 || engine_state(e) != ENGINE_IDLE)
        return -1;
    snprintf(cmd, sizeof cmd, "pin %d\n", cpu);
    tell_all(e, cmd, 0);
    return 0;
}

void engine_stop(struct engine *e)
{
    if (e->finished || e->stopping)
        return;
    e->stopping = 1;
    e->go_after_cal = 0;
    e->last_news = mono();
    tell_all(e, "quit\n", 0);
    /* End of input as well: a worker between two reads sees it even if quit was lost. */
    for (int i = 0; i < e->n; i++)
        if (e->w[i].cmd >= 0)
            shutdown(e->w[i].cmd, SHUT_WR);
}

void engine_warm(struct engine *e, int warm)
{
    e->warm = warm;
}

int engine_rounds_taken(const struct engine *e)
{
    return e->rounds_sent;
}

int engine_pollfds(const struct engine *e, struct pollfd *fds, int max)
{
    int k = 0;
    for (int i = 0; i < e->n && k < max; i++)
        if (e->w[i].fd >= 0)
            fds[k++] = (struct pollfd){ .fd = e->w[i].fd, .events = POLLIN };
    return k;
}

static double watchdog(const struct engine *e)
{
    if (e->job.watchdog > 0)
        return e->job.watchdog;
    /* Generous: a 16 MiB op on slow portable code, plus verification, takes seconds. */
    return 10.0 + 4 * e->job.seconds / e->job.samples;
}

/* The watchdog watches a worker that owes us a line: while it verifies, samples or stops.
 * A worker waiting for `go` is not hung. */
static int watched(const struct engine *e)
{
    return !e->finished && engine_state(e) != ENGINE_IDLE;
}

int engine_timeout_ms(const struct engine *e)
{
    if (e->finished)
        return 0;
    /* A worker whose output reached EOF is exiting: look again soon for its status rather
     * than wait for the watchdog. */
    for (int i = 0; i < e->n; i++)
        if (e->w[i].fd < 0 && e->w[i].pid > 0 && !e->w[i].exited)
            return 1;
    if (!watched(e)) /* idle: nothing is due; the compatibility path goes at once */
        return e->job.paced ? 1000 : 0;
    double left = e->last_news + watchdog(e) - mono();
    return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

static const char *signame(int sig)
{
    switch (sig) {
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return NULL;
    }
}

/* The cell's end when worker i has exited in a way that spoils it. */
static void judge_exit(struct engine *e, int i)
{
    struct worker *w = &e->w[i];
    if (WIFSIGNALED(w->status)) {
        int sig = WTERMSIG(w->status);
        const char *nm = signame(sig);
        char sb[16];
        if (!nm) {
            snprintf(sb, sizeof sb, "signal %d", sig);
            nm = sb;
        }
        /* accelscope aborts only when memory runs out (xmalloc and the like); glibc and
         * OpenSSL abort on a failed check of their own */
        finish(e, RES_CRASHED, "worker %d killed by %s%s%s%s", i, nm,
               sig == SIGABRT ? " (memory ran out, or a library's own check failed)" : "",
               w->last[0] ? ": " : "", w->last);
    } else if (!w->done && !w->final) {
        finish(e, RES_ERROR, "worker %d exited with status %d before finishing%s%s", i,
               WEXITSTATUS(w->status), w->last[0] ? ": " : "", w->last);
    } else if (w->done && WEXITSTATUS(w->status) != 0) {
        /* e.g. a sanitizer report at exit: the figures are not to be trusted */
        finish(e, RES_ERROR, "worker %d exited with status %d after its samples%s%s", i,
               WEXITSTATUS(w->status), w->last[0] ? ": " : "", w->last);
    }
}

/* Reads worker i, reaps it if it exited; 1 while it is still running. */
static int step_worker(struct engine *e, int i)
{
    struct worker *w = &e->w[i];
    if (w->fd >= 0)
        drain(e, w);
    if (w->pid > 0 && !w->exited && waitpid(w->pid, &w->status, WNOHANG) == w->pid)
        w->exited = 1;
    if (w->exited && w->fd >= 0) {
        drain(e, w); /* the tail of its output */
        if (w->fd >= 0) {
            close(w->fd);
            w->fd = -1;
        }
    }
    if (w->exited && !e->finished)
        judge_exit(e, i);
    return w->pid > 0 && !w->exited;
}

/* Every worker exited cleanly: the figures stand if verified and undisturbed somewhere. */
static void conclude(struct engine *e)
{
    /* Old callers got figures from whatever samples there were: unpaced (or asked), a cell
     * measured only through noise still has a figure, marked noisy. */
    aggregate(e, fallback(e));
    int done = 1;
    for (int i = 0; i < e->n; i++)
        done &= e->w[i].done;
    if (!e->r.reference[0])
        finish(e, RES_ERROR, "a worker finished without verifying its output");
    else if (!done)
        finish(e, RES_ERROR, "a worker finished without saying done");
    else if (e->r.rounds < 1 && !e->r.samples)
        finish(e, RES_ERROR, "no undisturbed sample (%d round%s disturbed)", e->r.disturbed,
               e->r.disturbed == 1 ? "" : "s");
    else {
        judge_offload(e);
        finish(e, RES_OK, NULL);
    }
}

/* The simple schedule, in IDLE: job->samples undisturbed rounds, retaking disturbed ones up
 * to `most` rounds in all, then stop. */
static void pace(struct engine *e, int most)
{
    if (e->r.rounds < e->job.samples && e->rounds_sent < most)
        engine_go(e);
    else
        engine_stop(e);
}

int engine_step(struct engine *e)
{
    int running = 0;
    for (int i = 0; i < e->n; i++)
        running |= step_worker(e, i);
    if (!e->finished && e->n && !running)
        conclude(e);
    if (!e->job.paced && engine_state(e) == ENGINE_IDLE)
        pace(e, e->job.samples); /* old callers: job->samples rounds in --time, as before */
    if (watched(e) && mono() - e->last_news > watchdog(e))
        finish(e, RES_TIMEOUT, "no word from a worker for %.0f s", watchdog(e));
    if (e->finished) {
        /* Reap what finish() killed so no zombie outlives the cell. */
        for (int i = 0; i < e->n; i++) {
            struct worker *w = &e->w[i];
            if (w->pid > 0 && !w->exited && waitpid(w->pid, &w->status, 0) == w->pid)
                w->exited = 1;
            if (w->fd >= 0)
                drain(e, w); /* what it said before dying is dropped, not lost in a pipe */
            if (w->fd >= 0) {
                close(w->fd);
                w->fd = -1;
            }
            if (w->cmd >= 0) {
                close(w->cmd);
                w->cmd = -1;
            }
        }
    }
    return e->finished;
}

void engine_cancel(struct engine *e)
{
    finish(e, RES_CANCELLED, "cancelled");
    engine_step(e);
}

const struct result *engine_result(const struct engine *e)
{
    return &e->r;
}

void engine_free(struct engine *e)
{
    if (!e)
        return;
    if (!e->finished)
        engine_cancel(e);
    for (int i = 0; i < e->n; i++)
        free(e->w[i].s);
    free(e->w);
    free(e);
}

void engine_run(const struct engine_job *job, struct result *out,
                void (*progress)(const struct result *r, void *arg), void *arg)
{
    struct engine_job j = *job;
    j.paced = 1; /* paced here through the API, as a scheduler would */
    struct engine *e = engine_start(&j);
    struct pollfd fds[RESULT_MAX_THREADS];
    int seen = 0;
    while (!engine_step(e)) {
        if (progress && e->r.samples != seen) {
            seen = e->r.samples;
            progress(&e->r, arg);
        }
        if (engine_state(e) == ENGINE_IDLE) {
            pace(e, ENGINE_RUN_ROUNDS * e->job.samples);
            continue;
        }
        int n = engine_pollfds(e, fds, RESULT_MAX_THREADS);
        int t = engine_timeout_ms(e);
        /* Wake at least every 100 ms to notice exits whose pipe closed earlier. */
        if (poll(fds, (nfds_t)n, t > 100 ? 100 : t) < 0 && errno != EINTR)
            break;
    }
    *out = e->r;
    engine_free(e);
}

const char *result_status_text(const struct result *r, char *buf, unsigned n)
{
    switch (r->status) {
    case RES_PENDING: return "pending";
    case RES_RUNNING: return "running";
    case RES_OK: return "ok";
    case RES_WRONG: return "wrong output";
    case RES_CRASHED: {
        const char *s = strstr(r->reason, "killed by ");
        char sig[32] = "signal";
        if (s)
            sscanf(s + 10, "%31[A-Za-z0-9 ]", sig);
        char *colon = strchr(sig, ':');
        if (colon)
            *colon = 0;
        for (size_t k = strlen(sig); k && sig[k - 1] == ' ';) /* before SIGABRT's "(memory..." */
            sig[--k] = 0;
        snprintf(buf, n, "crashed (%s)", sig);
        return buf;
    }
    case RES_TIMEOUT: return "timed out";
    case RES_UNAVAILABLE: return "unavailable";
    case RES_ERROR: return "error";
    case RES_CANCELLED: return "cancelled";
    }
    return "?";
}

int result_comparable(const struct result *r)
{
    return (r->status == RES_OK || r->status == RES_RUNNING) && r->mb_per_s > 0 && !r->fallback;
}

const char *result_status_short(enum res_status s)
{
    switch (s) {
    case RES_PENDING: return "-";
    case RES_RUNNING: return "...";
    case RES_OK: return "ok";
    case RES_WRONG: return "WRONG";
    case RES_CRASHED: return "CRASHED";
    case RES_TIMEOUT: return "TIMEOUT";
    case RES_UNAVAILABLE: return "n/a";
    case RES_ERROR: return "ERROR";
    case RES_CANCELLED: return "cancelled";
    }
    return "?";
}
