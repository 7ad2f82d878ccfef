/* Stage demo: full screen, high contrast, one algorithm at a time measured live on each path,
 * big bars and a big "xN faster" read from the back of a room; cycles by itself. Any key
 * pauses (and resumes), q leaves. It is a session of its own (src/session.h): one algorithm,
 * one size, one implementation per path. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "registry.h"

#define DEMO_BYTES 16384
#define DEMO_SECONDS 0.3
#define DEMO_HOLD 4.0

static const char *const stock[] = { "aes-128-gcm", "aes-256-cbc", "sha256", "chacha20-poly1305",
                                     "aes-128-ctr", "sha1", "sha512" };
/* What is cycled through: the stock list, or (demo --against) the saved file's algorithms. */
static const char *const *cycle = stock;
static size_t ncycle = sizeof stock / sizeof stock[0];
static const char *theirs[32];
#define NCYCLE ncycle

/* Which implementation stands for each path on stage: the first of these that exists. */
static const char *const pick[PATH_COUNT][3] = {
    [PATH_C] = { "portable" },
    [PATH_ASM] = { "openssl-simd", "openssl-int" },
    [PATH_HW] = { "openssl" },
    [PATH_KERNEL] = { "kernel" },
};

static struct session *ds; /* the demo's own session, beside the TUI's */
static size_t alg;
static int paused, holding, loaded;
static double hold_until;

/* The selection of one stage: the algorithm, 16 KiB, and on each path the implementation
 * that stands for it (an include list, as `run -i` would say it). */
static void stage_selection(struct selection *sel, const char *id)
{
    select_defaults(sel);
    sel->algs[0] = algo_find(id);
    sel->nalgs = 1;
    sel->sizes[0] = DEMO_BYTES;
    sel->nsizes = 1;
    sel->seconds = DEMO_SECONDS;
    sel->nimpls = 0;
    for (int p = 0; p < PATH_COUNT; p++)
        for (int k = 0; k < 3 && pick[p][k]; k++) {
            const struct impl *im = registry_find(id, pick[p][k]);
            if (im && im->path == (enum path)p) {
                snprintf(sel->impls[sel->nimpls++], SELECT_NAME, "%s", im->name);
                break;
            }
        }
}

static void load(void)
{
    char why[256];
    struct selection *sel = session_sel_edit(ds, why, sizeof why);
    if (!sel)
        return; /* cannot happen: the demo cancels its run before it moves on */
    stage_selection(sel, cycle[alg]);
    session_rebuild(ds);
    holding = 0;
    if (session_start(ds, why, sizeof why) < 0)
        ui_set_status(1, "demo: %s", why);
}

void demo_begin(int standalone)
{
    if (session_running(ui.s)) {
        ui_set_status(1, "a measurement is running: cancel it (r) before the demo");
        return;
    }
    if (!ds) {
        ds = session_new();
        session_probe(ds);
    }
    ui.demo = 1;
    ui.standalone_demo = standalone;
    paused = 0;
    loaded = 0;
    alg = 0;
    size_t k = demo_vs_algs(theirs, sizeof theirs / sizeof theirs[0]);
    if (k) {
        cycle = theirs;
        ncycle = k;
    }
    while (alg < NCYCLE && !algo_find(cycle[alg]))
        alg++;
    demo_step();
}

void demo_end(void)
{
    session_cancel(ds);
    ui.demo = 0;
    if (ui.standalone_demo)
        ui.quit = 1;
}

int demo_pollfds(struct pollfd *fds, int max)
{
    return session_pollfds(ds, fds, max);
}

int demo_timeout_ms(void)
{
    if (paused)
        return session_timeout_ms(ds); /* only a child still to reap */
    if (holding) {
        double left = hold_until - ui_now();
        return left > 0 ? (int)(left * 1000) + 1 : 0;
    }
    return session_timeout_ms(ds);
}

void demo_step(void)
{
    session_step(ds);
    if (paused)
        return;
    /* The ceilings are the process's: the demo's run waits for the same child as the TUI's
     * (session_start queues it), never a second set of microbenchmarks. */
    if (!loaded) {
        loaded = 1;
        load();
        return;
    }
    if (loaded && !session_running(ds) && !holding) {
        holding = 1;
        hold_until = ui_now() + DEMO_HOLD;
    } else if (holding && ui_now() >= hold_until) {
        alg = (alg + 1) % NCYCLE;
        load();
    }
}

