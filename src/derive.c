/* Derived figures (cell.h's struct cell_derived): what the charts, the matrix and the table
 * say about a cell relative to the others of its column. */
#include "derive.h"

#include <string.h>

static int same_column(const struct cell *a, const struct cell *b)
{
    return a->bytes == b->bytes && a->decrypt == b->decrypt && !strcmp(a->impl->alg, b->impl->alg);
}

static int verified(const struct cell *c)
{
    return c->r.status == RES_OK && c->r.mb_per_s > 0;
}

/* One column: the cells of [0, n) that share c0's algorithm, size and direction. */
static void derive_column(struct cell *cells, size_t n, size_t c0)
{
    double slowest = 0;
    const struct cell *best = NULL;
    for (size_t i = c0; i < n; i++) {
        const struct cell *c = &cells[i];
        if (!same_column(c, &cells[c0]) || !verified(c))
            continue;
        if (slowest == 0 || c->r.mb_per_s < slowest)
            slowest = c->r.mb_per_s;
        if (!best || c->r.mb_per_s > best->r.mb_per_s)
            best = c;
    }
    int ties = 0;
    for (size_t i = c0; i < n; i++) {
        struct cell *c = &cells[i];
        if (!same_column(c, &cells[c0]))
            continue;
        c->d = (struct cell_derived){ .slowest = slowest };
        if (!verified(c))
            continue;
        c->d.speedup = c->r.mb_per_s / slowest;
        /* Tied with the best when the two sample ranges overlap. */
        c->d.best = c == best || (c->r.mb_max >= best->r.mb_min && best->r.mb_max >= c->r.mb_min);
        ties += c->d.best;
    }
    for (size_t i = c0; i < n && ties > 1; i++)
        if (same_column(&cells[i], &cells[c0]) && cells[i].d.best)
            cells[i].d.tie = 1;
}

void derive_cells(struct cell *cells, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int first = 1; /* the first cell of its column derives the column */
        for (size_t j = 0; j < i && first; j++)
            first = !same_column(&cells[j], &cells[i]);
        if (first)
            derive_column(cells, n, i);
    }
}

