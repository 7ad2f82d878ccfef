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
static int editing;          /* a line being typed: a custom size, or the thread list */
static enum okind edit_kind; /* which: O_ADD or O_THREADS */
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

/* The thread list as `run -t` takes it: "1,2,4". */
static const char *thread_list(const struct selection *sel, char *b, size_t n)
{
    int off = 0;
    b[0] = 0;
    for (int i = 0; i < sel->nthreads && off >= 0 && (size_t)off < n; i++)
        off += snprintf(b + off, n - (size_t)off, "%s%d", i ? "," : "", sel->threads[i]);
    return b;
}

/* A thread list typed: parsed and checked as `run -t` does (select_threads). */
static void set_threads(void)
{
    char why[512];
    struct selection t = *app_sel();
    if (select_threads(&t, edit.text, session_max_threads(NULL), why, sizeof why)) {
        ui_set_status(1, "%s", why);
        return;
    }
    struct selection *sel = app_sel_edit();
    if (!sel)
        return;
    select_threads(sel, edit.text, session_max_threads(NULL), why, sizeof why);
    editing = 0;
    app_rebuild();
    ui_set_status(0, "threads: %s (each count is a cell of its own; 6 shows the scaling)",
                  thread_list(sel, why, sizeof why));
}

/* + and - on threads: the largest count one more or less, up to what a run may use (the
 * CPUs this process may run on); the smaller counts of a list stay. */
static void step_threads(struct selection *sel, int dir)
{
    char list[SELECT_MAX * 4 + 16], why[256];
    int last = select_max_threads(sel) + dir;
    sel->nthreads--; /* the largest, replaced by last */
    int off = (int)strlen(thread_list(sel, list, sizeof list));
    snprintf(list + off, sizeof list - (size_t)off, "%s%d", off ? "," : "",
             last < 1 ? 1 : last > session_max_threads(NULL) ? session_max_threads(NULL) : last);
    select_threads(sel, list, session_max_threads(NULL), why, sizeof why);
}

/* + and -: direction, threads and time per cell. */
static void step_value(struct selection *sel, enum okind k, int dir)
{
    if (k == O_THREADS) {
        step_threads(sel, dir);
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

/* A line to type: a custom size, or the thread list. */
static void begin_edit(enum okind k)
{
    char b[SELECT_MAX * 4 + 16];
    editing = 1;
    edit_kind = k;
    lineedit_set(&edit, k == O_THREADS ? thread_list(app_sel(), b, sizeof b) : "");
    if (k == O_THREADS)
        ui_set_status(0, "threads: a list, e.g. 1,2,4 or 1,all (all = %d); Enter sets, Esc cancels",
                      session_max_threads(NULL));
    else
        ui_set_status(0, "custom size: e.g. 100, 4k, 1M (1 to 16 MiB); Enter adds, Esc cancels");
}

/* Enter, space or a click on item i of column c (dir: + or - on a value). */
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
    } else if (opts[i].kind == O_ADD || (opts[i].kind == O_THREADS && !dir)) {
        begin_edit(opts[i].kind);
        return;
    } else {
        step_value(sel, opts[i].kind, dir ? dir : 1);
    }
    app_rebuild();
}

static void on_hit(int arg, int y, int x)
{
    (void)y;
    (void)x;
    col = arg / 1000;
    cur[col] = arg % 1000;
    activate(col, cur[col], 0);
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
    case O_THREADS: {
        char t[SELECT_MAX * 4 + 16];
        snprintf(b, n, "threads: %s %s %s", ui_glyph(G_LEFT), thread_list(app_sel(), t, sizeof t),
                 ui_glyph(G_RIGHT));
        break;
    }
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
                                            "random generator: one op fills N bytes",
                                            "public-key: one op signs, verifies or derives once, "
                                            "at the key size (sizes do not apply); ops/s" };
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
            [O_THREADS] = "workers at once, each on its own CPU, figures summed; Enter types a list "
                          "(1,2,all: a cell per count; 6 shows the scaling); +/- the largest",
            [O_TIME] = "timed seconds per cell, a budget its column shares, waits for slow spells "
                       "included (+/-); longer is steadier",
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
        if (editing && opts[i].kind == edit_kind) {
            const char *label = edit_kind == O_THREADS ? "threads: " : "size: ";
            int lw = (int)strlen(label);
            ui_text(y, 1 + w0, lw, A_BOLD, label);
            lineedit_draw(&edit, y, 1 + lw + w0, w1 - 2 - lw, ui_attr(ROLE_CURSOR));
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
            ui_set_status(0, "%s", edit_kind == O_THREADS ? "threads unchanged" : "no size added");
        } else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
            if (edit_kind == O_THREADS)
                set_threads();
            else
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
    case ' ': case '\r': case '\n': case KEY_ENTER: keep_visible(col, 1000); activate(col, cur[col], 0); break;
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
