/* The statistics of a measurement cell: which samples are disturbed, the median and its
 * confidence interval, when a cell has enough samples, whether two figures tie. Pure
 * functions of the samples: no clock, no I/O. */
#ifndef ACCELSCOPE_STATS_H
#define ACCELSCOPE_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

/* One worker's one sample, as its `sample` line gave it (see worker.c). */
struct stats_sample {
    uint64_t ops, bytes, wall_ns, cpu_ns, cycles;
    long nivcsw;             /* involuntary context switches during the sample */
    long steal;              /* steal ticks of its CPU during the sample; -1 unreadable */
    uint64_t t0, t1;         /* the timed window, CLOCK_MONOTONIC ns */
    double mhz0, mhz1;       /* dependent-add clock just before / after; 0 = none */
    double vrate0, vrate1;   /* the vector probe's rate before / after, 10^6 adds/s; 0 = none */
    double lrate0, lrate1;   /* the load probe's rate before / after (clock.h); 0 = none */
    double lref;             /* the run's usual stats_sample_load when the sample came
                              * (engine.c); 0 = none known yet, the slow-phase rule is off */
    long long others_user;   /* /proc/stat ticks the other CPUs spent running programs (user,
                              * nice) during the sample; -1 unknown (see worker.c) */
    long long others_ticks;  /* all their ticks during it; -1 unknown */
    long long sib_user;      /* the same for the SMT siblings of its CPU alone; -1 unknown or */
    long long sib_ticks;     /* none (no SMT, no sysfs) */
    int moved;               /* the worker changed CPU between warm-up and the sample's end */
    uint64_t waited_ns;      /* how long its warm-up waited for a slow spell to pass (worker.c) */
};

#define STATS_MIN_SAMPLES 5     /* undisturbed rounds before a cell can be enough */
#define STATS_ENOUGH_CI_PCT 2.0 /* the interval a cell keeps sampling for */
#define STATS_NOISY_CI_PCT 5.0  /* wider than this at the end: noisy */
/* The absolute figure's own claim (CSV `absolute`): a quiet cell whose interval is within
 * 3/sqrt(2) % says that another run on the machine in the same state (clock_mhz) gives its
 * MB/s within +-3 %: two independent medians each within +-2.1 % of the truth differ by at
 * most ~3 % at the same confidence. A quiet cell wider than that vouches for comparisons
 * (paired rounds) and its own interval, not for the next run's figure. Measured on the
 * Emerald Rapids VM (tests/bench/trust.sh, 2026-12-03): cells quiet in both runs agreed
 * within 3 % on 91 % at the +-5 % rule, 98 % at this one, which 85 % of cells met. */
#define STATS_ABSOLUTE_CI_PCT 2.1
/* A cell whose clock differs from the last saved run's (result.clock_ref_mhz) by more than
 * this claims nothing about its MB/s repeating: a CPU-bound figure moves with the clock, and
 * two runs each within X % of the reference may lie 2X % apart in clock alone. At 2 %
 * (trust.sh, Zen 5 VM, 2026-12-05) two runs' cells at 3412 and 3498 MHz, each within 2 % of
 * the reference's 3437, claimed and differed by 3.4 %. At 1.5 % the claims of three trust.sh
 * pairs later that day missed 1 of 243, 2 of 159 and 4 of 267 (3.0-3.8 % apart, every miss
 * one run at 3693 MHz and the other at 3618-3682); judged again from the same CSVs at 0.75 %,
 * 1 of 205, 0 of 107 and 0 of 234, run 1 claiming 227, 316 and 378 of 450 cells instead of
 * 252, 365 and 406 (chosen on those runs). The pair after it (the independent check) missed
 * 2 of 366, both at equal clocks (3693 and 3692/3693 MHz, 3.4 and 3.6 % apart): the misses
 * that remain are not the clock's. */
#define STATS_CLOCK_REF_PCT 0.75
/* What the absolute claim promises: another run's MB/s within this. Where the last saved run
 * made the same claim for the same cell and code (result.last_mb_per_s) and the two differ by
 * more, the machine did not keep the promise (run says so under its table). */
