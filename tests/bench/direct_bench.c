/* Side-by-side speed of the direct backend (asm/x86_64 kernels) against OpenSSL's hw path
 * (the "openssl" impl, no capability mask) or another direct impl (the two-pass GCM), in one
 * process, through the same impl init/op the engine times; then every measured path's
 * distance from the silicon's ceiling (src/silicon.h) for the kernel's register width (xmm
 * for the AES-NI kernels, ymm for VAES, zmm for VAES on AVX-512: a kernel is held to what its
 * own instructions allow).
 *
 * What is judged, and why. The Emerald Rapids VM (2 vCPUs) slows its memory path in spells
 * (tests/bench/probes_bench.c): calm 9-67 % of the time, varying minute to minute, calm
 * spells a median 13-21 ms, slow ones 26-45 ms (90th percentile up to 400 ms), code 15-50 %
 * slower in them and unevenly by code. A 60 ms batch mostly spans slow time, so its share of
 * the ceiling measured the host: ymm AES-128-GCM encrypt read 44.7 % at the clock while its
 * fastest 16-op run read 69 %. The product times only in calm spells: a round whose load
 * figure (stats_load_figure: clock_probe_load_rate per MHz of clock_probe_mhz; calm readings
 * within ~1 % of each other, p10..p90 3.94..3.97 there, slow ones 10-50 % lower) before or
 * after it is slow by stats_load_slow against the 90th percentile of the run's readings is
 * retaken. This bench judges the same way:
 *  - each side runs in slices of ~SLICE ms (wall clock; timed in thread CPU time), short
 *    enough that most fit in a calm spell, long enough that the clock's resolution does not
 *    matter (hundreds to thousands of ops), the sides alternating slice by slice (A B A B) so
 *    both see the same host; one load reading between two slices brackets both;
 *  - a slice is calm when neither reading around it is slow by stats_load_slow against the
 *    run's reference: the 90th percentile of the process's readings (the product's rule,
 *    engine.c), held at the highest it has been at a round's end (ref_update says why), every
 *    job judged against the one final reference once all have run, so that the first jobs are
 *    not judged on a reference of a few readings or the last on one that sank. No calibration
 *    pass first: the jobs' own thousands of readings span far more spells than a pass of
 *    affordable length would;
 *  - the calm ratio is the median, over adjacent calm slices of the two sides (the reading
 *    between them and the two outside calm, both orders), of direct/other: a pair's slices
 *    run within ~7 ms of each other in one calm spell, so whatever differs between calm spells
 *    (the ~1 % the probe lets through, a clock move, a neighbour) cancels in it, where medians
 *    pooled over the job would compare slices of different spells; the calm share of the
 *    ceiling is an absolute figure, not a comparison, so it is pooled: a side's
 *    median over its calm slices, each at the clock read around it (ceil_at, slice_mhz);
 *  - targets (ratio and CEIL%) are judged on the calm figures when each side has at least
 *    CALM_MIN calm slices and there are CALM_MIN pairs; else on the all-slice figures, with a
 *    "too few calm slices" note.
 * No wait for a spell to end before a slice (the worker's settle): a wait would run the same
 * ops untimed, finding no more calm time per second than slicing on does, and would tilt the
 * all-slice figures towards calm time. Instead a job runs up to twice its rounds while a side
 * has fewer than CALM_WANT calm slices.
 * A slice's clock. A share is the kernel's bytes per core cycle over the model's: its MB/s
 * over the ceiling moved to the clock read around its slice (ceil_at), from the raw figures of
 * the measurements of the limits (silicon_unfloor: each instruction's time over the dependent
 * adds' in the same windows, silicon.c core_per_insn), not the floored ones, which count a
 * run below the fastest clock the process's adds ever showed as more cycles. The clock probe
 * (clock_probe_mhz: within 0.03 % of silicon_core_mhz_now on this VM) is a chain of adds, and
 * a host can slow the adds alone (the Zen 4 VM: silicon_floor), reading a low clock while the
 * vector units run at full speed. So each reading also takes the vector probe
 * (clock_probe_vector_rate: AVX2 adds, port-bound) and a slice's clock is the higher of the
 * clock probe's reading and the vector probe's over vk (vec_per_mhz, which says how each way
 * it can err). Without the vector probe, shares are taken by the rule before (ceil_held: the
 * floored ceiling, never moved below its own clock): on the Sapphire Rapids VM (2026-12-07)
 * it held kernels to a clock the host was not giving them, the calm slices of whole processes
 * at 3640-3790 MHz against ceilings at 3992-4092 (both probes agreeing to 0.1-0.6 %, which a
 * busy SMT sibling, slowing the port-bound probe and not the chain, would not give). The calm
 * line gives the clocks the calm slices were shared at, each probe's, the ceiling's, and the
 * shares by the rule before ("ceiling-held" over processes, not judged). A kernel whose wide
 * instructions lower the clock (AVX-512 licences) is read at the higher of the readings
 * either side of its slice: at the lowered clock where the other side lowers it too, else
 * at the other's, so that its share may read low by the licence's ratio, never high.
 * -A F[:Q] (fault injection): Q runs of 8 job readings in four with the clock probe F times
 * slow (the adds alone); -G with it: the slices' clocks unguarded. Nothing is judged with
 * either.
 * The figures judged before are kept on each job's first line, so nothing is hidden, taken
 * from the same slices (a round of them stands for a batch of old): per round (~MS ms of
 * slices a side) a side's MB/s over all its slices; a ratio the median of the rounds' ratios,
 * a share of the ceiling the median of the rounds' shares at their clock (the mean of their
 * slices'), the best round, and the fastest 16-op run.
 *
 *   direct_bench [-r ROUNDS] [-m MS] [-s SLICE] [-A F[:Q] [-G]]
 *                [ALG[/dec][@IMPL][~AGAINST]:SIZE[:TARGET[:CEIL%]] ...]
 * ROUNDS (3-64, default 5): rounds of ~MS ms of ops a side (default 60), cut into slices of
 * ~SLICE ms (default 3); up to 2 x ROUNDS while a side has fewer than CALM_WANT calm slices.
 * The ceiling is what the silicon showed it can do: the limits are measured once more before
 * each job (silicon_measure_again) and, once all jobs have run, each share is of the ceiling
 * for its job of the measurement that allows it the most bytes per core cycle (with a vector
 * probe the raw figures', raw_tries; else the floored ones', the rule before). One
 * measurement alone let the host's slow spells lower it: in two processes minutes apart the
 * zmm AES-128-GCM ceiling read 36705 and 31133 MB/s, the ymm one 18759 and 15596, and with
 * the lower ones the ymm kernel "met" 80 % at 80.9 %.
 * Each judged figure is printed once more as "judged KEY WHAT VALUE TARGET", from which
 * direct.sh with ACCELSCOPE_DIRECT_RUNS judges medians over processes (median_runs.sh).
 * Exit 1 when a ratio misses its target or a share of the ceiling its CEIL%; 3 when a job
 * went without a figure (wrong output, a failed op, a share target without a ceiling), which
 * no median over processes may pass; 2 on a bad argument. Default jobs: the
 * targets of issues 6 and 15 (an AES-NI GCM row's CEIL% is judged only on a CPU without VAES,
 * or with ACCELSCOPE_DENY=vaes: issue 15's condition). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo.h"
#include "bench/bench.h"
#include "clock.h"
#include "cpu.h"
#include "registry.h"
#include "silicon.h"
#include "stats.h"

struct job {
    const char *alg;
    int decrypt;
    const char *impl;    /* the direct impl's name */
    size_t size;
    double target;       /* minimum direct/against ratio; 0 = report only */
    double ceil_target;  /* minimum % of the ceiling; 0 = report only */
    const char *against; /* the other side: NULL in defaults[] = "openssl", filled in */
};

