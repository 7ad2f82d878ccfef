/* The TUI's hold on its measurement session: the selection as the pickers edit it, and the
 * screen state that follows it (the size and algorithm shown). Everything measured, derived
 * or available lives in the session (src/session.h); ui/ only draws it. */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"

/* Interactive: the whole default selection in about a minute (run's default is 0.15 s). */
#define APP_SECONDS 0.1

static void on_event(struct session *s, enum session_event ev, size_t cell, void *arg)
{
    (void)s;
    (void)cell;
    (void)arg;
    ui.dirty = 1;
    if (ev == SESSION_CEILINGS)
        machine_view_init(); /* its clock measurement never runs beside the ceilings' */
    run_event(ev);
}

void app_init(void)
{
    ui.s = session_new();
    session_set_listener(ui.s, on_event, NULL);
    struct selection *sel = session_sel_edit(ui.s, NULL, 0);
    if (sel)
        sel->seconds = APP_SECONDS;
    app_rebuild();
    ui.size_idx = app_sel()->nsizes - 1;
}

const struct selection *app_sel(void)
{
    return session_sel(ui.s);
}

struct selection *app_sel_edit(void)
{
    char why[256];
    struct selection *sel = session_sel_edit(ui.s, why, sizeof why);
    if (!sel)
        ui_set_status(1, "%s (r or Esc cancels it)", why);
    return sel;
}

static int clamp(int v, int n)
{
    return v >= n ? n - 1 : v < 0 ? 0 : v;
}

void app_rebuild(void)
{
    session_rebuild(ui.s);
    ui.size_idx = clamp(ui.size_idx, app_sel()->nsizes);
    ui.alg_idx = clamp(ui.alg_idx, app_sel()->nalgs);
}

size_t app_cur_size(void)
{
    const struct selection *sel = app_sel();
    return sel->nsizes ? sel->sizes[ui.size_idx] : 0;
}

const struct algo *app_cur_alg(void)
{
    const struct selection *sel = app_sel();
    return sel->nalgs ? sel->algs[ui.alg_idx] : NULL;
}

int app_avail(const struct impl *im, char *why, size_t n)
{
    int ok = session_avail(ui.s, im, why, n);
    if (ok < 0 && n)
        snprintf(why, n, "probing%s", ui_glyph(G_ELLIPSIS));
    return ok;
}

/* `c`: the selection as the `accelscope run` line that measures the same cells. */
void app_show_cmdline(void)
{
    char *cmd = session_cmdline(ui.s);
    ui_set_status(0, "%s", cmd);
    free(cmd);
}
