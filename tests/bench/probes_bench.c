/* Which probe sees the slow phases of a VM (issue 16)? For SECONDS, in turn and over and over:
 * the scalar clock probe and the vector probe the worker takes around every round
 * (src/clock.c), an L1 load/store probe, a pointer chase through 256 KiB (L2), and two
 * implementations' op (default sha256 at 256 B, portable and openssl), each a few tens of us;
 * `load` is the worker's own load probe (clock_probe_load_rate per MHz of the clock probe, the
 * slow-phase rule's figure: stats.h), `load-1run` the single-run prototype it came from.
 * The readings are binned (medians of 20 turns, some 10 ms), and for each probe the bench
 * prints its spread (5th to 95th percentile) and its correlation, in logs, with each
 * implementation's speed and with their ratio: a probe that moves with them could tell a round
 * taken in a slow phase; one that moves a fraction as much cannot.
 * On the Zen 5 VM (2026-12-01, 20 s, this bench): portable spread 61 %, openssl 20 %, their
 * ratio 35 %; the clock probe 3.4 % (correlation 0.88 with portable, -0.87 with the ratio: it
 * moves with them, a twentieth as much, so its 5 % rule never fires), the vector probe 1.2 %
 * (none), the L1 load probe 45 % (0.98, and -0.98 with the ratio), the L2 chase 22 % (0.81).
 * An earlier 40 s prototype: load 43 %, its correlation with the ratio -0.44. The worker's own
 * probe (`load`), 20 s later that day: 34.9 %, 0.82 with portable, -0.79 with a ratio that
 * moved 27 %, while the clock probe moved 4.1 %. The VM's slow
 * phases are in the memory path, where the dependent-add chain hardly looks.
 * On the Emerald Rapids VM (family 6 model 207, 2026-12-03, 20 s) portable moved 100 % and
 * B/A 56-68 %, A's speed bimodal: calm 18 % of the time in spells of a median 14 ms (90th
 * percentile 57 ms), slow ones a median 28 ms (300 ms); 20 s later calm 63 %, spells a median
 * 22 ms, slow 13 ms. Inside calm spells B/A held within 1.5-2.9 % (25th to 75th percentile),
 * inside slow ones it moved 14-16 %: figures are to be taken in calm spells, and a sample must
 * fit in one (session_priv.h SCHED_SAMPLES, worker.h WORKER_WAIT_MAX_NS).
 * PROBES_DUMP=FILE writes each bin (ms from the start, then the probes' medians in the order
 * of the table); PROBES_SINGLES=FILE each turn (its bin, the load figure, A's and B's MB/s).
 *   make build/native/tests/bench/probes_bench && build/native/tests/bench/probes_bench
 *   probes_bench [-s SECONDS] [-a ALG] [-z SIZE] [-i IMPL_A,IMPL_B] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "clock.h"
#include "stats.h"
#include "registry.h"

#define BIN 20
#define RAW (1 << 20)
static double raw[RAW]; /* the shipped probe's every reading, for its own jitter */
static double raw_a[RAW], raw_b[RAW]; /* A's and B's speed in the same turn */
static size_t nraw;
#define CHASE_WORDS (256 * 1024 / sizeof(uint32_t))
enum { P_CLOCK, P_VECTOR, P_SHIPPED, P_LOAD, P_CHASE, P_A, P_B, NPROBE };
static const char *const names[NPROBE] = { "clock", "vector", "load", "load-1run", "chase-L2",
                                           "A", "B" };

static uint64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t lines[2048];
static uint32_t chain[CHASE_WORDS];
static volatile uint64_t sink;

static double load_probe(void)
{
    uint64_t s = 0, t0 = mono_ns();
    for (int r = 0; r < 16; r++)
        for (size_t i = 0; i < 2048; i += 4) {
            s += lines[i] + lines[i + 1];
            s ^= lines[i + 2] + lines[i + 3];
            lines[(i * 7) & 2047] = s;
        }
    sink = s;
    return 16.0 * 2048 * 8 / (double)(mono_ns() - t0) * 1e3; /* MB/s */
}

