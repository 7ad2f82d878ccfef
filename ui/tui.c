/* The TUI's entry point and event loop: one poll(2) over the keyboard, the signal pipe, the
 * measurement's workers and the machine-info child; nothing spins, so an idle screen costs
 * nothing and a key is answered as soon as it arrives, measuring or not. */
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
#include "ui.h"

struct app ui;

static const char *const view_names[V_COUNT] = { "Paths", "Sizes", "Matrix", "Machine", "Setup" };

static void tab_hit(int arg, int y, int x)
{
    (void)y;
    (void)x;
    ui.view = arg;
}

static void draw_tabs(int y)
{
    ui_fill(y, 0, ui.cols, A_NORMAL);
    int x = 1;
    for (int v = 0; v < V_COUNT; v++) {
        char t[32];
        int len = snprintf(t, sizeof t, " %d %s ", v + 1, view_names[v]);
        ui_text(y, x, len, ui_attr(v == ui.view ? ROLE_TAB_ON : ROLE_TAB), t);
        hit_add(y, x, len, tab_hit, v);
        x += len + 1;
    }
    char sz[32], right[96] = "";
    if (ui.view == V_PATHS || ui.view == V_MATRIX)
        snprintf(right, sizeof right, "size %s %s %s", ui_glyph(G_LEFT),
                 ui.sel.nsizes ? ui_size(model_cur_size(), sz, sizeof sz) : "-", ui_glyph(G_RIGHT));
    else if (ui.view == V_SIZES)
        snprintf(right, sizeof right, "algorithm %s %s %s", ui_glyph(G_LEFT),
                 model_cur_alg() ? model_cur_alg()->id : "-", ui_glyph(G_RIGHT));
    int rw = (int)strlen(right) - (ui.utf8 ? 4 : 0); /* two 3-byte arrows, one column each */
    if (right[0] && x + rw + 2 < ui.cols)
        ui_text(y, ui.cols - rw - 1, rw, A_BOLD, right);
}

