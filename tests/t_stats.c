/* The statistics of a cell (src/stats.c) on made-up samples: each rule with data that makes
 * it fire and data that does not. */
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "check.h"
#include "stats.h"

static int near(double a, double b)
{
    return fabs(a - b) < 1e-9 * (fabs(a) + fabs(b) + 1);
}

static void test_median(void)
{
    double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
    CHECK(stats_median(odd, 3) == 3, "median of 3 values");
    CHECK(stats_median(even, 4) == 2.5, "median of 4 values: mean of the middle two");
    CHECK(stats_median(one, 1) == 7, "median of one value");
    CHECK(odd[0] == 5 && even[0] == 4, "the input is not reordered");
}

/* The ranks against the published table (Conover 1999, table A3 / the binomial ranks):
 * n = 6..8 -> x(1)..x(n); n = 9 -> x(2)..x(8); n = 20 -> x(6)..x(15); n = 5 -> min..max. */
static void test_median_ci(void)
{
    double v[40], lo, hi;
    for (int i = 0; i < 40; i++)
        v[i] = 40 - i; /* reversed: the function sorts */
    static const struct { int n, r; } ranks[] = {
        { 1, 1 }, { 5, 1 }, { 6, 1 }, { 8, 1 }, { 9, 2 }, { 11, 2 }, { 12, 3 }, { 20, 6 },
        { 40, 14 },
    };
    for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++) {
        int n = ranks[k].n, r = stats_median_ci(v + 40 - n, n, &lo, &hi);
        /* v + 40 - n holds n, n-1, ..., 1: x(i) = i */
        CHECK(r == ranks[k].r && lo == r && hi == n - r + 1,
              "n = %d: interval x(%d)..x(%d), got rank %d: %g..%g", n, ranks[k].r,
              n - ranks[k].r + 1, r, lo, hi);
    }
    double tight[] = { 100, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9 };
    stats_median_ci(tight, 7, &lo, &hi);
    CHECK(lo == 99.5 && hi == 100.5, "n = 7 tight: min..max (%g..%g)", lo, hi);
}

static struct stats_sample quiet(void)
{
    return (struct stats_sample){ .ops = 100, .bytes = 100000000, .wall_ns = 100000000,
                                  .cpu_ns = 100000000, .nivcsw = 0, .steal = 0,
                                  .t0 = 1000, .t1 = 100001000, .mhz0 = 3000, .mhz1 = 3000,
                                  .vrate0 = 3000, .vrate1 = 3000 };
}

static void test_disturbed(void)
{
    struct stats_sample s = quiet();
    CHECK(stats_disturbed(&s, 3000, 3000) == 0, "quiet sample: undisturbed");
    s.nivcsw = 1;
    s.cpu_ns = s.wall_ns - s.wall_ns / 1000; /* 0.1 % off the CPU */
    CHECK(stats_disturbed(&s, 0, 0) == 0, "a switch that cost 0.1 %% of the window: undisturbed");
    s.cpu_ns = s.wall_ns - s.wall_ns / 100; /* 1 % */
    CHECK(stats_disturbed(&s, 0, 0) == STATS_DESCHEDULED, "descheduled for 1 %%: disturbed");
    s.nivcsw = 0;
    CHECK(stats_disturbed(&s, 0, 0) == 0, "off the CPU without an involuntary switch (a "
          "sleeping driver): not descheduled");
    s = quiet();
    s.steal = -1;
    CHECK(stats_disturbed(&s, 0, 0) == 0, "steal unreadable: undisturbed");
    s.steal = 1;
    CHECK(stats_disturbed(&s, 0, 0) == STATS_STOLEN, "one steal tick: disturbed");
    s = quiet();
    s.mhz1 = 3000 * 1.049;
    CHECK(stats_disturbed(&s, 0, 0) == 0, "clock moved 4.9 %%: undisturbed");
    s.mhz1 = 3000 * 1.051;
    CHECK(stats_disturbed(&s, 0, 0) == STATS_CLOCK_MOVED, "clock moved 5.1 %% up: disturbed");
    s.mhz1 = 3000 / 1.051;
    CHECK(stats_disturbed(&s, 0, 0) == STATS_CLOCK_MOVED, "clock moved 5.1 %% down: disturbed");
    s = quiet();
    s.vrate0 = 2800; /* the vector probe is reported, not a rule: see STATS_VECTOR_TOL */
    CHECK(stats_disturbed(&s, 0, 0) == (STATS_VECTOR_TOL > 0 && STATS_VECTOR_TOL < 0.07 ? STATS_CLOCK_MOVED : 0),
          "vector rate moved 7 %%: disturbed only under a vector rule");
    s = quiet();
    CHECK(stats_disturbed(&s, 3000 * 1.04, 0) == 0, "4 %% off the median clock: undisturbed");
    CHECK(stats_disturbed(&s, 3000 * 1.06, 0) == STATS_CLOCK_OFF,
          "6 %% off the median clock: disturbed");
    CHECK(stats_disturbed(&s, 0, 3000 * 1.06) ==
              (STATS_VECTOR_TOL > 0 && STATS_VECTOR_TOL < 0.06 ? STATS_CLOCK_OFF : 0),
          "6 %% off the median vector rate: disturbed only under a vector rule");
}

