/* The matrix view: implementations x algorithms at one size, MB/s, the best of each column
 * highlighted (and starred, for monochrome terminals; '=' where the best is a tie). */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

#define COL_W 10
#define HEAD_W 29

struct mrow {
    enum path path;
    const char *name;
    int threads; /* a row per thread count */
};

static struct mrow mrows[SELECT_MAX * 2];
static int nmrows;
static const struct cell *grid[SELECT_MAX * 2][SELECT_MAX];

static void build(size_t bytes)
{
    const struct selection *sel = app_sel();
    char why[8];
    nmrows = 0;
    memset(grid, 0, sizeof grid);
    for (size_t i = 0; i < session_ncells(ui.s); i++) {
        const struct cell *c = session_cell(ui.s, i);
        if (c->bytes != algo_cell_size(algo_find(c->impl->alg), bytes) || /* public-key: */
            chart_folded(c->impl->path, why, sizeof why))                  /* its key size */
            continue;
        int r = 0;
        while (r < nmrows && !(mrows[r].path == c->impl->path && mrows[r].threads == c->threads &&
                               !strcmp(mrows[r].name, c->impl->name)))
            r++;
        if (r == nmrows) {
            if (nmrows == (int)(sizeof mrows / sizeof mrows[0]))
                continue;
            mrows[nmrows++] = (struct mrow){ c->impl->path, c->impl->name, c->threads };
        }
        for (int a = 0; a < sel->nalgs; a++)
            if (!strcmp(sel->algs[a]->id, c->impl->alg))
                grid[r][a] = c;
    }
    /* Rows read by path, as everywhere else. */
    for (int i = 1; i < nmrows; i++)
        for (int j = i; j > 0 && mrows[j].path < mrows[j - 1].path; j--) {
            struct mrow t = mrows[j];
            mrows[j] = mrows[j - 1];
            mrows[j - 1] = t;
            for (int a = 0; a < sel->nalgs; a++) {
                const struct cell *g = grid[j][a];
                grid[j][a] = grid[j - 1][a];
                grid[j - 1][a] = g;
            }
        }
}

/* An algorithm id over two lines of COL_W - 1 columns: "chacha20-" / "poly1305". */
static void split_id(const char *id, char *l1, char *l2, size_t n)
{
    size_t len = strlen(id), cut = len;
    if (len > COL_W - 1) {
        cut = 0;
        for (size_t i = 0; i < len && i < COL_W - 1; i++)
            if (id[i] == '-')
                cut = i + 1;
        if (!cut)
            cut = COL_W - 1;
    }
    snprintf(l1, n, "%.*s", (int)cut, id);
    snprintf(l2, n, "%s", id + cut);
}

static void cell_text(const struct cell *c, char *b, size_t n)
{
    if (!c) {
        snprintf(b, n, "-");
        return;
    }
    if (c->r.status == RES_OK || (c->r.status == RES_RUNNING && c->r.mb_per_s > 0))
    {
        double v = algo_rate(algo_find(c->impl->alg), c->r.mb_per_s); /* MB/s or ops/s */
        snprintf(b, n, v >= 1000 ? "%.0f" : "%.1f", v);
    }
    else
        snprintf(b, n, "%s", chart_status_short(&c->r));
}

static int matrix_col;

static void matrix_hit(int arg, int y, int x)
{
    (void)y;
    (void)x;
    ui.cursor[V_MATRIX] = arg / SELECT_MAX;
    matrix_col = arg % SELECT_MAX;
}

/* Keeps the selected row and column in sight; returns the columns that fit. */
static int keep_in_sight(struct rect r, int h, int nc)
{
    int *cur = &ui.cursor[V_MATRIX], *left = &ui.left[V_MATRIX], *top = &ui.top[V_MATRIX];
    if (*cur >= nmrows)
        *cur = nmrows - 1;
    if (matrix_col >= nc)
        matrix_col = nc - 1;
    int vis = (r.w - HEAD_W - 1) / COL_W;
    if (vis < 1)
        vis = 1;
    if (matrix_col < *left)
        *left = matrix_col;
    if (matrix_col >= *left + vis)
        *left = matrix_col - vis + 1;
    if (*cur < *top)
        *top = *cur;
    if (*cur >= *top + h)
        *top = *cur - h + 1;
    return vis;
}

static void column_heads(struct rect r, int vis, int nc)
{
    int left = ui.left[V_MATRIX];
    for (int a = left, x = HEAD_W; a < nc && a < left + vis; a++, x += COL_W) {
        char l1[32], l2[32];
        split_id(app_sel()->algs[a]->id, l1, l2, sizeof l1);
        int at = A_BOLD | (a == matrix_col ? A_UNDERLINE : 0);
        ui_textf(r.y + 1, x, COL_W - 1, at, "%*s", COL_W - 1, l1);
        ui_textf(r.y + 2, x, COL_W - 1, at, "%*s", COL_W - 1, l2);
    }
    if (left > 0)
        ui_text(r.y + 1, HEAD_W - 2, 1, ui_attr(ROLE_KEY), ui_glyph(G_LEFT));
    if (left + vis < nc)
        ui_text(r.y + 1, r.w - 1, 1, ui_attr(ROLE_KEY), ui_glyph(G_RIGHT));
}

