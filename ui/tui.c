/* The TUI's entry point and event loop: one poll(2) over the keyboard, the signal pipe, the
 * session's workers and ceilings child, and the machine-info child; nothing spins, so an idle
 * screen costs nothing and a key is answered as soon as it arrives, measuring or not. */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "noise.h"
#include "ui.h"

struct app ui;

static const char *const view_names[V_COUNT] = { "Paths", "Sizes", "Matrix", "Machine", "Setup",
                                                    "Scaling" };

static void tab_hit(int arg, int y, int x)
{
    (void)y;
    (void)x;
    cmpv_show(arg == V_COUNT); /* the compare tab, there while a saved run is open */
    if (arg < V_COUNT)
        ui.view = arg;
}

static void draw_tabs(int y)
{
    ui_fill(y, 0, ui.cols, A_NORMAL);
    int x = 1;
    for (int v = 0; v < V_COUNT; v++) {
        char t[32];
        int len = snprintf(t, sizeof t, " %d %s ", v + 1, view_names[v]);
        ui_text(y, x, len, ui_attr(v == ui.view && !cmpv_showing() ? ROLE_TAB_ON : ROLE_TAB), t);
        hit_add(y, x, len, tab_hit, v);
        x += len + 1;
    }
    if (cmpv_nfiles()) {
        ui_text(y, x, 11, ui_attr(cmpv_showing() ? ROLE_TAB_ON : ROLE_TAB), " o Compare ");
        hit_add(y, x, 11, tab_hit, V_COUNT);
        x += 12;
    }
    char sz[32], right[96] = "";
    if (cmpv_showing())
        right[0] = 0;
    else if (ui.view == V_PATHS || ui.view == V_MATRIX || ui.view == V_SCALING)
        snprintf(right, sizeof right, "size %s %s %s", ui_glyph(G_LEFT),
                 app_sel()->nsizes ? ui_size(app_cur_size(), sz, sizeof sz) : "-", ui_glyph(G_RIGHT));
    else if (ui.view == V_SIZES)
        snprintf(right, sizeof right, "algorithm %s %s %s", ui_glyph(G_LEFT),
                 app_cur_alg() ? app_cur_alg()->id : "-", ui_glyph(G_RIGHT));
    int rw = (int)strlen(right) - (ui.utf8 ? 4 : 0); /* two 3-byte arrows, one column each */
    if (right[0] && x + rw + 2 < ui.cols)
        ui_text(y, ui.cols - rw - 1, rw, A_BOLD, right);
}

void footer_draw(int y)
{
    static const char *const keys[][2] = {
        { "r", "run" }, { "1-6", "views" }, { "s", "setup" }, { "<>", "size" }, { "l", "log" },
        { "e", "export" }, { "o", "open" }, { "d", "demo" }, { "?", "help" }, { "q", "quit" },
    };
    ui_fill(y, 0, ui.cols, A_NORMAL);
    int x = 1, need = 3; /* "cancel" is longer than "run" */
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        need += (int)(strlen(keys[i][0]) + strlen(keys[i][1])) + 3;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *label = i == 0 && session_running(ui.s) ? "cancel" : keys[i][1];
        int kl = (int)strlen(keys[i][0]), ll = (int)strlen(label);
        if (i == 3 && need > ui.cols)
            continue; /* 80 columns: the tab bar shows the size and its arrows already */
        if (x + kl + ll + 2 > ui.cols)
            break;
        ui_text(y, x, kl, ui_attr(ROLE_KEY), keys[i][0]);
        ui_text(y, x + kl + 1, ll, A_NORMAL, label);
        x += kl + ll + 3;
    }
}

static void draw_status(int y)
{
    if (export_active()) {
        export_draw(y);
        return;
    }
    if (session_running(ui.s) && !session_queued(ui.s)) {
        run_progress_draw(y, ui.cols);
        return;
    }
    ui_fill(y, 0, ui.cols, A_NORMAL);
    ui_text(y, 1, ui.cols - 2, ui.status_err ? ui_attr(ROLE_ERROR) : 0, ui.status);
}