static const struct job defaults[] = {
    { "aes-128-ctr", 0, "direct", 16384, 0.9, 0, NULL },
    { "aes-128-ctr", 0, "direct-vaes", 16384, 0.9, 0, NULL },
    { "aes-256-cbc", 0, "direct", 16384, 0.95, 0, NULL },
    { "aes-256-cbc", 1, "direct", 16384, 0.9, 0, NULL },
    { "sha256", 0, "direct", 16384, 0.95, 0, NULL },
    { "sha1", 0, "direct", 16384, 0.95, 0, NULL },
    { "aes-128-gcm", 0, "direct", 16384, 0.6, 85, NULL },
    { "aes-128-gcm", 0, "direct-vaes", 16384, 0.6, 80, NULL },
    { "aes-128-gcm", 0, "direct", 16384, 0, 0, "direct-2pass" },
    { "aes-128-gcm", 0, "direct-vaes", 16384, 0, 0, "direct-vaes-2pass" },
    { "aes-128-gcm", 1, "direct", 16384, 0, 85, NULL },
    { "aes-128-gcm", 1, "direct-vaes", 16384, 0, 80, NULL },
    { "aes-128-gcm", 1, "direct", 16384, 0, 0, "direct-2pass" },
    { "aes-128-gcm", 1, "direct-vaes", 16384, 0, 0, "direct-vaes-2pass" },
    { "aes-128-cbc", 0, "direct", 16384, 0, 65, NULL }, /* was judged in t_silicon */
    { "aes-128-cbc", 1, "direct", 16384, 0, 0, NULL },
    { "aes-256-ctr", 0, "direct", 16384, 0, 0, NULL },
    { "aes-256-gcm", 0, "direct", 16384, 0, 0, NULL },
    { "aes-256-gcm", 0, "direct-vaes", 16384, 0, 0, NULL },
    /* zmm (AVX-512): against OpenSSL, against the ymm kernels, and each share of its ceiling */
    { "aes-128-ctr", 0, "direct-vaes512", 16384, 0.9, 0, NULL },
    { "aes-128-ctr", 0, "direct-vaes512", 16384, 0, 0, "direct-vaes" },
    { "aes-256-ctr", 0, "direct-vaes512", 16384, 0, 0, NULL },
    { "aes-256-ctr", 0, "direct-vaes512", 16384, 0, 0, "direct-vaes" },
    { "aes-128-gcm", 0, "direct-vaes512", 16384, 0.6, 80, NULL },
    { "aes-128-gcm", 0, "direct-vaes512", 16384, 0, 0, "direct-vaes" },
    { "aes-128-gcm", 1, "direct-vaes512", 16384, 0, 80, NULL },
    { "aes-128-gcm", 1, "direct-vaes512", 16384, 0, 0, "direct-vaes" },
    { "aes-256-gcm", 0, "direct-vaes512", 16384, 0, 0, NULL },
    { "aes-256-gcm", 0, "direct-vaes512", 16384, 0, 0, "direct-vaes" },
    { "aes-256-gcm", 1, "direct-vaes512", 16384, 0, 0, NULL },
};

#define CALM_MIN 5      /* calm slices a side, and calm pairs, for the calm figures to be judged */
#define CALM_WANT 20    /* calm slices a side after which a job runs no extra rounds */
#define MAX_ROUNDS 128  /* twice the most -r allows */
#define REF_MIN 64      /* readings before their percentiles are taken (ref_update, vec_per_mhz) */

/* Every load figure this process has read: the reference is theirs, as the product's is its
 * run's (engine.c), not a job's, whose own readings may all fall in one long slow spell. With
 * each, the clock probe and the vector probe read with it (vec_per_mhz). */
static double *loads, *lmhz, *lvec;
static size_t nloads, loads_cap;

/* Fault injection (-A F[:Q]): in Q runs of 8 job readings in four (so that both readings
 * around a slice are, as in a host's spell; default 3) the clock probe reads F times slow, as
 * a host that slows the adds alone would make it (not the readings beside the measurements of
 * the limits, whose adds stay fast: the case the guard is for); the load figure keeps the true
 * clock. Q = 1 leaves vk standing, the vector probe guarding each slice; Q = 3 moves the jobs'
 * median vec/mhz, and the probes' disagreement puts the shares on the rule before. -G with it:
 * the slices' clocks the clock probe's alone and the ceiling moved down to them whatever the
 * probes say, to show what the guard holds off. Either set, nothing is judged. */
static double slow_adds = 1;
static int slow_runs = 3, unguarded;

/* One load reading, kept; *mhz = the clock probe (dependent adds) taken with it, *vec = the
 * vector probe (clock_probe_vector_rate: AVX2 adds on the vector ports, port-bound where the
 * adds are one dependent chain; 0 without AVX2). */
static double reading(double *mhz, double *vec)
{
    *mhz = clock_probe_mhz();
    *vec = clock_probe_vector_rate();
    double f = stats_load_figure(clock_probe_load_rate(), *mhz);
    *mhz /= (int)(nloads / 8 % 4) < slow_runs ? slow_adds : 1;
    if (nloads == loads_cap) {
        loads_cap = loads_cap ? 2 * loads_cap : 4096;
        if (!(loads = realloc(loads, loads_cap * sizeof *loads)) ||
            !(lmhz = realloc(lmhz, loads_cap * sizeof *lmhz)) ||
            !(lvec = realloc(lvec, loads_cap * sizeof *lvec)))
            abort();
    }
    lmhz[nloads] = *mhz, lvec[nloads] = *vec;
    loads[nloads++] = f;
    return f;
}

/* Readings of the clock probes alone beside each measurement of the limits (main), tagged with
 * the try they are beside: its adds ran in the same spell, so vec/mhz there is the ratio at
 * the ceiling's clock, whatever the jobs' readings later do (vec_per_mhz), and one whose adds
 * read slow against its vector probe says that try's raw cycles read low (raw_tries). add/mhz:
 * the clock of silicon.c's add samples (~1 us, the fastest of three, as core_per_insn's
 * windows take theirs) over the clock probe's (~20 us runs), whose figures the raw cycles and
 * the slices' clocks are (slice_mhz). */
#define CALIB_N 16 /* readings before and after each measurement */
#define MAX_TRIES 65
static struct calib {
    double vec_mhz, add_mhz; /* vec/mhz; the add samples' clock over the clock probe's */
    int try;                 /* the try beside which it was read */
} calib[2 * CALIB_N * MAX_TRIES];
static size_t ncalib;

static void calibrate(int try)
{
    for (int i = 0; i < CALIB_N && ncalib < sizeof calib / sizeof calib[0]; i++) {
        double m = clock_probe_mhz(), v = clock_probe_vector_rate(), a = silicon_core_mhz_now();
        if (m > 0 && v > 0 && a > 0)
            calib[ncalib++] = (struct calib){ .vec_mhz = v / m, .add_mhz = a / m, .try = try };
    }
}

