#include "report.h"

#include <math.h>
#include <string.h>

#include "algo.h"
#include "scaling.h"
#include "stats.h"

const char *report_size(size_t b, char *buf, size_t n)
{
    if (b >= 1024 * 1024 && b % (1024 * 1024) == 0)
        snprintf(buf, n, "%zu MiB", b >> 20);
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, n, "%zu KiB", b >> 10);
    else
        snprintf(buf, n, "%zu B", b);
    return buf;
}

const char *report_cell_size(const struct algo *a, size_t b, char *buf, size_t n)
{
    if (a && !algo_sized(a) && !strncmp(a->family, "ml-", 3)) /* a parameter set, not bits */
        snprintf(buf, n, "%s", a->pk_type);
    else if (a && !algo_sized(a))
        snprintf(buf, n, "%zu-bit", b);
    else
        report_size(b, buf, n);
    return buf;
}

/* The first of a row's n cells whose ENGINE work fell back to software, or NULL. */
static const struct result *fell_back(const struct cell *c, size_t n)
{
    for (size_t z = 0; z < n; z++)
        if (c[z].r.status == RES_OK && c[z].r.fallback)
            return &c[z].r;
    return NULL;
}

/* The cells [from, to) of one algorithm; sizes repeat per implementation and thread count
 * in plan order; multi: more than one thread count, said on each row. */
static void block(FILE *out, const struct cell *cells, size_t from, size_t to, int multi)
{
    const struct cell *c0 = &cells[from];
    size_t nsz = 0;
    while (from + nsz < to && cells[from + nsz].impl == c0->impl &&
           cells[from + nsz].threads == c0->threads)
        nsz++;
    char b[32];
    const struct algo *a = algo_find(c0->impl->alg);
    int directed = a && algo_has_direction(a);
    fprintf(out, "%-16s %-7s%-22s", c0->impl->alg, directed && c0->decrypt ? "decrypt" : "", "");
    for (size_t z = 0; z < nsz; z++) /* public-key rows: the key size and their unit */
        fprintf(out, " %10s", report_cell_size(a, cells[from + z].bytes, b, sizeof b));
    fprintf(out, "  %svs slowest", a && !algo_sized(a) ? "ops/s  " : "");
    if (c0->limit_mb_per_s > 0)
        fprintf(out, "  (silicon ceiling %.0f MB/s)", c0->limit_mb_per_s);
    fputc('\n', out);

    for (size_t row = from; row < to; row += nsz) {
        const struct impl *im = cells[row].impl;
        const struct result *soft = fell_back(&cells[row], nsz);
        char name[80];
        snprintf(name, sizeof name, multi ? "%s, %d thr" : "%s", im->name, cells[row].threads);
        /* An ENGINE row whose work stayed in libcrypto is a software figure, not its path's. */
        fprintf(out, "  %-7s %-36s", soft ? "soft" : path_id[im->path], name);
        const struct result *bad = NULL;
        const struct cell *same = NULL;
        for (size_t z = 0; z < nsz; z++) {
            const struct cell *c = &cells[row + z];
            const struct result *r = &c->r;
            same = same ? same : c->d.same_as ? c : NULL;
            if (r->status == RES_OK) /* ~: noisy, a figure but no claim */
                fprintf(out, " %9.1f%c", algo_rate(a, r->mb_per_s), c->d.noisy ? '~' : ' ');
            else {
                fprintf(out, " %10s", result_status_short(r->status));
                if (!bad && r->status != RES_PENDING && r->status != RES_CANCELLED)
                    bad = r;
            }
        }
        if (!soft && cells[row + nsz - 1].d.speedup > 0 && !cells[row + nsz - 1].d.noisy)
            fprintf(out, "  x%.2f", cells[row + nsz - 1].d.speedup);
        if (soft)
            fprintf(out, "  fallback: %s", soft->fallback_why);
        else if (bad)
            fprintf(out, "  %s", bad->reason);
        else if (same)
            fprintf(out, "  same code as %s %s: %s", path_id[same->d.same_as->path],
                     same->d.same_as->name, same->d.same_why);
        fputc('\n', out);
    }
    fputc('\n', out);
}

/* How many rounds were retaken, and why: the user sees what the machine did to the run
 * (its time, its noisy cells) rather than only that it did something. again: a column was
 * measured anew, so the totals (one visit a cell, the figure shown: the second visit's or,
 * when that failed, the first's) may be smaller than the time line's, which counts every
 * visit; said, so the two do not read as a mismatch. */
static void retaken(FILE *out, const struct cell *cells, size_t n, int again)
{
    struct stats_retaken t = { 0 };
    char b[600];
    for (size_t i = 0; i < n; i++)
        stats_retaken_add(&t, &cells[i].r);
    if (t.retaken)
        fprintf(out, "%s (a round may have several reasons%s).\n",
                stats_retaken_text(&t, RESULT_RETAKEN_COUNT, b, sizeof b),
                again ? "; of the figures shown only: a cell measured anew counts one visit"
                      : "");
}

