/* Measuring from the TUI: the `r` key, the progress line, and the one status line a run
 * leaves when it ends. The session runs the cells (src/session.h); this only asks and tells. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "lastrun.h"
#include "report.h"
#include "store.h"

int ui_save_runs = 1;

static double pressed; /* when r started the run: "done in" counts from there */

void run_key(void)
{
    int queued = session_queued(ui.s);
    if (session_cancel(ui.s)) {
        if (queued)
            ui_set_status(0, "run cancelled before it started");
        return; /* else the session's SESSION_RUN_DONE writes the status */
    }
    char why[512];
    pressed = ui_now();
    /* the run saved last (the TUI's own previous one too): its clocks and figures judge this
     * run's absolute figures */
    session_set_lastrun(ui.s, lastrun_load(why, sizeof why));
    switch (session_start(ui.s, why, sizeof why)) {
    case 0: /* a plan of unavailable cells only has already ended and said so */
        if (session_running(ui.s))
            ui_set_status(0, "measuring %zu cells; r or Esc cancels", session_ncells(ui.s));
        break;
    case 1:
        ui_set_status(0, "measuring the silicon's limits first (under a second)%s r or Esc "
                         "cancels", ui_glyph(G_ELLIPSIS));
        break;
    default:
        ui_set_status(1, "%s", why);
        break;
    }
}

int run_cancel_key(void)
{
    if (!session_running(ui.s))
        return 0;
    run_key();
    return 1;
}

/* ", 2 failed" when n is not 0. */
static int part(char *b, size_t n, size_t count, const char *what)
{
    return count ? snprintf(b, n, ", %zu %s", count, what) : 0;
}

/* Once per run, when it ends: what it amounts to, failures and cells left unmeasured said
 * as plainly as the ones measured. */
static void done_status(void)
{
    struct session_tally t;
    session_tally(ui.s, &t);
    char tail[320] = "";
    int k = 0;
    k += part(tail + k, sizeof tail - (size_t)k, t.failed, "failed (see their rows)");
    k += part(tail + k, sizeof tail - (size_t)k, t.cancelled, "cancelled");
    k += part(tail + k, sizeof tail - (size_t)k, t.pending, "not reached");
    part(tail + k, sizeof tail - (size_t)k, t.unavailable, "unavailable here");
    if (t.cancelled || t.pending)
        ui_set_status(t.failed != 0, "cancelled: %zu cells measured are kept%s", t.ok, tail);
    else
        ui_set_status(t.failed != 0, "done in %.1f s: %zu cells measured%s", ui_now() - pressed,
                      t.ok, tail);
}

void run_save_toggle(void)
{
    char dir[4096], why[256];
    ui_save_runs = !ui_save_runs;
    if (store_dir(dir, sizeof dir, why, sizeof why))
        snprintf(dir, sizeof dir, "nowhere: %s", why);
    ui_set_status(0, ui_save_runs ? "a finished run is saved in %s" : "saving is off: a finished "
                  "run is not kept (it was saved in %s)", dir);
}

/* Where a run went, in what the status line has left after used columns: the whole path
 * (the home folder as ~) where it fits, else the results folder said short (the o list and
 * `accelscope --help` name it) and the file's name. */
static const char *where(const char *path, size_t used)
{
    static char b[4200];
    const char *home = getenv("HOME"), *base = strrchr(path, '/');
    size_t hl = home ? strlen(home) : 0;
    if (hl > 1 && !strncmp(path, home, hl) && path[hl] == '/')
        snprintf(b, sizeof b, "~%s", path + hl);
    else
        snprintf(b, sizeof b, "%s", path);
    if (base && used + strlen(b) > (size_t)(ui.cols > 2 ? ui.cols - 2 : 0))
        snprintf(b, sizeof b, "%sresults%s", ui_glyph(G_ELLIPSIS), base);
    return b;
}

