/* The selection the pickers edit, the plan of cells it gives, and what is available here.
 * Results survive a change of selection: a cell that comes back keeps its figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "registry.h"

void model_init(void)
{
    select_defaults(&ui.sel);
    ui.threads = 1;
    ui.seconds = 0.1; /* interactive: the whole default selection in about a minute */
    ui.size_idx = ui.sel.nsizes - 1;
}

static int reg_index(const struct impl *im)
{
    size_t n = registry_count();
    for (size_t i = 0; i < n; i++)
        if (registry_get(i) == im)
            return (int)i;
    return -1;
}

/* Asks every implementation once; cheap (CPUID, a socket() or two, EVP look-ups). */
void model_probe(void)
{
    size_t n = registry_count();
    ui.avail = calloc(n ? n : 1, 1);
    ui.why = calloc(n ? n : 1, sizeof *ui.why);
    if (!ui.avail || !ui.why)
        abort();
    for (size_t i = 0; i < n; i++) {
        const struct impl *im = registry_get(i);
        ui.avail[i] = im->check(im, ui.why[i], sizeof ui.why[i]) == 0;
    }
    ui.probed = 1;
    model_rebuild();
}

int model_avail(const struct impl *im, char *why, size_t n)
{
    int i = reg_index(im);
    if (!ui.probed || i < 0) {
        if (n)
            snprintf(why, n, "probing%s", ui_glyph(G_ELLIPSIS));
        return -1;
    }
    if (!ui.avail[i] && n)
        snprintf(why, n, "%s", ui.why[i]);
    return ui.avail[i];
}

static void off_key(enum path p, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", path_id[p], name);
}

int model_impl_on(const struct impl *im)
{
    char k[64];
    off_key(im->path, im->name, k, sizeof k);
    for (int i = 0; i < ui.noff; i++)
        if (!strcmp(ui.off[i], k))
            return 0;
    return 1;
}

void model_toggle_impl(enum path p, const char *name)
{
    char k[64];
    off_key(p, name, k, sizeof k);
    for (int i = 0; i < ui.noff; i++)
        if (!strcmp(ui.off[i], k)) {
            memmove(ui.off[i], ui.off[i + 1], (size_t)(ui.noff - i - 1) * sizeof ui.off[0]);
            ui.noff--;
            return;
        }
    if (ui.noff < SELECT_MAX)
        snprintf(ui.off[ui.noff++], sizeof ui.off[0], "%s", k);
}

static const struct cell *find_old(const struct plan *old, const struct cell *c)
{
    for (size_t i = 0; i < old->n; i++) {
        const struct cell *o = &old->cells[i];
        if (o->impl == c->impl && o->bytes == c->bytes && o->decrypt == c->decrypt &&
            o->r.threads == c->r.threads)
            return o;
    }
    return NULL;
}

void model_rebuild(void)
{
    struct plan old = ui.plan;
    ui.sel.decrypt = ui.decrypt;
    ui.sel.threads = ui.threads;
    plan_build(&ui.plan, &ui.sel);
    size_t k = 0;
    for (size_t i = 0; i < ui.plan.n; i++) {
        struct cell c = ui.plan.cells[i];
        if (!model_impl_on(c.impl))
            continue;
        const struct cell *o = find_old(&old, &c);
        char why[200];
        if (o && o->r.status != RES_PENDING && o->r.status != RES_RUNNING)
            c.r = o->r;
        else if (model_avail(c.impl, why, sizeof why) == 0) {
            c.r.status = RES_UNAVAILABLE;
            snprintf(c.r.reason, sizeof c.r.reason, "%s", why);
        }
        c.limit_mb_per_s = chart_ceiling(&c);
        ui.plan.cells[k++] = c;
    }
    ui.plan.n = k;
    plan_free(&old);
    if (ui.size_idx >= ui.sel.nsizes)
        ui.size_idx = ui.sel.nsizes - 1;
    if (ui.size_idx < 0)
        ui.size_idx = 0;
    if (ui.alg_idx >= ui.sel.nalgs)
        ui.alg_idx = ui.sel.nalgs - 1;
    if (ui.alg_idx < 0)
        ui.alg_idx = 0;
}

size_t model_cur_size(void)
{
    return ui.sel.nsizes ? ui.sel.sizes[ui.size_idx] : 0;
}

const struct algo *model_cur_alg(void)
{
    return ui.sel.nalgs ? ui.sel.algs[ui.alg_idx] : NULL;
}

int model_locked(void)
{
    if (ui.run.active)
        ui_set_status(1, "a measurement is running: press r or Esc to cancel it first");
    return ui.run.active;
}