/* What the marks mean, once, under the table. */
static void legend(FILE *out, const struct cell *cells, size_t n)
{
    size_t noisy = 0, again = 0, spell = 0;
    for (size_t i = 0; i < n; i++)
        noisy += cells[i].d.noisy, again += cells[i].again > 0, spell += cells[i].d.spell;
    if (noisy)
        fprintf(out, "~ noisy (%zu cells): the 95%% interval of the speed-up over the slowest row "
                     "(its rounds paired with that row's) stayed wider than +-5%%, or either "
                     "row kept under 5 rounds, had most retaken, ran beside busy programs or while "
                     "the host slowed the memory path, or read apart in its two worker processes "
                     "(by more than 3 %% and than their intervals), or the column was measured "
                     "in a turbulent "
                     "spell (%.0f %% of its rounds retaken), or the row is its column's "
                     "slowest and no other row's speed-up over it is quiet; "
                     "no speed-up is claimed from them.\n", noisy, STATS_SPELL_PCT);
    retaken(out, cells, n, again > 0);
    if (again) /* why the run took longer, and that the figures shown are (mostly) the second
                * visit's: a second visit that failed leaves the first's */
        fprintf(out, "%zu cells measured anew after the rest, their column's first visit in a "
                     "turbulent spell; %zu cells' columns in a spell at the end.\n", again, spell);
    else if (spell)
        fprintf(out, "%zu cells' columns measured in a turbulent spell.\n", spell);
    uint64_t waited = 0;
    size_t cw = 0;
    for (size_t i = 0; i < n; i++)
        waited += cells[i].r.waited_ns, cw += cells[i].r.waited_ns > 0;
    int ms = waited < 1000000000u;
    if (waited) /* time spent, so said: it is part of why a run took as long as it did */
        fprintf(out, "%.*f %s waited in %zu cells for slow spells of the memory path to pass "
                     "before windows (the load probe; rounds taken in one are retaken%s).\n",
                ms ? 0 : 1, (double)waited / (ms ? 1e6 : 1e9), ms ? "ms" : "s", cw,
                again ? "; of the figures shown only: the time line counts every visit" : "");
}

void report_time(FILE *out, double wall, double timed, double waited, double starting,
                 long rounds)
{
    if (wall <= 0 || rounds <= 0)
        return;
    double rest = wall - timed - waited - starting;
    fprintf(out, "Measuring took %.1f s: %.1f s in timed windows, ", wall, timed);
    if (waited > 0)
        fprintf(out, "%.1f s waiting out slow spells of the memory path, ", waited);
    if (rest < 0)
        rest = 0;
    fprintf(out, "%.1f s starting and verifying workers, %.1f s (%.1f ms a round) ", starting, rest,
            rest * 1e3 / (double)rounds);
    fprintf(out, "warming up before each of the %ld round%s, probing the clock around it and "
                 "handing over to the next, and each cell's calibration and exit (every visit of "
                 "a cell counted).\n", rounds, rounds == 1 ? "" : "s");
}

void report_lastrun_of(const struct cell *cells, size_t n, struct report_lastrun *o)
{
    *o = (struct report_lastrun){ 0 };
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &cells[i].r;
        double pct = stats_clock_ref_pct(r), last = stats_last_pct(r);
        if (r->status != RES_OK)
            continue;
        int moved = fabs(pct) > STATS_CLOCK_REF_PCT;
        int claimed = r->last_mb_per_s > 0 && r->mb_per_s > 0;
        o->claimed += claimed;
        if (claimed && fabs(last) > STATS_ABSOLUTE_REPEAT_PCT) {
            o->off_lo = o->off++ ? fmin(o->off_lo, fabs(last)) : fabs(last);
            o->off_hi = o->off > 1 ? fmax(o->off_hi, fabs(last)) : fabs(last);
            o->off_same_clock += r->clock_mhz > 0 && r->clock_ref_mhz > 0 && !moved;
            o->off_faster += last > 0;
        } else if (claimed && fabs(last) > STATS_ABSOLUTE_KEPT_PCT) {
            o->near++;
        }
        if (!r->clock_ref_mhz || !r->clock_mhz)
            continue;
        o->lo_mhz = o->known++ ? fmin(o->lo_mhz, r->clock_mhz) : r->clock_mhz;
        o->hi_mhz = o->known > 1 ? fmax(o->hi_mhz, r->clock_mhz) : r->clock_mhz;
        if (moved) {
            o->lo_pct = o->moved++ ? fmin(o->lo_pct, pct) : pct;
            o->hi_pct = o->moved > 1 ? fmax(o->hi_pct, pct) : pct;
        }
    }
}

