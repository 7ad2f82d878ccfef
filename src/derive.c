/* Derived figures (cell.h's struct cell_derived): what the charts, the matrix and the table
 * say about a cell relative to the others of its column. */
#include "derive.h"

#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "osslcap.h"
#include "stats.h"

#define DERIVE_COLUMN_MAX 256 /* cells of a column the spell rule reads (a registry's worth) */

static int verified(const struct cell *c)
{
    return c->r.status == RES_OK && c->r.mb_per_s > 0;
}

/* Takes part in the column's comparison: verified, not a second bar for code another row
 * ran, not an engine row whose work libcrypto's software did (its figure is not its path's). */
static int compared(const struct cell *c)
{
    return verified(c) && !c->d.same_as && result_comparable(&c->r);
}

/* The rounds of one column's cells are taken in turn (session_run.c), so the pair k ran
 * moments apart and the machine's drift cancels out of their ratio. */
int derive_paired(const struct result *a, const struct result *b, double *ratio, double *lo,
                  double *hi)
{
    double v[RESULT_MAX_ROUNDS];
    int n = 0, m = a->nround < b->nround ? a->nround : b->nround;
    if (a->group != b->group)
        return 0;
    for (int k = 0; k < m && k < RESULT_MAX_ROUNDS; k++)
        if (a->round_mb[k] > 0 && b->round_mb[k] > 0)
            v[n++] = (double)a->round_mb[k] / (double)b->round_mb[k];
    if (n < STATS_MIN_SAMPLES)
        return 0;
    *ratio = stats_median(v, n);
    stats_median_ci(v, n, lo, hi);
    return n;
}

/* Two figures the samples cannot tell apart: the paired ratio's interval holds 1; without
 * pairs (a CSV of an older version), their intervals (or sample ranges) overlap. */
static int tie(const struct result *a, const struct result *b)
{
    double q, lo, hi;
    if (derive_paired(a, b, &q, &lo, &hi))
        return lo <= 1.0 && hi >= 1.0;
    if (a->ci_hi > 0 && b->ci_hi > 0)
        return stats_tie(a, b);
    return a->mb_max >= b->mb_min && b->mb_max >= a->mb_min;
}

/* c's speed-up over the column's slowest, and whether the comparison is noisy. */
static void speedup(struct cell *c, const struct cell *slow)
{
    double q, lo, hi;
    if (c == slow) { /* the reference: x1.0 by definition, a claim only if its figure is */
        c->d.speedup = 1.0;
        c->d.noisy = c->r.process_apart; /* one process's figure: no row's xN stands on it */
        return;
    }
    if (derive_paired(&c->r, &slow->r, &q, &lo, &hi)) {
        c->d.speedup = q;
        c->d.speedup_ci_pct = q > 0 ? (hi - lo) / 2 / q * 100 : 0;
        c->d.noisy = c->d.speedup_ci_pct > STATS_NOISY_CI_PCT ||
                     !stats_rounds_trusted(&c->r) || !stats_rounds_trusted(&slow->r) ||
                     !stats_pair_agrees(q, c->r.mb_per_s, slow->r.mb_per_s);
    } else {
        c->d.speedup = c->r.mb_per_s / slow->r.mb_per_s;
        c->d.noisy = c->r.quality == RESULT_NOISY || slow->r.quality == RESULT_NOISY;
    }
}

/* The asm row of OpenSSL's SIMD code (the mask clears only the crypto extensions). */
static const struct cell *simd_row(const struct cell *cells, size_t n, const struct cell *c)
{
    for (size_t i = 0; i < n; i++)
        if (cell_same_column(&cells[i], c) && cells[i].impl->path == PATH_ASM &&
            !strcmp(cells[i].impl->name, algo_sized(algo_find(c->impl->alg)) ? "openssl-simd"
                                                                              : "openssl-int") &&
            verified(&cells[i])) /* public-key ops: the asm row masks the big-number bits */
            return &cells[i];
    return NULL;
}

/* The hardware row of OpenSSL runs exactly the asm-simd row's code when the capability
 * vector its worker ran with enables none of the algorithm's crypto instructions (the CPU
 * lacks them, ACCELSCOPE_DENY or the user's own OPENSSL_ia32cap removed them). */