#define STATS_ABSOLUTE_REPEAT_PCT 3.0
/* A figure claims again only within this of the last saved run's claimed one: half the
 * promise, so that any two runs that claimed beside the same reference are within the whole
 * of it of each other by construction, not by chance. At the whole 3 % the runs 1 and 2 of
 * four trust.sh sets (Zen 5 VM, 2026-12-05, both beside one run 0) missed 1 of 243, 2 of 159,
 * 4 of 267 and 2 of 366 cells claimed in both; at 1.5 % (the same CSVs filtered) 0 of 211,
 * 0 of 122, 2 of 221 and 0 of 335, the two left being cells run 0 made no claim for (judged by
 * their clocks alone: 3693 and 3642 MHz, which the 0.75 % clock rule now refuses); run 1's
 * claims went from 252, 365, 406 and 400 of 450 to 228, 317, 376 and 383. */
#define STATS_ABSOLUTE_KEPT_PCT (STATS_ABSOLUTE_REPEAT_PCT / 2)
#define STATS_CLOCK_TOL 0.05    /* a clock that moved more than this is disturbed */
/* The vector probe's own tolerance; 0 = it is reported (result.vector_rate), never used to
 * call a sample disturbed. Measured on the Zen 3 VM, idle, 400 back-to-back probes of
 * 20 us: 5903..12551 M adds/s, 13-58 % of consecutive pairs more than 5 % apart, while the
 * scalar probe stayed within 3.4-4.9 %: the probe's own jitter (vector units waking, a
 * VM's scheduling) is larger than the slowdowns it would catch. Interleaving the compared
 * cells' rounds (session_run.c) is what protects the comparison from a vector slowdown. */
#define STATS_VECTOR_TOL 0.0
/* The slow-phase rule's tolerance. The load probe's own jitter on the Zen 5 VM in a calm
 * spell: 32 single readings of a worker within 6 % (12074..12805); in a slow phase it read
 * 10-45 % lower, as did the crypto code, unevenly (portable sha256 61 %, OpenSSL's SHA-NI code
 * 20 %: the ratio between them moved 35 %). Phases last longer than a cell's visit, so the
 * reference is the run's (engine.c), not the worker's median. On the Emerald Rapids VM
 * (2026-12-03, probes_bench's rule table on single turns, its reference the whole run's 90th
 * percentile rather than the engine's ring, in the slow mode when calm is rare) calm readings
 * sat within 1 % (3.94..3.97) and the rule retook 2.5 % of calm turns and caught 80 % of slow
 * ones with the host calm half the time; with it calm 2-6 % of the time, 4.7-10.1 % and
 * 82-86 %. Tolerances from 0.05 to 0.20 differ little in the first and 0.20 catches a third
 * fewer in the second: 0.10 stays. */
#define STATS_LOAD_TOL 0.10
#define STATS_CLOCK_MEDIAN_MIN 3 /* samples before "vs the median clock" applies */
/* A descheduled sample is disturbed when it also spent more than this share of its window
 * off the CPU (wall - CPU time): a kernel thread that preempts for 40 us moves a 40 ms
 * sample by 0.1 %, and with samples of a second some such switch happens on most of them
 * even on an idle machine. 0 gives the strict rule: any involuntary switch disturbs. */
#define STATS_OFFCPU_PCT 0.5
/* -t N: a round whose windows overlapped less than this (% of their union) is disturbed. */
#define STATS_OVERLAP_MIN_PCT 90.0

/* Why a sample or round is disturbed: a mask, 0 = undisturbed, a bit per reason of result.h
 * (RESULT_RETAKEN_REASONS, in its order). stats_disturbed gives the first five:
 *   STATS_DESCHEDULED  involuntary context switch costing > STATS_OFFCPU_PCT
 *   STATS_STOLEN       the hypervisor stole time from its CPU
 *   STATS_CLOCK_MOVED  a probe (clock or vector rate) after differs from before by > 5 %
 *   STATS_CLOCK_OFF    a probe is more than 5 % off the worker's median
 *   STATS_SLOW_PHASE   the load probe read more than STATS_LOAD_TOL below the run's usual
 *                      rate (lref), before or after: the host slowed the memory path, and
 *                      code by how much it uses it
 * and the round's rules the rest (one worker: beside busy programs (stats_shared), moved to
 * another CPU; -t N: windows overlapping under STATS_OVERLAP_MIN_PCT). */
