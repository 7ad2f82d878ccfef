/* `e`: the rows of the current view, written by the file's extension as `run --out` writes
 * them (export.h): .csv (the `run --csv` schema), .md, .json, .svg; in the compare view, its
 * table (compare.h) in the same four. Proposes accelscope-HOST-YYYYMMDD-HHMMSS.csv, lets the
 * name be edited, refuses what `run --out` refuses (an unknown extension, a missing folder:
 * the dialog stays open, the error shown, the name kept), asks before replacing a regular
 * file, and writes atomically (nothing on disk is lost on failure, no partial file). */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "compare.h"
#include "csv.h"
#include "export.h"
#include "machine.h"

enum { EX_OFF, EX_NAME, EX_CONFIRM };

static int state;
static char err[600]; /* shown in the dialog, the name kept, until the name is edited */
static struct lineedit name;
static struct cell *rows;
static size_t nrows;
static const struct compare_table *table; /* the compare view's, while it is exported */

static int in_view(const struct cell *c)
{
    if (c->r.status == RES_PENDING || c->r.status == RES_RUNNING)
        return 0;
    const struct algo *a = algo_find(c->impl->alg);
    switch (ui.view) {
    case V_PATHS: /* a public-key row is shown at its key size, whatever the size picked */
    case V_MATRIX: return a && c->bytes == algo_cell_size(a, app_cur_size());
    case V_SIZES: return a && app_cur_alg() && sizes_view_has(app_cur_alg(), a);
    default: return 1;
    }
}

static void propose(const char *what);

int export_active(void)
{
    return state != EX_OFF;
}

void export_begin(void)
{
    table = cmpv_showing() ? cmpv_table() : NULL;
    if (cmpv_showing() && !table) {
        ui_set_status(1, "nothing to export: the compare view has no table");
        return;
    }
    if (table) {
        nrows = table->nrows;
        propose("compare");
        return;
    }
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
    propose(machine_get()->host);
}

/* accelscope-WHAT-YYYYMMDD-HHMMSS.csv in the name field; the dialog opens. */
static void propose(const char *what)
{
    char host[256], stamp[32], file[320];
    snprintf(host, sizeof host, "%s", what);
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

struct table_arg {
    enum export_format fmt;
    const struct compare_table *t;
};

static int fill_table(FILE *f, void *arg)
{
    const struct table_arg *a = arg;
    static const enum compare_format as[] = { [EXPORT_CSV] = COMPARE_CSV,
                                              [EXPORT_MD] = COMPARE_MARKDOWN,
                                              [EXPORT_JSON] = COMPARE_JSON };
    if (a->fmt == EXPORT_SVG)
        return compare_write_svg(f, a->t, cmpv_size());
    return compare_write(f, a->t, as[a->fmt]);
}

static int write_table(int force, char *why, size_t n)
{
    struct table_arg a = { EXPORT_CSV, table };
    if (export_format_of(name.text, &a.fmt, why, n) ||
        compare_check_letters(table, a.fmt != EXPORT_CSV && a.fmt != EXPORT_JSON, why, n))
        return -1;
    return csv_write_atomic(name.text, force, fill_table, &a, why, n);
}

static void write_it(int force)
{
    char why[600];
    if (table ? write_table(force, why, sizeof why)
              : export_write_file(name.text, force, rows, nrows, why, sizeof why)) {
        state = EX_NAME; /* stays open with the name, to fix it */
        snprintf(err, sizeof err, "%s", why);
        return;
    }
    state = EX_OFF;
    enum export_format fmt = EXPORT_CSV;
    export_format_of(name.text, &fmt, why, sizeof why);
    static const char *const what[] = { [EXPORT_CSV] = "CSV", [EXPORT_MD] = "Markdown",
                                        [EXPORT_JSON] = "JSON", [EXPORT_SVG] = "SVG chart" };
    ui_set_status(0, "wrote %zu rows to %s (%s%s)", nrows, name.text, table ? "comparison, " : "",
                  fmt == EXPORT_CSV && !table ? "the run --csv schema" : what[fmt]);
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
    /* What can never be written first (a device, a trailing '/'), then the extension, and
     * only then the question about a file in the way. */
    enum export_format fmt;
    int rc = csv_check_dest(name.text, 0, why, sizeof why);
    if (rc >= 0 && export_format_of(name.text, &fmt, why, sizeof why))
        rc = -1;
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
            snprintf(err, sizeof err, "%s kept; choose another name", name.text);
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
    snprintf(lead, sizeof lead, "Export %s%zu rows to: ", table ? "the comparison, " : "", nrows);
    int lw = (int)strlen(lead), tail = 40;
    ui_text(y, 1, lw, ui_attr(ROLE_TAB_ON), lead);
    lineedit_draw(&name, y, 1 + lw, ui.cols - lw - tail - 2, A_NORMAL);
    if (err[0]) { /* the whole line above, over the details: errors name long paths */
        ui_fill(y - 1, 0, ui.cols, ui_attr(ROLE_ERROR));
        ui_text(y - 1, 1, ui.cols - 2, ui_attr(ROLE_ERROR), err);
        ui_text(y, ui.cols - tail, tail - 1, ui_attr(ROLE_WARN), "fix the name, or Esc");
    } else
        ui_textf(y, ui.cols - tail, tail - 1, ui_attr(ROLE_TAB_ON), ".csv .md .json .svg %s Enter "
                 "%s Esc", ui_glyph(G_DOT), ui_glyph(G_DOT));
}