/* The cells that ran (measured, failed or unavailable), as `run` would save them. */
static void save(void)
{
    size_t n = session_ncells(ui.s), k = 0;
    struct cell *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        abort();
    for (size_t i = 0; i < n; i++) {
        const struct cell *s = session_cell(ui.s, i);
        if (s->r.status != RES_PENDING && s->r.status != RES_RUNNING)
            c[k++] = *s;
    }
    char path[4200], why[600], said[8192];
    int err = ui.status_err;
    if (k && !ui_save_runs)
        snprintf(said, sizeof said, "%s %s saving is off (setup)", ui.status, ui_glyph(G_DOT));
    else if (k && store_save(c, k, path, sizeof path, why, sizeof why)) {
        snprintf(said, sizeof said, "%s %s not saved: %s", ui.status, ui_glyph(G_DOT), why);
        err = 1;
    } else if (k)
        snprintf(said, sizeof said, "%s %s saved to %s", ui.status, ui_glyph(G_DOT),
                 where(path, strlen(ui.status) + 14));
    if (k)
        ui_set_status(err, "%s", said);
    free(c);
}

/* Last on the status line, after where the run went (a narrow terminal cuts this first):
 * what the machine did to the run, its time and its noisy cells, in its commonest reason's
 * CSV word ("12 % of rounds retaken, mostly slow-memory"; `run` and the CSV say all). */
static void retaken_status(void)
{
    struct session_tally t;
    session_tally(ui.s, &t);
    const struct stats_retaken *r = &t.retaken;
    int top = stats_retaken_top(r);
    if (!r->retaken || !r->rounds || top < 0)
        return;
    char said[8192], share[16];
    snprintf(said, sizeof said, "%s %s %s %% of rounds retaken, mostly %s", ui.status,
             ui_glyph(G_DOT), stats_retaken_share(r, share, sizeof share),
             result_retaken_key(top));
    ui_set_status(ui.status_err, "%s", said);
}

/* After that: cells whose clock moved from the last saved run's, or whose figure did not
 * repeat the one it claimed (report.h) */
static void lastrun_status(void)
{
    struct report_lastrun k;
    report_lastrun_of(session_cell(ui.s, 0), session_ncells(ui.s), &k);
    char said[8192];
    if (k.moved) {
        snprintf(said, sizeof said, "%s %s clock %+.1f..%+.1f %% off the last saved run's: "
                 "MB/s at this clock only", ui.status, ui_glyph(G_DOT), k.lo_pct, k.hi_pct);
        ui_set_status(ui.status_err, "%s", said);
    }
    if (k.off) {
        snprintf(said, sizeof said, "%s %s %zu of %zu figures %.1f..%.1f %% off the last saved "
                 "run's: not claimed to repeat", ui.status, ui_glyph(G_DOT), k.off, k.claimed,
                 k.off_lo, k.off_hi);
        ui_set_status(ui.status_err, "%s", said);
    }
    if (k.near) {
        snprintf(said, sizeof said, "%s %s %zu of %zu figures %.1f..%.0f %% off the last saved "
                 "run's: not claimed again", ui.status, ui_glyph(G_DOT), k.near, k.claimed,
                 STATS_ABSOLUTE_KEPT_PCT, STATS_ABSOLUTE_REPEAT_PCT);
        ui_set_status(ui.status_err, "%s", said);
    }
}

void run_event(enum session_event ev)
{
    if (ev == SESSION_RUN_DONE) {
        done_status();
        save();
        retaken_status();
        lastrun_status();
        cmpv_invalidate();
    }
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
void run_progress_draw(int y, int w)
{
    struct session_progress p;
    session_progress(ui.s, &p);
    ui_fill(y, 0, w, ui_attr(ROLE_TAB_ON));
    if (!p.active || p.cell >= session_ncells(ui.s))
        return;
    const struct cell *c = session_cell(ui.s, p.cell);
    char sz[32], el[32], left[32];
    ui_textf(y, 1, w - 2, ui_attr(ROLE_TAB_ON),
             "cell %zu of %zu %s %s %s/%s %s %s %d/%d samples %s %s elapsed %s ~%s left "
             "%s r/Esc cancels",
             p.done + 1, p.total, ui_glyph(G_DOT), c->impl->alg, path_label[c->impl->path],
             c->impl->name, ui_size(c->bytes, sz, sizeof sz), ui_glyph(G_DOT), c->r.samples,
             c->r.samples_wanted * (c->r.threads ? c->r.threads : 1), ui_glyph(G_DOT),
             dur(p.elapsed, el, sizeof el), ui_glyph(G_DOT), dur(p.eta, left, sizeof left),
             ui_glyph(G_DOT));
}