static void test_overlap(void)
{
    uint64_t a0[] = { 0, 0 }, a1[] = { 100, 100 }, b0[] = { 0, 50 }, b1[] = { 100, 150 };
    uint64_t c0[] = { 0, 200 }, c1[] = { 100, 300 };
    double all, any;
    stats_overlap(a0, a1, 2, &all, &any);
    CHECK(all == 100 && any == 100, "same windows: all of the union");
    stats_overlap(b0, b1, 2, &all, &any);
    CHECK(all == 50 && any == 150, "half-shifted: 50 of 150 (%g of %g)", all, any);
    stats_overlap(c0, c1, 2, &all, &any);
    CHECK(all == 0 && any == 300, "apart: none together (%g of %g)", all, any);
}

/* A cell: one worker, values in MB/s, with round 2 disturbed and wild. */
static void one_worker(const double *mb, int n, struct stats_sample *s)
{
    for (int i = 0; i < n; i++) {
        s[i] = quiet();
        s[i].wall_ns = (uint64_t)(s[i].bytes / mb[i] * 1e3); /* bytes / (MB/s) -> ns */
        s[i].cpu_ns = s[i].wall_ns;
        s[i].t0 = (uint64_t)i * 1000000000u;
        s[i].t1 = s[i].t0 + s[i].wall_ns;
    }
}

static void test_summarize(void)
{
    double mb[] = { 1000, 1002, 100, 998, 1001, 999, 1000 };
    struct stats_sample s[7];
    const struct stats_sample *ptr[1] = { s };
    struct result r = { 0 };
    one_worker(mb, 7, s);
    s[2].nivcsw = 3;
    s[2].cpu_ns = s[2].wall_ns / 2;
    stats_summarize(ptr, 1, 7, "none", 0, &r);
    CHECK(r.rounds == 6 && r.disturbed == 1 && r.samples == 6, "one round disturbed (%d + %d)",
          r.rounds, r.disturbed);
    CHECK(fabs(r.mb_per_s - 1000) < 0.01 && r.mb_min > 990,
          "its wild figure is kept out: median %.2f, slowest %.2f", r.mb_per_s, r.mb_min);
    CHECK(fabs(r.ci_lo - 998) < 0.01 && fabs(r.ci_hi - 1002) < 0.01 &&
          fabs(r.ci_pct - 0.2) < 0.001, "n = 6: min..max, +-0.2 %% (%.2f..%.2f, %.3f)",
          r.ci_lo, r.ci_hi, r.ci_pct);
    CHECK(r.quality == RESULT_QUIET && stats_enough(&r), "quiet and enough");
    CHECK(near(r.overlap_pct, 100) && near(r.clock_mhz, 3000) && near(r.vector_rate, 3000),
          "one worker: overlap 100 %%, clock 3000 MHz (%g, %g)", r.overlap_pct, r.clock_mhz);

    /* Without the disturbance, the wild round would be in: the rule is what keeps it out. */
    s[2].nivcsw = 0;
    stats_summarize(ptr, 1, 7, "none", 0, &r);
    CHECK(r.rounds == 7 && r.mb_min < 101, "undisturbed, the slow round counts (%.1f)",
          r.mb_min);

    /* The vs-median clock rule needs 3 samples, then catches a 10 % slower one. */
    one_worker(mb, 7, s);
    s[1].mhz0 = s[1].mhz1 = 2700;
    stats_summarize(ptr, 1, 7, "none", 0, &r);
    CHECK(r.disturbed == 1 && r.rounds == 6, "a sample 10 %% under the median clock is "
          "disturbed (%d disturbed)", r.disturbed);
    stats_summarize(ptr, 1, 2, "none", 0, &r);
    CHECK(r.disturbed == 0, "with 2 samples, 3000 and 2700 MHz: no median rule (%d disturbed)",
          r.disturbed);

    /* Every round disturbed: no figure, unless the caller wants the noisy fallback. */
    one_worker(mb, 7, s);
    for (int i = 0; i < 7; i++)
        s[i].steal = 2;
    stats_summarize(ptr, 1, 7, "none", 0, &r);
    CHECK(r.rounds == 0 && r.disturbed == 7 && r.mb_per_s == 0 && r.quality == RESULT_UNRATED,
          "all disturbed: no figure (%g)", r.mb_per_s);
    stats_summarize(ptr, 1, 7, "none", 1, &r);
    CHECK(r.rounds == 0 && r.samples == 7 && r.mb_per_s > 0 && r.quality == RESULT_NOISY,
          "all disturbed, fallback: a noisy figure from all of them (%g)", r.mb_per_s);
}

/* The host slowing the memory path (stats.h STATS_SLOW_PHASE): a round whose load probe read
 * well under the run's usual rate is retaken; a cell whose rounds all ran so is noisy. */
