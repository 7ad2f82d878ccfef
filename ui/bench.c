/* ACCELSCOPE_TUI_BENCH=N: fills the plan with synthetic figures, times N full redraws of
 * every view (curses forced to repaint the whole screen each time), appends the figures to
 * ACCELSCOPE_TUI_TRACE (or stderr) and leaves. Hidden: for tests/bench/tui.sh only.
 * With ACCELSCOPE_TUI_BENCH_CSV=FILE instead: opening FILE as `o` does and drawing its compare
 * view (the first frame, then N full redraws), and the peak RSS. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "compare.h"

static void bench_out(const char *s)
{
    const char *path = getenv("ACCELSCOPE_TUI_TRACE");
    FILE *f = path ? fopen(path, "a") : NULL;
    fputs(s, f ? f : stderr);
    if (f)
        fclose(f);
}

static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

/* CPU time of the process (user + system), in ms: what the machine's load does not inflate. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* What a user waits for after Enter in the open list: the file read, the table built, the
 * view drawn and on the terminal. */
static void bench_compare(const char *file, int n)
{
    char why[600], out[800];
    double t0 = ui_now(), c0 = cpu_ms();
    if (cmpv_load(file, why, sizeof why)) {
        snprintf(out, sizeof out, "compare_error %s\n", why);
        bench_out(out);
        return;
    }
    double loaded = (ui_now() - t0) * 1e3;
    ui_draw();
    refresh();
    double first = (ui_now() - t0) * 1e3, first_cpu = cpu_ms() - c0;
    t0 = ui_now();
    for (int k = 0; k < n; k++) {
        clearok(curscr, TRUE);
        ui_draw();
        refresh();
    }
    const struct compare_table *t = cmpv_table();
    snprintf(out, sizeof out, "compare_ms %dx%d rows %zu sides %zu open+draw %.3f (read %.3f; cpu %.3f) "
             "redraw %.3f peak_rss_kb %ld\n", ui.cols, ui.rows, t ? t->nrows : 0,
             t ? t->nsides : 0, first, loaded, first_cpu,
             (ui_now() - t0) * 1e3 / n, peak_rss_kb());
    bench_out(out);
}

int bench_maybe(void)
{
    const char *v = getenv("ACCELSCOPE_TUI_BENCH");
    int n = v ? atoi(v) : 0;
    if (n <= 0)
        return 0;
    if (getenv("ACCELSCOPE_TUI_BENCH_CSV")) {
        bench_compare(getenv("ACCELSCOPE_TUI_BENCH_CSV"), n);
        return 1;
    }
    /* Synthetic figures written into the session's cells: only ever drawn, never derived
     * from, and the program leaves after timing (the session offers no way to fake a run). */
    for (size_t i = 0; i < session_ncells(ui.s); i++) {
        struct result *r = &((struct cell *)session_cell(ui.s, i))->r;
        if (r->status == RES_UNAVAILABLE)
            continue;
        r->status = RES_OK;
        r->mb_per_s = 50.0 + (double)((i * 7919) % 3000);
        r->mb_min = r->mb_per_s * 0.9;
        r->mb_max = r->mb_per_s * 1.1;
        r->spread_pct = (double)(i % 12);
        r->samples = 5;
    }
    /* The machine view drawn full: wait for `info` to finish. */
    session_ceilings_start(ui.s); /* started already, unless for the stage demo */
    while (!session_ceilings_ready(ui.s)) {
        struct pollfd fds[4];
        int nfds = session_pollfds(ui.s, fds, 4);
        poll(fds, (nfds_t)nfds, 1000);
        session_step(ui.s);
    }
    machine_view_wait();
    char out[1024];
    int off = 0;
    for (int view = 0; view < V_COUNT; view++) {
        ui.view = view;
        double t0 = ui_now();
        for (int k = 0; k < n; k++) {
            clearok(curscr, TRUE);
            ui_draw();
            refresh();
        }
        double full = (ui_now() - t0) * 1e3 / n;
        t0 = ui_now();
        for (int k = 0; k < n; k++)
            ui_draw(); /* composing only: what the terminal's output costs is the rest */
        off += snprintf(out + off, sizeof out - (size_t)off, "redraw_ms %s %dx%d %.3f compose %.3f\n",
                        (const char *[V_COUNT]){ "paths", "sizes", "matrix", "machine", "setup",
                                                  "scaling" }[view],
                        ui.cols, ui.rows, full, (ui_now() - t0) * 1e3 / n);
    }
    /* What a user waits for: a view switch repaints most of the screen, no forced clear. */
    double t0 = ui_now();
    for (int k = 0; k < n; k++) {
        ui.view = k % 2 ? V_PATHS : V_MATRIX;
        ui_draw();
        refresh();
    }
    off += snprintf(out + off, sizeof out - (size_t)off, "switch_ms paths<->matrix %dx%d %.3f\n",
                    ui.cols, ui.rows, (ui_now() - t0) * 1e3 / n);
    bench_out(out);
    return 1;
}
