/* The compare view: saved runs (opened with o, open.c) beside this one. Per algorithm, one bar
 * per machine and path on one scale, with xN against the first side: this run when it has
 * figures, else the first file opened. The table is src/compare.c's; this only draws it.
 * Machines are told apart by what their CSV says (compare.h labels them); two runs of one
 * machine are said to be runs, the earlier "before", the later "after". */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "compare.h"

#define NAME_W 22
#define VALUE_W 22

struct cline {
    int heading;      /* 1: the algorithm's heading; 0: one side's bar */
    size_t row, side; /* in the table */
    double lo, hi;    /* the block's scale */
};

static struct csvread_set *files; /* the files opened, in order */
static size_t nfiles;
static struct csvread_set live;   /* this run's cells, when it has figures */
static int have_live, stale = 1, showing;
static struct compare_table t;
static int built;
static char runtag[32][40];       /* per side (the first 32): "run 1 of 2, before" */
static size_t sizes[64], nsizes, want_bytes;
static struct cline *lines;
static size_t nlines;
static int top;

size_t cmpv_nfiles(void)
{
    return nfiles;
}

const char *cmpv_file(size_t i)
{
    return i < nfiles ? files[i].name : "";
}

int cmpv_showing(void)
{
    return showing;
}

void cmpv_show(int on)
{
    showing = on && nfiles;
}

void cmpv_invalidate(void)
{
    stale = 1;
}

/* Runs of one machine (same host and CPU), numbered by time. */
static void tag_runs(void)
{
    for (size_t i = 0; i < t.nsides && i < 32; i++) {
        const struct compare_side *s = &t.sides[i];
        size_t n = 0, k = 1;
        for (size_t j = 0; j < t.nsides; j++) {
            const struct compare_side *o = &t.sides[j];
            if (strcmp(s->host, o->host) || strcmp(s->cpu, o->cpu))
                continue;
            n++;
            k += j != i && (strcmp(o->timestamp, s->timestamp) < 0 ||
                            (!strcmp(o->timestamp, s->timestamp) && j < i));
        }
        runtag[i][0] = 0;
        if (n > 1)
            snprintf(runtag[i], sizeof runtag[i], "run %zu of %zu%s", k, n,
                     n == 2 ? (k == 1 ? ", before" : ", after") : "");
    }
}

static int has_figure(const struct cell *c)
{
    return c->r.status == RES_OK && c->r.mb_per_s > 0;
}

/* The bytes a row is shown at: the size picked, or a public-key operation's key size. */
static size_t row_size(const struct compare_row *row, size_t bytes)
{
    const struct algo *a = algo_find(row->algorithm);
    return a ? algo_cell_size(a, bytes) : bytes;
}

/* The block sizes of the table (< > step through them); a public-key row's key size is not
 * one: it shows at every size. */
static void find_sizes(void)
{
    nsizes = 0;
    for (size_t i = 0; i < t.nrows; i++) {
        size_t b = t.rows[i].bytes, k = 0;
        const struct algo *a = algo_find(t.rows[i].algorithm);
        if (a && !algo_sized(a))
            continue;
        while (k < nsizes && sizes[k] < b)
            k++;
        if ((k < nsizes && sizes[k] == b) || nsizes == sizeof sizes / sizeof sizes[0])
            continue;
        memmove(&sizes[k + 1], &sizes[k], (nsizes - k) * sizeof sizes[0]);
        sizes[k] = b;
        nsizes++;
    }
    size_t k = 0; /* the size shown before, else the nearest larger one, else the largest */
    while (k + 1 < nsizes && sizes[k] < want_bytes)
        k++;
    if (nsizes && (!want_bytes || sizes[k] < want_bytes))
        k = nsizes - 1;
    want_bytes = nsizes ? sizes[k] : 0;
}

static void push_line(struct cline l, size_t *cap)
{
    if (nlines == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        lines = realloc(lines, *cap * sizeof *lines);
        if (!lines)
            abort();
    }
    lines[nlines++] = l;
}

static int same_block(size_t a, size_t b)
{
    return !strcmp(t.rows[a].algorithm, t.rows[b].algorithm) &&
           !strcmp(t.rows[a].direction, t.rows[b].direction);
}