/* One figure: the best of its column highlighted and starred, a tie for best marked '='
 * on each tied cell (cell->d), failures in their colour. */
static void grid_cell(int y, int x, const struct cell *c, int selected)
{
    char t[32];
    cell_text(c, t, sizeof t);
    int at = A_NORMAL;
    if (c && c->r.status == RES_OK && c->d.best) {
        at = ui_attr(ROLE_BEST);
        strcat(t, c->d.tie ? "=" : "*");
    } else if (c && c->r.status == RES_OK && c->r.fallback) {
        at = ui_attr(ROLE_WARN); /* an engine row whose work software did: 's', never a path's */
        strcat(t, "s");
    } else if (c && c->r.status == RES_OK && (c->d.noisy || c->d.same_as)) {
        at = ui_attr(ROLE_DIM); /* noisy: '~'; the same code as another row: '^' */
        strcat(t, c->d.noisy ? "~" : "^");
    } else if (c && c->r.status != RES_OK && c->r.status != RES_PENDING &&
               c->r.status != RES_RUNNING) {
        at = c->r.status == RES_UNAVAILABLE ? ui_attr(ROLE_DIM) : ui_attr(ROLE_ERROR);
    }
    if (selected)
        at |= A_REVERSE;
    ui_textf(y, x, COL_W - 1, at, "%*s", COL_W - 1, t);
}

/* Paths whose every cell shares one reason, on one line under the table. */
static int folded_line(int y, int w)
{
    char why[200], line[512] = "";
    size_t k = 0;
    for (int p = 0; p < PATH_COUNT; p++)
        if (chart_folded((enum path)p, why, sizeof why) && k < sizeof line)
            k += (size_t)snprintf(line + k, sizeof line - k, "%s%s: every row unavailable: %s",
                                  k ? "; " : "", path_label[p], why);
    if (!k)
        return 0;
    ui_textf(y, 1, w - 2, ui_attr(ROLE_ABSENT), "(u shows them) %s", line);
    return 1;
}

static int count_pk(void)
{
    int k = 0;
    for (int a = 0; a < app_sel()->nalgs; a++)
        k += !algo_sized(app_sel()->algs[a]);
    return k;
}

/* What the figures are: MB/s at the size picked, ops/s at a public-key operation's key size. */
static const char *units(char *b, size_t n)
{
    char sz[32];
    int pk = count_pk();
    if (pk == app_sel()->nalgs)
        snprintf(b, n, "ops/s at each operation's key size");
    else
        snprintf(b, n, "MB/s%s at %s %s", pk ? " (public-key columns: ops/s at their key size)" : "",
                 ui_size(app_cur_size(), sz, sizeof sz), app_sel()->decrypt ? "decrypt" : "encrypt");
    return b;
}

void matrix_view_draw(struct rect r)
{
    size_t bytes = app_cur_size();
    build(bytes);
    int nc = app_sel()->nalgs;
    if (!nmrows || !nc) {
        ui_text(r.y + 1, 2, r.w - 4, ui_attr(ROLE_WARN),
                "Nothing selected: press s to pick algorithms, sizes and paths.");
        return;
    }
    char u[128];
    ui_textf(r.y, 1, r.w - 2, ui_attr(ROLE_DIM),
             "%s %s best of each column highlighted (*, = a tie) %s < > size %s arrows move",
             units(u, sizeof u), ui_glyph(G_DOT), ui_glyph(G_DOT), ui_glyph(G_DOT));
    int h = r.h - 4 - folded_line(r.y + r.h - 2, r.w);
    int vis = keep_in_sight(r, h, nc), cur = ui.cursor[V_MATRIX], left = ui.left[V_MATRIX];
    column_heads(r, vis, nc);
    for (int i = ui.top[V_MATRIX], y = r.y + 3; i < nmrows && y < r.y + 3 + h; i++, y++) {
        if (i == cur)
            ui_text(y, 1, 2, ui_attr(ROLE_KEY), ui_glyph(G_CURSOR));
        ui_text(y, 3, 8, ui_attr(ui_path_role(mrows[i].path)), path_label[mrows[i].path]);
        ui_textf(y, 12, HEAD_W - 13, A_NORMAL, mrows[i].threads > 1 ? "%s %dt" : "%s",
                 mrows[i].name, mrows[i].threads);
        for (int a = left, x = HEAD_W; a < nc && a < left + vis; a++, x += COL_W) {
            grid_cell(y, x, grid[i][a], i == cur && a == matrix_col);
            hit_add(y, x, COL_W, matrix_hit, i * SELECT_MAX + a);
        }
    }
    chart_details(r.y + r.h - 1, r.w, grid[cur][matrix_col]);
}

int matrix_view_key(int ch)
{
    if (view_size_key(ch))
        return 1;
    switch (ch) {
    case KEY_LEFT:
        if (matrix_col > 0)
            matrix_col--;
        return 1;
    case KEY_RIGHT:
        if (matrix_col < app_sel()->nalgs - 1)
            matrix_col++;
        return 1;
    }
    return chart_key_nav(ch, V_MATRIX, nmrows);
}
