/* The statistics of a measurement cell (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, int n)
{
    double *s = malloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    if (!s)
        abort();
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return s;
}

double stats_median(const double *v, int n)
{
    if (n < 1)
        return 0;
    double *s = sorted_copy(v, n);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

/* P(B <= k) for B ~ Binomial(n, 1/2), summed in log space so no term underflows. */
static double binom_half_cdf(int n, int k)
{
    double p = 0;
    for (int i = 0; i <= k; i++)
        p += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
    return p;
}

int stats_median_ci(const double *v, int n, double *lo, double *hi)
{
    *lo = *hi = 0;
    if (n < 1)
        return 0;
    double *s = sorted_copy(v, n);
    int r = 1;
    /* Coverage 1 - 2 P(B <= r-1) >= 0.95: the largest such r. */
    while (r + 1 <= (n + 1) / 2 && binom_half_cdf(n, r) <= 0.025)
        r++;
    *lo = s[r - 1];
    *hi = s[n - r];
    free(s);
    return r;
}

double stats_sample_mhz(const struct stats_sample *s, int vec)
{
    double a = vec ? s->vrate0 : s->mhz0, b = vec ? s->vrate1 : s->mhz1;
    return a > 0 && b > 0 ? (a + b) / 2 : 0;
}

/* 1 when x is more than tol away from ref (relative to ref); tol 0: never. */
static int off_by(double x, double ref, double tol)
{
    return tol > 0 && ref > 0 && x > 0 && fabs(x - ref) > tol * ref;
}

/* 1 when x is more than STATS_CLOCK_TOL away from ref (relative to ref). */
static int off(double x, double ref)
{
    return ref > 0 && x > 0 && fabs(x - ref) > STATS_CLOCK_TOL * ref;
}

double stats_load_figure(double lrate, double mhz)
{
    return lrate <= 0 ? 0 : mhz > 0 ? lrate / mhz : lrate;
}

double stats_sample_load(const struct stats_sample *s)
{
    if (s->lrate0 <= 0 || s->lrate1 <= 0)
        return 0;
    if (s->mhz0 > 0 && s->mhz1 > 0)
        return fmin(stats_load_figure(s->lrate0, s->mhz0), stats_load_figure(s->lrate1, s->mhz1));
    return fmin(s->lrate0, s->lrate1);
}

int stats_load_slow(double figure, double ref)
{
    return ref > 0 && figure > 0 && figure < ref * (1 - STATS_LOAD_TOL);
}

double stats_load_slow_share(const double *fig, int n)
{
    if (n < 100)
        return 0;
    double *s = sorted_copy(fig, n), top = s[n * 99 / 100];
    int slow = 0;
    for (int i = 0; i < n; i++)
        slow += stats_load_slow(fig[i], top);
    free(s);
    return (double)slow / n;
}

unsigned stats_disturbed(const struct stats_sample *s, double median_mhz, double median_vrate)
{
    unsigned why = 0;
    double offcpu = s->wall_ns > s->cpu_ns ? (double)(s->wall_ns - s->cpu_ns) : 0;
    if (s->nivcsw > 0 && offcpu > STATS_OFFCPU_PCT / 100 * (double)s->wall_ns)
        why |= STATS_DESCHEDULED;
    if (s->steal > 0)
        why |= STATS_STOLEN;
    /* Moved: relative to the slower of the two probes, so the rule is symmetric. */
    double lo = fmin(s->mhz0, s->mhz1), vlo = fmin(s->vrate0, s->vrate1);
    if (off(fmax(s->mhz0, s->mhz1), lo) ||
        off_by(fmax(s->vrate0, s->vrate1), vlo, STATS_VECTOR_TOL))
        why |= STATS_CLOCK_MOVED;
    if (off(stats_sample_mhz(s, 0), median_mhz) ||
        off_by(stats_sample_mhz(s, 1), median_vrate, STATS_VECTOR_TOL))
        why |= STATS_CLOCK_OFF;
    if (stats_load_slow(stats_sample_load(s), s->lref))
        why |= STATS_SLOW_PHASE;
    return why;
}

static int mostly_busy(long long user, long long ticks)
{
    return ticks > 0 && user >= 0 && 2 * user > ticks;
}

int stats_shared(const struct stats_sample *s)
{
    return mostly_busy(s->others_user, s->others_ticks) || mostly_busy(s->sib_user, s->sib_ticks);
}

