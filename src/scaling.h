/* Scaling: how a path's figure at N threads compares with N times its own 1-thread figure,
 * and with the single-core silicon ceiling times N (the line to reach). A cell at N threads
 * is set beside the 1-thread cell of the same implementation, algorithm, size and direction
 * only here; speed-ups (derive.c) never cross thread counts. */
#ifndef ACCELSCOPE_SCALING_H
#define ACCELSCOPE_SCALING_H

#include <stddef.h>

#include "cell.h"

#define SCALING_TOL 0.10      /* efficiency within 1 +- this: scales */
#define SCALING_MEM_NEAR 0.70 /* a figure at this share of the memory bandwidth: memory bound */

/* The machine figures a reason may cite; 0 = not known. */
struct scaling_env {
    double mem_l1_mb_s;  /* memcpy of 16 KiB buffers, one core (silicon.h) */
    double mem_ram_mb_s; /* memcpy of 16 MiB buffers, one core */
    int cores;           /* physical cores (SMT siblings share one core's units) */
};

struct silicon;
/* The figures from the silicon's measurements (NULL: not measured) and the CPU. */
void scaling_env_of(const struct silicon *sil, struct scaling_env *env);

struct scaling {
    const struct cell *cell;  /* the N-thread cell */
    const struct cell *base;  /* its 1-thread cell, or NULL */
    double ideal;             /* N x base's figure, MB/s; 0 unknown */
    double eff;               /* figure / ideal; 0 unknown */
    double reach;             /* single-core ceiling x N, MB/s; 0 unknown */
    int noisy;                /* either figure is noisy (~) */
    int scales;               /* eff within 1 +- SCALING_TOL, and not noisy */
    char reason[200];         /* when not scales: why (noisy, shared unit, memory bound...) */
};

/* The same job at any thread count: algorithm, size and direction. */
int scaling_same_job(const struct cell *a, const struct cell *b);

/* Whether the cells hold more than one thread count. */
int scaling_multi(const struct cell *cells, size_t n);

/* The 1-thread cell of c's implementation, size and direction, or NULL. */
const struct cell *scaling_base(const struct cell *cells, size_t n, const struct cell *c);

/* c's scaling against its 1-thread cell. 0, or -1 when c has no figure (status not ok). */
int scaling_of(const struct cell *cells, size_t n, const struct cell *c,
               const struct scaling_env *env, struct scaling *out);

#endif
