/* The paths view (default): for each algorithm, one bar per implementation at one block
 * size, coloured by path, with the speed-up over the slowest. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"

static void heading(struct chart_row *h, const struct algo *a, size_t bytes, double ceiling)
{
    char sz[32], hi[32];
    h->cell = NULL;
    int n = snprintf(h->hbuf, sizeof h->hbuf, "%s%s %s", a->id, chart_direction(a),
                     ui_size(bytes, sz, sizeof sz));
    if (h->hi > 0 && n > 0 && (size_t)n < sizeof h->hbuf)
        n += snprintf(h->hbuf + n, sizeof h->hbuf - (size_t)n, " %s full bar %s", ui_glyph(G_DOT),
                      ui_rate(h->hi, hi, sizeof hi));
    if (ceiling > 0 && n > 0 && (size_t)n < sizeof h->hbuf)
        snprintf(h->hbuf + n, sizeof h->hbuf - (size_t)n, " %s silicon ceiling %s%s", ui_glyph(G_DOT),
                 ui_rate(ceiling, hi, sizeof hi), ceiling > h->hi && h->hi > 0 ? " (off the scale)" : "");
    h->heading = h->hbuf;
}

void paths_view_draw(struct rect r)
{
    size_t bytes = model_cur_size();
    struct chart_row *rows = chart_rows(ui.plan.n + (size_t)ui.sel.nalgs);
    size_t n = 0;
    for (int a = 0; a < ui.sel.nalgs; a++) {
        size_t h = n++;
        rows[h] = (struct chart_row){ 0 };
        for (size_t i = 0; i < ui.plan.n; i++) {
            const struct cell *c = &ui.plan.cells[i];
            if (c->bytes == bytes && !strcmp(c->impl->alg, ui.sel.algs[a]->id))
                rows[n++] = (struct chart_row){ .cell = c };
        }
        chart_group_scale(rows, h, n);
        double ceiling = 0;
        for (size_t i = h + 1; i < n; i++)
            if (rows[i].cell->impl->path == PATH_HW && rows[i].cell->limit_mb_per_s > 0)
                ceiling = rows[i].cell->limit_mb_per_s;
        heading(&rows[h], ui.sel.algs[a], bytes, ceiling);
    }
    if (!n) {
        ui_text(r.y + 1, 2, r.w - 4, ui_attr(ROLE_WARN),
                "Nothing selected: press s to pick algorithms, sizes and paths.");
        return;
    }
    chart_list_draw(r, rows, n, V_PATHS);
}

/* < and > step through the selected sizes (also used by the matrix view). */
int view_size_key(int ch)
{
    return chart_step_key(ch, &ui.size_idx, ui.sel.nsizes);
}

int paths_view_key(int ch)
{
    return view_size_key(ch) || chart_list_key(ch, V_PATHS);
}