/* One worker: its samples, summed, ran beside programs on the other CPUs (or on its core's
 * siblings) most of the time (stats_shared over the whole cell: it also sees samples shorter
 * than a tick). */
static int cell_shared(const struct stats_sample *s, int rounds)
{
    struct stats_sample sum = { .others_user = 0, .others_ticks = 0, .sib_user = 0,
                                .sib_ticks = 0 };
    for (int i = 0; i < rounds; i++) {
        if (s[i].others_ticks >= 0 && s[i].others_user >= 0) {
            sum.others_user += s[i].others_user;
            sum.others_ticks += s[i].others_ticks;
        }
        if (s[i].sib_ticks >= 0 && s[i].sib_user >= 0) {
            sum.sib_user += s[i].sib_user;
            sum.sib_ticks += s[i].sib_ticks;
        }
    }
    return stats_shared(&sum);
}

void stats_overlap(const uint64_t *t0, const uint64_t *t1, int n, double *all, double *any)
{
    *all = *any = 0;
    if (n < 1)
        return;
    uint64_t first = t0[0], last = t1[0], lstart = t0[0], fend = t1[0];
    for (int i = 1; i < n; i++) {
        first = t0[i] < first ? t0[i] : first;
        last = t1[i] > last ? t1[i] : last;
        lstart = t0[i] > lstart ? t0[i] : lstart;
        fend = t1[i] < fend ? t1[i] : fend;
    }
    /* The union of windows with a gap between them is still counted whole: the gap is time
     * the cell's figure claims but not all workers ran, which is the point. */
    *any = (double)(last - first);
    *all = fend > lstart ? (double)(fend - lstart) : 0;
}

/* Each worker's median clock over all its samples (scalar, or vector when vec), or 0 while
 * there are fewer than STATS_CLOCK_MEDIAN_MIN: with two samples that differ, both would be
 * "off" their mean. */
static double median_clock(const struct stats_sample *s, int rounds, int vec)
{
    double *v = malloc((size_t)(rounds > 0 ? rounds : 1) * sizeof *v);
    int k = 0;
    if (!v)
        abort();
    for (int i = 0; i < rounds; i++)
        if (stats_sample_mhz(&s[i], vec) > 0)
            v[k++] = stats_sample_mhz(&s[i], vec);
    double m = k >= STATS_CLOCK_MEDIAN_MIN ? stats_median(v, k) : 0;
    free(v);
    return m;
}

/* The windows of round i: the time all workers ran and the time any did. */
static void round_overlap(const struct stats_sample *const *s, int workers, int i, double *all,
                          double *any)
{
    uint64_t t0[RESULT_MAX_THREADS], t1[RESULT_MAX_THREADS];
    int n = workers < RESULT_MAX_THREADS ? workers : RESULT_MAX_THREADS;
    for (int w = 0; w < n; w++) {
        t0[w] = s[w][i].t0;
        t1[w] = s[w][i].t1;
    }
    stats_overlap(t0, t1, n, all, any);
}

static const char *const retaken_key[] = {
#define STATS_X(name, key, words) key,
    RESULT_RETAKEN_REASONS(STATS_X)
#undef STATS_X
};
static const char *const retaken_words[] = {
#define STATS_X(name, key, words) words,
    RESULT_RETAKEN_REASONS(STATS_X)
#undef STATS_X
};

const char *result_retaken_key(int why)
{
    return why >= 0 && why < RESULT_RETAKEN_COUNT ? retaken_key[why] : NULL;
}

const char *result_retaken_words(int why)
{
    return why >= 0 && why < RESULT_RETAKEN_COUNT ? retaken_words[why] : NULL;
}

void stats_retaken_add(struct stats_retaken *t, const struct result *r)
{
    if (r->status != RES_OK) /* as the CSV: a failed cell's rounds are no figure */
        return;
    t->rounds += r->rounds + r->disturbed;
    t->retaken += r->disturbed;
    for (int k = 0; k < RESULT_RETAKEN_COUNT; k++)
        t->why[k] += r->retaken[k];
}

int stats_retaken_top(const struct stats_retaken *t)
{
    int top = -1;
    for (int i = 0; i < RESULT_RETAKEN_COUNT; i++)
        if (t->why[i] > 0 && (top < 0 || t->why[i] > t->why[top]))
            top = i;
    return top;
}

