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

#include "lastrun.h"
#include "cpupick.h"
#include "derive.h"
#include "engine.h"
#include "session_priv.h"
#include "stats.h"

#define SCHED_GROUP_FDS 256
/* How recent the group's last round must be for its CPU to count as warm (next_round): a
 * worker's exit between two members takes a few ms; a pause longer than this (the TUI's, a
 * slow exit) lets a governor lower the clock, so the next worker waits for it again. */
#define SCHED_WARM_S 0.02

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
    if (s->spelled[i]) { /* its first figure stands until the second one is in (member_done) */
        s->spelled[i] = 0;
        c->again++;
        if (!s->first) {
            s->first = calloc(s->plan.n, sizeof *s->first);
            if (!s->first)
                abort();
        }
        s->first[i] = c->r;
    }
    struct engine_job job = { .impl = c->impl, .bytes = c->bytes, .threads = c->threads,
                              .seconds = s->sel.seconds, .samples = SCHED_SAMPLES,
                              .decrypt = s->sel.decrypt, .paced = 1, .noisy_fallback = 1,
                              .group = s->grpseq, .alternate = 1 };
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
    if (!s->ngrp)
        return;
    if (s->plan.cells[s->grp[0].cell].threads != 1) {
        cpupick_forget();
        return;
    }
    int cpu = cpupick_fastest(why, sizeof why);
    if (cpu < 0)
        return;
    for (size_t g = 0; g < s->ngrp; g++)
        if (s->grp[g].e)
            engine_pin(s->grp[g].e, cpu);
    s->grp_away = cpupick_avoid(cpu) == 0;
}

/* The group's start until its timing begins (before group_pin), or until it ended without
 * any: workers started and verified. Once per group: group_pin marks the group picked. */
static void group_started(struct session *s)
{
    if (!s->grp_picked && s->ngrp)
        s->starting += session_mono() - s->grp_t0;
}

static void run_end(struct session *s)
{
    group_release(s);
    s->active = 0;
    s->ngrp = 0;
    s->wall = session_mono() - s->t0;
    derive_cells(s->plan.cells, s->plan.n);
    session_tell(s, SESSION_RUN_DONE, SIZE_MAX);
}

/* The group has finished. Measured in a turbulent spell (derive.c's d.spell, the rule of
 * stats_spell over its column), it waits to be measured once more after the columns still to
 * come, with fresh workers, and that figure replaces this one: a spell of a few seconds has
 * passed by then. A row that failed keeps its result. Whether the second visits happen at all
 * is decided when they would begin (again_phase). */
static void group_spell(struct session *s)
{
    int spell = 0, again = 0;
    derive_cells(s->plan.cells, s->plan.n); /* the listener has seen the cells: read them now */
    for (size_t g = 0; g < s->ngrp; g++) {
        const struct cell *c = cell_of(s, &s->grp[g]);
        again |= c->again > 0;
        spell |= c->d.spell;
    }
    s->ngroups++;
    if (!spell)
        return;
    s->nspells++;
    if (again)
        return;
    for (size_t g = 0; g < s->ngrp; g++) {
        size_t i = s->grp[g].cell;
        if (s->plan.cells[i].r.status == RES_OK) {
            s->spelled[i] = 1;
            s->total++;
        }
    }
}

/* The pending cells are through. Second visits only while spells were the exception in this
 * run, at most one group in four (the first few aside): on a machine busy throughout, a second
 * visit finds the same, the cells stay noisy (derive.c) and the run takes no longer. */
static void again_phase(struct session *s)
{
    s->again_decided = 1;
    if (4 * s->nspells <= s->ngroups + 4)
        return;
    for (size_t i = 0; i < s->plan.n; i++)
        if (s->spelled[i]) {
            s->spelled[i] = 0;
            s->total--;
        }
}

/* Cell i goes into the group begun with first: pending cells of first's column, or when the
 * pending are through, the cells of first's column that wait to be measured anew. */
static int joins(const struct session *s, size_t i, size_t first, int again)
{
    const struct cell *c = &s->plan.cells[i];
    return (again ? s->spelled[i] != 0 : c->r.status == RES_PENDING) &&
           cell_same_column(c, &s->plan.cells[first]);
}

/* The next group: the first pending cell and every pending cell of its column; once none is
 * left, a column measured in a spell, anew. */