static void same_code(const struct cell *cells, size_t n, struct cell *c)
{
    const struct algo *a = algo_find(c->impl->alg);
    uint64_t w[2];
    int nw;
    if (!a || c->impl->path != PATH_HW || strcmp(c->impl->backend, "openssl") ||
        strcmp(c->impl->name, "openssl") || !verified(c) || /* not padlock-engine's PadLock */
        !(nw = osslcap_parse(c->r.capvec, w)))
        return;
    const struct cell *simd = simd_row(cells, n, c);
    if (!simd)
        return;
    for (unsigned k = 0; k < a->naccel; k++)
        if (osslcap_has(w, nw, a->accel[k]) == 1)
            return;
    /* and the rest of the vector as the asm row's, but for what its mask cleared: a user's
     * OPENSSL_ia32cap=0 runs no SIMD where the asm-simd row keeps SSSE3 and AVX2 */
    uint64_t ws[2], cleared[2];
    int ns = osslcap_parse(simd->r.capvec, ws);
    osslcap_env_cleared(simd->r.capvec, cleared); /* none said: every bit must match */
    if (ns != nw)
        return;
    for (int k = 0; k < nw; k++)
        if ((w[k] ^ ws[k]) & ~cleared[k])
            return;
    c->d.same_as = simd->impl;
    if (!a->naccel)
        snprintf(c->d.same_why, sizeof c->d.same_why, "no CPU has %s instructions", a->id);
    else
        snprintf(c->d.same_why, sizeof c->d.same_why,
                 "OpenSSL's capability vector enables none of the instructions its %s code "
                 "uses", a->id);
}

/* One column: the cells of [0, n) that share c0's algorithm, size and direction. */
static void derive_column(struct cell *cells, size_t n, size_t c0)
{
    struct cell *slow = NULL;
    for (size_t i = c0; i < n; i++)
        if (cell_same_column(&cells[i], &cells[c0])) {
            struct cell *c = &cells[i];
            c->d = (struct cell_derived){ 0 };
            same_code(cells, n, c);
            if (compared(c) && (!slow || c->r.mb_per_s < slow->r.mb_per_s))
                slow = c;
        }
    if (!slow)
        return;
    /* A spell is the column's, so every comparison in it is noisy: from the results that
     * take part (a crashed row's rounds say nothing of the machine). */
    const struct result *rs[DERIVE_COLUMN_MAX];
    size_t nr = 0;
    for (size_t i = c0; i < n && nr < DERIVE_COLUMN_MAX; i++)
        if (cell_same_column(&cells[i], &cells[c0]) && compared(&cells[i]))
            rs[nr++] = &cells[i].r;
    int spell = stats_spell(rs, nr);
    int others = 0, claims = 0;
    for (size_t i = c0; i < n; i++) {
        struct cell *c = &cells[i];
        if (!cell_same_column(c, &cells[c0]))
            continue;
        c->d.slowest = slow->r.mb_per_s;
        if (!compared(c))
            continue;
        speedup(c, slow);
        c->d.spell = spell;
        c->d.noisy |= spell; /* every row of the column, its slowest too */
        if (c != slow) {
            others++;
            claims += !c->d.noisy;
        }
    }
    /* The reference's x1.0 says "the slowest", which only the other rows' quiet ratios to it
     * support: with none of them quiet it claims nothing either. Under two busy loops (Zen 5
     * VM, trust.sh, 2026-12-05) 71 of 71 rows whose comparison stayed quiet were references
     * of columns whose every other row was noisy, and 12 of them were 1.1-2.5x the slowest
     * on the quiet machine (aes-256-ctr 64 B openssl-int: x1.6). A column of one row keeps
     * its x1.0 (nothing to be slower than it) unless its figure is noisy: with nothing to
     * pair with, the figure's own interval is its comparison's, as speedup() has it for an
     * unpaired row (idea-cbc under two busy loops read x1.0 quiet beside quality noisy). */
    if (others && !claims && !slow->d.noisy) {
        slow->d.noisy = 1;
        slow->d.unbacked = slow->r.quality != RESULT_NOISY; /* else its figure says it */
    }
    if (!others && slow->r.quality == RESULT_NOISY)
        slow->d.noisy = 1;
    struct cell *best = NULL;
    for (size_t i = c0; i < n; i++) {
        struct cell *c = &cells[i];
        if (cell_same_column(c, &cells[c0]) && compared(c) && !c->d.noisy &&
            (!best || c->d.speedup > best->d.speedup))
            best = c;
    }
    /* A row whose comparison is noisy yet reads faster than the best quiet one: nobody can be
     * called the fastest of this column. */
    for (size_t i = c0; i < n && best; i++)
        if (cell_same_column(&cells[i], &cells[c0]) && compared(&cells[i]) && cells[i].d.noisy &&
            cells[i].d.speedup >= best->d.speedup)
            best = NULL;
    int ties = 0;
    for (size_t i = c0; i < n && best; i++) {
        struct cell *c = &cells[i];
        if (cell_same_column(c, &cells[c0]) && compared(c) && !c->d.noisy)
            ties += c->d.best = c == best || tie(&c->r, &best->r);
    }
    for (size_t i = c0; i < n && ties > 1; i++)
        if (cell_same_column(&cells[i], &cells[c0]) && cells[i].d.best)
            cells[i].d.tie = 1;
}

void derive_cells(struct cell *cells, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int first = 1; /* the first cell of its column derives the column */
        for (size_t j = 0; j < i && first; j++)
            first = !cell_same_column(&cells[j], &cells[i]);
        if (first)
            derive_column(cells, n, i);
    }
}
