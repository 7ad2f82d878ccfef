/* What a user picks: algorithms, sizes, paths, implementations included and excluded,
 * threads, time per cell and direction; parsed and validated here, so `run` and the TUI's
 * pickers accept and refuse the same things, and printed back as a `run` command line. */
#ifndef ACCELSCOPE_SELECT_H
#define ACCELSCOPE_SELECT_H

#include <stddef.h>

#include "algo.h"
#include "impl.h"

#define SELECT_MAX 64  /* algorithms, sizes, implementation names: more than exist */
#define SELECT_NAME 64 /* longest implementation name kept (kernel driver names: 64 in crypto.h) */

struct selection {
    const struct algo *algs[SELECT_MAX];
    int nalgs;
    size_t sizes[SELECT_MAX];   /* in the order given */
    int nsizes;
    int paths[PATH_COUNT];      /* 1 = selected */
    char impls[SELECT_MAX][SELECT_NAME]; /* only these implementation names; none = every one */
    int nimpls;
    char excl[SELECT_MAX][SELECT_NAME];  /* never these (the TUI's switches, run -x) */
    int nexcl;
    int threads[SELECT_MAX];    /* workers at once, each 1..session_max_threads(), ascending,
                                 * each once: every count is a cell of its own */
    int nthreads;
    double seconds;             /* timed seconds per cell (SELECT_MIN_TIME..SELECT_MAX_TIME) */
    int decrypt;                /* ciphers and AEADs: the decrypt direction */
};

#define SELECT_MIN_TIME 0.01
#define SELECT_MAX_TIME 600.0

extern const size_t select_default_sizes[6];

/* Each returns 0, or -1 with a message naming what is accepted. Lists are comma (or space)
 * separated, of any length. */
int select_algs(struct selection *s, const char *list, char *why, size_t n);
int select_sizes(struct selection *s, const char *list, char *why, size_t n);
int select_paths(struct selection *s, const char *list, char *why, size_t n);
int select_impls(struct selection *s, const char *list, char *why, size_t n);
int select_excludes(struct selection *s, const char *list, char *why, size_t n);
/* A list of thread counts ("1,2,4,all"; all = max): max is the most threads allowed
 * (session_max_threads()), named in the message; duplicates collapse, kept ascending. */
int select_threads(struct selection *s, const char *list, int max, char *why, size_t n);
/* The largest thread count selected (1 when none). */
int select_max_threads(const struct selection *s);
int select_time(struct selection *s, const char *text, char *why, size_t n);

/* One size: "16", "4k", "1KiB", "16M"... 0, or -1 and why. */
int select_parse_size(const char *text, size_t *out, char *why, size_t n);

/* Every selected size fits every selected algorithm's block rule. */
int select_check(const struct selection *s, char *why, size_t n);

/* Whether the selection asks for im (its path, the includes, the excludes). */
int select_wants(const struct selection *s, const struct impl *im);
/* Whether name is excluded; and switching it: excluded <-> not. */
int select_excluded(const struct selection *s, const char *name);
void select_toggle_excluded(struct selection *s, const char *name);

/* The defaults: every default algorithm, the six preset sizes, every path, one thread,
 * ENGINE_DEFAULT_SECONDS, encrypt. */
void select_defaults(struct selection *s);

/* The selection as arguments of `accelscope run` ("-a sha256 -s 16,16384 -p c,hw -t 1,2 ...",
 * options equal to the defaults left out), malloc'd. */
char *select_args(const struct selection *s);

#endif