const char *stats_retaken_share(const struct stats_retaken *t, char *buf, size_t n)
{
    double pct = t->rounds > 0 ? 100.0 * (double)t->retaken / (double)t->rounds : 0;
    snprintf(buf, n, pct > 0 && pct < 0.5 ? "<1" : "%.0f", pct); /* never "0 %" of some */
    return buf;
}

const char *stats_retaken_text(const struct stats_retaken *t, int max_reasons, char *buf,
                               size_t n)
{
    struct stats_retaken left = *t; /* each reason said is taken out of it */
    if (!n)
        return buf;
    buf[0] = 0;
    if (!t->retaken)
        return buf;
    char pct[16];
    size_t k = (size_t)snprintf(buf, n, "%ld of %ld rounds retaken (%s %%)", t->retaken,
                                t->rounds, stats_retaken_share(t, pct, sizeof pct));
    for (int said = 0, top; k < n && (top = stats_retaken_top(&left)) >= 0; said++) {
        if (said == max_reasons) {
            snprintf(buf + k, n - k, ", ...");
            break;
        }
        k += (size_t)snprintf(buf + k, n - k, "%s%ld %s", said ? ", " : ": ", left.why[top],
                              result_retaken_words(top));
        left.why[top] = 0;
    }
    return buf;
}

/* Each round's reasons in bad[] (its mask, 0 = kept: one byte holds every reason), counted
 * by reason in why[]; returns how many rounds are disturbed. */
_Static_assert(RESULT_RETAKEN_COUNT <= 8, "a round's reasons fit in one byte of bad[]");
static int mark_rounds(const struct stats_sample *const *s, int workers, int rounds,
                       unsigned char *bad, int why[RESULT_RETAKEN_COUNT])
{
    memset(bad, 0, (size_t)rounds);
    for (int w = 0; w < workers; w++) {
        double m = median_clock(s[w], rounds, 0), vm = median_clock(s[w], rounds, 1);
        for (int i = 0; i < rounds; i++) {
            bad[i] |= (unsigned char)stats_disturbed(&s[w][i], m, vm);
            if (workers == 1 && stats_shared(&s[w][i]))
                bad[i] |= STATS_BUSY_BESIDE;
            if (workers == 1 && s[w][i].moved)
                bad[i] |= STATS_MOVED_CPU;
        }
    }
    /* -t N: a round whose workers did not run together (one woke late for its window)
     * measured something else than N at once. */
    for (int i = 0; workers > 1 && i < rounds; i++) {
        double all, any;
        round_overlap(s, workers, i, &all, &any);
        if (all < STATS_OVERLAP_MIN_PCT / 100 * any)
            bad[i] |= STATS_APART;
    }
    int n = 0;
    memset(why, 0, RESULT_RETAKEN_COUNT * sizeof *why);
    for (int i = 0; i < rounds; i++) {
        n += bad[i] != 0;
        for (int k = 0; k < RESULT_RETAKEN_COUNT; k++)
            why[k] += (bad[i] >> k) & 1;
    }
    return n;
}

/* One worker's figures over the good rounds: median, interval, extremes. */
static void worker_figures(const struct stats_sample *s, int rounds, const unsigned char *bad,
                           double *v, double out[5])
{
    int k = 0;
    for (int i = 0; i < rounds; i++)
        if (!bad[i] && s[i].wall_ns)
            v[k++] = (double)s[i].bytes / ((double)s[i].wall_ns / 1e9) / 1e6;
    memset(out, 0, 5 * sizeof *out);
    if (!k)
        return;
    out[0] = stats_median(v, k);
    stats_median_ci(v, k, &out[1], &out[2]);
    double *sorted = sorted_copy(v, k);
    out[3] = sorted[0];
    out[4] = sorted[k - 1];
    free(sorted);
}

/* The wall time of every round taken, good or not: the time the cell spent measuring. */
static double all_wall(const struct stats_sample *const *s, int workers, int rounds)
{
    double wall = 0;
    for (int w = 0; w < workers; w++)
        for (int i = 0; i < rounds; i++)
            wall += (double)s[w][i].wall_ns;
    return wall;
}