/* The p-th percentile (0..1) of v[0..n), sorted. */
static double percentile(const double *v, size_t n, double p)
{
    return v[(size_t)(p * (double)(n - 1) + 0.5)];
}

/* The median over the calibration readings of try (or every try: -1) of the figure at offset
 * off of struct calib; 0 when there are none. */
static double calib_median(int try, size_t off)
{
    double *c = malloc((ncalib + 1) * sizeof *c);
    size_t n = 0;
    if (!c)
        abort();
    for (size_t i = 0; i < ncalib; i++)
        if (try < 0 || calib[i].try == try)
            c[n++] = *(const double *)((const char *)&calib[i] + off);
    double m = n ? bench_median(c, (int)n) : 0;
    free(c);
    return m;
}

/* The vector probe's rate per MHz of the clock probe (vk): the median of vec/mhz over the
 * jobs' readings (q[1]; q[0], q[2] their 10th and 90th percentiles; 0 when there are fewer
 * than REF_MIN, and then *cal alone), where it agrees within VK_AGREE with the median over
 * the readings beside the measurements of the limits (*cal; calibrate). Where the adds and the
 * vector ports run at one clock, vec/mhz is one figure (2.826-2.829 on the Sapphire Rapids
 * VM, every process, thousands of readings at 3640-4090 MHz); where a host slowed the adds
 * alone (the Zen 4 VM: silicon_floor) it reads higher, and where something on the other vCPU
 * slowed the vector ports alone, lower (2.341 beside the measurements while a build ran
 * there, 2026-12-07). A median stands while under half the readings are either; the two
 * sets disagreeing says one spell covered most of one set, and then 0: no vector probe, the
 * rule before (ceil_held). Every reading slowed alike, the measurements' adds were too: their
 * cycles read low by as much as the slices' clocks do, and the shares stand. *agree = 0
 * when the two disagreed. 0 when there is no vector probe (no AVX2, or denied). */
#define VK_AGREE 0.02
static double vec_per_mhz(double q[3], double *cal, int *agree)
{
    double *r = malloc((nloads + 1) * sizeof *r);
    size_t n = 0;
    if (!r)
        abort();
    for (size_t i = 0; i < nloads; i++)
        if (lmhz[i] > 0 && lvec[i] > 0)
            r[n++] = lvec[i] / lmhz[i];
    q[0] = q[1] = q[2] = 0;
    if (n >= REF_MIN) {
        qsort(r, n, sizeof *r, bench_cmp_double);
        q[0] = percentile(r, n, 0.1), q[1] = percentile(r, n, 0.5), q[2] = percentile(r, n, 0.9);
    }
    free(r);
    *cal = calib_median(-1, offsetof(struct calib, vec_mhz));
    *agree = !(q[1] > 0 && *cal > 0 && fabs(q[1] / *cal - 1) > VK_AGREE);
    if (!*agree)
        return 0;
    return q[1] > 0 ? q[1] : *cal;
}


/* The 90th percentile of the readings so far, picked as engine.c's load_ref picks it. */
static double load_p90(void)
{
    static double *tmp;
    static size_t cap;
    if (!nloads)
        return 0;
    if (cap < nloads) {
        cap = loads_cap;
        if (!(tmp = realloc(tmp, cap * sizeof *tmp)))
            abort();
    }
    memcpy(tmp, loads, nloads * sizeof *tmp);
    qsort(tmp, nloads, sizeof *tmp, bench_cmp_double);
    return tmp[nloads * 9 / 10];
}

/* The reference: the highest the 90th percentile of the readings so far has been at a round's
 * end, from REF_MIN readings on. The product's 90th percentile assumes a tenth of the run is
 * calm; on the Emerald Rapids VM whole runs were not (2026-12, this bench: the percentile sank
 * from 3.94 to 3.39 over a run, calm readings being 3.94-3.97, and slices 15 % slow passed as
 * calm). Held, it cannot sink with the host: a fall means fewer calm readings, not a lower calm
 * level, and it cannot overshoot one (calm readings are the highest, within ~1 %). */
static double ref_held;

static void ref_update(void)
{
    double p = nloads >= REF_MIN ? load_p90() : 0;
    ref_held = p > ref_held ? p : ref_held;
}

struct slice {
    double bytes, sec; /* its ops' bytes, thread CPU seconds */
    double m[2], v[2]; /* the clock and vector probes' readings before and after it */
    int calm;
};

/* One slice of ~ms milliseconds (wall clock) into *sl, its figure over thread CPU time read
 * at its ends (bench.h says why only there); *best = the shortest 16-op run so far (s, wall
 * clock), a diagnostic (the "quiet" figure): this host slows the memory path in spells that
 * the register-only ceiling loops never see, and the ceiling is the fastest of its own runs.
 * Not judged: the faster side gets more runs to be fastest in, and a fastest run is an
 * extreme. -1 when an op failed. */
static int run_slice(struct bench_side *s, size_t size, double ms, struct slice *sl,
                     double *best)
{
    size_t ops = 0;
    double t0 = bench_now_cpu(), w0 = bench_now_wall(), wprev = w0, wnow;
    do {
        for (int i = 0; i < 16; i++)
            if (s->im->op(s->ctx, s->out, s->in, size) != 0)
                return -1;
        ops += 16;
        wnow = bench_now_wall();
        *best = wnow - wprev < *best ? wnow - wprev : *best;
        wprev = wnow;
    } while (wnow - w0 < ms / 1e3);
    sl->bytes = (double)ops * (double)size;
    sl->sec = bench_now_cpu() - t0;
    return 0;
}

/* Marks the calm slices of sl[0..n) (reading k before slice k, k + 1 after) against ref;
 * cnt[side] = calm slices of each side (side = k % 2). */
static void judge_calm(struct slice *sl, const double *fig, size_t n, double ref, int cnt[2])
{
    cnt[0] = cnt[1] = 0;
    for (size_t k = 0; k < n; k++) {
        sl[k].calm = !stats_load_slow(fig[k], ref) && !stats_load_slow(fig[k + 1], ref);
        cnt[k % 2] += sl[k].calm;
    }
}

/* The register width a kernel runs on, for its ceiling: the VAES rows are ymm, vaes512 zmm. */
static enum silicon_width width_of(const char *impl)
{
    return strstr(impl, "vaes512") ? SILICON_ZMM : strstr(impl, "vaes") ? SILICON_YMM
                                                                         : SILICON_XMM;
}

static const char *width_name(enum silicon_width w)
{
    return w == SILICON_ZMM ? "zmm" : w == SILICON_YMM ? "ymm" : "xmm";
}