static double chase_probe(void)
{
    uint32_t p = 0;
    uint64_t t0 = mono_ns();
    for (int i = 0; i < 8000; i++)
        p = chain[p];
    sink = p;
    return 8000.0 / (double)(mono_ns() - t0) * 1e3; /* M loads/s */
}

static double op_probe(struct bench_side *s, size_t size, int reps)
{
    uint64_t t0 = mono_ns();
    for (int i = 0; i < reps; i++)
        s->im->op(s->ctx, s->in, s->in, size);
    return (double)reps * (double)size / (double)(mono_ns() - t0) * 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double corr(const double *x, const double *y, size_t n)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i] / (double)n;
        my += y[i] / (double)n;
    }
    for (size_t i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
}

/* The spread between the lo-th and hi-th percentiles, in %, of n log values. */
static double pct_spread(const double *logv, size_t n, int lo, int hi)
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s)
        abort();
    memcpy(s, logv, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp);
    double r = n ? (exp(s[n * (size_t)hi / 100] - s[n * (size_t)lo / 100]) - 1) * 100 : 0;
    free(s);
    return r;
}

static double spread_pct(const double *logv, size_t n)
{
    return pct_spread(logv, n, 5, 95);
}

/* Calm and slow spells by A's speed: a bin is calm when A is within 10 % of its 90th
 * percentile (the slow-phase rule's reference and tolerance, stats.h); how much of the time
 * each took, how long a spell lasted, and how tight B/A is inside each: what a sample must fit
 * in to be calm, and whether the comparison holds still there. */
static void phases(const double *loga, const double *ratio, const double *t_ms, size_t n)
{
    if (n < 20)
        return;
    double *s = malloc(n * sizeof *s), *rin[2], *len[2];
    size_t nr[2] = { 0 }, nl[2] = { 0 };
    if (!s)
        abort();
    memcpy(s, loga, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp);
    double calm = s[n * 9 / 10] + log(0.9);
    for (int k = 0; k < 2; k++)
        if (!(rin[k] = malloc(n * sizeof *rin[k])) || !(len[k] = malloc(n * sizeof *len[k])))
            abort();
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        int c = loga[i] >= calm;
        rin[c][nr[c]++] = ratio[i];
        if (i + 1 == n || (loga[i + 1] >= calm) != c) { /* a spell ends */
            len[c][nl[c]++] = t_ms[i] - (from ? t_ms[from - 1] : 0);
            from = i + 1;
        }
    }
    static const char *const what[2] = { "slow", "calm" };
    for (int c = 1; c >= 0; c--) {
        double total = 0;
        for (size_t i = 0; i < nl[c]; i++)
            total += len[c][i];
        qsort(len[c], nl[c], sizeof *len[c], cmp);
        printf("%s spells: %.0f %% of the time, %zu spells, median %.0f ms, 90th pct %.0f ms; "
               "B/A spread 25-75th pct %.1f %% inside them\n", what[c],
               100 * total / t_ms[n - 1], nl[c], nl[c] ? len[c][nl[c] / 2] : 0,
               nl[c] ? len[c][nl[c] * 9 / 10] : 0, pct_spread(rin[c], nr[c], 25, 75));
        free(rin[c]);
        free(len[c]);
    }
    free(s);
}

/* The slow-phase rule (stats.h) judged on single turns: a turn is calm when A's own reading is
 * within 10 % of A's 99th percentile (the top of the calm mode even when calm is rare), and the
 * rule's reference is the 90th percentile of the load figure, as engine.c's; for a few
 * tolerances, how many calm turns the rule would retake and how many slow ones it catches. */