/* Totals over the good samples and the median clocks. */
static void totals(const struct stats_sample *const *s, int workers, int rounds,
                   const unsigned char *bad, const char *cycle_clock, struct result *r)
{
    uint64_t ops = 0, bytes = 0, cyc = 0;
    double wall = 0, cpu = 0;
    int k = 0, kv = 0;
    double *mhz = malloc((size_t)(rounds * workers + 1) * sizeof *mhz);
    double *vrate = malloc((size_t)(rounds * workers + 1) * sizeof *vrate);
    double *lrate = malloc((size_t)(rounds * workers + 1) * sizeof *lrate);
    int kl = 0;
    if (!mhz || !vrate || !lrate)
        abort();
    for (int i = 0; i < rounds; i++) {
        if (bad[i])
            continue;
        for (int w = 0; w < workers; w++) {
            const struct stats_sample *x = &s[w][i];
            ops += x->ops;
            bytes += x->bytes;
            cyc += x->cycles;
            wall += (double)x->wall_ns;
            cpu += (double)x->cpu_ns;
            if (stats_sample_mhz(x, 0) > 0)
                mhz[k++] = stats_sample_mhz(x, 0);
            if (stats_sample_mhz(x, 1) > 0)
                vrate[kv++] = stats_sample_mhz(x, 1);
            double load = stats_sample_load(x);
            if (load > 0)
                lrate[kl++] = load;
        }
    }
    r->ops = ops;
    r->bytes = bytes;
    r->seconds = workers ? all_wall(s, workers, rounds) / 1e9 / workers : 0;
    r->cpu_util = wall > 0 ? cpu / wall : 0;
    r->cycles_per_byte = bytes && strcmp(cycle_clock, "none") ? (double)cyc / (double)bytes : 0;
    r->clock_mhz = k ? stats_median(mhz, k) : 0;
    r->vector_rate = kv ? stats_median(vrate, kv) : 0;
    r->load_rate = kl ? stats_median(lrate, kl) : 0;
    free(mhz);
    free(vrate);
    free(lrate);
}

/* How well the barrier held, over every round taken, disturbed or not. */
static double overlap_pct(const struct stats_sample *const *s, int workers, int rounds)
{
    double all = 0, any = 0;
    for (int i = 0; i < rounds; i++) {
        double a, b;
        round_overlap(s, workers, i, &a, &b);
        all += a;
        any += b;
    }
    return any > 0 ? 100 * all / any : 0;
}

/* Each round's figure for pairing (result.h round_mb): bytes over wall time per worker,
 * summed over the workers; 0 where the round is left out. */
static void round_figures(const struct stats_sample *const *s, int workers, int rounds,
                          const unsigned char *bad, struct result *r)
{
    r->nround = rounds < RESULT_MAX_ROUNDS ? rounds : RESULT_MAX_ROUNDS;
    for (int k = 0; k < r->nround; k++) {
        double mb = 0;
        for (int w = 0; w < workers && !bad[k]; w++)
            if (s[w][k].wall_ns)
                mb += (double)s[w][k].bytes / (double)s[w][k].wall_ns * 1e3;
        r->round_mb[k] = bad[k] ? 0.0f : (float)mb;
    }
}

void stats_summarize(const struct stats_sample *const *s, int workers, int rounds,
                     const char *cycle_clock, int all_if_none, struct result *r)
{
    unsigned char *bad = malloc((size_t)(rounds > 0 ? rounds : 1));
    double *v = malloc((size_t)(rounds > 0 ? rounds : 1) * sizeof *v);
    if (!bad || !v)
        abort();
    r->disturbed = mark_rounds(s, workers, rounds, bad, r->retaken);
    r->rounds = rounds - r->disturbed;
    int fallback = all_if_none && rounds > 0 && r->rounds == 0;
    if (fallback)
        memset(bad, 0, (size_t)rounds);
    r->samples = (fallback ? rounds : r->rounds) * workers;
    double sum = 0, lo = 0, hi = 0, cilo = 0, cihi = 0;
    for (int w = 0; w < workers; w++) {
        double f[5];
        worker_figures(s[w], rounds, bad, v, f);
        if (w < RESULT_MAX_THREADS)
            r->thread_mb[w] = f[0];
        sum += f[0];
        cilo += f[1];
        cihi += f[2];
        lo += f[3];
        hi += f[4];
    }
    /* -t N: the sum of the workers' intervals is wider than the interval of the sum, so a
     * cell of several workers claims no more precision than it has. */
    r->mb_per_s = sum;
    r->mb_min = lo;
    r->mb_max = hi;
    r->ci_lo = cilo;
    r->ci_hi = cihi;
    r->spread_pct = sum > 0 ? (hi - lo) / (2 * sum) * 100 : 0;
    r->ci_pct = sum > 0 ? (cihi - cilo) / (2 * sum) * 100 : 0;
    totals(s, workers, rounds, bad, cycle_clock, r);
    r->overlap_pct = overlap_pct(s, workers, rounds);
    round_figures(s, workers, rounds, bad, r);
    r->corun = r->rounds && workers == 1 && cell_shared(s[0], rounds);
    /* the run's usual rate as the engine knew it at the last round: it has seen the most */
    double lref = rounds > 0 && workers > 0 ? s[0][rounds - 1].lref : 0;
    r->slow_phase = r->rounds && stats_load_slow(r->load_rate, lref);
    r->quality = fallback || r->corun || r->slow_phase ? RESULT_NOISY
                 : r->rounds ? stats_quality(r->rounds, r->disturbed, r->ci_pct) : RESULT_UNRATED;
    free(bad);
    free(v);
}

