/* Running a session: which cell or sample runs next.
 *
 * The cells of one column (one algorithm at one size, in one direction, one thread count:
 * the bars that are compared with each other) form a group. Every cell of the group gets its workers at once;
 * they verify side by side, and only when all of them are ready does timing start. Then the
 * group is measured in rounds, one cell's sample after another (A B C A B C ...), so a drift
 * of the machine (a throttling clock, a background job) hits every bar of the group alike,
 * instead of whichever cell ran during it. After each of its rounds a cell is asked whether
 * it has enough: its own median known to +-2 % (stats_enough: 5 undisturbed samples at
 * least) and its paired ratio to the column's slowest known as well, since that ratio is the
 * xN the column shows (the slowest itself goes on while others still pair with it). It stops
 * then, or when the column's budget (--time per cell, shared: what one cell did not need,
 * another may use) or SCHED_ROUND_CAP rounds are spent, its figure marked noisy if it never
 * settled. Disturbed rounds (descheduled, stolen from, clock moved: stats.h) are retaken, not
 * averaged in. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpupick.h"
#include "derive.h"
#include "engine.h"
#include "session_priv.h"
#include "stats.h"

#define SCHED_GROUP_FDS 256

static struct cell *cell_of(struct session *s, const struct member *m)
{
    return &s->plan.cells[m->cell];
}

static void add_member(struct session *s, size_t i)
{
    if (s->ngrp == s->capgrp) {
        s->capgrp = s->capgrp ? 2 * s->capgrp : 16;
        s->grp = realloc(s->grp, s->capgrp * sizeof *s->grp);
        if (!s->grp)
            abort();
    }
    struct cell *c = &s->plan.cells[i];
    struct engine_job job = { .impl = c->impl, .bytes = c->bytes, .threads = c->threads,
                              .seconds = s->sel.seconds, .samples = SCHED_SAMPLES,
                              .decrypt = s->sel.decrypt, .paced = 1, .noisy_fallback = 1,
                              .group = s->grpseq };
    memset(&c->r, 0, sizeof c->r);
    c->r.status = RES_RUNNING;
    c->r.threads = c->threads;
    s->grp[s->ngrp++] = (struct member){ .cell = i, .e = engine_start(&job) };
    session_tell(s, SESSION_CELL_START, i);
}

/* The group's CPU no longer kept free: before the next group's workers inherit this
 * process's affinity, and when the run ends. */
static void group_release(struct session *s)
{
    if (s->grp_away)
        cpupick_restore();
    s->grp_away = 0;
    s->grp_picked = 0;
}

/* Timing starts: every one-worker cell of the group goes to the CPU that reads fastest now,
 * so that the bars compared all run on one CPU, in whatever state it is in, and on the best
 * of those there are; this process moves off that CPU meanwhile. -t N workers are pinned to
 * CPUs of their own at start. Nothing to pick (one CPU): left as it was. */
static void group_pin(struct session *s)
{
    char why[120];
    s->grp_picked = 1;
    if (!s->ngrp || s->plan.cells[s->grp[0].cell].threads != 1)
        return;
    int cpu = cpupick_fastest(why, sizeof why);
    if (cpu < 0)
        return;
    for (size_t g = 0; g < s->ngrp; g++)
        if (s->grp[g].e)
            engine_pin(s->grp[g].e, cpu);
    s->grp_away = cpupick_avoid(cpu) == 0;
}

static void run_end(struct session *s)
{
    group_release(s);
    s->active = 0;
    s->ngrp = 0;
    derive_cells(s->plan.cells, s->plan.n);
    session_tell(s, SESSION_RUN_DONE, SIZE_MAX);
}

/* The next group: the first pending cell and every pending cell of its column. */
static void group_begin(struct session *s)
{
    size_t first = 0;
    while (first < s->plan.n && s->plan.cells[first].r.status != RES_PENDING)
        first++;
    if (first == s->plan.n) {
        run_end(s);
        return;
    }
    group_release(s);
    s->ngrp = 0;
    s->sampling = -1;
    s->turn = 0;
    s->grpseq++;
    s->grp_t0 = session_mono();
    /* Every worker holds two descriptors here; a column of many cells with -t N is split
     * into groups under SCHED_GROUP_FDS (the open-file limit, the TUI's poll array). */
    for (size_t i = first; i < s->plan.n; i++)
        if (s->plan.cells[i].r.status == RES_PENDING &&
            cell_same_column(&s->plan.cells[i], &s->plan.cells[first]) &&
            (!s->ngrp || (s->ngrp + 1) * (size_t)s->plan.cells[first].threads * 2 <= SCHED_GROUP_FDS))
            add_member(s, i);
}

