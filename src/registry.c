#include "registry.h"

#include <stdlib.h>
#include <string.h>

#include "algo.h"

static const struct impl **all;
static size_t nall;

/* Flattens the backends' lists once, ordered by path (c, asm, hw, kernel) then backend. */
static void load(void)
{
    if (all)
        return;
    size_t cap = 64;
    all = malloc(cap * sizeof *all);
    if (!all)
        abort();
    for (int p = 0; p < PATH_COUNT; p++) {
        for (size_t b = 0; b < backend_all_count; b++) {
            size_t n = 0;
            const struct impl *v = backend_all[b]->impls(&n);
            for (size_t i = 0; i < n; i++) {
                if (v[i].path != (enum path)p)
                    continue;
                if (nall == cap) {
                    cap *= 2;
                    all = realloc(all, cap * sizeof *all);
                    if (!all)
                        abort();
                }
                all[nall++] = &v[i];
            }
        }
    }
}

void registry_discover(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    for (size_t b = 0; b < backend_all_count; b++)
        if (backend_all[b]->discover)
            backend_all[b]->discover();
    /* List again, with what was found; the implementations themselves do not move. */
    free(all);
    all = NULL;
    nall = 0;
}

size_t registry_count(void)
{
    load();
    return nall;
}

const struct impl *registry_get(size_t i)
{
    load();
    return i < nall ? all[i] : NULL;
}

const struct impl *registry_find(const char *alg, const char *name)
{
    load();
    for (size_t i = 0; i < nall; i++)
        if (strcmp(all[i]->alg, alg) == 0 && strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

const struct impl *registry_reference(const struct impl *im)
{
    static const char *const candidates[] = { "portable", "openssl" };
    char why[256];
    for (size_t c = 0; c < sizeof candidates / sizeof candidates[0]; c++) {
        const struct impl *r = registry_find(im->alg, candidates[c]);
        if (r && strcmp(r->backend, im->backend) != 0 && r->check(r, why, sizeof why) == 0)
            return r;
    }
    return NULL;
}

size_t registry_backends(const struct backend *const **out)
{
    *out = backend_all;
    return backend_all_count;
}