int stats_enough(const struct result *r)
{
    return r->rounds >= STATS_MIN_SAMPLES && r->ci_pct <= STATS_ENOUGH_CI_PCT;
}

/* Enough undisturbed rounds, and most of those taken: fewer than STATS_MIN_SAMPLES and
 * min..max is no 95 % interval (two samples cover the median half the time); mostly retaken
 * and the rounds kept are the few the disturbance spared. */
static int rounds_carry(int rounds, int disturbed)
{
    return rounds >= STATS_MIN_SAMPLES && disturbed <= rounds;
}

int stats_quality(int rounds, int disturbed, double ci_pct)
{
    return rounds_carry(rounds, disturbed) && ci_pct <= STATS_NOISY_CI_PCT ? RESULT_QUIET
                                                                           : RESULT_NOISY;
}

double stats_clock_ref_pct(const struct result *r)
{
    return r->clock_mhz > 0 && r->clock_ref_mhz > 0 ? (r->clock_mhz / r->clock_ref_mhz - 1) * 100
                                                    : 0;
}

double stats_last_pct(const struct result *r)
{
    return r->mb_per_s > 0 && r->last_mb_per_s > 0 ? (r->mb_per_s / r->last_mb_per_s - 1) * 100
                                                   : 0;
}

int stats_absolute_quiet(const struct result *r)
{
    return r->status == RES_OK && r->quality == RESULT_QUIET && r->ci_hi > 0 &&
           r->ci_pct <= STATS_ABSOLUTE_CI_PCT &&
           fabs(stats_clock_ref_pct(r)) <= STATS_CLOCK_REF_PCT &&
           fabs(stats_last_pct(r)) <= STATS_ABSOLUTE_KEPT_PCT;
}

int stats_rounds_trusted(const struct result *r)
{
    return rounds_carry(r->rounds, r->disturbed) && !r->corun && !r->slow_phase &&
           !r->process_apart;
}

int stats_pair_agrees(double paired, double a_mb, double b_mb)
{
    if (!(paired > 0) || !(a_mb > 0) || !(b_mb > 0))
        return 1;
    return fabs(paired / (a_mb / b_mb) - 1) <= STATS_PAIR_AGREE_PCT / 100;
}

int stats_process_apart(double a_mb, double a_ci_pct, double b_mb, double b_ci_pct)
{
    if (!(a_mb > 0) || !(b_mb > 0))
        return 0;
    double tol = a_ci_pct + b_ci_pct;
    if (tol < STATS_PROCESS_APART_PCT)
        tol = STATS_PROCESS_APART_PCT;
    return (fmax(a_mb, b_mb) / fmin(a_mb, b_mb) - 1) * 100 > tol;
}

double stats_retaken_pct(const struct result *const rs[], size_t n)
{
    long kept = 0, retaken = 0;
    for (size_t i = 0; i < n; i++)
        if (rs[i]) {
            kept += rs[i]->rounds > 0 ? rs[i]->rounds : 0;
            retaken += rs[i]->disturbed > 0 ? rs[i]->disturbed : 0;
        }
    if (kept + retaken < STATS_SPELL_MIN_ROUNDS)
        return 0;
    return 100.0 * (double)retaken / (double)(kept + retaken);
}

int stats_spell(const struct result *const rs[], size_t n)
{
    return stats_retaken_pct(rs, n) >= STATS_SPELL_PCT;
}

int stats_tie(const struct result *a, const struct result *b)
{
    if (a->ci_hi <= 0 || b->ci_hi <= 0)
        return 0;
    return a->ci_lo <= b->ci_hi && b->ci_lo <= a->ci_hi;
}