static void test_slow_phase(void)
{
    /* one round's rule: the lower of the two load probes, per MHz of the clock probe (3000
     * here), against the run's usual figure */
    struct stats_sample x = quiet();
    const double usual = 1000.0 / 3000;
    x.lrate0 = 1000, x.lrate1 = 850, x.lref = usual;
    CHECK(stats_disturbed(&x, 0, 0) == STATS_SLOW_PHASE, "load probe 15 %% under the run's "
          "usual rate after the window: a slow phase");
    x.lrate0 = 850, x.lrate1 = 1000;
    CHECK(stats_disturbed(&x, 0, 0) == STATS_SLOW_PHASE, "15 %% under before it: the same");
    x.lrate0 = 920, x.lrate1 = 1100;
    CHECK(stats_disturbed(&x, 0, 0) == 0, "8 %% under: within the probe's jitter");
    x.lrate0 = x.lrate1 = 800, x.mhz0 = x.mhz1 = 2400;
    CHECK(stats_disturbed(&x, 0, 0) == 0 && near(stats_sample_load(&x), usual),
          "clock and load probe 20 %% down together (a governor, an AVX-512 licence): the "
          "memory path is as usual per cycle (%g)", stats_sample_load(&x));
    x.mhz0 = 0;
    CHECK(near(stats_sample_load(&x), 800), "a clock probe missing: the raw rate (%g)",
          stats_sample_load(&x));
    x = quiet();
    x.lrate0 = 850, x.lrate1 = 1000, x.lref = 0;
    CHECK(stats_disturbed(&x, 0, 0) == 0, "no usual rate known yet: no rule");
    x.lrate0 = 0, x.lref = usual;
    CHECK(stats_disturbed(&x, 0, 0) == 0 && stats_sample_load(&x) == 0,
          "no probe (an older worker): no rule");

    /* the whole cell: its rounds passed when they came (the usual rate was lower then), but
     * the run's usual rate at its last round says it ran in a slow phase */
    double mb[] = { 1000, 1002, 998, 1001, 999, 1000, 1000 };
    struct stats_sample s[7];
    const struct stats_sample *ptr[1] = { s };
    struct result r = { 0 };
    one_worker(mb, 7, s);
    for (int i = 0; i < 7; i++)
        s[i].lrate0 = s[i].lrate1 = 800, s[i].lref = 820.0 / 3000;
    stats_summarize(ptr, 1, 7, "none", 0, &r);
    CHECK(r.disturbed == 0 && near(r.load_rate, 800.0 / 3000) && !r.slow_phase &&
              r.quality == RESULT_QUIET && stats_rounds_trusted(&r),
          "load probe at the usual rate: quiet (%d disturbed, %g, slow %d)", r.disturbed,
          r.load_rate, r.slow_phase);
    s[6].lref = 1000.0 / 3000;
    stats_summarize(ptr, 1, 7, "none", 0, &r);
    CHECK(r.disturbed == 1 && r.slow_phase && r.quality == RESULT_NOISY &&
              !stats_rounds_trusted(&r),
          "the usual rate rose to 1000 by its last round: that round is retaken, the cell "
          "ran in a slow phase, noisy, no xN from it (%d disturbed, slow %d, quality %d)",
          r.disturbed, r.slow_phase, r.quality);
    for (int i = 0; i < 7; i++)
        s[i].lrate0 = s[i].lrate1 = 0;
    stats_summarize(ptr, 1, 7, "none", 0, &r);
    CHECK(r.load_rate == 0 && !r.slow_phase && r.quality == RESULT_QUIET,
          "no probes: no rule (%g, slow %d)", r.load_rate, r.slow_phase);
}

/* A co-runner on the other CPUs: one-worker rounds during which they were mostly busy are
 * disturbed; -t 2 rounds are not judged so (their other CPU runs the cell's own worker). */