enum {
#define STATS_X(name, key, words) STATS_##name = 1u << RESULT_RETAKEN_##name,
    RESULT_RETAKEN_REASONS(STATS_X)
#undef STATS_X
};
/* A round is disturbed when any of its samples is, or (-t N) when its workers' windows
 * overlapped less than STATS_OVERLAP_MIN_PCT. */

/* The sample's clock, the mean of its two probes (scalar MHz, or the vector rate when vec);
 * 0 = none. */
double stats_sample_mhz(const struct stats_sample *s, int vec);

/* Programs ran beside a one-worker sample most of the time: more than half of the other
 * CPUs' ticks during it were user time. Co-runners on the other vCPUs slow some code more
 * than other code (on a VM whose vCPUs are a host core's SMT siblings they share its units):
 * with two busy loops beside it, md5 at 16 B moved from 0.65x to 0.52x of portable C with no
 * deschedule, steal or clock move in its rounds (tests/bench/trust.sh). User time only: the
 * kernel's own helpers for the sample's work (an async crypto driver's threads, interrupts)
 * run in system time on other CPUs, and are part of what the kernel path costs. A tick is
 * 10 ms, so a sample sees one or two: one busy tick of two is not enough, two of two or one
 * of one is; a round of half its window beside a co-runner can pass. The whole cell is
 * judged too (stats_summarize), for samples shorter than a tick. Not for -t N, whose other
 * CPUs run the cell's own workers. For one worker, a sample that moved to another CPU is
 * disturbed as well: it lost its warmed caches, and beside a co-runner the scheduler moves
 * it most. The worker's SMT siblings (the other hardware threads of its core) are judged on
 * their own by the same rule: one busy sibling among 63 idle CPUs leaves the average far
 * below half, yet it shares the core's execution units with the sample. */
int stats_shared(const struct stats_sample *s);

/* The sample's load-probe figure (clock.h): the lower of its two readings, each per MHz of
 * the clock probe taken with it where both have one, so that a clock that drops (a governor,
 * an AVX-512 licence) moves it no more than it moves the code; 0 = no probe. */
double stats_sample_load(const struct stats_sample *s);

/* One reading's figure, as stats_sample_load makes it: lrate per MHz where mhz > 0. */
double stats_load_figure(double lrate, double mhz);

/* A load figure more than STATS_LOAD_TOL under the usual one ref (0: no rule). */
int stats_load_slow(double figure, double ref);

/* The share (0..1) of n load figures more than STATS_LOAD_TOL under their 99th percentile:
 * the time the memory path spent in slow spells, with the top of the calm readings as the
 * usual figure (noise.c's look before a run). 0 for n < 100: too few to tell a spell from a
 * probe's jitter. */
double stats_load_slow_share(const double *fig, int n);

/* The disturbance mask of one sample. median_mhz / median_vrate: the median probes of the
 * worker's samples (0: not known yet, the vs-median rule is not applied). */
unsigned stats_disturbed(const struct stats_sample *s, double median_mhz, double median_vrate);

/* The median of n values (n >= 1; v is not changed). */
double stats_median(const double *v, int n);

/* The distribution-free 95 % confidence interval of the median by order statistics
 * (Conover, Practical Nonparametric Statistics, 3rd ed. 1999, sec. 3.2): with the n values
 * sorted, [x(r), x(n-r+1)] covers the population median with probability
 * 1 - 2 P(B <= r-1), B ~ Binomial(n, 1/2); r is the largest rank that keeps this >= 95 %.
 * For n < 6 no rank does (n = 5 gives 93.75 % for min..max): the interval is min..max.
 * Returns r (1-based; 1 means min..max). */
int stats_median_ci(const double *v, int n, double *lo, double *hi);

/* Overlap of n windows [t0, t1): the time all ran at once (*all) and the time at least one
 * ran (*any), in ns. */
