/* The setup screen: pickers for algorithms, block sizes (six presets and custom sizes,
 * validated as `run` validates them), direction, threads and time per cell, beside the
 * paths panel. Left/right move between the three columns, space or Enter toggles. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

enum { COL_ALGS, COL_SIZES, COL_PATHS, NCOLS };
enum okind { O_SIZE, O_ADD, O_DIR, O_THREADS, O_TIME, O_SAVE };

struct opt {
    enum okind kind;
    size_t size;
};

static const double times[] = { 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5 };

static int col, cur[NCOLS], top[NCOLS];
static int editing;
static struct lineedit edit;
static struct opt opts[SELECT_MAX + 16];
static int nopts;

static int has_size(size_t v)
{
    const struct selection *sel = app_sel();
    for (int i = 0; i < sel->nsizes; i++)
        if (sel->sizes[i] == v)
            return 1;
    return 0;
}

static int is_preset(size_t v)
{
    for (int i = 0; i < 6; i++)
        if (select_default_sizes[i] == v)
            return 1;
    return 0;
}

static void build_opts(void)
{
    nopts = 0;
    for (int i = 0; i < 6; i++)
        opts[nopts++] = (struct opt){ O_SIZE, select_default_sizes[i] };
    const struct selection *sel = app_sel();
    for (int i = 0; i < sel->nsizes; i++)
        if (!is_preset(sel->sizes[i]))
            opts[nopts++] = (struct opt){ O_SIZE, sel->sizes[i] };
    opts[nopts++] = (struct opt){ O_ADD, 0 };
    opts[nopts++] = (struct opt){ O_DIR, 0 };
    opts[nopts++] = (struct opt){ O_THREADS, 0 };
    opts[nopts++] = (struct opt){ O_TIME, 0 };
    opts[nopts++] = (struct opt){ O_SAVE, 0 };
}

static int col_len(int c)
{
    if (c == COL_ALGS)
        return (int)algo_count;
    if (c == COL_SIZES)
        return nopts;
    return panel_impls_init();
}

static int alg_on(const struct algo *a)
{
    const struct selection *sel = app_sel();
    for (int i = 0; i < sel->nalgs; i++)
        if (sel->algs[i] == a)
            return 1;
    return 0;
}

/* Algorithms stay in table order, sizes ascending, whatever order they were picked in. */
static void set_alg(struct selection *sel, const struct algo *a, int on)
{
    unsigned char want[64] = { 0 };
    for (size_t i = 0; i < algo_count && i < 64; i++)
        want[i] = (unsigned char)(&algo_table[i] == a ? on : alg_on(&algo_table[i]));
    sel->nalgs = 0;
    for (size_t i = 0; i < algo_count && i < 64; i++)
        if (want[i])
            sel->algs[sel->nalgs++] = &algo_table[i];
}

static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return (a > b) - (a < b);
}

static void set_size(struct selection *sel, size_t v, int on)
{
    size_t keep = app_cur_size();
    int k = 0;
    for (int i = 0; i < sel->nsizes; i++)
        if (sel->sizes[i] != v)
            sel->sizes[k++] = sel->sizes[i];
    if (on && k < SELECT_MAX)
        sel->sizes[k++] = v;
    sel->nsizes = k;
    qsort(sel->sizes, (size_t)k, sizeof sel->sizes[0], cmp_size);
    ui.size_idx = sel->nsizes - 1;
    for (int i = 0; i < sel->nsizes; i++)
        if (sel->sizes[i] == keep)
            ui.size_idx = i;
}

/* A custom size: parsed and checked against the selected algorithms exactly as `run -s`. */
static void add_custom(void)
{
    char why[512];
    size_t v;
    if (select_parse_size(edit.text, &v, why, sizeof why)) {
        ui_set_status(1, "%s", why);
        return;
    }
    struct selection t = *app_sel();
    if (!has_size(v) && t.nsizes < SELECT_MAX)
        t.sizes[t.nsizes++] = v;
    if (select_check(&t, why, sizeof why)) {
        ui_set_status(1, "%s", why);
        return;
    }
    struct selection *sel = app_sel_edit();
    if (!sel)
        return;
    char sz[32];
    set_size(sel, v, 1);
    editing = 0;
    app_rebuild();
    ui_set_status(0, "added %s", ui_size(v, sz, sizeof sz));
}

/* + and -: direction, threads (up to what a run may use: the CPUs this process may run on)
 * and time per cell. */
static void step_value(struct selection *sel, enum okind k, int dir)
{
    if (k == O_THREADS) {
        int max = session_max_threads(NULL);
        sel->threads += dir;
        if (sel->threads > max)
            sel->threads = max;
        if (sel->threads < 1)
            sel->threads = 1;
    } else if (k == O_TIME) {
        int n = (int)(sizeof times / sizeof times[0]), i = 0;
        while (i < n - 1 && times[i] < sel->seconds - 1e-9)
            i++;
        i += dir;
        if (i < 0)
            i = 0;
        if (i >= n)
            i = n - 1;
        sel->seconds = times[i];
    } else if (k == O_DIR) {
        sel->decrypt = !sel->decrypt;
    }
}