static void group_begin(struct session *s)
{
    size_t first = 0;
    int again = 0;
    while (first < s->plan.n && s->plan.cells[first].r.status != RES_PENDING)
        first++;
    if (first == s->plan.n) {
        if (!s->again_decided)
            again_phase(s);
        for (first = 0, again = 1; first < s->plan.n && !s->spelled[first];)
            first++;
    }
    if (first == s->plan.n) {
        run_end(s);
        return;
    }
    group_release(s);
    s->ngrp = 0;
    s->sampling = -1;
    s->round_end = 0;
    s->turn = 0;
    s->grpseq++;
    s->grp_t0 = session_mono();
    /* Every worker holds two descriptors here; a column of many cells with -t N is split
     * into groups under SCHED_GROUP_FDS (the open-file limit, the TUI's poll array). */
    int threads = s->plan.cells[first].threads;
    size_t workers = threads == 1 ? 2 : (size_t)threads; /* job.alternate: two for one */
    for (size_t i = first; i < s->plan.n; i++)
        if (joins(s, i, first, again) &&
            (!s->ngrp || (s->ngrp + 1) * workers * 2 <= SCHED_GROUP_FDS))
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
    s->wall = s->timed = s->waited = s->starting = 0;
    s->rounds_all = 0;
    s->ngroups = s->nspells = 0;
    s->again_decided = 0;
    free(s->spelled);
    free(s->first);
    s->first = NULL;
    s->spelled = calloc(s->plan.n ? s->plan.n : 1, 1);
    if (!s->spelled)
        abort();
    for (size_t i = 0; i < s->plan.n; i++) {
        struct cell *c = &s->plan.cells[i];
        if (s->resume && c->r.status != RES_PENDING && c->r.status != RES_CANCELLED) {
            c->r.nround = 0; /* its rounds ran in another run: never paired with this one's */
            continue;
        }
        memset(&c->r, 0, sizeof c->r);
        c->r.status = RES_PENDING;
        c->r.threads = c->threads;
        c->again = 0;
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
    s->timed += c->r.seconds;
    s->waited += (double)c->r.waited_ns / 1e9;
    s->rounds_all += c->r.rounds + c->r.disturbed;
    if (c->again && c->r.status != RES_OK) /* cancelled, crashed on its second visit: the */
        c->r = s->first[m->cell];          /* verified first figure, in its spell, stands */
    c->r.clock_ref_mhz = lastrun_clock_for(s->lastrun, c);
    c->r.last_mb_per_s = lastrun_mb_for(s->lastrun, c);
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
    double used = 0, waited = 0;
    size_t ref = n, shares = 0;
    for (size_t g = 0; g < n; g++) {
        used += rs[g]->seconds;
        waited += (double)rs[g]->waited_ns / 1e9;
        shares += alive[g] || rs[g]->nround > 0; /* one that never timed has no share */
        if (takes_part(rs[g]) && (ref == n || rs[g]->mb_per_s < rs[ref]->mb_per_s))
            ref = g;
    }
    /* A wait for a slow spell to pass (worker.c) is spent from the budget as a window is:
     * else a host slow for seconds at a time stretches a column by up to 48 waits of 60 ms
     * a cell. On the Zen 5 VM (2026-12-05, default runs alternated with the rule that
     * charged windows only, four pairs in a busy stretch) runs took 115, 98, 107 and 112 s
     * instead of 183, 152, 169 and 148 s, waiting 24, 11, 15 and 24 s instead of 69, 55, 63
     * and 36 s; speed-ups quiet 365, 420, 409 and 391 of 432 against 372, 405, 399 and 419,
     * 90-95 % of them within 3 % of the other rule's, where two runs of one rule agreed on
     * 95 %. The price, where a spell outlasts a column's budget: its cells end noisy, some
     * with no round kept (md5 at 256 B, 0 of 5 in a later run), where waiting might have
     * seen the spell through. Not for a member whose offload verdict is open: it needs
     * 0.1 s of CPU time in its windows (offload.h), which a column's waits must not take. */
    if (!rs[m]->offload_open)
        used += waited;
    if (taken >= SCHED_ROUND_CAP || used >= budget * (double)shares)
        return 1;
    if (rs[m]->offload_open || !stats_enough(rs[m]))
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
    /* The group's CPU has run its rounds until just now (the gap a worker's exit leaves
     * included): a worker calibrating there need not wait for its clock to settle. Not the
     * group's first round: the CPU was picked a moment ago, maybe from idle. */
    int warm = s->round_end > 0 && session_mono() - s->round_end < SCHED_WARM_S;
    for (size_t k = 0; k < s->ngrp; k++) {
        size_t g = (s->turn + k) % s->ngrp;
        struct member *m = &s->grp[g];
        if (!m->e || engine_state(m->e) != ENGINE_IDLE)
            continue;
        engine_warm(m->e, warm);
        if (engine_go(m->e) == 0) {
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
            s->round_end = session_mono();
        }
    }
    /* Timing starts when every cell of the group has verified, and no member is exiting
     * (one just told to stop is): nothing else runs then. */
    if (s->sampling < 0 && ready && alive) {
        if (!s->grp_picked) {
            group_started(s);
            group_pin(s);
        }
        next_round(s);
    }
    if (!alive) {
        group_started(s); /* no cell of it timed: all of it was starting */
        s->busy += session_mono() - s->grp_t0;
        s->ran += s->ngrp;
        group_spell(s);
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
    group_started(s);
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
