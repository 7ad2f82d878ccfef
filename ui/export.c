/* `e`: the rows of the current view to CSV in the `run --csv` schema. Proposes
 * accelscope-HOST-YYYYMMDD-HHMMSS.csv, lets the name be edited, refuses what `run --csv`
 * refuses (the dialog stays open, the error shown, the name kept), asks before replacing a
 * regular file, and writes through csv_write_file (atomic; nothing on disk is lost on failure). */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "csv.h"
#include "machine.h"

enum { EX_OFF, EX_NAME, EX_CONFIRM };

static int state;
static char err[600]; /* shown in the dialog, the name kept, until the name is edited */
static struct lineedit name;
static struct cell *rows;
static size_t nrows;

static int in_view(const struct cell *c)
{
    if (c->r.status == RES_PENDING || c->r.status == RES_RUNNING)
        return 0;
    switch (ui.view) {
    case V_PATHS:
    case V_MATRIX: return c->bytes == app_cur_size();
    case V_SIZES: return app_cur_alg() && !strcmp(c->impl->alg, app_cur_alg()->id);
    default: return 1;
    }
}

int export_active(void)
{
    return state != EX_OFF;
}

void export_begin(void)
{
    free(rows);
    size_t n = session_ncells(ui.s);
    rows = malloc((n ? n : 1) * sizeof *rows);
    if (!rows)
        abort();
    nrows = 0;
    for (size_t i = 0; i < n; i++)
        if (in_view(session_cell(ui.s, i)))
            rows[nrows++] = *session_cell(ui.s, i);
    if (!nrows) {
        ui_set_status(1, "nothing to export in this view: measure first (r)");
        return;
    }
    char host[256], stamp[32], file[320];
    snprintf(host, sizeof host, "%s", machine_get()->host);
    for (char *p = host; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';
    time_t now = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime_r(&now, &tm));
    snprintf(file, sizeof file, "accelscope-%s-%s.csv", host, stamp);
    lineedit_set(&name, file);
    state = EX_NAME;
    err[0] = 0;
}

static void write_it(int force)
{
    char why[600];
    if (csv_write_file(name.text, force, rows, nrows, why, sizeof why)) {
        state = EX_NAME; /* stays open with the name, to fix it */
        snprintf(err, sizeof err, "%s", why);
        return;
    }
    state = EX_OFF;
    ui_set_status(0, "wrote %zu rows to %s (the run --csv schema)", nrows, name.text);
}

/* Enter on the name: what `run --csv` refuses is refused here before anything is asked;
 * only a regular file in the way leads to the overwrite question. */
static void submit(void)
{
    char why[600];
    if (!name.len) {
        snprintf(err, sizeof err, "give a file name");
        return;
    }
    int rc = csv_check_dest(name.text, 0, why, sizeof why);
    if (rc < 0)
        snprintf(err, sizeof err, "%s", why);
    else if (rc > 0)
        state = EX_CONFIRM;
    else
        write_it(0);
}

int export_key(int ch)
{
    int enter = ch == '\r' || ch == '\n' || ch == KEY_ENTER;
    if (state == EX_NAME && !enter)
        err[0] = 0;
    if (ch == 27) {
        ui_set_status(0, state == EX_CONFIRM ? "export cancelled: %s left as it was"
                                             : "export cancelled%s", state == EX_CONFIRM ? name.text : "");
        state = EX_OFF;
        return 1;
    }
    if (state == EX_CONFIRM) {
        if (ch == 'y' || ch == 'Y')
            write_it(1);
        else if (ch == 'n' || ch == 'N' || enter) {
            state = EX_NAME; /* back to the name, to choose another */
            snprintf(err, sizeof err, "kept; choose another name");
        }
        return 1;
    }
    if (enter)
        submit();
    else
        lineedit_key(&name, ch);
    return 1;
}

void export_draw(int y)
{
    ui_fill(y, 0, ui.cols, ui_attr(ROLE_TAB_ON));
    if (state == EX_CONFIRM) {
        ui_textf(y, 1, ui.cols - 2, ui_attr(ROLE_ERROR),
                 "%s exists: overwrite it? y = replace, n = choose another name, Esc = cancel",
                 name.text);
        return;
    }
    char lead[64];
    snprintf(lead, sizeof lead, "Export %zu rows to: ", nrows);
    int lw = (int)strlen(lead), tail = 28;
    if (err[0] && (int)strlen(err) + 2 > tail) /* the error gets up to half the line */
        tail = (int)strlen(err) + 2 < ui.cols / 2 ? (int)strlen(err) + 2 : ui.cols / 2;
    ui_text(y, 1, lw, ui_attr(ROLE_TAB_ON), lead);
    lineedit_draw(&name, y, 1 + lw, ui.cols - lw - tail - 2, A_NORMAL);
    if (err[0])
        ui_text(y, ui.cols - tail, tail - 1, ui_attr(ROLE_ERROR), err);
    else
        ui_textf(y, ui.cols - tail, tail - 1, ui_attr(ROLE_TAB_ON), "Enter writes %s Esc cancels",
                 ui_glyph(G_DOT));
}
