/* A measurement cell: one implementation at one block size in one direction, and what was
 * measured for it. The plan, the session, the table of `run`, the TUI and the CSV all hold
 * cells. */
#ifndef ACCELSCOPE_CELL_H
#define ACCELSCOPE_CELL_H

#include <stddef.h>

#include "impl.h"
#include "result.h"

/* Figures derived from the other cells of the plan (session.c keeps them current). A column
 * is one algorithm at one size in one direction: cells are only ever compared within one. */
struct cell_derived {
    double slowest;   /* slowest verified figure of the column, MB/s; 0 = none yet */
    double speedup;   /* this cell's figure over slowest; 0 when it has no verified figure */
    int best;         /* the fastest verified cell of its column, or tied with it */
    int tie;          /* best, and another verified cell's fastest sample reaches this one's
                       * slowest (or the reverse): the samples cannot tell them apart */
};

struct cell {
    const struct impl *impl;
    size_t bytes;
    int decrypt;
    double limit_mb_per_s; /* the silicon's ceiling for this algorithm, 0 = unknown */
    struct result r;
    struct cell_derived d;
};

#endif
