#include "clockref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "csvread.h"
#include "machine.h"
#include "store.h"

struct clockref {
    struct csvread_set set; /* the run's rows; only verified ones with a clock are used */
    double median;          /* of those rows' clocks */
    char path[4096];
};

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int has_clock(const struct csvread_row *w)
{
    return w->ok && w->clock_mhz > 0;
}

struct clockref *clockref_from_file(const char *path, char *why, size_t n)
{
    struct clockref *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    snprintf(c->path, sizeof c->path, "%s", path);
    if (csvread_file(path, &c->set, why, n))
        goto free_ref;
    size_t k = 0;
    double *v = malloc((c->set.n ? c->set.n : 1) * sizeof *v);
    if (!v)
        abort();
    for (size_t i = 0; i < c->set.n; i++)
        if (has_clock(&c->set.rows[i]))
            v[k++] = c->set.rows[i].clock_mhz;
    if (k) {
        qsort(v, k, sizeof *v, by_value);
        c->median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
    }
    free(v);
    if (k)
        return c;
    snprintf(why, n, "%.200s: no verified row with a clock_mhz", path);
    csvread_free(&c->set);
free_ref:
    free(c);
    return NULL;
}

struct clockref *clockref_load(char *why, size_t n)
{
    struct store_entry *e;
    size_t ne = store_list(NULL, &e);
    const struct machine *m = machine_get();
    struct clockref *c = NULL;
    /* newest first: the last run of this machine that measured anything */
    for (size_t i = 0; i < ne && !c; i++) {
        char skip[256];
        if (e[i].ok && !strcmp(e[i].host, m->host) && !strcmp(e[i].cpu, m->cpu))
            c = clockref_from_file(e[i].path, skip, sizeof skip);
    }
    free(e);
    if (!c)
        snprintf(why, n, "no saved run of this machine (%.60s, %.60s) has clocks", m->host,
                 m->cpu);
    return c;
}

void clockref_free(struct clockref *c)
{
    if (!c)
        return;
    csvread_free(&c->set);
    free(c);
}

double clockref_for(const struct clockref *c, const struct cell *cell)
{
    if (!c)
        return 0;
    const char *dir = csv_direction(cell), *path = path_id[cell->impl->path];
    int threads = cell->r.threads > 0 ? cell->r.threads : 1; /* as the CSV says it */
    for (size_t i = 0; i < c->set.n; i++) {
        const struct csvread_row *w = &c->set.rows[i];
        if (has_clock(w) && w->bytes == cell->bytes && w->threads == threads &&
            !strcmp(w->algorithm, cell->impl->alg) && !strcmp(w->direction, dir) &&
            !strcmp(w->path, path) && !strcmp(w->implementation, cell->impl->name))
            return w->clock_mhz;
    }
    return c->median;
}

double clockref_median(const struct clockref *c)
{
    return c ? c->median : 0;
}

const char *clockref_path(const struct clockref *c)
{
    return c ? c->path : "";
}