static void rule(const double *load, const double *a, size_t n)
{
    if (n < 100)
        return;
    double *s = malloc(n * sizeof *s);
    if (!s)
        abort();
    memcpy(s, a, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp);
    double calm_a = 0.9 * s[n * 99 / 100];
    memcpy(s, load, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp);
    double ref = s[n * 9 / 10];
    static const double tols[] = { 0.05, STATS_LOAD_TOL, 0.2, 0.3 };
    size_t ncalm = 0;
    for (size_t i = 0; i < n; i++)
        ncalm += a[i] >= calm_a;
    printf("the slow-phase rule on single turns (A calm in %.1f %% of them, load reference "
           "%.3g):\n", 100.0 * (double)ncalm / (double)n, ref);
    for (size_t t = 0; t < sizeof tols / sizeof *tols; t++) {
        size_t fc = 0, fs = 0;
        for (size_t i = 0; i < n; i++) {
            /* the stats.h row through stats_load_slow itself, so the table is the rule's */
            int slow = tols[t] == STATS_LOAD_TOL ? stats_load_slow(load[i], ref)
                                                 : load[i] > 0 && load[i] < ref * (1 - tols[t]);
            if (a[i] >= calm_a)
                fc += slow;
            else
                fs += slow;
        }
        printf("  tolerance %.2f%s: %.1f %% of calm turns retaken, %.1f %% of slow ones caught\n",
               tols[t], tols[t] == STATS_LOAD_TOL ? " (stats.h)" : "",
               ncalm ? 100.0 * (double)fc / (double)ncalm : 0,
               n > ncalm ? 100.0 * (double)fs / (double)(n - ncalm) : 0);
    }
    free(s);
}