static void activate(int c, int i, int dir)
{
    if (c == COL_SIZES && opts[i].kind == O_SAVE) { /* not the selection: allowed while running */
        run_save_toggle();
        return;
    }
    struct selection *sel = app_sel_edit();
    if (!sel)
        return;
    if (c == COL_ALGS) {
        set_alg(sel, &algo_table[i], !alg_on(&algo_table[i]));
    } else if (c == COL_PATHS) {
        panel_impls_toggle(sel, i);
    } else if (opts[i].kind == O_SIZE) {
        set_size(sel, opts[i].size, !has_size(opts[i].size));
    } else if (opts[i].kind == O_ADD) {
        editing = 1;
        lineedit_set(&edit, "");
        ui_set_status(0, "custom size: e.g. 100, 4k, 1M (1 to 16 MiB); Enter adds, Esc cancels");
        return;
    } else {
        step_value(sel, opts[i].kind, dir);
    }
    app_rebuild();
}

static void on_hit(int arg, int y, int x)
{
    (void)y;
    (void)x;
    col = arg / 1000;
    cur[col] = arg % 1000;
    activate(col, cur[col], 1);
}

static void all_or_none(int on)
{
    struct selection *sel = app_sel_edit();
    if (!sel)
        return;
    if (col == COL_ALGS) {
        sel->nalgs = 0;
        for (size_t i = 0; i < algo_count && on; i++)
            if (algo_table[i].in_default)
                sel->algs[sel->nalgs++] = &algo_table[i];
    } else if (col == COL_SIZES) {
        sel->nsizes = 0;
        for (int i = 0; i < 6 && on; i++)
            sel->sizes[sel->nsizes++] = select_default_sizes[i];
        ui.size_idx = sel->nsizes - 1;
    } else {
        panel_impls_all(sel, on);
    }
    app_rebuild();
}

static void keep_visible(int c, int h)
{
    int n = col_len(c);
    if (cur[c] >= n)
        cur[c] = n - 1;
    if (cur[c] < 0)
        cur[c] = 0;
    if (cur[c] < top[c])
        top[c] = cur[c];
    if (cur[c] >= top[c] + h)
        top[c] = cur[c] - h + 1;
}

static void opt_text(const struct opt *o, char *b, size_t n)
{
    char sz[32];
    switch (o->kind) {
    case O_SIZE:
        snprintf(b, n, "[%s] %s%s", has_size(o->size) ? "x" : " ", ui_size(o->size, sz, sizeof sz),
                 is_preset(o->size) ? "" : " (custom)");
        break;
    case O_ADD: snprintf(b, n, "[+] custom size%s", ui_glyph(G_ELLIPSIS)); break;
    case O_DIR: snprintf(b, n, "direction: %s", app_sel()->decrypt ? "decrypt" : "encrypt"); break;
    case O_THREADS:
        snprintf(b, n, "threads: %s %d %s", ui_glyph(G_LEFT), app_sel()->threads, ui_glyph(G_RIGHT));
        break;
    case O_TIME:
        snprintf(b, n, "time/cell: %s %g s %s", ui_glyph(G_LEFT), app_sel()->seconds, ui_glyph(G_RIGHT));
        break;
    case O_SAVE: snprintf(b, n, "save runs: %s", ui_save_runs ? "on" : "off"); break;
    }
}

static void details(int y, int w)
{
    char b[400] = "";
    if (col == COL_ALGS) {
        const struct algo *a = &algo_table[cur[col]];
        static const char *const kind[] = { "cipher: one op transforms N bytes, chained",
                                            "AEAD: one op seals an N-byte message (13-byte AAD, tag)",
                                            "digest: one op hashes an N-byte message",
                                            "random generator: one op fills N bytes" };
        snprintf(b, sizeof b, "%s: %s%s", a->id, kind[a->kind],
                 a->block > 1 ? (a->block == 16 ? "; sizes must be multiples of 16"
                                                : "; sizes must be multiples of 8")
                              : "");
    } else if (col == COL_PATHS) {
        panel_impls_detail(cur[col], b, sizeof b);
    } else {
        static const char *const help[] = {
            [O_SIZE] = "bytes per operation; space toggles; < > pick the size the paths and matrix views show",
            [O_ADD] = "Enter: type a size (e.g. 100, 4k, 1M), checked as 'run -s' checks it",
            [O_DIR] = "ciphers and AEADs: measure encryption or decryption",
            [O_THREADS] = "workers at once, each pinned to its own CPU; figures are summed (+/-)",
            [O_TIME] = "timed seconds per cell, over 5 samples (+/-); longer is steadier",
            [O_SAVE] = "keep every finished run as a CSV in the results folder (o opens them); "
                       "space turns it off",
        };
        snprintf(b, sizeof b, "%s", help[opts[cur[col]].kind]);
    }
    ui_text(y, 1, w - 2, ui_attr(ROLE_DIM), b);
}