void sched_begin(struct session *s)
{
    s->queued = 0;
    s->active = 1;
    s->done = s->total = 0;
    s->busy = 0;
    s->ran = 0;
    s->t0 = session_mono();
    for (size_t i = 0; i < s->plan.n; i++) {
        struct cell *c = &s->plan.cells[i];
        if (s->resume && c->r.status != RES_PENDING && c->r.status != RES_CANCELLED) {
            c->r.nround = 0; /* its rounds ran in another run: never paired with this one's */
            continue;
        }
        memset(&c->r, 0, sizeof c->r);
        c->r.status = RES_PENDING;
        c->r.threads = c->threads;
        session_mark_unavailable(s, c);
        s->total += c->r.status == RES_PENDING;
    }
    derive_cells(s->plan.cells, s->plan.n);
    group_begin(s);
    if (s->active)
        sched_step(s); /* cells that end at once (unavailable) pass now */
}

/* A member's engine finished: its result is final. */
static void member_done(struct session *s, size_t g)
{
    struct member *m = &s->grp[g];
    struct cell *c = cell_of(s, m);
    c->r = *engine_result(m->e);
    engine_free(m->e);
    m->e = NULL;
    s->done++;
    if ((long)g == s->sampling)
        s->sampling = -1;
    derive_cells(s->plan.cells, s->plan.n);
    session_tell(s, SESSION_CELL_DONE, m->cell);
}

/* What a member has so far: live from its engine, final once it is done. */
static const struct result *member_result(struct session *s, const struct member *m)
{
    return m->e ? engine_result(m->e) : &cell_of(s, m)->r;
}

/* a's paired ratio to b is known to +-STATS_ENOUGH_CI_PCT. */
static int pair_settled(const struct result *a, const struct result *b)
{
    double q, lo, hi;
    return derive_paired(a, b, &q, &lo, &hi) && (hi - lo) / 2 <= q * STATS_ENOUGH_CI_PCT / 100;
}

/* A member whose figure takes part (result_comparable, as in derive.c) and has rounds to pair.
 * One that crashed keeps its rounds but is out. */
static int takes_part(const struct result *r)
{
    return result_comparable(r) && r->nround > 0;
}

/* g may come out as the column's slowest: it is, or its paired ratio to the slowest may be 1
 * (too few pairs yet: its median within 5 %). The reference of the x N derive.c shows is
 * whichever ends slowest, and near-ties swap places from round to round. */
static int maybe_slowest(const struct result *const rs[], size_t ref, size_t g)
{
    double q, lo, hi;
    if (g == ref)
        return 1;
    if (derive_paired(rs[g], rs[ref], &q, &lo, &hi))
        return lo <= 1.0;
    return rs[g]->mb_per_s <= rs[ref]->mb_per_s * 1.05;
}

int sched_stop_rule(const struct result *const rs[], const int alive[], size_t n, size_t m,
                    int taken, double budget)
{
    double used = 0;
    size_t ref = n, shares = 0;
    for (size_t g = 0; g < n; g++) {
        used += rs[g]->seconds;
        shares += alive[g] || rs[g]->nround > 0; /* one that never timed has no share */
        if (takes_part(rs[g]) && (ref == n || rs[g]->mb_per_s < rs[ref]->mb_per_s))
            ref = g;
    }
    if (taken >= SCHED_ROUND_CAP || used >= budget * (double)shares)
        return 1;
    if (!stats_enough(rs[m]))
        return 0;
    if (ref == n)
        return 1; /* no figure to pair with */
    for (size_t g = 0; g < n; g++)
        if (g != m && takes_part(rs[g]) && maybe_slowest(rs, ref, g) &&
            !pair_settled(rs[m], rs[g]))
            return 0;
    if (maybe_slowest(rs, ref, m))
        for (size_t g = 0; g < n; g++)
            if (g != m && alive[g] && takes_part(rs[g]) && !pair_settled(rs[g], rs[m]))
                return 0;
    return 1;
}