static void test_shared(void)
{
    struct stats_sample x = quiet();
    CHECK(!stats_shared(&x), "no tick counts (zero): not shared");
    x.others_user = x.others_ticks = -1;
    CHECK(!stats_shared(&x), "unknown (-1 -1): not shared");
    x.others_user = 1, x.others_ticks = 2;
    CHECK(!stats_shared(&x), "one busy tick of two (a brief job on a tick): not shared");
    x.others_user = 2, x.others_ticks = 2;
    CHECK(stats_shared(&x), "two busy ticks of two: shared");
    x.others_user = 1, x.others_ticks = 1;
    CHECK(stats_shared(&x), "the only tick busy: shared");
    x.others_user = 0, x.others_ticks = 6;
    CHECK(!stats_shared(&x), "six idle ticks: not shared");
    x.others_user = 4, x.others_ticks = 6;
    CHECK(stats_shared(&x), "four busy ticks of six: shared");
    /* 64 CPUs: one busy SMT sibling, the other 62 idle, two ticks each. */
    x.others_user = 2, x.others_ticks = 126;
    x.sib_user = 2, x.sib_ticks = 2;
    CHECK(stats_shared(&x), "the core's sibling busy, the others' average low: shared");
    x.sib_user = 0;
    CHECK(!stats_shared(&x), "the sibling idle, one other CPU busy: not shared");
    x.sib_user = x.sib_ticks = -1;
    CHECK(!stats_shared(&x), "siblings unknown (no SMT): the others decide");

    double mb[] = { 1000, 1002, 1001, 998, 1001, 999, 1000 };
    struct stats_sample s[7], t[7];
    const struct stats_sample *one[1] = { s }, *two[2] = { s, t };
    struct result r = { 0 };
    one_worker(mb, 7, s);
    for (int i = 0; i < 7; i++) /* two ticks a sample, the other CPU idle */
        s[i].others_ticks = 2, s[i].others_user = 0;
    s[4].others_user = 2;
    stats_summarize(one, 1, 7, "none", 0, &r);
    CHECK(r.disturbed == 1 && r.rounds == 6, "one worker, a round beside a busy CPU: "
          "disturbed (%d + %d)", r.rounds, r.disturbed);
    CHECK(r.quality == RESULT_QUIET, "one shared round of seven: the cell stays quiet");
    one_worker(mb, 7, t);
    stats_summarize(two, 2, 7, "none", 0, &r);
    CHECK(r.disturbed == 0 && r.rounds == 7, "-t 2, the other CPU busy with the cell's own "
          "worker: not disturbed (%d + %d)", r.rounds, r.disturbed);

    /* A worker that moved to another CPU: disturbed alone, not in -t N (workers pinned). */
    one_worker(mb, 7, s);
    s[2].moved = 1;
    stats_summarize(one, 1, 7, "none", 0, &r);
    CHECK(r.disturbed == 1, "one worker that moved: disturbed (%d)", r.disturbed);

    /* Samples shorter than a tick: most see none (not judged alone); the ones that see a
     * busy tick are disturbed, and the cell as a whole is noisy though 7 rounds are kept. */
    double mb11[] = { 1000, 1002, 1001, 998, 1001, 999, 1000, 1000, 1001, 999, 1000 };
    struct stats_sample u[11];
    const struct stats_sample *eleven[1] = { u };
    one_worker(mb11, 11, u);
    for (int i = 0; i < 11; i++)
        u[i].others_ticks = u[i].others_user = i % 3 == 0;
    stats_summarize(eleven, 1, 11, "none", 0, &r);
    CHECK(r.rounds == 7 && r.disturbed == 4 && r.quality == RESULT_NOISY,
          "sub-tick samples beside a busy CPU: 7 kept, 4 disturbed, the cell noisy (%d + %d, "
          "quality %d)", r.rounds, r.disturbed, r.quality);
    for (int i = 0; i < 11; i++)
        u[i].others_user = 0;
    stats_summarize(eleven, 1, 11, "none", 0, &r);
    CHECK(r.quality == RESULT_QUIET && r.disturbed == 0, "beside idle CPUs: quiet");
    /* The same with a busy SMT sibling, seen in sub-tick samples only, among idle others. */
    for (int i = 0; i < 11; i++) {
        u[i].others_ticks = 63 * (i % 3 == 0), u[i].others_user = i % 3 == 0;
        u[i].sib_ticks = u[i].sib_user = i % 3 == 0;
    }
    stats_summarize(eleven, 1, 11, "none", 0, &r);
    CHECK(r.rounds == 7 && r.disturbed == 4 && r.quality == RESULT_NOISY,
          "a busy sibling among 63 idle CPUs: 4 rounds disturbed, the cell noisy (%d + %d, "
          "quality %d)", r.rounds, r.disturbed, r.quality);
}

/* -t 2: the cell's figure is the sum of the workers' medians, its interval the sum of
 * theirs; a round whose windows did not overlap is disturbed. */
static void test_two_workers(void)
{
    double m0[] = { 500, 510, 490, 505, 495, 500 }, m1[] = { 300, 310, 290, 305, 295, 300 };
    struct stats_sample a[6], b[6];
    const struct stats_sample *ptr[2] = { a, b };
    struct result r = { 0 };
    one_worker(m0, 6, a);
    one_worker(m1, 6, b);
    for (int i = 0; i < 6; i++) { /* b's windows end where a's do, start 1 % later */
        b[i].t0 = a[i].t0 + (a[i].t1 - a[i].t0) / 100;
        b[i].t1 = a[i].t1;
    }
    stats_summarize(ptr, 2, 6, "none", 0, &r);
    CHECK(r.rounds == 6 && fabs(r.mb_per_s - 800) < 0.01 &&
          fabs(r.thread_mb[0] - 500) < 0.01 && fabs(r.thread_mb[1] - 300) < 0.01,
          "sum of medians 500 + 300 (%g)", r.mb_per_s);
    CHECK(fabs(r.ci_lo - 780) < 0.01 && fabs(r.ci_hi - 820) < 0.01,
          "interval 490+290 .. 510+310 (%g..%g)", r.ci_lo, r.ci_hi);
    CHECK(fabs(r.overlap_pct - 99) < 0.01, "overlap 99 %% (%g)", r.overlap_pct);
    b[3].t0 = a[3].t0 + (a[3].t1 - a[3].t0) / 5; /* b woke late: 80 % together */
    stats_summarize(ptr, 2, 6, "none", 0, &r);
    CHECK(r.rounds == 5 && r.disturbed == 1 && r.overlap_pct < 99,
          "a round 80 %% together is disturbed (%d + %d, overlap %g)", r.rounds, r.disturbed,
          r.overlap_pct);
    a[3].t0 = b[3].t0 - (a[3].t1 - b[3].t0) / 10; /* 91 % together */
    stats_summarize(ptr, 2, 6, "none", 0, &r);
    CHECK(r.disturbed == 0, "a round 91 %% together is not (%d)", r.disturbed);
}