/* A job's figures; d = the direct side, o = the other. Per round: */
struct figures {
    double rd[MAX_ROUNDS], ro[MAX_ROUNDS], ratio[MAX_ROUNDS]; /* MB/s over all its slices */
    double cd[MAX_ROUNDS], co[MAX_ROUNDS]; /* the mean clock of a side's slices, MHz */
    double fd[MAX_ROUNDS], fo[MAX_ROUNDS]; /* fastest 16-op runs, MB/s */
    double qd[MAX_ROUNDS], qo[MAX_ROUNDS]; /* those, % of the ceiling (shares) */
    double kd[MAX_ROUNDS], ko[MAX_ROUNDS]; /* % of the ceiling at the round's clock (shares) */
    double kh[MAX_ROUNDS];                 /* direct's, by the rule before (ceil_held) */
    int rounds;
    /* calm slices: */
    int cnt[2], npairs, nslices[2];
    double cratio;          /* median direct/other over adjacent calm pairs; 0 = no pair */
    double cshare[2];       /* median % of the ceiling over a side's calm slices; 0 = none */
    double cshare_held[2];  /* the same by the rule before (ceil_held) */
    double cclk;            /* median clock the calm slices were shared at (slice_mhz), MHz */
    double cmhz, cvmhz;     /* median of their clock probe's readings, of their vector
                             * probe's (vec / vk; 0 = no vector probe) */
    double cunder;          /* % of them shared at a clock over 0.5 % under ceil_mhz */
    double ceil, ceil_mhz;  /* MB/s at the core clock ceil_mhz (best_ceiling of raw, once all
                             * jobs have run; of tries where vk is 0) */
    double hceil, hceil_mhz; /* the same of tries, floored: the rule before (ceil_held) */
    double vk;              /* vec_per_mhz(); 0: no vector probe, ceilings never moved down */
    double addk;            /* the add samples' clock over the clock probe's (calib_median) */
    int per;                /* slices a side a round */
    int hasceil;
    char ceil_why[300];
};

/* Issue 15 holds the AES-NI (xmm) GCM kernel to its share of the ceiling on a CPU without
 * VAES only: where VAES is (and not denied), the VAES rows carry the target (ymm, and zmm
 * where the CPU has AVX-512: the kernel the product runs there) and the xmm row is reported,
 * not judged. */
static double ceil_target_here(const struct job *j)
{
    return width_of(j->impl) == SILICON_XMM && strstr(j->alg, "gcm") && cpu_has(FEAT_VAES)
               ? 0
               : j->ceil_target;
}

static int over_ceiling; /* a quiet figure read over 100 % */

/* Every measurement of the limits the run made, each whole (main says why): as measured
 * (floored at the run's fastest clock pair, silicon_floor), and raw (raw_tries). */
static struct silicon tries[MAX_TRIES], raw[MAX_TRIES];
static int ntries;

/* The job's ceiling in the try of set[] that allowed the most bytes per core cycle: *mbs at
 * that try's clock *mhz, the model in why; 0, or -1 when no try has one. Leaves that try
 * adopted. */
static int best_ceiling(const struct silicon *set, const struct job *j, double *mbs,
                        double *mhz, char *why, size_t n)
{
    int best = -1;
    snprintf(why, n, "the limits were not measured: %s", silicon_get()->why);
    for (int t = 0; t < ntries; t++) {
        double c;
        char w[300];
        silicon_adopt(&set[t]);
        int ok = silicon_ceiling_width(j->alg, j->decrypt, width_of(j->impl), &c, w,
                                       sizeof w) == 0;
        int better = ok && (best < 0 || c / set[t].core_mhz > *mbs / *mhz);
        if (better || best < 0)
            snprintf(why, n, "%s", w); /* the best's model, or a reason there is none */
        if (better)
            best = t, *mbs = c, *mhz = set[t].core_mhz;
    }
    if (best >= 0)
        silicon_adopt(&set[best]);
    return best >= 0 ? 0 : -1;
}

/* raw[] from tries[] as measured (before main floors them): each try's figures back to its
 * raw medians (silicon_unfloor), times rho = the median vec/mhz of the readings beside it over
 * vk where that is over 1.05: its adds read slow against the vector probe, as on the Zen 4
 * VM (1.55x for minutes), and its raw cycles, counted against those adds, low by that much; a
 * try that read them so would win best_ceiling with a ceiling that high (shares that low).
 * The threshold keeps the probes' ~0.1-0.5 % jitter from raising cycles (lowering ceilings).
 * Returns how many tries were corrected. */
static int raw_tries(double vk)
{
    int n = 0;
    for (int t = 0; t < ntries; t++) {
        raw[t] = tries[t];
        double rho = vk > 0 ? calib_median(t, offsetof(struct calib, vec_mhz)) / vk : 0;
        for (int i = 0; i < SIL_COUNT && rho > 1.05; i++)
            raw[t].insn[i].tp_raw *= rho, raw[t].insn[i].lat_raw *= rho;
        n += rho > 1.05;
        silicon_unfloor(&raw[t]);
    }
    return n;
}

/* The rule before the vector probe was read with the clock, and still the rule without one:
 * the job's ceiling from the floored tries, moved to the clock probe's reading mhz where it
 * is higher, held at its own clock where lower: the clock probe is a chain of dependent adds,
 * and a host that slows the adds alone (the Zen 4 VM, for minutes: silicon_floor) reads a
 * low clock while the vector units run at full speed, which would raise every share. Its
 * price: where the clock truly falls, shares fall with it, and a target is missed for the
 * host's clock, not the code. */
static double ceil_held(const struct figures *f, double mhz)
{
    return f->hceil * (mhz > f->hceil_mhz ? mhz : f->hceil_mhz) / f->hceil_mhz;
}

/* The job's ceiling at a round's or slice's clock (slice_mhz), down as well as up, where the
 * vector probe guards that clock; else ceil_held. The raw tries' figures are core cycles,
 * each instruction's time over the adds' in the same windows (silicon.c core_per_insn), so
 * the share is the kernel's bytes per core cycle over the model's. */
static double ceil_at(const struct figures *f, double mhz)
{
    return f->vk > 0 ? f->ceil * mhz / f->ceil_mhz : ceil_held(f, mhz);
}

/* The mean of the clock probe's readings either side of a slice: its clock by the rule before
 * (ceil_held). */
static double adds_mhz(const struct slice *sl)
{
    return (sl->m[0] + sl->m[1]) / 2;
}

/* A slice's clock for its ceiling: the highest of the readings either side, each the clock
 * probe's, or the vector probe's reading of it (vec / vk) where that is higher (the adds
 * slowed alone, and the vector units, which the kernels run on, were not), times f->addk
 * where over 1 (raw cycles are counted against silicon.c's ~1 us add samples; a clock probe
 * reading lower than those over the same spell reads the slice's clock low). A host that
 * slows the vector units alone (a busy SMT sibling) leaves the adds' clock, and the ceiling
 * is not lowered for it; the other side's wide instructions lowering the clock for the first
 * ms of a slice (an AVX-512 licence) leave the reading after it. Every choice reads the clock
 * high, the ceiling high, the share low. Without a vector probe (vk 0): the mean of the clock
 * probe's two readings, as the rule before took it. */
static double slice_mhz(const struct figures *f, const struct slice *sl)
{
    if (!(f->vk > 0))
        return adds_mhz(sl); /* the rule before, exactly */
    double c = 0;
    for (int i = 0; i < 2; i++) {
        double v = sl->v[i] > 0 && !unguarded ? sl->v[i] / f->vk : 0;
        c = fmax(c, fmax(v, sl->m[i]));
    }
    return c * fmax(1, f->addk);
}

