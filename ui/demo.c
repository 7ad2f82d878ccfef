/* Stage demo: full screen, high contrast, one algorithm at a time measured live on each path,
 * big bars and a big "xN faster" read from the back of a room; cycles by itself. Any key
 * pauses (and resumes), q leaves. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "registry.h"

#define DEMO_BYTES 16384
#define DEMO_SECONDS 0.3
#define DEMO_HOLD 4.0

static const char *const cycle[] = { "aes-128-gcm", "aes-256-cbc", "sha256", "chacha20-poly1305",
                                     "aes-128-ctr", "sha1", "sha512" };
#define NCYCLE (sizeof cycle / sizeof cycle[0])

/* Which implementation stands for each path on stage: the first of these that exists. */
static const char *const pick[PATH_COUNT][3] = {
    [PATH_C] = { "portable" },
    [PATH_ASM] = { "openssl-simd", "openssl-int" },
    [PATH_HW] = { "openssl" },
    [PATH_KERNEL] = { "kernel" },
};

static struct cell cells[PATH_COUNT];
static size_t ncells;
static struct runner dr;
static size_t alg;
static int paused, holding;
static double hold_until;

static void load(void)
{
    ncells = 0;
    for (int p = 0; p < PATH_COUNT; p++)
        for (int k = 0; k < 3 && pick[p][k]; k++) {
            const struct impl *im = registry_find(cycle[alg], pick[p][k]);
            if (im && im->path == (enum path)p) {
                cells[ncells++] = (struct cell){ .impl = im, .bytes = DEMO_BYTES };
                break;
            }
        }
    holding = 0;
    runner_start(&dr, cells, ncells, 1, DEMO_SECONDS, 0);
}

void demo_begin(int standalone)
{
    if (ui.run.active) {
        ui_set_status(1, "a measurement is running: cancel it (r) before the demo");
        return;
    }
    ui.demo = 1;
    ui.standalone_demo = standalone;
    paused = 0;
    alg = 0;
    while (alg < NCYCLE && !algo_find(cycle[alg]))
        alg++;
    load();
}

void demo_end(void)
{
    runner_cancel(&dr);
    ui.demo = 0;
    if (ui.standalone_demo)
        ui.quit = 1;
}

int demo_pollfds(struct pollfd *fds, int max)
{
    return runner_pollfds(&dr, fds, max);
}

int demo_timeout_ms(void)
{
    if (paused)
        return -1;
    if (holding) {
        double left = hold_until - ui_now();
        return left > 0 ? (int)(left * 1000) + 1 : 0;
    }
    return runner_timeout_ms(&dr);
}

void demo_step(void)
{
    if (paused)
        return;
    runner_step(&dr);
    if (!dr.active && !holding) {
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
        if (dr.active)
            runner_cancel(&dr); /* the figures so far stay on stage */
        return 1;
    }
    paused = 0;
    if (holding)
        hold_until = ui_now() + DEMO_HOLD;
    else {
        size_t i = 0;
        while (i < ncells && cells[i].r.status != RES_CANCELLED && cells[i].r.status != RES_PENDING)
            i++;
        if (i < ncells) /* the cells before i keep their figures */
            runner_start(&dr, cells + i, ncells - i, 1, DEMO_SECONDS, 0);
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
    for (size_t i = 0; i < ncells; i++)
        if (cells[i].impl->path == p && cells[i].r.status == RES_OK)
            return &cells[i];
    return NULL;
}

void demo_draw(void)
{
    int bg = ui_attr(ROLE_DEMO);
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

    /* Headline: hardware against portable C. */
    const struct cell *hw = cell_of(PATH_HW), *c = cell_of(PATH_C);
    if (hw && c && c->r.mb_per_s > 0) {
        char big[32];
        double f = hw->r.mb_per_s / c->r.mb_per_s;
        snprintf(big, sizeof big, f >= 10 ? "x%.0f" : "x%.1f", f);
        int w = big_text(4, 2, big, ui_attr(ROLE_PATH_HW) | A_BOLD, 1);
        ui_textf(5, 4 + w, ui.cols - 6 - w, ui_attr(ROLE_DEMO_BIG), "%s%.1f faster", ui_glyph(G_TIMES), f);
        ui_text(7, 4 + w, ui.cols - 6 - w, bg, "hardware instructions vs portable C");
    } else {
        ui_textf(5, 2, ui.cols - 4, bg, "measuring%s", ui_glyph(G_ELLIPSIS));
    }

    int y0 = 10, avail = ui.rows - 1 - y0;
    int per = ncells ? avail / (int)ncells : avail;
    int bh = per - 1;
    if (bh > 5)
        bh = 5;
    if (bh < 1)
        bh = 1;
    double hi = 0;
    for (size_t i = 0; i < ncells; i++)
        if (cells[i].r.mb_per_s > hi)
            hi = cells[i].r.mb_per_s;
    int lw = 14, vw = 26, bw = ui.cols - lw - vw - 4;
    for (size_t i = 0; i < ncells; i++) {
        const struct cell *k = &cells[i];
        int y = y0 + (int)i * (bh + 1);
        int pr = ui_attr(ui_path_role(k->impl->path)) | A_BOLD;
        ui_text(y, 2, lw - 1, pr, path_label[k->impl->path]);
        if (bh > 1)
            ui_text(y + 1, 2, lw - 1, bg, k->impl->name);
        const struct result *r = &k->r;
        char st[48], rate[32];
        if ((r->status == RES_OK || r->status == RES_RUNNING) && r->mb_per_s > 0) {
            for (int j = 0; j < bh; j++)
                ui_bar(y + j, 2 + lw, bw, hi > 0 ? r->mb_per_s / hi : 0, pr);
            ui_text(y, 4 + lw + bw, vw, ui_attr(ROLE_DEMO_BIG), ui_rate(r->mb_per_s, rate, sizeof rate));
            if (c && c->r.mb_per_s > 0 && r->status == RES_OK && k != c) {
                double f = r->mb_per_s / c->r.mb_per_s;
                ui_textf(y + (bh > 1), 4 + lw + bw, vw, bg, "%s%.1f %s", ui_glyph(G_TIMES), f,
                         f >= 1 ? "faster" : "(slower)");
            }
        } else {
            const char *t = r->status == RES_PENDING   ? "waiting"
                          : r->status == RES_RUNNING ? "verifying"
                                                     : result_status_text(r, st, sizeof st);
            ui_textf(y, 2 + lw, bw + vw, bg, "%s%s%s", t, r->reason[0] && r->status != RES_RUNNING ? ": " : "",
                     r->status != RES_RUNNING ? r->reason : "");
        }
    }
}