/* The retaken rounds by reason (result.retaken): a round per reason, one with two, each
 * counted under its own; the keys and words are each reason's, once. */
static void test_retaken_why(void)
{
    double mb[9] = { 1000, 1001, 999, 1000, 1002, 998, 1000, 1001, 999 };
    struct stats_sample s[9], t[9];
    const struct stats_sample *one[1] = { s }, *two[2] = { s, t };
    struct result r = { 0 };
    one_worker(mb, 9, s);
    s[1].nivcsw = 2, s[1].cpu_ns = s[1].wall_ns / 2;     /* descheduled */
    s[2].steal = 1;                                      /* stolen */
    s[3].mhz1 = 3400;                                    /* clock moved, off the median too */
    s[4].lrate0 = s[4].lrate1 = 800, s[4].lref = 0.33;   /* slow memory path */
    s[5].others_user = s[5].others_ticks = 2;            /* busy beside */
    s[6].moved = 1;                                      /* moved CPU */
    s[7].steal = 1, s[7].moved = 1;                      /* two reasons, one round */
    stats_summarize(one, 1, 9, "none", 0, &r);
    int want[RESULT_RETAKEN_COUNT] = { 0 };
    want[RESULT_RETAKEN_DESCHEDULED] = 1, want[RESULT_RETAKEN_STOLEN] = 2;
    want[RESULT_RETAKEN_CLOCK_MOVED] = 1, want[RESULT_RETAKEN_CLOCK_OFF] = 1;
    want[RESULT_RETAKEN_SLOW_PHASE] = 1, want[RESULT_RETAKEN_BUSY_BESIDE] = 1;
    want[RESULT_RETAKEN_MOVED_CPU] = 2;
    CHECK(r.disturbed == 7 && r.rounds == 2, "seven rounds retaken (%d), two kept (%d)",
          r.disturbed, r.rounds);
    for (int k = 0; k < RESULT_RETAKEN_COUNT; k++)
        CHECK(r.retaken[k] == want[k], "%s: %d rounds (want %d)", result_retaken_key(k),
              r.retaken[k], want[k]);

    /* -t 2: windows apart is a reason of its own; the same round counted once per reason */
    one_worker(mb, 9, s);
    one_worker(mb, 9, t);
    t[4].t0 = s[4].t0 + (s[4].t1 - s[4].t0) / 2;
    t[4].steal = 1;
    stats_summarize(two, 2, 9, "none", 0, &r);
    CHECK(r.disturbed == 1 && r.retaken[RESULT_RETAKEN_APART] == 1 &&
              r.retaken[RESULT_RETAKEN_STOLEN] == 1 && r.retaken[RESULT_RETAKEN_MOVED_CPU] == 0,
          "-t 2: one round apart and stolen from (%d disturbed, apart %d, stolen %d)",
          r.disturbed, r.retaken[RESULT_RETAKEN_APART], r.retaken[RESULT_RETAKEN_STOLEN]);
    one_worker(mb, 9, s);
    stats_summarize(one, 1, 9, "none", 0, &r);
    int any = 0;
    for (int k = 0; k < RESULT_RETAKEN_COUNT; k++)
        any += r.retaken[k];
    CHECK(r.disturbed == 0 && any == 0, "a quiet cell: no reason counted (%d)", any);

    for (int k = 0; k < RESULT_RETAKEN_COUNT; k++) {
        int dup = 0;
        for (int j = 0; j < k; j++)
            dup |= !strcmp(result_retaken_key(j), result_retaken_key(k));
        CHECK(result_retaken_key(k) && result_retaken_words(k) && !dup &&
                  !strchr(result_retaken_key(k), ' ') && !strchr(result_retaken_key(k), ':'),
              "reason %d: key '%s' (one word, unique), words '%s'", k, result_retaken_key(k),
              result_retaken_words(k));
    }
    /* a run's sum and its text: commonest first, at most so many reasons, failed cells out */
    struct stats_retaken sum = { 0 };
    struct result a = { .status = RES_OK, .rounds = 80, .disturbed = 20 };
    struct result b = { .status = RES_OK, .rounds = 10, .disturbed = 0 };
    struct result f = { .status = RES_CRASHED, .rounds = 5, .disturbed = 5 };
    a.retaken[RESULT_RETAKEN_DESCHEDULED] = 4, a.retaken[RESULT_RETAKEN_SLOW_PHASE] = 17;
    a.retaken[RESULT_RETAKEN_STOLEN] = 1;
    f.retaken[RESULT_RETAKEN_STOLEN] = 5;
    char b1[300], b2[300], tiny[12];
    struct stats_retaken none = { 0 };
    CHECK(!strcmp(stats_retaken_text(&none, 3, b1, sizeof b1), ""), "nothing retaken: no text");
    stats_retaken_add(&sum, &a), stats_retaken_add(&sum, &b), stats_retaken_add(&sum, &f);
    CHECK(sum.rounds == 110 && sum.retaken == 20 && sum.why[RESULT_RETAKEN_STOLEN] == 1,
          "sum: 110 rounds, 20 retaken, the crashed cell's left out (%ld, %ld, stolen %ld)",
          sum.rounds, sum.retaken, sum.why[RESULT_RETAKEN_STOLEN]);
    stats_retaken_text(&sum, RESULT_RETAKEN_COUNT, b1, sizeof b1);
    CHECK(!strcmp(b1, "20 of 110 rounds retaken (18 %): 17 host slowing the memory path (load "
                      "probe), 4 descheduled, 1 stolen from by the hypervisor"),
          "every reason, commonest first: '%s'", b1);
    stats_retaken_text(&sum, 1, b2, sizeof b2);
    CHECK(!strcmp(b2, "20 of 110 rounds retaken (18 %): 17 host slowing the memory path (load "
                      "probe), ..."), "one reason and '...': '%s'", b2);
    stats_retaken_text(&sum, 3, tiny, sizeof tiny);
    CHECK(strlen(tiny) == sizeof tiny - 1 && !strncmp(tiny, "20 of 110 r", 11),
          "a short buffer: cut, terminated ('%s')", tiny);

    char pct[16];
    struct stats_retaken few = { .rounds = 6000, .retaken = 3 };
    CHECK(!strcmp(stats_retaken_share(&sum, pct, sizeof pct), "18") &&
              !strcmp(stats_retaken_share(&few, pct, sizeof pct), "<1") &&
              !strcmp(stats_retaken_share(&none, pct, sizeof pct), "0"),
          "the share: 18, '<1' for 3 of 6000 (never '0' of some), 0 of none");
    few.why[RESULT_RETAKEN_STOLEN] = 3;
    CHECK(strstr(stats_retaken_text(&few, 1, b1, sizeof b1), "3 of 6000 rounds retaken (<1 %)"),
          "run's text says the share the same way: '%s'", b1);
    char guard[1] = { 'x' };
    stats_retaken_text(&sum, 3, guard, 0);
    CHECK(guard[0] == 'x', "no room at all: nothing written");

    CHECK(result_retaken_key(-1) == NULL && result_retaken_key(RESULT_RETAKEN_COUNT) == NULL,
          "out of range: no key");
}