/* The lines at the size shown: a heading per algorithm, a bar per path and side. */
static void layout(void)
{
    size_t cap = 0, head = 0;
    nlines = 0;
    for (size_t i = 0; i < t.nrows; i++) {
        if (t.rows[i].bytes != row_size(&t.rows[i], want_bytes))
            continue;
        if (!nlines || !same_block(lines[head].row, i)) {
            head = nlines;
            push_line((struct cline){ 1, i, 0, 0, 0 }, &cap);
        }
        for (size_t k = 0; k < t.nsides; k++) {
            const struct compare_fig *f = &t.rows[i].fig[k];
            if (*f->status)
                push_line((struct cline){ 0, i, k, 0, 0 }, &cap);
            if (f->mb_per_s > 0 && (lines[head].lo == 0 || f->mb_per_s < lines[head].lo))
                lines[head].lo = f->mb_per_s;
            if (f->mb_per_s > lines[head].hi)
                lines[head].hi = f->mb_per_s;
        }
    }
    for (size_t i = 0, h = 0; i < nlines; i++) {
        if (lines[i].heading)
            h = i;
        lines[i].lo = lines[h].lo;
        lines[i].hi = lines[h].hi;
    }
}

/* This run as a side, when it has a figure: the reference of the ratios. */
static void take_live(void)
{
    if (have_live)
        csvread_free(&live);
    have_live = 0;
    size_t n = session_ncells(ui.s);
    for (size_t i = 0; i < n; i++)
        if (has_figure(session_cell(ui.s, i))) {
            csvread_from_cells(session_cell(ui.s, 0), n, "this run", &live);
            have_live = 1;
            break;
        }
}

static void rebuild(void)
{
    if (!stale)
        return;
    stale = 0;
    if (built)
        compare_free(&t);
    built = 0;
    nlines = 0;
    take_live();
    size_t n = (size_t)have_live + nfiles;
    struct csvread_set *sets = calloc(n ? n : 1, sizeof *sets);
    if (!sets)
        abort();
    if (have_live)
        sets[0] = live; /* shallow: the table points into the sets, which stay */
    memcpy(sets + have_live, files, nfiles * sizeof *files);
    char why[256];
    if (n && !compare_build(sets, n, 0, &t, why, sizeof why)) {
        built = 1;
        tag_runs();
        find_sizes();
        layout();
    }
    free(sets);
}

const struct compare_table *cmpv_table(void)
{
    rebuild();
    return built ? &t : NULL;
}

size_t cmpv_size(void)
{
    return want_bytes;
}

int cmpv_load(const char *path, char *why, size_t n)
{
    for (size_t i = 0; i < nfiles; i++)
        if (!strcmp(files[i].name, path)) {
            snprintf(why, n, "%s is open already", path);
            return -1;
        }
    struct csvread_set s;
    if (csvread_file(path, &s, why, n))
        return -1;
    if (!s.n) {
        snprintf(why, n, "%s: a header and no measurement", path);
        csvread_free(&s);
        return -1;
    }
    struct csvread_set *nf = realloc(files, (nfiles + 1) * sizeof *files);
    if (!nf)
        abort();
    files = nf;
    files[nfiles++] = s;
    stale = 1;
    showing = 1;
    top = 0;
    return 0;
}

/* x closes the file opened last. */
static void drop_last(void)
{
    if (!nfiles)
        return;
    ui_set_status(0, "closed %s", files[nfiles - 1].name);
    if (built) /* the table points into the set: gone before it goes */
        compare_free(&t);
    built = 0;
    nlines = 0;
    csvread_free(&files[--nfiles]);
    stale = 1;
    if (!nfiles)
        showing = 0;
}

static const char *caps_short(const char *c)
{
    const char *p = strstr(c, "ia32cap=");
    if (!p)
        p = strstr(c, "armcap=");
    return p ? strchr(p, '=') + 1 : *c ? c : "?";
}