/* After one of its rounds: does the cell stop here? 1 when it was told to. */
static int decide(struct session *s, struct member *m)
{
    const struct result *rs[SCHED_GROUP_FDS];
    int alive[SCHED_GROUP_FDS];
    for (size_t g = 0; g < s->ngrp; g++) {
        rs[g] = member_result(s, &s->grp[g]);
        alive[g] = s->grp[g].e != NULL;
    }
    if (!sched_stop_rule(rs, alive, s->ngrp, (size_t)(m - s->grp), engine_rounds_taken(m->e),
                         s->sel.seconds))
        return 0;
    engine_stop(m->e);
    return 1;
}

/* Reads every engine of the group; 1 when a cell changed. *ready: all verified. */
static int poll_members(struct session *s, int *ready, int *alive)
{
    int changed = 0;
    *ready = 1;
    *alive = 0;
    for (size_t g = 0; g < s->ngrp; g++) {
        struct member *m = &s->grp[g];
        if (!m->e)
            continue;
        struct cell *c = cell_of(s, m);
        int before = c->r.samples;
        if (engine_step(m->e)) {
            member_done(s, g);
            changed = 1;
            continue;
        }
        (*alive)++;
        c->r = *engine_result(m->e);
        if (c->r.samples != before) {
            session_tell(s, SESSION_CELL_SAMPLE, m->cell);
            changed = 1;
        }
        enum engine_state st = engine_state(m->e);
        *ready &= st != ENGINE_STARTING && st != ENGINE_STOPPING;
    }
    return changed;
}

/* The round robin: the next member, after the last one sampled, that can take a round. */
static void next_round(struct session *s)
{
    for (size_t k = 0; k < s->ngrp; k++) {
        size_t g = (s->turn + k) % s->ngrp;
        struct member *m = &s->grp[g];
        if (m->e && engine_state(m->e) == ENGINE_IDLE && engine_go(m->e) == 0) {
            s->sampling = (long)g;
            s->turn = g + 1;
            return;
        }
    }
}

int sched_step(struct session *s)
{
    int ready, alive;
    int changed = poll_members(s, &ready, &alive);
    if (s->sampling >= 0) {
        struct member *m = &s->grp[s->sampling];
        if (m->e && engine_state(m->e) == ENGINE_IDLE) {
            ready &= !decide(s, m);
            s->sampling = -1;
        }
    }
    /* Timing starts when every cell of the group has verified, and no member is exiting
     * (one just told to stop is): nothing else runs then. */
    if (s->sampling < 0 && ready && alive) {
        if (!s->grp_picked)
            group_pin(s);
        next_round(s);
    }
    if (!alive) {
        s->busy += session_mono() - s->grp_t0;
        s->ran += s->ngrp;
        group_begin(s);
        if (s->active)
            return sched_step(s) | 1;
        return 1;
    }
    return changed;
}

int sched_cancel(struct session *s)
{
    for (size_t g = 0; g < s->ngrp; g++)
        if (s->grp[g].e) {
            engine_cancel(s->grp[g].e);
            member_done(s, g);
        }
    run_end(s);
    return 1;
}

int sched_pollfds(const struct session *s, struct pollfd *fds, int max)
{
    int k = 0;
    for (size_t g = 0; g < s->ngrp && k < max; g++)
        if (s->grp[g].e)
            k += engine_pollfds(s->grp[g].e, fds + k, max - k);
    return k;
}

int sched_timeout_ms(const struct session *s)
{
    int t = -1;
    struct pollfd fds[RESULT_MAX_THREADS];
    for (size_t g = 0; g < s->ngrp; g++) {
        struct engine *e = s->grp[g].e;
        if (!e)
            continue;
        /* Every pipe closed but a worker not yet reaped: it is exiting; look again shortly
         * rather than sleep until the watchdog. */
        int et = engine_pollfds(e, fds, RESULT_MAX_THREADS) ? engine_timeout_ms(e) : 5;
        if (et >= 0 && (t < 0 || et < t))
            t = et;
    }
    return t;
}

long sched_current(const struct session *s)
{
    if (s->sampling >= 0)
        return (long)s->grp[s->sampling].cell;
    for (size_t g = 0; g < s->ngrp; g++)
        if (s->grp[g].e)
            return (long)s->grp[g].cell;
    return -1;
}