int main(int argc, char **argv)
{
    if (bench_deny_check("probes_bench"))
        return 2;
    double seconds = 40;
    const char *alg = "sha256", *pair = "portable,openssl";
    size_t size = 256;
    int o;
    while ((o = getopt(argc, argv, "s:a:z:i:")) != -1) {
        if (o == 's')
            seconds = atof(optarg);
        else if (o == 'a')
            alg = optarg;
        else if (o == 'z')
            size = (size_t)atol(optarg);
        else if (o == 'i')
            pair = optarg;
        else {
            fprintf(stderr, "usage: probes_bench [-s SECONDS] [-a ALG] [-z SIZE] [-i A,B]\n");
            return 2;
        }
    }
    char a_name[64], *comma;
    snprintf(a_name, sizeof a_name, "%s", pair);
    if (!(comma = strchr(a_name, ',')) || seconds < 1 || seconds > 600 || !size) {
        fprintf(stderr, "probes_bench: -i takes two implementation names A,B; -s 1 to 600; "
                        "-z a size in bytes\n");
        return 2;
    }
    *comma = 0;
    const struct impl *im[2] = { registry_find(alg, a_name), registry_find(alg, comma + 1) };
    struct bench_side side[2] = { 0 };
    for (int k = 0; k < 2; k++) {
        char why[256] = "";
        if (!im[k] || im[k]->check(im[k], why, sizeof why)) {
            printf("UNAVAILABLE: %s %s: %s\n", alg, k ? comma + 1 : a_name,
                   im[k] ? why : "no such implementation");
            return 0;
        }
    }
    /* the outputs agree before any speed counts */
    if (bench_agree(im[0], im[1], size, 0) || bench_side_init(&side[0], im[0], size, 0) ||
        bench_side_init(&side[1], im[1], size, 0))
        return 1;
    for (size_t i = 0; i < CHASE_WORDS; i++) /* a single cycle through every word */
        chain[i] = (uint32_t)((i * 40503u + 1) % CHASE_WORDS);
    int reps[2];
    for (int k = 0; k < 2; k++) { /* ~30 us of each op */
        double mbs = op_probe(&side[k], size, 50);
        reps[k] = (int)(mbs * 30 / (double)size) + 1;
    }
    size_t cap = 1 << 16, n = 0;
    double *v = malloc(cap * NPROBE * sizeof *v);
    double bin[NPROBE][BIN];
    double *t_ms = malloc(cap * sizeof *t_ms);
    uint64_t start = mono_ns();
    if (!v || !t_ms)
        abort();
    uint64_t end = mono_ns() + (uint64_t)(seconds * 1e9);
    while (mono_ns() < end && n < cap) {
        for (int b = 0; b < BIN; b++) {
            bin[P_CLOCK][b] = clock_probe_mhz();
            bin[P_VECTOR][b] = clock_probe_vector_rate();
            bin[P_SHIPPED][b] = stats_load_figure(clock_probe_load_rate(), bin[P_CLOCK][b]);
            bin[P_LOAD][b] = load_probe();
            bin[P_CHASE][b] = chase_probe();
            bin[P_A][b] = op_probe(&side[0], size, reps[0]);
            bin[P_B][b] = op_probe(&side[1], size, reps[1]);
            if (nraw < RAW) {
                raw_a[nraw] = bin[P_A][b];
                raw_b[nraw] = bin[P_B][b];
                raw[nraw++] = bin[P_SHIPPED][b];
            }
        }
        for (int p = 0; p < NPROBE; p++) {
            qsort(bin[p], BIN, sizeof bin[p][0], cmp);
            double m = bin[p][BIN / 2];
            v[p * cap + n] = m > 0 ? log(m) : 0;
        }
        t_ms[n] = (double)(mono_ns() - start) / 1e6;
        n++;
    }
    double *ratio = malloc(n * sizeof *ratio);
    if (!ratio)
        abort();
    for (size_t i = 0; i < n; i++)
        ratio[i] = v[P_B * cap + i] - v[P_A * cap + i];
    printf("%zu bins of %d turns; A = %s, B = %s, %s at %zu B; B/A spread %.1f %%\n", n, BIN,
           a_name, comma + 1, alg, size, spread_pct(ratio, n));
    rule(raw, raw_a, nraw);
    for (size_t i = 0; i < nraw; i++)
        raw[i] = log(raw[i]);
    printf("load (the worker's probe, clock.c, per MHz): single readings spread %.1f %%\n",
           spread_pct(raw, nraw));
    printf("%-9s %9s %8s %8s %8s\n", "probe", "spread %", "corr A", "corr B", "corr B/A");
    for (int p = 0; p < NPROBE; p++)
        printf("%-9s %9.1f %8.2f %8.2f %8.2f\n", names[p], spread_pct(v + p * cap, n),
               corr(v + p * cap, v + P_A * cap, n), corr(v + p * cap, v + P_B * cap, n),
               corr(v + p * cap, ratio, n));
    phases(v + P_A * cap, ratio, t_ms, n);
    /* PROBES_DUMP=FILE: each bin's time (ms from the start) and probes' medians, for a look
     * at how long the phases last */
    const char *dump = getenv("PROBES_DUMP");
    FILE *df = dump ? fopen(dump, "w") : NULL;
    if (dump && !df)
        fprintf(stderr, "probes_bench: cannot write %s\n", dump);
    for (size_t i = 0; df && i < n; i++) {
        fprintf(df, "%.1f", t_ms[i]);
        for (int p = 0; p < NPROBE; p++)
            fprintf(df, " %.4g", exp(v[p * cap + i]));
        fputc('\n', df);
    }
    if (df)
        fclose(df);
    const char *sdump = getenv("PROBES_SINGLES");
    FILE *sf = sdump ? fopen(sdump, "w") : NULL;
    for (size_t i = 0; sf && i < nraw; i++)
        fprintf(sf, "%zu %.5g %.5g %.5g\n", i / BIN, exp(raw[i]), raw_a[i], raw_b[i]);
    if (sf)
        fclose(sf);
    free(t_ms);
    free(ratio);
    free(v);
    bench_side_free(&side[0]);
    bench_side_free(&side[1]);
    return 0;
}
