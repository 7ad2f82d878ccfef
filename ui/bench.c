/* ACCELSCOPE_TUI_BENCH=N: fills the plan with synthetic figures, times N full redraws of
 * every view (curses forced to repaint the whole screen each time), appends the figures to
 * ACCELSCOPE_TUI_TRACE (or stderr) and leaves. Hidden: for tests/bench/tui.sh only. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"

int bench_maybe(void)
{
    const char *v = getenv("ACCELSCOPE_TUI_BENCH");
    int n = v ? atoi(v) : 0;
    if (n <= 0)
        return 0;
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
    const char *path = getenv("ACCELSCOPE_TUI_TRACE");
    FILE *f = path ? fopen(path, "a") : NULL;
    fputs(out, f ? f : stderr);
    if (f)
        fclose(f);
    return 1;
}