static void draw_too_small(void)
{
    char a[96], b[96];
    snprintf(a, sizeof a, "accelscope needs at least %dx%d;", UI_MIN_COLS, UI_MIN_LINES);
    snprintf(b, sizeof b, "this terminal is %dx%d.", ui.cols, ui.rows);
    const char *c = "Enlarge it, or press q to quit.";
    int y = ui.rows / 2 - 1;
    const char *l[3] = { a, b, c };
    for (int i = 0; i < 3; i++) {
        int len = (int)strlen(l[i]);
        int x = (ui.cols - len) / 2;
        ui_text(y + i, x < 0 ? 0 : x, ui.cols, A_BOLD, l[i]);
    }
}

void ui_draw(void)
{
    hit_clear();
    getmaxyx(stdscr, ui.rows, ui.cols);
    erase();
    if (ui.rows < UI_MIN_LINES || ui.cols < UI_MIN_COLS) {
        draw_too_small();
        return;
    }
    if (ui.demo) {
        demo_draw();
        return;
    }
    int hl = header_lines(ui.cols);
    header_draw((struct rect){ 0, 0, hl, ui.cols });
    draw_tabs(hl);
    struct rect r = { hl + 1, 0, ui.rows - hl - 3, ui.cols };
    switch (cmpv_showing() ? -1 : ui.view) {
    case -1: cmpv_draw(r); break;
    case V_PATHS: paths_view_draw(r); break;
    case V_SIZES: sizes_view_draw(r); break;
    case V_MATRIX: matrix_view_draw(r); break;
    case V_MACHINE: machine_view_draw(r); break;
    case V_SETUP: setup_view_draw(r); break;
    case V_SCALING: scaling_view_draw(r); break;
    }
    draw_status(ui.rows - 2);
    footer_draw(ui.rows - 1);
    if (open_active())
        open_draw();
    if (ui.help)
        help_draw();
}

static int view_key(int ch)
{
    if (cmpv_showing())
        return cmpv_key(ch);
    switch (ui.view) {
    case V_PATHS: return paths_view_key(ch);
    case V_SIZES: return sizes_view_key(ch);
    case V_MATRIX: return matrix_view_key(ch);
    case V_MACHINE: return machine_view_key(ch);
    case V_SETUP: return setup_view_key(ch);
    case V_SCALING: return scaling_view_key(ch);
    }
    return 0;
}

static void mouse(void)
{
    MEVENT m;
    if (getmouse(&m) != OK)
        return;
    if (m.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
        if (ui.help) {
            ui.help = 0;
            return;
        }
        hit_click(m.y, m.x);
    } else if (m.bstate & BUTTON4_PRESSED) {
        view_key(KEY_UP);
#ifdef BUTTON5_PRESSED
    } else if (m.bstate & BUTTON5_PRESSED) {
        view_key(KEY_DOWN);
#endif
    }
}