void footer_draw(int y)
{
    static const char *const keys[][2] = {
        { "r", "run" }, { "1-5", "views" }, { "s", "setup" }, { "<>", "size" }, { "l", "log" },
        { "e", "export" }, { "d", "demo" }, { "?", "help" }, { "q", "quit" },
    };
    ui_fill(y, 0, ui.cols, A_NORMAL);
    int x = 1;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *label = i == 0 && ui.run.active ? "cancel" : keys[i][1];
        int kl = (int)strlen(keys[i][0]), ll = (int)strlen(label);
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
    if (ui.run.active) {
        measure_progress(y, ui.cols);
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
    switch (ui.view) {
    case V_PATHS: paths_view_draw(r); break;
    case V_SIZES: sizes_view_draw(r); break;
    case V_MATRIX: matrix_view_draw(r); break;
    case V_MACHINE: machine_view_draw(r); break;
    case V_SETUP: setup_draw(r); break;
    }
    draw_status(ui.rows - 2);
    footer_draw(ui.rows - 1);
    if (ui.help)
        help_draw();
}

static int view_key(int ch)
{
    switch (ui.view) {
    case V_PATHS: return paths_view_key(ch);
    case V_SIZES: return sizes_view_key(ch);
    case V_MATRIX: return matrix_view_key(ch);
    case V_MACHINE: return machine_view_key(ch);
    case V_SETUP: return setup_key(ch);
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
    if (ch == KEY_MOUSE && !export_active()) {
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
    if (ui.view == V_SETUP && setup_editing()) {
        setup_key(ch);
        return;
    }
    switch (ch) {
    case 'q': case 'Q': ui.quit = 1; return;
    case '?': ui.help = 1; return;
    case 'r': case 'R': measure_toggle(); return;
    case 27:
        if (ui.run.active)
            measure_toggle();
        else if (ceiling_cancel_wait())
            ui_set_status(0, "run cancelled before it started");
        return;
    case '1': case '2': case '3': case '4': case '5': ui.view = ch - '1'; return;
    case '\t': ui.view = (ui.view + 1) % V_COUNT; return;
    case KEY_BTAB: ui.view = (ui.view + V_COUNT - 1) % V_COUNT; return;
    case 's': ui.view = V_SETUP; return;
    case 'l': case 'L':
        ui.log_scale = !ui.log_scale;
        ui_set_status(0, "scale: %s", ui.log_scale ? "logarithmic" : "linear");
        return;
    case 'e': case 'E': export_begin(); return;
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

static void loop(void)
{
    int dirty = 1;
    double key_at = 0; /* when the last keys were read: their answer is the next frame */
    int key_busy = 0;  /* and whether a measurement was running then */
    double busy_from = 0; /* a key waits at most one pass of the loop: how long passes take */
    while (!ui.quit && !term_signal_pending()) {
        if (dirty) {
            ui_draw();
            refresh();
            dirty = 0;
        }
        if (key_at > 0) {
            ui_trace(key_busy ? "key_ms_measuring" : "key_ms_idle", (ui_now() - key_at) * 1e3);
            key_at = 0;
        }
        struct pollfd fds[RESULT_MAX_THREADS + 4];
        int n = 0;
        fds[n++] = (struct pollfd){ .fd = 0, .events = POLLIN };
        fds[n++] = (struct pollfd){ .fd = term_sigfd(), .events = POLLIN };
        n += machine_view_pollfd(&fds[n]);
        int timeout = -1;
        if (ui.demo) {
            n += demo_pollfds(fds + n, (int)(sizeof fds / sizeof fds[0]) - n);
            timeout = demo_timeout_ms();
        } else if (ui.run.active) {
            n += runner_pollfds(&ui.run, fds + n, (int)(sizeof fds / sizeof fds[0]) - n);
            timeout = runner_timeout_ms(&ui.run);
            if (timeout < 0 || timeout > 250)
                timeout = 250; /* the progress line's clock */
        }
        if (busy_from > 0 && ui.run.active)
            ui_trace("loop_busy_ms", (ui_now() - busy_from) * 1e3);
        int k = poll(fds, (nfds_t)n, timeout);
        busy_from = ui_now();
        if (k < 0 && errno != EINTR)
            break;
        if (fds[1].revents)
            term_drain_sigfd();
        if (ui.info_fd >= 0 && n > 2 && fds[2].fd == ui.info_fd && fds[2].revents) {
            machine_view_input();
            dirty = 1; /* the machine view, or ceilings on the bars */
        }
        if (ui.demo) {
            demo_step();
            dirty = 1;
        } else if (ui.run.active) {
            runner_step(&ui.run);
            if (!ui.run.active) {
                size_t ok = 0, bad = 0;
                for (size_t i = 0; i < ui.plan.n; i++) {
                    enum res_status s = ui.plan.cells[i].r.status;
                    ok += s == RES_OK;
                    bad += s == RES_WRONG || s == RES_CRASHED || s == RES_TIMEOUT || s == RES_ERROR;
                }
                ui_set_status(bad != 0, "done in %.1f s: %zu cells measured%s%zu failed "
                              "(see their rows)", ui_now() - ui.run.t0, ok, bad ? ", " : "", bad);
                if (!bad)
                    snprintf(ui.status, sizeof ui.status, "done in %.1f s: %zu cells measured",
                             ui_now() - ui.run.t0, ok);
            }
            dirty = 1;
        }
        /* Also after EINTR: curses turns SIGWINCH into KEY_RESIZE on the next read. */
        {
            int ch;
            while ((ch = getch()) != ERR) {
                if (!key_at) {
                    key_at = ui_now();
                    key_busy = ui.run.active || ui.demo;
                }
                key(ch);
                dirty = 1;
                if (ui.quit)
                    break;
            }
        }
    }
}

static void stop_children(void)
{
    if (ui.run.active)
        runner_cancel(&ui.run);
    if (ui.demo)
        demo_end();
    if (ui.info_fd >= 0) {
        kill(ui.info_pid, SIGKILL);
        waitpid(ui.info_pid, NULL, 0);
        close(ui.info_fd);
        ui.info_fd = -1;
    }
}

int ui_main(int demo)
{
    ui.info_fd = -1;
    int refused = term_open();
    if (refused)
        return refused;
    model_init();
    model_rebuild();
    ui_set_status(0, "r measures the selection %s s picks what to measure %s ? lists every key",
                  ui_glyph(G_DOT), ui_glyph(G_DOT));
    ui_draw();
    refresh();
    ui_trace("first_frame_ms", since_launch_ms());
    double t = ui_now();
    model_probe();
    ui_trace("probe_ms", (ui_now() - t) * 1e3);
    machine_view_init();
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