/* The rounds' shares of the job's ceiling (best_ceiling), each at its round's clock: MB/s
 * over the ceiling moved from the clock it is quoted at to the round's (ceil_at), the mean of
 * its slices' (slice_mhz; the rounds' slices are sl[2 per r ..], A B A B). */
static void shares(const struct job *j, const struct slice *sl, struct figures *f)
{
    f->hasceil = best_ceiling(tries, j, &f->hceil, &f->hceil_mhz, f->ceil_why,
                              sizeof f->ceil_why) == 0;
    f->ceil = f->hceil, f->ceil_mhz = f->hceil_mhz;
    if (f->hasceil && f->vk > 0)
        f->hasceil = best_ceiling(raw, j, &f->ceil, &f->ceil_mhz, f->ceil_why,
                                  sizeof f->ceil_why) == 0;
    for (int r = 0; r < f->rounds && f->hasceil; r++) {
        double clk[2] = { 0, 0 }, adds = 0;
        for (int i = 0; i < 2 * f->per; i++) {
            const struct slice *x = &sl[(size_t)(2 * f->per * r + i)];
            clk[i % 2] += slice_mhz(f, x);
            adds += i % 2 ? 0 : adds_mhz(x);
        }
        f->cd[r] = clk[0] / f->per, f->co[r] = clk[1] / f->per;
        double at_d = ceil_at(f, f->cd[r]), at_o = ceil_at(f, f->co[r]);
        f->kd[r] = 100 * f->rd[r] / at_d, f->ko[r] = 100 * f->ro[r] / at_o;
        f->qd[r] = 100 * f->fd[r] / at_d, f->qo[r] = 100 * f->fo[r] / at_o;
        f->kh[r] = 100 * f->rd[r] / ceil_held(f, adds / f->per);
    }
}
static int calm_jobs, fallback_jobs; /* jobs judged on calm figures, on all slices */

static const char *verdict(int met)
{
    if (slow_adds > 1)
        return "not judged: fault injection";
    return met ? "ok" : "MISSED";
}

static int no_figure; /* wrong output, a failed op, a share target without a ceiling (exit 3) */

/* "judged KEY WHAT VALUE TARGET" (lib/median_judge.awk), both exact (the value to 17 digits,
 * the target to 15), so that a median over processes is judged as each process judged its
 * own figure; a figure that is not a number is not given (exit 3). */
static void judged_line(const struct job *j, const char *what, double value, double target)
{
    if (!isfinite(value)) { /* no figure: a zero time or clock somewhere */
        no_figure = 1;
        return;
    }
    if (slow_adds > 1 || unguarded) /* fault injection: figures to look at, not to judge */
        return;
    printf("  judged %s/%zu/%s@%s~%s %s %.17g %.15g\n", j->alg, j->size,
           j->decrypt ? "dec" : "enc", j->impl, j->against, what, value,
           target);
}

/* Prints the all-slice figures (the line as before this bench judged calm spells) and the
 * calm line; 1 when every target is met on the judged figures (or there is none). */
static int print_job(const struct job *j, struct figures *f)
{
    int n = f->rounds;
    double target = ceil_target_here(j);
    double md = bench_median(f->rd, n), mo = bench_median(f->ro, n);
    double mr = bench_median(f->ratio, n), kd = 0, ko = 0;
    printf("  %9.0f %9.0f  %6.3f", md, mo, mr);
    if (!f->hasceil) {
        printf("  no ceiling: %s", f->ceil_why);
    } else {
        double bd = 0, bo = 0, qd = 0, qo = 0; /* best rounds, fastest 16-op runs of the job */
        for (int r = 0; r < n; r++) {
            bd = f->kd[r] > bd ? f->kd[r] : bd, bo = f->ko[r] > bo ? f->ko[r] : bo;
            qd = f->qd[r] > qd ? f->qd[r] : qd, qo = f->qo[r] > qo ? f->qo[r] : qo;
        }
        kd = bench_median(f->kd, n), ko = bench_median(f->ko, n);
        /* Over 100 %: the clock is read around a slice, and one run of it went faster */
        over_ceiling |= qd > 100 || qo > 100;
        printf("  ceiling %s %6.0f: direct %5.1f%% (%5.1f%%, best %5.1f%%, quiet %5.1f%%%s), "
               "other %5.1f%% (%5.1f%%, best %5.1f%%, quiet %5.1f%%%s)",
               width_name(width_of(j->impl)), f->ceil, 100 * md / f->ceil, kd, bd, qd,
               qd > 100 ? "!" : "", 100 * mo / f->ceil, ko, bo, qo, qo > 100 ? "!" : "");
    }
    printf("\n");

    int enough = f->cnt[0] >= CALM_MIN && f->cnt[1] >= CALM_MIN && f->npairs >= CALM_MIN;
    int judged = j->target > 0 || (target > 0 && f->hasceil);
    double jr = enough ? f->cratio : mr, jc = enough ? f->cshare[0] : kd;
    int rmet = j->target <= 0 || jr >= j->target;
    int cmet = target <= 0 || (f->hasceil && jc >= target);
    printf("  calm %3.0f%% of slices (direct %d/%d, other %d/%d, %d pairs, %d rounds):",
           100.0 * (f->cnt[0] + f->cnt[1]) / (f->nslices[0] + f->nslices[1]), f->cnt[0],
           f->nslices[0], f->cnt[1], f->nslices[1], f->npairs, n);
    if (f->npairs)
        printf(" ratio %6.3f", f->cratio);
    else
        printf(" ratio      -");
    if (enough && j->target > 0)
        printf(" (>= %.2f %s)", j->target, verdict(rmet));
    if (f->hasceil) {
        if (f->cnt[0])
            printf(", ceiling direct %5.1f%%", f->cshare[0]);
        else
            printf(", ceiling direct     -");
        if (enough && target > 0)
            printf(" (>= %.0f%% %s)", target, verdict(cmet));
        if (f->cnt[1])
            printf(", other %5.1f%%", f->cshare[1]);
        else
            printf(", other     -");
    }
    if (!enough && judged) {
        printf("; too few calm slices (need %d a side and %d pairs): judged on all slices:",
               CALM_MIN, CALM_MIN);
        if (j->target > 0)
            printf(" ratio %.3f (>= %.2f %s)", mr, j->target, verdict(rmet));
        if (target > 0)
            printf(" ceiling %.1f%% (>= %.0f%% %s)", kd, target, verdict(cmet));
    }
    if (target <= 0 && j->ceil_target > 0)
        printf(" (ceiling >= %.0f%% is for CPUs without VAES: not judged here)", j->ceil_target);
    /* the clocks the shares were taken at, and the shares by the rule before (ceil_held),
     * so that what moving the ceiling down did is on the line */
    if (f->hasceil && f->cmhz > 0 && f->vk > 0) {
        printf("; shared at the calm slices' own clocks, median %.0f MHz (clock probe %.0f, "
               "vector probe %.0f), the ceiling's %.0f (%.0f%% of them over 0.5%% under it); "
               "by the rule before (%.0f MB/s, held at %.0f MHz where theirs is lower): "
               "direct %.1f%%, other %.1f%%", f->cclk, f->cmhz, f->cvmhz, f->ceil_mhz,
               f->cunder, f->hceil, f->hceil_mhz, f->cshare_held[0], f->cshare_held[1]);
    } else if (f->hasceil && f->cmhz > 0) {
        printf("; clock: calm slices' median %.0f MHz, the ceiling's %.0f (%.0f%% of them over "
               "0.5%% under it, shared at the ceiling's)", f->cmhz, f->ceil_mhz, f->cunder);
    }
    printf("\n");
    if (judged)
        enough ? calm_jobs++ : fallback_jobs++;
    /* the judged figures again, a line each, for direct.sh to take medians over processes;
     * a ceiling target without a ceiling is a figure not given (no_figure) */
    if (j->target > 0)
        judged_line(j, "ratio", jr, j->target);
    if (target > 0 && f->hasceil)
        judged_line(j, "ceiling", jc, target);
    /* reported beside it over processes, not judged (target 0); given wherever "ceiling" is,
     * as median_judge.awk counts a figure some process left out as missed (without a vector
     * probe the same figure) */
    if (target > 0 && f->hasceil)
        judged_line(j, "ceiling-held", enough ? f->cshare_held[0] : bench_median(f->kh, n), 0);
    no_figure |= target > 0 && !f->hasceil;
    return slow_adds > 1 || (rmet && cmet); /* fault injection judges nothing */
}