int demo_key(int ch)
{
    if (ch == KEY_RESIZE || ch == KEY_MOUSE)
        return 1;
    if (ch == 'q' || ch == 'Q' || ch == 27) {
        demo_end();
        return 1;
    }
    if (!paused) {
        paused = 1;
        session_cancel(ds); /* the figures so far stay on stage */
        return 1;
    }
    paused = 0;
    if (holding) {
        hold_until = ui_now() + DEMO_HOLD;
    } else {
        char why[256]; /* the paths measured before the pause keep their figures */
        if (session_resume(ds, why, sizeof why) < 0)
            ui_set_status(1, "demo: %s", why);
    }
    return 1;
}

/* 3x5 digits for the headline. */
static const char *glyph_rows(char c)
{
    switch (c) {
    case '0': return "####.##.##.####";
    case '1': return ".#.##..#..#.###";
    case '2': return "###..#####..###";
    case '3': return "###..####..####";
    case '4': return "#.##.####..#..#";
    case '5': return "####..###..####";
    case '6': return "####..####.####";
    case '7': return "###..#..#..#..#";
    case '8': return "####.#####.####";
    case '9': return "####.####..####";
    case '.': return ".............#.";
    case 'x': return "...#.#.#.#.#...";
    default: return "...............";
    }
}

static int big_text(int y, int x, const char *s, int attr, int draw)
{
    int w = 0;
    for (const char *p = s; *p; p++) {
        int cw = *p == '.' ? 2 : 4;
        if (draw) {
            const char *g = glyph_rows(*p);
            for (int r = 0; r < 5; r++)
                for (int c = 0; c < 3; c++)
                    if (g[r * 3 + c] == '#')
                        ui_bar(y + r, x + w + c - (*p == '.' ? 1 : 0), 1, 1.0, attr);
        }
        w += cw;
    }
    return w;
}

static const struct cell *cell_of(enum path p)
{
    for (size_t i = 0; i < session_ncells(ds); i++) {
        const struct cell *c = session_cell(ds, i);
        if (c->impl->path == p && c->r.status == RES_OK)
            return c;
    }
    return NULL;
}

static void frame(int bg)
{
    for (int y = 0; y < ui.rows; y++)
        ui_fill(y, 0, ui.cols, bg);
    char cpu[160];
    ui_fill(0, 0, ui.cols, ui_attr(ROLE_TITLE));
    ui_textf(0, 1, ui.cols - 2, ui_attr(ROLE_TITLE), "accelscope demo %s %s", ui_glyph(G_DOT),
             header_cpu(cpu, sizeof cpu));
    ui_fill(ui.rows - 1, 0, ui.cols, ui_attr(ROLE_TITLE));
    ui_textf(ui.rows - 1, 1, ui.cols - 2, ui_attr(ROLE_TITLE),
             "%s %s any key pauses %s q leaves %s next: %s", paused ? "PAUSED" : "live",
             ui_glyph(G_DOT), ui_glyph(G_DOT), ui_glyph(G_DOT), cycle[(alg + 1) % NCYCLE]);
    char title[96], upper[96];
    snprintf(title, sizeof title, "%s", cycle[alg]);
    for (size_t i = 0; i <= strlen(title); i++)
        upper[i] = (char)(title[i] >= 'a' && title[i] <= 'z' ? title[i] - 32 : title[i]);
    ui_textf(2, 2, ui.cols - 4, ui_attr(ROLE_DEMO_BIG), "%s   %s   16 KiB messages, one core",
             upper, ui_glyph(G_DOT));
}

