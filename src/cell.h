/* A measurement cell: one implementation at one block size in one direction, and what was
 * measured for it. The plan, the session, the table of `run`, the TUI and the CSV all hold
 * cells. */
#ifndef ACCELSCOPE_CELL_H
#define ACCELSCOPE_CELL_H

#include <stddef.h>
#include <string.h>

#include "impl.h"
#include "result.h"

/* Figures derived from the other cells of the plan (src/derive.c; the session keeps them
 * current). A column is one algorithm at one size in one direction at one thread count
 * (cell_same_column): cells are only ever compared within one, and only cells whose figure
 * is verified, quiet (not noisy: stats.h) and not the same code as another row take part in
 * the claims below. */
struct cell_derived {
    double slowest;   /* slowest figure of the column that takes part, MB/s; 0 = none */
    double speedup;   /* this cell's figure over slowest: the median of the ratios of their
                       * paired rounds (result.round_mb), else of their medians; 0 = none */
    double speedup_ci_pct; /* half-width of the speed-up's 95 % interval, % of it; 0 unknown */
    int best;         /* the fastest cell of its column, or tied with it */
    int tie;          /* best, and the samples cannot tell it from another best: the paired
                       * ratio's interval holds 1 (or, unpaired, the intervals overlap) */
    int noisy;        /* verified, but the comparison is not: the speed-up's interval is wider
                       * than +-5 % (unpaired: the figure's own), or the column's slowest
                       * with no quiet row over it (unbacked where its own figure is quiet).
                       * A figure, never a claim:
                       * no xN shown, never best */
    int unbacked;     /* the column's slowest, its own figure quiet, noisy only because no
                       * other row's ratio to it is quiet: its x1.0 ("the slowest") claims
                       * nothing */
    int spell;        /* the column was measured in a turbulent spell (stats_spell: a quarter
                       * of its rounds retaken, all its cells together): noisy, as above, its
                       * slowest row too */
    const struct impl *same_as; /* the asm row this hardware row ran the same code as (its
                                 * capability vector enables none of the algorithm's crypto
                                 * instructions), or NULL */
    char same_why[96];          /* why, for the row: "OpenSSL's vector has no SHA" */
};

struct cell {
    const struct impl *impl;
    size_t bytes;
    int decrypt;
    int threads;           /* workers at once: one cell per thread count of the selection */
    int again;             /* times this run measured the cell's column anew, after a
                            * turbulent spell (session_run.c) */
    double limit_mb_per_s; /* the silicon's ceiling for this algorithm, 0 = unknown */
    struct result r;
    struct cell_derived d;
};

/* Cells whose figures are compared with each other (bars of one chart column, paired rounds):
 * the same algorithm, size, direction and thread count. An N-thread figure is set beside a
 * 1-thread one only as scaling (scaling.h), never as a speed-up. */
static inline int cell_same_column(const struct cell *a, const struct cell *b)
{
    return a->bytes == b->bytes && a->decrypt == b->decrypt && a->threads == b->threads &&
           !strcmp(a->impl->alg, b->impl->alg);
}

#endif
