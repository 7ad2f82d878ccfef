/* Derived figures (cell.h's struct cell_derived): what the charts, the matrix and the table
 * say about a cell relative to the others of its column. */
#include "derive.h"

#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "osslcap.h"
#include "stats.h"

static int same_column(const struct cell *a, const struct cell *b)
{
    return a->bytes == b->bytes && a->decrypt == b->decrypt && !strcmp(a->impl->alg, b->impl->alg);
}

static int verified(const struct cell *c)
{
    return c->r.status == RES_OK && c->r.mb_per_s > 0;
}

/* Takes part in the column's claims (slowest, speed-ups, best): verified, not noisy, not a
 * second bar for code another row ran. */
static int claims(const struct cell *c)
{
    return verified(c) && !c->d.noisy && !c->d.same_as;
}

/* Two figures whose intervals overlap tie. A result without a 95 % interval (a CSV from an
 * older version) is judged by its samples' range. */
static int tie(const struct result *a, const struct result *b)
{
    if (a->ci_hi > 0 && b->ci_hi > 0)
        return stats_tie(a, b);
    return a->mb_max >= b->mb_min && b->mb_max >= a->mb_min;
}

/* The asm row of OpenSSL's SIMD code (the mask clears only the crypto extensions). */
static const struct cell *simd_row(const struct cell *cells, size_t n, const struct cell *c)
{
    for (size_t i = 0; i < n; i++)
        if (same_column(&cells[i], c) && cells[i].impl->path == PATH_ASM &&
            !strcmp(cells[i].impl->name, "openssl-simd") && verified(&cells[i]))
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
    if (!a || c->impl->path != PATH_HW || strcmp(c->impl->backend, "openssl") || !verified(c) ||
        !(nw = osslcap_parse(c->r.capvec, w)))
        return;
    const struct cell *simd = simd_row(cells, n, c);
    if (!simd)
        return;
    for (unsigned k = 0; k < a->naccel; k++)
        if (osslcap_has(w, nw, a->accel[k]) == 1)
            return;
    c->d.same_as = simd->impl;
    if (!a->naccel)
        snprintf(c->d.same_why, sizeof c->d.same_why, "no CPU has %s instructions", a->id);
    else
        snprintf(c->d.same_why, sizeof c->d.same_why,
                 "OpenSSL's capability vector enables no %s instructions", a->id);
}

/* One column: the cells of [0, n) that share c0's algorithm, size and direction. */
static void derive_column(struct cell *cells, size_t n, size_t c0)
{
    for (size_t i = c0; i < n; i++)
        if (same_column(&cells[i], &cells[c0])) {
            struct cell *c = &cells[i];
            c->d = (struct cell_derived){ .noisy = verified(c) && c->r.quality == RESULT_NOISY };
            same_code(cells, n, c);
        }
    double slowest = 0;
    const struct cell *best = NULL;
    for (size_t i = c0; i < n; i++) {
        const struct cell *c = &cells[i];
        if (!same_column(c, &cells[c0]) || !claims(c))
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
        c->d.slowest = slowest;
        if (!claims(c))
            continue;
        c->d.speedup = c->r.mb_per_s / slowest;
        c->d.best = c == best || tie(&c->r, &best->r);
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
