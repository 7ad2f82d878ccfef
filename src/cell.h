/* A measurement cell: one implementation at one block size in one direction, and what was
 * measured for it. The plan, the session, the table of `run`, the TUI and the CSV all hold
 * cells. */
#ifndef ACCELSCOPE_CELL_H
#define ACCELSCOPE_CELL_H

#include <stddef.h>

#include "impl.h"
#include "result.h"

struct cell {
    const struct impl *impl;
    size_t bytes;
    int decrypt;
    double limit_mb_per_s; /* the silicon's ceiling for this algorithm, 0 = unknown */
    struct result r;
};

#endif