/* One line per side: what tells the machines apart, as their CSVs say it. */
static int sides_draw(struct rect r)
{
    int shown = 0;
    for (size_t k = 0; k < t.nsides && shown < r.h; k++, shown++) {
        const struct compare_side *s = &t.sides[k];
        if (shown == r.h - 1 && k + 1 < t.nsides) {
            ui_textf(r.y + shown, 1, r.w - 2, ui_attr(ROLE_DIM), "%s and %zu more sides (e to "
                     "a .csv or .json names every one)", ui_glyph(G_ELLIPSIS), t.nsides - k);
            return shown + 1;
        }
        ui_textf(r.y + shown, 1, 3, ui_attr(ROLE_KEY) | A_BOLD, "%c", s->letter);
        ui_textf(r.y + shown, 4, r.w - 5, A_NORMAL,
                 "%s%s%s%s %s %s %s kernel %s %s %s %s caps %s %s %s", s->host,
                 k < 32 && runtag[k][0] ? " (" : "", k < 32 ? runtag[k] : "",
                 k < 32 && runtag[k][0] ? ")" : "", ui_glyph(G_DOT), *s->cpu ? s->cpu : "CPU ?",
                 ui_glyph(G_DOT), *s->kernel ? s->kernel : "?", ui_glyph(G_DOT),
                 *s->openssl ? s->openssl : "OpenSSL ?", ui_glyph(G_DOT),
                 caps_short(s->capabilities), ui_glyph(G_DOT), s->file);
    }
    return shown;
}

static void heading_draw(int y, int w, const struct cline *l)
{
    const struct compare_row *row = &t.rows[l->row];
    char sz[32];
    ui_textf(y, 1, w - 2, A_BOLD | A_UNDERLINE, "%s%s%s %s", row->algorithm,
             *row->direction ? " " : "", row->direction,
             ui_algo_size(algo_find(row->algorithm), row->bytes, sz, sizeof sz));
}

static void ratio_draw(int y, int x, const struct compare_row *row, size_t k)
{
    const struct compare_fig *f = &row->fig[k], *a = &row->fig[0];
    if (k == 0) {
        ui_text(y, x, 10, ui_attr(ROLE_DIM), "reference");
        return;
    }
    if (!(f->ratio > 0))
        return;
    /* A ratio from a noisy figure is shown with its ~: a figure, never a claim. */
    int noisy = f->noisy || a->noisy;
    ui_textf(y, x, 10, noisy ? ui_attr(ROLE_WARN) : ui_attr(ROLE_KEY),
             f->ratio >= 10 ? "%s%.1f%s" : f->ratio >= 0.1 ? "%s%.2f%s" : "%s%.3f%s",
             ui_glyph(G_TIMES), f->ratio, noisy ? "~" : "");
}

static void bar_draw(int y, int w, const struct cline *l, int first_of_path)
{
    const struct compare_row *row = &t.rows[l->row];
    const struct compare_fig *f = &row->fig[l->side];
    const struct compare_side *s = &t.sides[l->side];
    int p = path_by_id(row->path);
    int pr = p >= 0 ? ui_attr(ui_path_role((enum path)p)) : (int)A_NORMAL;
    if (first_of_path && row->threads > 1)
        ui_textf(y, 2, 9, pr, "%s %dt", p >= 0 ? path_label[p] : row->path, row->threads);
    else if (first_of_path)
        ui_text(y, 2, 9, pr, p >= 0 ? path_label[p] : row->path);
    ui_textf(y, 12, 2, ui_attr(ROLE_KEY) | A_BOLD, "%c", s->letter);
    ui_text(y, 14, NAME_W - 3, A_NORMAL, l->side < 32 && runtag[l->side][0] ? runtag[l->side]
                                                                            : s->label);
    int bx = 12 + NAME_W, bw = w - bx - VALUE_W;
    char rate[32];
    if (!(f->mb_per_s > 0)) {
        ui_text(y, bx, w - bx - 1, ui_attr(ROLE_DIM), *f->status ? f->status : "not measured");
        return;
    }
    ui_bar(y, bx, bw, ui_scale(f->mb_per_s, l->lo, l->hi), pr);
    ui_textf(y, bx + bw + 1, 10, A_BOLD, "%10s",
             ui_algo_rate(algo_find(row->algorithm), f->mb_per_s, rate, sizeof rate));
    if (f->noisy)
        ui_text(y, bx + bw + 11, 1, ui_attr(ROLE_WARN), "~");
    ratio_draw(y, bx + bw + 13, row, l->side);
    if (*f->same_code_as && bw > 30) /* never credit the hardware for what SIMD did */
        ui_textf(y, bx + 1, bw - 2, ui_attr(ROLE_DIM), " same code as %s ", f->same_code_as);
}

