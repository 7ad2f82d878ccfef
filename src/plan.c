#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "registry.h"

static int impl_wanted(const struct selection *s, const struct impl *im)
{
    if (!s->paths[im->path])
        return 0;
    if (!s->nimpls)
        return 1;
    for (int i = 0; i < s->nimpls; i++)
        if (!strcmp(s->impls[i], im->name))
            return 1;
    return 0;
}

size_t plan_build(struct plan *p, const struct selection *s, int decrypt, int threads)
{
    size_t cap = 16, nreg = registry_count();
    p->n = 0;
    p->cells = malloc(cap * sizeof *p->cells);
    if (!p->cells)
        abort();
    for (int a = 0; a < s->nalgs; a++) {
        for (size_t i = 0; i < nreg; i++) {
            const struct impl *im = registry_get(i);
            if (strcmp(im->alg, s->algs[a]->id) || !impl_wanted(s, im))
                continue;
            for (int z = 0; z < s->nsizes; z++) {
                if (p->n == cap) {
                    cap *= 2;
                    p->cells = realloc(p->cells, cap * sizeof *p->cells);
                    if (!p->cells)
                        abort();
                }
                struct cell *c = &p->cells[p->n++];
                memset(c, 0, sizeof *c);
                c->impl = im;
                c->bytes = s->sizes[z];
                c->decrypt = decrypt;
                c->r.status = RES_PENDING;
                c->r.threads = threads;
            }
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