/* Medians of the calm slices (judge_calm marked them) into f. */
static void calm_figures(const struct slice *sl, size_t n, struct figures *f)
{
    double *pr = malloc((n + 1) * sizeof *pr), *sh[2], *hd[2];
    double *clk = malloc((n + 1) * sizeof *clk), *vclk = malloc((n + 1) * sizeof *vclk);
    double *at = malloc((n + 1) * sizeof *at);
    int m[2] = { 0, 0 }, nclk = 0, nv = 0, under = 0;
    for (int s = 0; s < 2; s++) {
        sh[s] = malloc((n + 1) * sizeof *sh[s]);
        hd[s] = malloc((n + 1) * sizeof *hd[s]);
        if (!sh[s] || !hd[s])
            abort();
    }
    if (!pr || !clk || !vclk || !at)
        abort();
    f->npairs = 0;
    for (size_t k = 0; k + 1 < n; k++) {
        if (!sl[k].calm || !sl[k + 1].calm)
            continue;
        const struct slice *d = k % 2 ? &sl[k + 1] : &sl[k], *o = k % 2 ? &sl[k] : &sl[k + 1];
        pr[f->npairs++] = (d->bytes / d->sec) / (o->bytes / o->sec);
    }
    for (size_t k = 0; k < n && f->hasceil; k++)
        if (sl[k].calm) {
            double mbs = sl[k].bytes / sl[k].sec / 1e6, c = slice_mhz(f, &sl[k]);
            hd[k % 2][m[k % 2]] = 100 * mbs / ceil_held(f, adds_mhz(&sl[k]));
            sh[k % 2][m[k % 2]++] = 100 * mbs / ceil_at(f, c);
            under += c < 0.995 * f->ceil_mhz;
            at[nclk] = c, clk[nclk++] = adds_mhz(&sl[k]);
            if (f->vk > 0 && !unguarded && sl[k].v[0] > 0 && sl[k].v[1] > 0)
                vclk[nv++] = (sl[k].v[0] + sl[k].v[1]) / 2 / f->vk;
        }
    f->cratio = f->npairs ? bench_median(pr, f->npairs) : 0;
    for (int s = 0; s < 2; s++) {
        f->cshare[s] = m[s] ? bench_median(sh[s], m[s]) : 0;
        f->cshare_held[s] = m[s] ? bench_median(hd[s], m[s]) : 0;
    }
    f->cmhz = nclk ? bench_median(clk, nclk) : 0;
    f->cclk = nclk ? bench_median(at, nclk) : 0;
    f->cvmhz = nv ? bench_median(vclk, nv) : 0;
    f->cunder = nclk ? 100.0 * under / nclk : 0;
    free(pr), free(sh[0]), free(sh[1]), free(hd[0]), free(hd[1]), free(clk), free(vclk);
    free(at);
}

/* One job's measurement, kept until the run's reference is known. */
enum run_state { RUN_OK, RUN_UNAVAILABLE, RUN_WRONG, RUN_FAILED };
struct run {
    enum run_state state;
    char why[300];
    struct figures f;
    struct slice *sl; /* k slices, A B A B; fig[i] the load readings between them */
    double *fig;
    size_t k;
};

static void measure_job(const struct job *j, struct run *u, int reps, double ms,
                        double slice_ms)
{
    const struct impl *d = registry_find(j->alg, j->impl), *o = registry_find(j->alg, j->against);
    if (!d || !o || d->check(d, u->why, sizeof u->why) || o->check(o, u->why, sizeof u->why)) {
        if (!d || !o)
            snprintf(u->why, sizeof u->why, "%s",
                     !d ? "no such direct impl" : "no such impl to compare");
        u->state = RUN_UNAVAILABLE;
        return;
    }
    struct bench_side sides[2] = { { 0 }, { 0 } }; /* [0] direct, [1] the other */
    if (bench_agree(d, o, j->size, j->decrypt)) {
        u->state = RUN_WRONG;
        return;
    }
    if (bench_side_init(&sides[0], d, j->size, j->decrypt) ||
        bench_side_init(&sides[1], o, j->size, j->decrypt)) {
        bench_side_free(&sides[0]), bench_side_free(&sides[1]);
        snprintf(u->why, sizeof u->why, "could not set up (stderr says why)");
        u->state = RUN_UNAVAILABLE;
        return;
    }
    struct figures *f = &u->f;
    int per = (int)ceil(ms / slice_ms); /* slices a side a round */
    size_t cap = (size_t)2 * reps * 2 * per, k = 0;
    struct slice *sl = u->sl = calloc(cap, sizeof *sl);
    double *fig = u->fig = calloc(cap + 1, sizeof *fig);
    if (!sl || !fig)
        abort();
    f->per = per;
    double mp, vp; /* the probes' last readings, before the next slice */
    fig[0] = reading(&mp, &vp);
    for (f->rounds = 0; f->rounds < 2 * reps; f->rounds++) {
        if (f->rounds >= reps) {
            int cnt[2];
            judge_calm(sl, fig, k, ref_held, cnt);
            if (cnt[0] >= CALM_WANT && cnt[1] >= CALM_WANT)
                break;
        }
        double best[2] = { 1e30, 1e30 }, bytes[2] = { 0, 0 }, sec[2] = { 0, 0 };
        for (int i = 0; i < 2 * per; i++, k++) {
            int s = (int)(k % 2); /* A B A B across rounds: the reading between two brackets both */
            if (run_slice(&sides[s], j->size, slice_ms, &sl[k], &best[s])) {
                u->state = RUN_FAILED;
                goto out;
            }
            sl[k].m[0] = mp, sl[k].v[0] = vp;
            fig[k + 1] = reading(&mp, &vp);
            sl[k].m[1] = mp, sl[k].v[1] = vp;
            bytes[s] += sl[k].bytes, sec[s] += sl[k].sec;
        }
        ref_update();
        int r = f->rounds;
        f->rd[r] = bytes[0] / sec[0] / 1e6, f->ro[r] = bytes[1] / sec[1] / 1e6;
        f->ratio[r] = f->rd[r] / f->ro[r];
        f->fd[r] = 16.0 * (double)j->size / best[0] / 1e6;
        f->fo[r] = 16.0 * (double)j->size / best[1] / 1e6;
    }
    u->state = RUN_OK;
out:
    u->k = k;
    bench_side_free(&sides[0]), bench_side_free(&sides[1]);
}

