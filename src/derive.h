/* Figures derived from a set of cells: per column (one algorithm, one size, one direction),
 * the slowest verified figure, each cell's speed-up over it, the best, and ties. Only verified
 * cells (status ok) count; a cell that failed never becomes the slowest or the best. */
#ifndef ACCELSCOPE_DERIVE_H
#define ACCELSCOPE_DERIVE_H

#include <stddef.h>

#include "cell.h"

/* Fills every cell's d from the cells of its column among cells[0..n). */
void derive_cells(struct cell *cells, size_t n);

#endif