/* Headline: hardware against portable C. */
static void headline(int bg, const struct cell *c)
{
    const struct cell *hw = cell_of(PATH_HW);
    if (!hw || !c || !(c->r.mb_per_s > 0)) {
        ui_textf(5, 2, ui.cols - 4, bg, "measuring%s", ui_glyph(G_ELLIPSIS));
        return;
    }
    char big[32];
    double f = hw->r.mb_per_s / c->r.mb_per_s;
    snprintf(big, sizeof big, f >= 10 ? "x%.0f" : "x%.1f", f);
    int w = big_text(4, 2, big, ui_attr(ROLE_PATH_HW) | A_BOLD, 1);
    ui_textf(5, 4 + w, ui.cols - 6 - w, ui_attr(ROLE_DEMO_BIG), "%s%.1f faster%s", ui_glyph(G_TIMES),
             f, hw->d.noisy || c->d.noisy ? " (noisy figures)" : "");
    /* Never credit the hardware for what SIMD did: without the algorithm's crypto
     * instructions, OpenSSL's default is its vector code (cell.h, same_as). */
    if (hw->d.same_as)
        ui_textf(7, 4 + w, ui.cols - 6 - w, bg, "SIMD code vs portable C: %s", hw->d.same_why);
    else
        ui_text(7, 4 + w, ui.cols - 6 - w, bg, "hardware instructions vs portable C");
}

struct lane {
    int y, bh, lw, vw, bw, bg;
    double hi;
};

/* One path's bar, its figure and how it compares with portable C (c). */
static void lane_draw(const struct lane *l, const struct cell *k, const struct cell *c)
{
    int pr = ui_attr(ui_path_role(k->impl->path)) | A_BOLD;
    ui_text(l->y, 2, l->lw - 1, pr, path_label[k->impl->path]);
    if (l->bh > 1)
        ui_text(l->y + 1, 2, l->lw - 1, l->bg, k->impl->name);
    const struct result *r = &k->r;
    char st[48], rate[32];
    int vx = 4 + l->lw + l->bw;
    if ((r->status == RES_OK || r->status == RES_RUNNING) && r->mb_per_s > 0) {
        for (int j = 0; j < l->bh; j++)
            ui_bar(l->y + j, 2 + l->lw, l->bw, l->hi > 0 ? r->mb_per_s / l->hi : 0, pr);
        ui_text(l->y, vx, l->vw, ui_attr(ROLE_DEMO_BIG), ui_rate(r->mb_per_s, rate, sizeof rate));
        if (c && c->r.mb_per_s > 0 && r->status == RES_OK && k != c) {
            double f = r->mb_per_s / c->r.mb_per_s;
            ui_textf(l->y + (l->bh > 1), vx, l->vw, l->bg, "%s%.1f %s", ui_glyph(G_TIMES), f,
                     f >= 1 ? "faster" : "(slower)");
        }
        return;
    }
    const char *t = r->status == RES_PENDING   ? "waiting"
                  : r->status == RES_RUNNING ? "verifying"
                                             : result_status_text(r, st, sizeof st);
    ui_textf(l->y, 2 + l->lw, l->bw + l->vw, l->bg, "%s%s%s", t,
             r->reason[0] && r->status != RES_RUNNING ? ": " : "",
             r->status != RES_RUNNING ? r->reason : "");
}

void demo_draw(void)
{
    int bg = ui_attr(ROLE_DEMO);
    frame(bg);
    const struct cell *c = cell_of(PATH_C);
    headline(bg, c);
    size_t n = session_ncells(ds);
    int y0 = 10, avail = ui.rows - 1 - y0, vs = demo_vs_active(); /* vs: the saved board's row */
    int per = (n ? avail / (int)n : avail) - vs;
    struct lane l = { .bh = per - 1 > 5 ? 5 : per - 1 < 1 ? 1 : per - 1, .lw = 14, .vw = 26,
                      .bg = bg, .hi = demo_vs_hi(cycle[alg], DEMO_BYTES) };
    l.bw = ui.cols - l.lw - l.vw - 4;
    for (size_t i = 0; i < n; i++)
        if (session_cell(ds, i)->r.mb_per_s > l.hi)
            l.hi = session_cell(ds, i)->r.mb_per_s;
    if (vs)
        demo_vs_headline(9, ui.cols, cycle[alg], DEMO_BYTES, session_cell(ds, 0), n,
                         session_running(ds), bg);
    for (size_t i = 0; i < n; i++) {
        l.y = y0 + (int)i * (l.bh + 1 + vs);
        lane_draw(&l, session_cell(ds, i), c);
        if (vs)
            demo_vs_lane(l.y + l.bh, 2 + l.lw, l.bw, l.vw, l.hi, cycle[alg],
                         session_cell(ds, i)->impl->path, DEMO_BYTES, bg);
    }
}