/* Judges a measured job against the run's reference and prints it: 1 = met or report-only,
 * 0 = missed, -1 = could not run. */
static int report_job(const struct job *j, struct run *u, double ref, double vk, double addk)
{
    const char *dir = j->decrypt ? "decrypt" : "encrypt";
    printf("%-12s %-7s %-11s %-17s %6zu", j->alg, dir, j->impl, j->against, j->size);
    switch (u->state) {
    case RUN_UNAVAILABLE:
        printf("  UNAVAILABLE: %s\n", u->why);
        return -1;
    case RUN_WRONG:
        printf("  WRONG OUTPUT: no figure\n");
        no_figure = 1;
        return 0; /* counts as missed */
    case RUN_FAILED:
        printf("  OP FAILED: no figure\n");
        no_figure = 1;
        return 0;
    case RUN_OK:
        break;
    }
    struct figures *f = &u->f;
    f->vk = unguarded && !(vk > 0) ? 1 : vk, f->addk = addk; /* -G: moved down regardless */
    shares(j, u->sl, f);
    judge_calm(u->sl, u->fig, u->k, ref, f->cnt);
    f->nslices[0] = (int)((u->k + 1) / 2), f->nslices[1] = (int)(u->k / 2);
    calm_figures(u->sl, u->k, f);
    return print_job(j, f);
}

