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
    int n = snprintf(h->text, sizeof h->text, "%s%s %s", a->id, chart_direction(a),
                     ui_algo_size(a, bytes, sz, sizeof sz));
    if (h->hi > 0 && n > 0 && (size_t)n < sizeof h->text)
        n += snprintf(h->text + n, sizeof h->text - (size_t)n, " %s full bar %s", ui_glyph(G_DOT),
                      ui_algo_rate(a, h->hi, hi, sizeof hi));
    if (ceiling > 0 && n > 0 && (size_t)n < sizeof h->text)
        snprintf(h->text + n, sizeof h->text - (size_t)n, " %s silicon ceiling %s%s", ui_glyph(G_DOT),
                 ui_rate(ceiling, hi, sizeof hi), ceiling > h->hi && h->hi > 0 ? " (off the scale)" : "");
}

void paths_view_draw(struct rect r)
{
    size_t bytes = app_cur_size();
    const struct selection *sel = app_sel();
    struct chart_row *rows = chart_rows(session_ncells(ui.s) + (size_t)sel->nalgs + PATH_COUNT);
    size_t n = 0;
    for (int a = 0; a < sel->nalgs; a++) {
        size_t h = n++, at = algo_cell_size(sel->algs[a], bytes); /* public-key: key size */
        rows[h] = (struct chart_row){ 0 };
        for (size_t i = 0; i < session_ncells(ui.s); i++) {
            const struct cell *c = session_cell(ui.s, i);
            if (c->bytes == at && !strcmp(c->impl->alg, sel->algs[a]->id))
                rows[n++] = (struct chart_row){ .cell = c };
        }
        chart_group_scale(rows, h, n);
        double ceiling = 0;
        for (size_t i = h + 1; i < n; i++)
            if (rows[i].cell->impl->path == PATH_HW && rows[i].cell->limit_mb_per_s > 0)
                ceiling = rows[i].cell->limit_mb_per_s;
        heading(&rows[h], sel->algs[a], at, ceiling);
    }
    chart_fold(rows, &n);
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
    return chart_step_key(ch, &ui.size_idx, app_sel()->nsizes);
}

int paths_view_key(int ch)
{
    return view_size_key(ch) || chart_list_key(ch, V_PATHS);
}
