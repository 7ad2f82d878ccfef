/* The parent side of the worker protocol (the lines are listed in worker.c). */
#include "engine.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "algo.h"
#include "spawn.h"

#define MAX_SAMPLES 256

struct worker {
    pid_t pid;
    int fd;             /* read end of the worker's stdout+stderr; -1 once closed */
    int exited, status; /* waitpid() outcome */
    int done;           /* sent "done" */
    int final;          /* sent a line that ends it without figures */
    char line[512];
    size_t used;
    double mb[MAX_SAMPLES];
    int nmb;
    unsigned long long ops, bytes, wall, cpu, cyc;
    char last[200];     /* last line that was not protocol (an assertion, ASan...) */
};

struct engine {
    struct engine_job job;
    struct result r;
    struct worker *w;
    int n;
    int finished;
    double last_news;   /* monotonic seconds of the last line from any worker */
};

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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Recomputes the live figures from every sample so far. */
static void aggregate(struct engine *e)
{
    struct result *r = &e->r;
    double sum = 0, lo = 0, hi = 0, wall = 0, cpu = 0;
    unsigned long long ops = 0, bytes = 0, cyc = 0;
    int samples = 0;
    for (int i = 0; i < e->n; i++) {
        struct worker *w = &e->w[i];
        if (!w->nmb)
            continue;
        double s[MAX_SAMPLES];
        memcpy(s, w->mb, (size_t)w->nmb * sizeof *s);
        qsort(s, (size_t)w->nmb, sizeof *s, cmp_double);
        double med = w->nmb % 2 ? s[w->nmb / 2] : (s[w->nmb / 2 - 1] + s[w->nmb / 2]) / 2;
        if (i < RESULT_MAX_THREADS)
            r->thread_mb[i] = med;
        sum += med;
        lo += s[0];
        hi += s[w->nmb - 1];
        samples += w->nmb;
        ops += w->ops;
        bytes += w->bytes;
        wall += (double)w->wall;
        cpu += (double)w->cpu;
        cyc += w->cyc;
    }
    r->samples = samples;
    r->ops = ops;
    r->bytes = bytes;
    r->mb_per_s = sum;
    r->mb_min = lo;
    r->mb_max = hi;
    r->spread_pct = sum > 0 ? (hi - lo) / (2 * sum) * 100 : 0;
    r->seconds = e->n ? wall / 1e9 / e->n : 0;
    r->cpu_util = wall > 0 ? cpu / wall : 0;
    r->cycles_per_byte = bytes && strcmp(r->cycle_clock, "none") ? (double)cyc / (double)bytes : 0;
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
    } else if (!strncmp(s, "sample ", 7)) {
        unsigned long long ops, bytes, wall, cpu, cyc;
        if (sscanf(s + 7, "%llu %llu %llu %llu %llu", &ops, &bytes, &wall, &cpu, &cyc) != 5)
            return;
        if (w->nmb < MAX_SAMPLES && wall)
            w->mb[w->nmb++] = (double)bytes / ((double)wall / 1e9) / 1e6;
        w->ops += ops;
        w->bytes += bytes;
        w->wall += wall;
        w->cpu += cpu;
        w->cyc += cyc;
        e->r.status = RES_RUNNING;
        aggregate(e);
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

static pid_t spawn(const struct engine_job *j, int idx, int *fd_out, char *why, size_t n)
{
    char bytes[32], dec[4], secs[32], samples[16], cpu[16];
    snprintf(bytes, sizeof bytes, "%zu", j->bytes);
    snprintf(dec, sizeof dec, "%d", j->decrypt ? 1 : 0);
    snprintf(secs, sizeof secs, "%.6f", j->seconds);
    snprintf(samples, sizeof samples, "%d", j->samples);
    snprintf(cpu, sizeof cpu, "%d", j->threads > 1 ? idx : -1);
    char *argv[] = { "accelscope", "__worker", (char *)j->impl->alg, (char *)j->impl->name,
                     bytes, dec, secs, samples, cpu, NULL };
    char **envp = worker_env(j->impl->env);
    pid_t pid = spawn_piped(exe_path, argv, envp, fd_out, why, n);
    free(envp);
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
    e->r.samples_wanted = e->job.samples;
    snprintf(e->r.cycle_clock, sizeof e->r.cycle_clock, "none");
    e->last_news = mono();
    char why[200];
    if (job->impl->check(job->impl, why, sizeof why) != 0) {
        finish(e, RES_UNAVAILABLE, "%s", why);
        return e;
    }
    e->w = calloc((size_t)e->job.threads, sizeof *e->w);
    if (!e->w)
        abort();
    e->r.status = RES_RUNNING;
    for (int i = 0; i < e->job.threads; i++) {
        e->w[i].fd = -1;
        e->w[i].pid = spawn(&e->job, i, &e->w[i].fd, why, sizeof why);
        e->n = i + 1;
        if (e->w[i].pid < 0) {
            finish(e, RES_ERROR, "%s", why);
            break;
        }
    }
    return e;
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

int engine_timeout_ms(const struct engine *e)
{
    if (e->finished)
        return 0;
    /* A worker whose output reached EOF is exiting: look again soon for its status rather
     * than wait for the watchdog. */
    for (int i = 0; i < e->n; i++)
        if (e->w[i].fd < 0 && e->w[i].pid > 0 && !e->w[i].exited)
            return 1;
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

int engine_step(struct engine *e)
{
    int all_exited = 1;
    for (int i = 0; i < e->n; i++) {
        struct worker *w = &e->w[i];
        if (w->fd >= 0)
            drain(e, w);
        if (w->pid > 0 && !w->exited) {
            pid_t r = waitpid(w->pid, &w->status, WNOHANG);
            if (r == w->pid)
                w->exited = 1;
        }
        if (w->pid > 0 && !w->exited)
            all_exited = 0;
        if (w->exited && w->fd >= 0) {
            drain(e, w); /* the tail of its output */
            if (w->fd >= 0) {
                close(w->fd);
                w->fd = -1;
            }
        }
        if (w->exited && !e->finished) {
            if (WIFSIGNALED(w->status)) {
                int sig = WTERMSIG(w->status);
                const char *nm = signame(sig);
                char sb[16];
                if (!nm) {
                    snprintf(sb, sizeof sb, "signal %d", sig);
                    nm = sb;
                }
                finish(e, RES_CRASHED, "worker %d killed by %s%s%s", i, nm,
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
    }
    if (!e->finished && e->n && all_exited) {
        aggregate(e);
        /* A figure needs a verified worker and samples from every worker. */
        int sampled = 1;
        for (int i = 0; i < e->n; i++)
            sampled &= e->w[i].done && e->w[i].nmb > 0;
        if (!e->r.reference[0] || !sampled)
            finish(e, RES_ERROR, "a worker finished without %s",
                   !e->r.reference[0] ? "verifying its output" : "timed samples");
        else
            finish(e, RES_OK, NULL);
    }
    if (!e->finished && mono() - e->last_news > watchdog(e))
        finish(e, RES_TIMEOUT, "no word from a worker for %.0f s", watchdog(e));
    if (e->finished) {
        /* Reap what finish() killed so no zombie outlives the cell. */
        for (int i = 0; i < e->n; i++) {
            struct worker *w = &e->w[i];
            if (w->pid > 0 && !w->exited && waitpid(w->pid, &w->status, 0) == w->pid)
                w->exited = 1;
            if (w->fd >= 0) {
                close(w->fd);
                w->fd = -1;
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
    free(e->w);
    free(e);
}

void engine_run(const struct engine_job *job, struct result *out,
                void (*progress)(const struct result *r, void *arg), void *arg)
{
    struct engine *e = engine_start(job);
    struct pollfd fds[RESULT_MAX_THREADS];
    int seen = 0;
    while (!engine_step(e)) {
        if (progress && e->r.samples != seen) {
            seen = e->r.samples;
            progress(&e->r, arg);
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
