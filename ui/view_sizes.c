/* The sizes view: one algorithm across the selected block sizes, one group of bars per size
 * on one scale, so the size where one path overtakes another shows. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"

/* The fastest verified cell among rows [from, to). */
static const struct cell *best(const struct chart_row *rows, size_t from, size_t to)
{
    const struct cell *b = NULL;
    for (size_t i = from; i < to; i++) {
        const struct cell *c = rows[i].cell;
        if (c && c->r.status == RES_OK && (!b || c->r.mb_per_s > b->r.mb_per_s))
            b = c;
    }
    return b;
}

void sizes_view_draw(struct rect r)
{
    const struct algo *a = model_cur_alg();
    if (!a || !ui.sel.nsizes) {
        ui_text(r.y + 1, 2, r.w - 4, ui_attr(ROLE_WARN),
                "Nothing selected: press s to pick algorithms, sizes and paths.");
        return;
    }
    size_t ns = (size_t)ui.sel.nsizes;
    struct chart_row *rows = chart_rows(ui.plan.n + 2 * ns + 2);
    size_t n = 0, start[SELECT_MAX + 1];
    for (size_t z = 0; z < ns; z++) {
        char sz[32];
        start[z] = n;
        struct chart_row *h = &rows[n++];
        *h = (struct chart_row){ 0 };
        snprintf(h->hbuf, sizeof h->hbuf, "%s%s %s", a->id, chart_direction(a),
                 ui_size(ui.sel.sizes[z], sz, sizeof sz));
        h->heading = h->hbuf;
        for (size_t i = 0; i < ui.plan.n; i++) {
            const struct cell *c = &ui.plan.cells[i];
            if (c->bytes == ui.sel.sizes[z] && !strcmp(c->impl->alg, a->id))
                rows[n++] = (struct chart_row){ .cell = c };
        }
    }
    start[ns] = n;
    chart_group_scale(rows, 0, n); /* one scale for every size */
    /* Where the fastest path changes from one size to the next: said first, above the bars. */
    struct chart_row notes[SELECT_MAX];
    size_t nn = 0;
    const struct cell *prev = NULL;
    for (size_t z = 0; z < ns; z++) {
        const struct cell *b = best(rows, start[z], start[z + 1]);
        if (b && prev && b->impl->path != prev->impl->path) {
            char sz[32];
            struct chart_row *h = &notes[nn++];
            *h = (struct chart_row){ 0 };
            snprintf(h->hbuf, sizeof h->hbuf, "%s %s/%s overtakes %s/%s at %s", ui_glyph(G_ARROW),
                     path_label[b->impl->path], b->impl->name, path_label[prev->impl->path],
                     prev->impl->name, ui_size(b->bytes, sz, sizeof sz));
            h->heading = h->hbuf;
        }
        if (b)
            prev = b;
    }
    memmove(rows + nn, rows, n * sizeof *rows);
    memcpy(rows, notes, nn * sizeof *rows);
    n += nn;
    for (size_t i = 0; i < n; i++) /* headings point into their own row, which moved */
        if (!rows[i].cell)
            rows[i].heading = rows[i].hbuf;
    chart_list_draw(r, rows, n, V_SIZES);
}

int sizes_view_key(int ch)
{
    if (chart_step_key(ch, &ui.alg_idx, ui.sel.nalgs))
        return 1;
    return chart_list_key(ch, V_SIZES);
}
