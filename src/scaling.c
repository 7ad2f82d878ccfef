/* Scaling figures (scaling.h): efficiency at N threads, and a reason where a path falls
 * outside +-10 % of N times its 1-thread figure. */
#include "scaling.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "cpu.h"
#include "silicon.h"
#include "stats.h"

void scaling_env_of(const struct silicon *sil, struct scaling_env *env)
{
    memset(env, 0, sizeof *env);
    if (sil && sil->ok) {
        env->mem_l1_mb_s = sil->memcpy_l1_mb_s;
        env->mem_ram_mb_s = sil->memcpy_ram_mb_s;
    }
    env->cores = cpu_get()->cores;
}

int scaling_same_job(const struct cell *a, const struct cell *b)
{
    return a->bytes == b->bytes && a->decrypt == b->decrypt && !strcmp(a->impl->alg, b->impl->alg);
}

int scaling_multi(const struct cell *cells, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (cells[i].threads != cells[0].threads)
            return 1;
    return 0;
}

const struct cell *scaling_base(const struct cell *cells, size_t n, const struct cell *c)
{
    for (size_t i = 0; i < n; i++)
        if (cells[i].threads == 1 && cells[i].impl == c->impl && scaling_same_job(&cells[i], c))
            return &cells[i];
    return NULL;
}

static int unsettled(const struct cell *c)
{
    return c->r.quality == RESULT_NOISY;
}

/* Its figure never settled, or was taken in a turbulent spell. Not its column's comparison
 * (d.noisy): the scaling sets the figure beside its own 1-thread figure, not beside the
 * column's slowest, whose rounds or noise say nothing of it. */
static int noisy(const struct cell *c)
{
    return unsettled(c) || c->d.spell;
}

/* Its workers did not have their CPUs to themselves. */
static int starved(const struct cell *c)
{
    return c->r.cpu_util > 0 && c->r.cpu_util < 0.9;
}

/* A unit every worker goes through, whatever the number of CPUs; NULL when none is known. */
static const char *shared_unit(const struct cell *c, const struct scaling_env *env)
{
    static const char *const drng[] = { "rdrand", "rdseed", "xstore" };
    for (size_t i = 0; i < sizeof drng / sizeof drng[0]; i++)
        if (!strcmp(c->impl->alg, drng[i]))
            return "the CPU's random number generator (one per package, shared by every core)";
    if (c->impl->path == PATH_KERNEL && !c->r.fallback)
        return "the kernel's crypto API (system calls and copies through one socket type)";
    if (env->cores > 0 && c->threads > env->cores)
        return "SMT siblings: more workers than physical cores, two share one core's units";
    return NULL;
}

/* Memory bound, or what the bandwidth says against it; the bandwidth that applies to c's
 * buffers: a job of up to 16 KiB stays in each core's own cache (the copy rate times N),
 * a larger one goes to memory, shared. */
static void memory(const struct cell *c, const struct scaling_env *env, char *why, size_t n)
{
    const struct algo *a = algo_find(c->impl->alg);
    if (a && a->kind == ALGO_PKEY) { /* a public-key operation moves a few hundred bytes */
        snprintf(why, n, "not noisy, no shared unit known, not memory bound (a public-key "
                 "operation): cause not known");
        return;
    }
    int cached = c->bytes <= 16384;
    double bw = cached ? env->mem_l1_mb_s * c->threads : env->mem_ram_mb_s;
    if (bw <= 0) {
        snprintf(why, n, "not noisy, no shared unit known; memory bandwidth not known "
                 "(measured with the silicon ceilings)");
        return;
    }
    double share = c->r.mb_per_s / bw;
    if (share >= SCALING_MEM_NEAR)
        snprintf(why, n, "memory bound: %.0f MB/s is %.0f %% of the %s copy bandwidth "
                 "(%.0f MB/s)", c->r.mb_per_s, share * 100, cached ? "cache" : "memory", bw);
    else
        snprintf(why, n, "not noisy, no shared unit known, not memory bound (%.0f %% of the "
                 "%s copy bandwidth, %.0f MB/s): cause not known", share * 100,
                 cached ? "cache" : "memory", bw);
}

/* Why c does not reach N x its 1-thread figure. */
static void reason(const struct scaling *sc, const struct scaling_env *env, char *why, size_t n)
{
    const struct cell *c = sc->cell, *b = sc->base;
    const char *unit;
    if (!b || b->r.status != RES_OK || b->r.mb_per_s <= 0)
        snprintf(why, n, "no 1-thread figure to compare with (add 1 to -t)");
    else if (starved(c) || starved(b)) /* why a figure is noisy, where it can be told */
        snprintf(why, n, "noisy: a worker had %.0f %% of a CPU at 1 thread, %.0f %% at %d "
                 "(other work)", b->r.cpu_util * 100, c->r.cpu_util * 100, c->threads);
    else if (c->r.overlap_pct > 0 && c->r.overlap_pct < STATS_OVERLAP_MIN_PCT)
        snprintf(why, n, "noisy: the %d workers' windows overlapped only %.0f %%", c->threads,
                 c->r.overlap_pct);
    else if (sc->noisy) {
        const char *which = noisy(c) && noisy(b) ? "1-thread and the N-thread"
                          : noisy(c) ? "N-thread" : "1-thread";
        snprintf(why, n, unsettled(c) || unsettled(b) ? "noisy: the %s figure never settled (~)"
                         : "noisy: the %s figure was taken in a turbulent spell (~)", which);
    }
    else if ((unit = shared_unit(c, env)))
        snprintf(why, n, "shared unit: %s", unit);
    else
        memory(c, env, why, n);
}

int scaling_of(const struct cell *cells, size_t n, const struct cell *c,
               const struct scaling_env *env, struct scaling *out)
{
    memset(out, 0, sizeof *out);
    out->cell = c;
    if (c->r.status != RES_OK || c->r.mb_per_s <= 0)
        return -1;
    out->base = scaling_base(cells, n, c);
    out->reach = c->limit_mb_per_s * c->threads;
    const struct cell *b = out->base;
    out->noisy = noisy(c) || (b && noisy(b));
    if (b && b->r.status == RES_OK && b->r.mb_per_s > 0) {
        out->ideal = b->r.mb_per_s * c->threads;
        out->eff = c->r.mb_per_s / out->ideal;
    }
    out->scales = out->eff > 0 && fabs(out->eff - 1) <= SCALING_TOL && !out->noisy;
    if (!out->scales && c->threads > 1)
        reason(out, env, out->reason, sizeof out->reason);
    return 0;
}