static void keep_top(int h)
{
    if (top > (int)nlines - h)
        top = (int)nlines - h;
    if (top < 0)
        top = 0;
}

void cmpv_draw(struct rect r)
{
    rebuild();
    if (!built) {
        ui_text(r.y + 1, 2, r.w - 4, ui_attr(ROLE_DIM), "nothing to compare: o opens a saved run");
        return;
    }
    int ns = sides_draw((struct rect){ r.y, 0, t.nsides < 4 ? (int)t.nsides : 4, r.w });
    int x = 1;
    for (int p = 0; p < PATH_COUNT; p++) {
        ui_bar(r.y + ns, x, 1, 1.0, ui_attr(ui_path_role((enum path)p)));
        ui_text(r.y + ns, x + 2, r.w - x - 2, A_NORMAL, path_label[p]);
        x += 3 + (int)strlen(path_label[p]);
    }
    char sz[32], at[48] = "public-key only: at key size"; /* no block size to step */
    if (nsizes)
        snprintf(at, sizeof at, "size %s (< >)", ui_size(want_bytes, sz, sizeof sz));
    ui_textf(r.y + ns, x, r.w - x - 1, ui_attr(ROLE_DIM), " %s scale %s (l) %s %sN over A %s "
             "~ noisy: no claim %s %s", ui_glyph(G_DOT), ui.log_scale ? "log" : "linear",
             ui_glyph(G_DOT), ui_glyph(G_TIMES), ui_glyph(G_DOT), ui_glyph(G_DOT), at);
    int y0 = r.y + ns + 1, h = r.h - ns - 2;
    keep_top(h);
    for (int i = 0; i < h && top + i < (int)nlines; i++) {
        const struct cline *l = &lines[top + i];
        if (l->heading)
            heading_draw(y0 + i, r.w, l);
        else
            bar_draw(y0 + i, r.w, l, top + i == 0 || lines[top + i - 1].heading ||
                                         lines[top + i - 1].row != l->row);
    }
    ui_textf(r.y + r.h - 1, 1, r.w - 2, ui_attr(ROLE_DIM),
             "%sN: over side A %s o opens another %s x closes the last %s e exports this "
             "table %s Esc back", ui_glyph(G_TIMES), ui_glyph(G_DOT), ui_glyph(G_DOT),
             ui_glyph(G_DOT), ui_glyph(G_DOT));
}

static void step_size(int d)
{
    rebuild();
    for (size_t k = 0; k < nsizes; k++)
        if (sizes[k] == want_bytes && (int)k + d >= 0 && k + (size_t)(d + 1) <= nsizes) {
            want_bytes = sizes[(int)k + d];
            layout();
            top = 0;
            return;
        }
}

/* 1 when used. A view key (1-6, Tab) leaves the compare view and is left to the caller. */
int cmpv_key(int ch)
{
    int page = ui.rows > 12 ? ui.rows - 12 : 1;
    switch (ch) {
    case 27: if (!run_cancel_key()) showing = 0; return 1; /* a run first */
    case KEY_UP: case 'k': top--; return 1;
    case KEY_DOWN: case 'j': top++; return 1;
    case KEY_PPAGE: top -= page; return 1;
    case KEY_NPAGE: top += page; return 1;
    case KEY_HOME: case 'g': top = 0; return 1;
    case KEY_END: case 'G': top = (int)nlines; return 1;
    case '<': case ',': case KEY_LEFT: step_size(-1); return 1;
    case '>': case '.': case KEY_RIGHT: step_size(1); return 1;
    case 'x': case 'X': drop_last(); return 1;
    case '1': case '2': case '3': case '4': case '5': case '6': case '\t': case KEY_BTAB: case 's':
        showing = 0;
        return 0;
    }
    return 0;
}