void stats_overlap(const uint64_t *t0, const uint64_t *t1, int n, double *all, double *any);

/* The figures of a cell from its complete rounds: s[w] holds worker w's samples, rounds of
 * them each. Fills r's figures (mb_per_s .. thread_mb, rounds .. overlap_pct) and keeps its
 * status, reasons and names. A round is left out when disturbed (above). overlap_pct is
 * over every round, disturbed or not: how well the barrier held.
 * With all_if_none, when every round is disturbed the figures come from all of them and the
 * quality is noisy (r->rounds stays 0): the unpaced engine's fallback, as before. */
void stats_summarize(const struct stats_sample *const *s, int workers, int rounds,
                     const char *cycle_clock, int all_if_none, struct result *r);

/* The rounds themselves can carry a comparison: enough undisturbed ones, most of the rounds
 * taken, not run beside busy programs (result.corun) nor in a slow phase of the host
 * (result.slow_phase), and its two worker processes read the same (result.process_apart).
 * A paired ratio whose interval is narrow is still no claim when one side's rounds were
 * mostly retaken or co-run: what disturbed them (a co-runner, a throttling clock) moves
 * different code by different amounts, and the pairs that remain are the few it spared, or
 * none it spared. */
int stats_rounds_trusted(const struct result *r);

/* Two estimates of one speed-up: the paired ratio (the median of the rounds' ratios, a's to
 * b's, derive_paired) and the ratio of the two figures shown (each cell's median over its
 * own kept rounds, a_mb / b_mb). While both cells take rounds in turn they differ by about
 * the pairs' spread at most; they part when one went on after the other stopped (the slowest
 * goes on while another cell's ratio or its own median is unsettled) and its code changed
 * speed meanwhile: the pairs cover the shared rounds, its figure all of them. On the Zen 5
 * VM (family 0x1a) of 2026-12-05, OpenSSL's integer SHA-1 at 16 B ran at 139 or 160 MB/s in
 * spells that portable C's did not share; a default run paired portable's 6 rounds with the
 * slowest's slow spell and drew x1.83 over bars 1.59 apart, both "quiet" (x1.63 in the run
 * before). The xN is then noisy (derive.c): the bars would contradict it. Not a stop rule:
 * rounds taken after a partner stopped have nothing to pair with, so sampling on cannot mend
 * it. With -t N a figure sums the workers' medians and a round their sum: a gap between
 * those is one the bars show too. 1 when the two agree within STATS_PAIR_AGREE_PCT %, or
 * there is nothing to compare (a figure <= 0). */
#define STATS_PAIR_AGREE_PCT 3.0
int stats_pair_agrees(double paired, double a_mb, double b_mb);

/* Two worker processes took a cell's rounds in turn (engine.h job.alternate), so a drift of
 * the machine hits both alike: a figure is the machine's only if both processes show it. On
 * the Zen 5 VM (family 0x1a) of 2026-12-05 some code ran at one of two speeds for a whole
 * process: `openssl speed -bytes 16 -evp sha1` integer-only read 125 or 79 MB/s from one
 * process to the next, and two default runs read direct-vaes512 aes-128-ctr at 16 B 1931 and
 * 1670 MB/s, each within +-1.5 % (tests/bench/processes.sh). 1 when the larger of the two
 * medians, a_mb and b_mb, exceeds the smaller by more than STATS_PROCESS_APART_PCT % and
 * than both intervals together (a_ci_pct, b_ci_pct: half-widths in % of each median) allow;
 * 0 otherwise or when there is nothing to compare. The cell is then noisy, and so is any xN
 * made from it. 3 %: what two runs' figures may differ by (issue 16's repeatability). Two
 * processes catch a host that gives a process one of two speeds at random half the time: a
 * cell both of whose processes drew the same speed still reads quiet. */
#define STATS_PROCESS_APART_PCT 3.0
int stats_process_apart(double a_mb, double a_ci_pct, double b_mb, double b_ci_pct);

