/* Live measurement: the cells of a plan one after another through the engine, polled beside
 * the keyboard. The `r` key and the progress line live here too. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "engine.h"
#include "registry.h"

static void start_cell(struct runner *r)
{
    struct cell *c = &r->cells[r->i];
    struct engine_job job = { .impl = c->impl, .bytes = c->bytes, .threads = r->threads,
                              .seconds = r->seconds, .samples = ENGINE_MIN_SAMPLES,
                              .decrypt = r->decrypt };
    memset(&c->r, 0, sizeof c->r);
    c->r.status = RES_RUNNING;
    c->r.threads = r->threads;
    r->cell_t0 = ui_now();
    r->e = engine_start(&job);
}

/* Finishes the current cell and starts the next; cells that end at once (unavailable)
 * are passed in the same call. */
static void advance(struct runner *r)
{
    while (r->e && engine_step(r->e)) {
        r->cells[r->i].r = *engine_result(r->e);
        if (r->cells[r->i].r.status != RES_UNAVAILABLE) {
            r->busy += ui_now() - r->cell_t0;
            r->ran++;
        }
        engine_free(r->e);
        r->e = NULL;
        if (++r->i >= r->n) {
            r->active = 0;
            return;
        }
        start_cell(r);
    }
}

void runner_start(struct runner *r, struct cell *cells, size_t n, int threads,
                  double seconds, int decrypt)
{
    memset(r, 0, sizeof *r);
    r->cells = cells;
    r->n = n;
    r->threads = threads;
    r->seconds = seconds;
    r->decrypt = decrypt;
    r->t0 = ui_now();
    if (!n)
        return;
    for (size_t i = 0; i < n; i++) {
        memset(&cells[i].r, 0, sizeof cells[i].r);
        cells[i].r.status = RES_PENDING;
        cells[i].r.threads = threads;
    }
    r->active = 1;
    start_cell(r);
    advance(r);
}

int runner_pollfds(const struct runner *r, struct pollfd *fds, int max)
{
    return r->e ? engine_pollfds(r->e, fds, max) : 0;
}

int runner_timeout_ms(const struct runner *r)
{
    if (!r->e)
        return -1;
    /* Every pipe closed but a worker not yet reaped: it is exiting; look again shortly
     * rather than sleep until the watchdog. */
    struct pollfd fds[RESULT_MAX_THREADS];
    if (!engine_pollfds(r->e, fds, RESULT_MAX_THREADS))
        return 5;
    return engine_timeout_ms(r->e);
}

int runner_step(struct runner *r)
{
    if (!r->e)
        return 0;
    int before = r->cells[r->i].r.samples;
    size_t i = r->i;
    if (engine_step(r->e) || r->i != i) {
        advance(r);
        return 1;
    }
    r->cells[r->i].r = *engine_result(r->e);
    return r->cells[r->i].r.samples != before;
}

void runner_cancel(struct runner *r)
{
    if (!r->e)
        return;
    engine_cancel(r->e);
    r->cells[r->i].r = *engine_result(r->e);
    engine_free(r->e);
    r->e = NULL;
    r->active = 0;
    r->cancelled = 1;
}

/* Seconds left: cells still to run at the mean cost of those that ran, or the time asked
 * per cell plus a worker's start-up before any has. */
double runner_eta(const struct runner *r)
{
    double per = r->ran ? r->busy / (double)r->ran : r->seconds + 0.15;
    size_t left = 0;
    for (size_t i = r->i; i < r->n; i++) {
        char why[8];
        if (model_avail(r->cells[i].impl, why, sizeof why) != 0)
            left++;
    }
    double in_cell = r->e ? ui_now() - r->cell_t0 : 0;
    double eta = (double)left * per - (in_cell < per ? in_cell : per);
    return eta > 0 ? eta : 0;
}

void measure_toggle(void)
{
    if (ui.run.active) {
        runner_cancel(&ui.run);
        size_t done = 0;
        for (size_t i = 0; i < ui.plan.n; i++)
            done += ui.plan.cells[i].r.status == RES_OK;
        ui_set_status(0, "cancelled: %zu cells measured are kept, the one running is marked "
                         "cancelled", done);
        return;
    }
    if (ceiling_cancel_wait()) {
        ui_set_status(0, "run cancelled before it started");
        return;
    }
    char why[512];
    if (!ui.sel.nalgs || !ui.sel.nsizes) {
        ui_set_status(1, "nothing to measure: pick at least one algorithm and one size (s)");
        return;
    }
    if (select_check(&ui.sel, why, sizeof why)) {
        ui_set_status(1, "%s", why);
        return;
    }
    if (!ui.plan.n) {
        ui_set_status(1, "no implementation matches: switch paths or implementations on (s)");
        return;
    }
    if (!ceiling_ready_for_run())
        return;
    runner_start(&ui.run, ui.plan.cells, ui.plan.n, ui.threads, ui.seconds, ui.decrypt);
    ui_set_status(0, "measuring %zu cells; r or Esc cancels", ui.plan.n);
}

static const char *dur(double s, char *b, size_t n)
{
    if (s < 60)
        snprintf(b, n, "%.1f s", s);
    else
        snprintf(b, n, "%d min %02d s", (int)s / 60, (int)s % 60);
    return b;
}

/* "cell 3 of 24  aes-128-gcm hardware/openssl 16 KiB  3/5 samples  2.1 s elapsed  ~5 s left" */
void measure_progress(int y, int w)
{
    const struct runner *r = &ui.run;
    ui_fill(y, 0, w, ui_attr(ROLE_TAB_ON));
    if (!r->active || r->i >= r->n)
        return;
    const struct cell *c = &r->cells[r->i];
    char sz[32], el[32], left[32];
    ui_textf(y, 1, w - 2, ui_attr(ROLE_TAB_ON),
             "cell %zu of %zu %s %s %s/%s %s %s %d/%d samples %s %s elapsed %s ~%s left "
             "%s r/Esc cancels",
             r->i + 1, r->n, ui_glyph(G_DOT), c->impl->alg, path_label[c->impl->path],
             c->impl->name, ui_size(c->bytes, sz, sizeof sz), ui_glyph(G_DOT), c->r.samples,
             c->r.samples_wanted * (c->r.threads ? c->r.threads : 1), ui_glyph(G_DOT),
             dur(ui_now() - r->t0, el, sizeof el), ui_glyph(G_DOT),
             dur(runner_eta(r), left, sizeof left), ui_glyph(G_DOT));
}
