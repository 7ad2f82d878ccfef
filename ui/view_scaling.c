/* The scaling view: for one algorithm at one size, each implementation's throughput at every
 * thread count selected, on one scale with the line to reach (the single-core silicon
 * ceiling x N, the | mark), its efficiency against N x its own 1-thread figure, the overlap
 * of the N workers' windows (the start barrier), and where it falls outside +-10 %, why
 * (src/scaling.h decides; this file only draws). < > size, [ ] algorithm. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "scaling.h"

#define NAME_W (ui.cols >= 110 ? 26 : 17) /* wide terminals show driver names whole */
#define FIG_W 34 /* threads, MB/s, efficiency, overlap */

/* One line of the view: a cell's row, or the reason under it (reason = 1). */
struct sline {
    const struct cell *cell;
    int reason;
};

static struct sline lines[SELECT_MAX * 8 + 64];
static int nlines;

static int shown(const struct cell *c, const struct algo *a, size_t bytes)
{
    return c->bytes == bytes && !strcmp(c->impl->alg, a->id);
}

/* The scale: the largest figure or line to reach among the cells shown. */
static double scale_hi(const struct algo *a, size_t bytes)
{
    double hi = 0;
    for (size_t i = 0; i < session_ncells(ui.s); i++) {
        const struct cell *c = session_cell(ui.s, i);
        if (!shown(c, a, bytes))
            continue;
        if (c->r.mb_per_s > hi)
            hi = c->r.mb_per_s;
        if (c->limit_mb_per_s * c->threads > hi)
            hi = c->limit_mb_per_s * c->threads;
    }
    return hi;
}

static void build(const struct algo *a, size_t bytes, const struct scaling_env *env)
{
    nlines = 0;
    size_t n = session_ncells(ui.s);
    const struct cell *cells = session_cell(ui.s, 0);
    for (size_t i = 0; i < n && nlines + 2 <= (int)(sizeof lines / sizeof lines[0]); i++) {
        struct scaling sc;
        if (!shown(&cells[i], a, bytes))
            continue;
        lines[nlines++] = (struct sline){ &cells[i], 0 };
        if (scaling_of(cells, n, &cells[i], env, &sc) == 0 && sc.reason[0])
            lines[nlines++] = (struct sline){ &cells[i], 1 };
    }
}

/* A cell's row: path and name (when they change), N, figure, bar with the line to reach. */
static void draw_cell(int y, int w, const struct cell *c, const struct cell *prev, double hi,
                      const struct scaling *sc)
{
    char rate[32];
    int pr = ui_attr(ui_path_role(c->impl->path));
    if (!prev || prev->impl != c->impl) {
        ui_text(y, 1, 8, pr, path_label[c->impl->path]);
        ui_text(y, 10, NAME_W - 1, 0, c->impl->name);
    }
    ui_textf(y, 10 + NAME_W, 4, A_BOLD, "%3d", c->threads);
    int bx = 15 + NAME_W, bw = w - bx - FIG_W;
    if (c->r.status != RES_OK || c->r.mb_per_s <= 0) {
        char st[48];
        ui_text(y, bx, w - bx - 1, ui_attr(ROLE_DIM), c->r.status == RES_PENDING
                ? "not measured yet" : result_status_text(&c->r, st, sizeof st));
        return;
    }
    if (hi > 0) {
        ui_bar(y, bx, bw, c->r.mb_per_s / hi, pr);
        if (sc->reach > 0)
            ui_text(y, bx + (int)(sc->reach / hi * (bw - 1)), 1, ui_attr(ROLE_WARN),
                    ui_glyph(G_MARK));
    }
    int vx = bx + bw + 1;
    ui_textf(y, vx, 12, A_BOLD, "%s%s", ui_algo_rate(algo_find(c->impl->alg), c->r.mb_per_s, rate,
                                                     sizeof rate),
             sc->noisy ? "~" : "");
    if (c->threads > 1 && sc->eff > 0)
        ui_textf(y, vx + 13, 9, ui_attr(sc->scales ? ROLE_OK : ROLE_WARN), "%5.0f %%",
                 sc->eff * 100);
    if (c->threads > 1)
        ui_textf(y, vx + 23, 10, ui_attr(ROLE_DIM), "%4.0f %%", c->r.overlap_pct);
}

