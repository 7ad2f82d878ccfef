/* A plan: the cells (implementation x thread count x size) a selection asks for, in display
 * order (algorithm, then path, then implementation, then thread count, then size: the sizes
 * of one implementation at one thread count are consecutive, a row of `run`'s table). The
 * session builds it. */
#ifndef ACCELSCOPE_PLAN_H
#define ACCELSCOPE_PLAN_H

#include "cell.h"
#include "select.h"

struct plan {
    struct cell *cells;
    size_t n;
};

/* Fills p from s; cells start pending. Returns the cell count. */
size_t plan_build(struct plan *p, const struct selection *s);
void plan_free(struct plan *p);

#endif