static void test_rules(void)
{
    struct result r = { .rounds = 5, .ci_pct = 2.0 };
    CHECK(stats_enough(&r), "5 rounds within +-2 %%: enough");
    r.rounds = 4;
    CHECK(!stats_enough(&r), "4 rounds: not enough");
    r.rounds = 30;
    r.ci_pct = 2.01;
    CHECK(!stats_enough(&r), "30 rounds at +-2.01 %%: not enough");

    CHECK(stats_quality(10, 0, 4.9) == RESULT_QUIET, "+-4.9 %%: quiet");
    CHECK(stats_quality(10, 0, 5.1) == RESULT_NOISY, "+-5.1 %%: noisy");
    CHECK(stats_quality(10, 10, 1) == RESULT_QUIET, "half the rounds disturbed: quiet");
    CHECK(stats_quality(10, 11, 1) == RESULT_NOISY, "most rounds disturbed: noisy");
    CHECK(stats_quality(4, 0, 1) == RESULT_NOISY, "4 rounds: no interval to speak of, noisy");

    struct result a = { .ci_lo = 95, .ci_hi = 105 }, b = { .ci_lo = 104, .ci_hi = 110 };
    struct result c = { .ci_lo = 106, .ci_hi = 110 }, none = { 0 };
    CHECK(stats_tie(&a, &b) && stats_tie(&b, &a), "overlapping intervals tie");
    CHECK(!stats_tie(&a, &c) && !stats_tie(&c, &a), "disjoint intervals do not");
    c.ci_lo = 105;
    CHECK(stats_tie(&a, &c), "touching intervals tie");
    CHECK(!stats_tie(&a, &none), "no interval, no tie");
}

/* The paired ratio against the figures' ratio: within STATS_PAIR_AGREE_PCT on either side
 * agrees, beyond it does not; nothing to compare agrees. The SHA-1 column of the Zen 5 VM
 * (stats.h): x1.83 paired over 256.5 / 160.9 MB/s; the run before, x1.63 over 255.8 / 157.6. */