int main(int argc, char **argv)
{
    if (bench_deny_check("direct_bench"))
        return 2;
    int reps = 5;
    double ms = 60, slice_ms = 3;
    struct job jobs[64];
    size_t nj = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
            ms = atof(argv[++i]);
        } else if (strcmp(argv[i], "-A") == 0) {
            char *end = NULL;
            slow_adds = i + 1 < argc ? strtod(argv[++i], &end) : 0;
            if (end && *end == ':')
                slow_runs = (int)strtol(end + 1, &end, 10);
            if (!end || *end || !(slow_adds >= 1 && slow_adds <= 4) || slow_runs < 1 ||
                slow_runs > 3) {
                fprintf(stderr, "direct_bench: -A takes F[:Q], a factor from 1 to 4 and the "
                        "runs of 8 readings in four it slows, 1 to 3 (default 3)\n");
                return 2;
            }
        } else if (strcmp(argv[i], "-G") == 0) {
            unguarded = 1;
        } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            slice_ms = atof(argv[++i]);
        } else if (nj < 64) {
            static char bufs[64][64];
            char *s = bufs[nj], *p;
            snprintf(s, 64, "%s", argv[i]);
            struct job j = { .impl = "direct", .size = 16384, .against = "openssl" };
            if ((p = strchr(s, ':'))) {
                *p++ = 0;
                j.size = strtoul(p, &p, 10);
                if (*p == ':')
                    j.target = strtod(p + 1, &p);
                if (*p == ':')
                    j.ceil_target = atof(p + 1);
            }
            if ((p = strchr(s, '~')))
                *p++ = 0, j.against = p;
            if ((p = strchr(s, '@')))
                *p++ = 0, j.impl = p;
            if ((p = strstr(s, "/dec")))
                *p = 0, j.decrypt = 1;
            j.alg = s;
            /* a name that is not there is a bad argument, not a job UNAVAILABLE here */
            if (!registry_find(j.alg, j.impl) || !registry_find(j.alg, j.against)) {
                fprintf(stderr, "direct_bench: no impl '%s' of '%s' in this build "
                        "(`accelscope list` names them)\n",
                        registry_find(j.alg, j.impl) ? j.against : j.impl, j.alg);
                return 2;
            }
            jobs[nj++] = j;
        }
    }
    if (unguarded && !(slow_adds > 1)) {
        fprintf(stderr, "direct_bench: -G goes with -A F (F > 1): it shows what the guard holds "
                "off, and judges nothing\n");
        return 2;
    }
    if (reps < 3 || reps > 64) {
        fprintf(stderr, "direct_bench: -r takes 3 to 64 rounds\n");
        return 2;
    }
    /* a slice under ~0.2 ms is mostly probe (readings of ~0.25 ms either side) */
    if (!(ms > 0) || !(slice_ms >= 0.2) || slice_ms > ms) {
        fprintf(stderr, "direct_bench: -m takes ms > 0, -s 0.2 ms up to -m\n");
        return 2;
    }
    if (!nj) {
        nj = sizeof defaults / sizeof defaults[0];
        memcpy(jobs, defaults, sizeof defaults);
        for (size_t i = 0; i < nj; i++)
            jobs[i].against = jobs[i].against ? jobs[i].against : "openssl";
    }
    silicon_measure();
    silicon_describe(stdout);
    printf("\n%d rounds (up to %d while a side has < %d calm slices) of ~%.0f ms a side in "
           "slices of ~%.1f ms, the sides alternating slice by slice; thread CPU time; MB/s = "
           "10^6 B/s.\nFirst line, all slices: MB/s and ratio, medians of the rounds; share of "
           "the ceiling (with a vector probe the raw tries', at its own clock): median (median at "
           "the clock seen around each round's slices, best "
           "round, fastest run of 16 ops, these two at their round's clock too: the ceiling is "
           "moved from the clock the limits were measured at to the slices' clock, the higher "
           "of the clock probe's and the vector probe's reading, where there is a vector "
           "probe, below; else only to a higher clock, never a lower one).\nSecond "
           "line, calm slices (neither load "
           "reading around it more than %.0f %% under the run's load reference, below; all jobs "
           "are judged once the run is done, against one reference): their share, the median "
           "ratio of adjacent calm pairs, each side's median share of the ceiling at its "
           "slice's clock, then the median clock the calm slices were shared at (and each "
           "probe's median reading), the %% of them shared at a clock over 0.5 %% under the "
           "ceiling's, and the shares by the rule before: the floored ceiling held at its "
           "clock where theirs is lower (the rule without a vector probe; \"ceiling-held\" "
           "over processes, not judged). Targets are "
           "judged on the calm figures (>= %d calm slices a side and %d pairs), else on all "
           "slices' medians at the clock.\n",
           reps, 2 * reps, CALM_WANT, ms, slice_ms, 100 * STATS_LOAD_TOL, CALM_MIN, CALM_MIN);
    static struct run runs[64];
    fflush(stdout);
    /* The limits again before each job, every try kept whole: a job is judged against the
     * try that allows it the most bytes per core cycle. Each figure's fastest over all tries
     * (silicon_merge, what the product does with its three) would be a composite no try
     * measured: of 31 tries on the Zen 5 VM, none of their own GCM models came within 2 % of
     * it (AES-128 1.595 cycles per 16 B against the fastest try's 1.62-1.63): the least of
     * each figure's jitter, picked 31 times over. */
    _Static_assert(MAX_TRIES >= 1 + sizeof jobs / sizeof jobs[0], "a try before each job");
    if (slow_adds > 1)
        printf("FAULT INJECTION (-A %g:%d%s): %d runs of 8 job readings in four, clock probe %g "
               "times slow%s; nothing is judged\n", slow_adds, slow_runs, unguarded ? " -G" : "",
               slow_runs, slow_adds,
               unguarded ? "; the slices' clocks the clock probe's, unguarded" : "");
    calibrate(0); /* beside the first measurement, just made */
    if (silicon_get()->ok)
        tries[ntries++] = *silicon_get();
    for (size_t i = 0; i < nj; i++) {
        int t = ntries; /* the index this try gets if it succeeds */
        calibrate(t);
        int ok = silicon_measure_again(&tries[ntries]) == 0;
        ntries += ok;
        calibrate(ok ? t : -2); /* beside a failed one: no try's, for vk only */
        measure_job(&jobs[i], &runs[i], reps, ms, slice_ms);
    }
    int agree;
    double q[3], cal, vk = vec_per_mhz(q, &cal, &agree);
    double addk = calib_median(-1, offsetof(struct calib, add_mhz));
    int slowed = raw_tries(vk);
    /* Every try floored at the fastest clock pair of all (silicon_floor), for the rule before
     * (ceil_held): one made while the host slowed the adds alone reads a low clock and too few
     * cycles, and would win best_ceiling's bytes per cycle with a ceiling ceil_held then
     * scales up. */
    int top = 0;
    for (int t = 1; t < ntries; t++)
        top = tries[t].core_mhz > tries[top].core_mhz ? t : top;
    for (int t = 0; t < ntries; t++)
        silicon_floor(&tries[t], tries[top].core_mhz, tries[top].tsc_mhz);
    const struct silicon merged = *silicon_get();
    printf("limits: %d of %zu measurements succeeded (one at the start, one before each job); "
           "each job is judged against the one that allows it the most bytes per core cycle "
           "(with a vector probe, of the raw tries, raw_tries; else of the floored ones)\n",
           ntries, nj + 1);
    for (int k = 0; k < 2 && vk > 0 && ntries; k++) {
        double lo = 1e30, hi = 0;
        for (int t = 0; t < ntries; t++) {
            const struct silicon_gcm *g = k ? &raw[t].gcm256 : &raw[t].gcm128;
            if (g->ok)
                lo = fmin(lo, g->cycles), hi = fmax(hi, g->cycles);
        }
        if (hi > 0)
            printf("  GCM AES-%d model, raw tries: %.3f to %.3f cycles per 16 B (%d of them "
                   "corrected for adds read slow beside them)\n", k ? 256 : 128, lo, hi,
                   slowed);
    }
    for (int k = 0; k < 2 && ntries; k++) {
        double lo = 1e30, hi = 0, m = k ? merged.gcm256.cycles : merged.gcm128.cycles;
        for (int t = 0; t < ntries; t++) {
            const struct silicon_gcm *g = k ? &tries[t].gcm256 : &tries[t].gcm128;
            if (g->ok)
                lo = g->cycles < lo ? g->cycles : lo, hi = g->cycles > hi ? g->cycles : hi;
        }
        if (!(hi > 0))
            continue;
        const struct silicon_gcm *g0 = k ? &tries[0].gcm256 : &tries[0].gcm128;
        printf("  GCM AES-%d model: %.3f to %.3f cycles per 16 B over the floored tries (the "
               "first that succeeded: ", k ? 256 : 128, lo, hi);
        if (g0->ok)
            printf("%.3f", g0->cycles);
        else
            printf("-");
        printf("); each figure's fastest together %.3f", m);
        /* the product's merge of SILICON_TRIES (back to back there, a job apart here) against
         * the best of them alone */
        double pbest = 1e30;
        if (ntries >= SILICON_TRIES) {
            silicon_adopt(&tries[0]);
            for (int t = 0; t < SILICON_TRIES; t++) {
                const struct silicon_gcm *g = k ? &tries[t].gcm256 : &tries[t].gcm128;
                pbest = g->ok && g->cycles < pbest ? g->cycles : pbest;
                if (t > 0)
                    silicon_merge(&tries[t]);
            }
            const struct silicon_gcm *p = k ? &silicon_get()->gcm256 : &silicon_get()->gcm128;
            if (p->ok && pbest < 1e30)
                printf("; the first %d merged as the product merges its own (which are back to "
                       "back), %.3f, the best of them alone %.3f", SILICON_TRIES, p->cycles,
                       pbest);
        }
        printf("\n");
    }
    double ref = ref_held > 0 ? ref_held : load_p90(), p90 = load_p90();
    size_t calm = 0;
    for (size_t i = 0; i < nloads; i++)
        calm += !stats_load_slow(loads[i], ref);
    printf("load reference %.3f: the highest 90th percentile of the readings so far at a round's "
           "end (at the end %.3f, of %zu readings; %.0f %% of them calm)\n",
           ref, p90, nloads, nloads ? 100.0 * (double)calm / (double)nloads : 0);
    if (!agree)
        printf("vector probe: the median vec/mhz of the jobs' readings, %.4f (10th percentile "
               "%.4f, 90th %.4f), and of the %zu beside the measurements of the limits, %.4f, "
               "over %.0f %% apart: one of the two probes was slowed alone through most of one "
               "set; shares by the rule before%s\n", q[1], q[0], q[2], ncalib, cal,
               100 * VK_AGREE, unguarded ? " (-G: not so, moved down to the clock probe's)" : "");
    else if (vk > 0)
        printf("vector probe: %.4f of its units per MHz of the clock probe (vk), the median "
               "vec/mhz of the jobs' readings (10th percentile %.4f, median %.4f, 90th %.4f; "
               "0 when under 64, then the next figure's), within %.0f %% of the median of the "
               "%zu beside the measurements of the limits "
               "(%.4f); a slice's clock is the highest of the readings either side, each the "
               "higher of the clock probe's and the vector probe's over vk%s, times %.4f (the "
               "add samples' clock over the clock probe's beside the measurements, %.4f, where "
               "over 1); its ceiling, the raw tries' moved to it\n", vk, q[0], q[1], q[2],
               100 * VK_AGREE, ncalib, cal, unguarded ? " (-G: the clock probe's alone)" : "",
               fmax(1, addk), addk);
    else
        printf("no vector probe (it needs AVX2): a slice's clock is the mean of the clock "
               "probe's readings either side, and a ceiling is never moved below its own clock "
               "(the rule before)\n");
    printf("%-12s %-7s %-11s %-17s %6s  %9s %9s  %6s\n", "algorithm", "dir", "direct", "against",
           "bytes", "direct", "other", "ratio");
    int missed = 0;
    for (size_t i = 0; i < nj; i++) {
        missed += report_job(&jobs[i], &runs[i], ref, vk, addk) == 0;
        free(runs[i].sl), free(runs[i].fig);
    }
    if (over_ceiling)
        printf("! over 100 %%: a 16-op run of a few us went faster than the clock read around "
               "its slice says (the clock moves within a slice); a diagnostic, not judged\n");
    if (!(slow_adds > 1))
        printf("targets judged on calm slices in %d jobs, on all slices (too few calm) in %d\n",
               calm_jobs, fallback_jobs);
    printf("%s\n", slow_adds > 1 ? "fault injection: nothing judged"
                   : missed    ? "some targets MISSED"
                               : "all targets met");
    return no_figure ? 3 : missed ? 1 : 0;
}
