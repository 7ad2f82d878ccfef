/* Figures derived from a set of cells: per column (one algorithm, one size, one direction),
 * the slowest verified figure, each cell's speed-up over it, the best, and ties. Only verified
 * cells (status ok) count; a cell that failed never becomes the slowest or the best. */
#ifndef ACCELSCOPE_DERIVE_H
#define ACCELSCOPE_DERIVE_H

#include <stddef.h>

#include "cell.h"

/* a over b from their paired rounds (result.h round_mb): the median of a_k / b_k over the
 * rounds both kept, with its 95 % interval [*lo, *hi]. Returns the number of pairs; 0 when
 * fewer than STATS_MIN_SAMPLES (then nothing is set). */
int derive_paired(const struct result *a, const struct result *b, double *ratio, double *lo,
                  double *hi);

/* Fills every cell's d from the cells of its column among cells[0..n). */
void derive_cells(struct cell *cells, size_t n);

#endif
