/* The setup screen's panel of paths and implementations: no-asm, asm, hardware, kernel, and
 * under each its implementations for the selected algorithms, available or the reason they
 * are not. Doubles as the picker of paths (a path's line) and implementations (an
 * implementation's line: excluded by name, as `run -x` excludes it). */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "registry.h"

#define MAX_ITEMS 128

struct pitem {
    int path;            /* the path; a heading when name is NULL */
    const char *name;
    int total, avail;    /* selected algorithms it implements, and how many of them run here */
    char why[240];       /* the first reason it does not */
    const char *note;
};

static struct pitem items[MAX_ITEMS];
static int nitems;

static int alg_selected(const char *id)
{
    const struct selection *sel = app_sel();
    for (int a = 0; a < sel->nalgs; a++)
        if (!strcmp(sel->algs[a]->id, id))
            return 1;
    return sel->nalgs == 0;
}

int panel_impls_init(void)
{
    nitems = 0;
    size_t n = registry_count();
    for (int p = 0; p < PATH_COUNT && nitems < MAX_ITEMS; p++) {
        items[nitems++] = (struct pitem){ .path = p };
        int first = nitems;
        for (size_t i = 0; i < n; i++) {
            const struct impl *im = registry_get(i);
            if ((int)im->path != p || !alg_selected(im->alg))
                continue;
            struct pitem *it = NULL;
            for (int k = first; k < nitems; k++)
                if (!strcmp(items[k].name, im->name))
                    it = &items[k];
            if (!it) {
                if (nitems == MAX_ITEMS)
                    break;
                it = &items[nitems++];
                *it = (struct pitem){ .path = p, .name = im->name, .note = im->note };
            }
            char why[200];
            int ok = app_avail(im, why, sizeof why);
            it->total++;
            if (ok > 0)
                it->avail++;
            else if (!it->why[0])
                snprintf(it->why, sizeof it->why, "%s%s%s", ok < 0 ? "" : im->alg,
                         ok < 0 ? "" : ": ", why);
        }
    }
    return nitems;
}

static int path_avail(int p, int *total)
{
    int a = 0, t = 0;
    for (int k = 0; k < nitems; k++)
        if (items[k].name && items[k].path == p) {
            a += items[k].avail;
            t += items[k].total;
        }
    *total = t;
    return a;
}

void panel_impls_draw(struct rect r, int cursor, int top, ui_hit_fn hit, int hitbase)
{
    ui_text(r.y, r.x, r.w, A_BOLD | A_UNDERLINE, "Paths and implementations");
    for (int k = top, y = r.y + 1; k < nitems && y < r.y + r.h; k++, y++) {
        const struct pitem *it = &items[k];
        int sel = k == cursor;
        int cur = sel ? ui_attr(ROLE_CURSOR) : 0;
        hit_add(y, r.x, r.w, hit, hitbase + k);
        if (sel)
            ui_text(y, r.x - 1, 1, ui_attr(ROLE_KEY), ui_glyph(G_CURSOR));
        if (!it->name) {
            int total, av = path_avail(it->path, &total);
            ui_textf(y, r.x, 4, cur, "[%s]", app_sel()->paths[it->path] ? "x" : " ");
            ui_text(y, r.x + 4, 10, ui_attr(ui_path_role((enum path)it->path)) | A_BOLD,
                    path_label[it->path]);
            ui_textf(y, r.x + 14, r.w - 14, ui_attr(av ? ROLE_OK : ROLE_ABSENT), "%s %d of %d run here",
                     ui_glyph(av ? G_YES : G_NO), av, total);
            continue;
        }
        ui_textf(y, r.x + 2, 4, cur, "[%s]", select_excluded(app_sel(), it->name) ? " " : "x");
        int nw = r.w / 2 > 24 ? 24 : r.w / 2 < 14 ? 14 : r.w / 2;
        ui_text(y, r.x + 6, nw - 1, app_sel()->paths[it->path] ? 0 : ui_attr(ROLE_DIM), it->name);
        int x = r.x + 6 + nw;
        if (it->avail == it->total)
            ui_textf(y, x, r.w - (x - r.x), ui_attr(ROLE_OK), "%s available", ui_glyph(G_YES));
        else if (!it->avail)
            ui_textf(y, x, r.w - (x - r.x), ui_attr(ROLE_ABSENT), "%s %s", ui_glyph(G_NO), it->why);
        else
            ui_textf(y, x, r.w - (x - r.x), ui_attr(ROLE_WARN), "%s %d of %d; %s", ui_glyph(G_PART),
                     it->avail, it->total, it->why);
    }
}

void panel_impls_toggle(struct selection *sel, int k)
{
    if (k < 0 || k >= nitems)
        return;
    if (!items[k].name)
        sel->paths[items[k].path] = !sel->paths[items[k].path];
    else
        select_toggle_excluded(sel, items[k].name);
}

void panel_impls_all(struct selection *sel, int on)
{
    for (int p = 0; p < PATH_COUNT; p++)
        sel->paths[p] = on;
    sel->nexcl = 0;
}

/* The whole story of an item, for the details line. */
void panel_impls_detail(int k, char *buf, size_t n)
{
    if (k < 0 || k >= nitems) {
        buf[0] = 0;
        return;
    }
    const struct pitem *it = &items[k];
    static const char *const what[PATH_COUNT] = {
        "portable C written for accelscope: no asm, no intrinsics",
        "OpenSSL with the CPU's crypto extensions masked (OPENSSL_ia32cap / OPENSSL_armcap)",
        "crypto instructions: OpenSSL's default and accelscope's own kernels",
        "the Linux kernel crypto API over AF_ALG, one entry per /proc/crypto driver",
    };
    if (!it->name)
        snprintf(buf, n, "%s: %s", path_label[it->path], what[it->path]);
    else if (it->avail == it->total)
        snprintf(buf, n, "%s/%s: available for %d selected algorithm%s%s%s", path_id[it->path],
                 it->name, it->total, it->total == 1 ? "" : "s", it->note ? "; " : "",
                 it->note ? it->note : "");
    else
        snprintf(buf, n, "%s/%s: %d of %d run here; %s", path_id[it->path], it->name, it->avail,
                 it->total, it->why);
}