static void key(int ch)
{
    if (ch == KEY_RESIZE)
        return;
    if (ui.rows < UI_MIN_LINES || ui.cols < UI_MIN_COLS) {
        if (ch == 'q' || ch == 'Q')
            ui.quit = 1;
        return;
    }
    if (ui.demo) {
        demo_key(ch);
        return;
    }
    if (ch == KEY_MOUSE && !export_active() && !open_active()) {
        mouse();
        return;
    }
    if (ui.help) {
        help_key(ch);
        return;
    }
    if (export_active()) {
        export_key(ch);
        return;
    }
    if (open_active()) {
        open_key(ch);
        return;
    }
    if (cmpv_showing() && cmpv_key(ch))
        return;
    if (ui.view == V_SETUP && setup_view_editing()) {
        setup_view_key(ch);
        return;
    }
    switch (ch) {
    case 'q': case 'Q': ui.quit = 1; return;
    case '?': ui.help = 1; return;
    case 'r': case 'R': run_key(); return;
    case 27: run_cancel_key(); return;
    case 'c': case 'C': app_show_cmdline(); return;
    case 'u': case 'U':
        ui.show_unavail = !ui.show_unavail;
        ui_set_status(0, "%s", ui.show_unavail ? "every unavailable row shown (u folds them)"
                                               : "a reason shared by a whole path is said once "
                                                 "(u shows the rows)");
        return;
    case '1': case '2': case '3': case '4': case '5': case '6': ui.view = ch - '1'; return;
    case '\t': ui.view = (ui.view + 1) % V_COUNT; return;
    case KEY_BTAB: ui.view = (ui.view + V_COUNT - 1) % V_COUNT; return;
    case 's': ui.view = V_SETUP; return;
    case 'l': case 'L':
        ui.log_scale = !ui.log_scale;
        ui_set_status(0, "scale: %s", ui.log_scale ? "logarithmic" : "linear");
        return;
    case 'e': case 'E': export_begin(); return;
    case 'o': /* the compare view when a run is open and not shown, else the list */
        if (cmpv_nfiles() && !cmpv_showing())
            cmpv_show(1);
        else
            open_begin();
        return;
    case 'O': open_begin(); return;
    case 'd': case 'D': demo_begin(0); return;
    case 12: clearok(curscr, TRUE); return; /* Ctrl-L */
    }
    view_key(ch);
}

/* ACCELSCOPE_TUI_TRACE=FILE appends timing lines (first frame, probing) for the benchmark. */
static void ui_trace(const char *what, double ms)
{
    static const char *path;
    static int looked;
    if (!looked) {
        path = getenv("ACCELSCOPE_TUI_TRACE");
        looked = 1;
    }
    if (!path)
        return;
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s %.2f\n", what, ms);
        fclose(f);
    }
}

static double since_launch_ms(void)
{
    const char *t0 = getenv("ACCELSCOPE_TUI_T0"); /* CLOCK_REALTIME ns at launch */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (!t0)
        return -1;
    double now = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
    return now - strtod(t0, NULL) / 1e6;
}

/* The descriptors one pass waits on, and how long it may wait. */
struct wait {
    struct pollfd fds[2 * RESULT_MAX_THREADS + 8];
    int n, machine; /* machine: index of the info child's pipe, -1 when none */
    int timeout;
};

