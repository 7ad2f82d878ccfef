/* Parsing and validating what a user picks: algorithms, sizes, paths, implementations.
 * Shared by `run` and the TUI's pickers so both accept and refuse the same things. */
#ifndef ACCELSCOPE_SELECT_H
#define ACCELSCOPE_SELECT_H

#include <stddef.h>

#include "algo.h"

#define SELECT_MAX 64

struct selection {
    const struct algo *algs[SELECT_MAX];
    int nalgs;
    size_t sizes[SELECT_MAX];
    int nsizes;
    int paths[4];            /* path_id order: 1 = selected */
    char impls[SELECT_MAX][48]; /* implementation names; none = every one */
    int nimpls;
};

extern const size_t select_default_sizes[6];

/* Each returns 0, or -1 with a message naming what is accepted. */
int select_algs(struct selection *s, const char *list, char *why, size_t n);
int select_sizes(struct selection *s, const char *list, char *why, size_t n);
int select_paths(struct selection *s, const char *list, char *why, size_t n);
int select_impls(struct selection *s, const char *list, char *why, size_t n);

/* One size: "16", "4k", "1KiB", "16M"... 0, or -1 and why. */
int select_parse_size(const char *text, size_t *out, char *why, size_t n);

/* Every selected size fits every selected algorithm's block rule. */
int select_check(const struct selection *s, char *why, size_t n);

/* The defaults: every default algorithm, the six preset sizes, every path. */
void select_defaults(struct selection *s);

#endif