static void test_pair_agrees(void)
{
    CHECK(STATS_PAIR_AGREE_PCT == 3.0, "the cases below are written for 3 %% (%.1f)",
          STATS_PAIR_AGREE_PCT);
    CHECK(!stats_pair_agrees(1.833, 256.5, 160.9), "x1.83 paired over bars x1.59: disagree");
    CHECK(stats_pair_agrees(1.628, 255.8, 157.6), "x1.63 paired over bars x1.62: agree");
    CHECK(stats_pair_agrees(2.0 * 1.029, 200, 100) && stats_pair_agrees(2.0 * 0.971, 200, 100),
          "2.9 %% either side: agree");
    CHECK(!stats_pair_agrees(2.0 * 1.031, 200, 100) && !stats_pair_agrees(2.0 * 0.969, 200, 100),
          "3.1 %% either side: disagree");
    CHECK(stats_pair_agrees(0, 200, 100) && stats_pair_agrees(2.5, 0, 100) &&
              stats_pair_agrees(2.5, 200, 0) && stats_pair_agrees(2.5, 200, -1),
          "no paired ratio or no figure: nothing to disagree with");
}

/* Two processes' medians of one cell: apart when the larger exceeds the smaller by more than
 * 3 % and than both intervals together, whichever process is first. */
static void test_process_apart(void)
{
    CHECK(STATS_PROCESS_APART_PCT == 3.0, "the cases below are written for 3 %% (%.1f)",
          STATS_PROCESS_APART_PCT);
    CHECK(stats_process_apart(1931, 1.5, 1670, 1.4), "1931 against 1670 MB/s (+15.6 %%), "
          "intervals +-1.5 and +-1.4 %%: apart");
    CHECK(stats_process_apart(125, 1, 79, 2) && stats_process_apart(79, 2, 125, 1),
          "125 and 79 MB/s, either way round: apart");
    CHECK(!stats_process_apart(100, 0.5, 102.9, 0.5) && !stats_process_apart(102.9, 0.5, 100, 0.5),
          "2.9 %% either way round, narrow intervals: the 3 %% floor holds");
    CHECK(stats_process_apart(100, 0.5, 103.1, 0.5) && stats_process_apart(103.1, 0.5, 100, 0.5),
          "3.1 %% either way round, narrow intervals: apart");
    CHECK(!stats_process_apart(100, 2, 105.9, 4) && !stats_process_apart(105.9, 4, 100, 2) &&
              stats_process_apart(100, 2, 106.1, 4) && stats_process_apart(106.1, 4, 100, 2),
          "intervals +-2 and +-4 %%: 5.9 %% is within them, 6.1 %% is not, either way round");
    CHECK(!stats_process_apart(0, 1, 100, 1) && !stats_process_apart(100, 1, 0, 1) &&
              !stats_process_apart(100, 1, -5, 1),
          "no figure on either side: nothing to be apart from");
    struct result r = { .rounds = 8, .disturbed = 0 };
    CHECK(stats_rounds_trusted(&r), "8 calm rounds carry a comparison");
    r.process_apart = 1;
    CHECK(!stats_rounds_trusted(&r), "not when its two processes read it apart");
}

/* The spell rule: the share retaken is over the column's rounds together, a quarter or
 * more is a spell, and under STATS_SPELL_MIN_ROUNDS rounds nothing is said. */
static void test_spell(void)
{
    struct result a = { .rounds = 8, .disturbed = 2 }, b = { .rounds = 7, .disturbed = 3 },
                  c = { .rounds = 14, .disturbed = 0 };
    const struct result *ab[] = { &a, &b }, *abc[] = { &a, &b, &c }, *one[] = { &a, NULL };
    CHECK(STATS_SPELL_PCT == 25.0, "the rule below is written for 25 %% (%.1f)", STATS_SPELL_PCT);
    CHECK(stats_retaken_pct(ab, 2) == 25.0 && stats_spell(ab, 2),
          "5 of 20 rounds retaken: 25 %%, a spell (%.1f)", stats_retaken_pct(ab, 2));
    b.disturbed = 2;
    CHECK(!stats_spell(ab, 2), "4 of 19 retaken (%.1f %%): no spell", stats_retaken_pct(ab, 2));
    b.disturbed = 3;
    CHECK(!stats_spell(abc, 3), "5 of 34 retaken (%.1f %%): no spell", stats_retaken_pct(abc, 3));
    CHECK(stats_retaken_pct(one, 2) == 20.0, "NULL entries skipped: 2 of 10 (%.1f %%)",
          stats_retaken_pct(one, 2));
    a.rounds = 7; /* 9 rounds in all: too few to say, though 22 % */
    a.disturbed = 2;
    CHECK(stats_retaken_pct(one, 2) == 0 && !stats_spell(one, 2), "9 rounds: nothing said");
    a = (struct result){ .rounds = 0, .disturbed = 12 };
    CHECK(stats_spell(one, 2), "every round retaken: a spell");
}