void setup_view_draw(struct rect r)
{
    build_opts();
    int w0 = r.w >= 120 ? 26 : 22, w1 = r.w >= 120 ? 30 : 26, x2 = 1 + w0 + w1;
    int h = r.h - 2;
    for (int c = 0; c < NCOLS; c++)
        keep_visible(c, h);
    int ha = ui_attr(col == COL_ALGS ? ROLE_KEY : ROLE_NORMAL) | A_BOLD | A_UNDERLINE;
    ui_text(r.y, 1, w0 - 1, ha, "Algorithms");
    for (int i = top[COL_ALGS], y = r.y + 1; i < (int)algo_count && y < r.y + 1 + h; i++, y++) {
        int at = col == COL_ALGS && i == cur[COL_ALGS] ? ui_attr(ROLE_CURSOR) : 0;
        if (!algo_table[i].in_default && !alg_on(&algo_table[i]))
            at |= ui_attr(ROLE_DIM);
        if (col == COL_ALGS && i == cur[COL_ALGS])
            ui_text(y, 0, 1, ui_attr(ROLE_KEY), ui_glyph(G_CURSOR));
        ui_textf(y, 1, w0 - 1, at, "[%s] %s", alg_on(&algo_table[i]) ? "x" : " ", algo_table[i].id);
        hit_add(y, 1, w0 - 1, on_hit, COL_ALGS * 1000 + i);
    }
    int hs = ui_attr(col == COL_SIZES ? ROLE_KEY : ROLE_NORMAL) | A_BOLD | A_UNDERLINE;
    ui_text(r.y, 1 + w0, w1 - 1, hs, "Block sizes and run");
    for (int i = top[COL_SIZES], y = r.y + 1; i < nopts && y < r.y + 1 + h; i++, y++) {
        int at = col == COL_SIZES && i == cur[COL_SIZES] ? ui_attr(ROLE_CURSOR) : 0;
        if (editing && opts[i].kind == O_ADD) {
            ui_text(y, 1 + w0, 6, A_BOLD, "size: ");
            lineedit_draw(&edit, y, 7 + w0, w1 - 8, ui_attr(ROLE_CURSOR));
            continue;
        }
        char t[96];
        if (col == COL_SIZES && i == cur[COL_SIZES])
            ui_text(y, w0, 1, ui_attr(ROLE_KEY), ui_glyph(G_CURSOR));
        opt_text(&opts[i], t, sizeof t);
        ui_text(y, 1 + w0, w1 - 1, at, t);
        hit_add(y, 1 + w0, w1 - 1, on_hit, COL_SIZES * 1000 + i);
    }
    struct rect pr = { r.y, x2, h + 1, r.w - x2 - 1 };
    panel_impls_draw(pr, col == COL_PATHS ? cur[COL_PATHS] : -1, top[COL_PATHS], on_hit,
                    COL_PATHS * 1000);
    details(r.y + r.h - 1, r.w);
}

int setup_view_key(int ch)
{
    build_opts();
    if (editing) {
        if (ch == 27) {
            editing = 0;
            ui_set_status(0, "no size added");
        } else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
            add_custom();
        } else {
            lineedit_key(&edit, ch);
        }
        return 1;
    }
    switch (ch) {
    case KEY_UP: case 'k': cur[col]--; break;
    case KEY_DOWN: case 'j': cur[col]++; break;
    case KEY_PPAGE: cur[col] -= 10; break;
    case KEY_NPAGE: cur[col] += 10; break;
    case KEY_HOME: case 'g': cur[col] = 0; break;
    case KEY_END: case 'G': cur[col] = col_len(col) - 1; break;
    case KEY_LEFT: case 'h': if (col > 0) col--; break;
    case KEY_RIGHT: if (col < NCOLS - 1) col++; break;
    case ' ': case '\r': case '\n': case KEY_ENTER: keep_visible(col, 1000); activate(col, cur[col], 1); break;
    case '+': case '=':
        if (col == COL_SIZES && opts[cur[col]].kind >= O_DIR)
            activate(col, cur[col], 1);
        break;
    case '-':
        if (col == COL_SIZES && opts[cur[col]].kind >= O_DIR)
            activate(col, cur[col], -1);
        break;
    case 'a': all_or_none(1); break;
    case 'n': all_or_none(0); break;
    default: return 0;
    }
    keep_visible(col, 1000);
    return 1;
}

int setup_view_editing(void)
{
    return editing;
}
