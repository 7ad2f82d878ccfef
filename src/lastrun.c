#include "lastrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "csvread.h"
#include "machine.h"
#include "stats.h"
#include "store.h"

struct lastrun {
    struct csvread_set set; /* the run's quiet verified rows of this host and CPU */
    char path[4096];
};

/* Saved runs of this machine read in full, newest first, before giving up: runs without a
 * quiet figure (a machine always busy) would otherwise make every start read them all. */
enum { LASTRUN_MAX_TRIES = 8 };

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A row that can stand for its run: verified, not noisy (a run taken under load judges
 * nothing), of this host and CPU (a file's first row says whose it is, not every row). */
static int usable(const struct csvread_row *w, const struct machine *m)
{
    return w->ok && strcmp(w->quality, "noisy") && !strcmp(w->host, m->host) &&
           !strcmp(w->cpu, m->cpu);
}

static int same_impl(const struct csvread_row *w, const struct cell *cell, int threads)
{
    return w->threads == threads && !strcmp(w->algorithm, cell->impl->alg) &&
           !strcmp(w->direction, csv_direction(cell)) && !strcmp(w->path, path_id[cell->impl->path]) &&
           !strcmp(w->implementation, cell->impl->name);
}

/* The median clock of the usable rows that pick() accepts (pick NULL: all); 0 when none. */
static double median_of(const struct lastrun *c, const struct cell *cell, int threads,
                        int (*pick)(const struct csvread_row *, const struct cell *, int))
{
    size_t k = 0;
    double *v = malloc((c->set.n ? c->set.n : 1) * sizeof *v), m = 0;
    if (!v)
        abort();
    for (size_t i = 0; i < c->set.n; i++)
        if (c->set.rows[i].clock_mhz > 0 && (!pick || pick(&c->set.rows[i], cell, threads)))
            v[k++] = c->set.rows[i].clock_mhz;
    if (k) {
        qsort(v, k, sizeof *v, by_value);
        m = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
    }
    free(v);
    return m;
}

static struct lastrun *load(const char *path, const struct machine *m, char *why, size_t n)
{
    struct lastrun *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    snprintf(c->path, sizeof c->path, "%s", path);
    if (csvread_file(path, &c->set, why, n))
        goto free_ref;
    size_t k = 0; /* the unusable rows go: the lookups below see only usable ones */
    for (size_t i = 0; i < c->set.n; i++)
        if (usable(&c->set.rows[i], m))
            c->set.rows[k++] = c->set.rows[i];
    c->set.n = k;
    if (k)
        return c;
    snprintf(why, n, "%.200s: no quiet verified row", path);
    csvread_free(&c->set);
free_ref:
    free(c);
    return NULL;
}

struct lastrun *lastrun_load(char *why, size_t n)
{
    struct store_entry *e;
    size_t ne = store_list(NULL, &e);
    const struct machine *m = machine_get();
    struct lastrun *c = NULL;
    int tries = 0;
    /* newest first: the last run of this machine with a figure to go by */
    for (size_t i = 0; i < ne && !c && tries < LASTRUN_MAX_TRIES; i++) {
        char skip[256];
        if (e[i].ok && !strcmp(e[i].host, m->host) && !strcmp(e[i].cpu, m->cpu)) {
            tries++;
            c = load(e[i].path, m, skip, sizeof skip);
        }
    }
    free(e);
    if (!c)
        snprintf(why, n, "no saved run of this machine (%.60s, %.60s) has a quiet figure",
                 m->host, m->cpu);
    return c;
}

void lastrun_free(struct lastrun *c)
{
    if (!c)
        return;
    csvread_free(&c->set);
    free(c);
}

static int same_cell(const struct csvread_row *w, const struct cell *cell, int threads)
{
    return w->bytes == cell->bytes && same_impl(w, cell, threads);
}

static int same_threads(const struct csvread_row *w, const struct cell *cell, int threads)
{
    (void)cell;
    return w->threads == threads;
}

double lastrun_clock_for(const struct lastrun *c, const struct cell *cell)
{
    if (!c)
        return 0;
    int threads = cell->r.threads > 0 ? cell->r.threads : 1; /* as the CSV says it */
    /* all cores busy turbo lower than one, and some vector code runs at a clock of its own
     * (AVX-512 licences): the nearest like cell sets the mark, never another thread count */
    for (size_t i = 0; i < c->set.n; i++)
        if (same_cell(&c->set.rows[i], cell, threads) && c->set.rows[i].clock_mhz > 0)
            return c->set.rows[i].clock_mhz;
    double m = median_of(c, cell, threads, same_impl);
    return m > 0 ? m : median_of(c, cell, threads, same_threads);
}

double lastrun_mb_for(const struct lastrun *c, const struct cell *cell)
{
    if (!c)
        return 0;
    int threads = cell->r.threads > 0 ? cell->r.threads : 1;
    const struct machine *m = machine_get();
    for (size_t i = 0; i < c->set.n; i++) {
        const struct csvread_row *w = &c->set.rows[i];
        /* a figure its interval let claim (STATS_ABSOLUTE_CI_PCT), whether or not that run's
         * own last run let it: a claim withdrawn once must be testable again. The same code:
         * OpenSSL's build, the capability vector the worker ran with (a user's
         * OPENSSL_ia32cap), and for the kernel path the kernel. */
        if (same_cell(w, cell, threads) && !strcmp(w->quality, "quiet") && w->ci_pct > 0 &&
            w->ci_pct <= STATS_ABSOLUTE_CI_PCT && !strcmp(w->capabilities, cell->r.capvec) &&
            !strcmp(w->openssl, m->openssl) &&
            (cell->impl->path != PATH_KERNEL || !strcmp(w->kernel, m->kernel)))
            return w->mb_per_s;
    }
    return 0;
}

double lastrun_clock_median(const struct lastrun *c)
{
    return c ? median_of(c, NULL, 0, NULL) : 0;
}

const char *lastrun_path(const struct lastrun *c)
{
    return c ? c->path : "";
}