/* The absolute claim: quiet and within STATS_ABSOLUTE_CI_PCT, on each side of it. */
static void test_absolute(void)
{
    static const struct {
        int status, quality;
        double ci;
        int want;
    } t[] = {
        { RES_OK, RESULT_QUIET, 2.0, 1 },   { RES_OK, RESULT_QUIET, 2.2, 0 },
        { RES_OK, RESULT_QUIET, 4.9, 0 },   { RES_OK, RESULT_NOISY, 1.0, 0 },
        { RES_CRASHED, RESULT_QUIET, 1.0, 0 }, { RES_OK, RESULT_UNRATED, 1.0, 0 },
        { RES_OK, RESULT_QUIET, 0, 0 }, /* no interval at all (ci_hi 0 below) */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct result r = { .status = t[i].status, .quality = t[i].quality, .ci_pct = t[i].ci,
                            .mb_per_s = 100, .ci_hi = t[i].ci > 0 ? 100 + t[i].ci : 0 };
        CHECK(stats_absolute_quiet(&r) == t[i].want, "absolute: status %d quality %d +-%.1f %%: "
              "%d, not %d", t[i].status, t[i].quality, t[i].ci, !t[i].want, t[i].want);
    }
    /* the clock beside the last saved run's (STATS_CLOCK_REF_PCT 0.75 %): a quiet, tight cell */
    static const struct {
        double clock, ref;
        int want;
    } k[] = {
        { 3000, 0, 1 },    /* no saved run */
        { 0, 3000, 1 },    /* no clock of its own: nothing to judge by */
        { 3000, 3000, 1 }, { 3000, 2980, 1 }, /* +0.67 % */
        { 3000, 3020, 1 }, /* -0.66 % */
        { 3000, 2975, 0 }, /* +0.84 % */
        { 3000, 3025, 0 }, /* -0.83 % */
        { 3000, 2965, 0 }, /* +1.2 % */
        { 3000, 2950, 0 }, /* +1.7 % */
        { 3000, 3070, 0 }, /* -2.3 % */
        { 3000, 2930, 0 }, /* +2.4 % */
        { 3876, 4234, 0 }, /* the Zen 5 VM's two back-to-back runs */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        struct result r = { .status = RES_OK, .quality = RESULT_QUIET, .ci_pct = 1.0,
                            .mb_per_s = 100, .ci_hi = 101, .clock_mhz = k[i].clock,
                            .clock_ref_mhz = k[i].ref };
        double pct = stats_clock_ref_pct(&r), want = k[i].clock && k[i].ref
                                                         ? (k[i].clock / k[i].ref - 1) * 100 : 0;
        CHECK(stats_absolute_quiet(&r) == k[i].want && fabs(pct - want) < 1e-9,
              "absolute: clock %.0f MHz, last saved run's %.0f: %d (%+.2f %%), not %d (%+.2f %%)",
              k[i].clock, k[i].ref, !k[i].want, pct, k[i].want, want);
    }
    /* the figure beside the last saved run's claimed one (STATS_ABSOLUTE_KEPT_PCT 1.5 %) */
    static const struct {
        double last;
        int want;
    } f[] = { { 0, 1 },     { 100, 1 },   { 98.8, 1 },  { 101.2, 1 }, /* within 1.5 % */
              { 98.3, 0 },  { 101.7, 0 }, /* 1.7 %: two runs this far on either side of */
              { 103.2, 0 }, { 96.8, 0 },  /* one reference may lie 3.4 % apart */
              { 150, 0 } };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        struct result r = { .status = RES_OK, .quality = RESULT_QUIET, .ci_pct = 1.0,
                            .mb_per_s = 100, .ci_hi = 101, .last_mb_per_s = f[i].last };
        double pct = stats_last_pct(&r), want = f[i].last ? (100 / f[i].last - 1) * 100 : 0;
        CHECK(stats_absolute_quiet(&r) == f[i].want && fabs(pct - want) < 1e-9,
              "absolute: 100 MB/s, the last saved run's claimed %.1f: %d (%+.2f %%), not %d",
              f[i].last, !f[i].want, pct, f[i].want);
    }
}

/* stats_load_slow_share on made-up load figures: calm ones at 4.0 with a 1 % jitter, slow ones
 * `depth` under them, `slow` of every 100 (spread through, as spells would be). */
static double share_of(int slow, double depth, int n)
{
    static double fig[1000];
    for (int i = 0; i < n; i++)
        fig[i] = 4.0 * (1 + 0.01 * ((i * 37) % 11 - 5) / 5.0) * (i % 100 < slow ? 1 - depth : 1);
    return stats_load_slow_share(fig, n);
}

static void test_slow_share(void)
{
    double s = share_of(0, 0, 1000);
    CHECK(s == 0, "calm within 1 %%: nothing slow (%g)", s);
    s = share_of(30, 0.3, 1000);
    CHECK(s > 0.299 && s < 0.301, "30 of 100 at 30 %% under: 0.30 slow (%g)", s);
    s = share_of(30, 0.08, 1000);
    CHECK(s == 0, "8 %% under is inside the rule's 10 %%: nothing slow (%g)", s);
    s = share_of(95, 0.3, 1000);
    CHECK(s > 0.949 && s < 0.951, "95 of 100 slow, the calm top still seen: 0.95 (%g)", s);
    s = share_of(50, 0.3, 99);
    CHECK(s == 0, "99 figures: too few to say (%g)", s);
}

int main(void)
{
    test_slow_share();
    test_median();
    test_median_ci();
    test_disturbed();
    test_overlap();
    test_summarize();
    test_two_workers();
    test_shared();
    test_slow_phase();
    test_retaken_why();
    test_rules();
    test_pair_agrees();
    test_process_apart();
    test_spell();
    test_absolute();
    return check_done();
}