static void heading(struct rect r, const struct algo *a, size_t bytes, double ceil1)
{
    char sz[32], rate[32];
    ui_textf(r.y, 1, r.w - 2, A_BOLD | A_UNDERLINE, "%s%s %s: throughput against threads",
             a->id, chart_direction(a), ui_algo_size(a, bytes, sz, sizeof sz));
    if (ceil1 > 0)
        ui_textf(r.y + 1, 1, r.w - 2, ui_attr(ROLE_DIM), "%s to reach: single-core ceiling %s "
                 "%s N %s efficiency = %s(N) / (N %s %s(1)) %s overlap: N windows at once",
                 ui_glyph(G_MARK), ui_rate(ceil1, rate, sizeof rate), ui_glyph(G_TIMES),
                 ui_glyph(G_DOT), algo_unit(a), ui_glyph(G_TIMES), algo_unit(a), ui_glyph(G_DOT));
    else
        ui_textf(r.y + 1, 1, r.w - 2, ui_attr(ROLE_DIM), "no silicon ceiling for %s here %s "
                 "efficiency = %s(N) / (N %s %s(1)) %s overlap: N windows at once", a->id,
                 ui_glyph(G_DOT), algo_unit(a), ui_glyph(G_TIMES), algo_unit(a), ui_glyph(G_DOT));
    int fx = r.w - FIG_W + 1;
    ui_text(r.y + 2, 1, 8, A_BOLD, "path");
    ui_text(r.y + 2, 10, NAME_W - 1, A_BOLD, "implementation");
    ui_text(r.y + 2, 10 + NAME_W, 4, A_BOLD, "  N");
    ui_text(r.y + 2, fx, 12, A_BOLD, algo_unit(a));
    ui_text(r.y + 2, fx + 13, 10, A_BOLD, "efficiency");
    ui_text(r.y + 2, fx + 24, 8, A_BOLD, "overlap");
}

static void hint(struct rect r, const char *text)
{
    ui_text(r.y + 4, 2, r.w - 4, ui_attr(ROLE_WARN), text);
}

void scaling_view_draw(struct rect r)
{
    const struct algo *a = app_cur_alg();
    size_t bytes = a ? algo_cell_size(a, app_cur_size()) : 0; /* a public-key row: its key */
    if (!a || !bytes) {
        ui_text(r.y + 1, 2, r.w - 4, ui_attr(ROLE_WARN),
                "Nothing selected: press s to pick algorithms, sizes and thread counts.");
        return;
    }
    struct scaling_env env;
    scaling_env_of(session_silicon(ui.s), &env);
    build(a, bytes, &env);
    double ceil1 = 0;
    for (int i = 0; i < nlines; i++)
        if (lines[i].cell->limit_mb_per_s > 0)
            ceil1 = lines[i].cell->limit_mb_per_s;
    heading(r, a, bytes, ceil1);
    if (app_sel()->nthreads < 2)
        hint(r, "One thread count selected: in setup (s), Enter on threads and type a list "
                "such as 1,2 (or run -t 1,2,all), then r.");
    int h = r.h - 4, *top = &ui.top[V_SCALING];
    if (*top > nlines - h)
        *top = nlines - h;
    if (*top < 0)
        *top = 0;
    double hi = scale_hi(a, bytes);
    const struct cell *prev = *top > 0 ? lines[*top - 1].cell : NULL;
    for (int i = *top, y = r.y + 3 + (app_sel()->nthreads < 2 ? 2 : 0); i < nlines &&
         y < r.y + r.h; i++, y++) {
        struct scaling sc;
        const struct cell *c = lines[i].cell;
        scaling_of(session_cell(ui.s, 0), session_ncells(ui.s), c, &env, &sc);
        if (lines[i].reason)
            ui_textf(y, 12, r.w - 13, ui_attr(sc.noisy ? ROLE_DIM : ROLE_WARN), "%s %s",
                     ui_glyph(G_ARROW), sc.reason);
        else
            draw_cell(y, r.w, c, prev, hi, &sc);
        prev = c;
    }
}

int scaling_view_key(int ch)
{
    int *top = &ui.top[V_SCALING];
    switch (ch) {
    case '[': if (ui.alg_idx > 0) ui.alg_idx--; return 1;
    case ']': if (ui.alg_idx < app_sel()->nalgs - 1) ui.alg_idx++; return 1;
    case KEY_UP: case 'k': (*top)--; return 1;
    case KEY_DOWN: case 'j': (*top)++; return 1;
    case KEY_PPAGE: *top -= 10; return 1;
    case KEY_NPAGE: *top += 10; return 1;
    case KEY_HOME: case 'g': *top = 0; return 1;
    }
    return view_size_key(ch);
}