static int min_timeout(int a, int b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

static void gather(struct wait *w)
{
    int max = (int)(sizeof w->fds / sizeof w->fds[0]);
    w->n = 0;
    w->fds[w->n++] = (struct pollfd){ .fd = 0, .events = POLLIN };
    w->fds[w->n++] = (struct pollfd){ .fd = term_sigfd(), .events = POLLIN };
    w->machine = machine_view_pollfd(&w->fds[w->n]) ? w->n++ : -1;
    /* The session is polled even during the demo: its ceilings child may still answer. */
    w->n += session_pollfds(ui.s, w->fds + w->n, max - w->n);
    w->timeout = session_timeout_ms(ui.s);
    if (session_running(ui.s) && (w->timeout < 0 || w->timeout > 250))
        w->timeout = 250; /* the progress line's clock */
    if (ui.demo) {
        w->n += demo_pollfds(w->fds + w->n, max - w->n);
        w->timeout = min_timeout(w->timeout, demo_timeout_ms());
    }
}

/* Whatever arrived: the signal pipe, the info child, the session's and the demo's children. */
static void after_poll(const struct wait *w)
{
    if (w->fds[1].revents)
        term_drain_sigfd();
    if (w->machine >= 0 && w->fds[w->machine].revents) {
        machine_view_input();
        ui.dirty = 1;
    }
    if (session_step(ui.s))
        ui.dirty = 1;
    if (ui.demo) {
        demo_step();
        ui.dirty = 1;
    }
}

/* While measuring, figures change with every sample (tens a second) but a frame is drawn at
 * most every LIVE_FRAME_S, unless a key asks for one: each frame costs this process and the
 * terminal (tmux, ssh) CPU time on the other cores, and on a VM whose vCPUs share a physical
 * core that slows the worker being timed (the pictures' runs were noisier than headless). */
#define LIVE_FRAME_S 0.2

static void loop(void)
{
    double key_at = 0; /* when the last keys were read: their answer is the next frame */
    int key_busy = 0;  /* and whether a measurement was running then */
    double busy_from = 0; /* a key waits at most one pass of the loop: how long passes take */
    double drawn = 0;     /* when the last frame was drawn */
    int urgent = 1;       /* a key or a resize: draw now */
    ui.dirty = 1;
    while (!ui.quit && !term_signal_pending()) {
        int live = session_running(ui.s) && !ui.demo;
        if (ui.dirty && (urgent || !live || ui_now() - drawn >= LIVE_FRAME_S)) {
            ui_draw();
            refresh();
            ui.dirty = 0;
            urgent = 0;
            drawn = ui_now();
        }
        if (key_at > 0) {
            ui_trace(key_busy ? "key_ms_measuring" : "key_ms_idle", (ui_now() - key_at) * 1e3);
            key_at = 0;
        }
        struct wait w;
        gather(&w);
        if (ui.dirty && live) { /* come back for the frame held back */
            int left = (int)((drawn + LIVE_FRAME_S - ui_now()) * 1e3) + 1;
            w.timeout = min_timeout(w.timeout, left > 0 ? left : 0);
        }
        if (busy_from > 0 && session_running(ui.s))
            ui_trace("loop_busy_ms", (ui_now() - busy_from) * 1e3);
        int k = poll(w.fds, (nfds_t)w.n, w.timeout);
        busy_from = ui_now();
        if (k < 0 && errno != EINTR)
            break;
        after_poll(&w);
        if (session_running(ui.s))
            ui.dirty = 1; /* the progress line's clock */
        /* Also after EINTR: curses turns SIGWINCH into KEY_RESIZE on the next read. */
        int ch;
        while ((ch = getch()) != ERR) {
            if (!key_at) {
                key_at = ui_now();
                key_busy = session_running(ui.s) || ui.demo;
            }
            key(ch);
            ui.dirty = 1;
            urgent = 1;
            if (ui.quit)
                break;
        }
    }
}

static void stop_children(void)
{
    if (ui.demo)
        demo_end();
    machine_view_end();
    session_free(ui.s); /* cancels a run, ends the ceilings child */
    ui.s = NULL;
}

int ui_main(int demo)
{
    ui.info_fd = -1;
    int refused = term_open();
    if (refused)
        return refused;
    app_init();
    ui_set_status(0, "r measures the selection %s s picks what to measure %s ? lists every key",
                  ui_glyph(G_DOT), ui_glyph(G_DOT));
    ui_draw();
    refresh();
    ui_trace("first_frame_ms", since_launch_ms());
    double t = ui_now();
    session_probe(ui.s);
    app_rebuild(); /* unavailable cells say why */
    ui_trace("probe_ms", (ui_now() - t) * 1e3);
    struct noise nz; /* what will make figures noisy, said before any is taken */
    noise_survey(&nz);
    if (nz.n) {
        char b[512];
        ui_set_status(0, "figures may be noisy: %s", noise_join(&nz, b, sizeof b));
    }
    if (!demo) /* the stage demo's own session measures them (demo.c) */
        session_ceilings_start(ui.s);
    if (bench_maybe()) {
        stop_children();
        term_close();
        return 0;
    }
    if (demo)
        demo_begin(1);
    loop();
    int sig = term_signal_pending();
    stop_children();
    term_close();
    if (sig) {
        fprintf(stderr, "accelscope: stopped by signal %d; the terminal was restored\n", sig);
        return 128 + sig;
    }
    return 0;
}
