/* The sizes view: one algorithm across the selected block sizes, one group of bars per size
 * on one scale, so the size where one path overtakes another shows. Speed-ups compare the
 * paths at the same size (cell->d): a 16 KiB bar is never "x40" against a 16 B one. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"

/* The best cells (cell->d.best: fastest, or tied with it) among rows [from, to): the first
 * in *b, how many in the return value. */
static int best(const struct chart_row *rows, size_t from, size_t to, const struct cell **b)
{
    int k = 0;
    *b = NULL;
    for (size_t i = from; i < to; i++) {
        const struct cell *c = rows[i].cell;
        if (c && c->r.status == RES_OK && c->d.best && !k++)
            *b = c;
    }
    return k;
}

/* One line where the fastest path changes from one size to the next (or a tie hides which
 * is fastest); *prev is the leader so far. */
static int note(struct chart_row *h, const struct chart_row *rows, size_t from, size_t to,
                const struct cell **prev)
{
    const struct cell *b;
    int k = best(rows, from, to, &b);
    char sz[32];
    *h = (struct chart_row){ 0 };
    if (k > 1) {
        snprintf(h->text, sizeof h->text, "= %d rows tie for fastest at %s (their samples "
                 "overlap)", k, ui_algo_size(algo_find(b->impl->alg), b->bytes, sz, sizeof sz));
        return 1;
    }
    int changed = b && *prev && b->impl->path != (*prev)->impl->path;
    if (changed)
        snprintf(h->text, sizeof h->text, "%s %s/%s overtakes %s/%s at %s", ui_glyph(G_ARROW),
                 path_label[b->impl->path], b->impl->name, path_label[(*prev)->impl->path],
                 (*prev)->impl->name, ui_algo_size(algo_find(b->impl->alg), b->bytes, sz, sizeof sz));
    if (b)
        *prev = b;
    return changed;
}

/* The heading and the cells of one size, from rows[*n] on. */
static void add_size(struct chart_row *rows, size_t *n, const struct algo *a, size_t bytes)
{
    char sz[32];
    struct chart_row *h = &rows[(*n)++];
    *h = (struct chart_row){ 0 };
    snprintf(h->text, sizeof h->text, "%s%s %s", a->id, chart_direction(a),
             ui_algo_size(a, bytes, sz, sizeof sz));
    for (size_t i = 0; i < session_ncells(ui.s); i++) {
        const struct cell *c = session_cell(ui.s, i);
        if (c->bytes == bytes && !strcmp(c->impl->alg, a->id))
            rows[(*n)++] = (struct chart_row){ .cell = c };
    }
}

/* Whether the sizes view of a shows x's cells: a itself, and for a public-key operation the
 * same operation of its family at another key size. A cipher beside it has no family. */
int sizes_view_has(const struct algo *a, const struct algo *x)
{
    if (x == a)
        return 1;
    return !algo_sized(a) && x->family && !strcmp(x->family, a->family) && x->pk_op == a->pk_op;
}

void sizes_view_draw(struct rect r)
{
    const struct algo *a = app_cur_alg();
    const struct selection *sel = app_sel();
    if (!a || (algo_sized(a) && !sel->nsizes)) { /* a public-key operation has its key size */
        ui_text(r.y + 1, 2, r.w - 4, ui_attr(ROLE_WARN),
                "Nothing selected: press s to pick algorithms, sizes and paths.");
        return;
    }
    /* A public-key operation has one size: the view becomes a key-size view, the same
     * operation of its family at each selected key size (rsa2048/3072/4096-sign). */
    const struct algo *at[SELECT_MAX];
    size_t ns = 0;
    for (int k = 0; k < (algo_sized(a) ? sel->nsizes : sel->nalgs); k++)
        if (algo_sized(a) || sizes_view_has(a, sel->algs[k]))
            at[ns++] = algo_sized(a) ? a : sel->algs[k];
    struct chart_row *rows = chart_rows(session_ncells(ui.s) + 2 * ns + PATH_COUNT + 2);
    size_t n = 0, start[SELECT_MAX + 1];
    for (size_t z = 0; z < ns; z++) {
        start[z] = n;
        add_size(rows, &n, at[z], algo_cell_size(at[z], algo_sized(a) ? sel->sizes[z] : 0));
    }
    start[ns] = n;
    chart_group_scale(rows, 0, n); /* one scale for every size */
    /* Where the fastest path changes from one size to the next: said first, above the bars. */
    struct chart_row notes[SELECT_MAX];
    size_t nn = 0;
    const struct cell *prev = NULL;
    for (size_t z = 0; z < ns; z++)
        nn += (size_t)note(&notes[nn], rows, start[z], start[z + 1], &prev);
    memmove(rows + nn, rows, n * sizeof *rows);
    memcpy(rows, notes, nn * sizeof *rows);
    n += nn;
    chart_fold(rows, &n);
    chart_list_draw(r, rows, n, V_SIZES);
}

int sizes_view_key(int ch)
{
    if (chart_step_key(ch, &ui.alg_idx, app_sel()->nalgs))
        return 1;
    return chart_list_key(ch, V_SIZES);
}