/* A turbulent spell: the machine kept changing under a column while it was measured, so
 * the disturbance rules (above) retook at least STATS_SPELL_PCT % of the rounds of the
 * column's cells together. The rounds kept then passed every check and still need not
 * compare as they do in calm: a spell moves different code by different amounts, and only
 * part of it trips a check. On the Intel Xeon VM (family 6 model 0xa7) of 2026-12-03, two
 * pairs of quiet default runs (tests/bench/trust.sh) agreed within 3 % on 94 % of their
 * quiet speed-ups over portable C, each run's intervals under +-2 %; leaving out the columns
 * that either run measured with 25 % of rounds retaken (4 to 22 % of a run's columns) left
 * 98.6 % and 98.8 % agreeing (30 %: 98.6 % and 95.9 %). A column needs
 * STATS_SPELL_MIN_ROUNDS rounds taken before its share says anything.
 * Rounds retaken for the slow memory path alone count too. Leaving them out was tried on the
 * Zen 4 VM (family 25 model 17, 2026-12-04, slow 43 % of the time, where every spell of five
 * default runs came from them, recounted from the CSVs): in two runs of a build that did, the
 * speed-ups quiet in both agreed within 3 % on 82 % (59 of 72) in the columns with a quarter
 * of their rounds retaken, on 94 % (161 of 171) in the others; recounted from the CSVs of
 * four runs with the rule, 90 % against 94 %. It made 77-84 % of speed-ups quiet instead of 28-61 % (97 % in a calm
 * stretch either way): the quiet share it would buy is bought with figures that repeat less. */
#define STATS_SPELL_PCT 25.0
#define STATS_SPELL_MIN_ROUNDS 10
/* The share of the rounds the n results took together that were retaken, in % (0 under
 * STATS_SPELL_MIN_ROUNDS), and whether that makes a spell. NULL entries are skipped. */
double stats_retaken_pct(const struct result *const rs[], size_t n);
int stats_spell(const struct result *const rs[], size_t n);

/* The scheduler's question after a round: r->rounds >= STATS_MIN_SAMPLES and
 * r->ci_pct <= STATS_ENOUGH_CI_PCT. */
int stats_enough(const struct result *r);

/* A run's retaken rounds, summed over its measured (RES_OK) cells, for `run`'s line under
 * its table and the TUI's status when a run ends: one sum and one text for both. */
struct stats_retaken {
    long rounds;                      /* rounds taken, kept and retaken */
    long retaken;                     /* of them retaken (result.disturbed) */
    long why[RESULT_RETAKEN_COUNT];   /* by reason (a round may have several) */
};
void stats_retaken_add(struct stats_retaken *t, const struct result *r);
/* The commonest reason (RESULT_RETAKEN_*), -1 when none. */
int stats_retaken_top(const struct stats_retaken *t);
/* The retaken share in % as people read it: "13", "<1" for a few (never "0" of some). */
const char *stats_retaken_share(const struct stats_retaken *t, char *buf, size_t n);
/* "758 of 5885 rounds retaken (13 %): 482 descheduled, 267 host slowing ..." with at most
 * max_reasons reasons, commonest first ("..." when more); "" when none was retaken. */
const char *stats_retaken_text(const struct stats_retaken *t, int max_reasons, char *buf,
                               size_t n);

/* enum result_quality from undisturbed and disturbed rounds and the interval. */
int stats_quality(int rounds, int disturbed, double ci_pct);
/* 1 when r's absolute figure is claimed repeatable (STATS_ABSOLUTE_CI_PCT): quiet, its
 * interval within that, its clock within STATS_CLOCK_REF_PCT of the last saved run's and
 * its MB/s within STATS_ABSOLUTE_KEPT_PCT of that run's claimed figure, where known. */
int stats_absolute_quiet(const struct result *r);
/* r's clock in % above (+) or below (-) the last saved run's; 0 when either is unknown. */
double stats_clock_ref_pct(const struct result *r);
/* r's MB/s in % above or below the last saved run's claimed figure; 0 when there is none. */
double stats_last_pct(const struct result *r);

/* 1 when the 95 % intervals of two figures overlap: neither is faster than the other. 0 when
 * either has no interval. */
int stats_tie(const struct result *a, const struct result *b);

#endif
