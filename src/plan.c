#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "registry.h"

static void add(struct plan *p, size_t *cap, const struct impl *im, size_t bytes, int threads,
                int decrypt)
{
    if (p->n == *cap) {
        *cap *= 2;
        p->cells = realloc(p->cells, *cap * sizeof *p->cells);
        if (!p->cells)
            abort();
    }
    struct cell *c = &p->cells[p->n++];
    memset(c, 0, sizeof *c);
    c->impl = im;
    c->bytes = bytes;
    c->decrypt = decrypt;
    c->threads = threads;
    c->r.status = RES_PENDING;
    c->r.threads = threads;
}

size_t plan_build(struct plan *p, const struct selection *s)
{
    size_t cap = 16, nreg = registry_count();
    p->n = 0;
    p->cells = malloc(cap * sizeof *p->cells);
    if (!p->cells)
        abort();
    for (int a = 0; a < s->nalgs; a++) {
        for (size_t i = 0; i < nreg; i++) {
            const struct impl *im = registry_get(i);
            if (strcmp(im->alg, s->algs[a]->id) || !select_wants(s, im))
                continue;
            for (int t = 0; t < s->nthreads; t++)
                for (int z = 0; z < s->nsizes; z++)
                    add(p, &cap, im, s->sizes[z], s->threads[t], s->decrypt);
        }
    }
    return p->n;
}

void plan_free(struct plan *p)
{
    free(p->cells);
    p->cells = NULL;
    p->n = 0;
}