size_t report_lastrun(FILE *out, const struct cell *cells, size_t n, const char *ref_path)
{
    struct report_lastrun k;
    report_lastrun_of(cells, n, &k);
    if (k.moved)
        fprintf(out, "Clock: %zu of %zu cells ran at a core clock %+.1f..%+.1f %% off the last "
                     "saved run's (%s; this run %.0f..%.0f MHz). Their MB/s hold at this clock "
                     "only (CSV absolute: noisy); their speed-ups, measured at one clock, "
                     "stand.\n",
                k.moved, k.known, k.lo_pct, k.hi_pct, ref_path, k.lo_mhz, k.hi_mhz);
    if (k.off)
        fprintf(out, "Repeat: %zu of %zu cells differ by %.1f..%.1f %% (%zu faster, %zu slower; "
                     "%zu at the same clock) from the figures the last saved run (%s) could "
                     "claim to repeat within %.0f %%: this machine did not keep that, so they "
                     "claim nothing of the kind (CSV absolute: noisy); their speed-ups stand.\n",
                k.off, k.claimed, k.off_lo, k.off_hi, k.off_faster, k.off - k.off_faster,
                k.off_same_clock, ref_path, STATS_ABSOLUTE_REPEAT_PCT);
    if (k.near)
        fprintf(out, "Near: %zu of %zu cells are within %.0f %% of the figures the last saved run "
                     "(%s) claimed, but more than %.1f %% off them: that claim held, yet they do "
                     "not make it again (CSV absolute: noisy), since two runs each within %.1f %% "
                     "of one reference are within %.0f %% of each other; their speed-ups "
                     "stand.\n",
                k.near, k.claimed, STATS_ABSOLUTE_REPEAT_PCT, ref_path, STATS_ABSOLUTE_KEPT_PCT,
                STATS_ABSOLUTE_KEPT_PCT, STATS_ABSOLUTE_REPEAT_PCT);
    return k.moved + k.off + k.near;
}

void report_table(FILE *out, const struct cell *cells, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && !strcmp(cells[j].impl->alg, cells[i].impl->alg))
            j++;
        block(out, cells, i, j, scaling_multi(cells, n));
        i = j;
    }
    legend(out, cells, n);
}

/* One scaling row: the cell's figure, N x its 1-thread figure, the efficiency, the line to
 * reach (the single-core ceiling x N), the windows' overlap, and why it falls short. */
static void scaling_row(FILE *out, const struct scaling *sc)
{
    const struct cell *c = sc->cell;
    const struct algo *a = algo_find(c->impl->alg);
    fprintf(out, "  %-7s %-28s %7d %9.1f%c", path_id[c->impl->path], c->impl->name, c->threads,
            algo_rate(a, c->r.mb_per_s), sc->noisy ? '~' : ' ');
    if (c->threads > 1 && sc->ideal > 0)
        fprintf(out, " %10.1f %9.0f %%", algo_rate(a, sc->ideal), sc->eff * 100);
    else
        fprintf(out, " %10s %11s", "-", "-");
    if (sc->reach > 0)
        fprintf(out, " %11.0f", sc->reach);
    else
        fprintf(out, " %11s", "-");
    if (c->threads > 1)
        fprintf(out, " %6.0f %%", c->r.overlap_pct);
    else
        fprintf(out, " %8s", "-");
    if (sc->reason[0])
        fprintf(out, "  %s", sc->reason);
    fputc('\n', out);
}

/* The cells of one algorithm, size and direction as c0, thread counts side by side. */
static void scaling_block(FILE *out, const struct cell *cells, size_t n, size_t c0,
                          const struct scaling_env *env)
{
    char b[32];
    const struct cell *k = &cells[c0];
    const struct algo *a = algo_find(k->impl->alg);
    fprintf(out, "%s %s%s\n  %-7s %-28s %7s %10s %10s %11s %11s %8s\n", k->impl->alg,
            report_cell_size(a, k->bytes, b, sizeof b),
            a && algo_has_direction(a) && k->decrypt ? " decrypt" : "", "path", "implementation",
            "threads", algo_unit(a), "N x 1-thr", "efficiency", "ceiling x N", "overlap");
    for (size_t i = c0; i < n; i++) {
        struct scaling sc;
        const struct cell *c = &cells[i];
        if (scaling_same_job(c, k) && scaling_of(cells, n, c, env, &sc) == 0)
            scaling_row(out, &sc);
    }
    fputc('\n', out);
}

void report_scaling(FILE *out, const struct cell *cells, size_t n, const struct scaling_env *env)
{
    if (!scaling_multi(cells, n))
        return;
    fprintf(out, "scaling: N threads against N x the same row's 1-thread figure (efficiency, "
                 "+-%.0f %% counts as scaling), the single-core ceiling x N the line to reach\n\n",
            SCALING_TOL * 100);
    for (size_t i = 0; i < n; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = !scaling_same_job(&cells[j], &cells[i]);
        if (first)
            scaling_block(out, cells, n, i, env);
    }
}
